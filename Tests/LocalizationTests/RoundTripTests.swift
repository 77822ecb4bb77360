import Localization
import PropertyList
import Testing

/// What an export writes, our parsers read back as it was; the pseudo-locale keeps every placeholder.
@Suite("Strings round trip and pseudo-locale")
struct RoundTripTests {
    @Test func commentsBelongToTheKeyBelowThem() throws {
        let text = """
            /* The file's header, set apart by a blank line. */

            "a" = "1";
            /* For a. No: for b. */
            "b" = "2";
            // A line comment for c.
            "c" = "3";
            "d" = "4";
            /* Not c's: a blank line follows. */

            "e" = "5";
            """
        let file = try StringsFile(bytes: Array(text.utf8))
        #expect(file.comments == ["b": "For a. No: for b.", "c": "A line comment for c."])
    }

    @Test func anEncodedFileReadsBackTheSame() throws {
        let entries: [(key: String, value: String, comment: String?)] = [
            ("quote", "She said \"hi\" \\ then left", "Has */ in it"),
            ("lines", "one\ntwo\tthree\r", nil),
            ("control", "bell\u{7} and null-ish \u{1}", "A control character"),
            ("unicode", "名前 · Ёлка · 🎮", nil),
            ("key with spaces = and ;", "", nil),
        ]
        let file = try StringsFile(bytes: Array(StringsFile.encode(header: "A header */ of sorts", entries).utf8))
        #expect(file.keys == entries.map(\.key))
        for entry in entries { #expect(file.table[entry.key] == entry.value) }
        #expect(file.comments["quote"] == "Has * / in it")
        #expect(file.comments["lines"] == nil, "the header belongs to no key")
    }

    @Test func aWrittenPropertyListParsesBackTheSame() throws {
        let value = PropertyListValue.dictionary([
            ("text", .string("a < b & c > d\r\n")), ("number", .integer(-3)), ("flag", .bool(true)),
            ("list", .array([.string("x"), .real(1.5), .dictionary([])])),
        ])
        #expect(try PropertyListParser.parse(Array(PropertyListWriter.xml(value).utf8)) == value)
    }

    @Test(arguments: [
        "Pick a game", "%@ (current)", "%1$@ beat %2$@ in %3$d tries", "%#@games@", "100% sure", "%.1f%% done",
        "%ld left",
    ])
    func thePseudoLocaleKeepsPlaceholdersAndGrows(_ text: String) {
        let pseudo = PseudoLocale.transform(text)
        #expect(StringFormat.placeholders(in: pseudo) == StringFormat.placeholders(in: text), "\(pseudo)")
        #expect(pseudo.hasPrefix("[") && pseudo.hasSuffix("]"))
        let words = text.contains("%#@") ? "" : text  // a variable's name is not text
        let letters = words.unicodeScalars.filter { $0.properties.isAlphabetic }.count
        #expect(pseudo.unicodeScalars.filter { $0.properties.isAlphabetic }.count >= letters + letters * 3 / 10)
        if text == "%#@games@" { #expect(pseudo.contains("%#@games@")) }
    }

    @Test func thePseudoLocaleIsNotAShippedLanguage() throws {
        let localizer = Localizer(base: "en", strings: ["en": ["hello": "Hello, %@"], "de": ["hello": "Hallo, %@"]])
        #expect(!localizer.languages.contains(PseudoLocale.tag))
        let text = localizer.string("hello", language: PseudoLocale.tag, [.string("Ana")])
        #expect(text.hasPrefix("[Ĥéļļö, Ana") && text.hasSuffix("]"))
    }
}
