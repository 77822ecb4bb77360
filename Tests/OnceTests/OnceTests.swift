import Synchronization
import Testing

@testable import Once

/// A clock the test moves by hand.
final class TestClock: Sendable {
    let time = Mutex<Double>(1_000)
    var now: Double { time.withLock { $0 } }
    func advance(_ seconds: Double) { time.withLock { $0 += seconds } }
}

func once(_ clock: TestClock, install: Double = 1_000, version: Double = 1_000, session: Double = 1_000) -> Once {
    Once(
        record: Once.Record(), anchors: Once.Anchors(install: install, version: version, session: session),
        clock: { clock.now })
}

@Suite("The once-store")
struct OnceTests {
    @Test func markDoneAndLastDone() {
        let clock = TestClock()
        var o = once(clock)
        #expect(o.lastDone("t") == nil)
        #expect(!o.beenDone("t"))
        o.markDone("t")
        clock.advance(5)
        o.markDone("t")
        #expect(o.lastDone("t") == 1_005)
        #expect(o.beenDone("t"))
        #expect(o.count("t") == 2)
    }

    @Test func countsAndTheirDeliberateDifferences() {
        let clock = TestClock()
        var o = once(clock)
        // Never done: "less than n" and "exactly 0" hold (Ecno says false).
        #expect(o.beenDone("t", count: .lessThan(1)))
        #expect(o.beenDone("t", count: .exactly(0)))
        #expect(!o.beenDone("t", count: .moreThan(0)))
        for _ in 0..<3 { o.markDone("t") }  // same instant: counted three times
        #expect(o.beenDone("t", count: .exactly(3)))
        #expect(o.beenDone("t", count: .moreThan(2)))
        #expect(!o.beenDone("t", count: .moreThan(3)))
        #expect(o.beenDone("t", count: .lessThan(4)))
        #expect(!o.beenDone("t", count: .lessThan(3)))
    }

    @Test func sinceIncludesItsExactBoundary() {
        let clock = TestClock()
        var o = once(clock)
        o.markDone("t")  // at 1000
        clock.advance(60)  // now 1060
        #expect(o.beenDone("t", scope: .since(60)), "a mark exactly Δ ago counts")
        #expect(!o.beenDone("t", scope: .since(59.999)))
        clock.advance(0.001)
        #expect(!o.beenDone("t", scope: .since(60)))
    }

    @Test func installVersionAndSessionScopes() {
        let clock = TestClock()
        var o = once(clock, install: 900, version: 1_050, session: 1_100)
        o.markDone("t")  // 1000: after install, before the version and session began
        clock.advance(75)
        o.markDone("t")  // 1075: in this version, before this session
        clock.advance(50)
        o.markDone("t")  // 1125: in this session
        #expect(o.count("t", scope: .install) == 3)
        #expect(o.count("t", scope: .version) == 2)
        #expect(o.count("t", scope: .session) == 1)
        // A new session or a new version starts counting afresh.
        let later = Once(
            record: o.record, anchors: Once.Anchors(install: 900, version: 1_200, session: 1_130), clock: { clock.now })
        #expect(!later.beenDone("t", scope: .session))
        #expect(!later.beenDone("t", scope: .version))
        #expect(later.beenDone("t", scope: .install))
    }

    @Test func toDoWithoutScopeAlwaysMarks() {
        let clock = TestClock()
        var o = once(clock)
        o.markDone("t")
        #expect(o.toDo("t", info: "hello") != [])
        #expect(o.needToDo("t"))
        #expect(o.infoForToDo("t") == "hello")
    }

    @Test func toDoIsNotReMarkedWithinItsScope() {
        let clock = TestClock()
        var o = once(clock, session: 1_000)
        o.markDone("tour")
        #expect(o.toDo("tour", scope: .session).isEmpty, "done this session: nothing to do")
        #expect(!o.needToDo("tour"))
        clock.advance(3_600)
        #expect(o.toDo("tour", scope: .since(60)) != [], "not done in the last minute: to do")
        #expect(o.needToDo("tour"))
    }

    /// Matches Ecno: `until(Δ)` spans up to Δ from now, both ends included.
    @Test func untilIsDueThroughItsDeadline() {
        let clock = TestClock()
        var o = once(clock)
        o.toDo("remind", scope: .until(3 * 86_400), info: "try the Name Game")
        clock.advance(3 * 86_400)
        #expect(o.needToDo("remind"), "still due at the exact deadline, as in Ecno")
        #expect(o.infoForToDo("remind") == "try the Name Game")
        clock.advance(0.001)
        #expect(!o.needToDo("remind"), "expired just after it")
        #expect(o.infoForToDo("remind") == nil, "an expired to-do returns no info")
    }

    /// Matches Ecno: as a count scope, `until(Δ)` holds every mark so far (not the last Δ).
    @Test func untilAsACountScopeHoldsEveryMark() {
        let clock = TestClock()
        var o = once(clock)
        o.markDone("t")
        clock.advance(30 * 86_400)
        o.markDone("t")
        #expect(o.count("t", scope: .until(60)) == 2, "a mark a month old counts")
        #expect(o.count("t", scope: .since(60)) == 1, "since(Δ) is the last Δ")
        #expect(!o.beenDone("never", scope: .until(60)))
    }

    /// Matches Ecno: `toDo(.until)` follows the rule of every scope, so a task ever done is not marked.
    @Test func toDoUntilSkipsATaskEverDone() {
        let clock = TestClock()
        var o = once(clock)
        #expect(o.toDo("fresh", scope: .until(60)) != [], "never done: marked, due for Δ")
        #expect(o.needToDo("fresh"))
        o.markDone("old")
        clock.advance(365 * 86_400)
        #expect(o.toDo("old", scope: .until(60)).isEmpty, "done a year ago: not marked")
        #expect(!o.needToDo("old"))
        o.clearDone("old")
        #expect(o.toDo("old", scope: .until(60)) != [], "after clearDone it is marked again")
    }

    @Test func markDoneClearsTheToDo() {
        let clock = TestClock()
        var o = once(clock)
        o.toDo("t", info: "x")
        let effects = o.markDone("t")
        #expect(effects.contains(.removeToDo(task: "t")))
        #expect(!o.needToDo("t"))
        #expect(o.infoForToDo("t") == nil)
    }

    @Test func clearing() {
        let clock = TestClock()
        var o = once(clock)
        o.markDone("a")
        o.markDone("b")
        o.toDo("c")
        o.clearDone("a")
        #expect(!o.beenDone("a") && o.beenDone("b"))
        o.clearToDo("c")
        #expect(!o.needToDo("c"))
        o.toDo("c")
        #expect(o.clearAll() == [.clearAll])
        #expect(!o.beenDone("b") && !o.needToDo("c"))
    }
}
