import Storage
import Synchronization
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

/// The insights' closed days are summed once into `insights_days`, today live: the page shows what counting every
/// row by hand shows, before the days are stored, after, and after a day closes.
@Suite("/admin/insights: closed days stored once, today live, the same numbers")
struct InsightsRollupTests {
    struct Game {
        let id: Int
        let player: String
        let created: Int
        var finished: Int?
        var status: String
        let daily: Int?
        let guesses: Int
    }

    struct Round {
        let id: Int
        let player: String
        let mode: String
        let person: String
        let startedMs: Int
        let finishedMs: Int?
        let status: String
        /// A wrong face tapped first: the round ends identified (the right face tapped after), but was missed.
        let wrongFirst: Bool
        var rightAtOnce: Bool { status == "identified" && !wrongFirst }
    }

    /// The rows seeded, and the page's tables as counting them one by one gives them.
    final class Seeded {
        var games: [Game] = []
        var rounds: [Round] = []
        let people = ["ins-a": "Ada Alpha", "ins-b": "Bo Beta", "ins-c": "Cy Gamma", "ins-d": "Di Delta"]

        func expected(now: Int) -> [String: [[String]]] {
            let today = now / 86_400
            let first = today - 29
            let (since, sinceMs) = (first * 86_400, first * 86_400_000)
            var tables: [String: [[String]]] = [:]
            func count(_ day: Int, _ stamps: [Int?], per: Int) -> Int {
                stamps.filter { $0.map { $0 / per == day } ?? false }.count
            }
            tables["active"] = (first...today).map { day in
                let players = Set(
                    games.filter { $0.created / 86_400 == day }.map(\.player)
                        + rounds.filter { $0.startedMs / 86_400_000 == day }.map(\.player))
                let actions =
                    games.filter { $0.created / 86_400 == day }.count
                    + rounds.filter { $0.startedMs / 86_400_000 == day }.count
                return [InsightsController.dayLabel(day), "\(players.count)", "\(actions)"]
            }
            tables["mastermind"] = (first...today).map { day in
                let done = games.filter { $0.finished.map { $0 / 86_400 == day } ?? false }
                return [
                    InsightsController.dayLabel(day), "\(count(day, games.map(\.created), per: 86_400))",
                    "\(done.count)", "\(done.filter { $0.status == "won" }.count)",
                ]
            }
            tables["namegame"] = (first...today).map { day in
                let done = rounds.filter { $0.finishedMs.map { $0 / 86_400_000 == day } ?? false }
                return [
                    InsightsController.dayLabel(day), "\(count(day, rounds.map(\.startedMs), per: 86_400_000))",
                    "\(done.count)", "\(done.filter(\.rightAtOnce).count)",
                ]
            }
            let won = games.filter { $0.status == "won" && $0.finished! >= since }
            tables["guesses"] = Set(won.map(\.guesses)).sorted().map { n in
                ["\(n)", "\(won.filter { $0.guesses == n }.count)"]
            }
            let dailies = games.filter { $0.daily != nil && $0.created >= since }
            tables["daily"] = Set(dailies.map { $0.daily! }).sorted().map { daily in
                let played = dailies.filter { $0.daily == daily }
                let wins = played.filter { $0.status == "won" }.count
                return [
                    "#\(daily + 1)", "\(played.count)", "\(wins)", InsightsController.percent(wins, played.count),
                ]
            }
            let answered = rounds.filter { ($0.finishedMs ?? -1) >= sinceMs }
            tables["accuracy"] = Set(answered.map(\.mode)).sorted().map { mode in
                let all = answered.filter { $0.mode == mode }
                let right = all.filter(\.rightAtOnce).count
                // Named as players see them (the page's words for the modes it knows).
                let name = ["learn": "Learn", "normal": "Normal", "review": "Review my misses"][mode] ?? mode
                return [name, "\(all.count)", "\(right)", InsightsController.percent(right, all.count)]
            }
            tables["hardest"] = people.keys.compactMap { person -> (String, Int, Int)? in
                let asked = answered.filter { $0.person == person }
                let missed = asked.filter { !$0.rightAtOnce }.count
                return asked.count >= 3 ? (people[person]!, asked.count, missed) : nil
            }.sorted { a, b in
                Double(a.2) / Double(a.1) != Double(b.2) / Double(b.1)
                    ? Double(a.2) / Double(a.1) > Double(b.2) / Double(b.1) : a.1 > b.1
            }.map { [$0.0, "\($0.1)", "\($0.2)", InsightsController.percent($0.2, $0.1)] }
            return tables
        }
    }

    /// xorshift: the same rows on every run.
    struct Random {
        var state: UInt64 = 0x2028_1123
        mutating func next(_ range: ClosedRange<Int>) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return range.lowerBound + Int(state % UInt64(range.count))
        }
    }

    /// Games and rounds over the 33 days before `now` (some begun before the window, some finished days later),
    /// with their guesses and faces; a few dailies still in play.
    static func seed(_ db: Database, _ seeded: Seeded, now: Int) throws {
        var random = Random()
        let players = (0..<12).map { "ins-player-\($0)" }
        let modes = ["hard", "learn", "normal", "review"]
        try db.transaction {
            for player in players {
                try db.execute("INSERT INTO players (id, first_seen) VALUES (?, ?)", [.text(player), .integer(0)])
            }
            for (id, name) in seeded.people {
                let parts = name.split(separator: " ").map(String.init)
                try db.execute(
                    """
                    INSERT INTO people (id, first_name, last_name, photo, updated_ms, position)
                    VALUES (?, ?, ?, '/headshots/none.jpg', 0, 9999)
                    """, [.text(id), .text(parts[0]), .text(parts[1])])
            }
            var dailies = Set<String>()
            for id in 1...300 {
                let player = players[random.next(0...11)]
                let created = now - random.next(0...(33 * 86_400))
                // A third are dailies (one per player and daily); a few of them still in play.
                var daily: Int? = random.next(0...2) == 0 ? created / 86_400 - 20_000 : nil
                if let d = daily, !dailies.insert("\(player)/\(d)").inserted { daily = nil }
                let playing = daily != nil && random.next(0...9) == 0
                let finished = playing ? nil : min(now - 1, created + random.next(30...(3 * 86_400)))
                let status = playing ? "playing" : ["won", "won", "lost"][random.next(0...2)]
                let game = Game(
                    id: id, player: player, created: created, finished: finished, status: status, daily: daily,
                    guesses: random.next(1...6))
                seeded.games.append(game)
                try db.execute(
                    """
                    INSERT INTO mastermind_games (id, player, secret, code_length, digit_min, digit_max, attempts,
                        status, created, finished, daily, played_day) VALUES (?, ?, '1234', 4, 1, 6, 10, ?, ?, ?, ?, ?)
                    """,
                    [
                        .integer(Int64(id)), .text(player), .text(status), .integer(Int64(created)),
                        finished.map { .integer(Int64($0)) } ?? .null, daily.map { .integer(Int64($0)) } ?? .null,
                        daily.map { .integer(Int64($0)) } ?? .null,
                    ])
                for number in 1...game.guesses {
                    try db.execute(
                        """
                        INSERT INTO mastermind_guesses (game, number, guess, red, blue, gray, pegs)
                        VALUES (?, ?, '1111', 1, 1, 2, 'rbgg')
                        """, [.integer(Int64(id)), .integer(Int64(number))])
                }
            }
            let people = seeded.people.keys.sorted()
            for id in 1...300 {
                let player = players[random.next(0...11)]
                let mode = modes[random.next(0...3)]
                let started = (now - random.next(0...(33 * 86_400))) * 1000
                let open = random.next(0...19) == 0
                let finished = open ? nil : min(now * 1000 - 1, started + random.next(1000...(2 * 86_400_000)))
                let status = open ? "open" : ["identified", "identified", "failed", "skipped"][random.next(0...3)]
                let round = Round(
                    id: id, player: player, mode: mode, person: people[random.next(0...3)], startedMs: started,
                    finishedMs: finished, status: status, wrongFirst: status == "identified" && random.next(0...2) == 0)
                seeded.rounds.append(round)
                try db.execute(
                    "INSERT INTO namegame_sessions (id, player, mode, started_ms, ended) VALUES (?, ?, ?, ?, 1)",
                    [.integer(Int64(id)), .text(player), .text(mode), .integer(Int64(started))])
                try db.execute(
                    """
                    INSERT INTO namegame_rounds (id, session, player, mode, answer, started_ms, status, finished_ms)
                    VALUES (?, ?, ?, ?, 1, ?, ?, ?)
                    """,
                    [
                        .integer(Int64(id)), .integer(Int64(id)), .text(player), .text(mode), .integer(Int64(started)),
                        .text(status), finished.map { .integer(Int64($0)) } ?? .null,
                    ])
                // The answer's face, and a decoy that must not count (tapped first, when it was).
                try db.execute(
                    """
                    INSERT INTO namegame_round_faces (round, position, person, wrong_rank)
                    VALUES (?, 0, ?, ?), (?, 1, ?, NULL)
                    """,
                    [
                        .integer(Int64(id)), .text(people[(random.next(0...3) + 1) % 4]),
                        round.wrongFirst ? .integer(0) : .null, .integer(Int64(id)), .text(round.person),
                    ])
            }
        }
    }

    /// Each chart's table on the page: a row's header, then its cells (none when the chart is empty).
    static func tables(_ html: String) -> [String: [[String]]] {
        var tables: [String: [[String]]] = [:]
        for section in html.components(separatedBy: "data-chart=\"").dropFirst() {
            let id = String(section.prefix { $0 != "\"" })
            let body =
                section.components(separatedBy: "<tbody>").dropFirst().first?
                .components(separatedBy: "</tbody>")[0] ?? ""
            tables[id] = body.components(separatedBy: "<tr>").dropFirst().map { row in
                let header = row.components(separatedBy: "<th scope=\"row\">")[1].components(separatedBy: "</th>")[0]
                return [header]
                    + row.components(separatedBy: "<td>").dropFirst().map { $0.components(separatedBy: "</td>")[0] }
            }
        }
        return tables
    }

    static func storedDays(_ db: Database) throws -> Int {
        try db.scalar(Int.self, "SELECT COUNT(*) FROM insights_days WHERE metric = 'day'")
    }

    @Test(arguments: Engine.allCases) func thePageShowsWhatCountingEveryRowShows(_ engine: Engine) throws {
        // 2027-01-15 08:00 UTC: the days before today are over, for longer than the grace.
        let now = Mutex<Int>(1_800_000_000)
        // The rows are there before the site starts: its housekeeping stores the closed days at once.
        let scratch = ScratchDirectory()
        let location = try TestDatabase.fresh(engine, in: scratch)
        let db = try Database(location: location)
        try db.migrate(Schema.migrations)
        let seeded = Seeded()
        try Self.seed(db, seeded, now: now.withLock { $0 })
        // A day stored long ago, out of every window since: storing a day drops it.
        try db.execute(
            "INSERT INTO insights_days (day, metric, item, n, m) VALUES (?, 'day', '', 1, 0)",
            [.integer(Int64(now.withLock { $0 } / 86_400 - 45))])
        let server = try SiteServer(engine: engine, routes: nil) {
            $0.database = location
            $0.clock = { Double(now.withLock { $0 }) }
        }
        defer { server.stop() }
        var admin = try AdminConsoleTests.admin(server)
        func check(_ when: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let page = Self.tables(try admin.get("/admin/insights").text)
            let expected = seeded.expected(now: now.withLock { $0 })
            for (id, rows) in expected.sorted(by: { $0.key < $1.key }) {
                #expect(!rows.isEmpty, "\(when): \(id) has rows", sourceLocation: sourceLocation)
                #expect(page[id] == rows, "\(when): \(id)", sourceLocation: sourceLocation)
            }
        }
        // Whatever has been stored yet: the days not stored are summed live.
        try check("at first")
        let window = now.withLock { $0 } / 86_400 - 29
        #expect(
            try AdminConsoleTests.within(30) {
                try db.scalar(
                    Int.self, "SELECT COUNT(*) FROM insights_days WHERE metric = 'day' AND day >= ?",
                    [
                        .integer(Int64(window))
                    ]) == 29
            }, "the 29 closed days are stored")
        #expect(try Self.storedDays(db) == 29, "and the day out of every window dropped")
        let hours = now.withLock { $0 } / 86_400 * 86_400 + 7 * 3600
        #expect(
            AdminConsoleTests.within(30) { server.site.insights.todaySummedThrough == hours },
            "today's hours up to 07:00 are summed")
        try check("from the stored days and today's hours")

        // Today goes on: a new game, and a daily begun two days ago (stored) won now.
        let t = now.withLock { $0 }
        let late = try #require(
            seeded.games.firstIndex { $0.status == "playing" && $0.created / 86_400 < t / 86_400 - 1 })
        seeded.games[late].status = "won"
        seeded.games[late].finished = t - 10
        try db.execute(
            "UPDATE mastermind_games SET status = 'won', finished = ? WHERE id = ?",
            [.integer(Int64(t - 10)), .integer(Int64(seeded.games[late].id))])
        seeded.games.append(
            Game(
                id: 1000, player: "ins-player-0", created: t - 5, finished: t - 2, status: "won", daily: nil, guesses: 1
            ))
        try db.execute(
            """
            INSERT INTO mastermind_games (id, player, secret, code_length, digit_min, digit_max, attempts, status,
                created, finished) VALUES (1000, 'ins-player-0', '1234', 4, 1, 6, 10, 'won', ?, ?)
            """, [.integer(Int64(t - 5)), .integer(Int64(t - 2))])
        try db.execute(
            """
            INSERT INTO mastermind_guesses (game, number, guess, red, blue, gray, pegs)
            VALUES (1000, 1, '1234', 4, 0, 0, 'rrrr')
            """)
        try check("today's rows added")

        // The next day: yesterday is summed (once the grace is over) and the window moves on.
        now.withLock { $0 = ($0 / 86_400 + 1) * 86_400 + 3600 }
        #expect(try AdminConsoleTests.within(30) { try Self.storedDays(db) == 30 }, "yesterday is stored too")
        admin = try AdminConsoleTests.admin(server, create: false)  // the session has expired overnight
        try check("a day later, before an hour is summed")
        now.withLock { $0 += 3 * 3600 }
        let later = now.withLock { $0 } / 86_400 * 86_400 + 3 * 3600
        #expect(AdminConsoleTests.within(30) { server.site.insights.todaySummedThrough == later })
        admin = try AdminConsoleTests.admin(server, create: false)
        try check("a day later, three hours summed")

        // A stored day is counted once: rows deleted afterwards (a forgotten player's) stay in its numbers.
        let old = try #require(seeded.games.first { $0.created / 86_400 == now.withLock { $0 } / 86_400 - 5 })
        try db.execute("DELETE FROM mastermind_guesses WHERE game = ?", [.integer(Int64(old.id))])
        try db.execute("DELETE FROM mastermind_games WHERE id = ?", [.integer(Int64(old.id))])
        try check("a stored day's row deleted")
    }
}
