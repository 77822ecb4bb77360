import Storage

/// An anonymous player as the signed cookie names them: an id, and when
/// they first came. A visitor who only looks has no row; the row is made
/// inside the transaction of their first state-changing action.
struct Player: Sendable, Equatable {
    let id: String
    /// Seconds since 1970, from the signed cookie.
    let firstSeen: Int

    /// Makes the player's row if this is their first write (call inside the write's transaction).
    func ensureRow(_ db: Database) throws {
        try db.execute(
            "INSERT INTO players (id, first_seen) VALUES (?, ?) ON CONFLICT DO NOTHING",
            [.text(id), .integer(Int64(firstSeen))])
    }
}
