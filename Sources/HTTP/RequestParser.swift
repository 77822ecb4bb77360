/// An incremental HTTP/1.1 request parser (RFC 9112). Feed it whatever bytes
/// have arrived, one at a time or many requests at once; it consumes up to
/// the end of one request and says what happened. It refuses what nginx
/// refuses, with the same statuses, and never reads past its limits. Lines
/// end in CRLF only (llhttp's strict mode): a bare LF is 400, since a proxy
/// that reads it otherwise could be made to see a different request.
///
/// Made with `RequestParser(responses:)`, it reads responses instead, for the HTTP client: a status line, then the same
/// fields, chunked coding and limits, the body framed as RFC 9112 §6.3 says (none for 1xx, 204 and 304; else chunked,
/// Content-Length, or up to the end of the stream, which `finish()` reports).
public struct RequestParser {
    public enum Event {
        /// Everything given was consumed; more bytes are needed.
        case needMore
        /// The head is complete, a body follows and the client waits for
        /// `100 Continue` before sending it.
        case expectsContinue
        /// A whole request; the parser is ready for the next one.
        case request(Request)
        /// The request is refused; the connection must close after answering.
        case failure(HTTPError)
        /// In response mode: a whole response (a 1xx one is interim: the final one follows).
        case response(status: Int, headers: HTTPHeaders, body: [UInt8])
        /// The head of a POST to an upload path is in: ask `limits.uploadGate` (where it is placed: on the pool if it
        /// may wait) and pass its answer to `approve(_:)` before parsing on. No byte of the body has been consumed.
        case approval(HTTPHeaders)
    }

    @usableFromInline enum State: UInt8 {
        case start, startLF, method, target, version, requestLineLF
        case fieldStart, fieldName, fieldValue, fieldLF, headEndLF
        case body, chunkSize, chunkExt, chunkSizeLF, chunkData, chunkDataEnd, chunkDataLF
        case statusLine, untilClose
        case awaitingApproval
        case failed
    }

    // Sub-states of a chunk extension: `;name=value` or `;name="quoted"`.
    private enum ExtState: UInt8 {
        case beforeName, name, afterName, beforeValue, token, quoted, quotedPair, afterValue
    }

    public let limits: ParserLimits
    /// Response mode (the client's).
    private let readsResponses: Bool
    private var status = 0
    @usableFromInline var state = State.start
    private var ext = ExtState.beforeName
    private var lineLength = 0
    private var headerBytes = 0
    private var method: [UInt8] = []
    /// The largest body this request may have: `maxBody`, or `maxUploadBody` for a POST to an upload path.
    private var bodyLimit = 0
    private var target: [UInt8] = []
    private var version: [UInt8] = []
    private var headers = HTTPHeaders()
    private var nameStart: Int32 = 0
    private var nameEnd: Int32 = 0
    private var valueEnd: Int32 = 0
    private var leadingSpace = true
    @usableFromInline var inTrailers = false
    private var fieldCount = 0
    private var body: [UInt8] = []
    private var remaining = 0
    private var sawChunkDigit = false
    private var parsedMethod = Method.get
    private var parsedVersion = HTTPVersion.http11

    public init(limits: ParserLimits = ParserLimits()) {
        self.init(limits: limits, responses: false)
    }

    /// A parser of responses; `maxBody` of `limits` bounds their bodies.
    public init(responses limits: ParserLimits) {
        self.init(limits: limits, responses: true)
    }

    private init(limits: ParserLimits, responses: Bool) {
        self.limits = limits
        readsResponses = responses
        method.reserveCapacity(8)
        target.reserveCapacity(64)
        version.reserveCapacity(8)
    }

    /// True until the first byte of a request (other than blank lines).
    /// (Inlinable, like `isReadingBody`: the server asks around every parse, and a call across modules copied the
    /// whole parser to ask.)
    @inlinable public var isIdle: Bool { state == .start || state == .startLF }
    /// True while reading a body, when the body timeout applies.
    @inlinable public var isReadingBody: Bool {
        switch state {
        case .body, .chunkSize, .chunkExt, .chunkSizeLF, .chunkData, .chunkDataEnd, .chunkDataLF: true
        case .fieldStart, .fieldName, .fieldValue, .fieldLF, .headEndLF: inTrailers
        default: false
        }
    }

    /// Body bytes received so far of the request being read.
    public var bodyBytesReceived: Int { body.count }

    public mutating func parse(_ input: UnsafeRawBufferPointer) -> (consumed: Int, event: Event) {
        guard input.count > 0, let start = input.baseAddress else { return (0, .needMore) }
        return parse(start.assumingMemoryBound(to: UInt8.self), input.count, CharacterClass.classes)
    }

    // The loop returns at the first event; `i` is the next unread byte.
    private mutating func parse(
        _ p: UnsafePointer<UInt8>, _ n: Int,
        _ cls: UnsafePointer<UInt8>
    ) -> (consumed: Int, event: Event) {
        var i = 0
        func fail(_ status: Status, _ reason: String) -> (Int, Event) {
            state = .failed
            return (i, .failure(HTTPError(status, reason)))
        }
        while i < n {
            let byte = p[i]
            switch state {
            case .failed:
                return (i, .failure(HTTPError(.badRequest, "parser used after failure")))

            case .awaitingApproval:
                state = .failed
                return (i, .failure(HTTPError(.internalServerError, "upload not approved or refused")))

            case .start:
                if byte == 0x0D {
                    state = .startLF
                    i += 1
                    continue
                }
                if byte == 0x0A { return fail(.badRequest, "bare LF") }
                if readsResponses {
                    state = .statusLine
                    lineLength = 0
                    continue
                }
                guard cls[Int(byte)] & CharacterClass.token != 0 else {
                    return fail(.badRequest, "invalid request line")
                }
                state = .method
                lineLength = 0

            case .startLF:
                guard byte == 0x0A else { return fail(.badRequest, "bare CR") }
                state = .start
                i += 1

            case .method:
                lineLength += 1
                if lineLength > limits.maxRequestLine { return fail(.uriTooLong, "request line too long") }
                i += 1
                if byte == 0x20 {
                    state = .target
                } else if cls[Int(byte)] & CharacterClass.token != 0 {
                    if method.count < 16 { method.append(byte) } else { method[15] = 0 }  // too long: unknown
                } else {
                    return fail(.badRequest, "invalid method")
                }

            case .target:
                // Scan a run of target bytes at once.
                var j = i
                while j < n, cls[Int(p[j])] & CharacterClass.target != 0 { j += 1 }
                lineLength += j - i
                if lineLength > limits.maxRequestLine { return fail(.uriTooLong, "request line too long") }
                target.append(contentsOf: UnsafeBufferPointer(start: p + i, count: j - i))
                i = j
                guard i < n else { break }
                lineLength += 1
                if lineLength > limits.maxRequestLine { return fail(.uriTooLong, "request line too long") }
                guard p[i] == 0x20, !target.isEmpty else {
                    return fail(
                        .badRequest,
                        p[i] == 0x0D || p[i] == 0x0A ? "missing HTTP version" : "invalid byte in request target")
                }
                i += 1
                state = .version

            case .version:
                lineLength += 1
                if lineLength > limits.maxRequestLine { return fail(.uriTooLong, "request line too long") }
                i += 1
                if byte == 0x0D {
                    state = .requestLineLF
                } else if byte == 0x0A {
                    return fail(.badRequest, "bare LF")
                } else if byte > 0x20 && byte < 0x7F && version.count < 8 {
                    version.append(byte)
                } else {
                    return fail(.badRequest, "invalid HTTP version")
                }

            case .requestLineLF:
                guard byte == 0x0A else { return fail(.badRequest, "bare CR") }
                i += 1
                if let failure = readsResponses ? finishStatusLine() : finishRequestLine() {
                    return fail(failure.status, failure.reason)
                }

            case .statusLine:
                var j = i
                while j < n, p[j] != 0x0D, p[j] != 0x0A { j += 1 }
                lineLength += j - i
                if lineLength > limits.maxRequestLine { return fail(.badRequest, "status line too long") }
                target.append(contentsOf: UnsafeBufferPointer(start: p + i, count: j - i))
                i = j
                guard i < n else { break }
                if p[i] == 0x0A { return fail(.badRequest, "bare LF") }
                i += 1
                state = .requestLineLF

            case .untilClose:
                let take = n - i
                if take > bodyLimit - body.count { return fail(.contentTooLarge, "response body too large") }
                body.append(contentsOf: UnsafeBufferPointer(start: p + i, count: take))
                i = n

            case .fieldStart:
                if byte == 0x0A { return fail(.badRequest, "bare LF") }
                if byte == 0x0D {
                    i += 1
                    headerBytes += 1
                    state = .headEndLF
                    continue
                }
                if byte == 0x20 || byte == 0x09 { return fail(.badRequest, "obsolete line folding") }
                guard cls[Int(byte)] & CharacterClass.token != 0 else {
                    return fail(.badRequest, "invalid header name")
                }
                fieldCount += 1
                if fieldCount > limits.maxHeaderCount { return fail(.headerFieldsTooLarge, "too many header fields") }
                lineLength = 0
                nameStart = headers.beginField()
                state = .fieldName

            case .fieldName:
                var j = i
                while j < n, cls[Int(p[j])] & CharacterClass.token != 0 { j += 1 }
                if let failure = countHeaderBytes(j - i) { return fail(failure.status, failure.reason) }
                headers.appendRaw(UnsafeRawBufferPointer(start: p + i, count: j - i))
                i = j
                guard i < n else { break }
                if let failure = countHeaderBytes(1) { return fail(failure.status, failure.reason) }
                switch p[i] {
                case UInt8(ascii: ":"):
                    i += 1
                    nameEnd = Int32(headers.rawCount)
                    valueEnd = nameEnd
                    leadingSpace = true
                    state = .fieldValue
                case 0x20, 0x09: return fail(.badRequest, "whitespace before header colon")
                default: return fail(.badRequest, "invalid header name")
                }

            case .fieldValue:
                if leadingSpace {
                    while i < n, p[i] == 0x20 || p[i] == 0x09 {
                        i += 1
                        if let failure = countHeaderBytes(1) { return fail(failure.status, failure.reason) }
                    }
                    guard i < n else { break }
                    leadingSpace = false
                }
                var j = i
                while j < n, cls[Int(p[j])] & CharacterClass.fieldValue != 0 { j += 1 }
                if let failure = countHeaderBytes(j - i) { return fail(failure.status, failure.reason) }
                if j > i {
                    headers.appendRaw(UnsafeRawBufferPointer(start: p + i, count: j - i))
                    // Remember where the value ends without trailing whitespace.
                    var k = j
                    while k > i, p[k - 1] == 0x20 || p[k - 1] == 0x09 { k -= 1 }
                    if k > i { valueEnd = Int32(headers.rawCount - (j - k)) }
                }
                i = j
                guard i < n else { break }
                if let failure = countHeaderBytes(1) { return fail(failure.status, failure.reason) }
                i += 1
                switch p[i - 1] {
                case 0x0D: state = .fieldLF
                case 0x0A: return fail(.badRequest, "bare LF")
                default: return fail(.badRequest, "invalid byte in header value")
                }

            case .fieldLF:
                guard byte == 0x0A else { return fail(.badRequest, "bare CR in header") }
                if let failure = countHeaderBytes(1) { return fail(failure.status, failure.reason) }
                i += 1
                finishField()

            case .headEndLF:
                guard byte == 0x0A else { return fail(.badRequest, "bare CR") }
                i += 1
                if let event = finishHead() { return (i, event) }

            case .body:
                let take = min(remaining, n - i)
                body.append(contentsOf: UnsafeBufferPointer(start: p + i, count: take))
                i += take
                remaining -= take
                if remaining == 0 { return (i, complete()) }

            case .chunkSize:
                lineLength += 1
                if lineLength > limits.maxChunkLine { return fail(.badRequest, "chunk line too long") }
                if let digit = URI.hexValue(byte) {
                    i += 1
                    sawChunkDigit = true
                    // Refuse before the arithmetic could overflow.
                    guard remaining <= (bodyLimit - body.count) / 16 + 1 else {
                        return fail(.contentTooLarge, "chunked body too large")
                    }
                    remaining = remaining * 16 + Int(digit)
                    if remaining > bodyLimit - body.count { return fail(.contentTooLarge, "chunked body too large") }
                    continue
                }
                // The size ends at `;` or CRLF, with nothing between (no space).
                guard sawChunkDigit, byte == UInt8(ascii: ";") || byte == 0x0D else {
                    return fail(.badRequest, "invalid chunk size")
                }
                i += 1
                if byte == 0x0D {
                    state = .chunkSizeLF
                    continue
                }
                state = .chunkExt
                ext = .beforeName

            case .chunkExt:
                lineLength += 1
                if lineLength > limits.maxChunkLine { return fail(.badRequest, "chunk line too long") }
                i += 1
                if byte == 0x0A { return fail(.badRequest, "bare LF in chunk") }
                if byte == 0x0D {
                    switch ext {
                    case .name, .afterName, .token, .afterValue: break
                    default: return fail(.badRequest, "invalid chunk extension")
                    }
                    state = .chunkSizeLF
                    continue
                }
                if !advanceChunkExtension(byte, cls) { return fail(.badRequest, "invalid chunk extension") }

            case .chunkSizeLF:
                guard byte == 0x0A else { return fail(.badRequest, "bare CR in chunk") }
                i += 1
                if let event = finishChunkSize() { return (i, event) }

            case .chunkData:
                let take = min(remaining, n - i)
                body.append(contentsOf: UnsafeBufferPointer(start: p + i, count: take))
                i += take
                remaining -= take
                if remaining == 0 { state = .chunkDataEnd }

            case .chunkDataEnd:
                guard byte == 0x0D else {
                    return fail(.badRequest, byte == 0x0A ? "bare LF in chunk" : "chunk data longer than its size")
                }
                i += 1
                state = .chunkDataLF

            case .chunkDataLF:
                guard byte == 0x0A else { return fail(.badRequest, "bare CR in chunk") }
                i += 1
                beginChunk()
            }
        }
        return (i, .needMore)
    }

    private mutating func countHeaderBytes(_ count: Int) -> HTTPError? {
        lineLength += count
        headerBytes += count
        if lineLength > limits.maxHeaderLine { return HTTPError(.headerFieldsTooLarge, "header line too long") }
        if headerBytes > limits.maxHeaderBytes { return HTTPError(.headerFieldsTooLarge, "headers too large") }
        return nil
    }

    private mutating func finishField() {
        state = .fieldStart
        if inTrailers {
            // Trailer fields are checked but not merged into the head.
            headers.truncateRaw(to: Int(nameStart))
        } else {
            headers.addField(nameStart: nameStart, nameEnd: nameEnd, valueStart: nameEnd, valueEnd: valueEnd)
        }
    }

    private mutating func finishRequestLine() -> HTTPError? {
        // "HTTP/" DIGIT "." DIGIT; a well-formed other version is 505.
        let v = version
        guard v.count == 8, v[0] == 0x48, v[1] == 0x54, v[2] == 0x54, v[3] == 0x50, v[4] == 0x2F,
            (0x30...0x39).contains(v[5]), v[6] == 0x2E, (0x30...0x39).contains(v[7])
        else { return HTTPError(.badRequest, "invalid HTTP version") }
        switch (v[5], v[7]) {
        case (0x31, 0x31): parsedVersion = .http11
        case (0x31, 0x30): parsedVersion = .http10
        default: return HTTPError(.httpVersionNotSupported, "HTTP version not supported")
        }
        guard let m = method.withUnsafeBytes({ Method(token: $0) }) else {
            return HTTPError(.notImplemented, "unknown method")
        }
        parsedMethod = m
        if let failure = normalizeTarget() { return failure }
        state = .fieldStart
        headerBytes = 0
        fieldCount = 0
        headers = HTTPHeaders()
        headers.reserveCapacity(bytes: 1024, fields: 16)  // a browser's head, cookies included
        return nil
    }

    /// Accepts origin form, `*` for OPTIONS, and absolute form (reduced to
    /// its path); checks every percent escape.
    private mutating func normalizeTarget() -> HTTPError? {
        if target.first == UInt8(ascii: "/") {
            // origin form
        } else if target == [UInt8(ascii: "*")] {
            guard parsedMethod == .options else { return HTTPError(.badRequest, "asterisk target without OPTIONS") }
        } else if let schemeEnd = absoluteFormPrefixLength() {
            var pathStart = schemeEnd
            while pathStart < target.count, target[pathStart] != UInt8(ascii: "/"),
                target[pathStart] != UInt8(ascii: "?")
            {
                pathStart += 1
            }
            guard pathStart > schemeEnd else { return HTTPError(.badRequest, "absolute target without host") }
            target.removeSubrange(0..<pathStart)
            if target.first != UInt8(ascii: "/") { target.insert(UInt8(ascii: "/"), at: 0) }
        } else {
            return HTTPError(.badRequest, "invalid request target")
        }
        guard URI.hasValidEscapes(target) else { return HTTPError(.badRequest, "invalid percent-encoding") }
        return nil
    }

    private func absoluteFormPrefixLength() -> Int? {
        for scheme in ["http://", "https://"] where target.count > scheme.utf8.count {
            if asciiEqualIgnoringCase(target.prefix(scheme.utf8.count), scheme.utf8) { return scheme.utf8.count }
        }
        return nil
    }

    /// Decides the body's framing once the head is in (RFC 9112 §6).
    private mutating func finishHead() -> Event? {
        if inTrailers { return complete() }
        if readsResponses { return finishResponseHead() }
        let hostCount = headers.count(of: "Host")
        if hostCount > 1 { return failHead(.badRequest, "duplicate Host") }
        if hostCount == 0 && parsedVersion == .http11 { return failHead(.badRequest, "missing Host") }
        bodyLimit = limits.maxBody
        if !limits.uploadPaths.isEmpty, method.elementsEqual("POST".utf8),
            limits.uploadPaths.contains(where: { target.starts(with: $0.utf8) })
        {
            // The gate may need a database round trip: the caller asks it, and nothing of the body is read first.
            if limits.uploadGate != nil {
                state = .awaitingApproval
                return .approval(headers)
            }
            bodyLimit = max(limits.maxBody, limits.maxUploadBody)
        }
        return frameBody()
    }

    /// The upload gate's answer for the head `.approval` reported: a refusal is 401, else the body is framed with the
    /// upload limit. Nil: parse on (a body follows).
    public mutating func approve(_ allowed: Bool) -> Event? {
        guard state == .awaitingApproval else { return failHead(.internalServerError, "no upload awaits approval") }
        guard allowed else { return failHead(.unauthorized, "sign in first") }
        bodyLimit = max(limits.maxBody, limits.maxUploadBody)
        return frameBody()
    }

    /// The body's framing: chunked, a length, or none (then the request is complete).
    private mutating func frameBody() -> Event? {
        let transferEncodings = headers.values("Transfer-Encoding")
        let lengths = headers.values("Content-Length")
        var chunked = false
        if !transferEncodings.isEmpty {
            if parsedVersion == .http10 { return failHead(.badRequest, "Transfer-Encoding on HTTP/1.0") }
            if !lengths.isEmpty { return failHead(.badRequest, "Content-Length with Transfer-Encoding") }
            let codings = transferEncodings.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
                .map { trimOWS($0).lowercased() }
            if codings.contains(where: { $0 != "chunked" }) {
                return codings.contains("")
                    ? failHead(.badRequest, "empty transfer coding")
                    : failHead(.notImplemented, "unsupported transfer coding")
            }
            if codings.count != 1 { return failHead(.badRequest, "chunked applied twice") }
            chunked = true
        }
        var length = 0
        if !lengths.isEmpty {
            guard lengths.count == 1 else { return failHead(.badRequest, "duplicate Content-Length") }
            let text = lengths[0].utf8
            guard !text.isEmpty, text.count <= 18, text.allSatisfy({ (0x30...0x39).contains($0) }) else {
                return failHead(.badRequest, "invalid Content-Length")
            }
            length = text.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            if length > bodyLimit { return failHead(.contentTooLarge, "body too large") }
        }

        var expectsContinue = false
        if let expect = headers["Expect"] {
            guard asciiEqualIgnoringCase(expect.utf8, "100-continue".utf8) else {
                return failHead(.expectationFailed, "unsupported expectation")
            }
            expectsContinue = parsedVersion == .http11
        }

        body = []
        if chunked {
            beginChunk()
        } else if length > 0 {
            body.reserveCapacity(length)
            remaining = length
            state = .body
        } else {
            return .request(completeRequest())
        }
        return expectsContinue ? .expectsContinue : nil
    }

    /// "HTTP/1.x" SP 3DIGIT, then SP and a reason phrase (which may be empty, or missing altogether).
    private mutating func finishStatusLine() -> HTTPError? {
        let line = target
        guard line.count >= 12, line.starts(with: "HTTP/1.".utf8), (0x30...0x39).contains(line[7]), line[8] == 0x20,
            line[9...11].allSatisfy({ (0x30...0x39).contains($0) }), line.count == 12 || line[12] == 0x20,
            line.dropFirst(12).allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) })
        else {
            return HTTPError(.badRequest, "invalid status line")
        }
        status = line[9...11].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        guard (100...599).contains(status) else { return HTTPError(.badRequest, "invalid status code") }
        state = .fieldStart
        headerBytes = 0
        fieldCount = 0
        headers = HTTPHeaders()
        return nil
    }

    /// A response's framing (RFC 9112 §6.3): no body for 1xx, 204 and 304; chunked; a length; or the rest of the stream.
    private mutating func finishResponseHead() -> Event? {
        bodyLimit = limits.maxBody
        body = []
        if (100..<200).contains(status) || status == 204 || status == 304 { return complete() }
        let transferEncodings = headers.values("Transfer-Encoding")
        let lengths = headers.values("Content-Length")
        if !transferEncodings.isEmpty {
            if !lengths.isEmpty { return failHead(.badRequest, "Content-Length with Transfer-Encoding") }
            let codings = transferEncodings.flatMap { $0.split(separator: ",") }.map { trimOWS($0).lowercased() }
            guard codings == ["chunked"] else { return failHead(.notImplemented, "unsupported transfer coding") }
            beginChunk()
            return nil
        }
        guard let length = lengths.first else {
            state = .untilClose
            return nil
        }
        let text = length.utf8
        guard lengths.allSatisfy({ $0 == length }), !text.isEmpty, text.count <= 18,
            text.allSatisfy({ (0x30...0x39).contains($0) })
        else {
            return failHead(.badRequest, "invalid Content-Length")
        }
        remaining = text.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        if remaining > bodyLimit { return failHead(.contentTooLarge, "response body too large") }
        if remaining == 0 { return complete() }
        state = .body
        return nil
    }

    /// At the end of the stream: a response read up to it is whole; anything else begun was cut short.
    public mutating func finish() -> Event {
        if state == .untilClose { return complete() }
        let begun = !(state == .start && target.isEmpty)
        state = .failed
        return .failure(
            HTTPError(
                .badRequest,
                begun
                    ? "the connection closed inside a response"
                    : "the connection closed before a response"))
    }

    private mutating func complete() -> Event {
        guard readsResponses else { return .request(completeRequest()) }
        let event = Event.response(status: status, headers: headers, body: body)
        resetForNextMessage()
        return event
    }

    /// Ready for the next message on the connection (buffers keep their capacity).
    private mutating func resetForNextMessage() {
        state = .start
        method.removeAll(keepingCapacity: true)
        target.removeAll(keepingCapacity: true)
        version.removeAll(keepingCapacity: true)
        headers = HTTPHeaders()
        body = []
        inTrailers = false
        remaining = 0
    }

    private mutating func failHead(_ status: Status, _ reason: String) -> Event {
        state = .failed
        return .failure(HTTPError(status, reason))
    }

    private mutating func beginChunk() {
        state = .chunkSize
        remaining = 0
        sawChunkDigit = false
        lineLength = 0
    }

    private mutating func finishChunkSize() -> Event? {
        if remaining == 0 {
            // The last chunk: trailer fields follow, then an empty line.
            inTrailers = true
            state = .fieldStart
            return nil
        }
        state = .chunkData
        return nil
    }

    private mutating func advanceChunkExtension(_ byte: UInt8, _ cls: UnsafePointer<UInt8>) -> Bool {
        let isSpace = byte == 0x20 || byte == 0x09
        let isToken = cls[Int(byte)] & CharacterClass.token != 0
        switch ext {
        case .afterValue:
            if isSpace { return true }
            guard byte == UInt8(ascii: ";") else { return false }
            ext = .beforeName
        case .beforeName:
            if isSpace { return true }
            guard isToken else { return false }
            ext = .name
        case .name:
            if isToken { return true }
            if isSpace {
                ext = .afterName
                return true
            }
            if byte == UInt8(ascii: "=") {
                ext = .beforeValue
                return true
            }
            guard byte == UInt8(ascii: ";") else { return false }
            ext = .beforeName
        case .afterName:
            if isSpace { return true }
            if byte == UInt8(ascii: "=") {
                ext = .beforeValue
                return true
            }
            guard byte == UInt8(ascii: ";") else { return false }
            ext = .beforeName
        case .beforeValue:
            if isSpace { return true }
            if byte == UInt8(ascii: "\"") {
                ext = .quoted
                return true
            }
            guard isToken else { return false }
            ext = .token
        case .token:
            if isToken { return true }
            if isSpace {
                ext = .afterValue
                return true
            }
            guard byte == UInt8(ascii: ";") else { return false }
            ext = .beforeName
        case .quoted:
            if byte == UInt8(ascii: "\"") {
                ext = .afterValue
                return true
            }
            if byte == UInt8(ascii: "\\") {
                ext = .quotedPair
                return true
            }
            return byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
        case .quotedPair:
            guard byte == 0x09 || (byte >= 0x20 && byte != 0x7F) else { return false }
            ext = .quoted
        }
        return true
    }

    private mutating func completeRequest() -> Request {
        let request = Request(
            method: parsedMethod,
            target: String(decoding: target, as: UTF8.self),
            version: parsedVersion,
            headers: headers,
            body: body)
        resetForNextMessage()
        return request
    }
}
