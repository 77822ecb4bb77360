import COpenSSL
import CSystem
import HTTP
import Threads

#if canImport(Glibc)
import Glibc
#endif

/// One client connection, confined to its loop's thread. It reads while it
/// may, parses, answers in order, and applies back-pressure: while a handler
/// runs off the loop or the client is slow to read, it stops parsing and
/// keeps the unparsed bytes.
final class Connection {
    let fd: Int32
    let id: UInt64
    /// The loop owns its connections and outlives them; `unowned(unsafe)` because each checked access was an atomic
    /// retain and release (a dozen a request).
    private unowned(unsafe) let loop: EventLoop
    private var parser: RequestParser
    /// The peer's address, read once at accept.
    let remoteAddress: String
    /// What per-address limits count it under (`ClientAddress.limitKey`).
    let limitKey: String
    /// Its place in the connection budget is still counted: given back just before its last answer goes out (see
    /// `write`), before the client can see the end and reconnect, so a client at exactly the cap that reconnects is
    /// not refused while its old connection drains.
    private var holdsPlace = true
    /// Accepted beyond `maxConnections`, from the health reserve: it may ask for `/healthz`, once.
    private let healthOnly: Bool
    private var streamStarted: Int64 = 0
    /// The body-rate window: when it began, and the body bytes received by then.
    private var rateWindow: (start: Int64, bytes: Int) = (0, 0)
    /// The TLS session (an `SSL *`), when the server speaks TLS.
    private var tls: OpaquePointer?
    private var handshaking = false
    /// The kernel encrypts what is written (kTLS): output goes to the socket as on a plain connection.
    private var kernelSends = false
    private var readWantsWrite = false
    private var output = OutputQueue()
    private var unparsed: [UInt8] = []
    private var served = 0

    private var waitingForHandler = false
    private var closeWhenFlushed = false
    private var peerClosedInput = false
    private var moreInputMayWait = false
    private var lingering = false
    private var closed = false
    private var flushDue = false
    /// Set once the connection answers with an event stream: from then on it only receives what is published here.
    private(set) var streamChannel: String?

    private let accepted: Int64
    private var headStarted: Int64 = 0
    private var bodyStarted: Int64 = 0
    private var lastRead: Int64
    private var lastWrite: Int64
    private var lastActivity: Int64
    private var lingerDeadline: Int64 = 0

    /// Pending output above which no further request is parsed.
    private static let highWater = 256 * 1024
    private static let continueLine = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    init(fd: Int32, id: UInt64, loop: EventLoop, address: String, limitKey: String, healthOnly: Bool = false) {
        self.fd = fd
        self.id = id
        self.loop = loop
        self.healthOnly = healthOnly
        parser = RequestParser(limits: loop.context.parserLimits)
        remoteAddress = address
        self.limitKey = limitKey
        accepted = loop.now
        lastRead = accepted
        lastWrite = accepted
        lastActivity = accepted
    }

    static func peerAddress(_ fd: Int32) -> String {
        var text = [CChar](repeating: 0, count: 64)
        guard csys_peer_address(fd, &text, Int32(text.count)) == 0 else { return "" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Nothing in progress: safe to close on shutdown.
    var isIdle: Bool { parser.isIdle && output.isEmpty && !waitingForHandler && unparsed.isEmpty && !lingering }

    private var paused: Bool { waitingForHandler || closeWhenFlushed || output.pendingBytes > Self.highWater }

    func handle(events: UInt32) {
        if events & CSYS_EPOLLERR != 0 {
            close()
            return
        }
        if handshaking {
            continueHandshake()
            // The request may have come with the handshake's last flight, already read into OpenSSL's buffer.
            if !handshaking && !closed { readInput() }
            return
        }
        // Under TLS a write may wait for a read and a read for a write (a key update), so either event retries both.
        if events & CSYS_EPOLLOUT != 0 || tls != nil, !output.isEmpty { flush() }
        if !closed, events & (CSYS_EPOLLIN | CSYS_EPOLLRDHUP | CSYS_EPOLLHUP) != 0 || readWantsWrite { readInput() }
    }

    // MARK: TLS

    /// Counts the handshake against the client's address; too many in progress from one address close it.
    func startHandshake() {
        let context = loop.context
        let allowed = context.handshakes.withLock { counts in
            let n = counts[limitKey, default: 0]
            guard n < context.configuration.maxHandshakesPerAddress else { return false }
            counts[limitKey] = n + 1
            return true
        }
        guard allowed, let ssl = context.tls?.session(fd: fd) else {
            if allowed { endHandshake() }
            close()
            return
        }
        tls = ssl
        handshaking = true
    }

    private func continueHandshake() {
        let result = SSL_do_handshake(tls)
        if result == 1 {
            endHandshake()
            kernelSends = arcade_ssl_ktls_send(tls) != 0
            return
        }
        let error = SSL_get_error(tls, result)
        if error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE {
            ERR_clear_error()
            close()  // a failed handshake (an old protocol, no shared suite, not TLS at all) gets no answer
        }
    }

    private func endHandshake() {
        handshaking = false
        let address = limitKey
        loop.context.handshakes.withLock { counts in
            let n = counts[address, default: 1] - 1
            counts[address] = n > 0 ? n : nil
        }
    }

    /// Reads into `buffer`: the byte count, 0 at the end of input, -1 when nothing waits, -2 on an error.
    private func receive(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let tls else {
            while true {
                let n = recv(fd, buffer.baseAddress, buffer.count, 0)
                if n >= 0 { return n }
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK ? -1 : -2
            }
        }
        readWantsWrite = false
        let n = SSL_read(tls, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max))))
        if n > 0 { return Int(n) }
        switch SSL_get_error(tls, n) {
        case SSL_ERROR_WANT_READ: return -1
        case SSL_ERROR_WANT_WRITE:
            readWantsWrite = true
            return -1
        case SSL_ERROR_ZERO_RETURN: return 0
        default:
            ERR_clear_error()
            return -2
        }
    }

    // MARK: reading

    private func readInput() {
        let buffer = loop.readBuffer
        while !closed {
            if lingering || streamChannel != nil {
                discardInput()
                return
            }
            if paused {
                moreInputMayWait = true
                return
            }
            let n = receive(buffer)
            if n > 0 {
                lastRead = loop.now
                consume(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                // A short read drained the socket; edge triggering reports more. (TLS reads a record at a time.)
                if n < buffer.count && tls == nil { return }
            } else if n == 0 {
                peerClosed()
                return
            } else {
                if n == -2 { close() }
                return
            }
        }
    }

    private func consume(_ input: UnsafeRawBufferPointer) {
        var rest = input
        while !rest.isEmpty && !closed {
            if paused {
                unparsed.append(contentsOf: rest)
                break
            }
            let wasIdle = parser.isIdle
            let wasReadingBody = parser.isReadingBody
            let (used, event) = parser.parse(rest)
            rest = UnsafeRawBufferPointer(rebasing: rest[used...])
            if wasIdle && !parser.isIdle { headStarted = loop.now }
            if !wasReadingBody && parser.isReadingBody { bodyStarted = loop.now }
            guard react(to: event, bodyStarted: !rest.isEmpty) else { return }
        }
        flushAtEndOfTurn()
    }

    /// What a parser event asks of the connection; false when it refused the request (and stops).
    private func react(to event: consuming RequestParser.Event, bodyStarted: Bool) -> Bool {
        switch consume event {
        case .needMore:
            break
        case .expectsContinue:
            // Only ask for the body if the client has not started sending it.
            if !bodyStarted { output.append { $0.append(contentsOf: Self.continueLine) } }
        case .request(let request):
            dispatch(request)
        case .failure(let error):
            refuse(error.status, error.reason, target: "-")
            flush()
            return false
        case .approval(let headers):
            return askUploadGate(headers, bodyStarted: bodyStarted)
        case .response:
            return false  // a server's parser reads requests; this cannot happen
        }
        return true
    }

    /// An upload's head: the gate (an admin session looked up) answers before any of the body is parsed. Where the
    /// lookup may wait (PostgreSQL: a network round trip), it is placed on the pool, the connection paused meanwhile
    /// (nothing more is read from the socket).
    private func askUploadGate(_ headers: HTTPHeaders, bodyStarted: Bool) -> Bool {
        guard let gate = parser.limits.uploadGate else { return react(to: parser.approve(true), bodyStarted) }
        guard gate.execution != .loop else { return react(to: parser.approve(gate.allows(headers)), bodyStarted) }
        waitingForHandler = true
        let loop = self.loop
        let fd = self.fd
        let id = self.id
        loop.context.pool.submit { loop.post(.approval(fd: fd, id: id, allowed: gate.allows(headers))) }
        return true
    }

    private func react(to event: consuming RequestParser.Event?, _ bodyStarted: Bool) -> Bool {
        guard let event else { return true }
        return react(to: event, bodyStarted: bodyStarted)
    }

    /// The gate's answer from the pool: parse on (the body, if allowed) from what was kept.
    func approved(_ allowed: Bool) {
        waitingForHandler = false
        guard react(to: parser.approve(allowed), !unparsed.isEmpty) else { return }
        flushAtEndOfTurn()
        resume()
    }

    private func peerClosed() {
        peerClosedInput = true
        if !parser.isIdle {
            close()  // a request cut short can never be answered
        } else if output.isEmpty && !waitingForHandler && unparsed.isEmpty {
            close()
        }
    }

    /// After the last response, read and drop what the client still sends so
    /// that closing does not reset the connection before it reads the reply.
    private func discardInput() {
        let buffer = loop.readBuffer
        while true {
            let n = receive(buffer)
            if n > 0 { continue }
            if n != -1 { close() }
            return
        }
    }

    // MARK: answering

    private func dispatch(_ parsed: consuming Request) {
        served += 1
        headStarted = 0
        var request = consume parsed
        if healthOnly {
            guard request.rawPath == "/healthz" else { return refuse(.serviceUnavailable, "too many connections") }
            closeWhenFlushed = true
        }
        request = request.from(
            loop.configuration.trustedProxies.client(peer: remoteAddress, headers: request.headers),
            // Every request has its id, which its log lines carry in either format (issue 42: none unless the access
            // log was JSON); a small string, no allocation. Sent back with the JSON access log.
            requestID: AccessLog.requestID(request.headers["X-Request-Id"]))
        let keepAlive = request.wantsKeepAlive && served < loop.configuration.maxRequestsPerConnection && !loop.draining
        let handler = loop.context.responder.handler(for: &request)
        let info = RequestInfo(
            method: request.method, target: request.target, version: request.version,
            keepAlive: keepAlive, start: loop.now, route: request.route, client: request.remoteAddress,
            requestID: request.requestID)
        if !keepAlive { closeWhenFlushed = true }
        switch handler {
        case .deferred(let start):
            waitingForHandler = true
            let loop = self.loop
            let fd = self.fd
            let id = self.id
            let pool = loop.context.pool
            start(
                request,
                Reply(deliver: { loop.post(.response(fd: fd, id: id, $0, info)) }, offload: { pool.submit($0) }))
        case .pool(let respond):
            waitingForHandler = true
            onPool(respond, request, info)
        case .loop(let respond):
            enqueue(respond(request), info)
        }
    }

    private func onPool(_ respond: @escaping @Sendable (Request) -> Response, _ request: Request, _ info: RequestInfo) {
        let loop = self.loop
        let fd = self.fd
        let id = self.id
        loop.context.pool.submit { loop.post(.response(fd: fd, id: id, respond(request), info)) }
    }

    /// An event for this connection's stream. A client too slow to take them is closed by the write timeout.
    func push(_ bytes: [UInt8]) {
        guard !closed, streamChannel != nil else { return }
        let wasEmpty = output.isEmpty
        output.append { $0.append(contentsOf: bytes) }
        if wasEmpty { lastWrite = loop.now }
        flushAtEndOfTurn()
    }

    /// An off-loop handler finished.
    func deliver(_ response: Response, _ info: RequestInfo) {
        waitingForHandler = false
        enqueue(response, info)
        flushAtEndOfTurn()
    }

    private func enqueue(_ answer: consuming Response, _ info: RequestInfo) {
        var response = consume answer
        // A request that began before shutdown still learns the connection ends.
        var keepAlive = info.keepAlive && !loop.draining
        if case .events(let channel, _) = response.body, info.method != .head, response.status == .ok, !loop.draining {
            guard holdsPlace, loop.context.budget.becomeStream(limitKey, peer: remoteAddress) else {
                // The connection ends with its refusal: kept open, it held one of the address's page places while
                // the page's script polled instead (a page load then met 503 on a busy machine).
                var ending = info
                ending.keepAlive = false
                return enqueue(Self.refusal(loop, .serviceUnavailable, "too many event streams"), ending)
            }
            // The stream's end is the connection's: no further request is read on it.
            streamChannel = channel
            streamStarted = loop.now
            keepAlive = false
            loop.streamOpened()
        } else if !keepAlive {
            closeWhenFlushed = true
        }
        let framing = ResponseHead.Framing(version: info.version, keepAlive: keepAlive)
        if loop.configuration.accessLogJSON { response.headers.set("X-Request-Id", info.requestID) }
        let wasEmpty = output.isEmpty
        output.append {
            ResponseHead.write(
                response, framing: framing, date: loop.dateLine,
                serverName: loop.context.serverLine, into: &$0)
        }
        let sendsBody = info.method != .head && response.status.allowsBody
        if sendsBody { output.append(body: response.body) }
        if wasEmpty { lastWrite = loop.now }
        loop.logAccess(info, status: response.status.code, bytes: sendsBody ? response.body.count : 0)
    }

    private func refuse(_ status: Status, _ reason: String, target: String = "-") {
        closeWhenFlushed = true
        unparsed = []
        let info = RequestInfo(
            method: nil, target: target, version: .http11, keepAlive: false, start: loop.now, client: remoteAddress,
            requestID: AccessLog.requestID(nil))
        enqueue(Self.refusal(loop, status, reason), info)
    }

    /// The site's page for a refusal; a 503 says when to come back.
    private static func refusal(_ loop: EventLoop, _ status: Status, _ reason: String) -> Response {
        var response = loop.context.responder.refusal(HTTPError(status, reason))
        response.headers.remove("Connection")
        if status == .serviceUnavailable { response.headers.set("Retry-After", "1") }
        return response
    }

    /// Writes once the loop has handled every ready event. A client's process sleeps between responses, and waking it
    /// is most of what a write costs the kernel: answers written together wake it once (about 6% more home pages a
    /// second in `scripts/bench`).
    private func flushAtEndOfTurn() {
        guard !flushDue && !closed else { return }
        flushDue = true
        loop.flushAtEndOfTurn(self)
    }

    /// The loop's end of turn.
    func flushIfDue() {
        guard flushDue else { return }
        flushDue = false
        flush()
    }

    private func flush() {
        guard !closed else { return }
        let result = write()
        switch result {
        case .failed:
            close()
        case .blocked:
            break  // EPOLLOUT resumes us
        case .drained:
            lastActivity = loop.now
            // A handler still running off the loop owes this connection a response.
            if waitingForHandler { return }
            if streamChannel != nil {
                if loop.draining { close() }
                return
            }
            if closeWhenFlushed || (loop.draining && isIdle) {
                beginLingeringClose()
            } else if peerClosedInput && isIdle {
                close()
            } else {
                resume()
            }
        }
    }

    /// Writes what is queued. Before the last answer goes out its place in the budget is given back: the client may
    /// read it, close and reconnect before this thread runs again (the send wakes it, and may give it this CPU), and
    /// at exactly its cap it would be refused. A write that does not finish takes the place back (past the cap if
    /// need be, as it was counted), so a client that does not read still holds it.
    private func write() -> OutputQueue.FlushResult {
        let last = closeWhenFlushed && holdsPlace && !waitingForHandler && streamChannel == nil
        if last { givePlaceBack() }
        let (result, written) =
            tls == nil || kernelSends
            ? output.flush(to: fd)
            : output.flush(tls: tls!, staging: loop.tlsStaging)
        if written > 0 { lastWrite = loop.now }
        if last && result != .drained {
            holdsPlace = true
            loop.context.budget.retake(limitKey, peer: remoteAddress)
        }
        return result
    }

    /// Back-pressure released: parse what was kept, then read what waits.
    private func resume() {
        guard !paused, !closed else { return }
        if !unparsed.isEmpty {
            let kept = unparsed
            unparsed = []
            kept.withUnsafeBytes { consume($0) }
            if paused || closed { return }
        }
        if peerClosedInput {
            if isIdle { close() }
        } else if moreInputMayWait {
            moreInputMayWait = false
            readInput()
        }
    }

    private func beginLingeringClose() {
        guard !lingering else { return }
        lingering = true
        givePlaceBack()
        lingerDeadline = loop.now + Clock.nanoseconds(2)
        if let tls {
            _ = SSL_shutdown(tls)  // close_notify, best effort
            ERR_clear_error()
        }
        _ = csys_shutdown_write(fd)
        if peerClosedInput { close() } else { discardInput() }
    }

    // MARK: time

    func checkDeadlines() {
        guard !closed else { return }
        let now = loop.now
        let config = loop.configuration
        if lingering {
            if now >= lingerDeadline { close() }
        } else if streamChannel != nil {
            // Idle is a stream's normal state; only a client that stopped reading is closed. A stream ends after its
            // lifetime (the client reconnects after the `retry:` it was sent), so none holds a connection forever.
            if !output.isEmpty && now - lastWrite >= Clock.nanoseconds(config.writeTimeout) { close() }
            if output.isEmpty && now - streamStarted >= Clock.nanoseconds(config.streamLifetime) { close() }
        } else if !output.isEmpty {
            if now - lastWrite >= Clock.nanoseconds(config.writeTimeout) { close() }
        } else if waitingForHandler {
            return
        } else if parser.isReadingBody {
            if now - lastRead >= Clock.nanoseconds(config.bodyTimeout) {
                timeOut("body not received in time")
            } else if bodyTooSlow(now: now, config) {
                timeOut("body arriving too slowly")
            }
        } else if !parser.isIdle {
            if now - headStarted >= Clock.nanoseconds(config.headerTimeout) {
                timeOut("request head not received in time")
            }
        } else if served == 0 {
            // A connection that never sends a request gets the header timeout.
            if now - accepted >= Clock.nanoseconds(config.headerTimeout) { close() }
        } else if now - lastActivity >= Clock.nanoseconds(config.idleTimeout) {
            close()
        }
    }

    /// Each window of `bodyGracePeriod` seconds must bring `minBodyRate` bytes a second: a body sent fast and
    /// then a byte at a time is cut in the first slow window, not once its average since the start falls.
    private func bodyTooSlow(now: Int64, _ config: ServerConfiguration) -> Bool {
        guard config.minBodyRate > 0 else { return false }
        if rateWindow.start < bodyStarted { rateWindow = (bodyStarted, 0) }
        guard now - rateWindow.start >= Clock.nanoseconds(config.bodyGracePeriod) else { return false }
        let received = parser.bodyBytesReceived - rateWindow.bytes
        if Double(received) < config.bodyGracePeriod * Double(config.minBodyRate) { return true }
        rateWindow = (now, parser.bodyBytesReceived)
        return false
    }

    private func timeOut(_ reason: String) {
        refuse(.requestTimeout, reason, target: "-")
        flush()
    }

    func close() {
        guard !closed else { return }
        closed = true
        if streamChannel != nil { loop.streamClosed() }
        givePlaceBack()
        output.removeAll()
        if handshaking {
            endHandshake()
        } else if let tls {
            // OpenSSL drops a session from its cache when the connection did not end with close_notify both ways;
            // most clients just close, so mark it ended, or a returning client (by session ID) would never resume.
            SSL_set_shutdown(tls, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN)
        }
        if let tls { SSL_free(tls) }
        tls = nil
        Glibc.close(fd)
        loop.forget(self)
    }

    private func givePlaceBack() {
        guard holdsPlace else { return }
        holdsPlace = false
        loop.context.budget.close(limitKey, peer: remoteAddress, stream: streamChannel != nil)
    }
}
