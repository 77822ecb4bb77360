import Localization
import PropertyList
import Storage

/// The translators' round trip. A language is exported in Apple's formats, `.strings` and `.stringsdict`: what it
/// ships with its hotfixes, under the base language's comments. Such a file comes back as an import: kept while the
/// admin looks at its preview (each entry new, changed, unchanged or refused, with the reason), then applied as
/// hotfixes in one audited change whose history rows share the import's id, so that one revert undoes it.
package struct StringsExchange: Sendable {
    package let hotfixes: AdminHotfixes
    package var localizer: Localizer { hotfixes.localizer }
    package var pool: DatabasePool { hotfixes.pool }
    package static let maxFileBytes = 1 << 20
    /// Previews nobody applied are dropped after a day.
    package static let stagedSeconds = 86_400

    package enum Format: String, Sendable {
        case strings, stringsdict

        /// By the file's name, else by its first character (a property list starts with `<`).
        package init(file: String, bytes: [UInt8]) {
            if file.hasSuffix(".stringsdict") {
                self = .stringsdict
                return
            }
            if file.hasSuffix(".strings") {
                self = .strings
                return
            }
            let first = bytes.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }.first
            self = first == UInt8(ascii: "<") ? .stringsdict : .strings
        }
    }

    package enum Status: String, Sendable { case new, changed, unchanged, refused }

    package enum Refusal: Sendable, Equatable {
        case hotfix(AdminHotfixes.Refusal)
        /// A plural's format string, which no hotfix can change.
        case formatDiffers
        case unknownVariable(String)
    }

    package struct Entry: Sendable {
        package let key: String
        package let current: String?
        package let imported: String
        package let status: Status
        package var refusal: Refusal? = nil

        package init(key: String, current: String?, imported: String, status: Status, refusal: Refusal? = nil) {
            self.key = key
            self.current = current
            self.imported = imported
            self.status = status
            self.refusal = refusal
        }
    }

    /// A file that cannot be read: refused whole, with where and why (`12:5: expected ';' …`).
    package struct Unreadable: Error, Sendable { package let message: String }

    /// A `string_imports` row.
    package struct Import: Sendable, FetchableRecord, TableRecord {
        package static let table = "string_imports"
        package enum Columns: String, ColumnName {
            case id, language, format, file, content, admin, stagedAt = "staged_at", appliedAt = "applied_at", changes
            case revertedAt = "reverted_at"
        }
        package let id: Int, language: String, format: Format, file: String, content: [UInt8], admin: String
        package let appliedAt: Int?, changes: Int?, revertedAt: Int?

        package init(row: Row) throws(DatabaseError) {
            let name: String = try row.decode(Columns.format)
            guard let format = Format(rawValue: name) else { throw DatabaseError("string_imports: format \(name)") }
            self.format = format
            id = try row.decode(Columns.id)
            language = try row.decode(Columns.language)
            file = try row.decode(Columns.file)
            content = try row.decode(Columns.content)
            admin = try row.decode(Columns.admin)
            appliedAt = try row.decodeIfPresent(Columns.appliedAt)
            changes = try row.decodeIfPresent(Columns.changes)
            revertedAt = try row.decodeIfPresent(Columns.revertedAt)
        }
    }

    // MARK: export

    package func export(_ language: String, _ format: Format) -> String? {
        guard localizer.languages.contains(language) else { return nil }
        switch format {
        case .strings: return exportStrings(language)
        case .stringsdict: return exportStringsdict(language)
        }
    }

    private func exportStrings(_ language: String) -> String {
        let own = localizer.table(language)
        var entries: [(key: String, value: String, comment: String?)] = []
        var untranslated: [String] = []
        for key in localizer.order {
            guard let value = current(key, language, own: own[key]) else {
                untranslated.append(key)
                continue
            }
            entries.append((key, value, localizer.comments[key]))
        }
        var header = "Arcade: \(language), as shipped with its hotfixes. Comments are the \(localizer.base) file's."
        if !untranslated.isEmpty {
            header += " Not translated yet (shown in \(localizer.base)): " + untranslated.joined(separator: ", ") + "."
        }
        return StringsFile.encode(header: header, entries)
    }

    private func exportStringsdict(_ language: String) -> String {
        let own = localizer.pluralTable(language)
        var members: [(String, PropertyListValue)] = []
        for key in localizer.pluralTable(localizer.base).keys.sorted() {
            guard let plural = own[key] else { continue }
            var entry: [(String, PropertyListValue)] = [("NSStringLocalizedFormatKey", .string(plural.format))]
            var seen: Set<String> = []
            for name in PluralFormat.variableNames(in: plural.format) where seen.insert(name).inserted {
                guard let variable = plural.variables[name] else { continue }
                var spec: [(String, PropertyListValue)] = [
                    ("NSStringFormatSpecTypeKey", .string("NSStringPluralRuleType")),
                    ("NSStringFormatValueTypeKey", .string(variable.valueType)),
                ]
                for category in PluralCategory.allCases {
                    let formKey = PluralFormat.formKey(key, variable: name, category: category)
                    if let form = current(formKey, language, own: variable.forms[category]) {
                        spec.append((category.rawValue, .string(form)))
                    }
                }
                entry.append((name, .dictionary(spec)))
            }
            members.append((key, .dictionary(entry)))
        }
        return PropertyListWriter.xml(.dictionary(members))
    }

    /// What a language shows for a key now: its hotfix, the all-languages hotfix, or what it ships (`own`).
    private func current(_ key: String, _ language: String, own: String?) -> String? {
        localizer.overlay.values(for: language)[key] ?? localizer.overlay.values(for: StringOverlay.allLanguages)[key]
            ?? own
    }

    /// What a language ships for a string key or a plural form key (`key#variable.category`), without fallbacks.
    private func shipped(_ key: String, _ language: String) -> String? {
        if let (plural, variable, category) = PluralFormat.splitFormKey(key),
            let form = localizer.pluralTable(language)[plural]?.variables[variable]?.forms[category]
        {
            return form
        }
        return localizer.ownString(key, language: language)
    }

    // MARK: import

    /// Every entry of the file, compared with what the language shows now.
    package func preview(_ bytes: [UInt8], language: String, format: Format, file: String) throws(Unreadable) -> [Entry]
    {
        switch format {
        case .strings:
            let parsed: StringsFile
            do { parsed = try StringsFile(bytes: bytes, file: file) } catch {
                throw Unreadable(message: "\(error.line):\(error.column): \(error.message)")
            }
            return parsed.keys.map { entry($0, parsed.table[$0] ?? "", language) }
        case .stringsdict:
            let plist: PropertyListValue
            do { plist = try PropertyListParser.parse(bytes, file: file) } catch {
                throw Unreadable(message: "\(error.line):\(error.column): \(error.message)")
            }
            guard let members = plist.dictionary else { throw Unreadable(message: "1:1: the top level must be a dict") }
            var entries: [Entry] = []
            for (key, value) in members {
                let format = value["NSStringLocalizedFormatKey"]?.string ?? ""
                guard let shipped = localizer.pluralTable(language)[key] ?? localizer.pluralTable(localizer.base)[key]
                else {
                    entries.append(
                        Entry(key: key, current: nil, imported: format, status: .refused, refusal: .hotfix(.unknownKey))
                    )
                    continue
                }
                guard format == shipped.format else {
                    entries.append(
                        Entry(
                            key: key, current: shipped.format, imported: format, status: .refused,
                            refusal: .formatDiffers))
                    continue
                }
                var seen: Set<String> = []
                for name in PluralFormat.variableNames(in: format) where seen.insert(name).inserted {
                    guard shipped.variables[name] != nil, let spec = value[name]?.dictionary else {
                        entries.append(
                            Entry(
                                key: "\(key)#\(name)", current: nil, imported: "", status: .refused,
                                refusal: .unknownVariable(name)))
                        continue
                    }
                    for (name2, form) in spec {
                        guard let category = PluralCategory(rawValue: name2), let text = form.string else { continue }
                        entries.append(
                            entry(PluralFormat.formKey(key, variable: name, category: category), text, language))
                    }
                }
            }
            return entries
        }
    }

    private func entry(_ key: String, _ value: String, _ language: String) -> Entry {
        let now = current(key, language, own: shipped(key, language))
        if let refusal = hotfixes.check(key, language: language, value: value) {
            return Entry(key: key, current: now, imported: value, status: .refused, refusal: .hotfix(refusal))
        }
        return Entry(
            key: key, current: now, imported: value, status: now == nil ? .new : now == value ? .unchanged : .changed)
    }

    /// Keeps an uploaded file for its preview; returns its id.
    package func stage(_ bytes: [UInt8], language: String, format: Format, file: String, by admin: String) throws -> Int
    {
        let now = hotfixes.admins.clock()
        return try pool.write { db in
            try db.execute(
                "DELETE FROM string_imports WHERE applied_at IS NULL AND staged_at < ?",
                [SQLValue(now - Self.stagedSeconds)])
            return Int(
                try db.insert(
                    Import.insert { row in
                        row[.language] = language
                        row[.format] = format.rawValue
                        row[.file] = String(file.prefix(200))
                        row[.content] = bytes
                        row[.admin] = admin
                        row[.stagedAt] = now
                    }))
        }
    }

    package func staged(_ id: Int) throws -> Import? {
        try pool.connection().fetchOne(
            Import.self, "SELECT \(Import.selection) FROM string_imports WHERE id = ?", [SQLValue(id)])
    }

    package enum Outcome: Equatable, Sendable { case applied(Int), alreadyApplied, unknown }

    /// Applies the new and changed entries, as the file stands against the strings now (refused ones are left out),
    /// in one transaction with one audit entry.
    package func apply(_ id: Int, by admin: String) throws -> Outcome {
        guard let staged = try staged(id) else { return .unknown }
        guard staged.appliedAt == nil else { return .alreadyApplied }
        let entries: [Entry]
        do {
            entries = try preview(staged.content, language: staged.language, format: staged.format, file: staged.file)
        } catch { return .unknown }
        let language = staged.language
        let everywhere = localizer.overlay.values(for: StringOverlay.allLanguages)
        let own = localizer.overlay.values(for: language)
        // A value the language ships anyway needs no hotfix: it removes one (unless an all-languages one would show).
        let changes: [(key: String, before: String?, after: String?)] = entries.filter {
            $0.status == .new || $0.status == .changed
        }
        .map { entry in
            let needless = entry.imported == shipped(entry.key, language) && everywhere[entry.key] == nil
            return (entry.key, own[entry.key], needless ? nil : entry.imported)
        }
        .filter { $0.before != $0.after }
        let applied: Bool = try pool.write { db in
            guard
                try db.first("SELECT id FROM string_imports WHERE id = ? AND applied_at IS NULL", [SQLValue(id)]) != nil
            else {
                return false
            }
            for change in changes {
                try hotfixes.record(
                    db, change.key, language: language, from: change.before, to: change.after, by: admin, batch: id)
            }
            let now = hotfixes.admins.clock()
            try db.execute(
                "UPDATE string_imports SET applied_at = ?, changes = ?, content = ? WHERE id = ?",
                [SQLValue(now), SQLValue(changes.count), .blob([]), SQLValue(id)])
            try AdminStore.audit(
                db, at: now, admin, action: "import strings", target: "\(staged.file) [\(language)] #\(id)",
                before: nil, after: "\(changes.count) changes")
            return true
        }
        guard applied else { return .alreadyApplied }
        for change in changes { localizer.overlay.set(change.key, language: language, to: change.after) }
        return .applied(changes.count)
    }

    /// Undoes an applied import in one change: each key goes back to what it was before, unless it has changed since
    /// (that later change is kept and counted as skipped).
    package func revert(_ id: Int, by admin: String) throws -> (reverted: Int, skipped: Int)? {
        guard let staged = try staged(id), staged.appliedAt != nil, staged.revertedAt == nil else { return nil }
        let rows = try pool.connection().fetchAll(
            AdminHotfixes.Change.self,
            """
            SELECT \(AdminHotfixes.Change.selection) FROM hotfix_history WHERE batch = ? ORDER BY id DESC
            """, [SQLValue(id)])
        var undo: [(key: String, language: String, before: String?, after: String?)] = []
        var skipped = 0
        for row in rows {
            let now = localizer.overlay.values(for: row.language)[row.key]
            if now == row.after { undo.append((row.key, row.language, now, row.before)) } else { skipped += 1 }
        }
        let done: Bool = try pool.write { db in
            guard
                try db.first("SELECT id FROM string_imports WHERE id = ? AND reverted_at IS NULL", [SQLValue(id)])
                    != nil
            else {
                return false
            }
            for change in undo {
                try hotfixes.record(
                    db, change.key, language: change.language, from: change.before, to: change.after, by: admin)
            }
            let now = hotfixes.admins.clock()
            try db.execute("UPDATE string_imports SET reverted_at = ? WHERE id = ?", [SQLValue(now), SQLValue(id)])
            try AdminStore.audit(
                db, at: now, admin, action: "revert import", target: "\(staged.file) [\(staged.language)] #\(id)",
                before: "\(undo.count + skipped) changes", after: "\(undo.count) reverted, \(skipped) kept")
            return true
        }
        guard done else { return nil }
        for change in undo { localizer.overlay.set(change.key, language: change.language, to: change.after) }
        return (undo.count, skipped)
    }

    /// The ten most recent applied imports, newest first.
    package func recent() throws -> [Import] {
        try pool.connection().fetchAll(
            Import.self,
            """
            SELECT \(Import.selection) FROM string_imports WHERE applied_at IS NOT NULL ORDER BY id DESC LIMIT 10
            """)
    }

    package init(hotfixes: AdminHotfixes) {
        self.hotfixes = hotfixes
    }
}
