import Synchronization
import Threads

#if canImport(Glibc)
import Glibc
#endif

/// A database as the server uses it: one reading connection per thread (each
/// event loop, each pool thread), opened on first use, so no request waits on
/// another's connection; and one `DatabaseWriter` through which every write
/// goes, committed in groups off the event loops.
public final class DatabasePool: Sendable {
    public let location: DatabaseLocation
    /// How messages name the database.
    public var path: String { location.description }
    private let connections = Mutex<[UInt: UnsafeSendable<Database>]>([:])
    private let writerBox = Mutex<DatabaseWriter?>(nil)
    private let commitDelay: Double
    private let maxQueued: Int
    /// Whether the database answers, as every connection of this site sees it.
    public let health = DatabaseHealth()

    /// `commitDelay` slows every commit down, to test what a slow disk does; `maxQueued`: writes that may wait for
    /// the writer at once (more are refused with `DatabaseError.busy`).
    public init(location: DatabaseLocation, commitDelay: Double = 0, maxQueued: Int = 4096) {
        self.location = location
        self.commitDelay = commitDelay
        self.maxQueued = maxQueued
    }

    public convenience init(path: String, commitDelay: Double = 0) {
        self.init(location: .sqlite(path), commitDelay: commitDelay)
    }

    /// The calling thread's connection (on the writer's thread, the writer's own). An event loop never waits for a
    /// database across the network (PostgreSQL): routes that read are placed on the pool there (`Execution.reads`),
    /// so asking on a loop is a misplaced route, refused in every build (a test meets it as a 500, as production
    /// would).
    public func connection() throws(DatabaseError) -> Database {
        if location.dialect == .postgresql && ThreadRole.isEventLoop { throw DatabaseError.onEventLoop }
        let thread = DatabaseWriter.currentThread
        let existing = connections.withLock({ $0[thread] })?.value
        let outages = health.outages.load(ordering: .relaxed)
        if let existing, !existing.isBroken && (existing.epoch == outages || existing.inTransaction) {
            return existing
        }
        // Broken, or opened before the latest outage (and so perhaps broken without knowing it yet): opened again,
        // in place, so the writer's thread keeps its own.
        if existing?.isBroken == true { health.lost() }
        let database = try health.open(again: existing != nil) { () throws(DatabaseError) in
            if let existing {
                try existing.reconnect()
                return existing
            }
            let fresh = try Database(location: location, role: .pooled)
            fresh.health = health
            return fresh
        }
        database.epoch = outages
        if database !== existing { connections.withLock { $0[thread] = UnsafeSendable(database) } }
        return database
    }

    /// Runs `body` on one snapshot of the database, as GRDB's `read` does: every read in it (through `connection()` on
    /// this thread) sees the same commits, so a page that reads twice never shows a write that landed between its
    /// reads. Writes go through the writer and are seen only after it: a body reads. Nested, it joins the outer one.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        let db = try connection()
        if db.inTransaction { return try body(db) }
        try db.execute(db.dialect == .postgresql ? "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY" : "BEGIN")
        do {
            let result = try body(db)
            try db.execute("COMMIT")
            return result
        } catch {
            if db.inTransaction { _ = try? db.execute("ROLLBACK") }
            throw error
        }
    }

    /// The writer, started on first use.
    public func writer() throws(DatabaseError) -> DatabaseWriter {
        try writerBox.withLock { (box: inout DatabaseWriter?) throws(DatabaseError) -> DatabaseWriter in
            if let box { return box }
            let created = try DatabaseWriter(
                location: location, health: health, commitDelay: commitDelay, maxQueued: maxQueued
            ) {
                [self] database in
                connections.withLock { $0[DatabaseWriter.currentThread] = UnsafeSendable(database) }
            }
            box = created
            return created
        }
    }

    /// Runs `body` as one transaction through the writer and returns once it is on disk.
    /// Blocks: for off-loop handlers and commands, never an event loop.
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try writer().perform(body)
    }

    /// Queues `body` as one transaction and returns at once; `then` gets its result on the writer's thread once
    /// it is committed (or has failed and rolled back alone). Nothing blocks: for the event loop.
    /// `prefetch`: the statements `body` begins with (see `DatabaseWriter.submit(_:prefetch:done:)`).
    public func write<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T,
        prefetch: [(sql: String, values: [SQLValue])] = [],
        then: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        let result = ResultBox<T>()
        let done: @Sendable ((any Error)?) -> Void = { error in
            if let error { then(.failure(error)) } else if let value = result.value { then(.success(value)) }
        }
        do {
            try writer().submit({ db in result.value = try body(db) }, prefetch: prefetch, done: done)
        } catch {
            done(error)
        }
    }

    /// Queues a write nobody waits for (bookkeeping a page view may do): the loop goes on at once.
    /// `done` runs on the writer's thread once the write is committed (nil) or has failed.
    public func writeLater(
        _ work: @escaping DatabaseWriter.Work,
        done: @escaping @Sendable ((any Error)?) -> Void = { _ in }
    ) {
        do {
            try writer().submit(work, done: done)
        } catch {
            done(error)
        }
    }

    /// Commits what is queued and stops the writer.
    public func close() {
        let writer = writerBox.withLock { box in
            defer { box = nil }
            return box
        }
        writer?.stop()
    }
}

/// A connection confined to one thread, kept in the pool's table.
struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// A job's result, written and read only on the writer's thread (the job runs, then its completion).
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
