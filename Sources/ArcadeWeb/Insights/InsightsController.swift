import ArcadeStore
import HTTP
import Localization
import Metrics
import Templates

/// `/admin/insights`: how the site is used, as charts drawn on the server with their numbers in tables beside
/// them. The last 30 days are sums per day: the closed days' stored by the housekeeping (`InsightsRollups`), today's
/// summed hour by hour in the background and its last hour or so read live from indexes of time columns; the traffic
/// chart is this instance's own last 24 hours.
struct InsightsController: Sendable {
    let store: InsightsStore
    let pages: Pages
    let traffic: RecentTraffic
    var clock: @Sendable () -> Double { store.clock }

    func addRoutes(to routes: AdminRoutes) {
        routes.pages.get("/admin/insights", use: page)
    }

    struct Chart {
        let chart: BarChart
        /// The table's columns after the category, when they differ from the series (percentages, say).
        var table: [[String]]? = nil
    }

    func page(_ request: Request, _ context: AdminContext) throws -> Response {
        let visitor = context.visitor
        let t = pages.localizer.strings(for: visitor.language)
        let n = try store.numbers(now: Int(clock()))
        let hardest: [TemplateValue] = n.hardest.map { row in
            .object([
                "name": .string(row.name), "rounds": .int(row.rounds), "missed": .int(row.missed),
                "rate": .string(Self.percent(row.missed, row.rounds)),
            ])
        }
        let charts = charts(n, hours: traffic.hours(endingAt: Int(clock()) / 60), t)
        return pages.render(
            "admin-insights", title: t.string("admin.insights.title"), for: visitor, path: "/admin/insights",
            section: "admin",
            data: [
                "charts": .list(charts.map { Self.context($0, t) }), "hardest": .list(hardest),
                "hasHardest": .bool(!hardest.isEmpty), "asOf": .string(UTCTime.format(n.at)),
            ])
    }

    /// A chart titled and described by its id's strings (`insights.ID.title`, `.desc`), its axes and series named
    /// by string keys.
    private static func chart(
        _ id: String, _ t: LanguageStrings, x: String, y: String, _ categories: [String],
        _ series: [(String, [Double])], table: [[String]]? = nil
    ) -> Chart {
        Chart(
            chart: BarChart(
                id: id, title: t.string("insights.\(id).title"), description: t.string("insights.\(id).desc"),
                xLabel: t.string(x), yLabel: t.string(y), categories: categories,
                series: series.map { (t.string($0.0), $0.1) }),
            table: table)
    }

    private func charts(_ n: InsightsStore.Numbers, hours: [RecentTraffic.Hour], _ t: LanguageStrings) -> [Chart] {
        let days = Array(n.first...n.today).map { Self.dayLabel($0) }
        let (daily, modes) = (n.daily, n.modes)
        // Modes and cheats by the names players see (three native readers met the ids: "learn", "konami").
        func named(_ key: String, _ id: String) -> String {
            t.has(key + id) ? t.string(key + id) : id
        }
        let modeNames = modes.map { named("namegame.mode.", $0.0) }
        return [
            Self.chart(
                "active", t, x: "insights.day", y: "insights.count", days,
                [("insights.series.players", n.active), ("insights.series.actions", n.actions)]),
            Self.chart(
                "mastermind", t, x: "insights.day", y: "insights.count", days,
                [
                    ("insights.series.started", n.mastermindStarted), ("insights.series.finished", n.mastermindDone[0]),
                    ("insights.series.won", n.mastermindDone[1]),
                ]),
            Self.chart(
                "namegame", t, x: "insights.day", y: "insights.count", days,
                [
                    // The Name Game's words: a round is answered, and its person recognised (not finished and won).
                    ("insights.series.started", n.roundsStarted), ("insights.answered", n.roundsDone[0]),
                    ("insights.identified", n.roundsDone[1]),
                ]),
            Self.chart(
                "guesses", t, x: "insights.guesses", y: "insights.games", n.guesses.map { "\($0.0)" },
                [("insights.games", n.guesses.map(\.1))]),
            Self.chart(
                "daily", t, x: "insights.daily.number", y: "insights.percent", daily.map { "#\($0.0 + 1)" },
                [
                    (
                        "insights.series.solved",
                        daily.map { $0.played == 0 ? 0 : Double($0.won * 100) / Double($0.played) }
                    )
                ],
                table: daily.map { ["#\($0.0 + 1)", "\($0.played)", "\($0.won)", Self.percent($0.won, $0.played)] }),
            Self.chart(
                "accuracy", t, x: "insights.mode", y: "insights.percent", modeNames,
                [
                    (
                        "insights.series.accuracy",
                        modes.map { $0.answered == 0 ? 0 : Double($0.identified * 100) / Double($0.answered) }
                    )
                ],
                table: zip(modeNames, modes).map { name, mode in
                    [name, "\(mode.answered)", "\(mode.identified)", Self.percent(mode.identified, mode.answered)]
                }),
            Self.chart(
                "cheats", t, x: "insights.cheat", y: "insights.series.found",
                n.cheats.map { named("cheats.name.", $0.0) },
                [("insights.series.found", n.cheats.map(\.1))]),
            Self.chart(
                "traffic", t, x: "insights.hour", y: "insights.count", hours.map { UTCTime.hourLabel($0.start) },
                [
                    ("insights.series.rate", hours.map { ($0.requestsPerMinute * 10).rounded() / 10 }),
                    ("insights.series.p95", hours.map { ($0.p95 ?? 0) * 1000 }),
                ]),
        ]
    }

    /// A chart as the page shows it: the SVG, its legend, and its numbers as a table.
    private static func context(_ item: Chart, _ t: LanguageStrings) -> TemplateValue {
        let percentHeaders: [String: [String]] = [
            "daily": ["insights.daily.number", "insights.played", "insights.series.won", "insights.series.solved"],
            "accuracy": ["insights.mode", "insights.answered", "insights.identified", "insights.series.accuracy"],
        ]
        let chart = item.chart
        let headers = percentHeaders[chart.id]?.map { t.string($0) } ?? ([chart.xLabel] + chart.series.map(\.name))
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

    static func percent(_ part: Int, _ whole: Int) -> String {
        whole == 0 ? "–" : "\(Int((Double(part) * 100 / Double(whole)).rounded())) %"
    }

    /// `11-23`: month and day, UTC.
    static func dayLabel(_ day: Int) -> String {
        let date = UTCTime.format(day * 86_400)
        return String(date.dropFirst(5).prefix(5))
    }
}
