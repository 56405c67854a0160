import LaunchflowCore

/// The containers atrace text comes in besides a plain file:
///
/// - **`atrace -z`** (and `adb shell atrace -z …`): a line `TRACE:` (after
///   `capturing trace... done`, when atrace printed it), then the trace text
///   compressed with zlib. Old `adb` turned every `\n` of the stream into
///   `\r\n`; a capture that does not inflate is tried again with them undone
///   (as catapult's systrace does).
/// - **systrace HTML** (`systrace.py -o trace.html`): the trace text inside
///   one or several `<script class="trace-data" type="application/text">`
///   blocks (a block may also hold Chrome JSON), or, in the legacy form
///   (catapult before 2015), in a JavaScript string `var linuxPerfData = "\
///   …\n\` whose escapes are undone.
///
/// The text handed on keeps the file's line numbers: everything outside the
/// trace text is replaced by its line breaks, so a message's line is the
/// line of the HTML file.
enum AtraceContainer {
    /// What a container held.
    struct Unwrapped {
        var bytes: [UInt8]
        var format: Trace.Format
        var notes: [String] = []
        /// A Chrome JSON block of a systrace HTML file without atrace text: to be read as a Chrome trace.
        var isChromeJSON = false
    }

    // MARK: atrace -z

    /// Where the zlib data of an `atrace -z` capture starts: after a line
    /// `TRACE:` among the first lines, when a zlib header (0x78) follows.
    static func compressedStart(_ bytes: [UInt8]) -> Int? {
        let head = bytes.prefix(4096)
        guard let mark = AtraceReader.firstIndex(of: Array("TRACE:".utf8), in: head) else { return nil }
        guard mark == 0 || bytes[mark - 1] == 0x0A else { return nil }
        var k = mark + 6
        if k < bytes.count, bytes[k] == 0x0D { k += 1 }
        guard k < bytes.count, bytes[k] == 0x0A else { return nil }
        k += 1
        guard k + 1 < bytes.count, bytes[k] == 0x78, (UInt16(bytes[k]) << 8 | UInt16(bytes[k + 1])) % 31 == 0 else {
            return nil
        }
        return k
    }

    /// The text of an `atrace -z` capture whose zlib data starts at `start`,
    /// or nil after an error in `log` (in atrace's words).
    static func inflateCapture(_ bytes: [UInt8], from start: Int, file: String, log: inout ImportLog) -> Unwrapped? {
        let data = Array(bytes[start...])
        do {
            let text = try Gzip.decompress(data, trailingAllowed: true)
            return Unwrapped(
                bytes: text, format: .atrace,
                notes: [
                    "an atrace -z capture: the trace after 'TRACE:' is zlib-compressed (\(plural(data.count, "byte")), \(plural(text.count, "byte")) once inflated); its lines are numbered in the inflated text"
                ])
        } catch {
            // Old adb wrote `\r\n` for every `\n` of the stream (systrace undoes it the same way).
            let undone = undoCarriageReturns(data)
            if undone.count < data.count, let text = try? Gzip.decompress(undone, trailingAllowed: true) {
                return Unwrapped(
                    bytes: text, format: .atrace,
                    notes: [
                        "an atrace -z capture whose line breaks adb had turned into \\r\\n: undone, then inflated (\(plural(text.count, "byte"))); its lines are numbered in the inflated text"
                    ])
            }
            log.error(
                file,
                "an atrace -z capture (zlib-compressed after 'TRACE:') that does not inflate: at byte \(start + error.offset): \(error.message) (a capture cut off, or changed by a text transfer?); nothing was imported"
            )
            return nil
        }
    }

    private static func undoCarriageReturns(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.count)
        var k = 0
        while k < data.count {
            if data[k] == 0x0D, k + 1 < data.count, data[k + 1] == 0x0A {
                k += 1
                continue
            }
            out.append(data[k])
            k += 1
        }
        return out
    }

    // MARK: systrace HTML

    /// Whether `bytes` start like an HTML page (`<!DOCTYPE html`, `<html`, or a
    /// comment followed by one of them): systrace's output, not an Instruments export.
    static func looksLikeHTML(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(2048), as: UTF8.self).lowercased()
        var text = Substring(head).drop { $0 == "\u{FEFF}" || $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        if text.hasPrefix("<!doctype html") || text.hasPrefix("<html") { return true }
        if text.hasPrefix("<!--"), let end = text.range(of: "-->") {
            text = text[end.upperBound...].drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
            return text.hasPrefix("<!doctype html") || text.hasPrefix("<html")
        }
        return false
    }

    /// The trace text of a systrace HTML file, or nil after an error in `log`
    /// (in systrace's words).
    static func systraceText(_ bytes: [UInt8], file: String, log: inout ImportLog) -> Unwrapped? {
        var blocks = dataBlocks(bytes)
        var legacy = false
        if blocks.isEmpty, let block = legacyBlock(bytes) {
            blocks = [block]
            legacy = true
        }
        guard !blocks.isEmpty else {
            log.error(
                file,
                "an HTML file without trace data: systrace HTML keeps its trace in <script class=\"trace-data\"> blocks (or, in old versions, 'var linuxPerfData'), and this page has none; nothing to import"
            )
            return nil
        }
        var text: [UInt8] = []
        var atraceBlocks = 0
        var json: [[UInt8]] = []
        for block in blocks {
            let content = block.content
            let first = content.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
            if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                json.append(content)
                continue
            }
            guard AtraceReader.looksLikeAtrace(content) else { continue }
            atraceBlocks += 1
            // Line breaks up to the block's first line, so that its lines keep their numbers in the file.
            let newlines = block.line - 1 - text.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            if newlines > 0 { text += [UInt8](repeating: 0x0A, count: newlines) }
            text += content
            if text.last != 0x0A { text.append(0x0A) }
        }
        var notes: [String] = []
        let form = legacy ? "its legacy 'var linuxPerfData' string" : "\(plural(atraceBlocks, "trace-data block"))"
        if atraceBlocks > 0 {
            notes.append("systrace HTML: the atrace text of \(form) is read; lines are the HTML file's")
            if !json.isEmpty {
                notes.append(
                    "systrace HTML: \(plural(json.count, "trace-data block")) of Chrome JSON beside the atrace text \(json.count == 1 ? "is" : "are") not read (import it from a JSON file of its own)"
                )
            }
            return Unwrapped(bytes: text, format: .systrace, notes: notes)
        }
        if json.count == 1 {
            return Unwrapped(
                bytes: json[0], format: .chrome,
                notes: ["systrace HTML: its one trace-data block is Chrome JSON, read as a Chrome trace"],
                isChromeJSON: true)
        }
        log.error(
            file,
            json.isEmpty
                ? "systrace HTML whose \(plural(blocks.count, "trace-data block")) hold no atrace text (no '# tracer:' header and no tracing_mark_write lines); nothing to import"
                : "systrace HTML with \(json.count) trace-data blocks of Chrome JSON and no atrace text: save each as a JSON file and import those; nothing was imported"
        )
        return nil
    }

    struct Block {
        var content: [UInt8]
        /// The 1-based line of the HTML file where the content starts.
        var line: Int
    }

    /// The `<script class="trace-data" …>` blocks, in file order.
    static func dataBlocks(_ bytes: [UInt8]) -> [Block] {
        var blocks: [Block] = []
        let open = Array("<script".utf8)
        let close = Array("</script>".utf8)
        var from = 0
        var lines = 1
        var counted = 0
        while let start = AtraceReader.firstIndex(of: open, in: bytes[from...]) {
            guard let tagEnd = bytes[start...].firstIndex(of: UInt8(ascii: ">")) else { break }
            let tag = String(decoding: bytes[start..<tagEnd], as: UTF8.self)
            guard let end = AtraceReader.firstIndex(of: close, in: bytes[(tagEnd + 1)...]) else { break }
            from = end + close.count
            guard tag.contains("trace-data") else { continue }
            var contentStart = tagEnd + 1
            // The content starts on the line after the tag when the tag ends its line.
            if contentStart < end, bytes[contentStart] == 0x0A { contentStart += 1 }
            lines += bytes[counted..<contentStart].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            counted = contentStart
            blocks.append(Block(content: Array(bytes[contentStart..<end]), line: lines))
        }
        return blocks
    }

    /// The legacy form: `var linuxPerfData = "…";`, a JavaScript string whose
    /// lines end in `\n\`. Escapes are undone so that each line of the file
    /// stays one line (`\n` then an escaped line break make one break).
    static func legacyBlock(_ bytes: [UInt8]) -> Block? {
        guard let mark = AtraceReader.firstIndex(of: Array("linuxPerfData".utf8), in: bytes[...]),
            let quote = bytes[mark...].firstIndex(of: UInt8(ascii: "\""))
        else { return nil }
        let line = 1 + bytes[..<quote].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        var out: [UInt8] = []
        var k = quote + 1
        var pendingBreak = false
        while k < bytes.count {
            let byte = bytes[k]
            if byte == UInt8(ascii: "\"") { break }
            guard byte == UInt8(ascii: "\\"), k + 1 < bytes.count else {
                out.append(byte)  // (a raw line break is not valid JavaScript, but it keeps the lines)
                pendingBreak = false
                k += 1
                continue
            }
            let next = bytes[k + 1]
            k += 2
            switch next {
            case 0x0A:  // an escaped line break: the line of the file ends
                if !pendingBreak { out.append(0x0A) }
                pendingBreak = false
            case 0x0D where k < bytes.count && bytes[k] == 0x0A:
                k += 1
                if !pendingBreak { out.append(0x0A) }
                pendingBreak = false
            case UInt8(ascii: "n"):
                out.append(0x0A)
                pendingBreak = true
            case UInt8(ascii: "t"): out.append(0x09)
            default: out.append(next)
            }
            if next != UInt8(ascii: "n") && next != 0x0A && next != 0x0D { pendingBreak = false }
        }
        // The content starts on the line of the quote; an escaped break right after it starts the next.
        return Block(content: out, line: line)
    }
}
