/// Decoded `application/x-www-form-urlencoded` fields (a query string or a
/// form body), in order, with repeats kept.
public struct FormFields: Sendable, Sequence {
    public private(set) var pairs: [(name: String, value: String)] = []

    /// At most this many fields are read; a larger form is refused.
    public static let maxFields = 1000

    public init() {}

    public init(_ pairs: [(String, String)]) { self.pairs = pairs.map { (name: $0.0, value: $0.1) } }

    /// Parses urlencoded text; nil when an escape is malformed, the text is
    /// not UTF-8, or there are more than `maxFields` fields.
    public init?<S: StringProtocol>(urlencoded input: S) {
        var text = String(input)
        guard let parsed = text.withUTF8(Self.parse) else { return nil }
        pairs = parsed
    }

    /// Parses a urlencoded body; nil when it is not valid UTF-8 or malformed.
    public init?(body: [UInt8]) {
        guard let parsed = body.withUnsafeBufferPointer(Self.parse) else { return nil }
        pairs = parsed
    }

    /// One pass over the bytes (forms are read on every action, so no String splitting). Separators are
    /// ASCII, so checking each decoded part for UTF-8 checks the whole.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> [(name: String, value: String)]? {
        var pairs: [(name: String, value: String)] = []
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "&") { end += 1 }
            if end > start {
                guard pairs.count < maxFields else { return nil }
                var eq = start
                while eq < end && bytes[eq] != UInt8(ascii: "=") { eq += 1 }
                guard let name = decode(bytes, start, eq), let value = eq < end ? decode(bytes, eq + 1, end) : "" else {
                    return nil
                }
                pairs.append((name, value))
            }
            start = end + 1
        }
        return pairs
    }

    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> String? {
        let part = UnsafeBufferPointer(rebasing: bytes[from..<to])
        if !part.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) {
            // ASCII (tokens, ids, most values) is UTF-8 already: only other bytes need the validating decoder.
            return part.allSatisfy({ $0 < 0x80 })
                ? String(decoding: part, as: UTF8.self) : String(validating: part, as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(part.count)
        var i = 0
        while i < part.count {
            switch part[i] {
            case UInt8(ascii: "%"):
                guard i + 2 < part.count, let hi = URI.hexValue(part[i + 1]), let lo = URI.hexValue(part[i + 2]) else {
                    return nil
                }
                out.append(hi << 4 | lo)
                i += 3
                continue
            case UInt8(ascii: "+"):
                out.append(0x20)
            case let byte:
                out.append(byte)
            }
            i += 1
        }
        return String(validating: out, as: UTF8.self)
    }

    public subscript(_ name: String) -> String? { pairs.first { $0.name == name }?.value }

    public func all(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

    public var isEmpty: Bool { pairs.isEmpty }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { pairs.makeIterator() }

    /// Encodes the fields back to urlencoded text.
    public var urlencoded: String {
        pairs.map { URI.encode($0.name) + "=" + URI.encode($0.value) }.joined(separator: "&")
    }
}
