import JSON
import Storage
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

/// Two histories made one (a device that played signs in with a passkey): on both engines, every figure the merge
/// keeps is computed here from the rows each side had.
@Suite("Merging two players")
struct PlayerMergeTests {
    let scratch = ScratchDirectory()

    /// A game with `guesses` guesses (seconds for times).
    func game(
        _ db: Database, id: Int, player: String, status: String, guesses: Int, created: Int, finished: Int? = nil,
        daily: Int? = nil
    ) throws {
        try db.execute(
            """
            INSERT INTO mastermind_games (id, player, secret, code_length, digit_min, digit_max, attempts, status,
                created, finished, daily, played_day) VALUES (?, ?, '1234', 4, 1, 6, 10, ?, ?, ?, ?, ?)
            """,
            [
                SQLValue(id), .text(player), .text(status), SQLValue(created), finished.map { SQLValue($0) } ?? .null,
                daily.map { SQLValue($0) } ?? .null, daily.map { SQLValue($0) } ?? .null,
            ])
        for number in 0..<guesses {
            try db.execute(
                "INSERT INTO mastermind_guesses (game, number, guess, red, blue, gray, pegs) VALUES (?, ?, '1111', 1, 0, 3, '')",
                [SQLValue(id), SQLValue(number)])
        }
    }

    private func seed(_ db: Database) throws {
        try db.execute("INSERT INTO players (id, first_seen) VALUES ('pa', 100), ('pb', 200)")
        // This device (pa): a win in 3 and a loss, a game in play with a guess, today's daily won, tomorrow's begun.
        try game(db, id: 1, player: "pa", status: "won", guesses: 3, created: 110, finished: 120)
        try game(db, id: 2, player: "pa", status: "lost", guesses: 10, created: 130, finished: 300)
        try game(db, id: 3, player: "pa", status: "playing", guesses: 1, created: 500)
        try game(db, id: 4, player: "pa", status: "won", guesses: 2, created: 140, finished: 150, daily: 10)
        try game(db, id: 5, player: "pa", status: "playing", guesses: 1, created: 160, daily: 11)
        try db.execute(
            """
            INSERT INTO mastermind_totals (player, played, wins, hint_wins, hard_wins, streak, longest_streak)
            VALUES ('pa', 2, 1, 0, 0, 0, 3), ('pb', 1, 1, 0, 1, 1, 1)
            """)
        try db.execute(
            "INSERT INTO mastermind_wins_by_guesses (player, guesses, n) VALUES ('pa', 3, 1), ('pb', 4, 1), ('pb', 3, 2)"
        )
        // The passkey's player (pb): a win in 4 finished last, a board opened and left untouched, today's daily lost.
        try game(db, id: 11, player: "pb", status: "won", guesses: 4, created: 210, finished: 350)
        try game(db, id: 12, player: "pb", status: "playing", guesses: 0, created: 400)
        try game(db, id: 13, player: "pb", status: "lost", guesses: 10, created: 220, finished: 230, daily: 10)
        try db.execute(
            """
            INSERT INTO namegame_cards (player, person, state, step, stability, difficulty, due_ms, last_ms, reviews,
                lapses, met_ms)
            VALUES ('pa', 'p1', 'review', NULL, 9.0, 5.0, 9000, 1000, 4, 0, 50),
                   ('pa', 'p2', 'learning', 1, 1.0, 5.0, 900, 300, 1, 0, 20),
                   ('pb', 'p1', 'learning', 0, 0.5, 6.0, 600, 500, 2, 1, 10),
                   ('pb', 'p3', 'review', NULL, 3.0, 5.0, 7000, 700, 3, 0, 30)
            """)
        // A note on pb's p1, whose card gives way to pa's later one.
        try db.execute("UPDATE namegame_cards SET note = 'Climbs' WHERE player = 'pb' AND person = 'p1'")
        try db.execute(
            """
            INSERT INTO namegame_lifetime (player, mode, rounds, identified, correct, incorrect, identify_ms, streak,
                best_streak)
            VALUES ('pa', 'normal', 5, 4, 4, 1, 5000, 2, 3), ('pb', 'normal', 3, 3, 2, 1, 2000, 1, 5),
                   ('pa', 'hint', 2, 2, 2, 0, 900, 2, 2)
            """)
        try db.execute(
            """
            INSERT INTO once_marks (player, task, at_ms, times) VALUES ('pa', 'cheat.konami', 7, 1),
                ('pa', 'mastermind.played', 8, 2), ('pb', 'cheat.crt', 9, 1), ('pb', 'mastermind.played', 8, 1)
            """)
        try db.execute("INSERT INTO cheat_progress (player, progress) VALUES ('pa', '{}')")
        // Name Game sessions open in the same mode on both sides (the earlier ends), with a round.
        try db.execute(
            """
            INSERT INTO namegame_sessions (id, player, mode, started_ms) VALUES (1, 'pa', 'normal', 10),
                (2, 'pb', 'normal', 20), (3, 'pa', 'hint', 30)
            """)
        try db.execute(
            """
            INSERT INTO namegame_rounds (id, session, player, mode, answer, started_ms, status)
            VALUES (1, 1, 'pa', 'normal', 0, 11, 'identified'), (2, 2, 'pb', 'normal', 1, 21, 'open')
            """)
        try db.execute(
            "INSERT INTO once_todos (player, task, created_ms) VALUES ('pa', 'namegame.try', 1), ('pb', 'namegame.try', 2)"
        )
        try db.execute(
            "INSERT INTO once_versions (player, version, first_seen_ms) VALUES ('pa', '1', 5), ('pb', '1', 50)")
        try db.execute("INSERT INTO once_sessions (player, session, started_ms) VALUES ('pa', 's1', 5)")
        try db.execute(
            """
            INSERT INTO passkeys (id, player, public_key, sign_count, backed_up, created_ms)
            VALUES ('k1', 'pa', ?, 0, 0, 1)
            """, [.blob([1])])
        try db.execute("INSERT INTO player_merges (player, merged_from, at_ms, moved) VALUES ('pa', 'pz', 1, '{}')")
    }

    @Test(arguments: Engine.allCases) func bothHistoriesAreKeptAndCountedOnce(_ engine: Engine) throws {
        let pool = DatabasePool(location: try TestDatabase.fresh(engine, in: scratch))
        let db = try Database(location: pool.location)  // a connection of its own: the pool's readers refuse writes
        try db.migrate(Schema.migrations)
        try seed(db)

        let moved = try pool.write { db in try PlayerMerge.merge(from: "pa", into: "pb", now: 600_000, db) }
        #expect(moved.dailiesKept == 1 && moved.openGamesEnded == 1)
        #expect(PlayerMerge.status(moved) == "mergeddaily", "the page says a daily played on both kept one game")
        #expect(moved.cards == 2 && moved.marks == 2)

        #expect(try db.query("SELECT id FROM players").count == 1)
        #expect(try db.scalar(Int.self, "SELECT first_seen FROM players WHERE id = 'pb'") == 100)
        // Every game of both sides but the untouched board and the worse of the two dailies of day 10.
        let games = try db.query("SELECT id FROM mastermind_games WHERE player = 'pb' ORDER BY id").map {
            row throws in try row.decode("id", as: Int.self)
        }
        #expect(games == [1, 2, 3, 4, 5, 11])
        #expect(try db.scalar(Int.self, "SELECT COUNT(*) AS n FROM mastermind_guesses WHERE game IN (12, 13)") == 0)
        #expect(try db.scalar(Int.self, "SELECT COUNT(*) AS n FROM mastermind_games WHERE player = 'pa'") == 0)

        let totals = try #require(try db.first("SELECT * FROM mastermind_totals WHERE player = 'pb'"))
        #expect(try totals.decode("played", as: Int.self) == 3 && totals.decode("wins", as: Int.self) == 2)
        #expect(try totals.decode("hard_wins", as: Int.self) == 1 && totals.decode("longest_streak", as: Int.self) == 3)
        // The side that finished a game last (pb, at 350) has the current streak.
        #expect(try totals.decode("streak", as: Int.self) == 1)
        let wins = try db.query(
            "SELECT guesses, n FROM mastermind_wins_by_guesses WHERE player = 'pb' ORDER BY guesses"
        )
        .map { row throws in "\(try row.decode("guesses", as: Int.self))x\(try row.decode("n", as: Int.self))" }
        #expect(wins == ["3x3", "4x1"])

        // p1 from the later review (pa's), met at the earlier meeting (pb's).
        let cards = try db.query(
            "SELECT person, stability, met_ms FROM namegame_cards WHERE player = 'pb' ORDER BY person"
        ).map { row throws in
            "\(try row.decode("person", as: String.self)):\(try row.decode("stability", as: Double.self)):"
                + "\(try row.decode("met_ms", as: Int.self))"
        }
        #expect(cards == ["p1:9.0:10", "p2:1.0:20", "p3:3.0:30"])
        // …and its note stays (the player wrote it).
        #expect(
            try db.scalar(String.self, "SELECT note AS n FROM namegame_cards WHERE player = 'pb' AND person = 'p1'")
                == "Climbs")

        let normal = try #require(
            try db.first("SELECT * FROM namegame_lifetime WHERE player = 'pb' AND mode = 'normal'"))
        #expect(try normal.decode("rounds", as: Int.self) == 8 && normal.decode("identify_ms", as: Int.self) == 7000)
        #expect(try normal.decode("best_streak", as: Int.self) == 5)
        #expect(
            try db.scalar(Int.self, "SELECT rounds FROM namegame_lifetime WHERE player = 'pb' AND mode = 'hint'") == 2)

        let marks = try db.query("SELECT task, times FROM once_marks WHERE player = 'pb' ORDER BY task").map {
            row throws in "\(try row.decode("task", as: String.self))x\(try row.decode("times", as: Int.self))"
        }
        // Summed, less the mark of pb's lost daily that gave way to pa's win (counted twice on "Your progress").
        #expect(marks == ["cheat.crtx1", "cheat.konamix1", "mastermind.playedx2"])
        #expect(try db.scalar(Int.self, "SELECT COUNT(*) AS n FROM cheat_progress WHERE player = 'pb'") == 1)

        let sessions = try db.query("SELECT id, ended FROM namegame_sessions WHERE player = 'pb' ORDER BY id").map {
            row throws in "\(try row.decode("id", as: Int.self)):\(try row.decode("ended", as: Int.self))"
        }
        #expect(sessions == ["1:1", "2:0", "3:0"])
        #expect(try db.scalar(Int.self, "SELECT COUNT(*) AS n FROM namegame_rounds WHERE player = 'pb'") == 2)
        #expect(try db.scalar(Int.self, "SELECT created_ms FROM once_todos WHERE player = 'pb'") == 2)
        #expect(try db.scalar(Int.self, "SELECT first_seen_ms FROM once_versions WHERE player = 'pb'") == 5)
        #expect(try db.scalar(Int.self, "SELECT COUNT(*) AS n FROM passkeys WHERE player = 'pb'") == 1)
        // No table of a player's is left behind (the merge deletes only the other player's own row).
        for table in PlayerData.tables {
            let left = try db.scalar(
                Int.self, "SELECT COUNT(*) AS n FROM \(table.name) WHERE \(table.owned)", [.text("pa")])
            #expect(left == 0, "\(table.name) kept rows of the merged player")
        }

        // Audited, and shown in the player's export.
        let export = try PlayerData.export("pb", db)
        let merges = try #require(export["player_merges"]?.array)
        #expect(merges.compactMap { $0["merged_from"]?.string }.sorted() == ["pa", "pz"])
    }

    /// Merging into a player with nothing yet gives them the other side whole.
    @Test(arguments: Engine.allCases) func aNewPlayerTakesEverything(_ engine: Engine) throws {
        let pool = DatabasePool(location: try TestDatabase.fresh(engine, in: scratch))
        let db = try Database(location: pool.location)  // a connection of its own: the pool's readers refuse writes
        try db.migrate(Schema.migrations)
        try seed(db)
        try db.execute("INSERT INTO players (id, first_seen) VALUES ('pc', 900)")
        _ = try pool.write { db in try PlayerMerge.merge(from: "pa", into: "pc", now: 600_000, db) }
        #expect(try db.scalar(Int.self, "SELECT COUNT(*) AS n FROM mastermind_games WHERE player = 'pc'") == 5)
        let totals = try #require(try db.first("SELECT * FROM mastermind_totals WHERE player = 'pc'"))
        #expect(try totals.decode("played", as: Int.self) == 2 && totals.decode("longest_streak", as: Int.self) == 3)
        #expect(try db.scalar(Int.self, "SELECT COUNT(*) AS n FROM namegame_cards WHERE player = 'pc'") == 2)
        #expect(try db.scalar(Int.self, "SELECT first_seen FROM players WHERE id = 'pc'") == 100)
    }
}

extension PlayerMergeTests {
    /// A review's case: wins on both sides and no loss make one streak; of a daily won on both, the win in fewer
    /// guesses stays (a daily in 4 gave way to one in 7).
    @Test(arguments: Engine.allCases) func unbrokenStreaksAddUpAndTheBetterDailyStays(_ engine: Engine) throws {
        let pool = DatabasePool(location: try TestDatabase.fresh(engine, in: scratch))
        let db = try Database(location: pool.location)  // a connection of its own: the pool's readers refuse writes
        try db.migrate(Schema.migrations)
        try db.execute("INSERT INTO players (id, first_seen) VALUES ('pa', 100), ('pb', 200)")
        for (id, finished) in [(1, 110), (2, 120), (3, 130)] {
            try game(db, id: id, player: "pa", status: "won", guesses: 3, created: finished - 5, finished: finished)
        }
        try game(db, id: 4, player: "pb", status: "won", guesses: 5, created: 140, finished: 150)
        try db.execute(
            """
            INSERT INTO mastermind_totals (player, played, wins, streak, longest_streak)
            VALUES ('pa', 3, 3, 3, 3), ('pb', 1, 1, 1, 1)
            """)
        try game(db, id: 5, player: "pa", status: "won", guesses: 4, created: 160, finished: 170, daily: 7)
        try game(db, id: 6, player: "pb", status: "won", guesses: 7, created: 165, finished: 175, daily: 7)
        _ = try pool.write { db in try PlayerMerge.merge(from: "pa", into: "pb", now: 600_000, db) }
        let totals = try #require(try db.first("SELECT * FROM mastermind_totals WHERE player = 'pb'"))
        #expect(try totals.decode("streak", as: Int.self) == 4 && totals.decode("longest_streak", as: Int.self) == 4)
        #expect(try db.scalar(Int.self, "SELECT id FROM mastermind_games WHERE daily = 7") == 5)
    }
}
