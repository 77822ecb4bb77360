import CSystem

#if canImport(Glibc)
import Glibc
#endif

/// Monotonic time for deadlines; wall time only for the `Date` header.
enum Clock {
    static func now() -> Int64 { csys_monotonic_ns() }
    static func nanoseconds(_ seconds: Double) -> Int64 { Int64(seconds * 1_000_000_000) }
}

/// IMF-fixdate (RFC 9110 §5.6.7), e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
public enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    public static func format(secondsSinceEpoch: Int) -> String {
        var t = time_t(secondsSinceEpoch)
        var parts = tm()
        gmtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    public static func now() -> String { format(secondsSinceEpoch: Int(csys_realtime_ns() / 1_000_000_000)) }
}
