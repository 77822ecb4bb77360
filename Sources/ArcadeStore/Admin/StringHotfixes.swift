import Localization
import Storage

#if canImport(Glibc)
import Glibc
#endif

/// String hotfixes: kept in SQLite, served from the shared overlay. A write
/// commits first, then updates the overlay, so every worker sees it on its
/// next request and a restart keeps it.
package struct StringHotfixes: Sendable {
    package let pool: DatabasePool
    package var clock: @Sendable () -> Double = WallClock.system
    package let overlay: StringOverlay

    /// A `string_hotfixes` row: one key's text in one language.
    package enum Hotfix: TableRecord {
        package static let table = "string_hotfixes"
        package enum Columns: String, ColumnName { case key, language, value, updated }
    }

    /// Reads every hotfix again (another instance changed one); a save of this instance's during the reading, newer
    /// than what was read, makes it read again rather than put the older value back.
    package func load() throws {
        var replaced = false
        while !replaced {
            let version = overlay.version
            var all: [String: [String: String]] = [:]
            for row in try pool.connection().query("SELECT key, language, value FROM string_hotfixes") {
                let language: String = try row.decode(Hotfix.Columns.language)
                all[language, default: [:]][try row.decode(Hotfix.Columns.key)] = try row.decode(Hotfix.Columns.value)
            }
            replaced = overlay.replaceAll(all, readAt: version)
        }
    }

    /// Sets (or, with nil, removes) a hotfix; `language` may be `StringOverlay.allLanguages`.
    package func set(_ key: String, language: String, to value: String?) throws {
        try pool.write { db in try save(db, key, language: language, to: value) }
        overlay.set(key, language: language, to: value)
    }

    /// The row of a hotfix, inside the caller's transaction; the caller updates the overlay once it commits.
    package func save(_ db: Database, _ key: String, language: String, to value: String?) throws {
        if let value {
            try db.execute(
                Hotfix.upsert(on: .key, .language) { row in
                    row[.key] = key
                    row[.language] = language
                    row[.value] = value
                    row[.updated] = Int64(clock())
                })
        } else {
            try db.execute("DELETE FROM string_hotfixes WHERE key = ? AND language = ?", [.text(key), .text(language)])
        }
    }

    package init(pool: DatabasePool, clock: @escaping @Sendable () -> Double = WallClock.system, overlay: StringOverlay)
    {
        self.pool = pool
        self.clock = clock
        self.overlay = overlay
    }
}
