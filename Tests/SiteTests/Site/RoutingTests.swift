import HTTP
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

/// What the groups promise, through the real site: where a middleware sits decides what a visitor meets.
@Suite("Route groups")
struct RoutingTests {
    /// Admin answers carry the session's CSRF token: none may be stored, an error page included (a thrown 404, a
    /// refused upload), and a refused upload says the status's own words, not the parser's.
    @Test func adminAnswersAndTheirErrorPagesAreNeverStored() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let admin = Player(server)
        try admin.signInAsAdmin()
        for path in ["/admin", "/admin/hotfixes", "/admin/people/nobody", "/admin/strings/xx.nothing"] {
            let page = try admin.get(path)
            #expect(page.header("Cache-Control") == "no-store", "\(path) \(page.status)")
        }
        #expect(try admin.get("/admin/people/nobody").status == 404)
        let unsigned = try server.post("/admin/people", body: "first=A", headers: ["Cookie": admin.cookieHeader])
        #expect(unsigned.status == 415)
        #expect(unsigned.header("Cache-Control") == "no-store")
        #expect(!unsigned.text.contains("multipart/form-data"), "no parser internals on the page")
        #expect(unsigned.text.contains("class=\"site-header\""), "the site's own error page")
    }

    /// Under a high update rule a game's action is refused as "update required" before its form is looked at (the
    /// order the game routes had before the groups were typed).
    @Test func anUpdateRequiredComesBeforeTheFormsChecks() throws {
        let server = try SiteServer()
        defer { server.stop() }
        try server.site.interceptions.addRule(
            platform: "web", restriction: .high, active: true, minimumApp: ("9.0", [:]), minimumOS: nil)
        let player = Player(server)
        try player.get("/")
        let guess = try server.post(
            "/mastermind/guess", body: "guess=1234", headers: ["Cookie": player.cookieHeader])
        #expect(guess.header("X-Arcade-Update") == "required", "\(guess.status)")
        #expect(
            try server.post("/theme", body: "theme=dark", headers: ["Cookie": player.cookieHeader]).status == 403,
            "other actions still check their token")
    }

    /// A deferred action's middleware (cookies for a new visitor, security headers) reach its real answer.
    @Test func aDeferredActionCarriesItsMiddlewaresHeaders() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let player = Player(server)
        try player.get("/")
        let action = try player.post("/cheats/actions", "kind=key&value=ArrowUp")
        #expect(action.status == 200)
        #expect(action.header("Content-Security-Policy") == Pages.contentSecurityPolicy)
        #expect(action.header("Content-Type") == "application/json")
    }
}
