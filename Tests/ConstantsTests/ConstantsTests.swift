import Constants
import PropertyList
import Testing

@Suite("Constants")
struct ConstantsTests {
    @Test func defaultsOverridesAndHotfixes() throws {
        let c = try Constants.load(directory: "Config", environments: ["development"])
        #expect(c.int("mastermind.attempts", default: 0) == 10)
        #expect(c.int("mastermind.digitMax", default: 0) == 7)
        #expect(c.double("namegame.hintInterval", default: 0) == 4)
        #expect(c.string("site.version", default: "") == "1.1.0-dev", "the override wins")
        try c.setHotfix("site.version", .string("1.0.1"))
        #expect(c.string("site.version", default: "") == "1.0.1", "a hotfix beats the override")
        #expect(throws: Constants.Error.self) { try c.setHotfix("mastermind.attempts", .string("ten")) }
        try c.setHotfix("site.version", nil)
        #expect(c.string("site.version", default: "") == "1.1.0-dev")
        #expect(try Constants.load(directory: "Config").string("site.version", default: "") == "1.1.0")
    }

    @Test func missingOrMalformedFilesStopStartup() {
        #expect(throws: Constants.Error.self) { try Constants.load(directory: "Config", environments: ["nowhere"]) }
        #expect(throws: (any Error).self) { try Constants.load(directory: "/nonexistent") }
    }
}
