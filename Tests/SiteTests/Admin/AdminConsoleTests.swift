import Storage
import Synchronization
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

#if canImport(Glibc)
import Glibc
#endif

/// The admin console as a new operator meets it: the dashboard, maintenance with its confirmation and history, the
/// rule preview, scheduled changes on a controlled clock, times in UTC.
@Suite("Admin console", .serialized)
struct AdminConsoleTests {
    /// 2026-11-22 23:14:00 UTC, moved by the tests.
    final class Clock: Sendable {
        let seconds = Mutex<Double>(1_795_389_240)
        func advance(_ by: Double) { seconds.withLock { $0 += by } }
        var now: Int { Int(seconds.withLock { $0 }) }
    }

    static func server(_ clock: Clock, engine: Engine = .sqlite, database: DatabaseLocation? = nil) throws -> SiteServer
    {
        try SiteServer(engine: engine, routes: nil) { options in
            options.clock = { clock.seconds.withLock { $0 } }
            if let database { options.database = database }
        }
    }

    static func admin(_ server: SiteServer, create: Bool = true) throws -> Player {
        if create { try server.site.admins.create(name: "frank", password: "correct horse battery") }
        let player = Player(server)
        try player.get("/admin/login")
        #expect(try player.post("/admin/login", "name=frank&password=correct+horse+battery").status == 303)
        return player
    }

    /// Polls (the ticker runs four times a second) until `condition` holds; false after `seconds`.
    static func within(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        for _ in 0..<Int(seconds * 20) {
            if try condition() { return true }
            usleep(50_000)
        }
        return try condition()
    }

    @Test(arguments: Engine.allCases) func theAuditLogShowsUTCTimesAndAFailedSignInKeepsTheName(_ engine: Engine) throws
    {
        let clock = Clock()
        let server = try Self.server(clock, engine: engine)
        defer { server.stop() }
        try server.site.admins.create(name: "frank", password: "correct horse battery")
        let visitor = Player(server)
        try visitor.get("/admin/login")
        let failed = try visitor.post("/admin/login", "name=frank&password=nope")
        #expect(failed.status == 401)
        #expect(failed.text.contains("value=\"frank\""), "the name stays; the password never comes back")
        #expect(!failed.text.contains("nope"))
        let admin = try Self.admin(server, create: false)
        let audit = try admin.get("/admin/audit").text
        #expect(audit.contains("2026-11-22 23:14 UTC"))
        #expect(!audit.contains("1795389240"))
    }

    @Test(arguments: Engine.allCases) func theDashboardShowsStatesAndRecentChanges(_ engine: Engine) throws {
        let clock = Clock()
        let server = try Self.server(clock, engine: engine)
        defer { server.stop() }
        let admin = try Self.admin(server)
        var page = try admin.get("/admin").text
        #expect(page.contains("data-maintenance-web=\"off\""))
        #expect(page.contains("data-rules-web=\"0\""))
        #expect(page.contains("data-hotfixes-de=\"0\""))
        #expect(page.contains("data-scheduled=\"0\""))
        #expect(try admin.post("/admin/maintenance", "platform=ios&switch=on&confirm=1&message_en=Soon").status == 303)
        try server.site.interceptions.addRule(
            platform: "web", restriction: .high, active: true, minimumApp: ("2", [:]), minimumOS: nil)
        #expect(try admin.post("/admin/hotfixes", "key=home.title&language=de&value=Spielhalle").status == 303)
        page = try admin.get("/admin").text
        #expect(page.contains("data-maintenance-ios=\"on\""))
        #expect(page.contains("data-maintenance-web=\"off\""))
        #expect(page.contains("data-rules-web=\"1\""))
        #expect(page.contains("data-hotfixes-de=\"1\""))
        #expect(page.contains("data-hotfixes-fr=\"0\""))
        #expect(page.contains("Hotfix set") && page.contains("home.title [de]"), "the recent changes")
        for editor in ["/admin/maintenance", "/admin/rules", "/admin/hotfixes", "/admin/audit", "/admin/schedule"] {
            #expect(page.contains("href=\"\(editor)\""))
        }
    }

    @Test(arguments: Engine.allCases) func maintenanceAsksFirstShowsItsStateAndEndAndReverts(_ engine: Engine) throws {
        let clock = Clock()
        let server = try Self.server(clock, engine: engine)
        defer { server.stop() }
        let admin = try Self.admin(server)
        var page = try admin.get("/admin/maintenance").text
        // The web comes first, and its state is said in words.
        let web = try #require(page.firstRange(of: "data-platform=\"web\""))
        let ios = try #require(page.firstRange(of: "data-platform=\"ios\""))
        #expect(web.lowerBound < ios.lowerBound)
        #expect(page.contains("data-state=\"off\""))
        // Switching on asks once more and changes nothing yet.
        let ask = try admin.post("/admin/maintenance", "platform=web&switch=on&message_en=Back+soon&minutes=10")
        #expect(ask.status == 200)
        #expect(ask.text.contains("data-confirm") && ask.text.contains("503"))
        #expect(try Player(server).get("/").status == 200)
        let confirm = try admin.post(
            "/admin/maintenance", "platform=web&switch=on&message_en=Back+soon&minutes=10&confirm=1")
        #expect(confirm.status == 303)
        page = try admin.get("/admin/maintenance").text
        #expect(page.contains("data-flash") && page.contains("Maintenance is on for web"))
        #expect(page.contains("data-platform=\"web\" data-state=\"on\""))
        #expect(page.contains("Ends 2026-11-22 23:24 UTC."), "the end time shows after saving")
        #expect(page.contains("value=\"2026-11-22T23:24\""))
        #expect(!(try admin.get("/admin/maintenance").text.contains("data-flash")), "the message shows once")
        // The 503 page offers only to try again: no link leads to another closed page.
        let closed = try Player(server).get("/mastermind?x=1")
        #expect(closed.status == 503)
        #expect(closed.text.contains("Back soon"))
        #expect(closed.text.contains("href=\"/mastermind?x=1\" data-retry"))
        for link in ["href=\"/\"", "href=\"/namegame\"", "href=\"/progress\"", "action=\"/theme\""] {
            #expect(!closed.text.contains(link), "\(link)")
        }
        // History: the change, with revert (itself audited).
        page = try admin.get("/admin/maintenance").text
        let change = try #require(Player.attribute("data-change", in: page))
        #expect(try admin.post("/admin/maintenance/revert", "change=\(change)").status == 303)
        #expect(try Player(server).get("/").status == 200)
        #expect(try admin.get("/admin/maintenance").text.contains("data-platform=\"web\" data-state=\"off\""))
        let audit = try admin.get("/admin/audit").text
        #expect(audit.split(separator: "data-action=\"maintenance\"", omittingEmptySubsequences: false).count - 1 == 2)
    }

    @Test(arguments: Engine.allCases) func aMaintenanceEndTimeEndsItWithoutARequest(_ engine: Engine) throws {
        let clock = Clock()
        let server = try Self.server(clock, engine: engine)
        defer { server.stop() }
        let admin = try Self.admin(server)
        #expect(try admin.post("/admin/maintenance", "platform=web&switch=on&confirm=1&minutes=10").status == 303)
        #expect(try Player(server).get("/").status == 503)
        clock.advance(9 * 60)
        usleep(600_000)
        #expect(try server.site.interceptions.maintenance("web").active, "not before its time")
        clock.advance(61)
        #expect(try Self.within(10) { try !server.site.interceptions.maintenance("web").active }, "the ticker ends it")
        // Pages follow once the change reaches the site's copy (on PostgreSQL by its notification): waited for.
        #expect(try Self.within(10) { try Player(server).get("/").status == 200 })
    }

    @Test func updateRequiredOffersAReloadAndNoWayRound() throws {
        let server = try SiteServer()
        defer { server.stop() }
        try server.site.interceptions.addRule(
            platform: "web", restriction: .high, active: true, minimumApp: ("99", ["en": "Please reload."]),
            minimumOS: nil)
        let page = try Player(server).get("/mastermind")
        #expect(page.text.contains("data-update=\"high\""))
        #expect(page.text.contains("href=\"/mastermind\" data-reload"))
        #expect(!page.text.contains("href=\"/namegame\""), "the other game leads to the same page")
        #expect(
            page.text.split(separator: "Please reload.", omittingEmptySubsequences: false).count == 2,
            "said once, not again in a banner")
    }

    @Test func rulePreviewWorksWithoutAnOSAndKeepsTheAdminsLanguage() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let admin = try Self.admin(server)
        try server.site.interceptions.addRule(
            platform: "web", restriction: .medium, active: true,
            minimumApp: ("3", ["en": "Old", "ja": "古い"]), minimumOS: ("10", [:]))
        let page = try admin.get("/admin/rules?preview=1&platform=web&app=2&os=&language=ja").text
        #expect(page.contains("data-preview-rule=\"1\""))
        #expect(page.contains("古い"), "the message in the previewed language")
        #expect(page.contains("<html lang=\"en\""), "the admin's own language is unchanged")
        #expect(try admin.get("/admin").text.contains("<html lang=\"en\""), "and it does not stick")
        // Blank OS: OS minimums are not checked (app 5 passes, though OS 10 is required).
        #expect(try admin.get("/admin/rules?preview=1&platform=web&app=5&os=").text.contains("no rule is violated"))
        // A version that is not one says so.
        #expect(try admin.get("/admin/rules?preview=1&platform=web&app=x&os=").text.contains("data-preview-error"))
    }

    @Test func ruleChangesHaveHistoryAndRevert() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let admin = try Self.admin(server)
        #expect(try admin.post("/admin/rules", "platform=ios&active=on&restriction=2&app_version=5").status == 303)
        #expect(try admin.post("/admin/rules", "id=1&platform=ios&active=on&restriction=0&app_version=7").status == 303)
        var rule = try #require(try server.site.interceptions.rule(1))
        #expect(rule.restriction == .low && rule.minimumApp?.version.text == "7")
        let changes = try server.site.interceptions.history(.rule, target: "#1")
        #expect(changes.count == 2)
        // Revert the edit: high and 5 again.
        #expect(try admin.post("/admin/rules/revert", "change=\(changes[0].id)").status == 303)
        rule = try #require(try server.site.interceptions.rule(1))
        #expect(rule.restriction == .high && rule.minimumApp?.version.text == "5")
        // The levels read in the admin's language, in the rule's heading and both forms (a review: English in every one).
        let german = try admin.get("/admin/rules?lang=de").text
        #expect(
            german.contains("<span>hoch</span></h2>") && german.contains(">niedrig</option>")
                && !german.contains(">low<"))
        // Delete, then revert the deletion: the same rule, same id.
        #expect(try admin.post("/admin/rules", "id=1&delete=1").status == 303)
        #expect(try server.site.interceptions.rule(1) == nil)
        let deletion = try #require(try server.site.interceptions.history(.rule, target: "#1").first)
        #expect(try admin.post("/admin/rules/revert", "change=\(deletion.id)").status == 303)
        #expect(try server.site.interceptions.rule(1)?.restriction == .high)
        #expect(try admin.post("/admin/rules/revert", "change=999").status == 422)
        let audit = try admin.get("/admin/audit").text
        #expect(audit.contains("data-action=\"delete rule\"") && audit.contains("data-action=\"edit rule\""))
    }

    @Test(arguments: Engine.allCases) func aScheduledMaintenanceWindowStartsAndEndsOnTime(_ engine: Engine) throws {
        let clock = Clock()
        let server = try Self.server(clock, engine: engine)
        defer { server.stop() }
        let admin = try Self.admin(server)
        // 23:20 to 23:30 UTC, six minutes ahead.
        #expect(
            try admin.post(
                "/admin/schedule",
                "kind=maintenance&platform=web&starts=2026-11-22T23:20&ends=2026-11-22T23:30"
                    + "&message_en=Upgrading"
            ).status == 303)
        #expect(try admin.get("/admin").text.contains("data-scheduled=\"1\""))
        #expect(try admin.get("/admin/schedule").text.contains("2026-11-22 23:20 UTC → 2026-11-22 23:30 UTC"))
        clock.advance(5 * 60 + 50)
        usleep(600_000)
        #expect(try Player(server).get("/").status == 200, "not before its time")
        clock.advance(10)
        #expect(try Self.within(2) { try Player(server).get("/").status == 503 })
        #expect(try Player(server).get("/").text.contains("Upgrading"))
        clock.advance(10 * 60)
        #expect(try Self.within(2) { try Player(server).get("/").status == 200 })
        #expect(try admin.get("/admin").text.contains("data-scheduled=\"0\""))
        #expect(
            try server.site.interceptions.history(.maintenance, target: "web").count == 2,
            "start and end, in the history")
        // Refused: an end before the start, a start that is not a time.
        #expect(
            try admin.post(
                "/admin/schedule", "kind=maintenance&platform=web&starts=2026-11-23T10:00&ends=2026-11-23T09:00"
            ).status == 422)
        #expect(try admin.post("/admin/schedule", "kind=maintenance&platform=web&starts=soon").status == 422)
        #expect(
            try admin.post(
                "/admin/schedule", "kind=hotfix&key=home.title&language=de&value=%25d&starts=2026-11-23T10:00"
            ).status == 422,
            "a hotfix that breaks placeholders is refused when scheduled, not at its time")
    }

    @Test(arguments: Engine.allCases) func aScheduledHotfixSurvivesARestartAndPutsTheTextBack(_ engine: Engine) throws {
        let clock = Clock()
        let scratch = ScratchDirectory()
        let database = try TestDatabase.fresh(engine, in: scratch, name: "restart")
        var server = try Self.server(clock, database: database)
        let admin = try Self.admin(server)
        #expect(
            try admin.post(
                "/admin/schedule",
                "kind=hotfix&key=home.title&language=en&value=Holiday+Arcade"
                    + "&starts=2026-11-23T00:00&ends=2026-11-23T01:00"
            ).status == 303)
        server.stop()
        // Started again, with nobody visiting: the hotfix starts at its time, then the shipped text comes back.
        server = try Self.server(clock, database: database)
        defer { server.stop() }
        clock.advance(46 * 60 + 5)
        #expect(try Self.within(2) { server.site.localizer.string("home.title", language: "en") == "Holiday Arcade" })
        clock.advance(3600)
        #expect(try Self.within(2) { server.site.localizer.string("home.title", language: "en") != "Holiday Arcade" })
        #expect(try Player(server).get("/").text.contains("<h1>"))
    }

    /// Regression for the editor that reset to "all languages" with the English text after a save.
    @Test func theHotfixEditorChangesOneLanguageAtATimeAndAsksBeforeAll() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let admin = try Self.admin(server)
        // The first screen is a search, not every key.
        let first = try admin.get("/admin/hotfixes").text
        #expect(first.contains("data-hotfix-hint"))
        #expect(!first.contains("data-key="))
        // Each language's row shows what it ships.
        var page = try admin.get("/admin/hotfixes?q=home.heading").text
        #expect(page.contains("data-language=\"fr\""))
        #expect(page.contains("Choisissez un jeu") && page.contains("Pick a game"))
        #expect(!page.contains("<option value=\"*\""), "no language chooser that starts at all languages")
        // Setting German touches German only, and says so.
        let saved = try admin.post("/admin/hotfixes", "key=home.heading&language=de&value=Such+dir+ein+Spiel+aus")
        #expect(saved.status == 303)
        page = try admin.get(saved.header("Location") ?? "").text
        #expect(page.contains("data-flash") && page.contains("Saved home.heading for de."))
        #expect(page.contains("data-override=\"de\""))
        #expect(!page.contains("data-override=\"fr\"") && !page.contains("data-override=\"*\""))
        #expect(try server.get("/?lang=fr").text.contains("<h1>Choisissez un jeu</h1>"))
        #expect(try server.get("/?lang=de").text.contains("<h1>Such dir ein Spiel aus</h1>"))
        // Every language at once: first a list of what it replaces, and nothing changes yet.
        let ask = try admin.post("/admin/hotfixes", "key=home.heading&language=*&value=Play")
        #expect(ask.status == 200)
        #expect(ask.text.contains("data-replaces"))
        #expect(
            ask.text.contains("data-language=\"ja\"") && ask.text.contains("keeps its own hotfix"),
            "German keeps its own")
        #expect(try server.get("/?lang=fr").text.contains("<h1>Choisissez un jeu</h1>"))
        #expect(try admin.post("/admin/hotfixes", "key=home.heading&language=*&value=Play&confirm=1").status == 303)
        #expect(try server.get("/?lang=fr").text.contains("<h1>Play</h1>"))
        #expect(try server.get("/?lang=de").text.contains("<h1>Such dir ein Spiel aus</h1>"))
        // With no search, the keys that have hotfixes are listed.
        #expect(try admin.get("/admin/hotfixes").text.contains("data-key=\"home.heading\""))
    }

    @Test func theMissingTranslationReportListsWhatFallsBackToTheBase() throws {
        let scratch = ScratchDirectory()
        let copy = scratch.path + "/Localizations"
        #expect(
            system(
                "cp -r Localizations '\(copy)' && sed -i '/^\"home.heading\" =/d' '\(copy)/fr.lproj/Localizable.strings'"
            ) == 0)
        let server = try SiteServer(routes: nil) { $0.localizations = copy }
        defer { server.stop() }
        let admin = try Self.admin(server)
        var page = try admin.get("/admin/strings").text
        #expect(page.contains("data-missing-language=\"fr\" data-missing=\"1\""))
        #expect(page.contains("data-missing-language=\"de\" data-missing=\"0\""))
        #expect(page.contains("data-missing-key=\"home.heading\""))
        #expect(!page.contains("data-hotfixed"))
        #expect(
            try server.get("/?lang=fr").text.contains("<h1>Pick a game</h1>"), "the base shows where French has none")
        #expect(try admin.post("/admin/hotfixes", "key=home.heading&language=fr&value=Choisissez").status == 303)
        page = try admin.get("/admin/strings").text
        #expect(page.contains("data-hotfixed"))
    }
}
