#if canImport(Glibc)
import Glibc
#endif

/// The site's one wall clock, in seconds since 1970. `ServeOptions.clock` is injected into every store and route
/// that reads the time (tests move it instead of sleeping); this is the system's, its default.
package enum WallClock {
    package static let system: @Sendable () -> Double = {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1_000_000_000
    }

    package static func milliseconds(_ clock: @Sendable () -> Double) -> Int64 {
        Int64((clock() * 1000).rounded(.down))
    }
}
