import HTTP
import Localization
import Metrics
import Storage
import Synchronization
import Templates

/// `/admin/insights`: how the site is used, as charts drawn on the server with their numbers in tables beside
/// them. The last 30 days come from the database, each aggregate from one query on an index of its time column;
/// the traffic chart is this instance's own last 24 hours.
final class InsightsController: Sendable {
    let pool: DatabasePool
    let pages: Pages
    let traffic: RecentTraffic
    let clock: @Sendable () -> Double

    init(pool: DatabasePool, pages: Pages, traffic: RecentTraffic, clock: @escaping @Sendable () -> Double) {
        self.pool = pool
        self.pages = pages
        self.traffic = traffic
        self.clock = clock
    }

    /// The last numbers read, reused for five minutes: the whole 30 days is millions of index entries.
    let cache = Mutex<Numbers?>(nil)
    static let cacheSeconds = 300
    /// When an admin last opened the page: while one has in the last hour, the housekeeping thread reads the numbers
    /// again before they age out, so the page answers from memory.
    private let lastViewed = Atomic<Int>(Int.min / 2)

    /// Called now and then off the loops: reads the numbers again when they are watched and about to age out.
    func refreshIfWatched(now: Int) {
        guard now - lastViewed.load(ordering: .relaxed) < 3600 else { return }
        let age = cache.withLock { $0.map { now - $0.at } } ?? Int.max
        guard age >= Self.cacheSeconds - 60 else { return }
        do {
            let fresh = try Self.numbers(pool, now: now)
            cache.withLock { $0 = fresh }
        } catch {
            Log.error("insights: \(error)")
        }
    }

    func addRoutes(to routes: AdminRoutes) {
        routes.pages.get("/admin/insights", use: page)
    }

    struct Chart {
        let chart: BarChart
        /// The table's columns after the category, when they differ from the series (percentages, say).
        var table: [[String]]? = nil
    }

    /// The numbers behind the charts, in every language.
    struct Numbers: Sendable {
        let at: Int
        let first: Int
        let today: Int
        let mastermindStarted: [Double]
        let mastermindDone: [[Double]]
        let roundsStarted: [Double]
        let roundsDone: [[Double]]
        let active: [Double]
        let actions: [Double]
        let guesses: [(Int, Double)]
        let daily: [(Int, played: Int, won: Int)]
        let modes: [(String, answered: Int, identified: Int)]
        let hardest: [(name: String, rounds: Int, missed: Int)]
        let cheats: [(String, Double)]
    }

    /// Reads every aggregate of the last 30 days (a few seconds on a million actions: the page keeps the result
    /// for `cacheSeconds`).
    static func numbers(_ pool: DatabasePool, now: Int) throws -> Numbers {
        let db = try pool.connection()
        let today = now / 86_400
        let first = today - 29
        let days = Array(first...today)
        func perDay(_ sql: String, _ cutoff: Int64, columns: [String]) throws -> [[Double]] {
            var values = columns.map { _ in Array(repeating: 0.0, count: days.count) }
            for row in try db.query(sql, [.integer(cutoff)]) {
                let day: Int = try row.decode("day")
                guard day >= first && day <= today else { continue }
                for (c, column) in columns.enumerated() {
                    values[c][day - first] = Double(try row.decodeIfPresent(column, as: Int.self) ?? 0)
                }
            }
            return values
        }
        let since = Int64(first) * 86_400
        let sinceMs = since * 1000
        let mastermindStarted = try perDay(
            "SELECT created / 86400 AS day, COUNT(*) AS n FROM mastermind_games WHERE created >= ? GROUP BY created / 86400",
            since, columns: ["n"])[0]
        let mastermindDone = try perDay(
            """
            SELECT finished / 86400 AS day, COUNT(*) AS n, SUM(CASE WHEN status = 'won' THEN 1 ELSE 0 END) AS won
            FROM mastermind_games WHERE finished >= ? GROUP BY finished / 86400
            """, since, columns: ["n", "won"])
        let roundsStarted = try perDay(
            """
            SELECT started_ms / 86400000 AS day, COUNT(*) AS n FROM namegame_rounds WHERE started_ms >= ?
            GROUP BY started_ms / 86400000
            """, sinceMs, columns: ["n"])[0]
        let roundsDone = try perDay(
            """
            SELECT finished_ms / 86400000 AS day, COUNT(*) AS n,
                SUM(CASE WHEN status = 'identified' THEN 1 ELSE 0 END) AS won
            FROM namegame_rounds WHERE finished_ms >= ? GROUP BY finished_ms / 86400000
            """, sinceMs, columns: ["n", "won"])
        var active = Array(repeating: 0.0, count: days.count)
        for row in try db.query(
            """
            SELECT day, COUNT(DISTINCT player) AS n FROM (
                SELECT created / 86400 AS day, player FROM mastermind_games WHERE created >= ?
                UNION SELECT started_ms / 86400000 AS day, player FROM namegame_rounds WHERE started_ms >= ?
            ) AS seen GROUP BY day
            """, [.integer(since), .integer(sinceMs)])
        {
            let day: Int = try row.decode("day")
            if day >= first && day <= today { active[day - first] = Double(try row.decode("n", as: Int.self)) }
        }
        let actions = zip(mastermindStarted, roundsStarted).map { $0 + $1 }

        var guesses: [(Int, Double)] = []
        for row in try db.query(
            """
            SELECT n, COUNT(*) AS games FROM (
                SELECT g.id AS id, COUNT(*) AS n FROM mastermind_games g JOIN mastermind_guesses q ON q.game = g.id
                WHERE g.finished >= ? AND g.status = 'won' GROUP BY g.id
            ) AS won GROUP BY n ORDER BY n
            """, [.integer(since)])
        {
            guesses.append((try row.decode("n"), Double(try row.decode("games", as: Int.self))))
        }
        var daily: [(Int, played: Int, won: Int)] = []
        for row in try db.query(
            """
            SELECT daily, COUNT(*) AS played, SUM(CASE WHEN status = 'won' THEN 1 ELSE 0 END) AS won
            FROM mastermind_games WHERE created >= ? AND daily IS NOT NULL GROUP BY daily ORDER BY daily
            """, [.integer(since)])
        {
            daily.append((try row.decode("daily"), try row.decode("played"), try row.decode("won")))
        }
        var modes: [(String, answered: Int, identified: Int)] = []
        for row in try db.query(
            """
            SELECT mode, COUNT(*) AS answered, SUM(CASE WHEN status = 'identified' THEN 1 ELSE 0 END) AS identified
            FROM namegame_rounds WHERE finished_ms >= ? GROUP BY mode ORDER BY mode
            """, [.integer(sinceMs)])
        {
            modes.append((try row.decode("mode"), try row.decode("answered"), try row.decode("identified")))
        }
        let hardest: [(name: String, rounds: Int, missed: Int)] = try db.query(
            """
            SELECT p.first_name AS first_name, p.last_name AS last_name, h.rounds AS rounds, h.missed AS missed FROM (
                SELECT f.person AS person, COUNT(*) AS rounds,
                    SUM(CASE WHEN r.status = 'identified' THEN 0 ELSE 1 END) AS missed
                FROM namegame_rounds r JOIN namegame_round_faces f ON f.round = r.id AND f.position = r.answer
                WHERE r.finished_ms >= ? GROUP BY f.person
            ) AS h JOIN people p ON p.id = h.person
            WHERE h.rounds >= 3 ORDER BY h.missed * 1.0 / h.rounds DESC, h.rounds DESC LIMIT 10
            """, [.integer(sinceMs)]
        ).map { row throws in
            (
                try row.decode("first_name", as: String.self) + " " + row.decode("last_name"),
                try row.decode("rounds"), try row.decode("missed")
            )
        }
        var cheats: [(String, Double)] = []
        for row in try db.query(
            """
            SELECT task, COUNT(DISTINCT player) AS players FROM once_marks
            WHERE task >= 'cheat.' AND task < 'cheat/' GROUP BY task ORDER BY task
            """)
        {
            cheats.append(
                (
                    String(try row.decode("task", as: String.self).dropFirst(6)),
                    Double(try row.decode("players", as: Int.self))
                ))
        }
        return Numbers(
            at: now, first: first, today: today, mastermindStarted: mastermindStarted, mastermindDone: mastermindDone,
            roundsStarted: roundsStarted, roundsDone: roundsDone, active: active, actions: actions, guesses: guesses,
            daily: daily, modes: modes, hardest: hardest, cheats: cheats)
    }

    func page(_ request: Request, _ context: AdminContext) throws -> Response {
        let visitor = context.visitor
        let t = pages.localizer.strings(for: visitor.language)
        let now = Int(clock())
        lastViewed.store(now, ordering: .relaxed)
        let n = try cache.withLock { cached in
            if let cached, now - cached.at < Self.cacheSeconds, now / 86_400 == cached.today { return cached }
            let fresh = try Self.numbers(pool, now: now)
            cached = fresh
            return fresh
        }
        let (first, today) = (n.first, n.today)
        let dayLabels = Array(first...today).map { Self.dayLabel($0) }
        let (mastermindStarted, mastermindDone, roundsStarted, roundsDone) = (
            n.mastermindStarted, n.mastermindDone, n.roundsStarted, n.roundsDone
        )
        let (active, actions, guesses, daily, modes, cheats) = (
            n.active, n.actions, n.guesses, n.daily, n.modes, n.cheats
        )
        let hardest: [TemplateValue] = n.hardest.map { row in
            .object([
                "name": .string(row.name), "rounds": .int(row.rounds), "missed": .int(row.missed),
                "rate": .string(Self.percent(row.missed, row.rounds)),
            ])
        }
        let hours = traffic.hours(endingAt: Int(clock()) / 60)

        let charts: [Chart] = [
            Chart(
                chart: BarChart(
                    id: "active", title: t.string("insights.active.title"),
                    description: t.string("insights.active.desc"),
                    xLabel: t.string("insights.day"), yLabel: t.string("insights.count"), categories: dayLabels,
                    series: [
                        (t.string("insights.series.players"), active), (t.string("insights.series.actions"), actions),
                    ])),
            Chart(
                chart: BarChart(
                    id: "mastermind", title: t.string("insights.mastermind.title"),
                    description: t.string("insights.mastermind.desc"), xLabel: t.string("insights.day"),
                    yLabel: t.string("insights.count"), categories: dayLabels,
                    series: [
                        (t.string("insights.series.started"), mastermindStarted),
                        (t.string("insights.series.finished"), mastermindDone[0]),
                        (t.string("insights.series.won"), mastermindDone[1]),
                    ])),
            Chart(
                chart: BarChart(
                    id: "namegame", title: t.string("insights.namegame.title"),
                    description: t.string("insights.namegame.desc"), xLabel: t.string("insights.day"),
                    yLabel: t.string("insights.count"), categories: dayLabels,
                    series: [
                        (t.string("insights.series.started"), roundsStarted),
                        (t.string("insights.series.finished"), roundsDone[0]),
                        (t.string("insights.series.won"), roundsDone[1]),
                    ])),
            Chart(
                chart: BarChart(
                    id: "guesses", title: t.string("insights.guesses.title"),
                    description: t.string("insights.guesses.desc"), xLabel: t.string("insights.guesses"),
                    yLabel: t.string("insights.games"), categories: guesses.map { "\($0.0)" },
                    series: [(t.string("insights.games"), guesses.map(\.1))])),
            Chart(
                chart: BarChart(
                    id: "daily", title: t.string("insights.daily.title"), description: t.string("insights.daily.desc"),
                    xLabel: t.string("insights.daily.number"), yLabel: t.string("insights.percent"),
                    categories: daily.map { "#\($0.0 + 1)" },
                    series: [
                        (
                            t.string("insights.series.solved"),
                            daily.map { $0.played == 0 ? 0 : Double($0.won * 100) / Double($0.played) }
                        )
                    ]),
                table: daily.map { ["#\($0.0 + 1)", "\($0.played)", "\($0.won)", Self.percent($0.won, $0.played)] }),
            Chart(
                chart: BarChart(
                    id: "accuracy", title: t.string("insights.accuracy.title"),
                    description: t.string("insights.accuracy.desc"), xLabel: t.string("insights.mode"),
                    yLabel: t.string("insights.percent"), categories: modes.map(\.0),
                    series: [
                        (
                            t.string("insights.series.accuracy"),
                            modes.map { $0.answered == 0 ? 0 : Double($0.identified * 100) / Double($0.answered) }
                        )
                    ]),
                table: modes.map {
                    [$0.0, "\($0.answered)", "\($0.identified)", Self.percent($0.identified, $0.answered)]
                }),
            Chart(
                chart: BarChart(
                    id: "cheats", title: t.string("insights.cheats.title"),
                    description: t.string("insights.cheats.desc"),
                    xLabel: t.string("insights.cheat"), yLabel: t.string("insights.series.players"),
                    categories: cheats.map(\.0), series: [(t.string("insights.series.players"), cheats.map(\.1))])),
            Chart(
                chart: BarChart(
                    id: "traffic", title: t.string("insights.traffic.title"),
                    description: t.string("insights.traffic.desc"), xLabel: t.string("insights.hour"),
                    yLabel: t.string("insights.count"), categories: hours.map { Self.hourLabel($0.start) },
                    series: [
                        (t.string("insights.series.rate"), hours.map { ($0.requestsPerMinute * 10).rounded() / 10 }),
                        (t.string("insights.series.p95"), hours.map { ($0.p95 ?? 0) * 1000 }),
                    ])),
        ]
        let percentHeaders: [String: [String]] = [
            "daily": [
                t.string("insights.daily.number"), t.string("insights.played"), t.string("insights.series.won"),
                t.string("insights.series.solved"),
            ],
            "accuracy": [
                t.string("insights.mode"), t.string("insights.answered"), t.string("insights.identified"),
                t.string("insights.series.accuracy"),
            ],
        ]
        let rendered: [TemplateValue] = charts.map { item in
            let chart = item.chart
            let headers = percentHeaders[chart.id] ?? ([chart.xLabel] + chart.series.map(\.name))
            let rows: [[String]] =
                item.table
                ?? chart.categories.enumerated().map { i, category in
                    [category] + chart.series.map { BarChart.format($0.values[i]) }
                }
            return .object([
                "id": .string(chart.id), "title": .string(chart.title), "svg": .string(chart.svg),
                "empty": .bool(rows.isEmpty || chart.series.allSatisfy { $0.values.allSatisfy { $0 == 0 } }),
                "legend": .list(
                    chart.series.enumerated().map { .object(["n": .int($0.offset), "name": .string($0.element.name)]) }),
                "headers": .list(headers.map { .string($0) }),
                "rows": .list(
                    rows.map { row in
                        .object(["first": .string(row[0]), "cells": .list(row.dropFirst().map { .string($0) })])
                    }),
            ])
        }
        return pages.render(
            "admin-insights", title: t.string("admin.insights.title"), for: visitor, path: "/admin/insights",
            section: "admin",
            data: [
                "charts": .list(rendered), "hardest": .list(hardest), "hasHardest": .bool(!hardest.isEmpty),
                "asOf": .string(UTCTime.format(n.at)),
            ])
    }

    static func percent(_ part: Int, _ whole: Int) -> String {
        whole == 0 ? "–" : "\(Int((Double(part) * 100 / Double(whole)).rounded())) %"
    }

    /// `11-23`: month and day, UTC.
    static func dayLabel(_ day: Int) -> String {
        let date = UTCTime.format(day * 86_400)
        return String(date.dropFirst(5).prefix(5))
    }

    /// `14:00`, UTC.
    static func hourLabel(_ seconds: Int) -> String {
        String(UTCTime.format(seconds).dropFirst(11).prefix(5))
    }
}
