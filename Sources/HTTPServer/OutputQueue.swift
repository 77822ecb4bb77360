import COpenSSL
import CSystem
import HTTP

#if canImport(Glibc)
import Glibc
#endif

/// Bytes waiting to go to one socket, in order: response heads and small
/// bodies copied into one buffer, larger bodies shared by reference, files
/// sent with sendfile. Flushing gathers up to 16 pieces into one writev.
struct OutputQueue {
    enum Piece {
        case buffered(start: Int, end: Int)
        case bytes([UInt8], start: Int)
        case file(OpenFile, offset: Int, end: Int)

        var isFile: Bool { if case .file = self { true } else { false } }
    }

    enum FlushResult { case drained, blocked, failed }

    /// Bodies up to this size are copied next to their head.
    static let copyLimit = 1024
    private static let maxGather = 16

    private(set) var buffer: [UInt8] = []
    private var pieces: [Piece] = []
    private var first = 0
    private(set) var pendingBytes = 0

    var isEmpty: Bool { first == pieces.count }

    /// Appends bytes to the shared buffer (a head, a small body, a canned reply).
    mutating func append(_ write: (inout [UInt8]) -> Void) {
        let start = buffer.count
        write(&buffer)
        let end = buffer.count
        guard end > start else { return }
        pendingBytes += end - start
        if first < pieces.count, case .buffered(let s, let e) = pieces[pieces.count - 1], e == start {
            pieces[pieces.count - 1] = .buffered(start: s, end: end)
        } else {
            pieces.append(.buffered(start: start, end: end))
        }
    }

    mutating func append(body: Response.Body) {
        switch body {
        case .empty:
            break
        case .events(_, let initial):
            if !initial.isEmpty { append { $0.append(contentsOf: initial) } }
        case .bytes(let bytes) where bytes.count <= Self.copyLimit:
            append { $0.append(contentsOf: bytes) }
        case .bytes(let bytes):
            pieces.append(.bytes(bytes, start: 0))
            pendingBytes += bytes.count
        case .file(let file, let offset, let count):
            guard count > 0 else { return }
            pieces.append(.file(file, offset: offset, end: offset + count))
            pendingBytes += count
        }
    }

    /// Writes as much as the socket takes; returns how many bytes went out.
    mutating func flush(to fd: Int32) -> (FlushResult, written: Int) {
        var total = 0
        while !isEmpty {
            let n: Int
            if case .file(let file, let offset, let end) = pieces[first] {
                var position = Int64(offset)
                n = csys_sendfile(fd, file.descriptor, &position, end - offset)
            } else {
                n = withUnsafeTemporaryAllocation(of: iovec.self, capacity: Self.maxGather) { iov in
                    gather(from: first, into: iov, count: 0) { count, fileNext in
                        fileNext
                            ? csys_writev_more(fd, iov.baseAddress, Int32(count))
                            : csys_writev(fd, iov.baseAddress, Int32(count))
                    }
                }
            }
            if n < 0 {
                if errno == EINTR { continue }
                return (errno == EAGAIN || errno == EWOULDBLOCK ? .blocked : .failed, total)
            }
            // sendfile reads nothing when the file shrank under us: the promised length cannot be kept.
            if n == 0 { return (pieces[first].isFile ? .failed : .blocked, total) }
            total += n
            advance(by: n)
        }
        reset()
        return (.drained, total)
    }

    /// Writes through OpenSSL: consecutive pieces (a file read with pread) are gathered into `staging`, so a head
    /// and its body go out as one record. After a blocked write the same bytes are offered again, as OpenSSL needs.
    mutating func flush(tls ssl: OpaquePointer, staging: UnsafeMutableRawBufferPointer) -> (FlushResult, written: Int) {
        var total = 0
        let base = staging.baseAddress!
        while !isEmpty {
            var filled = 0
            var index = first
            gathering: while index < pieces.count && filled < staging.count {
                let room = staging.count - filled
                switch pieces[index] {
                case .buffered(let start, let end):
                    let n = min(end - start, room)
                    buffer.withUnsafeBytes { (base + filled).copyMemory(from: $0.baseAddress! + start, byteCount: n) }
                    filled += n
                case .bytes(let bytes, let start):
                    let n = min(bytes.count - start, room)
                    bytes.withUnsafeBytes { (base + filled).copyMemory(from: $0.baseAddress! + start, byteCount: n) }
                    filled += n
                case .file(let file, let offset, let end):
                    let want = min(end - offset, room)
                    let n = pread(file.descriptor, base + filled, want, off_t(offset))
                    if n < 0 && errno == EINTR { continue gathering }
                    // The file shrank under us: the promised length cannot be kept.
                    if n <= 0 { if filled == 0 { return (.failed, total) } else { break gathering } }
                    filled += n
                    if n < want { break gathering }
                }
                index += 1
            }
            let n = SSL_write(ssl, base, Int32(filled))
            if n <= 0 {
                let error = SSL_get_error(ssl, n)
                if error == SSL_ERROR_WANT_WRITE || error == SSL_ERROR_WANT_READ { return (.blocked, total) }
                ERR_clear_error()
                return (.failed, total)
            }
            total += Int(n)
            advance(by: Int(n))
        }
        reset()
        return (.drained, total)
    }

    mutating func removeAll() {
        pieces.removeAll()
        first = 0
        pendingBytes = 0
        buffer.removeAll()
    }

    // Collects pointers to consecutive memory pieces by nesting
    // withUnsafeBufferPointer, so no pointer outlives its array's access.
    // The body learns whether a file follows, so a head can wait for its body.
    private func gather(
        from index: Int, into iov: UnsafeMutableBufferPointer<iovec>, count: Int,
        _ body: (_ count: Int, _ fileNext: Bool) -> Int
    ) -> Int {
        guard index < pieces.count, count < iov.count else { return body(count, false) }
        switch pieces[index] {
        case .file:
            return body(count, true)
        case .buffered(let start, let end):
            return buffer.withUnsafeBufferPointer { b in
                iov[count] = iovec(
                    iov_base: UnsafeMutableRawPointer(mutating: b.baseAddress! + start), iov_len: end - start)
                return gather(from: index + 1, into: iov, count: count + 1, body)
            }
        case .bytes(let bytes, let start):
            return bytes.withUnsafeBufferPointer { b in
                iov[count] = iovec(
                    iov_base: UnsafeMutableRawPointer(mutating: b.baseAddress! + start), iov_len: b.count - start)
                return gather(from: index + 1, into: iov, count: count + 1, body)
            }
        }
    }

    private mutating func advance(by written: Int) {
        var n = written
        pendingBytes -= written
        while n > 0 && first < pieces.count {
            switch pieces[first] {
            case .buffered(let start, let end):
                if n >= end - start {
                    n -= end - start
                    first += 1
                } else {
                    pieces[first] = .buffered(start: start + n, end: end)
                    n = 0
                }
            case .bytes(let bytes, let start):
                if n >= bytes.count - start {
                    n -= bytes.count - start
                    first += 1
                } else {
                    pieces[first] = .bytes(bytes, start: start + n)
                    n = 0
                }
            case .file(let file, let offset, let end):
                if n >= end - offset {
                    n -= end - offset
                    first += 1
                } else {
                    pieces[first] = .file(file, offset: offset + n, end: end)
                    n = 0
                }
            }
        }
    }

    private mutating func reset() {
        pieces.removeAll(keepingCapacity: true)
        first = 0
        pendingBytes = 0
        // Keep a modest buffer for the next responses; give back a big one.
        if buffer.capacity > 64 * 1024 { buffer = [] } else { buffer.removeAll(keepingCapacity: true) }
    }
}
