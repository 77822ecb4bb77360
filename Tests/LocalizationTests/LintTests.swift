import Files
import Testing

@testable import Localization

/// Two rules that keep sentences whole: a template must not join translatable pieces with punctuation of its own, and
/// an English sentence must not put a count before a noun outside the plural rules of a `.stringsdict`.
@Suite("Localization lint")
struct LintTests {
    /// Template rule. With HTML tags, comments and section tags taken out (what is left is the text a player reads,
    /// interpolations in place), it is broken by:
    /// - two interpolations, at least one a localized string (`{{t.…}}`), separated on one line only by spaces and
    ///   punctuation among `: ( ) · . , ;` (with at least one of those): `{{t.a}} · {{t.b}}`, `{{t.list}} ({{n}})`;
    /// - an interpolation followed at once by `:`, `%`, or a `.` that ends it (not `{{code}}.strings`): a colon,
    ///   percent sign or full stop glued on by the template, which a language may write otherwise ("Langue :",
    ///   "100 %", "。");
    /// - a middle dot anywhere in the text: facts set apart are a `dot-list`, whose dot each language draws (a
    ///   Japanese reader read the footer's and the archive's Latin "·" between Japanese words).
    static func gluedPieces(in source: String) -> [String] {
        var text = source.replacing(try! Regex(#"\{\{![\s\S]*?\}\}"#), with: "")
        text = text.replacing(try! Regex(#"<[^>]*>"#), with: "")
        text = text.replacing(try! Regex(#"\{\{[#/^>][^}]*\}\}"#), with: "")
        let tag = #"\{\{\{?([^}]*)\}?\}\}"#
        var found: [String] = []
        let punctuation = Set(":()·.,;")
        let tags = text.matches(of: try! Regex(tag)).map {
            (range: $0.range, name: String($0.output[1].substring ?? ""))
        }
        for (left, right) in zip(tags, tags.dropFirst()) {
            let gap = text[left.range.upperBound..<right.range.lowerBound]
            let (a, b) = (left.name.trimmed, right.name.trimmed)
            guard gap.allSatisfy({ ($0.isWhitespace && $0 != "\n") || punctuation.contains($0) }),
                gap.contains(where: punctuation.contains), a.hasPrefix("t.") || b.hasPrefix("t.")
            else { continue }
            found.append("{{\(a)}}\(gap){{\(b)}}")
        }
        for match in text.matches(of: try! Regex(tag + #"([:%]|\.(?!\w))"#)) {
            found.append(String(text[match.range]))
        }
        for match in text.matches(of: try! Regex(#".{0,24}·.{0,24}"#)) {
            found.append(String(text[match.range]))
        }
        return found
    }

    /// Strings rule, on the base language (English, where a noun after a count is easy to see): an integer
    /// placeholder followed by a space and a word is a count before a noun ("%d people", "%d left"), which other
    /// languages inflect by the count, so the key must be a `.stringsdict` plural. Not counts: a number after `#`
    /// ("Rule #%d"); and not nouns: "of", "to", "and", "or", "is", and the unit "s".
    static func countsBeforeWords(in table: [String: String]) -> [String] {
        let notNouns: Set<Substring> = ["of", "to", "and", "or", "is", "s"]
        // The character before is matched rather than looked behind at (Swift's Regex has no lookbehind).
        let count = try! Regex(#"(?:^|[^#%])(%(?:\d+\$)?l{0,2}[diu])[ \u{00A0}]([A-Za-z]+)"#)
        var found: [String] = []
        for (key, text) in table {
            for match in text.matches(of: count) {
                if let placeholder = match.output[1].substring, let word = match.output[2].substring,
                    !notNouns.contains(word)
                {
                    found.append("\(key): \(placeholder) \(word)")
                }
            }
        }
        return found.sorted()
    }

    static let templates = "Templates"

    @Test func noTemplateGluesLocalizedPieces() throws {
        let names = try #require(Files.list(Self.templates)).filter { $0.hasSuffix(".mustache") }.sorted()
        #expect(names.count > 20)
        for name in names {
            let source = String(decoding: try #require(Files.read(Self.templates + "/" + name)), as: UTF8.self)
            #expect(Self.gluedPieces(in: source).isEmpty, "\(name): \(Self.gluedPieces(in: source))")
        }
    }

    @Test func noEnglishCountBeforeANounOutsideThePlurals() throws {
        let localizer = try Localizer.load(directory: "Localizations")
        #expect(Self.countsBeforeWords(in: localizer.table("en")).isEmpty)
        #expect(localizer.pluralTable("en").count > 2)
    }

    /// French typography, as the strings are written (not patched at render): a narrow no-break space before `:` `;`
    /// `!` `?` and inside « », never a plain or a wide no-break space.
    static func frenchSpacing(in table: [String: String]) -> [String] {
        let wrong = try! Regex(#"[ \u{00A0}][:;!?]|«[ \u{00A0}]|[ \u{00A0}]»"#)
        return table.filter { $0.value.contains(wrong) }.map(\.key).sorted()
    }

    @Test func frenchIsSpacedAsFrenchIsPrinted() throws {
        let localizer = try Localizer.load(directory: "Localizations")
        #expect(Self.frenchSpacing(in: localizer.table("fr")).isEmpty)
        #expect(
            Self.frenchSpacing(in: ["a": "Indice : un bon essai", "b": "« Je ne sais pas »", "c": "Indice\u{202F}: x"])
                == ["a", "b"])
    }

    /// The rules bite: lines as the templates and strings had them before the language work, each caught.
    @Test func theRulesCatchWhatTheFilesHad() {
        let templates = [
            #"<span class="language-menu-label" aria-hidden="true">{{t.language.menu}}:</span>"#,
            "{{t.home.games.list}}{{#catalog.hasGames}} ({{catalog.count}}){{/catalog.hasGames}}</h2>",
            #"<p><strong>{{t.home.daily.title}}</strong> · <a href="/mastermind/daily">{{title}}</a></p>"#,
            #"<span class="visually-hidden">{{summary}}.</span>"#,
            "<dd>{{stats.winPercent}}%</dd>",
            "<span>{{t.mastermind.used mm.turn mm.attempts}}</span> · <span>{{t.mastermind.streak a b}}</span>",
            #"<li data-cheat="{{slug}}"><strong>{{name}}</strong>: {{hint}}</li>"#,
            "<p>{{t.footer.version siteVersion}} · {{#footerNav}}{{> nav-link}}{{/footerNav}}</p>",
            #"<li><a href="{{href}}">{{label}}</a> · {{status}}</li>"#,
        ]
        for line in templates { #expect(!Self.gluedPieces(in: line).isEmpty, "\(line)") }
        let fine = [
            #"<a href="/admin/strings/{{code}}.strings">{{code}}.strings</a>"#,
            "<p>{{t.home.daily.next}} <time>{{countdown}}</time></p>",
            "{{! a comment: {{t.x}}. }}<p>{{t.a}}</p>\n<p>{{t.b}}</p>",
            #"<p class="dot-list"><span>{{t.a}}</span> <span>{{t.b}}</span></p>"#,
        ]
        for line in fine { #expect(Self.gluedPieces(in: line).isEmpty, "\(line)") }
        let strings = [
            "home.review": "Heute zu wiederholen: %d",
            "namegame.smallpool": "Only %1$d people fit this mode, so this round shows %1$d.",
            "mastermind.row.summary": "%1$d in place, %2$d misplaced",
            "mastermind.row.left": "%d left",
            "cheats.count": "You have found %1$d of %2$d cheats.",
            "rule": "Rule #%d deleted.", "time": "Time left: %d s", "range": "Only digits %1$d to %2$d.",
        ]
        #expect(
            Self.countsBeforeWords(in: strings) == [
                "cheats.count: %2$d cheats", "mastermind.row.left: %d left", "mastermind.row.summary: %1$d in",
                "mastermind.row.summary: %2$d misplaced", "namegame.smallpool: %1$d people",
            ])
    }
}

extension String {
    fileprivate var trimmed: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
