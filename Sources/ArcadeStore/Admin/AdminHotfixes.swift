import Constants
import Localization
import Logger
import PropertyList
import Storage

/// The hotfix editor: every localizable key with its base value and its
/// overrides; set or remove one, globally or for a language. A string
/// hotfix must keep the base string's placeholders (type and position).
/// Each change is recorded in the key's history (with one-click revert)
/// and in the audit log. Plurals are hotfixed one form at a time, under
/// keys like `home.games.count#games.one`.
package struct AdminHotfixes: Sendable {
    package let hotfixes: StringHotfixes
    package let localizer: Localizer
    package let admins: AdminStore
    package let pool: DatabasePool
    package let constants: Constants

    /// The widest field width or precision a string hotfix may ask for.
    package static let widestField = 64

    /// History rows for constants use this in place of a language.
    package static let constantMarker = "#constant"

    package enum Refusal: Error, Equatable {
        case unknownKey, unknownLanguage, placeholders(expected: String, got: String), tooLong
        case wrongType(String), notEditable, outOfRange(String), wideField
    }

    /// Parses text as a value of the constant's type.
    package static func parse(_ text: String, like base: PropertyListValue) -> PropertyListValue? {
        switch base {
        case .string: .string(text)
        case .integer: Int(text.filter { !$0.isWhitespace }).map { .integer($0) }
        case .real: Double(text.filter { !$0.isWhitespace }).flatMap { $0.isFinite ? .real($0) : nil }
        case .bool:
            ["true": true, "false": false, "yes": true, "no": false, "1": true, "0": false][text.lowercased()].map {
                .bool($0)
            }
        default: nil
        }
    }

    package static func text(_ value: PropertyListValue) -> String {
        switch value {
        case .string(let s): s
        case .integer(let i): String(i)
        case .real(let d): String(d)
        case .bool(let b): b ? "true" : "false"
        default: ""
        }
    }

    /// Reads every constant hotfix again, at start-up and when another instance changed one (those removed there go
    /// here too); a save of this instance's during the reading makes it read again (see `StringHotfixes.load`).
    package func loadConstants() throws {
        var replaced = false
        while !replaced {
            let version = constants.version
            var kept: [String: PropertyListValue] = [:]
            for row in try pool.connection().query("SELECT key, value FROM constant_hotfixes ORDER BY key") {
                let key: String = try row.decode(ConstantHotfixes.Columns.key)
                let text: String = try row.decode(ConstantHotfixes.Columns.value)
                // A constant the build no longer has, or whose type changed, keeps its row but is not applied.
                // Nor one out of its (possibly narrowed) range.
                guard let base = constants.base[key], let value = Self.parse(text, like: base),
                    constants.refusal(key, value, among: kept) == nil
                else { continue }
                kept[key] = value
            }
            replaced = constants.replaceHotfixes(kept, readAt: version)
        }
    }

    /// Sets (or with nil removes) a constant's hotfix; it must keep the type.
    package func setConstant(_ key: String, to text: String?, by admin: String) throws -> Result<Void, Refusal> {
        guard let base = constants.base[key] else { return .failure(.unknownKey) }
        let heard = constants.hotfixValues.first { $0.0 == key }.map { Self.text($0.1) }
        var value: PropertyListValue?
        if let text {
            guard ["string", "integer", "real", "boolean"].contains(base.typeName) else {
                return .failure(.notEditable)
            }
            guard let parsed = Self.parse(text, like: base) else { return .failure(.wrongType(base.typeName)) }
            value = parsed
        }
        if let range = constants.refusal(key, value) { return .failure(.outOfRange(range)) }
        let after = value.map(Self.text)
        guard heard != after else { return .success(()) }
        try pool.write { db in
            // What it was, as committed (see `set`).
            let before: String? = try db.first("SELECT value FROM constant_hotfixes WHERE key = ?", [.text(key)])?
                .decode(ConstantHotfixes.Columns.value)
            if let value {
                try db.execute(
                    ConstantHotfixes.upsert(on: .key) { row in
                        row[.key] = key
                        row[.type] = base.typeName
                        row[.value] = Self.text(value)
                    })
            } else {
                try db.execute("DELETE FROM constant_hotfixes WHERE key = ?", [.text(key)])
            }
            try db.execute(
                Change.insert(
                    key: key, language: Self.constantMarker, before: before, after: after, admin: admin,
                    at: admins.clock()))
            try AdminStore.audit(
                db, at: admins.clock(), admin, action: value == nil ? "remove constant" : "set constant", target: key,
                before: before, after: after)
        }
        // Applied once committed (checked above: only rules changed since would refuse it, and that is said).
        do { try constants.setHotfix(key, value) } catch {
            Log.error("constant hotfix \(key) saved, not applied: \(error)")
        }
        return .success(())
    }

    /// Why a hotfix would be refused, or nil: the language, the key, the length and the base string's placeholders.
    package func check(_ key: String, language: String, value: String?) -> Refusal? {
        guard language == StringOverlay.allLanguages || localizer.languages.contains(language) else {
            return .unknownLanguage
        }
        // A plural form keeps the placeholders of the form it replaces.
        guard
            let base = localizer.ownString(key, language: localizer.base)
                ?? localizer.shippedForm(key, language: language)
        else {
            return .unknownKey
        }
        if let value {
            guard value.utf8.count <= 4000 else { return .tooLong }
            guard StringFormat.widestField(in: value) <= Self.widestField else { return .wideField }
            let expected = StringFormat.placeholders(in: base)
            let got = StringFormat.placeholders(in: value)
            guard expected == got else {
                return .placeholders(
                    expected: expected.map(\.description).joined(separator: " "),
                    got: got.map(\.description).joined(separator: " "))
            }
        }
        return nil
    }

    /// Sets (or with nil removes) a hotfix after checking it.
    package func set(
        _ key: String, language: String, to value: String?, by admin: String
    ) throws -> Result<Void, Refusal> {
        if let refusal = check(key, language: language, value: value) { return .failure(refusal) }
        guard localizer.overlay.values(for: language)[key] != value else { return .success(()) }
        try pool.write { db in
            // What it was, as committed, not as this instance last heard (a review: two admins, or another instance
            // before its change reached this one, left history a wrong "before", and a revert restored it).
            let before: String? = try db.first(
                "SELECT value FROM string_hotfixes WHERE key = ? AND language = ?", [.text(key), .text(language)]
            )?.decode(StringHotfixes.Hotfix.Columns.value)
            try record(db, key, language: language, from: before, to: value, by: admin)
            try AdminStore.audit(
                db, at: admins.clock(), admin, action: value == nil ? "remove hotfix" : "set hotfix",
                target: "\(key) [\(language)]", before: before, after: value)
        }
        localizer.overlay.set(key, language: language, to: value)
        return .success(())
    }

    /// A hotfix's row and its history row, in the caller's transaction (`batch`: the import it is part of).
    package func record(
        _ db: Database, _ key: String, language: String, from before: String?, to value: String?, by admin: String,
        batch: Int? = nil
    ) throws {
        try hotfixes.save(db, key, language: language, to: value)
        try db.execute(
            Change.insert(
                key: key, language: language, before: before, after: value, admin: admin, at: admins.clock(),
                batch: batch))
    }

    /// A refusal in the admin's words.
    package static func describe(_ refusal: Refusal, _ t: LanguageStrings) -> String {
        switch refusal {
        case .unknownKey: t.string("admin.hotfix.unknown")
        case .unknownLanguage: t.string("admin.hotfix.language.unknown")
        case .tooLong: t.string("admin.hotfix.long")
        // In words for the types an admin edits ("a integer", "real": a reader); the generic line for the rest.
        case .wrongType(let type):
            t.has("admin.constant.type.\(type)")
                ? t.string("admin.constant.type.\(type)") : t.string("admin.constant.type", [.string(type)])
        case .notEditable: t.string("admin.constant.noteditable")
        case .outOfRange(let range): t.string("admin.constant.range", [.string(range)])
        case .wideField: t.string("admin.hotfix.width", [.int(widestField)])
        case .placeholders(let expected, let got):
            t.string(
                "admin.hotfix.placeholders",
                [.string(expected.isEmpty ? "–" : expected), .string(got.isEmpty ? "–" : got)])
        }
    }

    /// A `hotfix_history` row.
    package struct Change: Sendable, FetchableRecord, TableRecord {
        package static let table = "hotfix_history"
        package enum Columns: String, ColumnName { case id, key, language, before, after, admin, at, batch }
        package let id: Int, key: String, language: String, before: String?, after: String?, admin: String, at: Int
        /// The import this change was part of.
        package var batch: Int? = nil

        package init(row: Row) throws(DatabaseError) {
            id = try row.decode(Columns.id)
            key = try row.decode(Columns.key)
            language = try row.decode(Columns.language)
            before = try row.decodeIfPresent(Columns.before)
            after = try row.decodeIfPresent(Columns.after)
            admin = try row.decode(Columns.admin)
            at = try row.decode(Columns.at)
            batch = try row.decodeIfPresent(Columns.batch)
        }

        /// A new entry (its id is the table's).
        static func insert(
            key: String, language: String, before: String?, after: String?, admin: String, at: Int, batch: Int? = nil
        ) -> SQLStatement {
            insert { row in
                row[.key] = key
                row[.language] = language
                row[.before] = before
                row[.after] = after
                row[.admin] = admin
                row[.at] = at
                row[.batch] = batch
            }
        }
    }

    /// A `constant_hotfixes` row: a constant's value set by an admin, as text, with its type.
    package enum ConstantHotfixes: TableRecord {
        package static let table = "constant_hotfixes"
        package enum Columns: String, ColumnName { case key, type, value }
    }

    /// A key's 50 most recent changes, newest first (the page never grows with a long history).
    package func history(_ key: String) throws -> [Change] {
        try pool.connection().fetchAll(
            Change.self, "SELECT \(Change.selection) FROM hotfix_history WHERE key = ? ORDER BY id DESC LIMIT 50",
            [.text(key)])
    }

    /// Puts a key back as it was before a change.
    package func revert(_ id: Int, by admin: String) throws -> Result<Void, Refusal>? {
        guard
            let change = try pool.connection().fetchOne(
                Change.self, "SELECT \(Change.selection) FROM hotfix_history WHERE id = ?",
                [SQLValue(id)])
        else { return nil }
        if change.language == Self.constantMarker { return try setConstant(change.key, to: change.before, by: admin) }
        return try set(change.key, language: change.language, to: change.before, by: admin)
    }

    package init(
        hotfixes: StringHotfixes, localizer: Localizer, admins: AdminStore, pool: DatabasePool, constants: Constants
    ) {
        self.hotfixes = hotfixes
        self.localizer = localizer
        self.admins = admins
        self.pool = pool
        self.constants = constants
    }
}
