import HTTP
import Localization
import Storage
import Templates

/// The hotfix editor: every localizable key with its base value and its
/// overrides; set or remove one, globally or for a language. A string
/// hotfix must keep the base string's placeholders (type and position).
/// Each change is recorded in the key's history (with one-click revert)
/// and in the audit log.
struct AdminHotfixes: Sendable {
    let hotfixes: StringHotfixes
    let localizer: Localizer
    let admins: AdminStore
    let pool: DatabasePool

    enum Refusal: Error, Equatable {
        case unknownKey, unknownLanguage, placeholders(expected: String, got: String), tooLong
    }

    /// Sets (or with nil removes) a hotfix after checking it.
    func set(_ key: String, language: String, to value: String?, by admin: String) throws -> Result<Void, Refusal> {
        guard let base = localizer.table(localizer.base)[key] else { return .failure(.unknownKey) }
        guard language == StringOverlay.allLanguages || localizer.languages.contains(language) else { return .failure(.unknownLanguage) }
        if let value {
            guard value.utf8.count <= 4000 else { return .failure(.tooLong) }
            let expected = StringFormat.placeholders(in: base), got = StringFormat.placeholders(in: value)
            guard expected == got else {
                return .failure(.placeholders(expected: expected.map(\.description).joined(separator: " "),
                                              got: got.map(\.description).joined(separator: " ")))
            }
        }
        let before = localizer.overlay.values(for: language)[key]
        guard before != value else { return .success(()) }
        let db = try pool.connection()
        try db.transaction {
            try hotfixes.set(key, language: language, to: value)
            try db.execute("INSERT INTO hotfix_history (key, language, before, after, admin, at) VALUES (?, ?, ?, ?, ?, ?)",
                           [.text(key), .text(language), SQLValue(before), SQLValue(value), .text(admin), SQLValue(AdminStore.now())])
            try admins.audit(admin, action: value == nil ? "remove hotfix" : "set hotfix", target: "\(key) [\(language)]",
                             before: before, after: value)
        }
        return .success(())
    }

    struct Change: Sendable {
        let id: Int, key: String, language: String, before: String?, after: String?, admin: String, at: Int
    }

    func history(_ key: String) throws -> [Change] {
        try pool.connection().query("SELECT * FROM hotfix_history WHERE key = ? ORDER BY id DESC", [.text(key)]).map(change)
    }

    /// Puts a key back as it was before a change.
    func revert(_ id: Int, by admin: String) throws -> Result<Void, Refusal>? {
        guard let row = try pool.connection().first("SELECT * FROM hotfix_history WHERE id = ?", [SQLValue(id)]) else { return nil }
        let change = change(row)
        return try set(change.key, language: change.language, to: change.before, by: admin)
    }

    private func change(_ row: Row) -> Change {
        Change(id: row.int("id") ?? 0, key: row.string("key") ?? "", language: row.string("language") ?? "",
               before: row.string("before"), after: row.string("after"), admin: row.string("admin") ?? "", at: row.int("at") ?? 0)
    }
}
