import HTTP

/// Serializes a status line and header block into the output buffer.
enum ResponseHead {
    struct Framing {
        var version: Version
        var keepAlive: Bool
    }

    static func write(_ response: Response, framing: Framing, date: [UInt8], serverName: [UInt8]?,
                      into out: inout [UInt8]) {
        out.append(contentsOf: http11)  // a server answers with its own version (RFC 9110 §6.2)
        appendDecimal(response.status.code, into: &out)
        out.append(0x20)
        out.append(contentsOf: response.status.reason.utf8)
        out.append(contentsOf: crlf)
        out.append(contentsOf: date)
        if let serverName { out.append(contentsOf: serverName) }
        if response.status.allowsBody {
            out.append(contentsOf: contentLength)
            appendDecimal(response.body.count, into: &out)
            out.append(contentsOf: crlf)
        }
        if !framing.keepAlive {
            out.append(contentsOf: connectionClose)
        } else if framing.version == .http10 {
            out.append(contentsOf: connectionKeepAlive)
        }
        response.headers.write(into: &out)
        out.append(contentsOf: crlf)
    }

    /// `Date: …\r\n` for the given second.
    static func dateLine(secondsSinceEpoch: Int) -> [UInt8] {
        Array("Date: \(HTTPDate.format(secondsSinceEpoch: secondsSinceEpoch))\r\n".utf8)
    }

    static func appendDecimal(_ value: Int, into out: inout [UInt8]) {
        if value == 0 { out.append(0x30); return }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var v = value, count = 0
        withUnsafeMutableBytes(of: &digits) { d in
            while v > 0 { d[count] = UInt8(0x30 + v % 10); v /= 10; count += 1 }
            for i in stride(from: count - 1, through: 0, by: -1) { out.append(d[i]) }
        }
    }

    private static let http11 = Array("HTTP/1.1 ".utf8)
    private static let crlf: [UInt8] = [0x0D, 0x0A]
    private static let contentLength = Array("Content-Length: ".utf8)
    private static let connectionClose = Array("Connection: close\r\n".utf8)
    private static let connectionKeepAlive = Array("Connection: keep-alive\r\n".utf8)
}
