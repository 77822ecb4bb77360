import CSystem
import HTTP
import Metrics
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What the server counts for `/metrics`: requests by route pattern (never the raw path), method and status class,
/// durations by route group, refusals before routing, open connections and event streams, the longest event-loop
/// turn since the last scrape, and the blocking pool's queue. One instance travels in `ServerConfiguration`, so the
/// site that renders it and the server that fills it share it.
public final class ServerMetrics: Sendable {
    public let startTime = Double(time(nil))
    let requests = Counters(labels: ["route", "method", "status"])
    let durations = Histograms(labels: ["group"], bounds: Histograms.latency)
    let refusals = Counters(labels: ["status"])
    let streams = Atomic<Int>(0)
    /// The last 24 hours, minute by minute, for the admin's insights.
    public let traffic = RecentTraffic()
    private let longestTurn = Atomic<Int>(0)
    private let sources = Mutex<(connections: @Sendable () -> Int, queued: @Sendable () -> Int)>(({ 0 }, { 0 }))

    public init() {}

    func attach(connections: @escaping @Sendable () -> Int, queued: @escaping @Sendable () -> Int) {
        sources.withLock { $0 = (connections, queued) }
    }

    func record(_ info: RequestInfo, status: Int, nanoseconds: Int64) {
        let statusClass =
            Self.statusClasses.indices.contains(status / 100)
            ? Self.statusClasses[status / 100] : "\(status / 100)xx"
        guard let method = info.method else { return refusals.add([statusClass]) }
        // The fallback (static files, unknown paths) is one series, whatever the path.
        let route = info.route ?? "fallback"
        requests.add([route, method.description, statusClass])
        durations.observe(Double(nanoseconds) / 1e9, [Self.group(info.route)])
        traffic.observe(Double(nanoseconds) / 1e9, minute: Int(csys_realtime_ns() / 60_000_000_000))
    }

    /// `/admin/people/:id` → `admin`; `/` → `home`; the fallback → `static`.
    static func group(_ route: String?) -> String {
        guard let route else { return "static" }
        let first = route.drop { $0 == "/" }.prefix { $0 != "/" }
        if first.isEmpty { return "home" }
        return first.hasPrefix(":") || first.hasPrefix("*") ? "other" : String(first)
    }

    private static let statusClasses = ["0xx", "1xx", "2xx", "3xx", "4xx", "5xx"]

    /// A loop turn's length: the worst since the last scrape is the lag a request could have met.
    func turn(_ nanoseconds: Int64) {
        var seen = longestTurn.load(ordering: .relaxed)
        while Int(nanoseconds) > seen {
            let (exchanged, original) = longestTurn.compareExchange(
                expected: seen, desired: Int(nanoseconds), ordering: .relaxed)
            if exchanged { break }
            seen = original
        }
    }

    public func render(into out: inout Exposition) {
        out.counter(
            "arcade_http_requests_total", "Requests answered, by route pattern, method and status class.", requests)
        out.histogram("arcade_http_request_duration_seconds", "Time to answer a request, by route group.", durations)
        out.counter("arcade_http_refusals_total", "Requests refused before routing, by status class.", refusals)
        let (connections, queued) = sources.withLock { $0 }
        out.gauge("arcade_http_open_connections", "Connections open now.", Double(connections()))
        out.gauge("arcade_http_open_event_streams", "Event streams open now.", Double(streams.load(ordering: .relaxed)))
        out.gauge(
            "arcade_event_loop_lag_seconds", "The longest event-loop turn since the last scrape.",
            Double(longestTurn.exchange(0, ordering: .relaxed)) / 1e9)
        out.gauge("arcade_blocking_pool_queue", "Jobs waiting for a blocking-pool thread.", Double(queued()))
        out.gauge("process_start_time_seconds", "When the process started, in seconds since 1970.", startTime)
    }
}
