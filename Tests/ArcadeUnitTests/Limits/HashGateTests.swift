import Synchronization
import Testing
import Threads

@testable import ArcadeStore
@testable import ArcadeWeb

#if canImport(Glibc)
import Glibc
#endif

/// Password hashing's gate: a flood fills its slot and queue, and a browser an admin signed in from before still gets
/// a place of its own (an attacker's review: 60 addresses of wrong sign-ins answered the real admin 503, 21 of 21).
@Suite("Password hashing gate")
struct HashGateTests {
    final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .acquiring) }
        func set() { value.store(true, ordering: .releasing) }
    }

    @Test func aFullQueueRefusesAFloodButNotAPriorityCaller() throws {
        let gate = HashGate(slots: 1, queue: 0, reserved: 1)
        let holding = Flag()
        let release = Flag()
        let holder = OSThread {
            _ = gate.run {
                holding.set()
                while !release.isSet { usleep(1_000) }
            }
        }
        while !holding.isSet { usleep(1_000) }
        #expect(gate.run { 1 } == nil, "the flood's next try is refused at once")
        let ran = Flag()
        let known = OSThread { _ = gate.run(priority: true) { ran.set() } }
        usleep(20_000)
        #expect(!ran.isSet, "it waits for the slot")
        release.set()
        holder.join()
        known.join()
        #expect(ran.isSet, "and then runs")
    }
}
