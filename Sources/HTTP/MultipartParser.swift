/// One part of a `multipart/form-data` body (RFC 7578): a form field, or a file with its name.
public struct MultipartPart: Sendable, Equatable {
    public var name: String
    /// The file's own name, without any folder (old browsers sent `C:\fakepath\…`); nil for a plain field.
    public var filename: String?
    /// As the client declared it: never trusted for what a file is (sniff the bytes instead).
    public var contentType: String?
    public var body: [UInt8]

    public init(name: String, filename: String? = nil, contentType: String? = nil, body: [UInt8]) {
        self.name = name
        self.filename = filename
        self.contentType = contentType
        self.body = body
    }

    /// The body as text, if it is UTF-8.
    public var text: String? { String(validating: body, as: UTF8.self) }
}

/// What one multipart body may hold; the request's body limit bounds the whole.
public struct MultipartLimits: Sendable {
    public var maxParts: Int
    /// The header block of one part.
    public var maxHeaderBytes: Int
    /// The body of one part (a file).
    public var maxPartBytes: Int

    public init(maxParts: Int = 64, maxHeaderBytes: Int = 4096, maxPartBytes: Int = 8 << 20) {
        self.maxParts = maxParts
        self.maxHeaderBytes = maxHeaderBytes
        self.maxPartBytes = maxPartBytes
    }
}

/// Reads `multipart/form-data` (RFC 7578, framed as RFC 2046 §5.1.1 says) incrementally: feed the body in pieces of
/// any size, down to one byte, then `finish()`. Broken framing or headers are 400, a bound exceeded is 413; it keeps
/// at most one part's bytes plus a delimiter's length, and each byte is looked at a bounded number of times.
public struct MultipartParser {
    private enum State { case preamble, afterDelimiter, headers, body, epilogue, failed }

    public let limits: MultipartLimits
    /// CRLF, `--`, the boundary: what ends a part's body (the first one is found after a CRLF put in front).
    private let delimiter: [UInt8]
    private var state = State.preamble
    private var pending: [UInt8] = [0x0D, 0x0A]
    private var start = 0
    private var parts: [MultipartPart] = []
    private var current = MultipartPart(name: "", body: [])

    /// Fails when the boundary is not one RFC 2046 allows (1 to 70 characters of its set, not ending in a space).
    public init(boundary: String, limits: MultipartLimits = MultipartLimits()) throws(HTTPError) {
        let bytes = Array(boundary.utf8)
        guard (1...70).contains(bytes.count), bytes.last != 0x20, bytes.allSatisfy(MultipartParser.isBoundaryByte)
        else {
            throw HTTPError(.badRequest, "invalid multipart boundary")
        }
        self.limits = limits
        delimiter = [0x0D, 0x0A, 0x2D, 0x2D] + bytes
    }

    /// The boundary of a `multipart/form-data` Content-Type (token or quoted), or nil for any other type.
    public static func boundary(contentType: String) -> String? {
        let parts = contentType.split(separator: ";", omittingEmptySubsequences: false)
        guard let type = parts.first, asciiEqualIgnoringCase(type.trimmingOWS.utf8, "multipart/form-data".utf8) else {
            return nil
        }
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, asciiEqualIgnoringCase(pair[0].trimmingOWS.utf8, "boundary".utf8) else { continue }
            var value = pair[1].trimmingOWS
            if value.hasPrefix("\"") {
                guard value.count >= 2, value.hasSuffix("\"") else { return nil }
                value = value.dropFirst().dropLast()
            }
            return value.isEmpty ? nil : String(value)
        }
        return nil
    }

    /// A whole body at once.
    public static func parse(
        _ body: [UInt8], contentType: String,
        limits: MultipartLimits = MultipartLimits()
    ) throws(HTTPError) -> [MultipartPart] {
        guard let boundary = boundary(contentType: contentType) else {
            throw HTTPError(.unsupportedMediaType, "expected multipart/form-data with a boundary")
        }
        var parser = try MultipartParser(boundary: boundary, limits: limits)
        try parser.feed(body)
        return try parser.finish()
    }

    public mutating func feed(_ bytes: some Collection<UInt8>) throws(HTTPError) {
        guard state != .failed else { throw HTTPError(.badRequest, "multipart parser used after failure") }
        if state == .epilogue { return }  // after the last boundary: ignored, as RFC 2046 says
        pending.append(contentsOf: bytes)
        do { try advance() } catch {
            state = .failed
            throw error
        }
        // Keep what is unread at the front, without moving bytes on every feed.
        if start > 4096 && start > pending.count / 2 {
            pending.removeSubrange(0..<start)
            start = 0
        }
    }

    /// Every part, once the closing boundary has been read.
    public mutating func finish() throws(HTTPError) -> [MultipartPart] {
        guard state == .epilogue else {
            state = .failed
            throw HTTPError(.badRequest, "multipart body without its closing boundary")
        }
        return parts
    }

    private mutating func advance() throws(HTTPError) {
        while true {
            switch state {
            case .preamble:
                // Text before the first boundary is ignored: only a delimiter's length is kept while looking.
                guard let found = find(delimiter) else {
                    keepTail()
                    return
                }
                start = found + delimiter.count
                state = .afterDelimiter
            case .afterDelimiter:
                while start < pending.count, pending[start] == 0x20 || pending[start] == 0x09 { start += 1 }  // padding
                guard pending.count - start >= 2 else { return }
                let a = pending[start]
                let b = pending[start + 1]
                start += 2
                if a == 0x2D && b == 0x2D {
                    state = .epilogue
                    return
                }
                guard a == 0x0D && b == 0x0A else { throw HTTPError(.badRequest, "invalid multipart boundary line") }
                guard parts.count < limits.maxParts else {
                    throw HTTPError(.contentTooLarge, "more than \(limits.maxParts) parts")
                }
                state = .headers
            case .headers:
                let end: Int
                if pending.count - start >= 2 && pending[start] == 0x0D && pending[start + 1] == 0x0A {
                    end = start  // no header lines
                } else if let found = find([0x0D, 0x0A, 0x0D, 0x0A]) {
                    end = found + 2
                } else {
                    if pending.count - start > limits.maxHeaderBytes {
                        throw HTTPError(.contentTooLarge, "part headers too large")
                    }
                    return
                }
                guard end - start <= limits.maxHeaderBytes else {
                    throw HTTPError(.contentTooLarge, "part headers too large")
                }
                current = try Self.part(headers: pending[start..<end])
                start = end + 2
                state = .body
            case .body:
                if let found = find(delimiter) {
                    try take(upTo: found)
                    parts.append(current)
                    current = MultipartPart(name: "", body: [])
                    start = found + delimiter.count
                    state = .afterDelimiter
                } else {
                    // All but what could be the start of a delimiter is body.
                    try take(upTo: max(start, pending.count - (delimiter.count - 1)))
                    return
                }
            case .epilogue, .failed:
                return
            }
        }
    }

    private mutating func take(upTo end: Int) throws(HTTPError) {
        guard end > start else { return }
        guard current.body.count + (end - start) <= limits.maxPartBytes else {
            throw HTTPError(.contentTooLarge, "a part is larger than \(limits.maxPartBytes) bytes")
        }
        current.body.append(contentsOf: pending[start..<end])
        start = end
    }

    private mutating func keepTail() {
        start = max(start, pending.count - (delimiter.count - 1))
    }

    /// The first index at or after `start` where `needle` begins. Linear: every needle starts with CR, which occurs in
    /// it only there, so a comparison that gets k bytes in cannot meet another candidate start before them.
    private func find(_ needle: [UInt8]) -> Int? {
        let count = pending.count
        let length = needle.count
        guard count - start >= length else { return nil }
        return pending.withUnsafeBufferPointer { bytes in
            needle.withUnsafeBufferPointer { wanted in
                var i = start
                while i <= count - length {
                    if bytes[i] == 0x0D {
                        var k = 1
                        while k < length && bytes[i + k] == wanted[k] { k += 1 }
                        if k == length { return i }
                        i += max(1, k)
                    } else {
                        i += 1
                    }
                }
                return nil
            }
        }
    }

    // MARK: a part's headers

    /// Reads `Content-Disposition: form-data; name="…"; filename="…"` and `Content-Type`; other fields are ignored.
    private static func part(headers block: ArraySlice<UInt8>) throws(HTTPError) -> MultipartPart {
        guard let text = String(validating: block, as: UTF8.self) else {
            throw HTTPError(.badRequest, "part headers are not UTF-8")
        }
        var name: String?
        var filename: String?
        var type: String?
        for line in text.split(separator: "\r\n", omittingEmptySubsequences: true) {
            guard !line.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
                throw HTTPError(.badRequest, "a bare CR or LF in part headers")
            }
            guard let first = line.utf8.first, first != 0x20 && first != 0x09 else {
                throw HTTPError(.badRequest, "folded part header")
            }
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                line[..<colon].utf8.allSatisfy(CharacterClass.isTokenByte)
            else {
                throw HTTPError(.badRequest, "invalid part header")
            }
            let field = line[..<colon]
            let value = line[line.index(after: colon)...].trimmingOWS
            if asciiEqualIgnoringCase(field.utf8, "Content-Disposition".utf8) {
                let parameters = try disposition(value)
                name = parameters.name
                filename = parameters.filename
            } else if asciiEqualIgnoringCase(field.utf8, "Content-Type".utf8) {
                type = String(value)
            }
        }
        guard let name else { throw HTTPError(.badRequest, "a part without Content-Disposition: form-data; name") }
        return MultipartPart(name: name, filename: filename, contentType: type, body: [])
    }

    /// `form-data` and its `name` and `filename` parameters, each a token or a quoted string (`\"` escapes a quote).
    private static func disposition(_ value: Substring) throws(HTTPError) -> (name: String?, filename: String?) {
        var rest = value.utf8[...]
        func skipSpace() { while let c = rest.first, c == 0x20 || c == 0x09 { rest = rest.dropFirst() } }
        func token() -> [UInt8] {
            var out: [UInt8] = []
            while let c = rest.first, CharacterClass.isTokenByte(c) {
                out.append(c)
                rest = rest.dropFirst()
            }
            return out
        }
        let kind = token()
        guard asciiEqualIgnoringCase(kind, "form-data".utf8) else {
            throw HTTPError(.badRequest, "a part that is not form-data")
        }
        var name: String?
        var filename: String?
        while true {
            skipSpace()
            guard let c = rest.first else { break }
            guard c == UInt8(ascii: ";") else { throw HTTPError(.badRequest, "invalid Content-Disposition") }
            rest = rest.dropFirst()
            skipSpace()
            let key = token()
            skipSpace()
            guard !key.isEmpty, rest.first == UInt8(ascii: "=") else {
                throw HTTPError(.badRequest, "invalid Content-Disposition")
            }
            rest = rest.dropFirst()
            skipSpace()
            var bytes: [UInt8] = []
            if rest.first == UInt8(ascii: "\"") {
                rest = rest.dropFirst()
                var closed = false
                while let c = rest.first {
                    rest = rest.dropFirst()
                    if c == UInt8(ascii: "\"") {
                        closed = true
                        break
                    }
                    if c == UInt8(ascii: "\\"), let escaped = rest.first {
                        bytes.append(escaped)
                        rest = rest.dropFirst()
                        continue
                    }
                    bytes.append(c)
                }
                guard closed else { throw HTTPError(.badRequest, "unterminated quoted string in Content-Disposition") }
            } else {
                bytes = token()
            }
            guard !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
                throw HTTPError(.badRequest, "control characters in Content-Disposition")
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if asciiEqualIgnoringCase(key, "name".utf8) {
                name = text
            } else if asciiEqualIgnoringCase(key, "filename".utf8) {
                // Only the last path component: a name never chooses a folder.
                let last = text.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
                filename = last
            }
        }
        return (name, filename)
    }

    private static func isBoundaryByte(_ b: UInt8) -> Bool {
        switch b {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "+"), UInt8(ascii: "_"),
            UInt8(ascii: ","),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "="),
            UInt8(ascii: "?"),
            UInt8(ascii: " "):
            true
        default: false
        }
    }
}
