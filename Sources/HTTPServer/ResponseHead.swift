import HTTP

/// Serializes a status line and header block into the output buffer: the buffer grows once by what the head needs,
/// then each piece is copied in place (appending piece by piece cost more than the rest of a static file's answer).
enum ResponseHead {
    struct Framing {
        var version: HTTPVersion
        var keepAlive: Bool
    }

    static func write(
        _ response: Response, framing: Framing, date: [UInt8], serverName: [UInt8]?,
        into out: inout [UInt8]
    ) {
        let status = statusLine(response.status)
        // An event stream has no length: it ends when the connection does (and says so).
        var hasLength = response.status.allowsBody
        if case .events = response.body { hasLength = false }
        let connection = !framing.keepAlive ? connectionClose : framing.version == .http10 ? connectionKeepAlive : []
        let maximum =
            status.count + date.count + (serverName?.count ?? 0) + (hasLength ? contentLength.count + 22 : 0)
            + connection.count + response.headers.serializedCount + 2
        let start = out.count
        grow(&out, by: maximum)
        let used = out.withUnsafeMutableBufferPointer { buffer -> Int in
            var writer = Writer(at: buffer.baseAddress! + start)
            writer.write(status)
            writer.write(date)
            if let serverName { writer.write(serverName) }
            if hasLength {
                writer.write(contentLength)
                writer.writeDecimal(response.body.count)
                writer.write(crlf)
            }
            writer.write(connection)
            writer.position += response.headers.serialize(to: writer.position)
            writer.write(crlf)
            return writer.position - (buffer.baseAddress! + start)
        }
        out.removeLast(maximum - used)
    }

    /// Appends `count` zero bytes to be overwritten, copied from zeros kept for it (cheaper than a repeated element).
    static func grow(_ out: inout [UInt8], by count: Int) {
        var left = count
        while left > 0 {
            let take = min(left, zeros.count)
            zeros.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<take])) }
            left -= take
        }
    }

    /// `HTTP/1.1 200 OK\r\n`: a server answers with its own version (RFC 9110 §6.2); the usual ones are built once.
    static func statusLine(_ status: Status) -> [UInt8] {
        switch status.code {
        case 200: ok
        case 304: notModified
        default: Array("HTTP/1.1 \(status.code) \(status.reason)\r\n".utf8)
        }
    }

    /// `Date: …\r\n` for the given second.
    static func dateLine(secondsSinceEpoch: Int) -> [UInt8] {
        Array("Date: \(HTTPDate.format(secondsSinceEpoch: secondsSinceEpoch))\r\n".utf8)
    }

    static func appendDecimal(_ value: Int, into out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var writer = Writer(at: digits.baseAddress!)
            writer.writeDecimal(value)
            out.append(
                contentsOf: UnsafeBufferPointer(start: digits.baseAddress, count: writer.position - digits.baseAddress!)
            )
        }
    }

    /// Copies into memory the caller has sized.
    struct Writer {
        var position: UnsafeMutablePointer<UInt8>

        init(at start: UnsafeMutablePointer<UInt8>) { position = start }

        mutating func write(_ bytes: [UInt8]) {
            bytes.withUnsafeBufferPointer { source in
                guard let base = source.baseAddress else { return }
                position.update(from: base, count: source.count)
                position += source.count
            }
        }

        /// A non-negative number in at most 20 digits.
        mutating func writeDecimal(_ value: Int) {
            var v = max(value, 0)
            var length = 1
            while v >= 10 {
                v /= 10
                length += 1
            }
            v = max(value, 0)
            for i in stride(from: length - 1, through: 0, by: -1) {
                position[i] = UInt8(truncatingIfNeeded: 0x30 + v % 10)
                v /= 10
            }
            position += length
        }
    }

    private static let zeros = [UInt8](repeating: 0, count: 1024)
    private static let ok = Array("HTTP/1.1 200 OK\r\n".utf8)
    private static let notModified = Array("HTTP/1.1 304 Not Modified\r\n".utf8)
    private static let crlf: [UInt8] = [0x0D, 0x0A]
    private static let contentLength = Array("Content-Length: ".utf8)
    private static let connectionClose = Array("Connection: close\r\n".utf8)
    private static let connectionKeepAlive = Array("Connection: keep-alive\r\n".utf8)
}
