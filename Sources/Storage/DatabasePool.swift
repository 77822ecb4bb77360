import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One connection per thread (each event loop, each pool thread), opened
/// on first use. SQLite connections must not be shared across threads
/// without locking; this way no request ever waits on another's connection.
public final class DatabasePool: Sendable {
    public let path: String
    private let connections = Mutex<[UInt: UnsafeSendable<Database>]>([:])

    public init(path: String) { self.path = path }

    /// The calling thread's connection.
    public func connection() throws(DatabaseError) -> Database {
        let thread = UInt(bitPattern: Int(bitPattern: UInt(pthread_self())))
        if let existing = connections.withLock({ $0[thread] }) { return existing.value }
        let database = try Database(path: path)
        connections.withLock { $0[thread] = UnsafeSendable(database) }
        return database
    }
}

/// A connection confined to one thread, kept in the pool's table.
struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
