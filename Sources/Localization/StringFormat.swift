#if canImport(Glibc)
import Glibc
#endif

/// An argument for a format string.
public enum FormatArgument: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case string(String)
    case int(Int)
    case double(Double)

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }

    var asInt: Int {
        switch self {
        case .int(let i): i
        case .double(let d): d.isFinite ? Int(d) : 0
        case .string(let s): Int(s) ?? 0
        }
    }

    var asDouble: Double {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        case .string(let s): Double(s) ?? 0
        }
    }

    var asString: String {
        switch self {
        case .string(let s): s
        case .int(let i): String(i)
        case .double(let d): String(d)
        }
    }
}

/// `String(format:)` for the specifiers a site needs: `%@ %d %i %u %ld %lld
/// %f %.2f %x %s %c %%`, with flags, width, precision and positional
/// arguments (`%2$@`). Numbers go through vsnprintf, so they read as printf's.
public enum StringFormat {
    /// What kind of argument a placeholder takes, for comparing translations.
    public enum Kind: String, Sendable, Equatable {
        case object = "@", integer = "d", unsigned = "u", double = "f", character = "c", pointer = "p"
    }

    /// A placeholder: its argument position (1-based) and kind.
    public struct Placeholder: Sendable, Equatable, CustomStringConvertible {
        public let position: Int
        public let kind: Kind
        public var description: String { "%\(position)$\(kind.rawValue)" }
    }

    struct Spec {
        var position: Int?
        var flags = ""
        var width = ""
        var precision = ""
        var length = ""
        var conversion: UInt8
        var source: Range<Int>
    }

    static func kind(of conversion: UInt8) -> Kind? {
        switch conversion {
        case UInt8(ascii: "@"), UInt8(ascii: "s"), UInt8(ascii: "S"): .object
        case UInt8(ascii: "d"), UInt8(ascii: "i"), UInt8(ascii: "D"): .integer
        case UInt8(ascii: "u"), UInt8(ascii: "U"), UInt8(ascii: "x"), UInt8(ascii: "X"), UInt8(ascii: "o"),
            UInt8(ascii: "O"):
            .unsigned
        case UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "g"),
            UInt8(ascii: "G"),
            UInt8(ascii: "a"), UInt8(ascii: "A"):
            .double
        case UInt8(ascii: "c"), UInt8(ascii: "C"): .character
        case UInt8(ascii: "p"): .pointer
        default: nil
        }
    }

    /// Scans specifiers; `%%` and malformed ones are not returned.
    static func specs(_ bytes: [UInt8]) -> [Spec] {
        var result: [Spec] = []
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "%") else {
                i += 1
                continue
            }
            let start = i
            i += 1
            guard i < bytes.count else { break }
            if bytes[i] == UInt8(ascii: "%") {
                i += 1
                continue
            }
            var spec = Spec(conversion: 0, source: start..<start)
            // Positional: digits then '$'.
            var j = i
            while j < bytes.count, (0x30...0x39).contains(bytes[j]) { j += 1 }
            if j > i, j < bytes.count, bytes[j] == UInt8(ascii: "$"),
                let n = Int(String(decoding: bytes[i..<j], as: UTF8.self)), n > 0
            {
                spec.position = n
                i = j + 1
            }
            while i < bytes.count, "-+ 0#'".utf8.contains(bytes[i]) {
                spec.flags.append(Character(Unicode.Scalar(bytes[i])))
                i += 1
            }
            while i < bytes.count, (0x30...0x39).contains(bytes[i]) {
                spec.width.append(Character(Unicode.Scalar(bytes[i])))
                i += 1
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                spec.precision = "."
                i += 1
                while i < bytes.count, (0x30...0x39).contains(bytes[i]) {
                    spec.precision.append(Character(Unicode.Scalar(bytes[i])))
                    i += 1
                }
            }
            while i < bytes.count, "hlqLzjt".utf8.contains(bytes[i]) {
                spec.length.append(Character(Unicode.Scalar(bytes[i])))
                i += 1
            }
            guard i < bytes.count, kind(of: bytes[i]) != nil else { continue }
            spec.conversion = bytes[i]
            i += 1
            spec.source = start..<i
            result.append(spec)
        }
        return result
    }

    /// The placeholders of a format, numbered as they take arguments.
    public static func placeholders(in format: String) -> [Placeholder] {
        var next = 1
        return specs(Array(format.utf8)).map { spec in
            let position = spec.position ?? next
            if spec.position == nil { next += 1 }
            return Placeholder(position: position, kind: kind(of: spec.conversion)!)
        }.sorted { $0.position < $1.position }
    }

    /// The widest width or precision any placeholder asks for (hotfixes cap it: `%99999d` costs the renderer).
    public static func widestField(in format: String) -> Int {
        specs(Array(format.utf8)).map { max(Int($0.width) ?? 0, Int($0.precision.dropFirst()) ?? 0) }.max() ?? 0
    }

    /// `numbers` writes the digits of plain `%d` and `%.Nf` as a language does (grouping, decimal comma); the default
    /// is printf's own.
    public static func format(
        _ format: String, _ arguments: [FormatArgument], numbers: NumberFormat = .plain
    ) -> String {
        let bytes = Array(format.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var next = 0
        var i = 0
        for spec in specs(bytes) {
            // Literal text before this spec, with %% collapsed.
            appendLiteral(bytes[i..<spec.source.lowerBound], to: &out)
            i = spec.source.upperBound
            let index = spec.position.map { $0 - 1 } ?? next
            if spec.position == nil { next += 1 }
            let argument = index < arguments.count ? arguments[index] : FormatArgument.string("")
            out.append(contentsOf: render(spec, argument, numbers: numbers).utf8)
        }
        appendLiteral(bytes[i...], isEnd: true, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func appendLiteral(_ bytes: ArraySlice<UInt8>, isEnd: Bool = false, to out: inout [UInt8]) {
        var i = bytes.startIndex
        while i < bytes.endIndex {
            // A lone final %, as Foundation.
            if bytes[i] == UInt8(ascii: "%") && i + 1 == bytes.endIndex && isEnd { break }
            out.append(bytes[i])
            if bytes[i] == UInt8(ascii: "%"), i + 1 < bytes.endIndex, bytes[i + 1] == UInt8(ascii: "%") {
                i += 2
            } else {
                i += 1
            }
        }
    }

    private static func render(_ spec: Spec, _ argument: FormatArgument, numbers: NumberFormat) -> String {
        let conversion = Character(Unicode.Scalar(spec.conversion))
        let plain = spec.flags.isEmpty && spec.width.isEmpty
        switch kind(of: spec.conversion)! {
        case .object:
            return argument.asString  // as Foundation: no width or precision for %@
        case .integer where plain && spec.precision.isEmpty:
            return numbers.integer(argument.asInt)  // the common %d: no need for printf
        case .double where plain && (conversion == "f" || conversion == "F") && numbers != .plain:
            // printf rounds; the language separates and groups.
            let text = printf("%" + spec.precision + "f", argument.asDouble)
            guard let dot = text.firstIndex(of: "."), let whole = Int(text[..<dot]) else {
                return Int(text).map(numbers.integer) ?? text
            }
            let sign = text.hasPrefix("-") && whole == 0 ? "-" : ""
            return sign + numbers.integer(whole) + numbers.decimalSeparator + String(text[text.index(after: dot)...])
        case .integer, .unsigned, .character:
            return printf(
                "%" + spec.flags + spec.width + spec.precision + "ll"
                    + String(
                        conversion == "D"
                            ? "d"
                            : conversion == "U" ? "u" : conversion == "O" ? "o" : conversion == "C" ? "c" : conversion),
                Int64(argument.asInt))
        case .double:
            return printf("%" + spec.flags + spec.width + spec.precision + String(conversion), argument.asDouble)
        case .pointer:
            return printf("%" + spec.flags + spec.width + "llx", Int64(argument.asInt))
        }
    }

    private static func printf(_ format: String, _ value: some CVarArg) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        let n = withVaList([value]) { vsnprintf(&buffer, buffer.count, format, $0) }
        guard n >= 0 else { return "" }
        return String(
            decoding: buffer.prefix(min(Int(n), buffer.count - 1)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
