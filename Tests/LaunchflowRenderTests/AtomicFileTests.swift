import Foundation
import Testing

@testable import LaunchflowCore

extension RenderTests {
    @Suite struct AtomicFileTests {
        func temporaryDirectory() throws -> String {
            let path = NSTemporaryDirectory() + "lf-atomic-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return path
        }

        @Test func writesAndReplacesKeepingPermissions() throws {
            let dir = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let path = dir + "/a.svg"
            try writeFileAtomically(Array("one".utf8), to: path)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "one")
            #expect(chmod(path, 0o600) == 0)
            try writeFileAtomically(Array("two".utf8), to: path)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "two")
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            #expect(mode == 0o600)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["a.svg"])  // no temporary left
        }

        @Test func failureLeavesNothingBehind() throws {
            let dir = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            // The target is a non-empty directory: rename fails after the temporary file was written.
            try FileManager.default.createDirectory(atPath: dir + "/taken/inner", withIntermediateDirectories: true)
            let error = try #require(throws: FileWriteError.self) {
                try writeFileAtomically([1, 2, 3], to: dir + "/taken")
            }
            #expect(error.description.contains("taken"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["taken"])
            #expect(throws: FileWriteError.self) { try writeFileAtomically([1], to: dir + "/missing/x.svg") }
        }

        // MARK: Issue 19: links, FIFOs and devices; interrupted writes

        /// A chain of links (relative, then through a folder) is followed: the
        /// final target is replaced, in its own folder, and every link stays a link.
        @Test func aSymbolicLinkIsWrittenThroughToItsTarget() throws {
            let dir = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            try FileManager.default.createDirectory(atPath: dir + "/t", withIntermediateDirectories: true)
            try "old".write(toFile: dir + "/t/real.json", atomically: false, encoding: .utf8)
            #expect(symlink("t/real.json", dir + "/link.json") == 0)
            #expect(symlink(dir + "/link.json", dir + "/link2.json") == 0)
            #expect(symlink("t/new.json", dir + "/dangling.json") == 0)
            try writeFileAtomically(Array("new".utf8), to: dir + "/link2.json")
            try writeFileAtomically(Array("created".utf8), to: dir + "/dangling.json")
            #expect(try String(contentsOfFile: dir + "/t/real.json", encoding: .utf8) == "new")
            #expect(try String(contentsOfFile: dir + "/t/new.json", encoding: .utf8) == "created")
            for link in ["link.json", "link2.json", "dangling.json"] {
                #expect(
                    (try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/" + link)) != nil, "\(link)")
            }
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: dir + "/t").sorted() == ["new.json", "real.json"])
            #expect(symlink("loop", dir + "/loop") == 0)
            let error = try #require(throws: FileWriteError.self) { try writeFileAtomically([1], to: dir + "/loop") }
            #expect(error.reason == "too many levels of symbolic links")
        }

        @Test func aFIFOIsWrittenDirectlyAndStaysAFIFO() throws {
            let dir = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let fifo = dir + "/pipe"
            #expect(mkfifo(fifo, 0o600) == 0)
            nonisolated(unsafe) var received = 0
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                let descriptor = open(fifo, O_RDONLY)
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let count = read(descriptor, &buffer, buffer.count)
                    if count <= 0 { break }
                    received += count
                }
                close(descriptor)
                done.signal()
            }
            try writeFileAtomically(Array(repeating: 0x41, count: 300_000), to: fifo)
            done.wait()
            #expect(received == 300_000)
            var info = stat()
            #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["pipe"])
        }

        @Test func aCharacterDeviceIsWrittenDirectlyAndAFullOneIsAnError() throws {
            let dir = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            // A null device of our own (root only): a regression replaces it, not /dev/null.
            let null = dir + "/null"
            if mknod(null, S_IFCHR | 0o666, 1 << 8 | 3) == 0 {
                try writeFileAtomically([1, 2, 3], to: null)
                var info = stat()
                #expect(lstat(null, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
                #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["null"])
            }
            let full = try #require(throws: FileWriteError.self) { try writeFileAtomically([1], to: "/dev/full") }
            #expect(full.description == "cannot write '/dev/full': No space left on device")
        }

        static let refused: [(kind: String, reason: String)] = [
            ("directory", "it is a directory"),
            ("block device", "it is a block device; refusing to overwrite it"),
            ("trailing slash", "it names a directory, not a file"),
        ]

        @Test(arguments: refused)
        func whatCannotBeWrittenSafelyIsRefused(_ kind: String, _ reason: String) throws {
            let dir = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            var path = dir + "/target"
            switch kind {
            case "directory": try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            case "block device":
                guard mknod(path, S_IFBLK | 0o600, 7 << 8 | 0) == 0 else { return }  // root only
            default: path = dir + "/folder/"
            }
            let before = try FileManager.default.contentsOfDirectory(atPath: dir)
            let error = try #require(throws: FileWriteError.self) { try writeFileAtomically([1], to: path) }
            #expect(error.reason == reason)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == before)
        }

        /// What a signal handler removes: the temporary files of writes under way.
        @Test func registeredTemporaryFilesAreRemovedOnRequest() throws {
            let dir = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let temporary = dir + "/.x.json.tmp-1-ab"
            try "part".write(toFile: temporary, atomically: false, encoding: .utf8)
            TemporaryFiles.register(temporary)
            #expect(TemporaryFiles.registered.contains(temporary))
            TemporaryFiles.removeRegistered()
            TemporaryFiles.unregister(temporary)
            #expect(!FileManager.default.fileExists(atPath: temporary))
            #expect(!TemporaryFiles.registered.contains(temporary))
        }

        /// `kill -9` leaves a temporary file: the next write of the same file removes it, not another's.
        @Test func aLaterWriteRemovesWhatAKilledOneLeft() throws {
            let dir = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            var dead: pid_t = 4_000_000
            while kill(dead, 0) == 0 { dead += 1 }
            let abandoned = ".a.svg.tmp-\(dead)-1f2e"
            let running = ".a.svg.tmp-1-1f2e"  // pid 1 runs
            let other = ".b.svg.tmp-\(dead)-1f2e"
            for name in [abandoned, running, other] {
                try "x".write(toFile: dir + "/" + name, atomically: false, encoding: .utf8)
            }
            try writeFileAtomically(Array("a".utf8), to: dir + "/a.svg")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == [running, other, "a.svg"].sorted())
        }
    }
}
