import Synchronization

/// Which instance does the work only one may do (applying scheduled changes): on PostgreSQL, the one holding a
/// session advisory lock on a connection of its own; when that instance dies its connection closes, the lock is
/// released, and another takes over at its next try. On SQLite there is one instance, always the leader.
public final class Leadership: Sendable {
    private struct State {
        var connection: UnsafeSendable<PostgresConnection>?
        var leading = false
    }

    private let url: String?
    private let state = Mutex(State())
    static let lock: Int32 = 0x4172_6365
    /// Connections opened so far. A follower keeps its one and tries the lock again on it: its ticker and
    /// housekeeping ask 14 times a second, and a connection each time was a PostgreSQL backend started and ended
    /// each time (about 3 ms of the database server's CPU each, on every follower, busy or not).
    public let connectionsOpened = Atomic<Int>(0)

    private let health: DatabaseHealth

    public init(_ location: DatabaseLocation, health: DatabaseHealth = DatabaseHealth()) {
        if case .postgresql(let url) = location { self.url = url } else { url = nil }
        self.health = health
    }

    /// True while this instance leads; tries to become the leader when it does not. Blocks briefly: off the loops.
    public func held() -> Bool {
        guard let url else { return true }
        return state.withLock { state in
            // A connection lost (and the lock with it, if held) is opened again once, at once, then as the site's
            // backoff allows; the lock is asked for again, and may have gone to another instance meanwhile.
            for attempt in 0..<2 {
                if state.connection == nil {
                    guard
                        let fresh = try? health.open(
                            again: attempt > 0,
                            { () throws(DatabaseError) in try PostgresConnection(url: url, role: .reader) })
                    else { return false }
                    connectionsOpened.wrappingAdd(1, ordering: .relaxed)
                    state = State(connection: UnsafeSendable(fresh))
                }
                guard let live = state.connection?.value else { return false }
                do throws(DatabaseError) {
                    // Still connected, so still holding the lock.
                    if state.leading { return try live.query("SELECT 1 AS alive", []).isEmpty == false }
                    state.leading =
                        try live.query(
                            "SELECT pg_try_advisory_lock(\(PostgresConnection.lock(Self.lock))) AS got", []
                        ).first?.int("got") == 1
                    return state.leading
                } catch {
                    if error.connectionLost { health.lost() }
                    state = State()
                }
            }
            return false
        }
    }

    /// Gives the lead up (closing the connection releases the lock).
    public func resign() { state.withLock { $0 = State() } }
}
