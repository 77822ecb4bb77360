import CSystem
import HTTP
import Logger
import Synchronization
import Threads

#if canImport(Glibc)
import Glibc
#endif

/// What every loop of one server shares. Immutable but for the atomic count.
final class ServerContext: Sendable {
    let configuration: ServerConfiguration
    let responder: any Responder
    let pool: BlockingPool
    let openConnections = Atomic<Int>(0)
    let budget: ConnectionBudget
    /// The configuration's, with the responder's upload gate.
    let parserLimits: ParserLimits
    /// Header lines every response carries: `Server`, and under TLS `Strict-Transport-Security`.
    let serverLine: [UInt8]?
    let refusal: [UInt8]
    let tls: TLSContext?
    /// TLS handshakes in progress, by client address.
    let handshakes = Mutex<[String: Int]>([:])

    init(configuration: ServerConfiguration, responder: any Responder, pool: BlockingPool, tls: TLSContext?) {
        self.configuration = configuration
        self.responder = responder
        self.pool = pool
        budget = ConnectionBudget(configuration)
        var limits = configuration.limits
        limits.uploadGate = limits.uploadGate ?? responder.uploadGate
        parserLimits = limits
        self.tls = tls
        var lines = configuration.serverName.map { "Server: \($0)\r\n" } ?? ""
        if tls != nil && configuration.hstsMaxAge > 0 {
            lines += "Strict-Transport-Security: max-age=\(configuration.hstsMaxAge)\r\n"
        }
        serverLine = lines.isEmpty ? nil : Array(lines.utf8)
        let body = "503 Service Unavailable: too many connections\n"
        refusal = Array(
            ("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nRetry-After: 1\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body).utf8)
    }
}

/// One epoll reactor on one thread. It owns its listener (SO_REUSEPORT lets
/// the kernel spread connections over loops) and every connection it
/// accepted; other threads reach it only through the inbox and the eventfd.
final class EventLoop: @unchecked Sendable {
    enum Message: Sendable {
        case response(fd: Int32, id: UInt64, Response, RequestInfo)
        /// The upload gate's answer, asked off the loop (see `Connection.approved`).
        case approval(fd: Int32, id: UInt64, allowed: Bool)
        /// An event for the streams open on a channel.
        case publish(channel: String, bytes: [UInt8])
        case shutdown
    }

    private static let listenerToken = UInt64.max
    private static let wakeToken = UInt64.max - 1
    static let readBufferSize = 64 * 1024

    let context: ServerContext
    let configuration: ServerConfiguration
    private let epoll: Int32
    private let wake: Int32
    private var listener: Int32
    private let inbox = Mutex<[Message]>([])
    private var connections: [Connection?] = []
    /// Connections with answers to write at the end of this turn.
    private var due: [Connection] = []
    private var flushing: [Connection] = []
    private var openCount = 0
    private var nextID: UInt64 = 0
    private var acceptBlocked = false

    let readBuffer: UnsafeMutableRawBufferPointer
    /// Where TLS output is gathered into one record (16 KB, the largest) before it is encrypted.
    let tlsStaging: UnsafeMutableRawBufferPointer
    private(set) var now: Int64 = Clock.now()
    private(set) var dateLine: [UInt8] = []
    private var dateSecond = -1
    private(set) var draining = false
    private var drainDeadline = Int64.max
    private var nextSweep: Int64 = 0
    private let sweepInterval: Int64
    private var accessLog: [UInt8] = []
    private var stamp: [UInt8] = []
    private var stampSecond = -1
    /// Event streams open on this loop, and when they next get a heartbeat.
    private var streams = 0
    private var nextHeartbeat: Int64 = 0

    init(context: ServerContext, listener: Int32) throws {
        self.context = context
        configuration = context.configuration
        self.listener = listener
        epoll = csys_epoll_create()
        guard epoll >= 0 else { throw SystemError("epoll_create1") }
        wake = csys_eventfd()
        guard wake >= 0 else { throw SystemError("eventfd") }
        readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
        tlsStaging = .allocate(byteCount: context.tls == nil ? 0 : 16 * 1024, alignment: 16)
        let shortest = [
            configuration.headerTimeout, configuration.bodyTimeout, configuration.bodyGracePeriod,
            configuration.idleTimeout, configuration.writeTimeout,
        ].min()!
        sweepInterval = max(Clock.nanoseconds(0.005), min(Clock.nanoseconds(0.25), Clock.nanoseconds(shortest / 8)))
        guard csys_epoll_ctl(epoll, CSYS_EPOLL_CTL_ADD, listener, CSYS_EPOLLIN | CSYS_EPOLLET, Self.listenerToken) == 0,
            csys_epoll_ctl(epoll, CSYS_EPOLL_CTL_ADD, wake, CSYS_EPOLLIN, Self.wakeToken) == 0
        else { throw SystemError("epoll_ctl") }
    }

    deinit {
        if listener >= 0 { close(listener) }
        readBuffer.deallocate()
        tlsStaging.deallocate()
        close(epoll)
        close(wake)
    }

    /// Called from any thread.
    func post(_ message: Message) {
        // One signal per batch: the loop drains the eventfd before it takes the inbox, so a message added to a
        // non-empty inbox is taken with the ones that already signalled. In a `WakeBatch` the signal waits for its end.
        let first = inbox.withLock { box in
            box.append(message)
            return box.count == 1
        }
        if first { _ = csys_eventfd_signal_batched(wake) }
    }

    func run() {
        ThreadRole.markEventLoop()
        var events = [UInt32](repeating: 0, count: 256)
        var tokens = [UInt64](repeating: 0, count: 256)
        refreshClock()
        while true {
            let wait = Int32(max(0, min(1000, (nextSweep - now) / 1_000_000 + 1)))
            let count = csys_epoll_wait(epoll, &events, &tokens, 256, wait)
            refreshClock()
            if count < 0 && errno != EINTR { fatalError("epoll_wait: \(SystemError("epoll_wait"))") }
            // The threads this turn handed work to (the database writer, the pool) are woken once its answers are
            // sent: woken at once, they took this CPU from the turn and got a write at a time.
            WakeBatch.run {
                for i in 0..<max(0, Int(count)) {
                    switch tokens[i] {
                    case Self.listenerToken: acceptConnections()
                    case Self.wakeToken: handleInbox()
                    default:
                        if let connection = connections[Int(tokens[i])] { connection.handle(events: events[i]) }
                    }
                }
                if now >= nextSweep { sweep() }
                flushDueConnections()
            }
            flushAccessLog()
            configuration.metrics.turn(Clock.now() - now)
            if draining && (openCount == 0 || now >= drainDeadline) { break }
        }
        for case let connection? in connections { connection.close() }
        flushAccessLog()
    }

    // MARK: connections

    private func acceptConnections() {
        guard !draining else { return }
        let limit = configuration.maxConnections
        while true {
            let fd = csys_accept(listener)
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM: acceptBlocked = true  // retried by the sweep
                default: break
                }
                return
            }
            let open = context.openConnections.wrappingAdd(1, ordering: .relaxed).newValue
            let address = Connection.peerAddress(fd)
            let key = ClientAddress.limitKey(address)
            guard open <= limit + configuration.healthReserve, context.budget.open(key, peer: address) else {
                // Graceful refusal: a short 503, then close (a TLS client could not read it: only closed).
                if context.tls == nil {
                    _ = context.refusal.withUnsafeBytes { csys_send(fd, $0.baseAddress, $0.count) }
                }
                close(fd)
                context.openConnections.wrappingSubtract(1, ordering: .relaxed)
                continue
            }
            _ = csys_set_nodelay(fd)
            guard
                csys_epoll_ctl(
                    epoll, CSYS_EPOLL_CTL_ADD, fd,
                    CSYS_EPOLLIN | CSYS_EPOLLOUT | CSYS_EPOLLRDHUP | CSYS_EPOLLET, UInt64(fd)) == 0
            else {
                close(fd)
                context.openConnections.wrappingSubtract(1, ordering: .relaxed)
                context.budget.close(key, peer: address, stream: false)
                continue
            }
            nextID += 1
            if Int(fd) >= connections.count {
                connections.append(contentsOf: repeatElement(nil, count: Int(fd) + 1 - connections.count + 64))
            }
            let connection = Connection(
                fd: fd, id: nextID, loop: self, address: address, limitKey: key, healthOnly: open > limit)
            connections[Int(fd)] = connection
            openCount += 1
            if context.tls != nil { connection.startHandshake() }
        }
    }

    func flushAtEndOfTurn(_ connection: Connection) { due.append(connection) }

    /// A flush that drains its queue may parse kept requests, which queue more output: write until none is due.
    private func flushDueConnections() {
        while !due.isEmpty {
            swap(&due, &flushing)
            for connection in flushing { connection.flushIfDue() }
            flushing.removeAll(keepingCapacity: true)
        }
    }

    func forget(_ connection: Connection) {
        connections[Int(connection.fd)] = nil
        openCount -= 1
        context.openConnections.wrappingSubtract(1, ordering: .relaxed)
    }

    private func handleInbox() {
        _ = csys_eventfd_drain(wake)
        let messages = inbox.withLock { box in
            let taken = box
            box.removeAll()
            return taken
        }
        for message in messages {
            switch message {
            case .response(let fd, let id, let response, let info):
                // The connection may have closed (and its fd been reused) meanwhile.
                if Int(fd) < connections.count, let connection = connections[Int(fd)], connection.id == id {
                    connection.deliver(response, info)
                }
            case .approval(let fd, let id, let allowed):
                if Int(fd) < connections.count, let connection = connections[Int(fd)], connection.id == id {
                    connection.approved(allowed)
                }
            case .publish(let channel, let bytes):
                guard streams > 0 else { continue }
                for case let connection? in connections where connection.streamChannel == channel {
                    connection.push(bytes)
                }
            case .shutdown:
                beginDraining()
            }
        }
    }

    /// Stop accepting, close idle connections, let the busy ones finish.
    private func beginDraining() {
        guard !draining else { return }
        draining = true
        drainDeadline = now + Clock.nanoseconds(configuration.shutdownGrace)
        close(listener)
        listener = -1
        for case let connection? in connections where connection.isIdle { connection.close() }
    }

    private func sweep() {
        nextSweep = now + sweepInterval
        if acceptBlocked {
            acceptBlocked = false
            acceptConnections()
        }
        for case let connection? in connections { connection.checkDeadlines() }
        if streams > 0 && now >= nextHeartbeat {
            nextHeartbeat = now + Clock.nanoseconds(configuration.heartbeatInterval)
            for case let connection? in connections where connection.streamChannel != nil {
                connection.push(EventChannels.heartbeat)
            }
        }
    }

    func streamOpened() {
        if streams == 0 { nextHeartbeat = now + Clock.nanoseconds(configuration.heartbeatInterval) }
        streams += 1
        configuration.metrics.streams.add(1, ordering: .relaxed)
    }

    func streamClosed() {
        streams -= 1
        configuration.metrics.streams.subtract(1, ordering: .relaxed)
    }

    private func refreshClock() {
        now = Clock.now()
        let second = Int(csys_realtime_ns() / 1_000_000_000)
        if second != dateSecond {
            dateSecond = second
            dateLine = ResponseHead.dateLine(secondsSinceEpoch: second)
        }
    }

    // MARK: access log

    func logAccess(_ info: RequestInfo, status: Int, bytes: Int) {
        let elapsed = Clock.now() - info.start
        configuration.metrics.record(info, status: status, nanoseconds: elapsed)
        guard configuration.accessLog else { return }
        let micros = elapsed / 1000
        let time = timestamp()
        if configuration.accessLogJSON {
            AccessLog.append(info, status: status, bytes: bytes, micros: micros, time: time, into: &accessLog)
            if accessLog.count > 16 * 1024 { flushAccessLog() }
            return
        }
        accessLog.append(contentsOf: time)
        accessLog.append(0x20)
        accessLog.append(contentsOf: (info.client.isEmpty ? "-" : info.client).utf8.prefix(64))
        accessLog.append(0x20)
        accessLog.append(contentsOf: (info.method?.description ?? "-").utf8)
        accessLog.append(0x20)
        // A query's values may be secrets (a token in a link): its names only, as in the JSON log.
        if info.target.utf8.contains(0x3F) {
            accessLog.append(contentsOf: AccessLog.path(info.target).utf8)
        } else {
            accessLog.append(contentsOf: info.target.utf8.prefix(2048))
        }
        accessLog.append(0x20)
        ResponseHead.appendDecimal(status, into: &accessLog)
        accessLog.append(0x20)
        ResponseHead.appendDecimal(bytes, into: &accessLog)
        accessLog.append(0x20)
        ResponseHead.appendDecimal(Int(micros), into: &accessLog)
        accessLog.append(contentsOf: "us\n".utf8)
        if accessLog.count > 16 * 1024 { flushAccessLog() }
    }

    /// Now, as the log writes it (`2026-11-23T22:14:05.123Z`): the date and time made once a second.
    private func timestamp() -> [UInt8] {
        let nanoseconds = csys_realtime_ns()
        let second = Int(nanoseconds / 1_000_000_000)
        if second != stampSecond {
            stampSecond = second
            stamp.removeAll(keepingCapacity: true)
            Log.appendTimestamp(nanoseconds, into: &stamp)
        }
        let millis = Int(nanoseconds % 1_000_000_000) / 1_000_000
        stamp[stamp.count - 4] = 0x30 + UInt8(millis / 100)
        stamp[stamp.count - 3] = 0x30 + UInt8(millis / 10 % 10)
        stamp[stamp.count - 2] = 0x30 + UInt8(millis % 10)
        return stamp
    }

    /// In pieces of at most `PIPE_BUF` bytes that end at a line's end: each lands whole in a pipe that other
    /// threads' log lines also go to (a longer write may be split around theirs).
    private func flushAccessLog() {
        guard !accessLog.isEmpty else { return }
        accessLog.withUnsafeBytes { bytes in
            var start = 0
            while start < bytes.count {
                var end = min(bytes.count, start + 4096)
                if end < bytes.count {
                    var cut = end
                    while cut > start && bytes[cut - 1] != 0x0A { cut -= 1 }
                    end = cut > start ? cut : end
                }
                var offset = start
                while offset < end {
                    let n = write(1, bytes.baseAddress! + offset, end - offset)
                    if n <= 0 {
                        if n < 0 && errno == EINTR { continue }
                        return
                    }
                    offset += n
                }
                start = end
            }
        }
        accessLog.removeAll(keepingCapacity: true)
    }
}

/// What the access log and the response framing need to know of a request.
struct RequestInfo: Sendable {
    var method: Method?
    var target: String
    var version: HTTPVersion
    var keepAlive: Bool
    var start: Int64
    /// The pattern of the route that took it (for metrics); nil for the fallback.
    var route: String? = nil
    /// The client's address, as the access log names it.
    var client: String
    /// The request's id, for the JSON access log ("" when that is off).
    var requestID = ""
}
