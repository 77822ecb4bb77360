import PropertyList
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Live overrides ("hotfixes") of strings: per language, or for every
/// language under `StringOverlay.allLanguages`. Shared by every worker, so a
/// change shows on the next request anywhere.
public final class StringOverlay: Sendable {
    public static let allLanguages = "*"
    private let values = Mutex<[String: [String: String]]>([:])

    public init() {}

    public func value(_ key: String, language: String) -> String? {
        values.withLock { $0[language]?[key] ?? $0[Self.allLanguages]?[key] }
    }

    public func set(_ key: String, language: String, to value: String?) {
        values.withLock { $0[language, default: [:]][key] = value }
    }

    public func replaceAll(_ all: [String: [String: String]]) { values.withLock { $0 = all } }
}

/// Every language's strings and plurals, with the fallbacks: a hotfix, then
/// the language, then the base language, then the key itself (logged once).
public final class Localizer: Sendable {
    public let base: String
    /// The shipped languages, base first.
    public let languages: [String]
    public let overlay: StringOverlay
    private let strings: [String: [String: String]]
    private let plurals: [String: [String: PluralFormat]]
    private let reported = Mutex<Set<String>>([])
    private let log: @Sendable (String) -> Void

    public init(base: String, strings: [String: [String: String]], plurals: [String: [String: PluralFormat]] = [:],
                overlay: StringOverlay = StringOverlay(), log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.base = base
        self.strings = strings
        self.plurals = plurals
        self.overlay = overlay
        self.log = log
        languages = [base] + Set(strings.keys).union(plurals.keys).subtracting([base]).sorted()
    }

    /// Reads `<dir>/<lang>.lproj/Localizable.strings` and `.stringsdict`.
    public static func load(directory: String, base: String = "en", overlay: StringOverlay = StringOverlay(),
                            log: @escaping @Sendable (String) -> Void = { _ in }) throws -> Localizer {
        var strings: [String: [String: String]] = [:]
        var plurals: [String: [String: PluralFormat]] = [:]
        for entry in try listDirectory(directory) where entry.hasSuffix(".lproj") {
            let language = String(entry.dropLast(6))
            let folder = directory + "/" + entry
            if let bytes = readFile(folder + "/Localizable.strings") {
                strings[language] = try StringsFile(bytes: bytes, file: folder + "/Localizable.strings").table
            }
            if let bytes = readFile(folder + "/Localizable.stringsdict") {
                let plist = try PropertyListParser.parse(bytes, file: folder + "/Localizable.stringsdict")
                plurals[language] = try PluralFormat.entries(from: plist, file: folder + "/Localizable.stringsdict")
            }
        }
        guard strings[base] != nil else { throw LocalizationError("\(directory): no \(base).lproj/Localizable.strings for the base language") }
        return Localizer(base: base, strings: strings, plurals: plurals, overlay: overlay, log: log)
    }

    /// Every key of the base language, strings and plurals.
    public var baseKeys: [String] { Set(strings[base, default: [:]].keys).union(plurals[base, default: [:]].keys).sorted() }

    public func table(_ language: String) -> [String: String] { strings[language] ?? [:] }
    public func pluralTable(_ language: String) -> [String: PluralFormat] { plurals[language] ?? [:] }

    /// The unformatted text for a key: hotfix, language, base, or nil.
    public func rawString(_ key: String, language: String) -> String? {
        if let hotfix = overlay.value(key, language: language) { return hotfix }
        return strings[language]?[key] ?? strings[base]?[key]
    }

    /// The localized, formatted string; a key missing everywhere shows itself.
    public func string(_ key: String, language: String, _ arguments: [FormatArgument] = []) -> String {
        if let hotfix = overlay.value(key, language: language) { return StringFormat.format(hotfix, arguments) }
        for candidate in language == base ? [base] : [language, base] {
            if let plural = plurals[candidate]?[key] {
                return StringFormat.format(plural.resolve(language: candidate, arguments: arguments), arguments)
            }
            if let text = strings[candidate]?[key] {
                return arguments.isEmpty ? text : StringFormat.format(text, arguments)
            }
        }
        let first = reported.withLock { $0.insert(key).inserted }
        if first { log("missing localized string '\(key)' in every language") }
        return key
    }

    static func listDirectory(_ path: String) throws -> [String] {
        guard let dir = opendir(path) else { throw LocalizationError("\(path): cannot read the directory") }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    public static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return bytes
    }
}
