import Synchronization

/// At most `limit` events per key in each one-second window, kept in memory
/// (a limit on bursts, not an account of use). Old windows are dropped as
/// the table grows, so memory stays bounded by the active keys.
final class RateLimiter: Sendable {
    let limit: Int
    private let windows = Mutex<[String: (second: Int, count: Int)]>([:])

    init(perSecond limit: Int) { self.limit = limit }

    /// Counts one event; false when it is over the limit.
    func allow(_ key: String, at time: Double) -> Bool {
        let second = Int(time.rounded(.down))
        return windows.withLock { table in
            if table.count > 10_000 { table = table.filter { $0.value.second == second } }
            var window = table[key].flatMap { $0.second == second ? $0 : nil } ?? (second: second, count: 0)
            window.count += 1
            table[key] = window
            return window.count <= limit
        }
    }
}
