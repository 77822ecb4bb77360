import Testing

@testable import Interceptions

func v(_ s: String) -> Version { Version(s)! }
func requirement(_ version: String, _ messages: [String: String] = ["en": "Please update"]) -> Requirement {
    Requirement(version: v(version), messages: messages)
}

/// UpdateRules.md's example rules for iOS.
let readmeRules = [
    UpdateRule(
        id: 1, platform: "ios", restriction: .low, active: true,
        minimumApp: requirement("8.10", ["en": "A new version is out.", "pt": "Há uma nova versão."]), minimumOS: nil),
    UpdateRule(
        id: 2, platform: "ios", restriction: .high, active: true,
        minimumApp: requirement("5.0", ["en": "This version no longer works. Update to keep playing."]), minimumOS: nil),
    UpdateRule(
        id: 3, platform: "ios", restriction: .medium, active: true, minimumApp: nil,
        minimumOS: requirement("9", ["en": "Your system is too old for the next release."])),
    UpdateRule(
        id: 4, platform: "ios", restriction: .high, active: false, minimumApp: requirement("10"), minimumOS: nil),
    UpdateRule(
        id: 5, platform: "android", restriction: .high, active: true, minimumApp: requirement("99"), minimumOS: nil),
]

@Suite("Update rules")
struct UpdateRulesTests {
    @Test func versionsCompareAsNumbers() {
        #expect(v("9") == v("9.0"))
        #expect(v("9.0.0") == v("9"))
        #expect(v("8.2.1") < v("8.10"))
        #expect(v("10") > v("9.9.9"))
        #expect(v("1.0.1") > v("1"))
        for bad in ["", "1..2", "1.a", "v1", ".1", "1.", " 1", "1.2.3.4.5.6.7.8.9", "1234567890"] {
            #expect(Version(bad) == nil, "\(bad)")
        }
    }

    @Test func theReadmeExample() {
        let high = UpdateCheck.evaluate(readmeRules, platform: "ios", app: v("4.2"), os: v("9"), language: "en")
        #expect(high?.rule.id == 2)
        #expect(high?.rule.restriction == .high)
        #expect(high?.kind == .app)
        let low = UpdateCheck.evaluate(readmeRules, platform: "ios", app: v("6.5"), os: v("9"), language: "en")
        #expect(low?.rule.id == 1)
        #expect(low?.rule.restriction == .low)
        #expect(UpdateCheck.evaluate(readmeRules, platform: "ios", app: v("9.6"), os: v("17.1"), language: "en") == nil)
    }

    @Test func inactiveRulesDoNotCount() {
        // Rule 4 (inactive) would catch 9.6; only the active ones are considered.
        #expect(UpdateCheck.evaluate(readmeRules, platform: "ios", app: v("9.6"), os: v("9.0"), language: "en") == nil)
    }

    @Test func appIsCheckedBeforeOSAndHigherRestrictionsFirst() {
        let rules = [
            UpdateRule(
                id: 1, platform: "web", restriction: .medium, active: true,
                minimumApp: requirement("2"), minimumOS: requirement("10", ["en": "os"]))
        ]
        #expect(UpdateCheck.evaluate(rules, platform: "web", app: v("1"), os: v("5"), language: "en")?.kind == .app)
        #expect(UpdateCheck.evaluate(rules, platform: "web", app: v("2"), os: v("5"), language: "en")?.kind == .os)
        // The medium OS rule beats the low app rule.
        #expect(
            UpdateCheck.evaluate(readmeRules, platform: "ios", app: v("6.5"), os: v("8"), language: "en")?.rule.id == 3)
    }

    @Test func tiesGoToTheFirstRule() {
        let rules = [
            UpdateRule(
                id: 7, platform: "ios", restriction: .high, active: true, minimumApp: requirement("3"), minimumOS: nil),
            UpdateRule(
                id: 8, platform: "ios", restriction: .high, active: true, minimumApp: requirement("5"), minimumOS: nil),
        ]
        #expect(UpdateCheck.evaluate(rules, platform: "ios", app: v("1"), os: v("1"), language: "en")?.rule.id == 7)
    }

    @Test func messagesFallBackFromRegionToLanguageToBase() {
        let r = requirement("1", ["en": "English", "pt": "Português", "zh-Hant": "繁體"])
        #expect(r.message(for: "pt-BR", base: "en") == "Português")
        #expect(r.message(for: "pt", base: "en") == "Português")
        #expect(r.message(for: "zh-Hant-TW", base: "en") == "繁體")
        #expect(r.message(for: "ja", base: "en") == "English")
        #expect(
            requirement("1", ["fr": "x"]).message(for: "ja", base: "en") == "",
            "a missing message is empty, not a crash")
    }

    @Test func otherPlatformsAreSeparate() {
        #expect(
            UpdateCheck.evaluate(readmeRules, platform: "android", app: v("50"), os: v("14"), language: "en")?.rule.id
                == 5)
        #expect(UpdateCheck.evaluate(readmeRules, platform: "web", app: v("1"), os: v("1"), language: "en") == nil)
    }

    @Test func browserRulesForOneSystemSkipTheOthers() {
        let rules = [
            UpdateRule(
                id: 1, platform: "web", restriction: .high, active: true, minimumApp: nil, minimumOS: requirement("15"),
                os: "ios"),
            UpdateRule(
                id: 2, platform: "web", restriction: .medium, active: true, minimumApp: nil,
                minimumOS: requirement("10"), os: "windows"),
            UpdateRule(
                id: 3, platform: "web", restriction: .low, active: true, minimumApp: requirement("2.0"), minimumOS: nil),
        ]
        func check(_ os: String, _ system: String?) -> Int? {
            UpdateCheck.evaluate(rules, platform: "web", app: v("2.0"), os: v(os), system: system, language: "en")?.rule
                .id
        }
        #expect(check("14.8", "ios") == 1)
        #expect(check("17", "ios") == nil)
        #expect(check("10.0", "windows") == nil, "Windows 10 is not held to iOS 15")
        #expect(check("6.1", "windows") == 2)
        #expect(check("1", nil) == nil, "an unknown system meets no system's rule")
        #expect(
            UpdateCheck.evaluate(rules, platform: "web", app: v("1.9"), os: v("1"), system: "macos", language: "en")?
                .rule.id == 3,
            "a rule for every system applies to all")
    }
}
