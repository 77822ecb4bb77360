import Metrics
import Synchronization
import Threads

#if canImport(Glibc)
import Glibc
#endif

/// The one writer of a database: a thread that owns the connections that
/// write, takes every transaction waiting for it and commits them
/// together (group commit: one flush for many requests, as PostgreSQL and
/// InnoDB do). One transaction that throws rolls back alone and the others
/// commit (SQLite: a savepoint each). A transaction's caller
/// learns its fate only after the flush, so an acknowledged write is on
/// disk. Event loops never wait here; they read through their own WAL
/// connections meanwhile. On PostgreSQL a group is pipelined (statements
/// whose results nobody reads travel with the next that waits), takes no
/// global lock (rows lock themselves), and runs again, whole, without a job
/// that failed, or when it loses a race with another instance: work may run
/// more than once, so it changes nothing but the database. The writer has two
/// PostgreSQL connections: while one group's COMMIT waits for its WAL flush,
/// the next group runs on the other (a job that needs a row the first holds
/// waits for its commit, as another instance's would); callers still learn
/// their fates in the order the groups ran.
public final class DatabaseWriter: Sendable {
    public typealias Work = @Sendable (Database) throws -> Void

    private struct Job: Sendable {
        let work: Work
        var prefetch: [(sql: String, values: [SQLValue])] = []
        let done: @Sendable ((any Error)?) -> Void
    }

    private struct Queue {
        var jobs: [Job] = []
        var stopping = false
        /// The writer is asleep (or about to be) on `waker`: the next job rings it, once.
        var sleeping = false
    }

    private let queue = Mutex(Queue())
    private let waker = Waker()
    /// The writer's connections: two on PostgreSQL (a group runs on one while the group before waits for its COMMIT
    /// on the other), one on SQLite, which writes one transaction at a time.
    private let databases: UnsafeTransfer<[Database]>
    /// The connection of the group running now: touched only on the writer's thread.
    private nonisolated(unsafe) var current: Database
    /// Makes a connection the writer thread's own in its pool (what `DatabasePool.connection()` returns there).
    private let adopt: @Sendable (Database) -> Void
    private let thread = Mutex<OSThread?>(nil)
    private let threadID = Atomic<UInt>(0)
    /// Seconds to wait before each commit: a slow disk, for tests only.
    private let commitDelay: Double
    /// Jobs that may wait at once: beyond them a write is refused at once (`DatabaseError.busy`), so a flood of
    /// writes meets a quick 503 instead of an ever longer wait and an ever larger queue.
    let maxQueued: Int
    /// Transactions and commits so far (their ratio is the batch size).
    public let transactions = Atomic<Int>(0)
    public let commits = Atomic<Int>(0)
    /// Times the writer waited for PostgreSQL (its round trips per transaction: what pipelining saves), and groups
    /// run again after losing a race with another instance.
    public let roundTrips = Atomic<Int>(0)
    public let retries = Atomic<Int>(0)
    /// Seconds from BEGIN to the end of COMMIT, and transactions sharing each commit (for `/metrics`).
    public let commitDurations = Histograms(
        bounds: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10])
    public let batchSizes = Histograms(bounds: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512])

    /// Transactions waiting for the writer now.
    public var queueDepth: Int { queue.withLock { $0.jobs.count } }
    /// The writer sleeps, with nothing to do (for tests).
    var isAsleep: Bool { queue.withLock { $0.sleeping } }

    /// The site's view of the database: told when a connection breaks; its backoff paces reconnecting.
    private let health: DatabaseHealth

    init(
        location: DatabaseLocation, health: DatabaseHealth = DatabaseHealth(), commitDelay: Double,
        maxQueued: Int = 4096, adopt: @escaping @Sendable (Database) -> Void
    ) throws(DatabaseError) {
        self.commitDelay = commitDelay
        self.maxQueued = max(1, maxQueued)
        self.health = health
        var opened = [try Database(location: location, role: .writer)]
        if location.dialect == .postgresql { opened.append(try Database(location: location, role: .writer)) }
        for db in opened {
            db.health = health
            db.epoch = health.outages.load(ordering: .relaxed)
        }
        databases = UnsafeTransfer(opened)
        current = opened[0]
        self.adopt = adopt
        let started = OSThread { [self] in
            threadID.store(Self.currentThread, ordering: .releasing)
            adopt(current)
            run()
        }
        thread.withLock { $0 = started }
        while threadID.load(ordering: .acquiring) == 0 { sched_yield() }
    }

    static var currentThread: UInt { UInt(bitPattern: Int(bitPattern: UInt(pthread_self()))) }

    /// True on the writer's own thread (inside a transaction).
    public var isCurrentThread: Bool { threadID.load(ordering: .relaxed) == Self.currentThread }

    /// Queues `work`; `done` runs on the writer's thread once the batch holding it has committed
    /// (nil) or once it failed (the error; nothing it wrote is kept).
    /// `prefetch`: the statements `work` begins with (its row locks, then its reads), in order. On PostgreSQL a group
    /// sends every job's in one flight before running them, and `work`'s own query of the same statement, with the
    /// same values, takes the rows read then: a group of such jobs costs two round trips, however many it holds.
    public func submit(
        _ work: @escaping Work, prefetch: [(sql: String, values: [SQLValue])] = [],
        done: @escaping @Sendable ((any Error)?) -> Void
    ) {
        let (refusal, wake) = queue.withLock { queue -> (DatabaseError?, Bool) in
            guard !queue.stopping else { return (DatabaseError("the database writer has stopped"), false) }
            // The writer's own thread never waits on the queue, so its nested writes always pass.
            guard queue.jobs.count < maxQueued || isCurrentThread else { return (DatabaseError.busy, false) }
            queue.jobs.append(Job(work: work, prefetch: prefetch, done: done))
            defer { queue.sleeping = false }
            return (nil, queue.sleeping)
        }
        // From an event loop the ring waits for the end of its turn: the writer takes the turn's writes as one group.
        if wake { waker.ring() }
        if let refusal { done(refusal) }
    }

    /// Runs `body` as one transaction and returns once it is committed. Blocks the calling thread, so an event loop
    /// asking is refused in every build (`DatabaseError.commitOnEventLoop`, nothing run): a misplaced route answers
    /// 500 in a test and in production alike, never a loop stalled for a disk flush. A write inside a write (on the
    /// writer's own thread) is a mistake, the caller meant one transaction and should pass its `Database` on: a debug
    /// build stops there; a release build runs it inside the transaction already open.
    public func perform<T>(_ body: (Database) throws -> T) throws -> T {
        assert(!isCurrentThread, "a write inside a write: use the transaction's Database")
        if isCurrentThread { return try body(current) }
        if ThreadRole.isEventLoop { throw DatabaseError.commitOnEventLoop }
        return try withoutActuallyEscaping(body) { body in
            // The writer drops its only reference to `body` before the caller may return.
            let answer = Answer<T>(body)
            submit({ db in try answer.run(db) }, done: { error in answer.finish(error) })
            return try answer.wait()
        }
    }

    /// Lets queued transactions commit, then stops the thread.
    public func stop() {
        let wake = queue.withLock { queue in
            queue.stopping = true
            defer { queue.sleeping = false }
            return queue.sleeping
        }
        // Its caller joins the thread next: the ring is never held for the end of a batch.
        if wake { waker.ring(atOnce: true) }
        thread.withLock { started in
            started?.join()
            started = nil
        }
    }

    /// A group of jobs on one connection, from its first run to its callers' answers.
    private struct Group {
        let batch: [Job]
        let db: Database
        var failures: [(any Error)?]
        var attempt = 1
        var started = timespec()

        init(_ batch: [Job], _ db: Database) {
            self.batch = batch
            self.db = db
            failures = Array(repeating: nil, count: batch.count)
            clock_gettime(CLOCK_MONOTONIC, &started)
        }
    }

    private func run() {
        var next = 0
        var committing: Group?  // its COMMIT sent, its answer not read yet
        while true {
            let waiting = committing != nil
            let taken: [Job]? = queue.withLock { queue in
                if queue.jobs.isEmpty && !queue.stopping && !waiting {
                    queue.sleeping = true
                    return nil
                }
                defer { queue.jobs.removeAll(keepingCapacity: true) }
                return queue.jobs
            }
            guard let batch = taken else {
                waker.sleep()
                continue
            }
            if batch.isEmpty {
                guard var earlier = committing else { return }  // stopping, and nothing left
                committing = nil
                confirm(&earlier)
                continue
            }
            var group = Group(batch, databases.value[next])
            next = (next + 1) % databases.value.count
            if let unreachable = reconnectIfNeeded(group.db) {
                group.failures = group.failures.map { _ in unreachable }
                if let earlier = committing {
                    committing = nil
                    var earlier = earlier
                    confirm(&earlier)
                }
                finish(group)
                continue
            }
            use(group.db)
            // The earlier group's answer is read while this group's first flight is on the server: confirmed, its
            // callers hear at once; one that lost its COMMIT runs again once this group's COMMIT is sent (so neither
            // waits for the other's locks while the writer waits for it).
            var lost: (group: Group, error: any Error)?
            if let earlier = committing {
                committing = nil
                group.db.beforeWait = { [self] in
                    do {
                        try earlier.db.confirmCommit()
                        finish(earlier)
                    } catch {
                        if earlier.db.inTransaction { _ = try? earlier.db.execute("ROLLBACK") }
                        lost = (earlier, error)
                    }
                }
            }
            let sent = attempt(&group, deferCommit: databases.value.count > 1)
            if let hook = group.db.beforeWait {  // the group never waited: it read nothing
                group.db.beforeWait = nil
                hook()
            }
            if let (group, error) = lost {
                var earlier = group
                use(earlier.db)
                if retry(&earlier, after: error) { _ = attempt(&earlier, deferCommit: false) }
                finish(earlier)
            }
            if sent { committing = group } else { finish(group) }
        }
    }

    private func use(_ db: Database) {
        guard db !== current else { return }
        current = db
        adopt(db)
    }

    /// Opens the connection again when it broke, or was opened before an outage (so may be broken without knowing
    /// it); the error when the database cannot be reached (the backoff may refuse at once), nil when it is usable.
    private func reconnectIfNeeded(_ db: Database) -> DatabaseError? {
        if db.isBroken { health.lost() }
        let outages = health.outages.load(ordering: .relaxed)
        guard db.isBroken || db.epoch != outages else { return nil }
        do {
            try health.open(again: true) { () throws(DatabaseError) in try db.reconnect() }
            db.epoch = outages
            return nil
        } catch {
            return error
        }
    }

    /// How many times a group runs when it loses a race with another instance (a deadlock, a serialization
    /// failure) before its callers are told the site is busy.
    static let attempts = 4

    /// Runs a group up to its COMMIT, again after a lost race: with `deferCommit`, the COMMIT is sent and not waited
    /// for (true; `confirm` reads it), else committed here (false).
    private func attempt(_ group: inout Group, deferCommit: Bool) -> Bool {
        let db = group.db
        while true {
            do {
                try run(group.batch, db, &group.failures, deferCommit: deferCommit)
                return deferCommit
            } catch is Replay {
                if db.inTransaction { _ = try? db.execute("ROLLBACK") }
            } catch {
                if db.inTransaction { _ = try? db.execute("ROLLBACK") }
                guard retry(&group, after: error) else { return false }
            }
        }
    }

    /// Fails the group's jobs with `error`; true if the group lost a race and may run again (after a pause), or
    /// lost its connection before its COMMIT was sent (nothing of it was committed: it runs again, whole, on a new
    /// connection). A connection lost after the COMMIT was sent leaves the outcome unknown (08007): reported to
    /// the callers (503), never run again, since it may have committed.
    private func retry(_ group: inout Group, after error: any Error) -> Bool {
        let known = error as? DatabaseError
        let contention = known?.isContention == true
        let lost = known.map { $0.connectionLost && !$0.outcomeUnknown } ?? false
        for i in group.failures.indices where group.failures[i] == nil || contention || lost {
            group.failures[i] = error
        }
        guard contention || lost, group.attempt < Self.attempts else { return false }
        if lost, let unreachable = reconnectIfNeeded(group.db) {
            group.failures = group.failures.map { _ in unreachable }
            return false
        }
        group.attempt += 1
        retries.wrappingAdd(1, ordering: .relaxed)
        if lost {
            group.failures = Array(repeating: nil, count: group.batch.count)
            return true
        }
        // The other side holds its locks until it commits: let it, and do not meet it in step again.
        usleep(UInt32.random(in: 200...2_000) * UInt32(group.attempt))
        group.failures = Array(repeating: nil, count: group.batch.count)
        return true
    }

    /// Reads the answer to a group's COMMIT sent earlier (a lost race runs the group again), then answers its callers.
    private func confirm(_ group: inout Group) {
        do {
            try group.db.confirmCommit()
        } catch {
            if group.db.inTransaction { _ = try? group.db.execute("ROLLBACK") }
            use(group.db)
            if retry(&group, after: error) { _ = attempt(&group, deferCommit: false) }
        }
        finish(group)
    }

    /// Counts the group and tells its callers.
    private func finish(_ group: Group) {
        roundTrips.store(databases.value.reduce(0) { $0 + $1.roundTrips }, ordering: .relaxed)
        var ended = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ended)
        commitDurations.observe(
            Double(ended.tv_sec - group.started.tv_sec) + Double(ended.tv_nsec - group.started.tv_nsec) / 1e9)
        batchSizes.observe(Double(group.batch.count))
        transactions.wrappingAdd(group.batch.count, ordering: .relaxed)
        commits.wrappingAdd(1, ordering: .relaxed)
        // Each event loop answering these callers is woken once, after the last (not preempting the writer mid-way).
        WakeBatch.run { for (job, failure) in zip(group.batch, group.failures) { job.done(failure) } }
    }

    private struct Statement: Hashable {
        let sql: String
        let values: [SQLValue]
    }

    /// A job failed inside a group without savepoints: the group rolls back and runs again without it.
    private struct Replay: Error {}

    /// One attempt at a group, then COMMIT. On SQLite each job runs in its own savepoint and one that fails rolls
    /// back alone. On PostgreSQL savepoints would be two more statements a job; instead a job that fails (its error
    /// may come back inside a later job, naming the job whose sent statement failed) rolls the group back, and the
    /// group runs again without it: failures are rare, statements are not. Throws when the whole group fails (the
    /// COMMIT, a lost race, a lost connection).
    private func run(
        _ batch: [Job], _ db: Database, _ failures: inout [(any Error)?], deferCommit: Bool
    ) throws {
        let savepoints = db.dialect == .sqlite
        db.job = 0
        try db.beginGroup()
        defer { db.clearPrefetched() }
        var i = 0
        var prefetched = savepoints  // SQLite reads in process: nothing to gain
        while true {
            do {
                if !prefetched {
                    prefetched = true
                    // A statement once per group: a later job's repeat runs live, after the earlier job's writes.
                    // (Keyed by value: a key made by interpolating the values took a third of the writer's time.)
                    var seen = Set<Statement>()
                    var statements: [(sql: String, values: [SQLValue], job: Int)] = []
                    for (k, job) in batch.enumerated() where failures[k] == nil {
                        for (sql, values) in job.prefetch
                        where seen.insert(Statement(sql: sql, values: values)).inserted {
                            statements.append((sql, values, k))
                        }
                    }
                    try db.prefetch(statements)
                }
                if i == batch.count {
                    db.job = i
                    if commitDelay > 0 { usleep(UInt32(commitDelay * 1_000_000)) }
                    if deferCommit { _ = try db.sendCommit() } else { try db.execute("COMMIT") }
                    return
                }
                if failures[i] != nil {  // failed in an earlier run of this group
                    i += 1
                    continue
                }
                db.job = i
                if savepoints { try db.send("SAVEPOINT job") }
                try batch[i].work(db)
                if savepoints { try db.send("RELEASE job") }
                i += 1
            } catch {
                let known = error as? DatabaseError
                if known?.isContention == true || known?.connectionLost == true { throw error }
                let failed = known?.job ?? i  // a job's own, an earlier one's sent statement, or a prefetch
                guard failed < batch.count, failures[failed] == nil else { throw error }  // the COMMIT itself
                failures[failed] = error
                guard savepoints else { throw Replay() }
                if db.inTransaction {
                    try db.execute("ROLLBACK TO job")
                    try db.send("RELEASE job")
                } else {
                    // SQLite ended the whole transaction (a full disk, say): the earlier jobs are lost too.
                    for k in 0..<failed where failures[k] == nil { failures[k] = error }
                    try db.beginGroup()
                }
                i = failed + 1
            }
        }
    }
}

/// One caller's transaction and result, handed between the caller and the writer's thread.
private final class Answer<T>: @unchecked Sendable {
    private let condition = Condition()
    private var body: ((Database) throws -> T)?
    private var result: Result<T, any Error>?
    private var finished = false

    init(_ body: @escaping (Database) throws -> T) { self.body = body }

    /// May run more than once: the writer runs a job again when its group is retried.
    func run(_ db: Database) throws {
        guard let body = condition.withLock({ self.body }) else { return }
        let value = try body(db)
        condition.withLock { result = .success(value) }
    }

    func finish(_ error: (any Error)?) {
        condition.withLock {
            if let error { result = .failure(error) }
            body = nil
            finished = true
            condition.broadcast()
        }
    }

    func wait() throws -> T {
        let outcome = condition.withLock {
            while !finished { condition.wait() }
            return result
        }
        guard let outcome else { throw DatabaseError("the transaction was not run") }
        return try outcome.get()
    }
}

/// A value moved to another thread while its owner waits (or never touches it again).
struct UnsafeTransfer<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
