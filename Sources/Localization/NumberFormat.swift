/// Numbers as each shipped language writes them: a small table of ours rather than ICU (which `Sources/` cannot use).
///
/// The conventions, from CLDR 48 (checked against ICU 78's `Intl.NumberFormat` in Node):
///
/// | lang | decimal | grouping (from)          | percent  | seconds  |
/// |------|---------|--------------------------|----------|----------|
/// | en   | 2.3     | 1,234 (4 digits)         | 100%     | 2.3 s    |
/// | de   | 2,3     | 1.234 (4 digits)         | 100 %    | 2,3 s    | (NBSP U+00A0 before %)
/// | fr   | 2,3     | 1 234 (4 digits, U+202F) | 100 %    | 2,3 s    | (NBSP U+00A0 before %, NNBSP in groups)
/// | es   | 2,3     | 12.345 (5 digits: 1234)  | 100 %    | 2,3 s    | (NBSP before %: CLDR's es, es-419 alike)
/// | ja   | 2.3     | 1,234 (4 digits)         | 100%     | 2.3秒    |
/// | ru   | 2,3     | 1 234 (4 digits, U+00A0) | 100 %    | 2,3 с    | (NBSP before %)
///
/// Units and the percent sign inside sentences are written in the `.strings` files themselves (with their no-break
/// spaces); this table is for the digits and for bare figures a template shows (`{{num.percent x}}`,
/// `{{num.count x}}`).
public struct NumberFormat: Sendable, Equatable {
    public let decimalSeparator: String
    public let groupSeparator: String
    /// Digits an integer needs before it is grouped: 4 in most languages, 5 in Spanish ("1000" but "12.345").
    public let groupingFrom: Int
    /// Between the number and `%`: nothing, or a no-break space.
    public let percentSeparator: String

    public init(decimalSeparator: String, groupSeparator: String, groupingFrom: Int = 4, percentSeparator: String) {
        self.decimalSeparator = decimalSeparator
        self.groupSeparator = groupSeparator
        self.groupingFrom = groupingFrom
        self.percentSeparator = percentSeparator
    }

    static let noBreakSpace = "\u{00A0}"
    static let narrowNoBreakSpace = "\u{202F}"

    /// printf's own numbers: what `StringFormat.format` writes when no language is given.
    public static let plain = NumberFormat(
        decimalSeparator: ".", groupSeparator: "", groupingFrom: .max, percentSeparator: "")
    public static let english = NumberFormat(decimalSeparator: ".", groupSeparator: ",", percentSeparator: "")

    static let table: [String: NumberFormat] = [
        "en": english,
        "ja": english,
        "de": NumberFormat(decimalSeparator: ",", groupSeparator: ".", percentSeparator: noBreakSpace),
        "fr": NumberFormat(decimalSeparator: ",", groupSeparator: narrowNoBreakSpace, percentSeparator: noBreakSpace),
        "es": NumberFormat(decimalSeparator: ",", groupSeparator: ".", groupingFrom: 5, percentSeparator: noBreakSpace),
        "ru": NumberFormat(decimalSeparator: ",", groupSeparator: noBreakSpace, percentSeparator: noBreakSpace),
    ]

    /// The language's format (by its primary subtag); English's for a language not in the table.
    public static func of(_ language: String) -> NumberFormat {
        let primary = language.split(separator: "-").first.map { $0.lowercased() } ?? ""
        return table[primary] ?? english
    }

    /// An integer with the language's digit grouping: 12,345 / 12.345 / 12 345.
    public func integer(_ value: Int) -> String {
        let digits = String(value.magnitude)
        let sign = value < 0 ? "-" : ""
        guard digits.count >= groupingFrom, !groupSeparator.isEmpty else { return sign + digits }
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out += groupSeparator }
            out.append(digit)
        }
        return sign + out
    }

    /// A decimal rounded to `fractionDigits` places (half away from zero), grouped like an integer.
    public func decimal(_ value: Double, fractionDigits: Int = 1) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-∞" : "∞") }
        let places = max(0, min(fractionDigits, 9))
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = (value.magnitude * Double(scale)).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e15 else { return String(value) }
        let whole = Int(scaled) / scale
        let fraction = Int(scaled) % scale
        let sign = value < 0 && scaled > 0 ? "-" : ""
        guard places > 0 else { return sign + integer(whole) }
        let padded = String(fraction)
        return sign + integer(whole) + decimalSeparator + String(repeating: "0", count: places - padded.count) + padded
    }

    /// A whole percentage: "100%", "100 %".
    public func percent(_ value: Int) -> String { integer(value) + percentSeparator + "%" }
}
