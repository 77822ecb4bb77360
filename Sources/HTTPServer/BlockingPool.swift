import CSystem
import Synchronization
import Threads

#if canImport(Glibc)
import Glibc
#endif

/// A fixed set of threads for work that may block (an outbound HTTP call, a
/// slow query). Jobs wait in a queue; a semaphore eventfd wakes one thread per job.
final class BlockingPool: Sendable {
    private enum Job { case run(@Sendable () -> Void), stop }
    private let jobs = Mutex<[Job]>([])
    private let semaphore: Int32
    private let threads: Mutex<[OSThread]> = Mutex([])
    private let count: Int
    /// Jobs submitted and not yet started (for metrics).
    let queued = Atomic<Int>(0)

    init(threads count: Int) {
        self.count = max(1, count)
        semaphore = csys_semaphore()
        precondition(semaphore >= 0, "eventfd failed")
        var started: [OSThread] = []
        for _ in 0..<self.count {
            started.append(OSThread { [self] in self.work() })
        }
        threads.withLock { $0 = started }
    }

    func submit(_ job: @escaping @Sendable () -> Void) {
        queued.add(1, ordering: .relaxed)
        jobs.withLock { $0.append(.run(job)) }
        post(1)
    }

    /// Lets queued jobs finish, then stops every thread.
    func shutdown() {
        jobs.withLock { q in for _ in 0..<count { q.append(.stop) } }
        post(count)
        threads.withLock { all in
            for thread in all { thread.join() }
            all = []
        }
        close(semaphore)
    }

    private func post(_ n: Int) {
        var value = UInt64(n)
        _ = withUnsafeBytes(of: &value) { write(semaphore, $0.baseAddress, 8) }
    }

    private func work() {
        while true {
            var token: UInt64 = 0
            let got = withUnsafeMutableBytes(of: &token) { read(semaphore, $0.baseAddress, 8) }
            if got < 0 {
                if errno == EINTR { continue }
                return
            }
            let job = jobs.withLock { $0.isEmpty ? Job.stop : $0.removeFirst() }
            guard case .run(let body) = job else { return }
            queued.subtract(1, ordering: .relaxed)
            body()
        }
    }
}
