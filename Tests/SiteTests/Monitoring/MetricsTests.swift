import CSystem
import Files
import HTTP
import HTTPServer
import JSON
import Storage
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

#if canImport(Glibc)
import Glibc
#endif

@Suite("GET /metrics: Prometheus' text format, read by its own parser")
struct MetricsTests {
    /// `/metrics` parsed by `prometheus_client` (PyPI, pinned in scripts/test): each sample as
    /// `name{label=value,…}` → value, with the labels sorted.
    static func scrape(_ server: SiteServer, headers: [String: String] = [:]) throws -> [String: Double] {
        let response = try server.get("/metrics", headers: headers)
        try #require(response.status == 200, "\(response.status) \(response.text.prefix(200))")
        let file = server.scratch.path + "/metrics.txt"
        Files.remove(file)
        #expect(Files.writeDurably(response.body, to: file))
        let script = """
            import json, sys
            from prometheus_client.parser import text_string_to_metric_families
            out = {}
            for family in text_string_to_metric_families(open(sys.argv[1]).read()):
                for s in family.samples:
                    labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()))
                    out[f"{s.name}{{{labels}}}"] = s.value
            print(json.dumps(out))
            """
        // scripts/test names the interpreter that has the parser.
        let python = getenv("ARCADE_TEST_PYTHON").map { String(cString: $0) } ?? "/usr/bin/python3"
        let parser = try ChildProcess(["-c", script, file], executable: python)
        #expect(parser.wait(timeout: 30) == 0, "\(parser.standardError)")
        guard case .object(let pairs) = try JSONParser.parse(Array(parser.standardOutput.utf8)) else {
            throw TestFailure("parser output: \(parser.standardOutput)")
        }
        var samples: [String: Double] = [:]
        for (key, value) in pairs {
            switch value {
            case .integer(let n): samples[key] = Double(n)
            case .double(let d): samples[key] = d
            default: break
            }
        }
        return samples
    }

    @Test func theCountersMoveAndLabelsAreRoutePatterns() throws {
        let server = try SiteServer(routes: nil)
        defer { server.stop() }
        let before = try Self.scrape(server)
        #expect(before["process_start_time_seconds{}"].map { $0 > 1_700_000_000 } == true)
        #expect(
            before.keys.contains {
                $0.hasPrefix("arcade_build_info{commit=") && $0.contains(",database=sqlite,version=")
            })
        let player = Player(server)
        try player.get("/")
        for n in 1...3 {
            try player.startMastermind()
            #expect(try player.get("/admin/people/\(n)").status != 200)
        }
        try player.get("/no/such/page")
        let after = try Self.scrape(server)
        let newGames = "arcade_http_requests_total{method=POST,route=/mastermind/new,status=2xx}"
        #expect(after[newGames, default: 0] - before[newGames, default: 0] == 3, "\(after.keys.sorted())")
        #expect(after.keys.contains { $0.contains("route=/admin/people/:id") }, "the pattern, not the path")
        #expect(!after.keys.contains { $0.contains("/admin/people/1") || $0.contains("no/such") }, "no raw paths")
        #expect(after["arcade_http_requests_total{method=GET,route=fallback,status=4xx}", default: 0] >= 1)
        let count = "arcade_http_request_duration_seconds_count{group=mastermind}"
        #expect(after[count, default: 0] >= 3)
        #expect(after["arcade_http_request_duration_seconds_bucket{group=mastermind,le=+Inf}"] == after[count])
        let commits = "arcade_db_commit_duration_seconds_count{}"
        #expect(after[commits, default: 0] > before[commits, default: 0], "commits are timed")
        #expect(after["arcade_db_transactions_per_commit_sum{}", default: 0] >= 3)
        #expect(after["arcade_http_open_connections{}", default: 0] >= 1, "the scrape's own connection")
        for name in [
            "arcade_event_loop_lag_seconds{}", "arcade_blocking_pool_queue{}", "arcade_db_writer_queue{}",
            "arcade_http_open_event_streams{}",
        ] {
            #expect(after[name] != nil, "\(name)")
        }
    }

    /// Another address than loopback gets the site's 404; with `--metrics-token`, the token is required of
    /// everyone, loopback too.
    @Test func onlyLoopbackOrTheTokenMayRead() throws {
        let open = try SiteServer(routes: nil) { $0.server.host = "127.0.0.1" }
        defer { open.stop() }
        #expect(try open.get("/metrics").status == 200)
        let token = "s3cret-token-of-enough-length"
        let guarded = try SiteServer(routes: nil) { $0.metricsToken = token }
        defer { guarded.stop() }
        #expect(try guarded.get("/metrics").status == 404)
        #expect(
            try guarded.get("/metrics", headers: ["Authorization": "Bearer wrong-token-of-enough-len"]).status == 404)
        let samples = try Self.scrape(guarded, headers: ["Authorization": "Bearer " + token])
        #expect(samples["process_start_time_seconds{}"] != nil)
        // From an address that is not loopback (the machine's own, when it has one), without a token: 404.
        let controller = MetricsController(
            sources: [ServerMetrics(), DatabasePool(location: open.database)], engine: "sqlite", token: nil,
            notFound: { _ in .error(.notFound) })
        let request = Request(method: .get, target: "/metrics")
        #expect(!controller.allowed(request.from("203.0.113.9")))
        #expect(controller.allowed(request.from("127.0.0.7")))
    }
}
