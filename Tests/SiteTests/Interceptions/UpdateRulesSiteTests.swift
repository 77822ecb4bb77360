import Interceptions
import Storage
import Synchronization
import TestSupport
import Testing
import Threads

@testable import ArcadeStore
@testable import ArcadeWeb

#if canImport(Glibc)
import Glibc
#endif

@Suite("Update rules for browsers")
struct UpdateRulesSiteTests {
    static let iPhone17 =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 Version/17.1 Mobile/15E148 Safari/604.1"
    static let windows10 = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36"

    func player(_ server: SiteServer, agent: String) -> (String) throws -> WireResponse {
        let player = Player(server)
        return { path in
            let response = try server.get(path, headers: ["Cookie": player.cookieHeader, "User-Agent": agent])
            player.absorb(response)
            return response
        }
    }

    @Test(arguments: Engine.allCases) func lowIsADismissibleBannerRememberedFor24Hours(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        // The web app is version 1.1.0; this low rule wants 2.0.
        try server.site.interceptions.addRule(
            platform: "web", restriction: .low, active: true,
            minimumApp: ("2.0", ["en": "A fresher Arcade is on the way."]), minimumOS: nil)
        let player = Player(server)
        let home = try player.get("/")
        #expect(home.text.contains("data-update=\"low\""))
        #expect(home.text.contains("A fresher Arcade is on the way."))
        #expect(try player.get("/mastermind").text.contains("data-update=\"low\""), "game pages stay, with the banner")
        #expect(try player.post("/once/dismiss", "task=update.dismissed&back=/").status == 303)
        #expect(!(try player.get("/").text.contains("data-update")), "dismissed for a day")
    }

    @Test(arguments: Engine.allCases) func mediumIsAPersistentWarning(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        try server.site.interceptions.addRule(
            platform: "web", restriction: .medium, active: true, minimumApp: nil,
            minimumOS: ("18", ["en": "Your system will soon be too old."]), os: "ios")
        let get = player(server, agent: Self.iPhone17)
        let page = try get("/")
        #expect(page.text.contains("data-update=\"medium\""))
        #expect(!page.text.contains("data-dismiss-update"), "no dismiss button")
        #expect(try get("/mastermind").text.contains("data-update=\"medium\""), "it stays on every page")
        // Windows reports 10.0, below 18 too, but the rule is for iOS.
        #expect(!(try server.get("/", headers: ["User-Agent": Self.windows10]).text.contains("data-update")))
    }

    @Test(arguments: Engine.allCases) func highReplacesGamePagesOnly(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        try server.site.interceptions.addRule(
            platform: "web", restriction: .high, active: true, minimumApp: nil,
            minimumOS: ("11", ["en": "Windows 11 or newer is needed to play."]))
        let windows = player(server, agent: Self.windows10)
        let game = try windows("/mastermind")
        #expect(game.text.contains("data-update=\"high\""))
        #expect(game.text.contains("Windows 11 or newer is needed to play."))
        #expect(!game.text.contains("id=\"board\""), "the game is replaced")
        #expect(try windows("/namegame/normal").text.contains("data-update=\"high\""))
        #expect(try windows("/").text.contains("data-update=\"high\""), "other pages keep a warning")
        #expect(try server.get("/css/site.css", headers: ["User-Agent": Self.windows10]).status == 200)
        #expect(try server.get("/healthz", headers: ["User-Agent": Self.windows10]).status == 200)
        #expect(try server.get("/admin/login", headers: ["User-Agent": Self.windows10]).status == 200)
        // A newer system plays on.
        let iphone = player(server, agent: Self.iPhone17)
        #expect(try iphone("/mastermind").text.contains("id=\"board\""))
        #expect(!(try iphone("/mastermind").text.contains("data-update")))
    }

    /// A rule saved is the rule every page meets next, while pages keep asking: a reading of the rules begun before
    /// the save committed is not kept after it (it was, until the next change).
    @Test(arguments: Engine.allCases) func aSavedRuleIsNotHiddenByAReadingBegunBeforeIt(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let store = server.site.interceptions
        // Many rules, so that each reading takes a while (the window a save falls into).
        _ = try Database(location: server.database).execute(
            """
            INSERT INTO update_rules (platform, restriction, active, min_app_version)
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) SELECT 'ios', 0, 0, '1.0' FROM n
            """)
        let id = try store.addRule(
            platform: "web", restriction: .low, active: false, minimumApp: ("9.0", [:]), minimumOS: nil)
        let stop = Atomic<Bool>(false)
        let readings = Atomic<Int>(0)
        // Pages, asking all the while.
        let pages = OSThread {
            while !stop.load(ordering: .acquiring) {
                _ = try? store.cachedRules()
                readings.add(1, ordering: .relaxed)
            }
        }
        defer {
            stop.store(true, ordering: .releasing)
            pages.join()
        }
        var hidden = 0
        for round in 1...20 {
            let active = round % 2 == 1
            // Another instance's change, heard: the pages read the rules again, and the save falls into that reading.
            store.changed()
            #expect(
                try store.updateRule(
                    id, platform: "web", restriction: .low, active: active, minimumApp: ("9.0", [:]), minimumOS: nil))
            // Checked after the save, and again once the pages' reading under way has ended.
            let begun = readings.load(ordering: .relaxed)
            if try store.cachedRules().first(where: { $0.id == id })?.active != active { hidden += 1 }
            while readings.load(ordering: .relaxed) < begun + 2 { usleep(500) }
            if try store.cachedRules().first(where: { $0.id == id })?.active != active { hidden += 1 }
        }
        #expect(readings.load(ordering: .relaxed) > 40, "pages kept asking")
        #expect(hidden == 0, "\(hidden) of 40 looks at the rules missed the save")
    }
}
