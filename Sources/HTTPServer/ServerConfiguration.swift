import CSystem
import HTTP

/// Everything the server can be told; the defaults are nginx's where nginx has one.
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    /// 0 picks a free port; `HTTPServer.port` says which.
    public var port = 8080
    /// Event-loop threads; by default one per CPU this process may use.
    public var workers = ServerConfiguration.availableCPUs
    /// Threads that run `.pool` handlers. Every state-changing request is one and waits there for
    /// its group commit, so this many can share a flush.
    public var blockingThreads = 32
    public var limits = ParserLimits()
    /// Most connections open at once; more are answered 503 and closed.
    public var maxConnections = 10_000
    /// Most page connections one client (an IPv4 address, an IPv6 /64) may hold (loopback included; trusted proxies
    /// have no cap). Event streams are not counted here: they have `maxStreamsPerAddress`.
    public var maxConnectionsPerAddress = 64
    /// Most event streams one client may hold: one per open tab, so an office behind one address needs hundreds.
    public var maxStreamsPerAddress = 512
    /// Connections beyond `maxConnections` accepted for `/healthz` only, so a full site still says it is alive
    /// (0: beyond the cap, a connection is refused at once, before it sends anything).
    public var healthReserve = 0
    /// The share of `maxConnections` event streams may take; more are answered 503.
    public var maxStreamShare = 0.5
    /// Seconds an event stream stays open; the client then reconnects (after its `retry:`).
    public var streamLifetime: Double = 600
    /// Requests served on one connection before it is closed.
    public var maxRequestsPerConnection = 1000
    /// Seconds to receive a whole request head (defeats slowloris).
    public var headerTimeout: Double = 10
    /// Seconds allowed between two reads of a body.
    public var bodyTimeout: Double = 30
    /// Seconds a body may take before `minBodyRate` applies (Apache's mod_reqtimeout).
    public var bodyGracePeriod: Double = 10
    /// After the grace period, bytes a second a body must keep arriving at
    /// on average, or it gets 408: a body trickled a byte at a time cannot
    /// hold a connection. 0 turns the check off.
    public var minBodyRate = 500
    /// Seconds a keep-alive connection may sit idle.
    public var idleTimeout: Double = 75
    /// Seconds a response may make no progress toward a client that does not read.
    public var writeTimeout: Double = 30
    /// Seconds between the comment lines sent on idle event streams.
    public var heartbeatInterval: Double = 15
    /// Seconds granted to in-flight requests on shutdown.
    public var shutdownGrace: Double = 4
    /// Peers whose `trustedProxies.header` names the client (`request.remoteAddress`, the access log).
    public var trustedProxies = TrustedProxies()
    /// One line per request on standard output.
    public var accessLog = true
    /// The access log as JSON lines, with request ids (`X-Request-Id`, sent back). Every request has an id either
    /// way, on `Request.requestID` for the site's own log lines about it.
    public var accessLogJSON = false
    /// The `Server` header's value; nil sends none.
    public var serverName: String? = "arcade"
    /// Counts for `/metrics`, shared by every copy of this configuration.
    public var metrics = ServerMetrics()
    /// Serve HTTPS with this certificate and key (PEM; the certificate file may hold the chain).
    public var tls: TLSFiles?
    /// Under TLS, the `Strict-Transport-Security` max-age in seconds; 0 sends none.
    public var hstsMaxAge = 31_536_000
    /// TLS handshakes one address may have in progress at once; more connections from it are closed at accept.
    public var maxHandshakesPerAddress = 256

    public init() {}

    public static var availableCPUs: Int { Int(csys_available_cpus()) }
}
