import Interceptions
import JSON
import Localization
import PropertyList
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

@Suite("GTConstants interceptions API")
struct InterceptionsSiteTests {
    /// UpdateRules.md's example: three rules for iOS, one inactive, one for Android.
    static func seed(_ site: Site) throws {
        let store = site.interceptions
        try store.addRule(
            platform: "ios", restriction: .low, active: true,
            minimumApp: ("8.10", ["en": "A new version is out.", "pt": "Há uma nova versão."]), minimumOS: nil)
        try store.addRule(
            platform: "ios", restriction: .high, active: true,
            minimumApp: ("5.0", ["en": "This version no longer works. Update to keep playing."]), minimumOS: nil)
        try store.addRule(
            platform: "ios", restriction: .medium, active: true, minimumApp: nil,
            minimumOS: ("9", ["en": "Your system is too old for the next release."]))
        try store.addRule(
            platform: "ios", restriction: .high, active: false, minimumApp: ("10", ["en": "x"]), minimumOS: nil)
    }

    func json(_ response: WireResponse) throws -> JSONValue { try JSONParser.parse(response.body) }

    @Test(arguments: Engine.allCases) func updateCheckGivesTheReadmeAnswers(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        try Self.seed(server.site)
        let high = try json(server.get("/api/update-check?platform=ios&app_version=4.2&os_version=9"))
        #expect(high["update_needed"] == .bool(true))
        #expect(high["rule"]?.int == 2)
        #expect(high["restriction_name"]?.string == "high")
        #expect(high["message"]?.string == "This version no longer works. Update to keep playing.")
        let low = try json(server.get("/api/update-check?platform=ios&app_version=6.5&os_version=9.0&lang=pt-BR"))
        #expect(low["rule"]?.int == 1)
        #expect(low["restriction"]?.int == 0)
        #expect(low["message"]?.string == "Há uma nova versão.", "pt-BR falls back to pt")
        let none = try server.get("/api/update-check?platform=ios&app_version=9.6&os_version=17.1")
        #expect(none.header("Content-Type") == "application/json")
        #expect(try json(none) == .object([("update_needed", .bool(false))]))
    }

    @Test(arguments: [
        "", "platform=ios", "platform=symbian&app_version=1&os_version=1", "platform=ios&app_version=4.x&os_version=9",
        "platform=ios&app_version=4.2&os_version=", "platform=ios&app_version=4.2&os_version=9&lang=<script>",
        "platform=ios&app_version=4.2.&os_version=9",
    ])
    func badParametersAre400WithAJSONError(_ query: String) throws {
        let server = try SiteServer()
        defer { server.stop() }
        let response = try server.get("/api/update-check?" + query)
        #expect(response.status == 400, "\(query)")
        #expect(try json(response)["error"]?.string?.isEmpty == false)
    }

    @Test(arguments: Engine.allCases) func interceptionsHaveTheGTConstantsShape(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        try Self.seed(server.site)
        try server.site.hotfixes.set("home.heading", language: StringOverlay.allLanguages, to: "Play!")
        try server.site.constants.setHotfix("mastermind.attempts", .integer(20))
        try server.site.interceptions.setMaintenance(
            "ios", .init(active: true, messages: ["en": "Back soon", "fr": "Bientôt"], pollInterval: 30))
        let response = try server.get("/api/interceptions")
        #expect(response.header("Content-Type") == "application/json")
        let body = try json(response)
        #expect(body["hotfixes"]?["home.heading"]?.string == "Play!")
        #expect(body["hotfixes"]?["mastermind.attempts"] == .integer(20), "numbers stay numbers")
        let ios = try #require(body["update"]?["ios"]?.array)
        #expect(ios.count == 4)
        #expect(ios[0]["restriction"] == .integer(0))
        #expect(ios[0]["active"] == .bool(true), "a JSON boolean: GTConstants reads `as? Bool`")
        #expect(ios[0]["min_app_version"]?["version"]?.string == "8.10")
        #expect(ios[0]["min_app_version"]?["message"]?["en"]?.string == "A new version is out.")
        #expect(ios[2]["min_os_version"]?["version"]?.string == "9")
        #expect(ios[3]["active"] == .bool(false))
        #expect(body["update"]?["android"]?.array?.isEmpty == true, "other platforms beside ios")
        #expect(body["maintenance"]?["ios"]?["active"] == .bool(true))
        #expect(body["maintenance"]?["ios"]?["message"]?.string == "Back soon")
        #expect(body["maintenance"]?["ios"]?["poll_interval"] == .integer(30))
        #expect(body["maintenance"]?["web"]?["active"] == .bool(false))
        #expect(
            try json(server.get("/api/interceptions?lang=fr-CA"))["maintenance"]?["ios"]?["message"]?.string
                == "Bientôt")
    }

    @Test(arguments: Engine.allCases) func maintenanceAnswers503WhileStaticFilesAndHealthKeepWorking(
        _ engine: Engine
    ) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        try server.site.interceptions.setMaintenance(
            "web",
            .init(
                active: true, messages: ["en": "Polishing the pixels.", "de": "Wir polieren die Pixel."],
                endsAt: Int(WallClock.system()) + 600))
        for path in ["/", "/mastermind", "/namegame/normal", "/progress"] {
            let page = try server.get(path)
            #expect(page.status == 503, "\(path)")
            #expect((540...600).contains(Int(page.header("Retry-After") ?? "") ?? 0))
            #expect(page.text.contains("Polishing the pixels."))
        }
        #expect(try server.get("/", headers: ["Accept-Language": "de"]).text.contains("Wir polieren die Pixel."))
        #expect(try server.get("/healthz").status == 200)
        #expect(try server.get("/css/site.css").status == 200)
        #expect(try server.get("/api/interceptions").status == 200)
        try server.site.interceptions.setMaintenance("web", .init(active: false))
        #expect(try server.get("/").status == 200)
    }

    @Test(arguments: Engine.allCases) func strongETagAnd304(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let first = try server.get("/api/interceptions")
        let etag = try #require(first.header("ETag"))
        #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
        let again = try server.get("/api/interceptions", headers: ["If-None-Match": etag])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(again.header("ETag") == etag)
        try server.site.hotfixes.set("nav.home", language: StringOverlay.allLanguages, to: "Start")
        let changed = try server.get("/api/interceptions", headers: ["If-None-Match": etag])
        #expect(changed.status == 200, "a change makes a new ETag")
        #expect(changed.header("ETag") != etag)
    }
}
