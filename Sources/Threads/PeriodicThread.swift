import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Work on a thread of its own, repeated until stopped (the site's ticker, its housekeeping): a turn that did
/// something is followed at once, after a yield (a backlog goes on in short steps); an idle turn waits `idle` seconds,
/// or less when `stop` wakes it.
public final class PeriodicThread: Sendable {
    private let wake = Condition()
    private let stopping = Atomic<Bool>(false)
    private let thread = Mutex<OSThread?>(nil)

    /// `turn` returns whether it did anything.
    public init(idle seconds: Double, _ turn: @escaping @Sendable () -> Bool) {
        let started = OSThread { [self] in
            while !stopping.load(ordering: .acquiring) {
                if turn() {
                    sched_yield()
                    continue
                }
                wake.withLock { if !stopping.load(ordering: .acquiring) { wake.wait(seconds: seconds) } }
            }
        }
        thread.withLock { $0 = started }
    }

    /// Ends the loop after its current turn and waits for the thread.
    public func stop() {
        wake.withLock {
            stopping.store(true, ordering: .releasing)
            wake.broadcast()
        }
        thread.withLock { started in
            started?.join()
            started = nil
        }
    }
}
