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

/// Writes `bytes` to `path` so that no reader ever sees a part of them:
///
/// - a regular file (or a new one) is written atomically: into a new
///   temporary file beside it (`.<name>.tmp-<pid>-<random>`), flushed to
///   disk, then renamed over it. Readers see the old file or the complete
///   new one; on failure the temporary file is removed and `path` is
///   untouched. A file that is replaced keeps its permission bits; a new one
///   gets 0644 (less the umask). The directory must exist.
/// - a symbolic link is followed (each link in turn): its target is
///   replaced as above, in the target's folder, and the link stays a link.
/// - a FIFO or a character device (`/dev/null`, a terminal) is opened and
///   written directly: it cannot be replaced, only written to.
/// - a directory, a block device or a socket is refused.
///
/// In the `launchflow` executable, SIGINT, SIGTERM and SIGHUP during a write
/// remove the temporary file (see ``TemporaryFiles``); a temporary file a killed run left (`kill -9`) is
/// removed by the next successful write of the same file.
///
/// ```swift
/// try writeFileAtomically(Array("hello\n".utf8), to: "output/hello.txt")
/// ```
public func writeFileAtomically(_ bytes: [UInt8], to path: String) throws(FileWriteError) {
    func failure(_ what: String, _ code: Int32 = errno) -> FileWriteError {
        FileWriteError(path: path, reason: "\(what): \(String(cString: strerror(code)))")
    }
    let target = try resolvingSymbolicLinks(path)
    var existing = stat()
    var existingMode: mode_t?
    if stat(target, &existing) == 0 {
        switch existing.st_mode & S_IFMT {
        case S_IFREG: existingMode = existing.st_mode & 0o7777
        case S_IFIFO, S_IFCHR: return try writeDirectly(bytes, to: target, path: path)
        case S_IFDIR: throw FileWriteError(path: path, reason: "it is a directory")
        case S_IFBLK: throw FileWriteError(path: path, reason: "it is a block device; refusing to overwrite it")
        case S_IFSOCK: throw FileWriteError(path: path, reason: "it is a socket, which cannot be written as a file")
        default: throw FileWriteError(path: path, reason: "it is not a regular file")
        }
    }

    let (directory, name) = splitPath(target)
    guard !name.isEmpty else { throw FileWriteError(path: path, reason: "it names a directory, not a file") }
    let prefix = "." + name + ".tmp-\(getpid())-"
    var temporary = ""
    var descriptor: Int32 = -1
    for _ in 0..<16 {  // a name left by an earlier process with the same pid: draw another
        temporary = directory + "/" + prefix + String(UInt32.random(in: .min ... .max), radix: 16)
        TemporaryFiles.register(temporary)
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor >= 0 || errno != EEXIST { break }
        TemporaryFiles.unregister(temporary)
    }
    guard descriptor >= 0 else {
        let code = errno
        TemporaryFiles.unregister(temporary)
        throw failure("cannot create a temporary file in '\(directory)'", code)
    }
    var closed = false
    var renamed = false
    defer {
        if !closed { close(descriptor) }
        if !renamed { unlink(temporary) }
        TemporaryFiles.unregister(temporary)
    }

    if let existingMode, fchmod(descriptor, existingMode) != 0 {
        throw failure("cannot copy the permissions of the existing file")
    }
    let writeError = writeAll(bytes, to: descriptor)
    guard writeError == 0 else { throw failure("cannot write the temporary file", writeError) }
    guard fsync(descriptor) == 0 else { throw failure("cannot flush the temporary file to disk") }
    closed = true
    guard close(descriptor) == 0 else { throw failure("cannot close the temporary file") }
    guard rename(temporary, target) == 0 else { throw failure("cannot move the new file into place") }
    renamed = true

    // Make the rename itself durable; a failure here leaves a complete file.
    let directoryDescriptor = open(directory, O_RDONLY | O_CLOEXEC)
    if directoryDescriptor >= 0 {
        _ = fsync(directoryDescriptor)
        close(directoryDescriptor)
    }
    TemporaryFiles.removeAbandoned(in: directory, prefix: "." + name + ".tmp-")
}

/// The folder and the name of `path`, split at its last `/` as the kernel
/// reads it: `out/a.svg` → (`out`, `a.svg`), `a.svg` → (`.`, `a.svg`),
/// `/a` → (`/`, `a`), `out/` → (`out`, ``) — no name. (Foundation's
/// `deletingLastPathComponent` traps on a one-character path.)
public func splitPath(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let name = String(path[path.index(after: slash)...])
    var directory = String(path[..<slash])
    while directory.hasSuffix("/") { directory.removeLast() }
    return (directory.isEmpty ? "/" : directory, name)
}

/// `path` with every symbolic link at its end followed (a link to a link…):
/// the file a write must replace. Folders on the way are the kernel's to resolve.
private func resolvingSymbolicLinks(_ path: String) throws(FileWriteError) -> String {
    var current = path
    for _ in 0..<40 {  // the kernel's own limit (ELOOP)
        var info = stat()
        guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(current, &buffer, buffer.count - 1)
        guard count >= 0 else {
            throw FileWriteError(
                path: path, reason: "cannot read the symbolic link '\(current)': \(String(cString: strerror(errno)))")
        }
        let destination = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if destination.hasPrefix("/") {
            current = destination
        } else {
            current = splitPath(current).directory + "/" + destination
        }
    }
    throw FileWriteError(path: path, reason: "too many levels of symbolic links")
}

/// Writes to a FIFO or a device as it is: opened for writing (a FIFO waits for its reader), no temporary file.
private func writeDirectly(_ bytes: [UInt8], to target: String, path: String) throws(FileWriteError) {
    let descriptor = open(target, O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
        throw FileWriteError(path: path, reason: "cannot open it for writing: \(String(cString: strerror(errno)))")
    }
    let code = writeAll(bytes, to: descriptor)
    let closeFailed = close(descriptor) != 0 ? errno : 0
    guard code == 0 else { throw FileWriteError(path: path, reason: String(cString: strerror(code))) }
    guard closeFailed == 0 else { throw FileWriteError(path: path, reason: String(cString: strerror(closeFailed))) }
}

/// Writes every byte to a file descriptor, retrying short writes and EINTR;
/// 0, or the errno that stopped it.
public func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32 {
    bytes.withUnsafeBytes { buffer in
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
}
