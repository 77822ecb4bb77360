import Foundation  // only as an oracle for the shipped files
import Testing

@testable import Localization

@Suite("Shipped localizations")
struct CompletenessTests {
    static let required = ["en", "es", "fr", "de", "ja", "ru"]

    func load() throws -> Localizer { try Localizer.load(directory: "Localizations") }

    /// A literal percent is written `%%`; shown without arguments it is still one (three readers saw "Solved (%%)").
    @Test(arguments: CompletenessTests.required)
    func aLiteralPercentShowsOnce(_ language: String) throws {
        let localizer = try load()
        for key in ["insights.series.solved", "insights.traffic.desc"] {
            let text = localizer.strings(for: language).string(key)
            #expect(text.contains("%") && !text.contains("%%"), "\(language) \(key): \(text)")
            #expect(localizer.strings(for: language).bound(key)([]) == text)
        }
    }

    @Test func everyRequiredLanguageShips() throws {
        #expect(Set(try load().languages).isSuperset(of: Self.required))
    }

    @Test(arguments: CompletenessTests.required)
    func languageHasEveryKeyWithTheSamePlaceholders(_ language: String) throws {
        let l = try load()
        let base = l.table("en")
        let table = l.table(language)
        for key in base.keys.sorted() {
            guard let text = table[key] else {
                Issue.record("\(language) lacks '\(key)'")
                continue
            }
            #expect(
                StringFormat.placeholders(in: text) == StringFormat.placeholders(in: base[key]!),
                "\(language) '\(key)': \(text) vs \(base[key]!)")
        }
        for key in table.keys where base[key] == nil { Issue.record("\(language) has '\(key)', which the base lacks") }
    }

    @Test(arguments: CompletenessTests.required)
    func pluralsCoverEveryCategoryTheLanguageUses(_ language: String) throws {
        let l = try load()
        let base = l.pluralTable("en")
        let table = l.pluralTable(language)
        for (key, basePlural) in base {
            guard let plural = table[key] else {
                Issue.record("\(language) lacks plural '\(key)'")
                continue
            }
            #expect(Set(plural.variables.keys) == Set(basePlural.variables.keys), "\(language) '\(key)' variables")
            for (name, variable) in plural.variables {
                #expect(variable.valueType == basePlural.variables[name]?.valueType)
                let needed = Set((0...1000).map { PluralRules.category(for: Double($0), language: language) })
                for category in needed where category != .other {
                    #expect(
                        variable.forms[category] != nil, "\(language) '\(key).\(name)' lacks the '\(category)' form")
                }
                for (category, form) in variable.forms {
                    let kinds = StringFormat.placeholders(in: form).map(\.kind)
                    #expect(kinds.allSatisfy { $0 == .integer }, "\(language) '\(key).\(name).\(category)': \(form)")
                }
            }
        }
    }

    /// Words that point at a control name it as it is labelled (all six named the Game menu's switch by an older
    /// label, and a review could not parse the English one).
    @Test(arguments: CompletenessTests.required)
    func helpNamesTheSwitchAsItIsLabelled(_ language: String) throws {
        let strings = try load().strings(for: language)
        let label = strings.string("mastermind.left.switch")
        #expect(strings.string("mastermind.examples.keys").contains(label), "\(language): \(label)")
    }

    @Test(arguments: CompletenessTests.required)
    func applesParserReadsTheSameTable(_ language: String) throws {
        let path = "Localizations/\(language).lproj/Localizable.strings"
        let data = try #require(FileManager.default.contents(atPath: path))
        let apple = try #require(
            try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: String])
        #expect(try StringsFile(bytes: Array(data), file: path).table == apple)
    }
}

@Suite("Plurals in every language")
struct PluralRenderingTests {
    static let counts = [0, 1, 2, 5, 21, 101, 1_234]

    /// Every plural key at every count a page may show, in every language: a whole sentence (no placeholder or
    /// variable left), the count written as the language writes it. Printed, to be read.
    @Test(arguments: CompletenessTests.required)
    func everyPluralRendersEveryCount(_ language: String) throws {
        let localizer = try Localizer.load(directory: "Localizations")
        let strings = localizer.strings(for: language)
        for key in localizer.pluralTable("en").keys.sorted() {
            var line = "\(language) \(key):"
            for n in Self.counts {
                let text = strings.string(key, [.int(n), .int(n), .int(n), .int(n)])
                let whole = !text.contains("%") && !text.contains("#@") && !text.isEmpty
                #expect(whole, "\(language) \(key) \(n): \(text)")
                if n > 0 {
                    #expect(text.contains(NumberFormat.of(language).integer(n)), "\(language) \(key) \(n): \(text)")
                }
                line += " [\(n)] \(text)"
            }
            print(line)
        }
    }
}
