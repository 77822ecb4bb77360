/// Reads Apple's XML property list format (as GTConstants and .stringsdict
/// files use): dict, array, key, string, integer, real, true, false, date and
/// data, with comments, CDATA and the XML entities. Errors name the line and
/// column and say what was expected.
public struct PropertyListParser {
    public typealias Error = SourceError

    public static let maxDepth = 128

    public static func parse(_ bytes: [UInt8], file: String = "<plist>") throws(Error) -> PropertyListValue {
        var parser = PropertyListParser(
            bytes: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes, file: file)
        return try parser.document()
    }

    private let bytes: [UInt8]
    private let file: String
    private var index = 0

    private init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    private enum Token {
        case open(String, selfClosing: Bool)
        case close(String)
    }

    private func error(_ message: String, at position: Int? = nil) -> Error {
        var line = 1
        var column = 1
        for i in 0..<min(position ?? index, bytes.count) {
            if bytes[i] == 0x0A {
                line += 1
                column = 1
            } else if bytes[i] & 0xC0 != 0x80 {
                column += 1
            }
        }
        return Error(file: file, line: line, column: column, message: message)
    }

    private func starts(_ text: String, at i: Int) -> Bool {
        let t = Array(text.utf8)
        return i + t.count <= bytes.count && bytes[i..<(i + t.count)].elementsEqual(t)
    }

    private mutating func skip(past text: String, what: String) throws(Error) {
        let start = index
        while index < bytes.count {
            if starts(text, at: index) {
                index += text.utf8.count
                return
            }
            index += 1
        }
        throw error("unterminated \(what)", at: start)
    }

    /// Skips whitespace, comments, the XML declaration and the DOCTYPE.
    private mutating func skipMisc() throws(Error) {
        while index < bytes.count {
            let b = bytes[index]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D {
                index += 1
            } else if starts("<!--", at: index) {
                try skip(past: "-->", what: "comment")
            } else if starts("<?", at: index) {
                try skip(past: "?>", what: "processing instruction")
            } else if starts("<!DOCTYPE", at: index) {
                try skip(past: ">", what: "DOCTYPE")
            } else {
                return
            }
        }
    }

    private mutating func tag() throws(Error) -> (Token, Int) {
        try skipMisc()
        let start = index
        guard index < bytes.count else { throw error("unexpected end of file") }
        guard bytes[index] == UInt8(ascii: "<") else { throw error("expected an element such as <dict> or <string>") }
        index += 1
        let closing = index < bytes.count && bytes[index] == UInt8(ascii: "/")
        if closing { index += 1 }
        let nameStart = index
        while index < bytes.count, bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "/"),
            bytes[index] != 0x20, bytes[index] != 0x0A, bytes[index] != 0x09, bytes[index] != 0x0D
        { index += 1 }
        let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
        guard !name.isEmpty else { throw error("expected an element name", at: start) }
        // Attributes are ignored (only <plist version="1.0"> has any).
        var quote: UInt8? = nil
        while index < bytes.count {
            let b = bytes[index]
            if let q = quote {
                if b == q { quote = nil }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: ">") {
                break
            }
            index += 1
        }
        guard index < bytes.count else { throw error("unterminated <\(name)> tag", at: start) }
        let selfClosing = index > 0 && bytes[index - 1] == UInt8(ascii: "/") && !closing
        index += 1
        return (closing ? .close(name) : .open(name, selfClosing: selfClosing), start)
    }

    private mutating func document() throws(Error) -> PropertyListValue {
        let (first, at) = try tag()
        var value: PropertyListValue
        if case .open("plist", let selfClosing) = first {
            guard !selfClosing else { throw error("an empty <plist/> has no value", at: at) }
            let (token, tokenAt) = try tag()
            value = try self.value(token, at: tokenAt, depth: 0)
            let (end, endAt) = try tag()
            guard case .close("plist") = end else { throw error("expected </plist>", at: endAt) }
        } else {
            value = try self.value(first, at: at, depth: 0)
        }
        try skipMisc()
        guard index == bytes.count else { throw error("unexpected content after the property list") }
        return value
    }

    private mutating func value(_ token: Token, at: Int, depth: Int) throws(Error) -> PropertyListValue {
        guard depth < Self.maxDepth else { throw error("nesting deeper than \(Self.maxDepth)", at: at) }
        guard case .open(let name, let selfClosing) = token else {
            if case .close(let name) = token { throw error("unexpected </\(name)>", at: at) }
            throw error("expected a value", at: at)
        }
        switch name {
        case "true", "false":
            if !selfClosing { try close(name) }
            return .bool(name == "true")
        case "string":
            return .string(selfClosing ? "" : try text(until: name))
        case "date":
            return .date(selfClosing ? "" : try text(until: name))
        case "data":
            return .data(selfClosing ? "" : try text(until: name).filter { !$0.isWhitespace })
        case "integer":
            let textAt = index
            let text = selfClosing ? "" : try self.text(until: name).trimmingWhitespace
            if let i = Int(text) { return .integer(i) }
            if text.hasPrefix("0x"), let i = Int(text.dropFirst(2), radix: 16) { return .integer(i) }
            throw error("<integer> holds '\(text)', not a whole number", at: textAt)
        case "real":
            let textAt = index
            let text = selfClosing ? "" : try self.text(until: name).trimmingWhitespace
            guard let d = Double(text) else { throw error("<real> holds '\(text)', not a number", at: textAt) }
            return .real(d)
        case "array":
            var items: [PropertyListValue] = []
            if selfClosing { return .array(items) }
            while true {
                let (next, nextAt) = try tag()
                if case .close("array") = next { return .array(items) }
                items.append(try value(next, at: nextAt, depth: depth + 1))
            }
        case "dict":
            var members: [(String, PropertyListValue)] = []
            if selfClosing { return .dictionary(members) }
            while true {
                let (next, nextAt) = try tag()
                if case .close("dict") = next { return .dictionary(members) }
                guard case .open("key", let emptyKey) = next else {
                    throw error("expected <key> or </dict> in a dict", at: nextAt)
                }
                let key = emptyKey ? "" : try text(until: "key")
                let (valueToken, valueAt) = try tag()
                if case .close("dict") = valueToken { throw error("the key '\(key)' has no value", at: valueAt) }
                members.append((key, try value(valueToken, at: valueAt, depth: depth + 1)))
            }
        default:
            throw error(
                "unknown element <\(name)>; expected dict, array, key, string, integer, real, true, false, date or data",
                at: at)
        }
    }

    private mutating func close(_ name: String) throws(Error) {
        let (token, at) = try tag()
        guard case .close(name) = token else { throw error("expected </\(name)>", at: at) }
    }

    /// Character data up to `</name>`, with entities and CDATA decoded.
    private mutating func text(until name: String) throws(Error) -> String {
        let start = index
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("expected </\(name)>", at: start) }
            let b = bytes[index]
            if starts("<![CDATA[", at: index) {
                index += 9
                let from = index
                try skip(past: "]]>", what: "CDATA section")
                out += bytes[from..<(index - 3)]
            } else if starts("<!--", at: index) {
                try skip(past: "-->", what: "comment")
            } else if b == UInt8(ascii: "<") {
                let (token, at) = try tag()
                guard case .close(name) = token else { throw error("expected </\(name)>", at: at) }
                guard let s = String(validating: out, as: UTF8.self) else {
                    throw error("text is not UTF-8", at: start)
                }
                return s
            } else if b == UInt8(ascii: "&") {
                out += try entity()
            } else {
                out.append(b)
                index += 1
            }
        }
    }

    private mutating func entity() throws(Error) -> [UInt8] {
        let start = index
        guard let semicolon = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw error("unterminated entity", at: start)
        }
        let name = String(decoding: bytes[(index + 1)..<semicolon], as: UTF8.self)
        index = semicolon + 1
        switch name {
        case "amp": return [UInt8(ascii: "&")]
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            var code: UInt32?
            if name.hasPrefix("#x") {
                code = UInt32(name.dropFirst(2), radix: 16)
            } else if name.hasPrefix("#") {
                code = UInt32(name.dropFirst())
            }
            guard let code, let scalar = Unicode.Scalar(code), code != 0 else {
                throw error("unknown entity &\(name);", at: start)
            }
            return Array(String(Character(scalar)).utf8)
        }
    }
}

extension String {
    var trimmingWhitespace: String {
        var s = self[...]
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
