import TestSupport
#if canImport(Glibc)
import Glibc
#endif
import Testing
import Storage
import Synchronization
@testable import ArcadeApp

@Suite("Admin accounts and sessions", .serialized)
struct AdminTests {
    func signIn(_ player: Player, _ name: String, _ password: String) throws -> WireResponse {
        try player.get("/admin/login")
        return try player.post("/admin/login", "name=\(name)&password=\(password.addingFormEncoding)")
    }

    @Test(arguments: Engine.allCases) func theCommandLineCreatesAnAdminFromStandardInput(_ engine: Engine) throws {
        let scratch = ScratchDirectory()
        let location = try TestDatabase.fresh(engine, in: scratch, name: "admins")
        let db = location.argument
        scratch.write("password.txt", "correct horse battery\n")
        // The password comes from standard input, never from the command line.
        let shell = "'\(ChildProcess.arcadeBinary)' admin create alice --db '\(db)' < '\(scratch.path)/password.txt'"
        #expect(system(shell) == 0)
        let store = AdminStore(pool: DatabasePool(location: location))
        #expect(try store.verify(name: "alice", password: "correct horse battery")?.name == "alice")
        #expect(try store.verify(name: "alice", password: "wrong") == nil)
        let row = try #require(try Database(location: location).first("SELECT * FROM admins WHERE name = 'alice'"))
        #expect(row.int("iterations")! >= 600_000)
        #expect(row.blob("hash")?.count == 32 && row.blob("salt")?.count == 16)
        scratch.write("short.txt", "short\n")
        #expect(system("'\(ChildProcess.arcadeBinary)' admin create bob --db '\(db)' < '\(scratch.path)/short.txt' 2>/dev/null") != 0)
    }

    @Test(arguments: Engine.allCases) func signInSessionsAndSignOut(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        try server.site.admins.create(name: "alice", password: "correct horse battery")
        let player = Player(server)
        // Without a session: pages send to sign-in, the API says 401.
        let page = try player.get("/admin")
        #expect(page.status == 303)
        #expect(page.header("Location") == "/admin/login")
        #expect(try player.get("/admin/audit").status == 303)
        #expect(try player.get("/api/admin/session").status == 401)
        // A wrong password is 401 with a clear message.
        let wrong = try signIn(player, "alice", "nope")
        #expect(wrong.status == 401)
        #expect(wrong.text.contains("do not match"))
        // The right one: a session cookie, HttpOnly and SameSite=Strict.
        let right = try signIn(player, "alice", "correct horse battery")
        #expect(right.status == 303)
        let cookie = try #require(right.headers.first { $0.0 == "Set-Cookie" && $0.1.hasPrefix("arcade_admin=") }?.1)
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        let token = try #require(right.cookies["arcade_admin"])
        #expect(Array(token.utf8).count == 43, "256 random bits")
        let db = try Database(location: server.database)
        #expect(try db.first("SELECT COUNT(*) AS n FROM admin_sessions WHERE token_hash = ?", [.text(token)])?.int("n") == 0,
                "only a hash of the token is stored")
        #expect(try player.get("/admin").text.contains("data-admin=\"alice\""))
        #expect(try player.get("/api/admin/session").text.contains("\"admin\":\"alice\""))
        let audit = try player.get("/admin/audit").text
        #expect(audit.contains("data-action=\"sign-in\""))
        // Sign-out needs the CSRF token, ends the session and clears the cookie.
        #expect(try server.post("/admin/logout", body: "", headers: ["Cookie": player.cookieHeader]).status == 403)
        #expect(try player.post("/admin/logout", "").status == 303)
        player.cookies["arcade_admin"] = token
        #expect(try player.get("/admin").status == 303, "the old token no longer works")
    }

    @Test(arguments: Engine.allCases) func sessionsEndAfterThirtyIdleMinutesAndActivityKeepsThemAlive(_ engine: Engine) throws {
        let scratch = ScratchDirectory()
        let location = try TestDatabase.fresh(engine, in: scratch, name: "idle")
        try Database(location: location).migrate(Schema.migrations)
        let now = Atomic<Int>(1_800_000_000)
        let store = AdminStore(pool: DatabasePool(location: location), clock: { now.load(ordering: .relaxed) })
        try store.create(name: "erin", password: "correct horse battery")
        let erin = try #require(try store.verify(name: "erin", password: "correct horse battery"))
        let token = try store.startSession(erin)
        // Each request resets the idle clock, so a session used every 29 minutes lives on.
        for _ in 0..<4 {
            now.add(29 * 60, ordering: .relaxed)
            #expect(try store.session(token) == erin)
        }
        // Exactly 30 idle minutes is still in; one second more is out, for good.
        now.add(30 * 60, ordering: .relaxed)
        #expect(try store.session(token) == erin)
        now.add(30 * 60 + 1, ordering: .relaxed)
        #expect(try store.session(token) == nil)
        now.add(-(30 * 60 + 1), ordering: .relaxed)
        #expect(try store.session(token) == nil, "an expired session is deleted, not merely refused")
        #expect(try Database(location: location).first("SELECT COUNT(*) AS n FROM admin_sessions")?.int("n") == 0)
        // Failed sign-ins count for 15 minutes, then stop counting.
        for _ in 0..<5 { try store.recordFailure(name: "erin", address: "192.0.2.1") }
        #expect(try store.recentFailures(name: "erin", address: "192.0.2.1") == 5)
        now.add(15 * 60 - 1, ordering: .relaxed)
        #expect(try store.recentFailures(name: "erin", address: "192.0.2.1") == 5)
        now.add(1, ordering: .relaxed)
        #expect(try store.recentFailures(name: "erin", address: "192.0.2.1") == 0)
    }

    @Test(arguments: Engine.allCases) func anIdleSessionSendsTheAdminBackToSignIn(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        try server.site.admins.create(name: "frank", password: "correct horse battery")
        let player = Player(server)
        #expect(try signIn(player, "frank", "correct horse battery").status == 303)
        #expect(try player.get("/admin").status == 200)
        // Age the stored session past the idle limit, as 31 quiet minutes would.
        try Database(location: server.database).execute("UPDATE admin_sessions SET last_seen = last_seen - 31 * 60")
        let page = try player.get("/admin")
        #expect(page.status == 303)
        #expect(page.header("Location") == "/admin/login")
        #expect(try player.get("/api/admin/session").status == 401)
    }

    @Test(arguments: Engine.allCases) func fiveFailuresPerAccountAndAddressGive429(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        try server.site.admins.create(name: "carol", password: "correct horse battery")
        let player = Player(server)
        for _ in 0..<5 { #expect(try signIn(player, "carol", "guess").status == 401) }
        let throttled = try signIn(player, "carol", "correct horse battery")
        #expect(throttled.status == 429, "even the right password waits")
        #expect(throttled.header("Retry-After") == "900")
        #expect(try signIn(player, "dave", "whatever").status == 401, "another account is not throttled")
    }

    @Test(arguments: Engine.allCases) func signInNeedsTheFormToken(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        try server.site.admins.create(name: "erin", password: "correct horse battery")
        let player = Player(server)
        try player.get("/admin/login")
        let forged = try server.post("/admin/login", body: "name=erin&password=correct+horse+battery", headers: ["Cookie": player.cookieHeader])
        #expect(forged.status == 403)
    }

    @Test(arguments: Engine.allCases) func adminWorksDuringMaintenance(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        try server.site.interceptions.setMaintenance("web", .init(active: true))
        let player = Player(server)
        #expect(try player.get("/").status == 503)
        #expect(try player.get("/admin/login").status == 200)
    }
}

@Suite("The hotfix editor", .serialized)
struct HotfixEditorTests {
    func admin(_ server: SiteServer) throws -> Player {
        try server.site.admins.create(name: "frank", password: "correct horse battery")
        let player = Player(server)
        try player.get("/admin/login")
        #expect(try player.post("/admin/login", "name=frank&password=correct+horse+battery").status == 303)
        return player
    }

    @Test(arguments: Engine.allCases) func placeholdersMustSurvive(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let admin = try admin(server)
        // "Version %@": a %d or a missing placeholder is refused, with the reason.
        let wrongType = try admin.post("/admin/hotfixes", "key=footer.version&language=*&value=" + "Release %d".addingFormEncoding)
        #expect(wrongType.status == 422)
        #expect(wrongType.text.contains("expected %1$@, found %1$d"))
        #expect(try admin.post("/admin/hotfixes", "key=footer.version&language=*&value=Release").status == 422)
        #expect(try admin.post("/admin/hotfixes", "key=no.such.key&language=*&value=x").status == 422)
        #expect(try admin.post("/admin/hotfixes", "key=footer.version&language=xx&value=" + "V %@".addingFormEncoding).status == 422)
        #expect(try admin.post("/admin/hotfixes", "key=footer.version&language=*&confirm=1&value=" + "Release %@".addingFormEncoding).status == 303)
        #expect(try Player(server).get("/").text.contains("Release 1.0.0"))
    }

    @Test(arguments: Engine.allCases) func pluralFormsAreHotfixedOneAtATime(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let admin = try admin(server)
        let key = "home.games.count#games.other"
        // The editor lists every form a language ships, Russian's `few` included, with the base text.
        let page = try admin.get("/admin/hotfixes?q=home.games.count").text
        #expect(page.contains("data-key=\"\(key)\""))
        #expect(page.contains("data-key=\"home.games.count#games.few\""))
        #expect(page.contains("%d games"))
        // The form's placeholder must survive.
        let refused = try admin.post("/admin/hotfixes", "key=\(key.addingFormEncoding)&language=en&value=" + "%@ games".addingFormEncoding)
        #expect(refused.status == 422)
        #expect(refused.text.contains("expected %1$d, found %1$@"))
        #expect(try admin.post("/admin/hotfixes", "key=home.games.count%23games.seven&language=en&value=x").status == 422)
        let before = try Player(server).get("/").text
        #expect(before.contains("(2 games)"))
        #expect(try admin.post("/admin/hotfixes", "key=\(key.addingFormEncoding)&language=en&value=" + "%d arcade games".addingFormEncoding).status == 303)
        #expect(try Player(server).get("/").text.contains("(2 arcade games)"))
        #expect(try server.get("/", headers: ["Accept-Language": "de"]).text.contains("(2 Spiele)"), "only English changed")
        let interceptions = try Player(server).get("/api/interceptions").text
        #expect(interceptions.contains("\"\(key)\":\"%d arcade games\""))
        // Reverting brings the shipped form back.
        let history = try admin.get("/admin/hotfixes?q=\(key.addingFormEncoding)").text
        let change = try #require(Player.attribute("data-change", in: history))
        #expect(try admin.post("/admin/hotfixes/revert", "change=\(change)&key=\(key.addingFormEncoding)").status == 303)
        #expect(try Player(server).get("/").text.contains("(2 games)"))
    }

    @Test(arguments: Engine.allCases) func aLanguageHotfixHistoryAndRevert(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let admin = try admin(server)
        let xss = "<script>alert(1)</script> Jouez !"
        #expect(try admin.post("/admin/hotfixes", "key=home.heading&language=fr&value=" + xss.addingFormEncoding).status == 303)
        let player = Player(server)
        let french = try player.get("/?lang=fr").text
        #expect(french.contains("<h1>&lt;script&gt;alert(1)&lt;/script&gt; Jouez !</h1>"), "shown, and inert")
        #expect(try player.get("/?lang=en").text.contains("<h1>Pick a game</h1>"), "other languages keep theirs")
        let page = try admin.get("/admin/hotfixes?q=home.heading").text
        let change = try #require(Player.attribute("data-change", in: page))
        #expect(page.contains("data-override=\"fr\""))
        #expect(try admin.post("/admin/hotfixes/revert", "change=\(change)&key=home.heading").status == 303)
        #expect(try player.get("/?lang=fr").text.contains("<h1>Choisissez un jeu</h1>"))
        let audit = try admin.get("/admin/audit").text
        #expect(audit.contains("data-action=\"set hotfix\"") && audit.contains("data-action=\"remove hotfix\""))
        // Without a session, nothing changes.
        let outsider = Player(server)
        try outsider.get("/")
        #expect(try outsider.post("/admin/hotfixes", "key=home.heading&language=*&value=Hacked").status == 303)
        #expect(!(try player.get("/?lang=en").text.contains("Hacked")))
    }

    @Test(arguments: Engine.allCases) func constantHotfixesKeepTheirTypeAndSurviveRestart(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        let admin = try admin(server)
        let wrong = try admin.post("/admin/constants", "key=mastermind.attempts&value=ten")
        #expect(wrong.status == 422)
        #expect(wrong.text.contains("integer"))
        #expect(try admin.post("/admin/constants", "key=nope&value=1").status == 422)
        #expect(try admin.post("/admin/constants", "key=mastermind.attempts&value=12").status == 303)
        #expect(try admin.post("/admin/constants", "key=namegame.hintInterval&value=1.5").status == 303)
        let player = Player(server)
        #expect(try player.get("/mastermind").text.contains("you have 12 tries"))
        let api = try server.get("/api/interceptions").text
        #expect(api.contains("\"mastermind.attempts\":12"), "a number stays a number")
        server.stop()
        var options = ServeOptions()
        options.database = server.database
        let restarted = try Site(options: options)
        #expect(restarted.constants.int("mastermind.attempts", default: 0) == 12)
        #expect(restarted.constants.double("namegame.hintInterval", default: 0) == 1.5)
    }

    @Test(arguments: Engine.allCases) func aConstantHotfixReverts(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let admin = try admin(server)
        #expect(try admin.post("/admin/constants", "key=site.version&value=2.0.0").status == 303)
        let page = try admin.get("/admin/hotfixes?q=site.version").text
        let change = try #require(Player.attribute("data-change", in: page))
        #expect(try admin.post("/admin/hotfixes/revert", "change=\(change)&key=site.version").status == 303)
        #expect(server.site.constants.string("site.version", default: "") == "1.0.0")
    }

    @Test(arguments: Engine.allCases) func maintenanceFromTheAdminPages(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let admin = try admin(server)
        #expect(try admin.post("/admin/maintenance", "platform=web&switch=on&confirm=1&message_en=Back+at+noon&minutes=30").status == 303)
        let page = try Player(server).get("/")
        #expect(page.status == 503)
        #expect(page.text.contains("Back at noon"))
        #expect((1700...1800).contains(Int(page.header("Retry-After") ?? "") ?? 0))
        #expect(try admin.get("/admin/maintenance").text.contains("data-platform=\"web\" data-state=\"on\""))
        #expect(try admin.post("/admin/maintenance", "platform=mars&switch=on").status == 422)
        #expect(try admin.post("/admin/maintenance", "platform=web&switch=on&minutes=-5").status == 422)
        #expect(try admin.post("/admin/maintenance", "platform=web&switch=off&confirm=1").status == 303)
        #expect(try Player(server).get("/").status == 200)
        #expect(try admin.get("/admin/audit").text.contains("data-action=\"maintenance\""))
    }

    @Test(arguments: Engine.allCases) func rulesEditedInTheAdminAndPreviewed(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let admin = try admin(server)
        let add = "platform=ios&active=on&restriction="
        #expect(try admin.post("/admin/rules", add + "0&app_version=8.10&app_message_en=A+new+version+is+out").status == 303)
        #expect(try admin.post("/admin/rules", add + "2&app_version=5.0&app_message_en=Update+to+keep+playing").status == 303)
        #expect(try admin.post("/admin/rules", add + "1&os_version=9&os_message_en=System+too+old").status == 303)
        #expect(try admin.post("/admin/rules", "platform=ios&restriction=2&app_version=10").status == 303, "inactive")
        #expect(try admin.post("/admin/rules", add + "1&app_version=8.x").status == 422)
        #expect(try admin.post("/admin/rules", add + "1").status == 422, "no version at all")
        #expect(try admin.post("/admin/rules", "platform=mars&restriction=1&app_version=1").status == 422)
        func preview(_ app: String, _ os: String) throws -> String {
            let page = try admin.get("/admin/rules?preview=1&platform=ios&app=\(app)&os=\(os)&language=en").text
            return try #require(page.firstRange(of: "role=\"status\" data-preview").map { range in
                String(page[range.upperBound...].drop { $0 != ">" }.dropFirst().prefix { $0 != "<" })
            })
        }
        #expect(try preview("4.2", "9").hasPrefix("app 4.2 on OS 9 → rule #2 (high), app below 5.0"))
        #expect(try preview("6.5", "9").hasPrefix("app 6.5 on OS 9 → rule #1 (low), app below 8.10"))
        #expect(try preview("9.6", "17").contains("no rule is violated"))
        // The same answers through the public API.
        #expect(try server.get("/api/update-check?platform=ios&app_version=4.2&os_version=9").text.contains("\"rule\":2"))
        // Disable the high rule: 4.2 now only breaks the low one; then delete it.
        #expect(try admin.post("/admin/rules", "id=2&platform=ios&restriction=2&app_version=5.0").status == 303)
        #expect(try preview("4.2", "9").hasPrefix("app 4.2 on OS 9 → rule #1 (low),"))
        #expect(try admin.post("/admin/rules", "id=1&delete=1").status == 303)
        #expect(try preview("6.5", "9").contains("no rule is violated"))
        #expect(try admin.get("/admin/audit").text.contains("data-action=\"add rule\""))
    }

    @Test(arguments: Engine.allCases) func browserRulesMayNameASystem(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let admin = try admin(server)
        #expect(try admin.post("/admin/rules", "platform=ios&system=ios&restriction=1&os_version=15").status == 422,
                "native rules are for their own system")
        #expect(try admin.post("/admin/rules", "platform=web&system=beos&restriction=1&os_version=15").status == 422)
        #expect(try admin.post("/admin/rules", "platform=web&system=windows&active=on&restriction=2&os_version=11").status == 303)
        let page = try admin.get("/admin/rules?preview=1&platform=web&app=1.0&os=10&system=windows&language=en").text
        #expect(page.contains("#1 · web (windows)"))
        #expect(page.contains("<option value=\"windows\" selected>"))
        #expect(page.contains("→ rule #1 (high)"))
        #expect(try admin.get("/admin/rules?preview=1&platform=web&app=1.0&os=10&system=macos&language=en").text.contains("no rule is violated"))
        #expect(try server.get("/api/interceptions").text.contains("\"os\":\"windows\""))
        // Editing keeps or clears the system.
        #expect(try admin.post("/admin/rules", "id=1&platform=web&active=on&restriction=2&os_version=11").status == 303)
        #expect(!(try server.get("/api/interceptions").text.contains("\"os\":")))
    }
}
