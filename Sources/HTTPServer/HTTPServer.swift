import CSystem
import HTTP
import Logger
import Synchronization
import Threads

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server: one epoll loop per worker thread, each with its own
/// SO_REUSEPORT listener, plus a small pool for `.pool` handlers.
///
///     let server = try HTTPServer(configuration: config, responder: router)
///     server.start()
///     …
///     server.shutdown()   // stop accepting, finish in-flight requests
///     server.wait()
public final class HTTPServer: Sendable {
    public let configuration: ServerConfiguration
    /// The port actually bound (useful with port 0).
    public let port: Int
    private let context: ServerContext
    /// The certificate in use, when the server speaks TLS.
    public let tls: TLSContext?
    private let loops: [EventLoop]
    private let threads = Mutex<[OSThread]>([])
    /// This server's place among the responder's event channels, left when it stops.
    private let attachment: Int?

    public init(configuration: ServerConfiguration, responder: any Responder) throws {
        signal(SIGPIPE, SIG_IGN)
        HTTPServer.raiseOpenFileLimit()
        var configuration = configuration
        configuration.workers = max(1, configuration.workers)
        tls = try configuration.tls.map { try TLSContext(files: $0) }
        context = ServerContext(
            configuration: configuration, responder: responder,
            pool: BlockingPool(threads: configuration.blockingThreads), tls: tls)
        // Each loop binds its own SO_REUSEPORT listener, but a second server
        // must not silently join the group: probe the port with a plain bind.
        var boundPort: Int32 = 0
        guard csys_probe_port(configuration.host, Int32(configuration.port), &boundPort) == 0 else {
            let error = SystemError("listen on \(configuration.host):\(configuration.port)")
            context.pool.shutdown()
            throw error
        }
        var loops: [EventLoop] = []
        for _ in 0..<configuration.workers {
            let fd = csys_listen_tcp(configuration.host, boundPort, 4096, 1, &boundPort)
            guard fd >= 0 else {
                let error = SystemError("listen on \(configuration.host):\(boundPort)")
                context.pool.shutdown()
                throw error
            }
            loops.append(try EventLoop(context: context, listener: fd))
        }
        self.loops = loops
        configuration.metrics.attach(
            connections: { [context] in context.openConnections.load(ordering: .relaxed) },
            queued: { [context] in context.pool.queued.load(ordering: .relaxed) })
        attachment = responder.channels?.attach { [loops] channel, bytes in
            for loop in loops { loop.post(.publish(channel: channel, bytes: bytes)) }
        }
        self.port = Int(boundPort)
        configuration.port = Int(boundPort)
        self.configuration = configuration
    }

    public func start() {
        threads.withLock { threads in
            guard threads.isEmpty else { return }
            threads = loops.map { loop in OSThread { loop.run() } }
        }
    }

    /// Begins a graceful shutdown; returns at once.
    public func shutdown() {
        for loop in loops { loop.post(.shutdown) }
    }

    /// Blocks until every loop has finished, then stops the blocking pool.
    public func wait() {
        let running = threads.withLock { $0 }
        for thread in running { thread.join() }
        if let attachment { context.responder.channels?.detach(attachment) }
        context.pool.shutdown()
    }

    /// Serves until SIGINT or SIGTERM, then shuts down gracefully. SIGHUP, or certificate files that changed
    /// and then stayed unchanged for a poll, reload the certificate; each reload is logged.
    /// `ready` is called once the server accepts connections (systemd's `Type=notify` hears of it there); `draining`
    /// runs first when a signal stops it (readiness then fails, while in-flight requests finish).
    public func runUntilSignalled(
        ready: () -> Void = {}, draining: () -> Void = {}
    ) -> Int32 {
        _ = csys_block_shutdown_signals()  // before any thread starts, so all inherit the mask
        start()
        ready()
        var signal: Int32 = 0
        var seen = tls?.loadedStamp ?? []
        var tried = seen
        var nextRotation = Clock.now() + TLSContext.ticketKeyPeriod
        while true {
            signal = csys_wait_signal(tls == nil ? -1 : 2000)
            if signal == SIGHUP {
                if let tls {
                    tried = tls.stampOnDisk()  // the poll does not try the same files again
                    seen = tried
                    reloadCertificate()
                } else {
                    Log.notice("SIGHUP: no certificate to reload")
                }
            } else if signal == 0, let tls {
                if Clock.now() >= nextRotation {
                    tls.rotateTicketKeys()
                    nextRotation = Clock.now() + TLSContext.ticketKeyPeriod
                }
                // A renewal writes two files: wait until both have stopped changing.
                let now = tls.stampOnDisk()
                if now != tried && now == seen {
                    tried = now  // a broken pair is tried once, not at every poll
                    reloadCertificate()
                }
                seen = now
            } else if signal != SIGHUP {
                break
            }
        }
        draining()
        shutdown()
        wait()
        return signal
    }

    /// Loads the certificate files again for new connections; a broken pair keeps the old one.
    public func reloadCertificate() {
        guard let tls else { return }
        do {
            Log.notice("reloaded the certificate: \(try tls.reload())")
        } catch {
            Log.error("kept the old certificate (\(tls.summary)): \(error)")
        }
    }

    private static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
