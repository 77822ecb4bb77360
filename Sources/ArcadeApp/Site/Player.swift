import Storage

/// An anonymous player as the signed cookie names them: an id, and when
/// they first came. A visitor who only looks has no row; the row is made
/// inside the transaction of their first state-changing action.
struct Player: Sendable, Equatable {
    let id: String
    /// Seconds since 1970, from the signed cookie.
    let firstSeen: Int

    /// Whether the player `id` has a row: has made a first write.
    static func hasRow(_ id: String, _ db: Database) throws -> Bool {
        try db.value(Int.self, "SELECT 1 FROM players WHERE id = ?", [.text(id)]) != nil
    }

    /// Makes the player's row if this is their first write, and locks it (call inside the write's transaction).
    func ensureRow(_ db: Database) throws {
        for (sql, values) in rowStatements(db.dialect) { try db.send(sql, values) }
    }

    /// What `ensureRow` runs, for a write that sends it ahead (`DatabasePool.write(_:prefetch:then:)`).
    func rowStatements(_ dialect: SQLDialect) -> [(sql: String, values: [SQLValue])] {
        let values = [SQLValue.text(id), .integer(Int64(firstSeen))]
        guard dialect == .postgresql else {
            return [("INSERT INTO players (id, first_seen) VALUES (?, ?) ON CONFLICT DO NOTHING", values)]
        }
        // One statement makes the row or locks it: an upsert whose update never applies still locks the row it meets
        // (PostgreSQL's ON CONFLICT DO UPDATE ... WHERE), one statement less a write than an insert and a
        // SELECT ... FOR UPDATE (a cheat action sent four).
        return [(Self.makeOrLockSQL, values)]
    }

    private static let makeOrLockSQL =
        "INSERT INTO players (id, first_seen) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET first_seen = players.first_seen"
        + " WHERE false"

    private static let lockSQL = "SELECT id FROM players WHERE id = ? FOR UPDATE"

    /// Locks the player's row until the transaction ends, so one player's read-then-write actions (a turn, an
    /// answer, a cheat's progress) take turns whichever instance runs them, while other players' never wait: on
    /// PostgreSQL there is no global write lock. SQLite writes one transaction at a time already.
    static func lock(_ id: String, _ db: Database) throws {
        guard db.dialect == .postgresql else { return }
        try db.send(lockSQL, [.text(id)])
    }
}
