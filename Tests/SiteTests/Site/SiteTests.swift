import Crypto
import HTTP
import HTTPServer
import Localization
import NameGame
import PropertyList
import Storage
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

#if canImport(Glibc)
import Glibc
#endif

@Suite("The site over loopback")
struct SiteTests {
    @Test func homePageIsLocalizedFromAcceptLanguage() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let english = try server.get("/")
        #expect(english.status == 200)
        #expect(english.text.contains("<html lang=\"en\""))
        #expect(english.text.contains("<h1>Pick a game</h1>"))
        #expect(english.header("Content-Language") == "en")
        let russian = try server.get("/", headers: ["Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"])
        #expect(russian.text.contains("<html lang=\"ru\""))
        #expect(russian.text.contains("<h1>Выберите игру</h1>"))
        #expect(russian.text.contains(">Мастермайнд</a>"), "the game list, localized")
        #expect(russian.header("Content-Language") == "ru")
        #expect(russian.header("Vary")?.contains("Accept-Language") == true)
        let refused = try server.get("/", headers: ["Accept-Language": "ru;q=0, ja;q=0.1"])
        #expect(refused.header("Content-Language") == "ja")
    }

    @Test func everyHTMLResponseCarriesTheSecurityHeaders() throws {
        let server = try SiteServer()
        defer { server.stop() }
        for path in ["/", "/no-such-page"] {
            let response = try server.get(path)
            let csp = try #require(response.header("Content-Security-Policy"))
            #expect(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"))
            #expect(csp.contains("frame-ancestors 'none'"))
            #expect(response.header("X-Content-Type-Options") == "nosniff")
            #expect(response.header("Referrer-Policy") != nil)
            #expect(!response.text.contains("<script>"), "no inline script")
            #expect(response.text.contains("<meta name=\"csrf-token\" content=\""))
        }
    }

    @Test func languageSwitchSticksAcrossPages() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let first = try server.get("/?lang=fr")
        #expect(first.text.contains("<html lang=\"fr\""))
        #expect(first.cookies["arcade_lang"] == "fr")
        let cookie = first.cookieHeader()
        let next = try server.get("/", headers: ["Cookie": cookie, "Accept-Language": "de"])
        #expect(next.text.contains("<h1>Choisissez un jeu</h1>"), "the cookie beats Accept-Language")
        let missing = try server.get("/nowhere", headers: ["Cookie": cookie])
        #expect(missing.status == 404)
        #expect(missing.text.contains("Page introuvable"))
        let unknown = try server.get("/?lang=xx", headers: ["Cookie": cookie])
        #expect(unknown.text.contains("<html lang=\"fr\""), "an unknown language changes nothing")
    }

    @Test func playersAreSignedAndForgeriesIgnored() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let first = try server.get("/")
        let player = try #require(first.cookies["arcade_player"])
        let setCookie = try #require(
            first.headers.first { $0.0 == "Set-Cookie" && $0.1.hasPrefix("arcade_player=") }?.1)
        #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax"))
        let db = try Database(location: server.database)
        #expect(try db.query("SELECT id FROM players").isEmpty, "a visitor who only looks writes nothing")
        let again = try server.get("/", headers: ["Cookie": first.cookieHeader()])
        #expect(again.cookies["arcade_player"] == nil)
        // A forged cookie (another id, or a broken signature) makes a new player.
        let parts = player.split(separator: ".")
        let forged = Base64URL.encode(Array("AAAAAAAAAAAAAAAAAAAAAA".utf8)) + "." + parts[1]
        for bad in [forged, String(parts[0]) + ".xyz", "garbage", ""] {
            let response = try server.get("/", headers: ["Cookie": "arcade_player=\(bad)"])
            #expect(response.cookies["arcade_player"] != nil && response.cookies["arcade_player"] != player)
        }
        #expect(try db.query("SELECT id FROM players").isEmpty)
    }

    /// A cookie-less view of any page adds no row; the visitor's first action makes it, with the
    /// first-seen time the signed cookie carried.
    @Test func aPageViewWritesNothingAndTheFirstActionMakesThePlayer() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let db = try Database(location: server.database)
        let tables = [
            "players", "once_sessions", "once_versions", "mastermind_games", "namegame_sessions", "namegame_rounds",
        ]
        func rows() throws -> Int {
            try db.first("SELECT " + tables.map { "(SELECT COUNT(*) FROM \($0))" }.joined(separator: " + ") + " AS n")?
                .int("n") ?? -1
        }
        let games = ["/mastermind"] + Mode.allCases.map { "/namegame/\($0.rawValue)" }
        for path in ["/", "/namegame", "/progress", "/cheats", "/mastermind/stats", "/namegame/stats", "/nowhere"]
            + games
        {
            _ = try server.get(path)
            #expect(try rows() == 0, "\(path) wrote")
        }
        let player = Player(server)
        let first = try player.get("/progress")
        let id = try #require(first.cookies["arcade_player"].flatMap(DurabilityTests.playerID))
        try player.get("/")
        #expect(try rows() == 0)
        #expect(try player.post("/once/dismiss", "task=tutorial.mastermind&back=/").status == 303)
        let row = try #require(try db.first("SELECT first_seen FROM players WHERE id = ?", [.text(id)]))
        #expect(abs((row.int("first_seen") ?? 0) - Int(time(nil))) < 60)
        #expect(try db.first("SELECT COUNT(*) AS n FROM players")?.int("n") == 1)
        #expect(
            !(try player.get("/mastermind").text.contains("data-once=\"tutorial.mastermind\"")),
            "the action was remembered")
    }

    /// A first look at a game stores nothing: Mastermind shows an unstarted board (game 0, no secret drawn) that the
    /// first valid guess starts; a Name Game mode shows a start card whose button deals the first round.
    @Test func gamesStartWithTheFirstAction() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let db = try Database(location: server.database)
        func count(_ table: String) throws -> Int { try db.first("SELECT COUNT(*) AS n FROM \(table)")?.int("n") ?? -1 }
        let player = Player(server)
        let board = try player.get("/mastermind").text
        #expect(Player.attribute("data-game", in: board) == "0")
        #expect(Player.attribute("data-attempts-left", in: board) == "10")
        #expect(try player.post("/mastermind/guess", "game=0&turn=0&guess=12").status == 422)
        #expect(try count("players") == 0 && count("mastermind_games") == 0, "an invalid first guess stores nothing")
        #expect(try player.post("/mastermind/guess", "game=0&turn=0&guess=0123").status == 303)
        #expect(try count("players") == 1 && count("mastermind_games") == 1 && count("mastermind_guesses") == 1)
        let started = try player.get("/mastermind").text
        #expect(Player.attribute("data-game", in: started) != "0")
        #expect(Player.attribute("data-attempts-left", in: started) == "9")
        #expect(
            try player.post("/mastermind/guess", "game=0&turn=0&guess=4567").status == 422, "another tab's first board")
        #expect(try count("mastermind_guesses") == 1, "one counted turn for two tabs")

        let looker = Player(server)
        let card = try looker.get("/namegame/hint").text
        #expect(card.contains("data-start") && !card.contains("data-round="))
        #expect(try count("namegame_sessions") == 0 && count("players") == 1)
        #expect(try looker.post("/namegame/next", "mode=hint").status == 303)
        let round = try looker.get("/namegame/hint").text
        #expect(round.contains("data-round=") && round.contains("data-intro"), "someone new, introduced")
        #expect(try count("namegame_sessions") == 1 && count("namegame_rounds") == 1 && count("players") == 2)
    }

    /// The theme chooser: a form post (no script needed), a class on <html> the template renders, the choice
    /// selected in the menu, retro only while its cheat has it on, anything else refused.
    @Test func aThemeIsChosenAndAppliedOnEveryPage() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let player = Player(server)
        let home = try player.get("/").text
        #expect(
            home.contains("<html lang=\"en\" dir=\"ltr\">")
                && home.contains("<option value=\"\" selected>System</option>"))
        #expect(!home.contains("value=\"crt\""), "retro is not offered before its cheat")
        let chosen = try player.post("/theme", "theme=contrast&back=/mastermind")
        #expect(chosen.status == 303 && chosen.header("Location") == "/mastermind")
        #expect(chosen.cookies["arcade_theme"] == "contrast")
        for path in ["/", "/mastermind", "/namegame", "/nowhere"] {
            let page = try player.get(path).text
            #expect(page.contains("dir=\"ltr\" class=\"theme-contrast\">"), "\(path)")
            #expect(page.contains("<option value=\"contrast\" selected>High contrast, dark</option>"), "\(path)")
        }
        // The admin's pages too: the look travels with the visitor, not with the middleware that happened to run.
        #expect(try player.get("/admin/login").text.contains("dir=\"ltr\" class=\"theme-contrast\">"))
        // High contrast on white too (a review: the chosen one came only dark).
        #expect(try player.post("/theme", "theme=contrast-light&back=/").cookies["arcade_theme"] == "contrast-light")
        #expect(try player.get("/").text.contains("dir=\"ltr\" class=\"theme-contrast-light\">"))
        #expect(try player.post("/theme", "theme=crt&back=/").status == 422, "retro comes from its cheat")
        #expect(try player.post("/theme", "theme=%3Cscript%3E&back=/").status == 422)
        #expect(try player.post("/theme", "theme=&back=//evil.example").header("Location") == "/", "only a local path")
        #expect(try player.get("/").text.contains("<html lang=\"en\" dir=\"ltr\">"), "back to the system's setting")
        #expect(
            try server.post("/theme", body: "theme=dark", headers: ["Cookie": player.cookieHeader]).status == 403,
            "CSRF")
    }

    /// Single-key shortcuts off (issue 46, WCAG 2.1.4): a setting beside Theme, kept in a cookie; every page tells its
    /// scripts on <html>, and the chooser shows it (posted as a form without a script).
    @Test func shortcutsTurnOffBesideTheTheme() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let player = Player(server)
        let home = try player.get("/").text
        #expect(home.contains("<option value=\"on\" selected>On</option>") && !home.contains("data-shortcuts=\"off\""))
        let off = try player.post("/theme", "theme=&keys=off&back=/mastermind")
        #expect(off.status == 303 && off.cookies["arcade_keys"] == "off")
        for path in ["/", "/mastermind", "/namegame/normal", "/nowhere"] {
            let page = try player.get(path).text
            #expect(page.contains("dir=\"ltr\" data-shortcuts=\"off\">"), "\(path)")
            #expect(page.contains("<option value=\"off\" selected>Off</option>"), "\(path)")
        }
        #expect(try player.post("/theme", "theme=dark&back=/").status == 303, "a form without the setting keeps it")
        #expect(try player.get("/").text.contains("class=\"theme-dark\" data-shortcuts=\"off\">"))
        #expect(try player.post("/theme", "keys=maybe&back=/").status == 422)
        #expect(try player.post("/theme", "keys=on&back=/").cookies["arcade_keys"] == "")
        #expect(!(try player.get("/").text.contains("data-shortcuts=\"off\"")), "back on")
    }

    @Test func csrfGuardsEveryAction() throws {
        let server = try SiteServer(routes: { routes in
            routes.actions.post("/test/echo") { request, _ in .text("done: \(request.form?["x"] ?? "")") }
        })
        defer { server.stop() }
        let page = try server.get("/")
        let token = try #require(
            page.text.firstRange(of: "name=\"csrf-token\" content=\"").map { range in
                String(page.text[range.upperBound...].prefix { $0 != "\"" })
            })
        let cookie = page.cookieHeader()
        #expect(try server.post("/test/echo", body: "x=1&csrf=\(token)", headers: ["Cookie": cookie]).text == "done: 1")
        #expect(
            try server.post("/test/echo", body: "x=2", headers: ["Cookie": cookie, "X-CSRF-Token": token]).text
                == "done: 2")
        let missing = try server.post("/test/echo", body: "x=3", headers: ["Cookie": cookie])
        #expect(missing.status == 403)
        #expect(missing.text.contains("This form has expired"))
        #expect(try server.post("/test/echo", body: "x=4&csrf=\(token)x", headers: ["Cookie": cookie]).status == 403)
        #expect(try server.post("/test/echo", body: "x=5&csrf=\(token)").status == 403, "no session, no entry")
        let other = try server.get("/")
        #expect(
            try server.post("/test/echo", body: "x=6&csrf=\(token)", headers: ["Cookie": other.cookieHeader()]).status
                == 403,
            "a token from another session")
    }

    @Test func hotfixesShowOnTheNextRequestOnEveryWorkerAndSurviveRestart() throws {
        let server = try SiteServer()
        try server.site.hotfixes.set("home.heading", language: "en", to: "<b>Play</b> now")
        // Many fresh connections spread over both workers.
        for _ in 0..<8 {
            let page = try server.get("/")
            #expect(page.text.contains("<h1>&lt;b&gt;Play&lt;/b&gt; now</h1>"), "escaped, and applied")
        }
        #expect(try server.get("/", headers: ["Accept-Language": "de"]).text.contains("<h1>Wähle ein Spiel</h1>"))
        server.stop()
        var options = ServeOptions()
        options.database = server.database
        let restarted = try Site(options: options)
        #expect(restarted.localizer.string("home.heading", language: "en") == "<b>Play</b> now")
        try restarted.hotfixes.set("home.heading", language: "en", to: nil)
        #expect(restarted.localizer.string("home.heading", language: "en") == "Pick a game")
    }

    @Test func hotfixesReachTheCachedHeaderAndFooter() throws {
        let server = try SiteServer()
        defer { server.stop() }
        #expect(try server.get("/").text.contains(">Home</a>"))
        try server.site.hotfixes.set("nav.home", language: StringOverlay.allLanguages, to: "Start page")
        try server.site.constants.setHotfix("site.version", .string("9.9.9"))
        let page = try server.get("/")
        #expect(page.text.contains(">Start page</a>"))
        #expect(page.text.contains("Version 9.9.9"))
        #expect(page.text.contains("aria-current=\"page\">Start page</a>"), "the home section is marked")
        #expect(try server.get("/mastermind/stats").text.contains("aria-current=\"page\">Mastermind</a>"))
    }

    @Test func refusalsUseTheSitePage() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 5000000\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 413)
        #expect(response.text.contains("Too much data"))
        // Refused before its language is known: said in every shipped language too (native readers).
        #expect(response.text.contains("<li lang=\"de\"><strong>Zu viele Daten</strong> Was du gesendet"))
        #expect(response.text.contains("<li lang=\"ja\"><strong>データが大きすぎます</strong>"))
        #expect(response.header("Connection") == "close")
        #expect(response.header("Content-Security-Policy") != nil)
    }

    @Test func staticFilesStillServe() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let css = try server.get("/css/site.css")
        #expect(css.status == 200)
        #expect(css.header("Content-Type") == "text/css; charset=utf-8")
        let js = try server.get("/js/site.js")
        #expect(js.header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(try server.get("/healthz").text == "ok")
        #expect(try server.get("/../etc/passwd").status == 400)
    }
}

@Suite("Error pages and --dev")
struct ErrorPageTests {
    @Test func wrongMethodAndServerErrorsAreLocalizedPages() throws {
        struct Broken: Error {}
        let server = try SiteServer(routes: { routes in
            routes.pages.get("/test/broken") { _, _ in throw Broken() }
            routes.pages.get("/test/gone") { _, _ in throw HTTPError(.notFound, "") }
            // What the writer hands on once a group has lost its race with another instance too often.
            routes.pages.get("/test/busy") { _, _ in throw DatabaseError("deadlock detected", sqlState: "40P01") }
        })
        defer { server.stop() }
        let wrong = try server.post("/", body: "")
        #expect(wrong.status == 405)
        #expect(wrong.header("Allow") == "GET, HEAD")
        #expect(wrong.text.contains("Not available") && wrong.text.contains("class=\"site-header\""))
        let broken = try server.get("/test/broken", headers: ["Accept-Language": "de"])
        #expect(broken.status == 500)
        #expect(broken.text.contains("Etwas ist schiefgelaufen"))
        #expect(!broken.text.contains("Broken"), "no internals on the page")
        // An error that carries its status is that status's localized page, with the security headers.
        let gone = try server.get("/test/gone", headers: ["Accept-Language": "de"])
        #expect(gone.status == 404 && gone.text.contains("class=\"site-header\"") && gone.text.contains("lang=\"de\""))
        #expect(gone.header("Content-Security-Policy") == Pages.contentSecurityPolicy)
        // Busy, not broken: a lost race is a 503.
        let busy = try server.get("/test/busy")
        #expect(busy.status == 503 && !busy.text.contains("deadlock"))
    }

    @Test func devModeReloadsChangedTemplates() throws {
        let scratch = ScratchDirectory()
        _ = system("cp -r Templates '\(scratch.path)/Templates'")
        let server = try SiteServer(routes: nil) {
            $0.templates = scratch.path + "/Templates"
            $0.dev = true
        }
        defer { server.stop() }
        #expect(try server.get("/").text.contains("<h1>Pick a game</h1>"))
        sleep(seconds: 0.01)
        scratch.write("Templates/home.mustache", "<h1>Changed: {{t.home.heading}}</h1>\n")
        #expect(try server.get("/").text.contains("<h1>Changed: Pick a game</h1>"))
        // A syntax error shows on the page; the server keeps running.
        scratch.write("Templates/home.mustache", "<h1>{{#oops}}</h1>\n")
        let broken = try server.get("/")
        #expect(broken.status == 500)
        #expect(broken.text.contains("home.mustache:1:5"))
        scratch.write("Templates/home.mustache", "<h1>Fixed</h1>\n")
        #expect(try server.get("/").text.contains("<h1>Fixed</h1>"))
    }

    @Test func withoutDevTemplatesAreParsedOnce() throws {
        let scratch = ScratchDirectory()
        _ = system("cp -r Templates '\(scratch.path)/Templates'")
        let server = try SiteServer(routes: nil) { $0.templates = scratch.path + "/Templates" }
        defer { server.stop() }
        scratch.write("Templates/home.mustache", "<h1>Changed</h1>\n")
        #expect(try server.get("/").text.contains("<h1>Pick a game</h1>"))
    }
}

/// Days as players read them, in every language (a native reader met ISO dates on the passkeys' list); the year is
/// never grouped as a number ("2,026").
@Suite struct PlayerDayTests {
    @Test func aDayInEachLanguage() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let localizer = server.site.pages.localizer
        let expected = [
            "en": "29 Nov 2026", "de": "29. Nov. 2026", "fr": "29 nov. 2026", "es": "29 nov 2026",
            "ja": "2026年11月29日", "ru": "29 нояб. 2026 г.",
        ]
        for (language, text) in expected {
            #expect(UTCTime.day(1_795_910_400, localizer.strings(for: language)) == text, "\(language)")
        }
    }
}
