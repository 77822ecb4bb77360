import Synchronization
import Threads

#if canImport(Glibc)
import Glibc
#endif

/// The site's ticker thread (one of its background threads): four times a second it applies scheduled changes that fell due (by the site's
/// clock, so tests move time instead of waiting) and, when hotfixes, rules or maintenance changed, tells the live
/// streams. It never runs on an event loop, so it may wait for commits.
final class SiteTicker: Sendable {
    private let stopping = Atomic<Bool>(false)
    private let thread = Mutex<OSThread?>(nil)
    static let interval: useconds_t = 250_000

    init(_ tick: @escaping @Sendable () -> Void) {
        let started = OSThread { [self] in
            while !stopping.load(ordering: .acquiring) {
                tick()
                usleep(Self.interval)
            }
        }
        thread.withLock { $0 = started }
    }

    func stop() {
        stopping.store(true, ordering: .releasing)
        thread.withLock { started in
            started?.join()
            started = nil
        }
    }
}
