import CSystem
import Synchronization
import Threads

#if canImport(Glibc)
import Glibc
#endif

/// A fixed set of threads for work that may block (an outbound HTTP call, a
/// slow query). Jobs wait in a queue. A thread that finishes a job takes the next one without sleeping; a
/// submission wakes one sleeping thread, through that thread's own `Waker`: one shared by all of them would wake
/// every sleeper on each ring (dozens of context switches for a page).
final class BlockingPool: Sendable {
    private enum Job { case run(@Sendable () -> Void), stop }
    private struct State {
        var jobs: [Job] = []
        /// Threads asleep (or about to be) on their waker, by index; none is woken twice.
        var sleeping: [Int] = []
    }
    private let state = Mutex(State())
    private let wakers: [Waker]
    private let threads: Mutex<[OSThread]> = Mutex([])
    /// Jobs submitted and not yet started (for metrics).
    let queued = Atomic<Int>(0)

    init(threads count: Int) {
        wakers = (0..<max(1, count)).map { _ in Waker() }
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
        enqueue(Array(repeating: .stop, count: wakers.count), atOnce: true)
        threads.withLock { all in
            for thread in all { thread.join() }
            all = []
        }
    }

    private func enqueue(_ added: [Job], atOnce: Bool = false) {
        let woken = state.withLock { state in
            state.jobs.append(contentsOf: added)
            let count = min(added.count, state.sleeping.count)
            defer { state.sleeping.removeLast(count) }
            return Array(state.sleeping.suffix(count))
        }
        for index in woken { wakers[index].ring(atOnce: atOnce) }
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
                wakers[index].sleep()
                continue
            }
            guard case .run(let body) = job else { return }
            queued.subtract(1, ordering: .relaxed)
            body()
        }
    }
}
