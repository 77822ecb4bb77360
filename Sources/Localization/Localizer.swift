import Files
import PropertyList
import Synchronization

/// Live overrides ("hotfixes") of strings: per language, or for every
/// language under `StringOverlay.allLanguages`. Shared by every worker, so a
/// change shows on the next request anywhere.
public final class StringOverlay: Sendable {
    public static let allLanguages = "*"
    private let values = Mutex<[String: [String: String]]>([:])
    /// How many overrides exist: with none, lookups skip the lock.
    private let count = Atomic<Int>(0)
    private let changes = Atomic<Int>(0)

    public init() {}

    /// Grows with every change, so caches of rendered text can tell they are stale.
    public var version: Int { changes.load(ordering: .acquiring) }

    public var isEmpty: Bool { count.load(ordering: .acquiring) == 0 }

    public func value(_ key: String, language: String) -> String? {
        guard count.load(ordering: .acquiring) > 0 else { return nil }
        return values.withLock { $0[language]?[key] ?? $0[Self.allLanguages]?[key] }
    }

    public func set(_ key: String, language: String, to value: String?) {
        values.withLock {
            $0[language, default: [:]][key] = value
            count.store($0.values.reduce(0) { $0 + $1.count }, ordering: .releasing)
            changes.add(1, ordering: .releasing)
        }
    }

    /// The overrides for one language (or `allLanguages`).
    public func values(for language: String) -> [String: String] { values.withLock { $0[language] ?? [:] } }

    /// Replaces every override with what was read, unless the overlay changed after `version` (taken before the
    /// reading began): a write shown since may be newer than what was read, so it returns false to read again.
    public func replaceAll(_ all: [String: [String: String]], readAt version: Int) -> Bool {
        values.withLock {
            guard changes.load(ordering: .acquiring) == version else { return false }
            $0 = all
            count.store(all.values.reduce(0) { $0 + $1.count }, ordering: .releasing)
            changes.add(1, ordering: .releasing)
            return true
        }
    }
}

/// Every language's strings and plurals, with the fallbacks: a hotfix, then
/// the language, then the base language, then the key itself (logged once).
public final class Localizer: Sendable {
    public let base: String
    /// The shipped languages, base first.
    public let languages: [String]
    public let overlay: StringOverlay
    /// Every key any language ships, numbered once: each language's tables are arrays in this order, so the keys'
    /// hash table is held once, not once per table (seven tables of 982 keys each held 0.9 MB).
    private let index: [String: Int]
    /// Per language, the strings it ships itself (nil where it falls back): what the editor and an export show.
    private let own: [String: [String?]]
    private let plurals: [String: [String: PluralFormat]]
    /// Per language, every key resolved once: the language's own entry, or the base language's. A page lookup is
    /// then one hash lookup and an index.
    private let resolved: [String: [Entry?]]

    enum Entry: Sendable {
        case text(String)
        // Boxed: the few plurals do not widen every text's slot.
        indirect case plural(PluralFormat, language: String)
    }
    /// The base language's comments for translators, and its keys in the file's order: what an export repeats.
    public let comments: [String: String]
    public let order: [String]
    private let reported = Mutex<Set<String>>([])
    private let log: @Sendable (String) -> Void

    public init(
        base: String, strings: [String: [String: String]], plurals: [String: [String: PluralFormat]] = [:],
        overlay: StringOverlay = StringOverlay(), comments: [String: String] = [:], order: [String] = [],
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.base = base
        self.comments = comments
        self.order = order.isEmpty ? (strings[base] ?? [:]).keys.sorted() : order
        self.plurals = plurals
        self.overlay = overlay
        self.log = log
        languages = [base] + Set(strings.keys).union(plurals.keys).subtracting([base]).sorted()
        var index: [String: Int] = [:]
        for table in strings.values { for key in table.keys where index[key] == nil { index[key] = index.count } }
        for table in plurals.values { for key in table.keys where index[key] == nil { index[key] = index.count } }
        self.index = index
        own = strings.mapValues { table in
            var row = [String?](repeating: nil, count: index.count)
            for (key, text) in table { row[index[key]!] = text }
            return row
        }
        var resolved: [String: [Entry?]] = [:]
        for language in languages {
            var row = [Entry?](repeating: nil, count: index.count)
            for candidate in language == base ? [base] : [base, language] {  // the language overwrites the base
                for (key, text) in strings[candidate] ?? [:] { row[index[key]!] = .text(text) }
                for (key, plural) in plurals[candidate] ?? [:] {
                    row[index[key]!] = .plural(plural, language: candidate)
                }
            }
            resolved[language] = row
        }
        // The pseudo-locale: the base language's text transformed, its plurals' forms too.
        resolved[PseudoLocale.tag] = (resolved[base] ?? []).map { entry in
            switch entry {
            case .text(let text)?: .text(PseudoLocale.transform(text))
            case .plural(let plural, let language)?:
                .plural(
                    PluralFormat(
                        format: plural.format,
                        variables: plural.variables.mapValues { variable in
                            .init(
                                valueType: variable.valueType, forms: variable.forms.mapValues(PseudoLocale.transform))
                        }), language: language)
            case nil: nil
            }
        }
        self.resolved = resolved
    }

    /// A key's entry in one language's resolved row.
    func entry(_ key: String, in row: [Entry?]) -> Entry? {
        guard let i = index[key], i < row.count else { return nil }
        return row[i]
    }

    /// Reads `<dir>/<lang>.lproj/Localizable.strings` and `.stringsdict`.
    public static func load(
        directory: String, base: String = "en", overlay: StringOverlay = StringOverlay(),
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws -> Localizer {
        var strings: [String: [String: String]] = [:]
        var plurals: [String: [String: PluralFormat]] = [:]
        var comments: [String: String] = [:]
        var order: [String] = []
        guard let entries = Files.list(directory) else {
            throw LocalizationError("\(directory): cannot read the directory")
        }
        for entry in entries where entry.hasSuffix(".lproj") {
            let language = String(entry.dropLast(6))
            let folder = directory + "/" + entry
            if let bytes = Files.read(folder + "/Localizable.strings") {
                let file = try StringsFile(bytes: bytes, file: folder + "/Localizable.strings")
                strings[language] = file.table
                if language == base { (comments, order) = (file.comments, file.keys) }
            }
            if let bytes = Files.read(folder + "/Localizable.stringsdict") {
                let plist = try PropertyListParser.parse(bytes, file: folder + "/Localizable.stringsdict")
                plurals[language] = try PluralFormat.entries(from: plist, file: folder + "/Localizable.stringsdict")
            }
        }
        guard strings[base] != nil else {
            throw LocalizationError("\(directory): no \(base).lproj/Localizable.strings for the base language")
        }
        return Localizer(
            base: base, strings: strings, plurals: plurals, overlay: overlay, comments: comments, order: order,
            log: log)
    }

    /// Every key of the base language, strings and plurals.
    public var baseKeys: [String] {
        Set(table(base).keys).union(plurals[base, default: [:]].keys).sorted()
    }

    /// The string a language ships itself for `key`, without a fallback or a hotfix.
    public func ownString(_ key: String, language: String) -> String? {
        index[key].flatMap { own[language]?[$0] }
    }

    /// The strings a language ships itself (the editor's and an export's, not a page's: built on each call).
    public func table(_ language: String) -> [String: String] {
        guard let row = own[language] else { return [:] }
        var table: [String: String] = [:]
        for (key, i) in index { if let text = row[i] { table[key] = text } }
        return table
    }

    /// The hotfix key of every plural form any language ships, per base
    /// plural key: `home.games.count#games.one`, `…#games.few`, ….
    public var pluralFormKeys: [String] {
        var keys: Set<String> = []
        for (key, plural) in plurals[base] ?? [:] {
            for variable in plural.variables.keys {
                for language in languages {
                    for category in (plurals[language]?[key]?.variables[variable]?.forms ?? [:]).keys {
                        keys.insert(PluralFormat.formKey(key, variable: variable, category: category))
                    }
                }
            }
        }
        return keys.sorted()
    }

    /// The shipped text of a plural form in a language (its own category,
    /// else its `other`; the base language's when it has no such plural).
    public func shippedForm(_ formKey: String, language: String) -> String? {
        guard let (key, variable, category) = PluralFormat.splitFormKey(formKey), plurals[base]?[key] != nil else {
            return nil
        }
        return plurals[language]?[key]?.form(variable, category) ?? plurals[base]?[key]?.form(variable, category)
    }
    public func pluralTable(_ language: String) -> [String: PluralFormat] { plurals[language] ?? [:] }

    /// The unformatted text for a key: hotfix, language, base, or nil.
    public func rawString(_ key: String, language: String) -> String? {
        if let hotfix = overlay.value(key, language: language) { return hotfix }
        guard let i = index[key] else { return nil }
        return own[language]?[i] ?? own[base]?[i]
    }

    /// The localized, formatted string; a key missing everywhere shows itself.
    public func string(_ key: String, language: String, _ arguments: [FormatArgument] = []) -> String {
        strings(for: language).string(key, arguments)
    }

    /// One language's strings, for many lookups (a page's worth).
    public func strings(for language: String) -> LanguageStrings {
        LanguageStrings(
            localizer: self, language: language, table: resolved[language] ?? resolved[base] ?? [],
            numbers: NumberFormat.of(language))
    }

    func string(
        _ key: String, language: String, table: [Entry?], numbers: NumberFormat, _ arguments: [FormatArgument]
    ) -> String {
        if let hotfix = overlay.value(key, language: language) {
            return StringFormat.format(hotfix, arguments, numbers: numbers)
        }
        switch entry(key, in: table) {
        case .text(let text):
            // A literal percent is written %% in every string; without arguments it is still one (an admin saw "%%").
            return arguments.isEmpty && !text.contains("%%")
                ? text : StringFormat.format(text, arguments, numbers: numbers)
        case .plural(let plural, let table):
            let override: ((String, PluralCategory) -> String?)? =
                overlay.isEmpty
                ? nil
                : { variable, category in
                    self.overlay.value(
                        PluralFormat.formKey(key, variable: variable, category: category), language: language)
                }
            return StringFormat.format(
                plural.resolve(language: table, arguments: arguments, override: override), arguments, numbers: numbers)
        case nil:
            let first = reported.withLock { $0.insert(key).inserted }
            if first { log("missing localized string '\(key)' in every language") }
            return key
        }
    }
}

/// A language's resolved table, looked up without re-hashing the language.
public struct LanguageStrings: Sendable {
    let localizer: Localizer
    public let language: String
    let table: [Localizer.Entry?]
    /// How the language writes numbers: every `%d` and `%.Nf` of its strings, and bare figures on its pages.
    public let numbers: NumberFormat

    public func string(_ key: String, _ arguments: [FormatArgument] = []) -> String {
        localizer.string(key, language: language, table: table, numbers: numbers, arguments)
    }

    /// Whole sentences one after another, as the language writes them: Japanese with nothing between, others with a
    /// space. An empty part (a sentence said only sometimes) is left out.
    /// A part that ends without a sentence's mark gets the language's full stop before the next (a Russian title
    /// written without one, "Вы сдались", ran into the code that followed it when read out). Japanese sets a
    /// full-width space after ！ and ？ within a text, none after 。 (a Japanese reader).
    public func sentences(_ parts: String...) -> String { sentences(parts) }

    public func sentences(_ parts: [String]) -> String {
        let kept = parts.filter { !$0.isEmpty }
        let stop = language == "ja" ? "。" : "."
        return kept.indices.map { index in
            let part = kept[index]
            guard index < kept.count - 1 else { return part }
            if !Self.endsSentence(part) { return part + stop + sentenceGap }
            return part + (language == "ja" && (part.hasSuffix("！") || part.hasSuffix("？")) ? "\u{3000}" : sentenceGap)
        }.joined()
    }

    /// Whether the text ends with a sentence's mark, closing quotes and brackets aside.
    static func endsSentence(_ text: String) -> Bool {
        let closing = "»”’\")）」』".unicodeScalars
        guard let last = text.unicodeScalars.last(where: { !closing.contains($0) && $0 != " " }) else { return true }
        return ".!?…:。！？：".unicodeScalars.contains(last)
    }

    /// What separates two sentences: a space, but none in Japanese.
    public var sentenceGap: String { language == "ja" ? "" : " " }

    /// Whether the key has a string in this language (or the base it falls back to).
    public func has(_ key: String) -> Bool { localizer.entry(key, in: table) != nil }

    /// The string for `key` as it is now, looked up once; only the formatting is left for each call. A hotfix made
    /// later is not seen: bind again when `StringOverlay.version` changes.
    public func bound(_ key: String) -> @Sendable ([FormatArgument]) -> String {
        let numbers = self.numbers
        if let hotfix = localizer.overlay.value(key, language: language) {
            return { StringFormat.format(hotfix, $0, numbers: numbers) }
        }
        if case .text(let text)? = localizer.entry(key, in: table) {
            let literal = !text.contains("%%")
            return { $0.isEmpty && literal ? text : StringFormat.format(text, $0, numbers: numbers) }
        }
        return { [self] in string(key, $0) }  // a plural is chosen by its count; a missing key is reported once
    }
}
