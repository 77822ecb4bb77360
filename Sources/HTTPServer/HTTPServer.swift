import CSystem
import HTTP
import Synchronization
import Threads

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server: one epoll loop per worker thread, each with its own
/// SO_REUSEPORT listener, plus a small pool for handlers marked `offLoop`.
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
    private let loops: [EventLoop]
    private let threads = Mutex<[OSThread]>([])
    /// This server's place among the responder's event channels, left when it stops.
    private let attachment: Int?

    public init(configuration: ServerConfiguration, responder: any Responder) throws {
        signal(SIGPIPE, SIG_IGN)
        HTTPServer.raiseOpenFileLimit()
        var configuration = configuration
        configuration.workers = max(1, configuration.workers)
        context = ServerContext(
            configuration: configuration, responder: responder,
            pool: BlockingPool(threads: configuration.blockingThreads))
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

    /// Serves until SIGINT or SIGTERM, then shuts down gracefully.
    public func runUntilSignalled() -> Int32 {
        _ = csys_block_shutdown_signals()  // before any thread starts, so all inherit the mask
        start()
        let signal = csys_wait_shutdown_signal()
        shutdown()
        wait()
        return signal
    }

    private static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
