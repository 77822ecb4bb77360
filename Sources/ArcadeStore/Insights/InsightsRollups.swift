import Storage

/// The insights' numbers as sums per day. A closed day is summed once, by the leading instance's housekeeping, into
/// `insights_days`; today, and a closed day not summed yet, are summed live from the indexed rows. Each row is
/// counted on a day after which it no longer changes: games and rounds on the day they started or finished, a daily
/// game's win on the day it was won (with the day it started, as the page counts the dailies started in its window).
package enum InsightsRollups {
    package enum Metric: String, Sendable {
        /// Marks a stored day, even an empty one.
        case day
        case mastermindStarted = "mm_started"
        /// n finished, m won.
        case mastermindDone = "mm_done"
        case roundsStarted = "ng_started"
        /// n finished, m identified.
        case roundsDone = "ng_done"
        /// Players who started a game or a round.
        case active
        /// item: a won game's number of guesses; n: such games.
        case guesses
        /// item: the daily's number; n: its games started.
        case dailyPlayed = "daily"
        /// item: "daily/day it started"; n: its games won.
        case dailyWon = "daily_won"
        /// item: the Name Game mode; n answered, m identified.
        case mode
        /// item: the person asked for; n rounds, m missed.
        case person
    }

    package struct Entry: Sendable, Equatable {
        package let day: Int
        package let metric: Metric
        package let item: String
        package let n: Int
        package let m: Int

        package init(day: Int, metric: Metric, item: String, n: Int, m: Int) {
            self.day = day
            self.metric = metric
            self.item = item
            self.n = n
            self.m = m
        }
    }

    /// A day is summed once it has been over this long: a write stamped just before midnight may still be on its
    /// way to the database (from another instance, say).
    package static let grace = 600

    /// A stretch of one day: its numbers, and the players who started something (the one figure that does not add
    /// up over stretches: a player active in two counts once).
    package struct Summary: Sendable {
        package var entries: [Entry] = []
        package var players: Set<String> = []
    }

    /// One day's numbers, each from a range of an index on a time column.
    package static func summarize(day: Int, _ db: Database) throws -> [Entry] {
        let summary = try summarize(day: day, from: day * 86_400, to: (day + 1) * 86_400, db)
        let active = summary.players.count
        return summary.entries + (active > 0 ? [Entry(day: day, metric: .active, item: "", n: active, m: 0)] : [])
    }

    /// A metric's query over a range of its time column (`ms`: milliseconds, else seconds): rows of `n`, perhaps `m`,
    /// and what `item` names.
    private struct Query: Sendable {
        package let metric: Metric
        package var ms = false
        package let sql: String
        package var item: @Sendable (Row) throws -> String = { _ in "" }
    }

    /// A round recognised: its person identified at the first answer. A wrong face tapped first leaves the round open
    /// until the right one is tapped, and it ends `identified` too (a review read 100 % accuracy beside players' 21 %).
    private static let rightAtOnce = """
        r.status = 'identified' AND NOT EXISTS (
            SELECT 1 FROM namegame_round_faces w WHERE w.round = r.id AND w.wrong_rank IS NOT NULL)
        """

    private static let queries: [Query] = [
        Query(
            metric: .mastermindStarted,
            sql: "SELECT COUNT(*) AS n FROM mastermind_games WHERE created >= ? AND created < ?"),
        Query(
            metric: .mastermindDone,
            sql: """
                SELECT COUNT(*) AS n, SUM(CASE WHEN status = 'won' THEN 1 ELSE 0 END) AS m
                FROM mastermind_games WHERE finished >= ? AND finished < ?
                """),
        Query(
            metric: .roundsStarted, ms: true,
            sql: "SELECT COUNT(*) AS n FROM namegame_rounds WHERE started_ms >= ? AND started_ms < ?"),
        Query(
            metric: .roundsDone, ms: true,
            sql: """
                SELECT COUNT(*) AS n, SUM(CASE WHEN \(rightAtOnce) THEN 1 ELSE 0 END) AS m
                FROM namegame_rounds r WHERE finished_ms >= ? AND finished_ms < ?
                """),
        Query(
            metric: .guesses,
            sql: """
                SELECT guesses, COUNT(*) AS n FROM (
                    SELECT g.id AS id, COUNT(*) AS guesses
                    FROM mastermind_games g JOIN mastermind_guesses q ON q.game = g.id WHERE g.finished >= ? AND g.finished < ? AND g.status = 'won' GROUP BY g.id
                ) AS won GROUP BY guesses
                """, item: { "\(try $0.decode("guesses", as: Int.self))" }),
        Query(
            metric: .dailyPlayed,
            sql: """
                SELECT daily, COUNT(*) AS n FROM mastermind_games
                WHERE created >= ? AND created < ? AND daily IS NOT NULL GROUP BY daily
                """, item: { "\(try $0.decode("daily", as: Int.self))" }),
        Query(
            metric: .dailyWon,
            sql: """
                SELECT daily, created / 86400 AS started, COUNT(*) AS n FROM mastermind_games
                WHERE finished >= ? AND finished < ? AND status = 'won' AND daily IS NOT NULL
                GROUP BY daily, created / 86400
                """,
            item: { "\(try $0.decode("daily", as: Int.self))/\(try $0.decode("started", as: Int.self))" }),
        Query(
            metric: .mode, ms: true,
            sql: """
                SELECT mode, COUNT(*) AS n, SUM(CASE WHEN \(rightAtOnce) THEN 1 ELSE 0 END) AS m
                FROM namegame_rounds r WHERE finished_ms >= ? AND finished_ms < ? GROUP BY mode
                """, item: { try $0.decode("mode") }),
        Query(
            metric: .person, ms: true,
            sql: """
                SELECT f.person AS person, COUNT(*) AS n, SUM(CASE WHEN \(rightAtOnce) THEN 0 ELSE 1 END) AS m
                FROM namegame_rounds r JOIN namegame_round_faces f ON f.round = r.id AND f.position = r.answer
                WHERE r.finished_ms >= ? AND r.finished_ms < ? GROUP BY f.person
                """, item: { try $0.decode("person") }),
    ]

    /// The numbers of the seconds from `start` to `end` (not included) of `day`.
    package static func summarize(day: Int, from start: Int, to end: Int, _ db: Database) throws -> Summary {
        let seconds: [SQLValue] = [.integer(Int64(start)), .integer(Int64(end))]
        let ms: [SQLValue] = [.integer(Int64(start) * 1000), .integer(Int64(end) * 1000)]
        var players = Set<String>()
        for row in try db.query(
            """
            SELECT player FROM mastermind_games WHERE created >= ? AND created < ?
            UNION SELECT player FROM namegame_rounds WHERE started_ms >= ? AND started_ms < ?
            """, seconds + ms)
        {
            players.insert(try row.decode("player"))
        }
        var entries: [Entry] = []
        for query in queries {
            for row in try db.query(query.sql, query.ms ? ms : seconds) {
                let n = try row.decodeIfPresent("n", as: Int.self) ?? 0
                let m = row.columns.contains("m") ? try row.decodeIfPresent("m", as: Int.self) ?? 0 : 0
                guard n != 0 || m != 0 else { continue }
                entries.append(Entry(day: day, metric: query.metric, item: try query.item(row), n: n, m: m))
            }
        }
        return Summary(entries: entries, players: players)
    }

    /// The days in `days` that are stored.
    package static func storedDays(_ days: ClosedRange<Int>, _ db: Database) throws -> [Int] {
        try db.query(
            "SELECT day FROM insights_days WHERE day >= ? AND day <= ? AND metric = 'day' AND item = '' ORDER BY day",
            [.integer(Int64(days.lowerBound)), .integer(Int64(days.upperBound))]
        ).map { row throws in try row.decode(Days.Columns.day) }
    }

    /// `insights_days`: a closed day's figures, a row per metric and item; the `day` metric marks the day stored.
    package enum Days: TableRecord {
        package static let table = "insights_days"
        package enum Columns: String, ColumnName { case day, metric, item, n, m }
    }

    /// The stored rows of `days`.
    package static func stored(_ days: ClosedRange<Int>, _ db: Database) throws -> [Entry] {
        try db.query(
            "SELECT \(Days.selection) FROM insights_days WHERE day >= ? AND day <= ?",
            [.integer(Int64(days.lowerBound)), .integer(Int64(days.upperBound))]
        ).compactMap { row throws in
            guard let metric = Metric(rawValue: try row.decode(Days.Columns.metric)), metric != .day else { return nil }
            return Entry(
                day: try row.decode(Days.Columns.day), metric: metric, item: try row.decode(Days.Columns.item),
                n: try row.decode(Days.Columns.n), m: try row.decode(Days.Columns.m))
        }
    }

    /// Replaces a day's stored rows with `entries`, marks it stored, and drops days long out of the window (inside a
    /// write transaction).
    package static func store(day: Int, _ entries: [Entry], _ db: Database) throws {
        _ = try db.execute("DELETE FROM insights_days WHERE day = ?", [.integer(Int64(day))])
        // Days no window that holds this one can show: the table keeps about two windows' worth, not every day since
        // the site began.
        _ = try db.execute("DELETE FROM insights_days WHERE day < ?", [.integer(Int64(day - 30))])
        let all = entries + [Entry(day: day, metric: .day, item: "", n: 1, m: 0)]
        var start = 0
        while start < all.count {
            // A hundred rows a statement: few round trips to PostgreSQL, and far below either engine's limit on
            // parameters.
            let chunk = all[start..<min(start + 100, all.count)]
            _ = try db.execute(
                Days.insert(each: chunk) { row, entry in
                    row[.day] = entry.day
                    row[.metric] = entry.metric.rawValue
                    row[.item] = entry.item
                    row[.n] = entry.n
                    row[.m] = entry.m
                })
            start += 100
        }
    }

    /// The oldest day of the page's window that is over (for `grace` seconds) and not stored yet, if any.
    package static func nextDay(now: Int, _ db: Database) throws -> Int? { try pendingDays(now: now, db).first }

    /// Every closed day of the window not stored yet, oldest first.
    package static func pendingDays(now: Int, _ db: Database) throws -> [Int] {
        let first = now / 86_400 - 29
        let newest = (now - grace) / 86_400 - 1
        guard newest >= first else { return [] }
        let stored = Set(try storedDays(first...newest, db))
        return (first...newest).filter { !stored.contains($0) }
    }
}
