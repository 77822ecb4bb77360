import Synchronization

/// Which instance does the work only one may do (applying scheduled changes): on PostgreSQL, the one holding a
/// session advisory lock on a connection of its own; when that instance dies its connection closes, the lock is
/// released, and another takes over at its next try. On SQLite there is one instance, always the leader.
public final class Leadership: Sendable {
    private let url: String?
    private let connection = Mutex<UnsafeSendable<PostgresConnection>?>(nil)
    static let lock: Int32 = 0x4172_6365

    public init(_ location: DatabaseLocation) {
        if case .postgresql(let url) = location { self.url = url } else { url = nil }
    }

    /// True while this instance leads; tries to become the leader when it does not. Blocks briefly: off the loops.
    public func held() -> Bool {
        guard let url else { return true }
        return connection.withLock { held in
            if let live = held?.value {
                // Still connected, so still holding the lock.
                if (try? live.query("SELECT 1 AS alive", [])) != nil { return true }
                held = nil
            }
            guard let fresh = try? PostgresConnection(url: url, role: .reader),
                let got = try? fresh.query(
                    "SELECT pg_try_advisory_lock(\(PostgresConnection.lock(Self.lock))) AS got", []
                ).first?.int("got"),
                got == 1
            else { return false }
            held = UnsafeSendable(fresh)
            return true
        }
    }

    /// Gives the lead up (closing the connection releases the lock).
    public func resign() { connection.withLock { $0 = nil } }
}
