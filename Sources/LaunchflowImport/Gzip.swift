import CZlib

/// gzip (RFC 1952) through the system's zlib: the one door to it. Perfetto
/// traces are often kept gzip'd (`.perfetto-trace.gz`, `.pftrace.gz`).
enum Gzip {
    /// The two bytes every gzip member starts with.
    static func isGzip(_ bytes: [UInt8]) -> Bool { bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B }

    /// A gzip stream that cannot be decompressed: what zlib said, and where.
    struct Failure: Error {
        /// Offset in the compressed input where decompression stopped.
        var offset: Int
        var message: String
    }

    /// The decompressed bytes of every member of `bytes` (concatenated
    /// members, as `cat a.gz b.gz` makes, are read one after the other).
    ///
    /// - Parameter limit: the most bytes the output may hold (a guard against
    ///   a small file that expands without end).
    /// - Parameter trailingAllowed: bytes after the end of the data are ignored
    ///   (an `atrace -z` capture may end in a line break) rather than an error.
    static func decompress(_ bytes: [UInt8], limit: Int = 1 << 33, trailingAllowed: Bool = false) throws(Failure)
        -> [UInt8]
    {
        var output: [UInt8] = []
        output.reserveCapacity(min(bytes.count * 4, limit))
        var stream = z_stream()
        guard launchflow_inflate_init(&stream) == Z_OK else {
            throw Failure(offset: 0, message: "zlib could not start (out of memory?)")
        }
        defer { inflateEnd(&stream) }
        let chunkSize = 1 << 20
        let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { chunk.deallocate() }
        var failure: Failure? = nil
        bytes.withUnsafeBufferPointer { input in
            var consumed = 0
            while consumed < input.count {
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + consumed)
                let available = min(input.count - consumed, Int(UInt32.max))
                stream.avail_in = UInt32(available)
                var ended = false
                repeat {
                    stream.next_out = chunk
                    stream.avail_out = UInt32(chunkSize)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    let produced = chunkSize - Int(stream.avail_out)
                    if output.count + produced > limit {
                        failure = Failure(
                            offset: consumed + available - Int(stream.avail_in),
                            message: "decompresses to more than \(limit >> 30) GiB")
                        return
                    }
                    output.append(contentsOf: UnsafeBufferPointer(start: chunk, count: produced))
                    switch status {
                    case Z_OK: continue
                    case Z_STREAM_END: ended = true
                    case Z_BUF_ERROR where stream.avail_in == 0: break
                    default:
                        let reason = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                        failure = Failure(
                            offset: consumed + available - Int(stream.avail_in), message: "corrupt gzip data: \(reason)"
                        )
                        return
                    }
                } while !ended && (stream.avail_in > 0 || stream.avail_out == 0)
                consumed += available - Int(stream.avail_in)
                if ended {
                    // Another member may follow; anything else after the end is an error.
                    if consumed < input.count, trailingAllowed { return }
                    if consumed < input.count {
                        guard input.count - consumed >= 2, input[consumed] == 0x1F, input[consumed + 1] == 0x8B else {
                            failure = Failure(
                                offset: consumed,
                                message: "\(input.count - consumed) bytes after the end of the gzip data")
                            return
                        }
                        inflateReset(&stream)
                    }
                } else if stream.avail_in == 0, consumed >= input.count {
                    failure = Failure(
                        offset: input.count,
                        message: "the gzip data is truncated: it ends before its last block (the file was cut off)")
                    return
                }
            }
        }
        if let failure { throw failure }
        return output
    }
}
