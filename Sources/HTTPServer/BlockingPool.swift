import CSystem
import Synchronization
import Threads

#if canImport(Glibc)
import Glibc
#endif

/// A fixed set of threads for work that may block (an outbound HTTP call, a
/// slow query). Jobs wait in a queue. A thread that finishes a job takes the next one without sleeping; a
/// submission wakes one sleeping thread, through that thread's own eventfd: one eventfd shared by all of them
/// would wake every sleeper on each write (dozens of context switches for a page).
final class BlockingPool: Sendable {
    private enum Job { case run(@Sendable () -> Void), stop }
    private struct State {
        var jobs: [Job] = []
        /// Threads asleep (or about to be) on their eventfd, by index; none is woken twice.
        var sleeping: [Int] = []
    }
    private let state = Mutex(State())
    private let wakers: [Int32]
    private let threads: Mutex<[OSThread]> = Mutex([])
    /// Jobs submitted and not yet started (for metrics).
    let queued = Atomic<Int>(0)

    init(threads count: Int) {
        wakers = (0..<max(1, count)).map { _ in csys_eventfd_blocking() }
        precondition(wakers.allSatisfy { $0 >= 0 }, "eventfd failed")
        var started: [OSThread] = []
        for index in wakers.indices {
            started.append(OSThread { [self] in self.work(index) })
        }
        threads.withLock { $0 = started }
    }

    func submit(_ job: @escaping @Sendable () -> Void) {
        queued.add(1, ordering: .relaxed)
        enqueue([.run(job)])
    }

    /// Lets queued jobs finish, then stops every thread.
    func shutdown() {
        enqueue(Array(repeating: .stop, count: wakers.count))
        threads.withLock { all in
            for thread in all { thread.join() }
            all = []
        }
        for fd in wakers { close(fd) }
    }

    private func enqueue(_ added: [Job]) {
        let woken = state.withLock { state in
            state.jobs.append(contentsOf: added)
            let count = min(added.count, state.sleeping.count)
            defer { state.sleeping.removeLast(count) }
            return Array(state.sleeping.suffix(count))
        }
        for index in woken { _ = csys_eventfd_signal(wakers[index]) }
    }

    private func work(_ index: Int) {
        while true {
            let job: Job? = state.withLock { state in
                if state.jobs.isEmpty {
                    state.sleeping.append(index)
                    return nil
                }
                return state.jobs.removeFirst()
            }
            guard let job else {
                while csys_eventfd_drain(wakers[index]) < 0 && errno == EINTR {}
                continue
            }
            guard case .run(let body) = job else { return }
            queued.subtract(1, ordering: .relaxed)
            body()
        }
    }
}
