import Threads

/// At most `slots` password hashes at once and `queue` more waiting; anyone beyond is refused at once, so a
/// sign-in flood costs the site `slots` cores, never all of them.
final class HashGate: @unchecked Sendable {
    let slots: Int
    let queue: Int
    private let condition = Condition()
    /// Guarded by `condition`'s lock.
    private var running = 0
    private var waiting = 0

    init(slots: Int = 1, queue: Int = 4) {
        self.slots = max(1, slots)
        self.queue = max(0, queue)
    }

    /// The body's result, or nil (nothing run) when every slot and queue place is taken.
    func run<T>(_ body: () throws -> T) rethrows -> T? {
        let admitted = condition.withLock { () -> Bool in
            guard running < slots || waiting < queue else { return false }
            waiting += 1
            while running >= slots { condition.wait() }
            waiting -= 1
            running += 1
            return true
        }
        guard admitted else { return nil }
        defer {
            condition.withLock { running -= 1 }
            condition.broadcast()
        }
        return try body()
    }
}
