import ArcadeStore
import Crypto
import HTTP
import Metrics

/// What the site counts beyond the server: refusals by reason and cache reloads by kind. Process-wide, as
/// Prometheus' default registry is: one site runs per process.
enum SiteMetrics {
    static let refusals = Counters(labels: ["reason"])
    static let cacheReloads = Counters(labels: ["kind"])
}

/// `GET /metrics` in Prometheus' text format: the server's counts, the writer's queue, commit times and batch
/// sizes, the site's refusals and reloads, and build information. Loopback clients may read it; with
/// `--metrics-token` everyone must send `Authorization: Bearer TOKEN` instead. Anyone else gets the site's 404,
/// as if there were nothing here.
struct MetricsController: Sendable {
    /// The server's and the database's figures, in this order.
    let sources: [any MetricsSource]
    /// The database engine, a label of the build's line.
    let engine: String
    let token: String?
    let notFound: @Sendable (Request) -> Response

    func addRoutes(to router: Router) {
        router.get("/metrics") { request in
            guard allowed(request) else { return notFound(request) }
            return answer()
        }
    }

    func allowed(_ request: Request) -> Bool {
        if let token {
            guard let header = request.headers["Authorization"], header.hasPrefix("Bearer ") else { return false }
            return Crypto.constantTimeEqual(Array(header.dropFirst(7).utf8), Array(token.utf8))
        }
        let address = request.remoteAddress
        return address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }

    func answer() -> Response {
        var out = Exposition()
        for source in sources { source.render(into: &out) }
        out.counter(
            "arcade_cache_reloads_total", "Caches reloaded because another instance changed their data, by kind.",
            SiteMetrics.cacheReloads)
        out.counter(
            "arcade_refusals_total", "Sign-ins and actions refused, by reason.", SiteMetrics.refusals)
        out.gauge(
            "arcade_build_info", "The running build: always 1, its version, git commit and database engine as labels.",
            [
                (
                    [
                        ("version", Build.version),
                        ("commit", Build.commit),
                        ("database", engine),
                    ], 1
                )
            ])
        var response = Response(contentType: Exposition.contentType, body: Array(out.text.utf8))
        response.headers.set("Cache-Control", "no-store")
        return response
    }
}
