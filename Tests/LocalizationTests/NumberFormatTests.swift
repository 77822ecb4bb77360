import PropertyList
import Testing

@testable import Localization

/// Numbers per language, as CLDR writes them (the table in `NumberFormat`): grouping, decimal comma, the space before
/// `%`; and the localized strings' `%d` and `%.1f` written through it.
@Suite("Number formats")
struct NumberFormatTests {
    static let nbsp = "\u{00A0}"
    static let nnbsp = "\u{202F}"

    @Test(arguments: [
        // language, 5, 999, 1234, 12345, 1234567, -1234
        ("en", ["5", "999", "1,234", "12,345", "1,234,567", "-1,234"]),
        ("ja", ["5", "999", "1,234", "12,345", "1,234,567", "-1,234"]),
        ("de", ["5", "999", "1.234", "12.345", "1.234.567", "-1.234"]),
        ("es", ["5", "999", "1234", "12.345", "1.234.567", "-1234"]),
        ("fr", ["5", "999", "1\(nnbsp)234", "12\(nnbsp)345", "1\(nnbsp)234\(nnbsp)567", "-1\(nnbsp)234"]),
        ("ru", ["5", "999", "1\(nbsp)234", "12\(nbsp)345", "1\(nbsp)234\(nbsp)567", "-1\(nbsp)234"]),
    ])
    func integersAreGrouped(_ language: String, _ expected: [String]) {
        let format = NumberFormat.of(language)
        #expect([5, 999, 1234, 12345, 1_234_567, -1234].map(format.integer) == expected)
    }

    @Test(arguments: [
        ("en", "2.3", "0.0", "1,234.5", "100%"), ("ja", "2.3", "0.0", "1,234.5", "100%"),
        ("de", "2,3", "0,0", "1.234,5", "100\(nbsp)%"), ("es", "2,3", "0,0", "1234,5", "100\(nbsp)%"),
        ("fr", "2,3", "0,0", "1\(nnbsp)234,5", "100\(nbsp)%"), ("ru", "2,3", "0,0", "1\(nbsp)234,5", "100\(nbsp)%"),
    ])
    func decimalsAndPercents(_ language: String, _ small: String, _ zero: String, _ large: String, _ percent: String) {
        let format = NumberFormat.of(language)
        #expect(format.decimal(2.34) == small)
        #expect(format.decimal(0.04) == zero)
        #expect(format.decimal(1234.49) == large)
        #expect(format.percent(100) == percent)
    }

    @Test func regionsAndUnknownLanguages() {
        #expect(NumberFormat.of("fr-CA") == NumberFormat.of("fr"))
        #expect(NumberFormat.of("es-419").decimalSeparator == ",")
        #expect(NumberFormat.of("xx") == NumberFormat.english)
        #expect(NumberFormat.of("en-XA") == NumberFormat.english)
    }

    @Test func decimalsRound() {
        let en = NumberFormat.english
        #expect(en.decimal(2.25, fractionDigits: 1) == "2.3")
        #expect(en.decimal(-0.04) == "0.0")
        #expect(en.decimal(-2.35) == "-2.4")
        #expect(en.decimal(9.96) == "10.0")
        #expect(en.decimal(7, fractionDigits: 0) == "7")
        #expect(en.decimal(1.5, fractionDigits: 2) == "1.50")
    }

    /// printf's output stays printf's without a language (as Foundation's `String(format:)`); with one, the digits
    /// are the language's.
    @Test func stringFormatWritesTheLanguagesNumbers() {
        #expect(StringFormat.format("%d and %.1f", [.int(12345), .double(2.25)]) == "12345 and 2.2")
        let de = NumberFormat.of("de")
        #expect(StringFormat.format("%d und %.1f s", [.int(12345), .double(2.34)], numbers: de) == "12.345 und 2,3 s")
        #expect(StringFormat.format("%2$.2f|%1$d", [.int(7), .double(-0.5)], numbers: de) == "-0,50|7")
        // Widths and flags are printf's business: left as they were.
        #expect(StringFormat.format("%05d|%8.1f", [.int(42), .double(1234.5)], numbers: de) == "00042|  1234.5")
    }

    @Test func localizedStringsUseTheirLanguagesNumbers() throws {
        let localizer = Localizer(
            base: "en",
            strings: [
                "en": ["n": "%d people, %.1f s"], "fr": ["n": "%d personnes, %.1f s"], "ru": ["n": "%d, %.1f с"],
            ])
        #expect(localizer.string("n", language: "en", [.int(1500), .double(2.34)]) == "1,500 people, 2.3 s")
        #expect(
            localizer.string("n", language: "fr", [.int(1500), .double(2.34)]) == "1\(Self.nnbsp)500 personnes, 2,3 s")
        #expect(localizer.string("n", language: "ru", [.int(1500), .double(2.34)]) == "1\(Self.nbsp)500, 2,3 с")
        // A language without its own text still writes its own digits.
        #expect(localizer.strings(for: "de").bound("n")([.int(1500), .double(0.25)]) == "1.500 people, 0,2 s")
    }

    /// Sentences said one after another: a part without its own mark gets the language's stop (a Russian reader
    /// heard "Вы сдались Код был такой"); Japanese joins them with no space.
    @Test func sentencesEndBeforeTheNext() {
        let localizer = Localizer(base: "en", strings: ["en": [:], "ru": [:], "ja": [:]])
        #expect(localizer.strings(for: "ru").sentences("Вы сдались", "", "Код: 1, 2.") == "Вы сдались. Код: 1, 2.")
        #expect(
            localizer.strings(for: "en").sentences("Out of guesses!", "«Cracked»", "Next:", "x")
                == "Out of guesses! «Cracked». Next: x")
        #expect(localizer.strings(for: "ja").sentences("降参しました", "コードは1234です。") == "降参しました。コードは1234です。")
        #expect(localizer.strings(for: "ja").sentences("解読しました！", "8回です。") == "解読しました！\u{3000}8回です。")
    }
}
