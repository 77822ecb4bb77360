import NameGame
import Storage
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

@Suite("Typed rows: records that trust the schema, lists in their own tables")
struct TypedRowsTests {
    let scratch = ScratchDirectory()

    /// Migration 21 on a database that played before it: every comma-joined list becomes rows, in order, and the
    /// store reads the same sessions and rounds back.
    @Test(arguments: Engine.allCases) func theListMigrationMovesCommaJoinedLists(_ engine: Engine) throws {
        let location = try TestDatabase.fresh(engine, in: scratch)
        let db = try Database(location: location)
        try db.migrate(Schema.migrations.filter { $0.version <= 20 })
        try db.execute("INSERT INTO players (id, first_seen) VALUES ('pl', 1)")
        try db.execute(
            """
            INSERT INTO namegame_sessions (id, player, mode, started_ms, next_people, queue)
            VALUES (1, 'pl', 'review', 10, 'a,b,c', 'x,y'), (2, 'pl', 'normal', 20, NULL, ''),
                   (3, 'pl', 'hint', 30, '', NULL)
            """)
        try db.execute(
            """
            INSERT INTO namegame_rounds (id, session, player, mode, people, answer, hide_order, started_ms, wrong,
                                         status)
            VALUES (7, 1, 'pl', 'review', 'p0,p1,p2,p3', 2, '3,0,1', 100, '1,3', 'open'),
                   (8, 2, 'pl', 'normal', 'p4,p0', 0, '1', 200, '', 'identified')
            """)
        try db.migrate(Schema.migrations)

        let faces = try db.query(
            """
            SELECT round, position, person, hide_rank, wrong_rank FROM namegame_round_faces ORDER BY round, position
            """
        ).map { row throws in
            let hide = try row.decodeIfPresent("hide_rank", as: Int.self) ?? -1
            let wrong = try row.decodeIfPresent("wrong_rank", as: Int.self) ?? -1
            return "\(try row.decode("round", as: Int.self)):\(try row.decode("position", as: Int.self)):"
                + "\(try row.decode("person", as: String.self)):\(hide):\(wrong)"
        }
        #expect(faces == ["7:0:p0:1:-1", "7:1:p1:2:0", "7:2:p2:-1:-1", "7:3:p3:0:1", "8:0:p4:-1:-1", "8:1:p0:0:-1"])
        let lists = try db.query(
            "SELECT session, list, position, person FROM namegame_session_people ORDER BY session, list, position"
        )
        .map { row throws in
            "\(try row.decode("session", as: Int.self)):\(try row.decode("list", as: String.self)):"
                + "\(try row.decode("position", as: Int.self)):\(try row.decode("person", as: String.self))"
        }
        #expect(lists == ["1:next:0:a", "1:next:1:b", "1:next:2:c", "1:queue:0:x", "1:queue:1:y"])
        // The comma-joined columns are gone.
        #expect(throws: DatabaseError.self) { try db.query("SELECT people FROM namegame_rounds") }
        #expect(throws: DatabaseError.self) { try db.query("SELECT queue FROM namegame_sessions") }

        let store = NameGameStore(pool: DatabasePool(location: location))
        let people = Directory(
            people: ["p0", "p1", "p2", "p3", "p4"].map {
                Person(
                    id: $0, firstName: $0, lastName: "L", jobTitle: nil, headshotURL: "/headshots/\($0).jpg",
                    retired: false)
            })
        let session = try #require(try store.session(id: 1, player: "pl"))
        #expect(session.nextPeople == ["a", "b", "c"] && session.queue == ["x", "y"])
        let empty = try #require(try store.session(id: 2, player: "pl"))
        #expect(empty.nextPeople.isEmpty && empty.queue.isEmpty)
        let round = try #require(try store.round(id: 7, player: "pl", people: people))
        #expect(round.round.people.map(\.id) == ["p0", "p1", "p2", "p3"] && round.round.answer == 2)
        #expect(round.round.hideOrder == [3, 0, 1] && round.wrong == [1, 3] && round.isOpen)
        #expect(try store.misses(session: 1, people: people).map(\.id) == ["p2"])
        #expect(try store.popQueue(session: 1) == "x")
        #expect(try store.popQueue(session: 1) == "y")
        #expect(try store.popQueue(session: 1) == nil)
    }

    /// A record reads a `NOT NULL` column without a default: a row without it is an error naming the column.
    @Test(arguments: Engine.allCases) func aRecordMissingANotNullColumnNamesIt(_ engine: Engine) throws {
        let db = try Database(location: TestDatabase.fresh(engine, in: scratch))
        try db.migrate(Schema.migrations)
        try db.execute("INSERT INTO players (id, first_seen) VALUES ('pl', 1)")
        try db.execute(
            """
            INSERT INTO mastermind_games (player, secret, code_length, digit_min, digit_max, attempts, status, created)
            VALUES ('pl', '1234', 4, 0, 7, 10, 'playing', 5)
            """)
        let game = try #require(
            try db.fetchOne(
                MastermindStore.GameRow.self,
                "SELECT \(MastermindStore.GameRow.selection) FROM mastermind_games"))
        #expect(game.rules.length == 4 && game.status == "playing" && game.daily == nil && !game.hard)
        let columns = MastermindStore.GameRow.selection.replacing("code_length, ", with: "")
        let missing = #expect(throws: DatabaseError.self) {
            try db.fetchOne(MastermindStore.GameRow.self, "SELECT \(columns) FROM mastermind_games")
        }
        #expect(
            missing?.message.hasPrefix("column code_length is missing (in: SELECT id, player, secret,") == true,
            "\(missing?.message ?? "")")
        // NULL where the schema promises a value (selected as an expression, as no row can hold it).
        let null = #expect(throws: DatabaseError.self) {
            try db.fetchOne(
                MastermindStore.GameRow.self,
                "SELECT \(columns), CAST(NULL AS INTEGER) AS code_length FROM mastermind_games")
        }
        #expect(null?.message.hasPrefix("column code_length is NULL") == true, "\(null?.message ?? "")")
    }
}
