/// Serializes JSON values: compact, optionally with sorted keys and indentation.
public struct JSONWriter {
    public var sortedKeys = false
    public var indent: Int? = nil

    public init(sortedKeys: Bool = false, indent: Int? = nil) {
        self.sortedKeys = sortedKeys
        self.indent = indent
    }

    public func string(_ value: JSONValue) -> String {
        String(decoding: bytes(value), as: UTF8.self)
    }

    /// The UTF-8 text, built as bytes (a response body needs nothing else).
    public func bytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        write(value, into: &out, level: 0)
        return out
    }

    private func newline(_ out: inout [UInt8], _ level: Int) {
        guard let indent else { return }
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * level))
    }

    private func write(_ value: JSONValue, into out: inout [UInt8], level: Int) {
        switch value {
        case .null: out += "null".utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .integer(let i): out += String(i).utf8
        case .double(let d):
            if d == d.rounded(), abs(d) < 1e15 { out += String(Int64(d)).utf8 } else { out += "\(d)".utf8 }
        case .string(let s): JSONWriter.quote(s, into: &out)
        case .array(let items):
            if items.isEmpty {
                out += "[]".utf8
                return
            }
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, level + 1)
                write(item, into: &out, level: level + 1)
            }
            newline(&out, level)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty {
                out += "{}".utf8
                return
            }
            // Later duplicates win, as in lookups. (Objects built in code have none; small ones are checked
            // pairwise, since a set cost more than writing the object.)
            var unique = members
            if members.count > 8
                || members.indices.contains(where: { i in members[..<i].contains { $0.0 == members[i].0 } })
            {
                var seen = Set<String>()
                unique = members.reversed().filter { seen.insert($0.0).inserted }.reversed()
            }
            if sortedKeys { unique.sort { $0.0.unicodeScalars.lexicographicallyPrecedes($1.0.unicodeScalars) } }
            out.append(UInt8(ascii: "{"))
            for (i, (name, item)) in unique.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, level + 1)
                JSONWriter.quote(name, into: &out)
                out += (indent == nil ? ":" : ": ").utf8
                write(item, into: &out, level: level + 1)
            }
            newline(&out, level)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// A JSON string literal; `<`, `>` and `&` are escaped too, so the
    /// output is safe inside HTML (and U+2028, U+2029 inside scripts).
    public static func quote(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            var i = 0
            var plain = 0  // bytes from `plain` to `i` need no escape: copied in one go
            func flush() { if plain < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plain..<i])) } }
            while i < utf8.count {
                let byte = utf8[i]
                let escaped: [UInt8]?
                var width = 1
                switch byte {
                case UInt8(ascii: "\""): escaped = Array(#"\""#.utf8)
                case UInt8(ascii: "\\"): escaped = Array(#"\\"#.utf8)
                case UInt8(ascii: "\n"): escaped = Array(#"\n"#.utf8)
                case UInt8(ascii: "\r"): escaped = Array(#"\r"#.utf8)
                case UInt8(ascii: "\t"): escaped = Array(#"\t"#.utf8)
                case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), 0..<0x20:
                    escaped = unicodeEscape(UInt32(byte))
                case 0xE2
                where i + 2 < utf8.count && utf8[i + 1] == 0x80 && (utf8[i + 2] == 0xA8 || utf8[i + 2] == 0xA9):
                    escaped = unicodeEscape(utf8[i + 2] == 0xA8 ? 0x2028 : 0x2029)
                    width = 3
                default: escaped = nil
                }
                if let escaped {
                    flush()
                    out.append(contentsOf: escaped)
                    i += width
                    plain = i
                } else {
                    i += 1
                }
            }
            flush()
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func unicodeEscape(_ v: UInt32) -> [UInt8] {
        Array(#"\u"#.utf8) + [hex[Int(v >> 12 & 15)], hex[Int(v >> 8 & 15)], hex[Int(v >> 4 & 15)], hex[Int(v & 15)]]
    }
}
