import Foundation

/// Reads scenario files (MODEL.md §1) and reports every problem at once.
///
/// Decoding is one streaming pass over the bytes that checks types, ranges and
/// keys; then ``ScenarioValidator`` checks the relations between tasks (ids,
/// dependencies, cycles). Nothing is simulated unless both find no problem.
public enum ScenarioLoader {
    /// Reads, decodes and validates the scenario at `path`.
    public static func load(path: String) throws(ScenarioError) -> Scenario {
        try decode(readFile(path), file: path)
    }

    /// The bytes of a file, or a one-line problem (missing, a directory, unreadable, empty).
    public static func readFile(_ path: String) throws(ScenarioError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ScenarioError([
                Diagnostic(file: path, message: "no such file", suggestion: closestExistingFile(to: path))
            ])
        }
        if isDirectory.boolValue {
            throw ScenarioError([
                Diagnostic(file: path, message: "is a directory, expected a scenario file (.json)")
            ])
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ScenarioError([Diagnostic(file: path, message: "cannot be read (permission denied?)")])
        }
        defer { try? handle.close() }
        if let bytes = readRegularFile(handle.fileDescriptor) { return bytes }
        let data: Data
        do {
            data = try handle.readToEnd() ?? Data()
        } catch {
            throw ScenarioError([Diagnostic(file: path, message: "cannot be read: \(error.localizedDescription)")])
        }
        return [UInt8](data)
    }

    /// A regular file's bytes, read straight into the array (through `Data`
    /// a large scenario would sit in memory twice); nil for anything else, or
    /// on an error or a size that changed, for the general path to handle.
    private static func readRegularFile(_ descriptor: Int32) -> [UInt8]? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0,
            status.st_size < Int.max / 2
        else { return nil }
        let size = Int(status.st_size)
        var complete = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            while count < size {
                let n = read(descriptor, buffer.baseAddress! + count, size - count)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                count += n
            }
            complete = count == size
        }
        guard complete else {
            _ = lseek(descriptor, 0, SEEK_SET)  // the general path reads from the start
            return nil
        }
        return bytes
    }

    /// Decodes and validates a scenario from JSON bytes; `file` names it in problems.
    public static func decode(_ bytes: [UInt8], file: String) throws(ScenarioError) -> Scenario {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw ScenarioError([Diagnostic(file: file, message: "the file is empty, expected a JSON object")])
        }
        let decoder = ScenarioDecoder(file: file)
        var reader = JSONReader(bytes: bytes)
        do {
            try decoder.decodeRoot(&reader)
            try reader.expectEnd()
        } catch let error as JSONSyntaxError {
            let (line, column) = error.location(in: bytes)
            throw ScenarioError([
                Diagnostic(file: file, line: line, column: column, message: "invalid JSON: \(error.message)")
            ])
        } catch {
            throw ScenarioError([Diagnostic(file: file, message: "invalid JSON: \(error)")])
        }
        return try decoder.finish()
    }
}
