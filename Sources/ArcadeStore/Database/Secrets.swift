import Crypto
import Storage

/// What start-up keeps in the `secrets` table: the keys made at first start and the day the site first ran.
package enum Secrets: TableRecord {
    package static let table = "secrets"
    package enum Columns: String, ColumnName { case name, value }

    /// The UTC day (since 1970) the site first ran, kept in the database: the daily code's #0.
    package static func firstDay(in db: Database, clock: () -> Double) throws -> Int {
        if let stored = try db.value([UInt8].self, "SELECT value FROM secrets WHERE name = 'first-day'"),
            let day = Int(String(decoding: stored, as: UTF8.self))
        {
            return day
        }
        let day = Int(clock() / 86_400)
        try db.execute(
            insert { row in
                row[.name] = "first-day"
                row[.value] = Array(String(day).utf8)
            })
        return day
    }

    /// A random secret kept in the database, made at first start.
    package static func random(_ name: String, in db: Database) throws -> [UInt8] {
        if let existing = try db.value([UInt8].self, "SELECT value FROM secrets WHERE name = ?", [.text(name)]),
            existing.count >= 32
        {
            return existing
        }
        let fresh = Crypto.randomBytes(32)
        try db.execute(
            upsert(on: .name) { row in
                row[.name] = name
                row[.value] = fresh
            })
        return fresh
    }
}
