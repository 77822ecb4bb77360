import Storage

/// Who a store acts for: the player, the browser session, and whether the player was made by this request (nothing is
/// stored for them yet). The site's `Visitor` is one.
package protocol PlayerSession: Sendable {
    var player: Player { get }
    var sessionID: String { get }
    var isNew: Bool { get }
}

extension PlayerSession {
    package var playerID: String { player.id }
}

/// An anonymous player as the signed cookie names them: an id, and when
/// they first came. A visitor who only looks has no row; the row is made
/// inside the transaction of their first state-changing action.
package struct Player: Sendable, Equatable {
    package let id: String
    /// Seconds since 1970, from the signed cookie.
    package let firstSeen: Int

    /// Whether the player `id` has a row: has made a first write.
    package static func hasRow(_ id: String, _ db: Database) throws -> Bool {
        try db.value(Int.self, "SELECT 1 FROM players WHERE id = ?", [.text(id)]) != nil
    }

    /// Makes the player's row if this is their first write, and locks it (call inside the write's transaction).
    package func ensureRow(_ db: Database) throws {
        for (sql, values) in rowStatements(db.dialect) { try db.send(sql, values) }
    }

    /// What `ensureRow` runs, for a write that sends it ahead (`DatabasePool.write(_:prefetch:then:)`).
    package func rowStatements(_ dialect: SQLDialect) -> [(sql: String, values: [SQLValue])] {
        // One statement makes the row or locks it on PostgreSQL: an upsert whose update never applies still locks the
        // row it meets (ON CONFLICT DO UPDATE ... WHERE), one statement less a write than an insert and a
        // SELECT ... FOR UPDATE (a cheat action sent four).
        let tail =
            dialect == .postgresql
            ? "ON CONFLICT (id) DO UPDATE SET first_seen = players.first_seen WHERE false" : "ON CONFLICT DO NOTHING"
        let insert = Table.insert(tail) { row in
            row[.id] = id
            row[.firstSeen] = firstSeen
        }
        return [(insert.sql, insert.values)]
    }

    /// The `players` table.
    package enum Table: TableRecord {
        package static let table = "players"
        package enum Columns: String, ColumnName {
            case id, firstSeen = "first_seen", displayName = "display_name", nameKey = "name_key"
            case nameGamePace = "namegame_pace"
        }
    }

    private static let lockSQL = "SELECT id FROM players WHERE id = ? FOR UPDATE"

    /// Locks the player's row until the transaction ends, so one player's read-then-write actions (a turn, an
    /// answer, a cheat's progress) take turns whichever instance runs them, while other players' never wait: on
    /// PostgreSQL there is no global write lock. SQLite writes one transaction at a time already.
    package static func lock(_ id: String, _ db: Database) throws {
        guard db.dialect == .postgresql else { return }
        try db.send(lockSQL, [.text(id)])
    }

    package init(id: String, firstSeen: Int) {
        self.id = id
        self.firstSeen = firstSeen
    }
}

/// A player's id as a table key, hashed by its tail (see `tailFingerprint`): every id a table keeps, the site made.
package struct PlayerKey: Hashable, Sendable {
    package let id: String

    package init(_ id: String) { self.id = id }

    package func hash(into hasher: inout Hasher) { hasher.combine(id.tailFingerprint) }
}

extension String {
    /// The length and last seven bytes, for hashing keys made of what the site made from random bytes (ids,
    /// signatures): they differ there already, and hashing whole strings cost more than the rest of a lookup. Only
    /// for tables whose entries the site itself made, so no one can choose keys that collide.
    package var tailFingerprint: UInt64 {
        let bytes = utf8
        return bytes.withContiguousStorageIfAvailable { $0.suffix(7).reduce(UInt64($0.count)) { $0 << 8 | UInt64($1) } }
            ?? UInt64(bytes.count)
    }
}
