import CSystem
import Synchronization
import Threads

#if canImport(Glibc)
import Glibc
#endif

/// A fixed set of threads for work that may block (an outbound HTTP call, a
/// slow query). Jobs wait in a queue. A thread that finishes a job takes the next one without sleeping. Sleepers are
/// woken one at a time, each through its own `Waker` (one shared by all would wake every sleeper on each ring): a
/// submission wakes one only when no thread is already on its way, and a thread that takes a job with more queued
/// behind it wakes the next. Most jobs are quick (a page from cached records): one woken thread drains a turn's
/// dozens, where a thread woken per job put 32 threads on one CPU and made every page a context switch; jobs that
/// wait (a query over the network) leave work queued as each is taken, and draw in more threads.
final class BlockingPool: Sendable {
    private enum Job { case run(@Sendable () -> Void), stop }
    private struct State {
        var jobs: [Job] = []
        /// Threads asleep (or about to be) on their waker, by index; none is woken twice.
        var sleeping: [Int] = []
        /// A thread has been woken and has not yet looked at the queue: no other is woken meanwhile.
        var waking = false

        /// The sleeper to wake for queued work, if one should be: none while one is on its way.
        mutating func wakeOne() -> Int? {
            guard !jobs.isEmpty, !waking, let index = sleeping.popLast() else { return nil }
            waking = true
            return index
        }
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
        let sleepers = state.withLock { state in
            state.jobs.append(contentsOf: Array(repeating: .stop, count: wakers.count))
            defer { state.sleeping = [] }
            return state.sleeping
        }
        for index in sleepers { wakers[index].ring(atOnce: true) }
        threads.withLock { all in
            for thread in all { thread.join() }
            all = []
        }
    }

    private func enqueue(_ added: [Job]) {
        let woken = state.withLock { state in
            state.jobs.append(contentsOf: added)
            return state.wakeOne()
        }
        if let woken { wakers[woken].ring() }
    }

    private func work(_ index: Int) {
        var woken = false
        while true {
            let (job, next): (Job?, Int?) = state.withLock { state in
                if woken { state.waking = false }
                if state.jobs.isEmpty {
                    state.sleeping.append(index)
                    return (nil, nil)
                }
                let job = state.jobs.removeFirst()
                return (job, state.wakeOne())
            }
            if let next { wakers[next].ring() }
            guard let job else {
                wakers[index].sleep()
                woken = true
                continue
            }
            woken = false
            guard case .run(let body) = job else { return }
            queued.subtract(1, ordering: .relaxed)
            body()
        }
    }
}
