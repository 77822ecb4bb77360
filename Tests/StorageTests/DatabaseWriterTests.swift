import Storage
import Synchronization
import TestSupport
import Testing

@Suite("The database writer: group commit")
struct DatabaseWriterTests {
    let scratch = ScratchDirectory()

    func pool(_ engine: Engine, commitDelay: Double = 0) throws -> DatabasePool {
        let pool = DatabasePool(
            location: try TestDatabase.fresh(engine, in: scratch, name: "w"), commitDelay: commitDelay)
        try Database(location: pool.location).migrate(StorageTests.schema)
        return pool
    }

    struct Refused: Error {}

    /// 40 writers at once on a slow disk: every write is committed, in far fewer flushes than writes.
    @Test(arguments: Engine.allCases) func concurrentWritesShareCommits(_ engine: Engine) throws {
        let pool = try pool(engine, commitDelay: 0.05)
        defer { pool.close() }
        let failures = Atomic<Int>(0)
        concurrently(40) { i in
            do {
                _ = try pool.write { db in
                    try db.execute("INSERT INTO players VALUES (?, ?)", [.text("p\(i)"), .integer(Int64(i))])
                }
            } catch {
                failures.wrappingAdd(1, ordering: .relaxed)
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        // Acknowledged means committed: a fresh connection sees every row.
        #expect(try Database(location: pool.location).first("SELECT COUNT(*) AS n FROM players")?.int("n") == 40)
        let writer = try pool.writer()
        #expect(writer.transactions.load(ordering: .relaxed) == 40)
        #expect(writer.commits.load(ordering: .relaxed) < 20, "transactions waiting together share one flush")
        #expect(writer.commits.load(ordering: .relaxed) >= 1, "the writes were committed, not merely counted")
    }

    /// A transaction that throws (a broken constraint, a stale turn) rolls back alone; the batch commits.
    @Test(arguments: Engine.allCases) func aFailingTransactionLeavesTheOthersCommitted(_ engine: Engine) throws {
        let pool = try pool(engine, commitDelay: 0.2)
        defer { pool.close() }
        let writer = try pool.writer()
        let results = Mutex<[Int: Bool]>([:])
        let gate = Atomic<Int>(0)
        // The first job holds the writer until the other three are queued, so all four share a batch.
        writer.submit(
            { db in
                try db.execute("INSERT INTO players VALUES ('first', 0)")
                while gate.load(ordering: .acquiring) < 3 { sleep(seconds: 0.001) }
            }, done: { error in results.withLock { $0[0] = error == nil } })
        for (i, sql) in [
            (1, "INSERT INTO players VALUES ('second', 1)"),
            (2, "INSERT INTO notes VALUES ('nobody', 'x', 0, NULL)"),  // foreign key: fails
            (3, "INSERT INTO players VALUES ('third', 3)"),
        ] {
            writer.submit(
                { db in
                    try db.execute(sql)
                    if i == 2 { throw Refused() }
                }, done: { error in results.withLock { $0[i] = error == nil } })
            gate.wrappingAdd(1, ordering: .releasing)
        }
        try pool.write { _ in }  // queued behind them: returns once they are settled
        #expect(results.withLock { $0 } == [0: true, 1: true, 2: false, 3: true])
        let rows = try Database(location: pool.location).query("SELECT id FROM players ORDER BY first_seen").compactMap
        { $0.string("id") }
        #expect(rows == ["first", "second", "third"])
        #expect(try Database(location: pool.location).first("SELECT COUNT(*) AS n FROM notes")?.int("n") == 0)
    }

    /// Inside a transaction, the pool's connection is the writer's, so a request reads its own writes. (A write
    /// inside a write is a mistake that traps in debug builds: one audit path, inside the caller's transaction.)
    @Test(arguments: Engine.allCases) func aTransactionReadsItsOwnWrites(_ engine: Engine) throws {
        let pool = try pool(engine)
        defer { pool.close() }
        let seen = try pool.write { db -> Int in
            try db.execute("INSERT INTO players VALUES ('me', 1)")
            return try pool.connection().first("SELECT COUNT(*) AS n FROM players")?.int("n") ?? -1
        }
        #expect(seen == 1)
        #expect(throws: Refused.self) {
            try pool.write { db in
                try db.execute("INSERT INTO players VALUES ('gone', 3)")
                throw Refused()
            }
        }
        #expect(try pool.connection().first("SELECT COUNT(*) AS n FROM players WHERE id = 'gone'")?.int("n") == 0)
    }

    /// A read sees one snapshot: a write committed between its two SELECTs is seen after it, not within it (issue
    /// 42: a page reading twice could show half of a change).
    @Test(arguments: Engine.allCases) func aReadSeesOneSnapshot(_ engine: Engine) throws {
        let pool = try pool(engine)
        defer { pool.close() }
        try pool.write { db in try db.execute("INSERT INTO players VALUES ('a', 1)") }
        let count = "SELECT COUNT(*) AS n FROM players"
        let (before, during) = try pool.read { db in
            let before = try db.first(count)?.int("n")
            try pool.write { db in try db.execute("INSERT INTO players VALUES ('b', 2)") }
            // Nested, and through the thread's connection as a store reads: the same snapshot.
            let during = try pool.read { _ in try pool.connection().first(count)?.int("n") }
            return (before, during)
        }
        #expect(before == 1 && during == 1)
        #expect(try pool.connection().first(count)?.int("n") == 2, "committed, and seen once the read ends")
        #expect(!(try pool.connection().inTransaction))
    }

    @Test(arguments: Engine.allCases) func stopCommitsWhatIsQueued(_ engine: Engine) throws {
        let pool = try pool(engine, commitDelay: 0.05)
        let committed = Atomic<Int>(0)
        for i in 0..<10 {
            pool.writeLater({ db in
                try db.execute("INSERT INTO players VALUES (?, ?)", [.text("q\(i)"), .integer(Int64(i))])
            })
        }
        try pool.writer().submit({ _ in }, done: { _ in committed.wrappingAdd(1, ordering: .relaxed) })
        pool.close()
        #expect(committed.load(ordering: .relaxed) == 1)
        #expect(try Database(location: pool.location).first("SELECT COUNT(*) AS n FROM players")?.int("n") == 10)
    }
}
