import Threads

/// At most `slots` password hashes at once and `queue` more waiting; anyone beyond is refused at once, so a
/// sign-in flood costs the site `slots` cores, never all of them. `reserved` more places wait for callers with
/// priority (a browser an admin signed in from before), which a flood cannot take.
package final class HashGate: @unchecked Sendable {
    package let slots: Int
    package let queue: Int
    package let reserved: Int
    private let condition = Condition()
    /// Guarded by `condition`'s lock.
    private var running = 0
    private var waiting = 0

    package init(slots: Int = 1, queue: Int = 4, reserved: Int = 2) {
        self.slots = max(1, slots)
        self.queue = max(0, queue)
        self.reserved = max(0, reserved)
    }

    /// The body's result, or nil (nothing run) when every slot and queue place is taken.
    package func run<T>(priority: Bool = false, _ body: () throws -> T) rethrows -> T? {
        let admitted = condition.withLock { () -> Bool in
            guard running < slots || waiting < queue + (priority ? reserved : 0) else { return false }
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
