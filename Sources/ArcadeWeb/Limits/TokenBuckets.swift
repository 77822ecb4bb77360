import Synchronization

/// Token buckets keyed by client address (or anything else): `capacity` tries at once, one more every
/// `refill` seconds. A take that finds the bucket empty says how long until the next token; the map is bounded,
/// so a flood of new keys forgets full buckets, never the empty ones that hold an attacker back.
final class TokenBuckets: Sendable {
    let capacity: Double
    let refill: Double
    let limit: Int
    private let clock: @Sendable () -> Double
    private struct Bucket { var tokens: Double, at: Double }
    private let buckets = Mutex<[String: Bucket]>([:])

    init(capacity: Int, refill: Double, limit: Int = 100_000, clock: @escaping @Sendable () -> Double) {
        self.capacity = Double(capacity)
        self.refill = refill
        self.limit = limit
        self.clock = clock
    }

    /// Takes one token: nil when granted, else the whole seconds to wait (at least 1).
    func take(_ key: String) -> Int? {
        let now = clock()
        return buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: capacity, at: now)
            bucket.tokens = min(capacity, bucket.tokens + max(0, now - bucket.at) / refill)
            bucket.at = now
            guard bucket.tokens >= 1 else {
                buckets[key] = bucket
                return max(1, Int(((1 - bucket.tokens) * refill).rounded(.up)))
            }
            bucket.tokens -= 1
            if buckets.count >= limit, buckets[key] == nil { prune(&buckets, now: now) }
            buckets[key] = bucket
            return nil
        }
    }

    /// Gives back a token taken for work that never happened.
    func giveBack(_ key: String) {
        buckets.withLock { buckets in
            if var bucket = buckets[key] {
                bucket.tokens = min(capacity, bucket.tokens + 1)
                buckets[key] = bucket
            }
        }
    }

    private func prune(_ buckets: inout [String: Bucket], now: Double) {
        buckets = buckets.filter { $0.value.tokens + (now - $0.value.at) / refill < capacity }
        // Still full of half-used buckets: dropping them all costs their owners nothing they had not paid.
        if buckets.count >= limit { buckets.removeAll() }
    }
}
