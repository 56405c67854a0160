import Foundation
import LaunchflowCore
import Testing

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
    }
}
