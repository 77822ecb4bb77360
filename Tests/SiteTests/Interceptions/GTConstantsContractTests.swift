import JSON
import Localization
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

/// GTConstants' reading of `/api/interceptions`, written down from its sources
/// (`GTInterceptionManager.sync`, `GTUpdateHelper.updateConfig`, `GTMaintenanceHelper.updateWithData`)
/// so that the JSON the server produces is checked against what a real client keeps and drops.
enum GTConstantsClient {
    struct Minimum: Equatable {
        let number: String
        let messages: [String: String]
    }

    struct Rule: Equatable {
        let active: Bool
        let restriction: Int
        let app: Minimum
        let os: Minimum
    }

    struct Maintenance: Equatable {
        let active: Bool
        let message: String?
        let pollInterval: Double
    }

    /// `dict[key] as? Bool`: a JSON boolean, or a number that bridges to one (0 or 1).
    static func bool(_ value: JSONValue?) -> Bool? {
        switch value {
        case .bool(let b)?: b
        case .integer(0)?: false
        case .integer(1)?: true
        default: nil
        }
    }

    /// `dict["min_…_version"] as? [String: AnyObject]` whose `version` is a String; `message` is optional.
    static func minimum(_ value: JSONValue?) -> Minimum? {
        guard case .object? = value, let number = value?["version"]?.string else { return nil }
        var messages: [String: String] = [:]
        for (language, text) in value?["message"]?.members ?? [] {
            if let text = text.string { messages[language] = text }
        }
        return Minimum(number: number, messages: messages)
    }

    /// `updateConfig(_:)`: a rule lacking `active`, `restriction` or either minimum is dropped silently;
    /// the restriction is clamped to 0…2.
    static func rules(_ document: JSONValue, platform: String) -> (kept: [Rule], dropped: Int) {
        guard let items = document["update"]?[platform]?.array else { return ([], 0) }
        var kept: [Rule] = []
        for item in items {
            guard let active = bool(item["active"]), case .integer(let raw)? = item["restriction"],
                let app = minimum(item["min_app_version"]), let os = minimum(item["min_os_version"])
            else { continue }
            kept.append(Rule(active: active, restriction: Int(min(max(raw, 0), 2)), app: app, os: os))
        }
        return (kept, items.count - kept.count)
    }

    /// `String.isOlder(thanVersion:)`: false when either side is empty, else a numeric string comparison
    /// (digit runs compared as numbers, so "5" is older than "5.0").
    static func isOlder(_ a: String, than b: String) -> Bool {
        guard !a.isEmpty, !b.isEmpty else { return false }
        var x = Substring(a)
        var y = Substring(b)
        while let c = x.first, let d = y.first {
            if c.isNumber && d.isNumber {
                let m = x.prefix { $0.isNumber }
                let n = y.prefix { $0.isNumber }
                let (p, q) = (Int(m) ?? 0, Int(n) ?? 0)
                if p != q { return p < q }
                x = x.dropFirst(m.count)
                y = y.dropFirst(n.count)
            } else {
                if c != d { return c < d }
                x = x.dropFirst()
                y = y.dropFirst()
            }
        }
        return x.isEmpty && !y.isEmpty
    }

    /// `configureUpdateRequirements()`: active rules, highest restriction first, app before OS.
    static func violation(_ rules: [Rule], app: String, os: String) -> (rule: Rule, kind: String)? {
        for rule in rules.filter(\.active).enumerated().sorted(by: {
            $0.element.restriction != $1.element.restriction
                ? $0.element.restriction > $1.element.restriction : $0.offset < $1.offset
        }).map(\.element) {
            if isOlder(app, than: rule.app.number) { return (rule, "app") }
            if isOlder(os, than: rule.os.number) { return (rule, "os") }
        }
        return nil
    }

    /// `GTMaintenanceHelper.updateWithData`: `active as? Bool ?? false`, `message as? String`,
    /// `poll_interval as? TimeInterval` (30 when absent).
    static func maintenance(_ document: JSONValue, platform: String) -> Maintenance? {
        guard case .object? = document["maintenance"]?[platform], let data = document["maintenance"]?[platform] else {
            return nil
        }
        return Maintenance(
            active: bool(data["active"]) ?? false, message: data["message"]?.string,
            pollInterval: data["poll_interval"]?.double ?? 30)
    }

    /// `responseObject["hotfixes"] as? [String: AnyObject]`, then `hotFix(key:) -> String?` or `-> NSNumber?`.
    static func hotfixes(_ document: JSONValue) -> [String: JSONValue]? {
        guard let members = document["hotfixes"]?.members else { return nil }
        return Dictionary(members, uniquingKeysWith: { $1 })
    }
}

@Suite("The interceptions API as a GTConstants client reads it")
struct GTConstantsContractTests {
    func document(_ server: SiteServer, _ query: String = "") throws -> JSONValue {
        try JSONParser.parse(server.get("/api/interceptions" + query).body)
    }

    @Test func everyReadmeRuleIsKeptAndAgreesWithUpdateCheck() throws {
        let server = try SiteServer()
        defer { server.stop() }
        try InterceptionsSiteTests.seed(server.site)
        let (rules, dropped) = GTConstantsClient.rules(try document(server), platform: "ios")
        #expect(dropped == 0, "GTConstants drops a rule that lacks either minimum")
        #expect(rules.count == 4)
        #expect(rules.map(\.app.number) == ["8.10", "5.0", "", "10"])
        #expect(rules.map(\.os.number) == ["", "", "9", ""])
        #expect(rules.map(\.active) == [true, true, true, false])
        #expect(rules[0].app.messages["pt"] == "Há uma nova versão.")
        // UpdateRules.md's clients: GTConstants and /api/update-check name the same rule.
        for (app, os, expected) in [("4.2", "9", 2), ("6.5", "9", 1), ("9.6", "17.1", 0), ("9.6", "8.4", 3)] {
            let check = try JSONParser.parse(
                server.get("/api/update-check?platform=ios&app_version=\(app)&os_version=\(os)").body)
            let client = GTConstantsClient.violation(rules, app: app, os: os)
            #expect((check["rule"]?.int ?? 0) == expected, "update-check for app \(app) on OS \(os)")
            let index = client.flatMap { found in rules.firstIndex { $0 == found.rule } }.map { $0 + 1 } ?? 0
            #expect(index == expected, "GTConstants for app \(app) on OS \(os)")
            #expect(client?.kind == check["kind"]?.string)
        }
    }

    @Test(arguments: ["ios", "android", "web"])
    func eachShapeOfRuleIsKeptOnEveryPlatform(_ platform: String) throws {
        let server = try SiteServer()
        defer { server.stop() }
        let store = server.site.interceptions
        _ = try store.addRule(
            platform: platform, restriction: .low, active: true, minimumApp: ("3.1", ["en": "app"]), minimumOS: nil)
        _ = try store.addRule(
            platform: platform, restriction: .medium, active: true, minimumApp: nil, minimumOS: ("12", ["en": "os"]))
        _ = try store.addRule(
            platform: platform, restriction: .high, active: true, minimumApp: ("2", [:]),
            minimumOS: ("10.3", ["de": "alt"]))
        _ = try store.addRule(
            platform: platform, restriction: .high, active: false, minimumApp: ("9", ["en": "off"]), minimumOS: nil)
        let (rules, dropped) = GTConstantsClient.rules(try document(server), platform: platform)
        #expect(dropped == 0)
        #expect(
            rules == [
                .init(
                    active: true, restriction: 0, app: .init(number: "3.1", messages: ["en": "app"]),
                    os: .init(number: "", messages: [:])),
                .init(
                    active: true, restriction: 1, app: .init(number: "", messages: [:]),
                    os: .init(number: "12", messages: ["en": "os"])),
                .init(
                    active: true, restriction: 2, app: .init(number: "2", messages: [:]),
                    os: .init(number: "10.3", messages: ["de": "alt"])),
                .init(
                    active: false, restriction: 2, app: .init(number: "9", messages: ["en": "off"]),
                    os: .init(number: "", messages: [:])),
            ])
        // An empty minimum is never violated; the inactive rule never applies.
        #expect(GTConstantsClient.violation(rules, app: "1", os: "99")?.rule == rules[2])
        #expect(GTConstantsClient.violation(rules, app: "3.0", os: "99")?.rule == rules[0])
        #expect(GTConstantsClient.violation(rules, app: "8", os: "11")?.kind == "os")
        #expect(GTConstantsClient.violation(rules, app: "8", os: "12") == nil)
        for other in InterceptionsStore.platforms where other != platform {
            #expect(GTConstantsClient.rules(try document(server), platform: other).kept.isEmpty)
        }
    }

    @Test func maintenanceAndHotfixesHaveTheShapeTheClientReads() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let bare = try document(server)
        #expect(
            GTConstantsClient.hotfixes(bare)?.isEmpty == true, "an empty object, not a missing key, without hotfixes")
        for platform in InterceptionsStore.platforms {
            #expect(
                GTConstantsClient.maintenance(bare, platform: platform)
                    == .init(active: false, message: "", pollInterval: 30))
            #expect(bare["update"]?[platform]?.array?.isEmpty == true)
        }
        try server.site.hotfixes.set("home.heading", language: StringOverlay.allLanguages, to: "Build %@")
        try server.site.constants.setHotfix("mastermind.attempts", .integer(12))
        try server.site.interceptions.setMaintenance(
            "ios", .init(active: true, messages: ["en": "Back soon"], pollInterval: 45))
        let full = try document(server)
        let hotfixes = try #require(GTConstantsClient.hotfixes(full))
        #expect(hotfixes["home.heading"] == .string("Build %@"), "hotFix(key:) -> String?")
        #expect(hotfixes["mastermind.attempts"] == .integer(12), "hotFix(key:) -> NSNumber?")
        #expect(
            GTConstantsClient.maintenance(full, platform: "ios")
                == .init(active: true, message: "Back soon", pollInterval: 45))
    }

    /// The client's own comparison, as written in GTConstants (Differences.md lists where Arcade differs).
    @Test func theClientsVersionComparison() {
        #expect(GTConstantsClient.isOlder("4.2", than: "5.0"))
        #expect(GTConstantsClient.isOlder("8.2", than: "8.10"))
        #expect(!GTConstantsClient.isOlder("8.10", than: "8.2"))
        #expect(GTConstantsClient.isOlder("5", than: "5.0"), "GTConstants' quirk: Arcade says 5 equals 5.0")
        #expect(!GTConstantsClient.isOlder("5.0", than: "5.0"))
        #expect(!GTConstantsClient.isOlder("1", than: ""), "an empty minimum is never violated")
        #expect(!GTConstantsClient.isOlder("", than: "3"), "an unknown client version never is either")
    }
}
