import Foundation

/// Debian's `chromium` (on macOS Homebrew's Chromium.app), run headless on a page as a user's browser would
/// load it (`make deps-browser` installs it; tests that need it are skipped
/// with a message when it is missing).
enum Chromium {
    /// The browser's path, or nil when it is not installed.
    static let path: String? = {
        let candidates = [
            "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/local/bin/chromium", "/opt/homebrew/bin/chromium",
            "/Applications/Chromium.app/Contents/MacOS/Chromium",
        ]
        for candidate in candidates
        where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        return nil
    }()

    static var isAvailable: Bool { path != nil }

    static let skipMessage =
        "chromium is not installed and could not be (`make deps-browser` installs Debian's package or Homebrew's cask): "
        + "the report's browser tests are skipped"

    struct Run {
        var status: Int32
        /// The page's DOM after its scripts ran (`--dump-dom`), or empty.
        var dom: String
        /// What the page's scripts logged (Chromium's `CONSOLE` log lines).
        var console: [String]
    }

    /// Loads `url` headless and returns the DOM after load (or writes a
    /// screenshot to `screenshot`, `width`×`height` CSS pixels).
    static func load(_ url: String, screenshot: URL? = nil, width: Int = 1400, height: Int = 2000) throws -> Run {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("lf-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        var arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
            "--hide-scrollbars", "--enable-logging=stderr", "--v=0", "--user-data-dir=\(profile.path)",
            "--virtual-time-budget=5000", "--window-size=\(width),\(height)",
        ]
        if let screenshot {
            arguments.append("--screenshot=\(screenshot.path)")
        } else {
            arguments.append("--dump-dom")
        }
        arguments.append(url)
        let output = try run(path!, arguments)
        let console = output.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
        return Run(status: output.status, dom: output.stdout, console: console)
    }

    /// The number of distinct colours in a PNG file (decoded by python3's zlib,
    /// which every machine here has), or nil when python3 is missing.
    static func distinctColours(png: URL) throws -> Int? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { return nil }
        let output = try run("/usr/bin/python3", ["-c", pngColoursScript, png.path])
        return Int(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Reads an 8-bit, non-interlaced RGB or RGBA PNG, undoes the row filters, counts colours.
    private static let pngColoursScript = """
        import sys, zlib, struct
        data = open(sys.argv[1], 'rb').read()
        assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n'
        pos, idat = 8, b''
        while pos < len(data):
            length, kind = struct.unpack('>I4s', data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            if kind == b'IHDR': width, height, depth, colour = struct.unpack('>IIBB', body[:10])
            if kind == b'IDAT': idat += body
            pos += 12 + length
        assert depth == 8 and colour in (2, 6)
        bpp = 4 if colour == 6 else 3
        raw, stride = zlib.decompress(idat), width * bpp
        previous, colours, i = bytearray(stride), set(), 0
        for _ in range(height):
            kind, row = raw[i], bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
            for x in range(stride):
                a = row[x - bpp] if x >= bpp else 0
                b = previous[x]; c = previous[x - bpp] if x >= bpp else 0
                if kind == 1: row[x] = (row[x] + a) & 255
                elif kind == 2: row[x] = (row[x] + b) & 255
                elif kind == 3: row[x] = (row[x] + (a + b) // 2) & 255
                elif kind == 4:
                    p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    row[x] = (row[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            colours.update(bytes(row[k:k + 3]) for k in range(0, stride, bpp))
            previous = row
        print(len(colours))
        """

    private static func run(_ executable: String, _ arguments: [String]) throws -> Launchflow.Output {
        try runProcess(URL(fileURLWithPath: executable), arguments)
    }
}
