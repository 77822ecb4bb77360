import Testing
import Storage
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite("SQLite storage")
struct StorageTests {
    let scratch = ScratchDirectory()
    func scratchPath(_ name: String) -> String { scratch.path + "/" + name }

    static let schema = [
        Migration(1, "CREATE TABLE players (id TEXT PRIMARY KEY, first_seen INTEGER NOT NULL);"),
        Migration(2, "CREATE TABLE notes (player TEXT NOT NULL REFERENCES players(id), body TEXT, score REAL, data BLOB);"),
    ]

    @Test func migrationsRunOnceAndRowsAreTyped() throws {
        let db = try Database(path: scratchPath("a.sqlite"))
        try db.migrate(Self.schema)
        try db.migrate(Self.schema)  // again: nothing to do
        #expect(try db.first("PRAGMA user_version")?.int("user_version") == 2)
        try db.execute("INSERT INTO players VALUES (?, ?)", ["p1", 42])
        try db.execute("INSERT INTO notes VALUES (?, ?, ?, ?)", ["p1", "héllo", .real(1.5), .blob([0, 1, 2])])
        let row = try #require(try db.first("SELECT * FROM notes"))
        #expect(row.string("body") == "héllo")
        #expect(row.double("score") == 1.5)
        #expect(row.blob("data") == [0, 1, 2])
        #expect(row.int("missing") == nil)
        #expect(throws: DatabaseError.self) { try db.execute("INSERT INTO notes VALUES ('nobody', 'x', 0, NULL)") }
    }

    @Test func aFailedMigrationLeavesTheDatabaseUntouched() throws {
        let path = scratchPath("b.sqlite")
        let db = try Database(path: path)
        try db.migrate([Self.schema[0]])
        let broken = [Self.schema[0], Migration(2, "CREATE TABLE half (x INTEGER);"), Migration(3, "THIS IS NOT SQL;")]
        #expect(throws: DatabaseError.self) { try db.migrate(broken) }
        #expect(try db.first("PRAGMA user_version")?.int("user_version") == 1)
        #expect(try db.query("SELECT name FROM sqlite_master WHERE name = 'half'").isEmpty)
    }

    @Test func transactionsRollBackOnError() throws {
        let db = try Database(path: scratchPath("c.sqlite"))
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

    @Test func corruptOrUnwritableFilesFailClearly() throws {
        let path = scratchPath("corrupt.sqlite")
        let fd = open(path, O_WRONLY | O_CREAT, 0o644)
        _ = write(fd, String(repeating: "not a database ", count: 300), 300 * 15)
        close(fd)
        do { _ = try Database(path: path); Issue.record("opened a corrupt file") } catch {
            #expect(error.message.contains("not a database"), "\(error)")
            #expect(error.message.contains(path))
        }
        #expect(throws: DatabaseError.self) { _ = try Database(path: "/proc/arcade-cannot-write/x.sqlite") }
    }

    @Test func eachThreadGetsItsOwnConnection() throws {
        let pool = DatabasePool(path: scratchPath("d.sqlite"))
        let here = try pool.connection()
        #expect(try pool.connection() === here)
    }
}
