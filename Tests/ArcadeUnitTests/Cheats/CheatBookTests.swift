import Cheats
import JSON
import Localization
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

@Suite("The cheats file")
struct CheatBookTests {
    @Test func theShippedCheatsLoadAndEachFormCompletes() throws {
        let book = try CheatBook.load("Config/cheats.json")
        #expect(book.entries.count >= 4)
        #expect(Set(book.entries.map(\.effect)) == CheatBook.effects, "every effect has a cheat")
        #expect(
            book.entries.contains { $0.code.sequences.contains { $0.allSatisfy { $0 == .shake } } }, "a shake cheat")
        for entry in book.entries {
            for sequence in entry.code.sequences {
                var matcher = try CheatMatcher(cheats: book.codes)
                var unlocked: [String] = []
                for (i, action) in sequence.enumerated() {
                    unlocked += matcher.record(action, at: Double(i) * 0.5).unlocked
                }
                #expect(unlocked == [entry.code.name], "\(entry.code.name): \(sequence)")
            }
        }
        // Every cheat has a localized name and hint in the base language (completeness covers the rest).
        let strings = try Localizer.load(directory: "Localizations")
        for entry in book.entries {
            #expect(strings.table("en")[entry.hint] != nil, "\(entry.hint)")
            #expect(strings.table("en")["cheats.name.\(entry.code.name)"] != nil, "\(entry.code.name)")
        }
        let konami = try #require(book.entry("konami"))
        #expect(konami.effect == "mastermind.reveal")
        #expect(
            konami.code.sequences.count == 3 && konami.code.sequences[1].suffix(2) == [.tap(1), .tap(1)]
                && konami.code.sequences[2].last == .tap(2))
    }

    @Test(arguments: [
        ("{\"cheats\": []}", "at least one cheat"),
        (
            "{\"cheats\": [{\"name\": \"x\", \"effect\": \"fireworks\", \"hint\": \"h\", \"sequences\": [[\"shake\"]]}]}",
            "effect must be one of"
        ),
        (
            "{\"cheats\": [{\"name\": \"x\", \"effect\": \"credits\", \"hint\": \"h\", \"sequences\": [[]]}]}",
            "empty sequence"
        ),
        (
            "{\"cheats\": [{\"name\": \"x\", \"effect\": \"credits\", \"hint\": \"h\", \"sequences\": [[\"tap:0\"]]}]}",
            "tap count"
        ),
        (
            "{\"cheats\": [{\"name\": \"x\", \"effect\": \"credits\", \"hint\": \"h\", \"sequences\": [[\"swipe:diagonal\"]]}]}",
            "swipe is up, down"
        ),
        (
            "{\"cheats\": [{\"name\": \"x\", \"effect\": \"credits\", \"hint\": \"h\", \"sequences\": [[\"shake\"]], \"timeout\": \"soon\"}]}",
            "timeout"
        ),
        ("{\"cheats\": [{\"name\": \"x\", \"effect\": \"credits\", \"sequences\": [[\"shake\"]]}]}", "needs a hint"),
        (
            "{\"cheats\": [{\"name\": \"x\", \"effect\": \"credits\", \"hint\": \"h\", \"sequences\": [[\"shake\"]]},"
                + " {\"name\": \"x\", \"effect\": \"theme.crt\", \"hint\": \"h\", \"sequences\": [[\"key:q\"]]}]}",
            "two cheats are named 'x'"
        ),
        ("{\"cheats\": [\n{\"name\": \"x\",}\n]}", "cheats.json:2:"),
    ])
    func badFilesAreRefusedWithTheReason(_ text: String, _ reason: String) throws {
        let scratch = ScratchDirectory()
        scratch.write("cheats.json", text)
        do {
            _ = try CheatBook.load(scratch.path + "/cheats.json")
            Issue.record("accepted: \(text)")
        } catch {
            #expect("\(error)".contains(reason), "\(error)")
        }
    }
}
