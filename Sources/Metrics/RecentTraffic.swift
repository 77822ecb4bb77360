import Synchronization

/// Requests and their latencies, minute by minute, for the last 24 hours: a ring of 1,440 slots, each a count and a
/// latency histogram, so the hourly rate and p95 are read without keeping any request.
public final class RecentTraffic: Sendable {
    struct Slot {
        var minute = -1
        var count = 0
        var buckets: [Int]
    }

    public static let bounds = Histograms.latency
    private let slots: Mutex<[Slot]>

    public init() {
        slots = Mutex(Array(repeating: Slot(buckets: Array(repeating: 0, count: Self.bounds.count + 1)), count: 1440))
    }

    public func observe(_ seconds: Double, minute: Int) {
        let bucket = Self.bounds.firstIndex { seconds <= $0 } ?? Self.bounds.count
        slots.withLock { all in
            let i = minute % all.count
            if all[i].minute != minute {
                all[i] = Slot(minute: minute, buckets: Array(repeating: 0, count: Self.bounds.count + 1))
            }
            all[i].count += 1
            all[i].buckets[bucket] += 1
        }
    }

    public struct Hour: Sendable, Equatable {
        public let start: Int
        public let requestsPerMinute: Double
        /// The bucket bound under which 95 % of the hour's requests finished, in seconds (nil: no requests).
        public let p95: Double?
    }

    /// The 24 hours that end with the one holding `minute`, oldest first.
    public func hours(endingAt minute: Int) -> [Hour] {
        let all = slots.withLock { $0 }
        let lastHour = minute / 60
        return (0..<24).map { back in
            let hour = lastHour - 23 + back
            let inHour = all.filter { $0.minute >= 0 && $0.minute / 60 == hour }
            let count = inHour.reduce(0) { $0 + $1.count }
            var buckets = Array(repeating: 0, count: Self.bounds.count + 1)
            for slot in inHour { for i in buckets.indices { buckets[i] += slot.buckets[i] } }
            var p95: Double?
            if count > 0 {
                var seen = 0
                for (i, n) in buckets.enumerated() {
                    seen += n
                    if Double(seen) >= 0.95 * Double(count) {
                        p95 = i < Self.bounds.count ? Self.bounds[i] : Self.bounds.last! * 2
                        break
                    }
                }
            }
            let minutes = hour == lastHour ? Double(minute % 60 + 1) : 60
            return Hour(start: hour * 3600, requestsPerMinute: Double(count) / minutes, p95: p95)
        }
    }
}
