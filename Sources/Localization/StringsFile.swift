import PropertyList

/// A parsed `.strings` file: Apple's old-style property list grammar for
/// string tables (`CFOldStylePList`). Where Apple's parser silently stops at
/// a stray token and drops the rest of the file, this one throws, naming
/// the file, line and column.
public struct StringsFile: Sendable {
    public typealias Error = SourceError

    /// Keys to values; for a duplicate key the last one wins.
    public private(set) var table: [String: String] = [:]
    /// Keys in the order they first appear.
    public private(set) var keys: [String] = []
    /// The comment written just above a key (for translators), without its `/* */` or `//`. A comment set apart
    /// by a blank line (a file's header) belongs to no key.
    public private(set) var comments: [String: String] = [:]

    public init(table: [String: String]) {
        self.table = table
        keys = table.keys.sorted()
    }

    public init(bytes: [UInt8], file: String = "<strings>") throws(Error) {
        let units = try Self.decode(bytes, file: file)
        var parser = Parser(units: units, file: file)
        for (key, value, comment) in try parser.entries() {
            if table.updateValue(value, forKey: key) == nil { keys.append(key) }
            if let comment { comments[key] = comment }
        }
    }

    /// A `.strings` file in UTF-8: each entry quoted, after its comment (a lone line of its own, or none).
    public static func encode(
        header: String? = nil, _ entries: [(key: String, value: String, comment: String?)]
    ) -> String {
        var out = header.map { "/* " + commentText($0) + " */\n\n" } ?? ""
        for entry in entries {
            if let comment = entry.comment { out += "/* " + commentText(comment) + " */\n" }
            out += quote(entry.key) + " = " + quote(entry.value) + ";\n"
        }
        return out
    }

    /// A comment cannot hold its own end.
    static func commentText(_ text: String) -> String {
        text.replacing("*/", with: "* /")
    }

    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\U" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// UTF-8 with or without a BOM, or UTF-16 with a BOM, as UTF-16 units.
    static func decode(_ bytes: [UInt8], file: String) throws(Error) -> [UInt16] {
        let bigEndian = bytes.starts(with: [0xFE, 0xFF])
        let littleEndian = bytes.starts(with: [0xFF, 0xFE])
        if bigEndian || littleEndian {
            guard bytes.count % 2 == 0 else {
                throw Error(file: file, line: 1, column: 1, message: "UTF-16 file with an odd number of bytes")
            }
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            for i in stride(from: 2, to: bytes.count, by: 2) {
                let (high, low) = bigEndian ? (bytes[i], bytes[i + 1]) : (bytes[i + 1], bytes[i])
                units.append(UInt16(high) << 8 | UInt16(low))
            }
            return units
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        var units: [UInt16] = []
        units.reserveCapacity(body.count)
        var decoder = UTF8()
        var iterator = body.makeIterator()
        var line = 1
        var column = 1
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                units.append(contentsOf: scalar.utf16)
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput:
                return units
            case .error:
                throw Error(
                    file: file, line: line, column: column,
                    message: "invalid UTF-8 (a strings file is UTF-8, or UTF-16 with a byte order mark)")
            }
        }
    }

    private struct Parser {
        let units: [UInt16]
        let file: String
        var index = 0
        /// The last comment `skipSpace` passed, while no blank line has followed it.
        var comment: String?

        init(units: [UInt16], file: String) {
            self.units = units
            self.file = file
        }

        func error(_ message: String, at position: Int? = nil) -> Error {
            var line = 1
            var column = 1
            var i = 0
            let end = min(position ?? index, units.count)
            while i < end {
                let u = units[i]
                if u == 0x0A || u == 0x2028 || u == 0x2029 {
                    line += 1
                    column = 1
                } else if u == 0x0D {
                    line += 1
                    column = 1
                    if i + 1 < end && units[i + 1] == 0x0A { i += 1 }
                } else if !(0xDC00..<0xE000).contains(u) {
                    column += 1
                }
                i += 1
            }
            return Error(file: file, line: line, column: column, message: message)
        }

        static func isUnquoted(_ u: UInt16) -> Bool {
            switch u {
            case 0x61...0x7A, 0x41...0x5A, 0x30...0x39: true
            case UInt16(UInt8(ascii: "_")), UInt16(UInt8(ascii: "$")), UInt16(UInt8(ascii: "/")),
                UInt16(UInt8(ascii: ":")), UInt16(UInt8(ascii: ".")), UInt16(UInt8(ascii: "-")):
                true
            default: false
            }
        }

        /// Skips whitespace and comments; false at the end of input.
        mutating func skipSpace() throws(Error) -> Bool {
            var newlines = 0
            while index < units.count {
                let u = units[index]
                if (0x09...0x0D).contains(u) || u == 0x20 || u == 0x2028 || u == 0x2029 {
                    if u == 0x0A {
                        newlines += 1
                        if newlines > 1 { comment = nil }
                    }
                    index += 1
                    continue
                }
                guard u == 0x2F, index + 1 < units.count else { return true }
                if units[index + 1] == 0x2F {
                    index += 2
                    let start = index
                    while index < units.count, ![0x0A, 0x0D, 0x2028, 0x2029].contains(units[index]) { index += 1 }
                    comment = text(start..<index)
                    newlines = 0
                } else if units[index + 1] == 0x2A {
                    let start = index
                    index += 2
                    while true {
                        guard index + 1 < units.count else { throw error("unterminated /* comment", at: start) }
                        if units[index] == 0x2A && units[index + 1] == 0x2F {
                            index += 2
                            break
                        }
                        index += 1
                    }
                    comment = text(start + 2..<index - 2)
                    newlines = 0
                } else {
                    return true  // a '/' that starts an unquoted string
                }
            }
            return false
        }

        func text(_ range: Range<Int>) -> String {
            let text = String(decoding: units[range], as: UTF16.self)
            var scalars = text.unicodeScalars[...]
            while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
            while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
            return String(String.UnicodeScalarView(scalars))
        }

        mutating func entries() throws(Error) -> [(String, String, String?)] {
            var result: [(String, String, String?)] = []
            while true {
                comment = nil
                guard try skipSpace() else { break }
                let keyComment = comment
                guard let key = try string() else {
                    throw error("expected a key: a quoted string or a token of letters, digits and _$/:.-")
                }
                guard try skipSpace() else {
                    throw error("expected '=' or ';' after the key \(quoted(key)), found the end of the file")
                }
                let value: String
                if units[index] == UInt16(UInt8(ascii: ";")) {
                    value = key  // "key"; means the value is the key
                } else if units[index] == UInt16(UInt8(ascii: "=")) {
                    index += 1
                    guard try skipSpace() else { throw error("expected a value after '=', found the end of the file") }
                    if units[index] == UInt16(UInt8(ascii: "(")) || units[index] == UInt16(UInt8(ascii: "{"))
                        || units[index] == UInt16(UInt8(ascii: "<"))
                    {
                        throw error("values in a strings file must be strings")
                    }
                    guard let v = try string() else { throw error("expected a value: a quoted string or a token") }
                    value = v
                    guard try skipSpace() else {
                        throw error("expected ';' after the value of \(quoted(key)), found the end of the file")
                    }
                } else {
                    throw error("expected '=' or ';' after the key \(quoted(key))")
                }
                guard units[index] == UInt16(UInt8(ascii: ";")) else {
                    throw error("expected ';' after the value of \(quoted(key))")
                }
                index += 1
                result.append((key, value, keyComment))
            }
            return result
        }

        func quoted(_ s: String) -> String { "\"" + (s.count > 40 ? String(s.prefix(40)) + "…" : s) + "\"" }

        /// A quoted or unquoted string at `index`, or nil if none starts here.
        mutating func string() throws(Error) -> String? {
            let first = units[index]
            if first == 0x22 || first == 0x27 {
                return try quotedString(quote: first)
            }
            guard Self.isUnquoted(first) else { return nil }
            let start = index
            while index < units.count, Self.isUnquoted(units[index]) { index += 1 }
            return String(decoding: units[start..<index], as: UTF16.self)
        }

        mutating func quotedString(quote: UInt16) throws(Error) -> String {
            let start = index
            index += 1
            var out: [UInt16] = []
            while true {
                guard index < units.count else { throw error("unterminated quoted string", at: start) }
                let u = units[index]
                index += 1
                if u == quote { break }
                guard u == 0x5C else {
                    out.append(u)
                    continue
                }
                guard index < units.count else { throw error("unterminated quoted string", at: start) }
                let e = units[index]
                index += 1
                switch e {
                case 0x30...0x37:  // up to three octal digits, a NeXTSTEP byte
                    var byte = UInt8(e - 0x30)
                    for _ in 0..<2 {
                        guard index < units.count, (0x30...0x37).contains(units[index]) else { break }
                        byte = byte &<< 3 &+ UInt8(units[index] - 0x30)
                        index += 1
                    }
                    out.append(byte < 0x80 ? UInt16(byte) : nextStep[Int(byte - 0x80)])
                case UInt16(UInt8(ascii: "U")):  // up to four hex digits, a UTF-16 unit
                    var value: UInt16 = 0
                    for _ in 0..<4 {
                        guard index < units.count, let digit = hexValue(units[index]) else { break }
                        value = value << 4 | digit
                        index += 1
                    }
                    out.append(value)
                case UInt16(UInt8(ascii: "a")): out.append(0x07)
                case UInt16(UInt8(ascii: "b")): out.append(0x08)
                case UInt16(UInt8(ascii: "f")): out.append(0x0C)
                case UInt16(UInt8(ascii: "n")): out.append(0x0A)
                case UInt16(UInt8(ascii: "r")): out.append(0x0D)
                case UInt16(UInt8(ascii: "t")): out.append(0x09)
                case UInt16(UInt8(ascii: "v")): out.append(0x0B)
                default: out.append(e)  // \" \\ \' backslash-newline, and any other: itself
                }
            }
            // Surrogate pairs from \U escapes combine; a lone one becomes U+FFFD.
            return String(decoding: out, as: UTF16.self)
        }

        func hexValue(_ u: UInt16) -> UInt16? {
            switch u {
            case 0x30...0x39: u - 0x30
            case 0x41...0x46: u - 0x41 + 10
            case 0x61...0x66: u - 0x61 + 10
            default: nil
            }
        }
    }
}

/// NeXTSTEP bytes 0x80–0xFF as UTF-16, for octal escapes (0xFE and 0xFF are
/// undefined and give U+0000, as in CoreFoundation).
private let nextStep: [UInt16] = [
    0x00A0, 0x00C0, 0x00C1, 0x00C2, 0x00C3, 0x00C4, 0x00C5, 0x00C7, 0x00C8, 0x00C9, 0x00CA, 0x00CB, 0x00CC, 0x00CD,
    0x00CE, 0x00CF,
    0x00D0, 0x00D1, 0x00D2, 0x00D3, 0x00D4, 0x00D5, 0x00D6, 0x00D9, 0x00DA, 0x00DB, 0x00DC, 0x00DD, 0x00DE, 0x00B5,
    0x00D7, 0x00F7,
    0x00A9, 0x00A1, 0x00A2, 0x00A3, 0x2044, 0x00A5, 0x0192, 0x00A7, 0x00A4, 0x2019, 0x201C, 0x00AB, 0x2039, 0x203A,
    0xFB01, 0xFB02,
    0x00AE, 0x2013, 0x2020, 0x2021, 0x00B7, 0x00A6, 0x00B6, 0x2022, 0x201A, 0x201E, 0x201D, 0x00BB, 0x2026, 0x2030,
    0x00AC, 0x00BF,
    0x00B9, 0x02CB, 0x00B4, 0x02C6, 0x02DC, 0x00AF, 0x02D8, 0x02D9, 0x00A8, 0x00B2, 0x02DA, 0x00B8, 0x00B3, 0x02DD,
    0x02DB, 0x02C7,
    0x2014, 0x00B1, 0x00BC, 0x00BD, 0x00BE, 0x00E0, 0x00E1, 0x00E2, 0x00E3, 0x00E4, 0x00E5, 0x00E7, 0x00E8, 0x00E9,
    0x00EA, 0x00EB,
    0x00EC, 0x00C6, 0x00ED, 0x00AA, 0x00EE, 0x00EF, 0x00F0, 0x00F1, 0x0141, 0x00D8, 0x0152, 0x00BA, 0x00F2, 0x00F3,
    0x00F4, 0x00F5,
    0x00F6, 0x00E6, 0x00F9, 0x00FA, 0x00FB, 0x0131, 0x00FC, 0x00FD, 0x0142, 0x00F8, 0x0153, 0x00DF, 0x00FE, 0x00FF,
    0x0000, 0x0000,
]
