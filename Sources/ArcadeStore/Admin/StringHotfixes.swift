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

    package func load() throws {
        var all: [String: [String: String]] = [:]
        for row in try pool.connection().query("SELECT key, language, value FROM string_hotfixes") {
            all[try row.decode("language", as: String.self), default: [:]][try row.decode("key")] = try row.decode(
                "value", as: String.self)
        }
        overlay.replaceAll(all)
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
                """
                INSERT INTO string_hotfixes (key, language, value, updated) VALUES (?, ?, ?, ?)
                ON CONFLICT (key, language) DO UPDATE SET value = excluded.value, updated = excluded.updated
                """, [.text(key), .text(language), .text(value), .integer(Int64(clock()))])
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
