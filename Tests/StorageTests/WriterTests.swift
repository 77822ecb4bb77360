import Synchronization
import TestSupport
import Testing
import Threads

@testable import Storage

#if canImport(Glibc)
import Glibc
#endif

/// The writer's groups: pipelined on PostgreSQL, no global lock, a lost race retried.
@Suite("Database writer")
struct WriterTests {
    let scratch = ScratchDirectory()

    static let schema = [
        Migration(
            1,
            """
            CREATE TABLE players (id TEXT PRIMARY KEY, turns INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE marks (player TEXT NOT NULL, task TEXT NOT NULL, UNIQUE (player, task));
            """)
    ]

    func pool(_ engine: Engine) throws -> DatabasePool {
        let location = try TestDatabase.fresh(engine, in: scratch)
        let db = try Database(location: location)
        try db.migrate(Self.schema)
        try db.executeScript("INSERT INTO players (id) VALUES ('a'); INSERT INTO players (id) VALUES ('b')")
        return DatabasePool(location: location)
    }

    /// Results of jobs submitted together, by index, once all are done.
    final class Outcomes: Sendable {
        let results = Mutex<[Int: String]>([:])
        func record(_ i: Int, _ error: (any Error)?) { results.withLock { $0[i] = error.map { "\($0)" } ?? "ok" } }
        func wait(for count: Int) -> [Int: String] {
            for _ in 0..<2_000 {
                let done = results.withLock { $0 }
                if done.count == count { return done }
                usleep(5_000)
            }
            return results.withLock { $0 }
        }
    }

    /// A flag shared with jobs on the writer's thread.
    final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .relaxed) }
        func set() { value.store(true, ordering: .relaxed) }
        /// Sets it; true if it was set already.
        func exchange() -> Bool { value.exchange(true, ordering: .relaxed) }
    }

    final class Count: Sendable {
        let value = Atomic<Int>(0)
    }

    /// Holds the writer in a job until `release` is set, so the jobs queued meanwhile commit as one group.
    func hold(_ writer: DatabaseWriter, until release: Flag) {
        let started = Flag()
        writer.submit(
            { _ in
                started.set()
                while !release.isSet { usleep(1_000) }
            }, done: { _ in })
        while !started.isSet { usleep(1_000) }
    }

    /// A group of N jobs that each read once and send their writes costs N + 2 round trips: the reads, the last
    /// writes (waited for, with the COMMIT sent right behind them), and the COMMIT, whose answer is read while the
    /// next group runs; BEGIN and the writes travel with them.
    @Test func aGroupCostsOneRoundTripPerReadAndTwoToCommit() throws {
        let pool = try pool(.postgresql)
        defer { pool.close() }
        let writer = try pool.writer()
        let work: DatabaseWriter.Work = { db in
            try db.send("SELECT id FROM players WHERE id = ? FOR UPDATE", ["a"])
            let turns = try db.scalar(Int.self, "SELECT turns FROM players WHERE id = ?", ["a"])
            try db.send("UPDATE players SET turns = ? WHERE id = ?", [SQLValue(turns + 1), "a"])
            try db.send("INSERT INTO marks (player, task) VALUES (?, ?) ON CONFLICT DO NOTHING", ["a", "t"])
        }
        // Statements prepared once per connection, before counting: the writer's two, one group each.
        for _ in 0..<2 { try writer.perform { try work($0) } }
        let release = Flag()
        hold(writer, until: release)
        let jobs = 20
        let outcomes = Outcomes()
        for i in 0..<jobs { writer.submit(work, done: { outcomes.record(i, $0) }) }
        let trips = writer.roundTrips.load(ordering: .relaxed)
        let commits = writer.commits.load(ordering: .relaxed)
        release.set()
        #expect(outcomes.wait(for: jobs).values.allSatisfy { $0 == "ok" })
        #expect(writer.commits.load(ordering: .relaxed) == commits + 2, "the held job's group, then the 20 in one")
        // The held group: BEGIN, then its COMMIT. The 20: a read each, their last writes, their COMMIT.
        #expect(writer.roundTrips.load(ordering: .relaxed) - trips == 2 + jobs + 2)
        let db = try Database(location: pool.location)
        #expect(try db.scalar(Int.self, "SELECT turns FROM players WHERE id = 'a'") == jobs + 2)
    }

    /// Jobs that say what they begin with (a row lock, a read) have it read ahead for the whole group in one flight:
    /// three round trips a group, however many jobs (the read-ahead, the writes, the COMMIT). A second job on the same row reads it live, after the first's write.
    @Test func aPrefetchingGroupCostsThreeRoundTrips() throws {
        let pool = try pool(.postgresql)
        defer { pool.close() }
        let writer = try pool.writer()
        let read = "SELECT turns FROM players WHERE id = ?"
        func submit(_ player: String, _ outcomes: Outcomes, _ i: Int) {
            let prefetch: [(sql: String, values: [SQLValue])] = [
                ("SELECT id FROM players WHERE id = ? FOR UPDATE", [.text(player)]), (read, [.text(player)]),
            ]
            writer.submit(
                { db in
                    let turns = try db.scalar(Int.self, read, [.text(player)])
                    try db.send("UPDATE players SET turns = ? WHERE id = ?", [SQLValue(turns + 1), .text(player)])
                }, prefetch: prefetch, done: { outcomes.record(i, $0) })
        }
        for _ in 0..<2 {  // statements prepared once per connection (the writer's two), before counting
            let warm = Outcomes()
            submit("a", warm, 0)
            _ = warm.wait(for: 1)
        }
        let release = Flag()
        hold(writer, until: release)
        let jobs = 20
        let outcomes = Outcomes()
        for i in 0..<jobs { submit(i % 4 == 0 ? "b" : "a", outcomes, i) }
        let trips = writer.roundTrips.load(ordering: .relaxed)
        release.set()
        #expect(outcomes.wait(for: jobs).values.allSatisfy { $0 == "ok" })
        // The held group's two, the prefetch, the reads of jobs that repeat a row already read, the writes, the COMMIT.
        #expect(writer.roundTrips.load(ordering: .relaxed) - trips == 2 + 1 + (jobs - 2) + 1 + 1)
        let db = try Database(location: pool.location)
        #expect(try db.scalar(Int.self, "SELECT turns FROM players WHERE id = 'a'") == 2 + 15)
        #expect(try db.scalar(Int.self, "SELECT turns FROM players WHERE id = 'b'") == 5)
    }

    /// While a group's COMMIT waits on the server (here a deferred trigger sleeps, as a slow WAL flush would), the
    /// next group runs on the writer's other connection: a player the first holds waits for its commit and sees it,
    /// another does not wait, and callers still hear in the order the groups ran.
    @Test func theNextGroupRunsWhileAGroupsCommitIsFlushed() throws {
        let pool = try pool(.postgresql)
        defer { pool.close() }
        try Database(location: pool.location).executeScript(
            """
            CREATE TABLE slow (id INTEGER);
            CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN PERFORM pg_sleep(0.5); RETURN NULL; END $$;
            CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON slow DEFERRABLE INITIALLY DEFERRED
                FOR EACH ROW EXECUTE FUNCTION slow_commit();
            """)
        let writer = try pool.writer()
        let started = Flag()
        let release = Flag()
        let secondRan = Flag()
        let order = Mutex<[String]>([])
        let seen = Mutex<[String: Int]>([:])
        let outcomes = Outcomes()
        writer.submit(
            { db in
                started.set()
                while !release.isSet { usleep(1_000) }
                try db.send("SELECT id FROM players WHERE id = 'a' FOR UPDATE")
                try db.send("UPDATE players SET turns = turns + 1 WHERE id = 'a'")
                try db.send("INSERT INTO slow (id) VALUES (1)")
            },
            done: { error in
                order.withLock { $0.append(secondRan.isSet ? "first, after the second ran" : "first") }
                outcomes.record(0, error)
            })
        while !started.isSet { usleep(1_000) }
        for (i, player) in [(1, "b"), (2, "a")] {
            writer.submit(
                { db in
                    secondRan.set()
                    try db.send("SELECT id FROM players WHERE id = ? FOR UPDATE", [.text(player)])
                    let turns = try db.scalar(Int.self, "SELECT turns FROM players WHERE id = ?", [.text(player)])
                    seen.withLock { $0[player] = turns }
                    try db.send("UPDATE players SET turns = turns + 10 WHERE id = ?", [.text(player)])
                },
                done: { error in
                    order.withLock { $0.append("second") }
                    outcomes.record(i, error)
                })
        }
        release.set()
        #expect(outcomes.wait(for: 3) == [0: "ok", 1: "ok", 2: "ok"])
        #expect(order.withLock { $0 } == ["first, after the second ran", "second", "second"])
        #expect(seen.withLock { $0 } == ["a": 1, "b": 0], "a's lock waited for the first group's commit")
        let db = try Database(location: pool.location)
        #expect(try db.scalar(Int.self, "SELECT turns FROM players WHERE id = 'a'") == 11)
    }

    /// A sent statement that fails is reported inside a later job; the job that sent it rolls back alone, and the
    /// jobs after it run again on what the group has written.
    @Test(arguments: Engine.allCases) func aFailedSentStatementFailsOnlyItsOwnJob(_ engine: Engine) throws {
        let pool = try pool(engine)
        defer { pool.close() }
        let writer = try pool.writer()
        let release = Flag()
        hold(writer, until: release)
        let outcomes = Outcomes()
        let runs = Count()
        writer.submit({ db in try db.send("UPDATE players SET turns = turns + 1 WHERE id = 'a'") }) {
            outcomes.record(0, $0)
        }
        // The player that does not exist breaks NOT NULL: known only when the next job reads.
        writer.submit({ db in
            try db.send("UPDATE players SET turns = turns + 10 WHERE id = 'a'")
            try db.send("INSERT INTO marks (player, task) VALUES (NULL, 'x')")
        }) { outcomes.record(1, $0) }
        writer.submit({ db in
            runs.value.add(1, ordering: .relaxed)
            let turns = try db.scalar(Int.self, "SELECT turns FROM players WHERE id = 'a'")
            try db.send("INSERT INTO marks (player, task) VALUES ('a', ?)", [.text("seen \(turns)")])
        }) { outcomes.record(2, $0) }
        release.set()
        let results = outcomes.wait(for: 3)
        #expect(results[0] == "ok")
        #expect(results[1]?.lowercased().contains("null") == true, "\(results)")
        #expect(results[2] == "ok")
        let db = try Database(location: pool.location)
        #expect(try db.scalar(Int.self, "SELECT turns FROM players WHERE id = 'a'") == 1)
        #expect(try db.query("SELECT task FROM marks").map { try $0.decode("task", as: String.self) } == ["seen 1"])
        if engine == .postgresql {
            #expect(runs.value.load(ordering: .relaxed) == 2, "run again after job 1's rollback")
        }
    }

    /// Two instances' writers: while one holds player a's row in an open group, the other commits for player b.
    @Test func instancesWritingForDifferentPlayersDoNotWait() throws {
        let first = try pool(.postgresql)
        defer { first.close() }
        let second = DatabasePool(location: first.location)
        defer { second.close() }
        let holding = Flag()
        let release = Flag()
        let outcomes = Outcomes()
        try first.writer().submit({ db in
            try db.execute("UPDATE players SET turns = turns + 1 WHERE id = 'a'")
            holding.set()
            while !release.isSet { usleep(1_000) }
        }) { outcomes.record(0, $0) }
        while !holding.isSet { usleep(1_000) }
        // A global write lock would hold this until the first group commits, which waits for it.
        try second.writer().submit({ db in try db.execute("UPDATE players SET turns = turns + 1 WHERE id = 'b'") }) {
            outcomes.record(1, $0)
        }
        var waited = 0
        while outcomes.results.withLock({ $0[1] }) == nil && waited < 500 {
            usleep(10_000)
            waited += 1
        }
        let beforeRelease = outcomes.results.withLock { $0 }
        release.set()
        #expect(beforeRelease == [1: "ok"], "player b's write committed while player a's group was open")
        #expect(outcomes.wait(for: 2) == [0: "ok", 1: "ok"])
    }

    /// Each instance locks one player's row, then wants the other's: PostgreSQL breaks the deadlock by failing one
    /// side, whose writer rolls the group back and runs it again once the other has committed. Both succeed.
    @Test func aDeadlockBetweenTwoInstancesIsRetriedAndBothSucceed() throws {
        let first = try pool(.postgresql)
        defer { first.close() }
        let second = DatabasePool(location: first.location)
        defer { second.close() }
        let locked = [Flag(), Flag()]
        let outcomes = Outcomes()
        for (side, pool) in [first, second].enumerated() {
            let mine: SQLValue = side == 0 ? "a" : "b"
            let theirs: SQLValue = side == 0 ? "b" : "a"
            try pool.writer().submit({ db in
                try db.execute("UPDATE players SET turns = turns + 1 WHERE id = ?", [mine])
                // Only the first run waits for the other side: a retried group goes straight on.
                if !locked[side].exchange() {
                    for _ in 0..<1_000 where !locked[1 - side].isSet { usleep(2_000) }
                }
                try db.execute("UPDATE players SET turns = turns + 1 WHERE id = ?", [theirs])
            }) { outcomes.record(side, $0) }
        }
        let results = outcomes.wait(for: 2)
        #expect(results == [0: "ok", 1: "ok"])
        let retries =
            try first.writer().retries.load(ordering: .relaxed) + second.writer().retries.load(ordering: .relaxed)
        #expect(retries >= 1, "one side lost the race and ran again")
        let db = try Database(location: first.location)
        #expect(try db.scalar(Int.self, "SELECT SUM(turns) AS n FROM players") == 4)
    }

    /// Writes handed over in one wake batch (as an event loop hands over a turn's) reach an idle writer as one group:
    /// it is woken at the batch's end, not by the first write, which it used to commit alone while the loop waited.
    @Test(arguments: Engine.allCases) func writesHandedOverInOneTurnCommitAsOneGroup(_ engine: Engine) throws {
        let pool = try pool(engine)
        defer { pool.close() }
        let writer = try pool.writer()
        try writer.perform { db in try db.send("UPDATE players SET turns = 0 WHERE id = 'a'") }
        let jobs = 8
        for round in 0..<5 {
            while !writer.isAsleep { usleep(500) }
            let commits = writer.commits.load(ordering: .relaxed)
            let outcomes = Outcomes()
            WakeBatch.run {
                for i in 0..<jobs {
                    writer.submit(
                        { db in try db.send("UPDATE players SET turns = turns + 1 WHERE id = 'a'") },
                        done: { outcomes.record(i, $0) })
                    usleep(300)  // the rest of the turn: other requests read and answered
                }
            }
            #expect(outcomes.wait(for: jobs).values.allSatisfy { $0 == "ok" })
            #expect(writer.commits.load(ordering: .relaxed) == commits + 1, "round \(round): one group")
        }
        let db = try Database(location: pool.location)
        #expect(try db.scalar(Int.self, "SELECT turns FROM players WHERE id = 'a'") == 5 * jobs)
    }

    /// A write asked on an event loop is refused in every build, nothing run, where it would stall the loop for a
    /// commit's flush (and, on PostgreSQL, a read: a network round trip); the same write off the loop commits.
    @Test(arguments: Engine.allCases) func anEventLoopIsRefusedAWrite(_ engine: Engine) throws {
        let pool = try pool(engine)
        defer { pool.close() }
        let outcome = Mutex<String>("not run")
        let readRefused = Mutex<String>("not asked")
        let ran = Flag()
        let loop = OSThread {
            ThreadRole.markEventLoop()
            do {
                _ = try pool.connection()
                readRefused.withLock { $0 = "read" }
            } catch {
                readRefused.withLock { $0 = "\(error)" }
            }
            do {
                try pool.write { db in
                    ran.set()
                    try db.execute("UPDATE players SET turns = 1 WHERE id = 'a'")
                }
                outcome.withLock { $0 = "written" }
            } catch {
                outcome.withLock { $0 = "\(error)" }
            }
        }
        loop.join()
        #expect(outcome.withLock { $0 } == DatabaseError.commitOnEventLoop.message && !ran.isSet)
        #expect(readRefused.withLock { $0 } == (engine == .postgresql ? DatabaseError.onEventLoop.message : "read"))
        let db = try Database(location: pool.location)
        #expect(try db.scalar(Int.self, "SELECT turns FROM players WHERE id = 'a'") == 0)
        try pool.write { db in try db.execute("UPDATE players SET turns = 1 WHERE id = 'a'") }
        #expect(try db.scalar(Int.self, "SELECT turns FROM players WHERE id = 'a'") == 1, "off the loop it commits")
    }

    /// Only the writer writes: a pool's reader connection refuses a write, nothing changed (a review: readers opened
    /// read-write, the rule was a convention); it still reads, and the writer still writes.
    @Test(arguments: Engine.allCases) func aPoolsReaderRefusesAWrite(_ engine: Engine) throws {
        let pool = try pool(engine)
        defer { pool.close() }
        let reader = try pool.connection()
        #expect(throws: DatabaseError.self) { try reader.execute("UPDATE players SET turns = 5 WHERE id = 'a'") }
        #expect(try reader.scalar(Int.self, "SELECT turns FROM players WHERE id = 'a'") == 0)
        try pool.write { db in try db.execute("UPDATE players SET turns = 1 WHERE id = 'a'") }
        #expect(try reader.scalar(Int.self, "SELECT turns FROM players WHERE id = 'a'") == 1)
    }
}
