/// A value from an XML property list. Dictionaries keep their order.
public indirect enum PropertyListValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case real(Double)
    case bool(Bool)
    /// ISO 8601 text, as written.
    case date(String)
    /// Base64 text, as written.
    case data(String)
    case array([PropertyListValue])
    case dictionary([(String, PropertyListValue)])

    public static func == (a: PropertyListValue, b: PropertyListValue) -> Bool {
        switch (a, b) {
        case let (.string(x), .string(y)), let (.date(x), .date(y)), let (.data(x), .data(y)): x == y
        case let (.integer(x), .integer(y)): x == y
        case let (.real(x), .real(y)): x == y
        case let (.bool(x), .bool(y)): x == y
        case let (.array(x), .array(y)): x == y
        case let (.dictionary(x), .dictionary(y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    public subscript(key: String) -> PropertyListValue? {
        guard case .dictionary(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    public var string: String? { if case .string(let s) = self { s } else { nil } }
    public var dictionary: [(String, PropertyListValue)]? { if case .dictionary(let d) = self { d } else { nil } }

    /// The name of the value's type as a plist writes it.
    public var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .bool: "boolean"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dict"
        }
    }
}
