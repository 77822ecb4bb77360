import PropertyList
import Synchronization
import Testing

@testable import Localization

@Suite("Localizer and negotiation")
struct LocalizerTests {
    static let stringsdict = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
          <key>games.count</key>
          <dict>
            <key>NSStringLocalizedFormatKey</key><string>%#@games@ to play</string>
            <key>games</key>
            <dict>
              <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
              <key>NSStringFormatValueTypeKey</key><string>d</string>
              <key>zero</key><string>No games</string>
              <key>one</key><string>%d game</string>
              <key>few</key><string>%d игры</string>
              <key>many</key><string>%d игр</string>
              <key>other</key><string>%d games</string>
            </dict>
          </dict>
        </dict></plist>
        """

    func localizer(log: @escaping @Sendable (String) -> Void = { _ in }) throws -> Localizer {
        let plurals = try PluralFormat.entries(from: PropertyListParser.parse(Array(Self.stringsdict.utf8)), file: "x")
        return Localizer(
            base: "en",
            strings: [
                "en": ["hello": "Hello, %@!", "only.en": "English only", "pos": "%2$@ %1$@"],
                "ru": ["hello": "Привет, %@!", "pos": "%1$@ %2$@"],
            ],
            plurals: ["en": plurals, "ru": plurals], log: log)
    }

    @Test func fallsBackToBaseThenKey() throws {
        let logged = LockedList()
        let l = try localizer { logged.append($0) }
        #expect(l.string("hello", language: "ru", ["Аня"]) == "Привет, Аня!")
        #expect(l.string("only.en", language: "ru") == "English only")
        #expect(l.string("nowhere", language: "ru") == "nowhere")
        #expect(l.string("nowhere", language: "en") == "nowhere")
        #expect(logged.items == ["missing localized string 'nowhere' in every language"], "logged once")
        #expect(l.string("pos", language: "en", ["a", "b"]) == "b a")
    }

    @Test func pluralsPickTheCLDRForm() throws {
        let l = try localizer()
        #expect(l.string("games.count", language: "en", [.int(0)]) == "No games to play")
        #expect(l.string("games.count", language: "en", [.int(1)]) == "1 game to play")
        #expect(l.string("games.count", language: "en", [.int(5)]) == "5 games to play")
        #expect(l.string("games.count", language: "ru", [.int(3)]) == "3 игры to play")
        #expect(l.string("games.count", language: "ru", [.int(11)]) == "11 игр to play")
        #expect(l.string("games.count", language: "ru", [.int(21)]) == "21 game to play")
    }

    @Test func hotfixesBeatTheFiles() throws {
        let l = try localizer()
        l.overlay.set("hello", language: StringOverlay.allLanguages, to: "Hi, %@")
        #expect(l.string("hello", language: "ru", ["x"]) == "Hi, x")
        l.overlay.set("hello", language: "ru", to: "Здравствуй, %@")
        #expect(l.string("hello", language: "ru", ["x"]) == "Здравствуй, x")
        #expect(l.string("hello", language: "en", ["x"]) == "Hi, x")
        l.overlay.set("hello", language: "ru", to: nil)
        l.overlay.set("hello", language: StringOverlay.allLanguages, to: nil)
        #expect(l.string("hello", language: "ru", ["x"]) == "Привет, x!")
    }

    @Test func pluralHotfixesReplaceOneFormAndKeepThePlural() throws {
        let l = try localizer()
        let one = PluralFormat.formKey("games.count", variable: "games", category: .one)
        #expect(one == "games.count#games.one")
        #expect(PluralFormat.splitFormKey(one)! == ("games.count", "games", .one))
        #expect(PluralFormat.splitFormKey("games.count#games.seven") == nil)
        #expect(PluralFormat.splitFormKey("games.count") == nil)
        #expect(l.pluralFormKeys == ["few", "many", "one", "other", "zero"].map { "games.count#games.\($0)" })
        #expect(l.shippedForm("games.count#games.few", language: "ru") == "%d игры")
        #expect(l.shippedForm("games.count#games.two", language: "en") == "%d games", "a missing category is `other`")
        #expect(l.shippedForm("nowhere#games.one", language: "en") == nil)

        l.overlay.set(one, language: "en", to: "a single %d game")
        #expect(l.string("games.count", language: "en", [.int(1)]) == "a single 1 game to play")
        #expect(l.string("games.count", language: "en", [.int(4)]) == "4 games to play", "other forms untouched")
        #expect(l.string("games.count", language: "ru", [.int(1)]) == "1 game to play", "other languages untouched")
        // A global `other` reaches Russian `few` only where Russian has no `few` of its own.
        l.overlay.set("games.count#games.other", language: StringOverlay.allLanguages, to: "%d matches")
        #expect(l.string("games.count", language: "en", [.int(4)]) == "4 matches to play")
        #expect(l.string("games.count", language: "ru", [.int(3)]) == "3 игры to play")
        #expect(l.string("games.count", language: "ja", [.int(3)]) == "3 matches to play")
        // A hotfixed `zero` wins for 0 even without a shipped one; the rest keep their CLDR forms.
        l.overlay.set("games.count#games.zero", language: "ru", to: "Ни одной игры")
        #expect(l.string("games.count", language: "ru", [.int(0)]) == "Ни одной игры to play")
        #expect(l.string("games.count", language: "ru", [.int(11)]) == "11 игр to play")
        l.overlay.set(one, language: "en", to: nil)
        #expect(l.string("games.count", language: "en", [.int(1)]) == "1 game to play")
    }

    @Test func aPluralHotfixPointsAtItsOwnArgument() throws {
        let dict = """
            <plist version="1.0"><dict><key>pair</key><dict>
              <key>NSStringLocalizedFormatKey</key><string>%@: %#@n@</string>
              <key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
                <key>one</key><string>%d point</string><key>other</key><string>%d points</string></dict>
            </dict></dict></plist>
            """
        let plurals = try PluralFormat.entries(from: PropertyListParser.parse(Array(dict.utf8)), file: "x")
        let l = Localizer(base: "en", strings: ["en": [:]], plurals: ["en": plurals])
        l.overlay.set("pair#n.other", language: "en", to: "%d pts")
        #expect(l.string("pair", language: "en", ["Ann", .int(7)]) == "Ann: 7 pts")
        #expect(l.string("pair", language: "en", ["Ann", .int(1)]) == "Ann: 1 point")
    }

    let negotiation = LanguageNegotiation(available: ["en", "es", "fr", "de", "ja", "ru"], fallback: "en")

    @Test(
        arguments: [
            (nil, "en"), ("", "en"), ("ru", "ru"), ("ru-RU,ru;q=0.9,en;q=0.8", "ru"),
            ("fr-CH, fr;q=0.9, en;q=0.8", "fr"),
            ("es-MX", "es"), ("es-419", "es"), ("es-AR;q=0.5, de;q=0.4", "es"), ("pt-BR, ja;q=0.5", "ja"),
            ("zh-TW, de;q=0.1", "de"), ("en;q=0, ru;q=0.1", "ru"), ("*;q=0.5, ja", "ja"), ("en;q=0, *", "es"),
            ("ru;q=0, *", "en"), ("de;q=0.5, fr;q=0.5", "de"), ("xx, yy", "en"), ("ja;q=bogus, fr", "fr"),
            ("JA-jp", "ja"), ("de-DE-1996", "de"),
        ] as [(String?, String)])
    func negotiates(_ header: String?, _ expected: String) {
        #expect(negotiation.negotiate(header) == expected, "\(header ?? "nil")")
    }

    @Test func lookupChainsFoldEquivalences() {
        #expect(LanguageNegotiation.lookupChain("zh-TW") == ["zh-tw", "zh-hant", "zh"])
        #expect(LanguageNegotiation.lookupChain("zh-CN") == ["zh-cn", "zh-hans", "zh"])
        #expect(LanguageNegotiation.lookupChain("es-MX") == ["es-mx", "es-419", "es"])
        #expect(LanguageNegotiation.lookupChain("pt-BR") == ["pt-br", "pt"])
        #expect(LanguageNegotiation(available: ["en", "zh-Hant"], fallback: "en").match("zh-HK") == "zh-Hant")
        #expect(LanguageNegotiation(available: ["en", "es-419", "es"], fallback: "en").match("es-CO") == "es-419")
    }
}

final class LockedList: @unchecked Sendable {
    private var storage: [String] = []
    private let lock = Mutex()
    var items: [String] { lock.run { storage } }
    func append(_ s: String) { lock.run { storage.append(s) } }
}

final class Mutex: @unchecked Sendable {
    private let inner = Synchronization.Mutex<Void>(())
    func run<T>(_ body: () -> T) -> T { inner.withLock { _ in body() } }
}
