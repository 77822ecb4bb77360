import HTTP
import Storage
import Synchronization
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

#if canImport(Glibc)
import Glibc
#endif

@Suite("The hotfix editor", .serialized)
struct HotfixEditorTests {
    func admin(_ server: some LocalSite) throws -> Player {
        try server.site.admins.create(name: "frank", password: "correct horse battery")
        let player = Player(server)
        try player.get("/admin/login")
        #expect(try player.post("/admin/login", "name=frank&password=correct+horse+battery").status == 303)
        return player
    }

    @Test(arguments: Engine.allCases) func placeholdersMustSurvive(_ engine: Engine) throws {
        let server = try InProcessSite(engine: engine)
        defer { server.stop() }
        let admin = try admin(server)
        // "Version %@": a %d or a missing placeholder is refused, with the reason.
        let wrongType = try admin.post(
            "/admin/hotfixes", "key=footer.version&language=*&value=" + "Release %d".addingFormEncoding)
        #expect(wrongType.status == 422)
        #expect(wrongType.text.contains("expected %1$@, found %1$d"))
        #expect(try admin.post("/admin/hotfixes", "key=footer.version&language=*&value=Release").status == 422)
        #expect(try admin.post("/admin/hotfixes", "key=no.such.key&language=*&value=x").status == 422)
        #expect(
            try admin.post("/admin/hotfixes", "key=footer.version&language=xx&value=" + "V %@".addingFormEncoding)
                .status == 422)
        #expect(
            try admin.post(
                "/admin/hotfixes", "key=footer.version&language=*&confirm=1&value=" + "Release %@".addingFormEncoding
            ).status == 303)
        #expect(try Player(server).get("/").text.contains("Release 1.1.0"))
    }

    @Test(arguments: Engine.allCases) func pluralFormsAreHotfixedOneAtATime(_ engine: Engine) throws {
        let server = try InProcessSite(engine: engine)
        defer { server.stop() }
        let admin = try admin(server)
        let key = "home.games.count#games.other"
        // The editor lists every form a language ships, Russian's `few` included, with the base text.
        let page = try admin.get("/admin/hotfixes?q=home.games.count").text
        #expect(page.contains("data-key=\"\(key)\""))
        #expect(page.contains("data-key=\"home.games.count#games.few\""))
        #expect(page.contains("%d games"))
        // The form's placeholder must survive.
        let refused = try admin.post(
            "/admin/hotfixes", "key=\(key.addingFormEncoding)&language=en&value=" + "%@ games".addingFormEncoding)
        #expect(refused.status == 422)
        #expect(refused.text.contains("expected %1$d, found %1$@"))
        #expect(
            try admin.post("/admin/hotfixes", "key=home.games.count%23games.seven&language=en&value=x").status == 422)
        let before = try Player(server).get("/").text
        #expect(before.contains("2 games</h2>"))
        #expect(
            try admin.post(
                "/admin/hotfixes",
                "key=\(key.addingFormEncoding)&language=en&value=" + "%d arcade games".addingFormEncoding
            ).status == 303)
        #expect(try Player(server).get("/").text.contains("2 arcade games</h2>"))
        #expect(
            try server.get("/", headers: ["Accept-Language": "de"]).text.contains("2 Spiele</h2>"),
            "only English changed")
        let interceptions = try Player(server).get("/api/interceptions").text
        #expect(interceptions.contains("\"\(key)\":\"%d arcade games\""))
        // Reverting brings the shipped form back.
        let history = try admin.get("/admin/hotfixes?q=\(key.addingFormEncoding)").text
        let change = try #require(Player.attribute("data-change", in: history))
        #expect(
            try admin.post("/admin/hotfixes/revert", "change=\(change)&key=\(key.addingFormEncoding)").status == 303)
        #expect(try Player(server).get("/").text.contains("2 games</h2>"))
    }

    @Test(arguments: Engine.allCases) func aLanguageHotfixHistoryAndRevert(_ engine: Engine) throws {
        let server = try InProcessSite(engine: engine)
        defer { server.stop() }
        let admin = try admin(server)
        let xss = "<script>alert(1)</script> Jouez !"
        #expect(
            try admin.post("/admin/hotfixes", "key=home.heading&language=fr&value=" + xss.addingFormEncoding).status
                == 303)
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

    /// History's "before" is what was committed, not what this instance last heard: another instance's change (here
    /// written to the database behind this one's back) is what a later save replaced, and what its revert restores.
    @Test(arguments: Engine.allCases) func historyRecordsTheCommittedBefore(_ engine: Engine) throws {
        let server = try InProcessSite(engine: engine)
        defer { server.stop() }
        let admin = try admin(server)
        #expect(try admin.post("/admin/hotfixes", "key=home.heading&language=fr&value=Un").status == 303)
        #expect(try admin.post("/admin/constants", "key=namegame.lessonRounds&value=12").status == 303)
        let db = try Database(location: server.database)
        _ = try db.execute("UPDATE string_hotfixes SET value = 'Deux' WHERE key = 'home.heading' AND language = 'fr'")
        _ = try db.execute("UPDATE constant_hotfixes SET value = '14' WHERE key = 'namegame.lessonRounds'")
        #expect(try admin.post("/admin/hotfixes", "key=home.heading&language=fr&value=Trois").status == 303)
        #expect(try admin.post("/admin/constants", "key=namegame.lessonRounds&value=16").status == 303)
        let last = "SELECT before FROM hotfix_history WHERE key = ? ORDER BY id DESC LIMIT 1"
        #expect(try db.first(last, [.text("home.heading")])?.decodeIfPresent("before", as: String.self) == "Deux")
        #expect(
            try db.first(last, [.text("namegame.lessonRounds")])?.decodeIfPresent("before", as: String.self) == "14")
    }

    /// A save shows at once and stays, while other instances' changes keep this one reading the table again: a
    /// reading begun before the save committed must not put back what it read over the newer value (a clean clone
    /// once saw a reverted string return).
    @Test func aSaveIsNotUndoneByAReadingOfOtherInstancesChanges() throws {
        let server = try InProcessSite(engine: .postgresql)
        defer { server.stop() }
        let admin = try admin(server)
        let location = server.database
        // Many rows, so that each reading takes a while (the window a save falls into).
        _ = try Database(location: location).execute(
            "INSERT INTO string_hotfixes (key, language, value, updated) "
                + "SELECT 'filler.' || n, 'en', 'Text ' || n, 0 FROM generate_series(1, 2000) AS n")
        // Another instance, busy: every commit notifies this one, which reads the table again.
        let elsewhere = BusyElsewhere(location) { others, n in
            _ = try others.execute(
                "INSERT INTO string_hotfixes (key, language, value, updated) VALUES ('home.heading', 'de', ?, 0) "
                    + "ON CONFLICT (key, language) DO UPDATE SET value = excluded.value", [.text("Zug \(n)")])
            _ = try others.execute(
                "INSERT INTO constant_hotfixes (key, value, updated) VALUES ('namegame.newPerDay', ?, 0) "
                    + "ON CONFLICT (key) DO UPDATE SET value = excluded.value", [.text("\(8 + n % 4)")])
        }
        defer { elsewhere.stop() }
        let localizer = server.site.localizer
        let constants = server.site.constants
        var undone: [String] = []
        for round in 1...20 {
            #expect(try admin.post("/admin/hotfixes", "key=home.title&language=de&value=Runde+\(round)").status == 303)
            #expect(
                try admin.post("/admin/constants", "key=namegame.lessonRounds&value=\(11 + round % 2)").status == 303)
            // Checked twice: after the save, and after the next reading of the others' changes.
            for _ in 0..<2 {
                let seen = server.site.hotfixes.overlay.version
                let string = localizer.overlay.values(for: "de")["home.title"]
                let constant = constants.int("namegame.lessonRounds", default: 0)
                if string != "Runde \(round)" || constant != 11 + round % 2 {
                    undone.append("round \(round): \(string ?? "nil"), \(constant)")
                }
                // The next reading (a guard against a feed that stopped, not a pause the test relies on).
                var waited = 0
                while server.site.hotfixes.overlay.version == seen && waited < 30_000 {
                    usleep(1_000)
                    waited += 1
                }
                try #require(waited < 30_000, "this instance stopped reading the others' changes")
            }
        }
        #expect(elsewhere.writes > 20, "the other instance kept writing")
        #expect(undone.isEmpty, "\(undone.count) saves undone: \(undone.prefix(5))")
    }

    @Test(arguments: Engine.allCases) func constantHotfixesKeepTheirTypeAndSurviveRestart(_ engine: Engine) throws {
        let server = try InProcessSite(engine: engine)
        let admin = try admin(server)
        let wrong = try admin.post("/admin/constants", "key=mastermind.attempts&value=ten")
        #expect(wrong.status == 422)
        // Said in words ("This constant is a integer", a reader).
        #expect(wrong.text.contains("This value must be a whole number.") && !wrong.text.contains("is a integer"))
        #expect(try admin.post("/admin/constants", "key=nope&value=1").status == 422)
        #expect(try admin.post("/admin/constants", "key=mastermind.attempts&value=12").status == 303)
        #expect(try admin.post("/admin/constants", "key=namegame.hintInterval&value=1.5").status == 303)
        let player = Player(server)
        #expect(try player.get("/mastermind").text.contains("you have 12 guesses"))
        let api = try server.get("/api/interceptions").text
        #expect(api.contains("\"mastermind.attempts\":12"), "a number stays a number")
        server.stop()
        var options = ServeOptions()
        options.database = server.database
        let restarted = try Site(options: options)
        #expect(restarted.constants.int("mastermind.attempts", default: 0) == 12)
        #expect(restarted.constants.double("namegame.hintInterval", default: 0) == 1.5)
    }

    @Test func constantHotfixesStayInTheirRange() throws {
        let server = try InProcessSite()
        defer { server.stop() }
        let admin = try admin(server)
        for value in ["0", "31", "-5"] {
            let refused = try admin.post("/admin/constants", "key=mastermind.attempts&value=\(value)")
            #expect(refused.status == 422)
            #expect(refused.text.contains("Allowed: 1…30"), "\(refused.text)")
        }
        #expect(try admin.post("/admin/constants", "key=namegame.timedSeconds&value=0").status == 422)
        #expect(try admin.post("/admin/constants", "key=namegame.hintInterval&value=0.001").status == 422)
        // 8 colours ^ 7 = 2 097 152 codes: the hint solver would enumerate them all.
        #expect(try admin.post("/admin/constants", "key=mastermind.codeLength&value=6").status == 303)
        let huge = try admin.post("/admin/constants", "key=mastermind.codeLength&value=7")
        #expect(huge.status == 422)
        #expect(huge.text.contains("1000000"), "\(huge.text)")
        #expect(server.site.constants.int("mastermind.codeLength", default: 0) == 6)
        for url in ["https://evil.example", "http://www.random.org", "https://www.random.org@evil.example"] {
            let refused = try admin.post("/admin/constants", "key=mastermind.randomOrgURL&value=\(URI.encode(url))")
            #expect(refused.status == 422, "\(url)")
            #expect(refused.text.contains("https://www.random.org"))
        }
        #expect(
            try admin.post("/admin/constants", "key=mastermind.randomOrgURL&value=https://www.random.org").status == 303
        )
        #expect(try admin.post("/admin/constants", "key=namegame.profiles&value=/etc/passwd").status == 303)
        // Server-side constants never reach the apps.
        let api = try server.get("/api/interceptions").text
        #expect(api.contains("\"mastermind.codeLength\":6"))
        #expect(!api.contains("randomOrgURL") && !api.contains("/etc/passwd"))
        // A string hotfix may not ask for a huge field width.
        let wide = try admin.post(
            "/admin/hotfixes", "key=stats.hardwins&language=*&value=\(URI.encode("Hard-mode wins: %99999d"))")
        #expect(wide.status == 422)
        #expect(wide.text.contains("at most 64"), "\(wide.text)")
        let narrow = try admin.post(
            "/admin/hotfixes", "key=stats.hardwins&language=en&value=\(URI.encode("Hard-mode wins: %3d"))")
        #expect(narrow.status == 303, "\(narrow.text)")
    }

    @Test(arguments: Engine.allCases) func aConstantHotfixReverts(_ engine: Engine) throws {
        let server = try InProcessSite(engine: engine)
        defer { server.stop() }
        let admin = try admin(server)
        #expect(try admin.post("/admin/constants", "key=site.version&value=2.0.0").status == 303)
        let page = try admin.get("/admin/hotfixes?q=site.version").text
        let change = try #require(Player.attribute("data-change", in: page))
        #expect(try admin.post("/admin/hotfixes/revert", "change=\(change)&key=site.version").status == 303)
        #expect(server.site.constants.string("site.version", default: "") == "1.1.0")
    }

    @Test(arguments: Engine.allCases) func maintenanceFromTheAdminPages(_ engine: Engine) throws {
        let server = try InProcessSite(engine: engine)
        defer { server.stop() }
        let admin = try admin(server)
        #expect(
            try admin.post("/admin/maintenance", "platform=web&switch=on&confirm=1&message_en=Back+at+noon&minutes=30")
                .status == 303)
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
        let server = try InProcessSite(engine: engine)
        defer { server.stop() }
        let admin = try admin(server)
        let add = "platform=ios&active=on&restriction="
        #expect(
            try admin.post("/admin/rules", add + "0&app_version=8.10&app_message_en=A+new+version+is+out").status == 303
        )
        #expect(
            try admin.post("/admin/rules", add + "2&app_version=5.0&app_message_en=Update+to+keep+playing").status
                == 303)
        #expect(try admin.post("/admin/rules", add + "1&os_version=9&os_message_en=System+too+old").status == 303)
        #expect(try admin.post("/admin/rules", "platform=ios&restriction=2&app_version=10").status == 303, "inactive")
        #expect(try admin.post("/admin/rules", add + "1&app_version=8.x").status == 422)
        #expect(try admin.post("/admin/rules", add + "1").status == 422, "no version at all")
        #expect(try admin.post("/admin/rules", "platform=mars&restriction=1&app_version=1").status == 422)
        func preview(_ app: String, _ os: String) throws -> String {
            let page = try admin.get("/admin/rules?preview=1&platform=ios&app=\(app)&os=\(os)&language=en").text
            return try #require(
                page.firstRange(of: "role=\"status\" data-preview").map { range in
                    String(page[range.upperBound...].drop { $0 != ">" }.dropFirst().prefix { $0 != "<" })
                })
        }
        #expect(try preview("4.2", "9").hasPrefix("app 4.2 on OS 9 → rule #2 (high), app below 5.0"))
        #expect(try preview("6.5", "9").hasPrefix("app 6.5 on OS 9 → rule #1 (low), app below 8.10"))
        #expect(try preview("9.6", "17").contains("no rule is violated"))
        // The same answers through the public API.
        #expect(
            try server.get("/api/update-check?platform=ios&app_version=4.2&os_version=9").text.contains("\"rule\":2"))
        // Disable the high rule: 4.2 now only breaks the low one; then delete it.
        #expect(try admin.post("/admin/rules", "id=2&platform=ios&restriction=2&app_version=5.0").status == 303)
        #expect(try preview("4.2", "9").hasPrefix("app 4.2 on OS 9 → rule #1 (low),"))
        #expect(try admin.post("/admin/rules", "id=1&delete=1").status == 303)
        #expect(try preview("6.5", "9").contains("no rule is violated"))
        let audit = try admin.get("/admin/audit").text
        #expect(audit.contains("data-action=\"add rule\""))
        // Said in the reader's language, as the log's actions were shown raw to every reader (a native reader).
        #expect(audit.contains(">Update rule added</td>") && audit.contains(">Update rule deleted</td>"))
        let german = try server.get(
            "/admin/audit", headers: ["Cookie": admin.cookieHeader, "Accept-Language": "de"]
        ).text
        #expect(german.contains(">Update-Regel hinzugefügt</td>") && !german.contains(">add rule</td>"))
    }

    @Test(arguments: Engine.allCases) func browserRulesMayNameASystem(_ engine: Engine) throws {
        let server = try InProcessSite(engine: engine)
        defer { server.stop() }
        let admin = try admin(server)
        #expect(
            try admin.post("/admin/rules", "platform=ios&system=ios&restriction=1&os_version=15").status == 422,
            "native rules are for their own system")
        #expect(try admin.post("/admin/rules", "platform=web&system=beos&restriction=1&os_version=15").status == 422)
        #expect(
            try admin.post("/admin/rules", "platform=web&system=windows&active=on&restriction=2&os_version=11").status
                == 303)
        let page = try admin.get("/admin/rules?preview=1&platform=web&app=1.0&os=10&system=windows&language=en").text
        #expect(page.contains("<span>#1</span> <span>web (windows)</span>"))
        #expect(page.contains("<option value=\"windows\" selected>"))
        #expect(page.contains("→ rule #1 (high)"))
        #expect(
            try admin.get("/admin/rules?preview=1&platform=web&app=1.0&os=10&system=macos&language=en").text.contains(
                "no rule is violated"))
        #expect(try server.get("/api/interceptions").text.contains("\"os\":\"windows\""))
        // Editing keeps or clears the system.
        #expect(try admin.post("/admin/rules", "id=1&platform=web&active=on&restriction=2&os_version=11").status == 303)
        #expect(!(try server.get("/api/interceptions").text.contains("\"os\":")))
    }
}
