/// Percent-encoding helpers for request targets (RFC 3986).
public enum URI {
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// Whether every `%` is followed by two hex digits.
    public static func hasValidEscapes<S: Sequence<UInt8>>(_ bytes: S) -> Bool {
        var pending = 0
        for byte in bytes {
            if pending > 0 {
                guard hexValue(byte) != nil else { return false }
                pending -= 1
            } else if byte == UInt8(ascii: "%") {
                pending = 2
            }
        }
        return pending == 0
    }

    /// Decodes `%XX` escapes (and `+` as space when `plusAsSpace`); nil when an
    /// escape is malformed or the result is not UTF-8.
    public static func decode<S: StringProtocol>(_ text: S, plusAsSpace: Bool = false) -> String? {
        // Most segments have nothing to decode: no scratch buffer then.
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) {
            return String(text)
        }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let hi = iterator.next().flatMap(hexValue), let lo = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                out.append(hi << 4 | lo)
            case UInt8(ascii: "+") where plusAsSpace:
                out.append(0x20)
            default:
                out.append(byte)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    /// Splits a raw path on `/` and decodes each segment.
    public static func decodeSegments(_ rawPath: Substring) -> [String]? {
        var path = rawPath
        return path.withUTF8 { bytes -> [String]? in
            var segments: [String] = []
            segments.reserveCapacity(8)  // one allocation for most paths, not one per doubling
            var start = 0
            for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: "/") {
                defer { start = end + 1 }
                guard end > start else { continue }
                let part = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if part.contains(UInt8(ascii: "%")) {
                    guard let decoded = decode(String(decoding: part, as: UTF8.self)) else { return nil }
                    segments.append(decoded)
                } else {
                    segments.append(String(decoding: part, as: UTF8.self))
                }
            }
            return segments
        }
    }

    /// Percent-encodes everything but unreserved characters.
    public static func encode(_ text: String, keepSlash: Bool = false) -> String {
        var out: [UInt8] = []
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            case UInt8(ascii: "/") where keepSlash:
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 15)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
