import Synchronization
import Testing
import Threads

@testable import HTTPServer

#if canImport(Glibc)
import Glibc
#endif

/// The pool wakes its sleepers one at a time (a thread woken per job put dozens on one CPU for quick jobs): what that
/// must never cost is a job left waiting while a thread that could run it sleeps.
@Suite("The blocking pool")
struct BlockingPoolTests {
    /// Set once, from any thread; `wait` returns once it is (on any number of threads: they yield meanwhile).
    final class Signal: Sendable {
        private let isSet = Atomic<Bool>(false)

        func set() { isSet.store(true, ordering: .releasing) }

        func wait() { while !isSet.load(ordering: .acquiring) { sched_yield() } }
    }

    /// Jobs that each wait for all the others to start: every one runs on a thread of its own at once, however they
    /// were submitted (one at a time, or a loop's turn's worth held in a wake batch).
    @Test(arguments: [false, true]) func jobsThatWaitForEachOtherAllRunAtOnce(inOneTurn: Bool) {
        let pool = BlockingPool(threads: 16)
        defer { pool.shutdown() }
        let count = 16
        let started = Atomic<Int>(0)
        let finished = Atomic<Int>(0)
        let allStarted = Signal()
        let allFinished = Signal()
        let submit = {
            for _ in 0..<count {
                pool.submit {
                    if started.add(1, ordering: .acquiringAndReleasing).newValue == count { allStarted.set() }
                    allStarted.wait()
                    if finished.add(1, ordering: .acquiringAndReleasing).newValue == count { allFinished.set() }
                }
            }
        }
        if inOneTurn { WakeBatch.run(submit) } else { submit() }
        allFinished.wait()
        #expect(finished.load(ordering: .acquiring) == count)
    }

    /// A job submitted while another blocks runs meanwhile, on another thread.
    @Test func aJobRunsWhileAnotherBlocks() {
        let pool = BlockingPool(threads: 4)
        defer { pool.shutdown() }
        let release = Signal()
        let quickDone = Signal()
        let blockedDone = Signal()
        pool.submit {
            release.wait()
            blockedDone.set()
        }
        pool.submit { quickDone.set() }
        quickDone.wait()
        release.set()
        blockedDone.wait()
    }
}
