/// Escapes text for HTML element content and quoted attribute values.
public enum HTMLEscaper {
    public static func append(_ text: String, to out: inout [UInt8]) {
        // A native string's bytes are read in place; `withUTF8` would need a copy of the string (a retain and a
        // release) to be free to make them contiguous.
        if text.utf8.withContiguousStorageIfAvailable({ append($0, to: &out) }) != nil { return }
        var text = text
        text.withUTF8 { append($0, to: &out) }
    }

    private static func append(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        // Copy runs that need no escaping in one go.
        var start = 0
        for i in 0..<bytes.count {
            // Letters, digits and most punctuation sit above '>': one compare for nearly every byte.
            let byte = bytes[i]
            if byte > UInt8(ascii: ">") { continue }
            let entity: [UInt8]
            switch byte {
            case UInt8(ascii: "&"): entity = amp
            case UInt8(ascii: "<"): entity = lt
            case UInt8(ascii: ">"): entity = gt
            case UInt8(ascii: "\""): entity = quot
            case UInt8(ascii: "'"): entity = apos
            default: continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
            out.append(contentsOf: entity)
            start = i + 1
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]))
    }

    private static let amp = Array("&amp;".utf8), lt = Array("&lt;".utf8), gt = Array("&gt;".utf8)
    private static let quot = Array("&quot;".utf8), apos = Array("&#39;".utf8)

    public static func escape(_ text: String) -> String {
        var out: [UInt8] = []
        append(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
