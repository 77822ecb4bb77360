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
        let text = Substring(input)
        for part in text.split(separator: "&", omittingEmptySubsequences: true) {
            guard pairs.count < Self.maxFields else { return nil }
            let name: Substring, value: Substring
            if let eq = part.firstIndex(of: "=") {
                name = part[..<eq]
                value = part[part.index(after: eq)...]
            } else {
                name = part[...]
                value = ""
            }
            guard let n = URI.decode(name, plusAsSpace: true), let v = URI.decode(value, plusAsSpace: true) else {
                return nil
            }
            pairs.append((n, v))
        }
    }

    /// Parses a urlencoded body; nil when it is not valid UTF-8 or malformed.
    public init?(body: [UInt8]) {
        guard let text = String(validating: body, as: UTF8.self) else { return nil }
        self.init(urlencoded: text)
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
