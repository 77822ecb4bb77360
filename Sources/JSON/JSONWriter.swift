/// Serializes JSON values: compact, optionally with sorted keys and indentation.
public struct JSONWriter {
    public var sortedKeys = false
    public var indent: Int? = nil

    public init(sortedKeys: Bool = false, indent: Int? = nil) {
        self.sortedKeys = sortedKeys
        self.indent = indent
    }

    public func string(_ value: JSONValue) -> String {
        var out = ""
        write(value, into: &out, level: 0)
        return out
    }

    private func newline(_ out: inout String, _ level: Int) {
        guard let indent else { return }
        out += "\n" + String(repeating: " ", count: indent * level)
    }

    private func write(_ value: JSONValue, into out: inout String, level: Int) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .integer(let i): out += String(i)
        case .double(let d):
            if d == d.rounded(), abs(d) < 1e15 { out += String(Int64(d)) } else { out += "\(d)" }
        case .string(let s): JSONWriter.quote(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                newline(&out, level + 1)
                write(item, into: &out, level: level + 1)
            }
            newline(&out, level)
            out += "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            // Later duplicates win, as in lookups.
            var seen = Set<String>()
            var unique = members.reversed().filter { seen.insert($0.0).inserted }.reversed().map { $0 }
            if sortedKeys { unique.sort { $0.0.unicodeScalars.lexicographicallyPrecedes($1.0.unicodeScalars) } }
            out += "{"
            for (i, (name, item)) in unique.enumerated() {
                if i > 0 { out += "," }
                newline(&out, level + 1)
                JSONWriter.quote(name, into: &out)
                out += indent == nil ? ":" : ": "
                write(item, into: &out, level: level + 1)
            }
            newline(&out, level)
            out += "}"
        }
    }

    /// A JSON string literal; `<`, `>` and `&` are escaped too, so the
    /// output is safe inside HTML.
    public static func quote(_ s: String, into out: inout String) {
        out += "\""
        let hex = Array("0123456789abcdef")
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<", ">", "&", "\u{2028}", "\u{2029}":
                let v = scalar.value
                out += "\\u" + String([hex[Int(v >> 12 & 15)], hex[Int(v >> 8 & 15)], hex[Int(v >> 4 & 15)], hex[Int(v & 15)]])
            default:
                if scalar.value < 0x20 {
                    out += "\\u00" + String([hex[Int(scalar.value >> 4)], hex[Int(scalar.value & 15)]])
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
