import Storage
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

@Suite("/admin/insights: charts drawn on the server, their numbers beside them")
struct InsightsTests {
    @Test func aWinShowsInTheChartsAndTheirTables() throws {
        let server = try SiteServer(routes: nil)
        defer { server.stop() }
        let player = Player(server)
        try player.get("/")
        try player.startMastermind()
        #expect(try player.post("/mastermind/guess", "guess=\(wrong(try player.secret(), 1))").status == 303)
        #expect(try player.post("/mastermind/guess", "guess=\(try player.secret())").status == 303)
        let admin = try AdminConsoleTests.admin(server)
        let page = try admin.get("/admin/insights")
        #expect(page.status == 200)
        let html = page.text
        for id in ["active", "mastermind", "namegame", "guesses", "daily", "accuracy", "cheats", "traffic", "hardest"] {
            #expect(html.contains("data-chart=\"\(id)\""), "\(id)")
        }
        #expect(html.components(separatedBy: "role=\"img\"").count - 1 == 8, "every chart is an image with a name")
        #expect(html.contains("<title id=\"mastermind-title\">") && html.contains("<desc id=\"mastermind-desc\">"))
        // Today's row of the Mastermind table: one started, one finished, one won.
        let today = InsightsController.dayLabel(Int(ServeOptions().clock()) / 86_400)
        let mastermind = try #require(html.components(separatedBy: "data-chart=\"mastermind\"").dropFirst().first)
        #expect(mastermind.contains("<th scope=\"row\">\(today)</th><td>1</td><td>1</td><td>1</td>"), "\(today)")
        // Two guesses won it.
        let guesses = try #require(html.components(separatedBy: "data-chart=\"guesses\"").dropFirst().first)
        #expect(guesses.contains("<th scope=\"row\">2</th><td>1</td>"))
        // A player is not an admin.
        #expect(try player.get("/admin/insights").status != 200)
    }

    @Test func theAxisScaleIsRound() {
        #expect(BarChart.scale(0) == (1, 1))
        #expect(BarChart.scale(2) == (2, 1), "no half games")
        #expect(BarChart.scale(7) == (8, 2))
        #expect(BarChart.scale(100) == (100, 20))
        #expect(BarChart.scale(1234) == (1500, 500))
    }
}
