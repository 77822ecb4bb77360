import Testing

@testable import Cheats

func keys(_ text: String) -> [Action] { text.split(separator: " ").map { .key(String($0)) } }
let konami: [Action] = [
    .swipe(.up), .swipe(.up), .swipe(.down), .swipe(.down), .swipe(.left), .swipe(.right),
    .swipe(.left), .swipe(.right), .key("b"), .key("a"),
]

/// Feeds actions one second apart; returns the times each cheat fired.
func feed(_ matcher: inout CheatMatcher, _ actions: [Action], from start: Double = 0, gap: Double = 1) -> [String] {
    var fired: [String] = []
    for (i, action) in actions.enumerated() { fired += matcher.record(action, at: start + Double(i) * gap).unlocked }
    return fired
}

@Suite("Cheat matcher")
struct CheatsTests {
    @Test func anExtraUpThenKonamiFiresOnce() throws {
        var m = try CheatMatcher(cheats: [CheatCode(name: "konami", sequences: [konami])])
        #expect(feed(&m, [.swipe(.up)] + konami) == ["konami"])
        #expect(m.progress["konami"]?.state == .matched)
    }

    @Test func overlappingInputCompletesTheSequence() throws {
        var m = try CheatMatcher(cheats: [CheatCode(name: "abac", sequences: [keys("a b a c")])])
        let actions = keys("a b a b a c")
        var fired: [Int] = []
        for (i, action) in actions.enumerated() where !m.record(action, at: Double(i)).unlocked.isEmpty {
            fired.append(i)
        }
        #expect(fired == [5])
    }

    @Test func cheatsSharingAPrefixFireOnlyOnTheirOwnInput() throws {
        var m = try CheatMatcher(cheats: [
            CheatCode(name: "abc", sequences: [keys("a b c")]),
            CheatCode(name: "abd", sequences: [keys("a b d")]),
        ])
        #expect(feed(&m, keys("a b c")) == ["abc"])
        #expect(feed(&m, keys("a b d"), from: 10) == ["abd"])
        #expect(feed(&m, keys("a b e"), from: 20) == [])
    }

    @Test func aMatchFiresOncePerCompletionWithoutReusingActions() throws {
        var m = try CheatMatcher(cheats: [CheatCode(name: "aa", sequences: [keys("a a")])])
        #expect(feed(&m, keys("a a a a")) == ["aa", "aa"])
        var three = try CheatMatcher(cheats: [CheatCode(name: "aa", sequences: [keys("a a")])])
        #expect(feed(&three, keys("a a a")) == ["aa"])
    }

    @Test func timeoutsStartAfreshAndTheLimitItselfIsInTime() throws {
        let cheat = try CheatCode(name: "abc", sequences: [keys("a b c")], timeout: 2)
        var m = try CheatMatcher(cheats: [cheat])
        // A gap of exactly 2 s is in time; 2.001 s is not.
        #expect(feed(&m, keys("a b c"), gap: 2) == ["abc"])
        #expect(feed(&m, keys("a b c"), from: 100, gap: 2.001) == [])
        // A stale first action, then a fresh full sequence: fires.
        var n = try CheatMatcher(cheats: [cheat])
        _ = n.record(.key("a"), at: 0)
        #expect(feed(&n, keys("a b c"), from: 10) == ["abc"])
        // No timeout: any gap.
        var slow = try CheatMatcher(cheats: [CheatCode(name: "abc", sequences: [keys("a b c")], timeout: nil)])
        #expect(feed(&slow, keys("a b c"), gap: 3600) == ["abc"])
    }

    @Test func tapCountsMustBeEqual() throws {
        var m = try CheatMatcher(cheats: [CheatCode(name: "taps", sequences: [[.tap(3)]])])
        #expect(feed(&m, [.tap(2)]) == [])
        #expect(feed(&m, [.tap(3)], from: 5) == ["taps"])
    }

    /// Taps reach the server in bursts, which end 300 ms after a tap: three quick taps may come as 2 and 1 (a review's
    /// triple tap for "who", 0.3 s apart, unlocked nothing). A run of taps counts by its total, however it is split.
    @Test func tapsCountByTheirTotalHoweverTheyComeInBursts() throws {
        let code = try CheatCode(name: "who", sequences: [[.swipe(.down), .swipe(.up), .tap(3)]])
        for (index, split) in [[3], [2, 1], [1, 2], [1, 1, 1]].enumerated() {
            var m = try CheatMatcher(cheats: [code])
            #expect(feed(&m, [.swipe(.down), .swipe(.up)] + split.map(Action.tap), from: Double(index)) == ["who"])
        }
        var over = try CheatMatcher(cheats: [code])
        #expect(feed(&over, [.swipe(.down), .swipe(.up), .tap(2), .tap(2)]) == [], "four taps are not three")
        let two = try CheatCode(name: "two", sequences: [[.swipe(.left), .tap(1), .tap(1)]])
        #expect(two.sequences == [[.swipe(.left), .tap(1), .tap(1)], [.swipe(.left), .tap(2)]], "written form first")
        // Long runs stay as written (their splits would number in the thousands).
        #expect(try CheatCode(name: "many", sequences: [[.tap(7)]]).sequences == [[.tap(7)]])
    }

    @Test func keysCompareCaseInsensitivelyUnlessConfigured() throws {
        var loose = try CheatMatcher(cheats: [CheatCode(name: "idkfa", sequences: [keys("i d k f a")])])
        #expect(feed(&loose, keys("I D k F a")) == ["idkfa"])
        var strict = try CheatMatcher(cheats: [CheatCode(name: "Xy", sequences: [keys("X y")], caseSensitive: true)])
        #expect(feed(&strict, keys("x y")) == [])
        #expect(feed(&strict, keys("X y"), from: 10) == ["Xy"])
    }

    @Test func equivalentSequencesEachComplete() throws {
        let touch = konami.prefix(8) + [.tap(1), .tap(1)]
        let cheat = try CheatCode(name: "konami", sequences: [konami, Array(touch)])
        var m = try CheatMatcher(cheats: [cheat])
        #expect(feed(&m, konami) == ["konami"])
        #expect(feed(&m, Array(touch), from: 100) == ["konami"])
    }

    @Test func playersDoNotAffectEachOther() throws {
        let cheats = [try CheatCode(name: "abc", sequences: [keys("a b c")])]
        var ann = try CheatMatcher(cheats: cheats)
        var bob = try CheatMatcher(cheats: cheats)
        _ = ann.record(.key("a"), at: 0)
        _ = ann.record(.key("b"), at: 1)
        #expect(bob.record(.key("c"), at: 2).unlocked.isEmpty)
        #expect(ann.record(.key("c"), at: 2).unlocked == ["abc"])
    }

    @Test func statesAndProgress() throws {
        let cheat = try CheatCode(name: "abc", sequences: [keys("a b c")])
        var p = CheatProgress()
        #expect(p.state == .reset && p.nextAction(for: cheat) == .key("a"))
        p.record(.key("a"), at: 0, for: cheat)
        #expect(
            p.state == .matching && p.progress == 1 && p.previousAction == .key("a")
                && p.nextAction(for: cheat) == .key("b"))
        p.record(.key("z"), at: 1, for: cheat)
        // A wrong action restarts the cheat by itself: Arcade is then where the Cheats library is after reset().
        #expect(
            p.state == .notMatched && p.progress == 0 && p.previousAction == nil
                && p.nextAction(for: cheat) == .key("a"))
        p.record(.key("a"), at: 2, for: cheat)
        p.record(.key("b"), at: 3, for: cheat)
        var m = try CheatMatcher(cheats: [cheat], progress: ["abc": p])
        let outcome = m.record(.key("x"), at: 4)
        #expect(outcome.closest == nil && outcome.state == .notMatched)
        // One step in, no key is yet the cheat's; two in, the next is (a text field leaves it to the cheat).
        #expect(m.record(.key("a"), at: 5).nextKeys == [])
        #expect(
            m.record(.key("b"), at: 6)
                == CheatMatcher.Outcome(
                    unlocked: [], closest: "abc", state: .matching, progress: 2, length: 3, nextKeys: ["c"]))
        #expect(m.record(.key("c"), at: 7).nextKeys == [], "done")
        p.reset()
        #expect(p == CheatProgress())
    }

    /// The Cheats library ignores a tap it is not expecting (and keys while it expects a swipe);
    /// Arcade counts every action, so a stray tap breaks the sequence, which then starts afresh.
    @Test func anUnexpectedTapOrKeyCountsAsAWrongAction() throws {
        let cheat = try CheatCode(name: "konami", sequences: [konami])
        var p = CheatProgress()
        for (i, action) in konami.prefix(4).enumerated() { p.record(action, at: Double(i), for: cheat) }
        #expect(p.progress == 4)
        p.record(.tap(1), at: 4, for: cheat)
        #expect(p.state == .notMatched && p.progress == 0, "the library would have ignored the tap")
        var m = try CheatMatcher(cheats: [cheat])
        #expect(
            feed(&m, Array(konami.prefix(5)) + [.key("q")] + Array(konami.suffix(5))) == [], "a stray key breaks it too"
        )
        #expect(feed(&m, konami, from: 20) == ["konami"], "and the whole code again unlocks it")
    }

    @Test func badCheatsAndActionsAreRefused() throws {
        #expect(throws: CheatError.self) { try CheatCode(name: "empty", sequences: [[]]) }
        #expect(throws: CheatError.self) { try CheatCode(name: "none", sequences: []) }
        #expect(throws: CheatError.self) { try CheatCode(name: "zero", sequences: [[.tap(0)]]) }
        #expect(throws: CheatError.self) { try CheatCode(name: "t", sequences: [[.shake]], timeout: 0) }
        let one = try CheatCode(name: "x", sequences: [[.shake]])
        #expect(throws: CheatError.self) { try CheatMatcher(cheats: [one, one]) }
        for (kind, value) in [
            ("swipe", "diagonal"), ("tap", "0"), ("tap", "-1"), ("tap", "x"), ("tap", "1000"),
            ("key", ""), ("key", "\u{7}"), ("key", String(repeating: "k", count: 33)), ("wave", "1"), ("shake", "hard"),
        ] {
            #expect(throws: CheatError.self, "\(kind)=\(value)") { try Action(kind: kind, value: value) }
        }
        #expect(try Action(kind: "key", value: "ArrowUp") == .key("ArrowUp"))
        #expect(try Action(kind: "tap", value: "2") == .tap(2))
        #expect(try Action("swipe:left") == .swipe(.left))
        #expect(try Action("shake") == .shake)
        #expect(throws: CheatError.self) { try Action("swipe") }
        for action in [Action.key("a"), .swipe(.down), .tap(4), .shake] {
            #expect(try Action(action.description) == action)
        }
    }
}
