import Storage

/// An anonymous player as the signed cookie names them: an id, and when
/// they first came. A visitor who only looks has no row; the row is made
/// inside the transaction of their first state-changing action.
struct Player: Sendable, Equatable {
    let id: String
    /// Seconds since 1970, from the signed cookie.
    let firstSeen: Int

    /// Makes the player's row if this is their first write, and locks it (call inside the write's transaction).
    func ensureRow(_ db: Database) throws {
        try db.send(
            "INSERT INTO players (id, first_seen) VALUES (?, ?) ON CONFLICT DO NOTHING",
            [.text(id), .integer(Int64(firstSeen))])
        try Self.lock(id, db)
    }

    /// Locks the player's row until the transaction ends, so one player's read-then-write actions (a turn, an
    /// answer, a cheat's progress) take turns whichever instance runs them, while other players' never wait: on
    /// PostgreSQL there is no global write lock. SQLite writes one transaction at a time already.
    static func lock(_ id: String, _ db: Database) throws {
        guard db.dialect == .postgresql else { return }
        try db.send("SELECT id FROM players WHERE id = ? FOR UPDATE", [.text(id)])
    }
}
