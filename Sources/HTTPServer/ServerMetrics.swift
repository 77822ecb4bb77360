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
public final class ServerMetrics: MetricsSource {
    public let startTime = Double(time(nil))
    /// Requests by route and method and status class, and durations by route group: one lock and one lookup of the
    /// pattern a request, the rest array indices (a dictionary keyed by the label strings hashed all three).
    private let byRoute = Mutex(RouteSeries())
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
        let statusClass = min(max(status / 100, 0), Self.statusClasses.count - 1)
        guard let method = info.method else { return refusals.add([Self.statusClasses[statusClass]]) }
        let seconds = Double(nanoseconds) / 1e9
        byRoute.withLock { $0.add(route: info.route, method: method, statusClass: statusClass, seconds: seconds) }
        traffic.observe(seconds, minute: Int(csys_realtime_ns() / 60_000_000_000))
    }

    /// `/admin/people/:id` → `admin`; `/` → `home`; the fallback → `static`.
    static func group(_ route: String?) -> String {
        guard let route else { return "static" }
        let first = route.drop { $0 == "/" }.prefix { $0 != "/" }
        if first.isEmpty { return "home" }
        return first.hasPrefix(":") || first.hasPrefix("*") ? "other" : String(first)
    }

    static let statusClasses = ["0xx", "1xx", "2xx", "3xx", "4xx", "5xx", "6xx", "7xx", "8xx", "9xx"]

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
        let (requests, durations) = byRoute.withLock { ($0.requests, $0.durations) }
        out.counter(
            "arcade_http_requests_total", "Requests answered, by route pattern, method and status class.",
            labels: ["route", "method", "status"], requests)
        out.histogram(
            "arcade_http_request_duration_seconds", "Time to answer a request, by route group.", labels: ["group"],
            bounds: Histograms.latency, durations)
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

/// `ServerMetrics`' per-route series, in arrays: a route's slot holds its counts by method and status class.
struct RouteSeries {
    private var slots: [String: Int] = [:]
    private var routes: [(pattern: String, group: Int)] = []
    private var counts: [Double] = []
    private var groups: [String: Int] = [:]
    private var groupNames: [String] = []
    private var series: [Histograms.Series] = []
    private static let perRoute = Method.allCases.count * ServerMetrics.statusClasses.count

    mutating func add(route: String?, method: Method, statusClass: Int, seconds: Double) {
        // The fallback (static files, unknown paths) is one series, whatever the path.
        let pattern = route ?? "fallback"
        let slot = slots[pattern] ?? newSlot(pattern, group: ServerMetrics.group(route))
        counts[slot * Self.perRoute + Int(method.rawValue) * ServerMetrics.statusClasses.count + statusClass] += 1
        series[routes[slot].group].observe(seconds, bounds: Histograms.latency)
    }

    private mutating func newSlot(_ pattern: String, group: String) -> Int {
        let groupIndex = groups[group] ?? groupNames.count
        if groupIndex == groupNames.count {
            groups[group] = groupIndex
            groupNames.append(group)
            series.append(Histograms.Series(buckets: Array(repeating: 0, count: Histograms.latency.count)))
        }
        slots[pattern] = routes.count
        routes.append((pattern, groupIndex))
        counts += Array(repeating: 0, count: Self.perRoute)
        return routes.count - 1
    }

    /// The counts that are not zero, labelled (route, method, status class).
    var requests: [([String], Double)] {
        counts.indices.compactMap { index in
            guard counts[index] > 0 else { return nil }
            let (slot, within) = index.quotientAndRemainder(dividingBy: Self.perRoute)
            let (method, status) = within.quotientAndRemainder(dividingBy: ServerMetrics.statusClasses.count)
            return (
                [routes[slot].pattern, Method.allCases[method].description, ServerMetrics.statusClasses[status]],
                counts[index]
            )
        }
    }

    var durations: [([String], Histograms.Series)] { zip(groupNames, series).map { ([$0], $1) } }
}
