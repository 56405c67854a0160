import Foundation

/// A file could not be written; its path was left as it was.
public struct FileWriteError: Error, Sendable, CustomStringConvertible {
    public var path: String
    /// What failed, e.g. "cannot create a temporary file in 'out': Permission denied".
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot write '\(path)': \(reason)" }
}

/// Writes `bytes` to `path` atomically: into a new temporary file in the same
/// directory (`.<name>.tmp-<pid>-<random>`), flushed to disk, then renamed
/// over `path`. Readers see the old file or the complete new one, never a
/// part of it; on failure the temporary file is removed and `path` is untouched.
///
/// A file that is replaced keeps its permission bits; a new one gets 0644
/// (less the umask). The directory must exist.
///
/// ```swift
/// try writeFileAtomically(Array("hello\n".utf8), to: "output/hello.txt")
/// ```
public func writeFileAtomically(_ bytes: [UInt8], to path: String) throws(FileWriteError) {
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent().path
    let temporary =
        directory + "/." + url.lastPathComponent + ".tmp-\(getpid())-"
        + String(UInt32.random(in: .min ... .max), radix: 16)

    func failure(_ what: String, _ code: Int32 = errno) -> FileWriteError {
        FileWriteError(path: path, reason: "\(what): \(String(cString: strerror(code)))")
    }

    var existing = stat()
    let existingMode: mode_t? = stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : nil

    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw failure("cannot create a temporary file in '\(directory)'") }
    var closed = false
    var renamed = false
    defer {
        if !closed { close(descriptor) }
        if !renamed { unlink(temporary) }
    }

    if let existingMode, fchmod(descriptor, existingMode) != 0 {
        throw failure("cannot copy the permissions of the existing file")
    }
    let writeError: Int32 = bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }
    guard writeError == 0 else { throw failure("cannot write the temporary file", writeError) }
    guard fsync(descriptor) == 0 else { throw failure("cannot flush the temporary file to disk") }
    closed = true
    guard close(descriptor) == 0 else { throw failure("cannot close the temporary file") }
    guard rename(temporary, path) == 0 else { throw failure("cannot move the new file into place") }
    renamed = true

    // Make the rename itself durable; a failure here leaves a complete file.
    let directoryDescriptor = open(directory, O_RDONLY | O_CLOEXEC)
    if directoryDescriptor >= 0 {
        _ = fsync(directoryDescriptor)
        close(directoryDescriptor)
    }
}
