import TestSupport
import Testing

@testable import Storage

#if canImport(Glibc)
import Glibc
#endif

@Suite("Storage, on both engines")
struct StorageTests {
    let scratch = ScratchDirectory()
    func scratchPath(_ name: String) -> String { scratch.path + "/" + name }

    static let schema = [
        Migration(1, "CREATE TABLE players (id TEXT PRIMARY KEY, first_seen INTEGER NOT NULL);"),
        Migration(
            2,
            """
            CREATE TABLE notes (player TEXT NOT NULL REFERENCES players(id), body TEXT, score REAL, data BLOB);
            CREATE TABLE counters (id INTEGER PRIMARY KEY, label TEXT NOT NULL);
            """),
    ]

    @Test(arguments: Engine.allCases) func migrationsRunOnceAndRowsAreTyped(_ engine: Engine) throws {
        let db = try Database(location: TestDatabase.fresh(engine, in: scratch))
        try db.migrate(Self.schema)
        try db.migrate(Self.schema)  // again: nothing to do
        #expect(try db.schemaVersion == 2)
        try db.execute("INSERT INTO players VALUES (?, ?)", ["p1", 42])
        try db.execute("INSERT INTO players VALUES (?, ?)", ["p'2", .integer(Int64.max)])
        let bytes: [UInt8] = [0, 1, 2, 0x5C, 0x78, 255]
        try db.execute(
            "INSERT INTO notes VALUES (?, ?, ?, ?)", ["p1", "héllo 'quoted' ? $1", .real(1.5), .blob(bytes)])
        try db.execute("INSERT INTO notes VALUES (?, ?, ?, ?)", ["p'2", .null, .real(-0.1), .blob([])])
        let row = try #require(try db.first("SELECT * FROM notes WHERE player = ?", ["p1"]))
        #expect(row.string("body") == "héllo 'quoted' ? $1")
        #expect(row.double("score") == 1.5)
        #expect(row.blob("data") == bytes)
        #expect(row.int("missing") == nil)
        let other = try #require(
            try db.first("SELECT n.*, p.first_seen FROM notes n JOIN players p ON p.id = n.player WHERE p.id = 'p''2'"))
        #expect(other["body"] == .null)
        #expect(other.double("score") == -0.1)
        #expect(other.blob("data") == [])
        #expect(other.int("first_seen") == Int(Int64.max))
        // Aggregates read as numbers in both engines.
        let sums = try #require(
            try db.first("SELECT COUNT(*) AS n, SUM(first_seen - 42) AS s, MAX(first_seen) AS m FROM players"))
        #expect(sums.int("n") == 2)
        #expect(sums.int("s") == Int(Int64.max) - 42)
        #expect(sums.int("m") == Int(Int64.max))
        #expect(try db.execute("UPDATE players SET first_seen = first_seen WHERE id LIKE ?", ["p%"]) == 2)
        #expect(try db.insert("INSERT INTO counters (label) VALUES (?)", ["a"]) == 1)
        #expect(try db.insert("INSERT INTO counters (label) VALUES (?)", ["b"]) == 2)
        #expect(throws: DatabaseError.self) { try db.execute("INSERT INTO notes VALUES ('nobody', 'x', 0, NULL)") }
    }

    @Test(arguments: Engine.allCases) func typedReadsTrustTheSchemaAndNameWhatIsWrong(_ engine: Engine) throws {
        let db = try Database(location: TestDatabase.fresh(engine, in: scratch))
        try db.migrate(Self.schema)
        try db.execute("INSERT INTO players (id, first_seen) VALUES (?, ?)", ["p1", 42])
        try db.execute(
            "INSERT INTO notes (player, body, score, data) VALUES (?, ?, ?, ?)", ["p1", .null, .real(2.5), .blob([7])])
        let row = try #require(try db.first("SELECT player, body, score, data FROM notes"))
        #expect(try row.decode("player") == "p1")
        #expect(try row.decode("score") == 2.5)
        #expect(try row.decode("data") == [UInt8]([7]))
        #expect(try row.decodeIfPresent("body", as: String.self) == nil)
        // NULL where a value is required, a column the query did not select, a value of another type: each an error
        // that names the column and the query, never a default.
        let null = #expect(throws: DatabaseError.self) { try row.decode("body", as: String.self) }
        #expect(null?.message == "column body is NULL (in: SELECT player, body, score, data FROM notes)")
        let missing = #expect(throws: DatabaseError.self) { try row.decodeIfPresent("first_seen", as: Int.self) }
        #expect(missing?.message.hasPrefix("column first_seen is missing (in: SELECT player") == true)
        let wrong = #expect(throws: DatabaseError.self) { try row.decode("player", as: Int.self) }
        #expect(wrong?.message.hasPrefix("column player is not Int") == true)
        // Records and single values.
        struct Player: FetchableRecord {
            let id: String, firstSeen: Int
            init(row: Row) throws(DatabaseError) {
                id = try row.decode("id")
                firstSeen = try row.decode("first_seen")
            }
        }
        let players = try db.fetchAll(Player.self, "SELECT id, first_seen FROM players")
        #expect(players.map(\.id) == ["p1"] && players.map(\.firstSeen) == [42])
        #expect(try db.fetchOne(Player.self, "SELECT id, first_seen FROM players WHERE id = 'nobody'") == nil)
        let partial = #expect(throws: DatabaseError.self) { try db.fetchOne(Player.self, "SELECT id FROM players") }
        #expect(partial?.message.contains("first_seen is missing") == true)
        #expect(try db.scalar(Int.self, "SELECT COUNT(*) AS n FROM players") == 1)
        #expect(try db.value(Int.self, "SELECT first_seen FROM players WHERE id = 'nobody'") == nil)
        #expect(throws: DatabaseError.self) {
            try db.scalar(Int.self, "SELECT MAX(first_seen) AS m FROM players WHERE id = 'x'")
        }
    }

    @Test(arguments: Engine.allCases) func aFailedMigrationLeavesTheDatabaseUntouched(_ engine: Engine) throws {
        let db = try Database(location: TestDatabase.fresh(engine, in: scratch))
        try db.migrate([Self.schema[0]])
        let broken = [Self.schema[0], Migration(2, "CREATE TABLE half (x INTEGER);"), Migration(3, "THIS IS NOT SQL;")]
        do {
            try db.migrate(broken)
            Issue.record("a broken migration ran")
        } catch {
            #expect(error.message.contains("migration 3 failed"), "\(error)")
            #expect(error.message.contains("the database is unchanged"))
        }
        #expect(try db.schemaVersion == 1)
        #expect(throws: DatabaseError.self) { try db.query("SELECT * FROM half") }
    }

    @Test(arguments: Engine.allCases) func transactionsRollBackOnError(_ engine: Engine) throws {
        let db = try Database(location: TestDatabase.fresh(engine, in: scratch))
        try db.migrate(Self.schema)
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.execute("INSERT INTO players VALUES ('p2', 1)")
                throw Boom()
            }
        }
        #expect(try db.query("SELECT * FROM players").isEmpty)
    }

    /// One leader among instances sharing a PostgreSQL database; a follower asks many times a second (its ticker,
    /// its housekeeping) on one connection it keeps, not a connection (a server backend) each time, and takes over
    /// once the leader is gone.
    @Test func aFollowerKeepsOneConnectionAndTakesOverWhenTheLeaderGoes() throws {
        let location = try TestDatabase.fresh(.postgresql, in: scratch)
        let leader = Leadership(location)
        let follower = Leadership(location)
        #expect(leader.held())
        for _ in 0..<10 { #expect(!follower.held()) }
        #expect(follower.connectionsOpened.load(ordering: .relaxed) == 1)
        #expect(leader.held())
        leader.resign()
        // The lock goes when the server has ended the leader's backend, a moment after the connection closed (longer
        // on a loaded machine): the follower keeps asking, as its ticker does.
        let deadline = ContinuousClock.now + .seconds(10)
        while !follower.held() && ContinuousClock.now < deadline { usleep(50_000) }
        #expect(follower.held())
        #expect(!leader.held())
        #expect(follower.connectionsOpened.load(ordering: .relaxed) == 1)
        #expect(Leadership(.sqlite(scratchPath("one.sqlite"))).held())  // one instance: always the leader
    }

    @Test func corruptOrUnwritableFilesFailClearly() throws {
        let path = scratchPath("corrupt.sqlite")
        let fd = open(path, O_WRONLY | O_CREAT, 0o644)
        _ = write(fd, String(repeating: "not a database ", count: 300), 300 * 15)
        close(fd)
        do {
            _ = try Database(path: path)
            Issue.record("opened a corrupt file")
        } catch {
            #expect(error.message.contains("not a database"), "\(error)")
            #expect(error.message.contains(path))
        }
        #expect(throws: DatabaseError.self) { _ = try Database(path: "/proc/arcade-cannot-write/x.sqlite") }
    }

    @Test(arguments: Engine.allCases) func eachThreadGetsItsOwnConnection(_ engine: Engine) throws {
        let pool = DatabasePool(location: try TestDatabase.fresh(engine, in: scratch))
        let here = try pool.connection()
        #expect(try pool.connection() === here)
    }

    @Test func wrongLocationsAndUnreachableServersFailClearly() throws {
        #expect(throws: DatabaseError.self) { try DatabaseLocation(parsing: "mysql://x@y/z") }
        #expect(throws: DatabaseError.self) { try DatabaseLocation(parsing: "sqlite:") }
        #expect(try DatabaseLocation(parsing: "sqlite:/tmp/a.sqlite") == .sqlite("/tmp/a.sqlite"))
        #expect(try DatabaseLocation(parsing: "data/a.sqlite") == .sqlite("data/a.sqlite"))
        let url = "postgresql://arcade:s3cret@127.0.0.1:1/arcade?connect_timeout=2"
        #expect(
            try DatabaseLocation(parsing: url).description == "postgresql://arcade@127.0.0.1:1/arcade?connect_timeout=2"
        )
        do {
            _ = try Database(location: .postgresql(url))
            Issue.record("connected to a closed port")
        } catch {
            #expect(error.message.hasPrefix("cannot connect to postgresql://arcade@127.0.0.1:1/arcade"), "\(error)")
            #expect(!error.message.contains("s3cret"))
        }
    }

    /// A password reaches libpq in several forms; each is hidden in every message, the connection's refusal included.
    @Test(arguments: [
        ("postgresql://arcade:pa?ss@127.0.0.1:1/arcade?connect_timeout=2", "pa?ss"),
        ("postgresql://arcade:s3%3Fcr/t@127.0.0.1:1/arcade?connect_timeout=2", "s3%3Fcr/t"),
        ("postgresql://arcade@127.0.0.1:1/arcade?connect_timeout=2&password=s3cret", "s3cret"),
        ("postgres://127.0.0.1:1/arcade?password=s3cret&connect_timeout=2", "s3cret"),
    ])
    func passwordsAreHiddenInEveryForm(_ url: String, _ password: String) throws {
        let location = try DatabaseLocation(parsing: url)
        #expect(!location.description.contains(password), "\(location.description)")
        #expect(location.description.contains("127.0.0.1:1/arcade"))
        do {
            _ = try Database(location: location)
            Issue.record("connected to a closed port")
        } catch {
            #expect(error.message.hasPrefix("cannot connect to"), "\(error)")
            #expect(!error.message.contains(password), "\(error)")
            #expect(!error.message.contains("s3?cr/t"), "percent-decoded too: \(error)")
        }
        // Whatever else a message quotes: the password itself, or key/value text as libpq's conninfo has it.
        #expect(!location.redact("libpq said: \(password)").contains(password))
        let keyValue = location.redact(#"host=db password='it\'s secret' user=arcade"#)
        #expect(keyValue == "host=db password=*** user=arcade", "\(keyValue)")
        #expect(location.redact("password = hunter2 dbname=x") == "password=*** dbname=x")
    }

    @Test func parametersAreNumberedOutsideQuotesAndSchemaIsTranslated() {
        let (sql, count) = SQLScanner("SELECT '?', \"a?\" FROM t WHERE x = ? -- why?\nAND y = ?").numberedParameters()
        #expect(sql == "SELECT '?', \"a?\" FROM t WHERE x = $1 -- why?\nAND y = $2")
        #expect(count == 2)
        #expect(
            SQLDialect.postgresql.schema(
                "CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, r REAL, b BLOB, s TEXT DEFAULT 'INTEGER')")
                == "CREATE TABLE t (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, n BIGINT, r DOUBLE PRECISION, b BYTEA, s TEXT DEFAULT 'INTEGER')"
        )
        #expect(
            SQLDialect.sqlite.schema("CREATE TABLE t (id INTEGER PRIMARY KEY)")
                == "CREATE TABLE t (id INTEGER PRIMARY KEY)")
    }
}
