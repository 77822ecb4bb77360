import Synchronization
import Testing
import Threads

#if canImport(Glibc)
import Glibc
#endif

/// The site's ticker and housekeeping: one thread type that repeats a turn, at once after work, after a wait when idle.
@Suite("Periodic threads")
struct PeriodicThreadTests {
    /// Sleeps a millisecond at a time until `done` holds (the event), or fails after a minute.
    private func waitUntil(_ done: () -> Bool) {
        for _ in 0..<60_000 where !done() { usleep(1_000) }
        #expect(done())
    }

    /// A turn that did work is followed at once: five turns happen though an idle one would wait an hour.
    @Test func aBusyTurnIsFollowedAtOnce() {
        let turns = Atomic<Int>(0)
        let thread = PeriodicThread(idle: 3_600) { turns.add(1, ordering: .relaxed).newValue < 5 }
        defer { thread.stop() }
        waitUntil { turns.load(ordering: .relaxed) == 5 }
    }

    /// `stop` wakes an idle thread rather than waiting out its hour: this test ends (it used to sleep it through).
    @Test func stopWakesAnIdleThread() {
        let turns = Atomic<Int>(0)
        let thread = PeriodicThread(idle: 3_600) {
            turns.add(1, ordering: .relaxed)
            return false
        }
        waitUntil { turns.load(ordering: .relaxed) == 1 }
        thread.stop()
        #expect(turns.load(ordering: .relaxed) == 1, "no turn after the idle one, and none after the stop")
    }

    /// A short idle wait ends by itself: the thread takes further turns.
    @Test func anIdleTurnIsFollowedAfterItsWait() {
        let turns = Atomic<Int>(0)
        let thread = PeriodicThread(idle: 0.01) {
            turns.add(1, ordering: .relaxed)
            return false
        }
        defer { thread.stop() }
        waitUntil { turns.load(ordering: .relaxed) >= 3 }
    }
}
