/// The cookies a request carries (RFC 6265 §5.4), in the order sent. A request has a handful, so a list searched in
/// order is cheaper to build and to read than a hash table.
public struct Cookies: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    private var pairs: [(name: String, value: String)] = []

    public init() {}

    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements where self[name] == nil { pairs.append((name, value)) }
    }

    /// The first value sent under that name.
    public subscript(name: String) -> String? {
        for pair in pairs where pair.name == name { return pair.value }
        return nil
    }

    public var count: Int { pairs.count }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { pairs.makeIterator() }

    /// The same cookies, whatever their order.
    public static func == (a: Cookies, b: Cookies) -> Bool {
        a.count == b.count && a.pairs.allSatisfy { b[$0.name] == $0.value }
    }

    /// Name-value pairs from every `Cookie` header. The first occurrence of a
    /// name wins; pairs without `=` and empty names are skipped; values keep
    /// their bytes, with one pair of surrounding quotes removed.
    public static func parse(_ headers: [String]) -> Cookies {
        var result = Cookies()
        for header in headers {
            var header = header
            header.withUTF8 { result.parse($0) }
        }
        return result
    }

    /// The cookies of a request's `Cookie` fields, read from the header bytes.
    static func parse(_ headers: HTTPHeaders) -> Cookies {
        var result = Cookies()
        // A site's visitors carry a few cookies: room for them at once, not grown one by one.
        result.pairs.reserveCapacity(4)
        headers.forEachValue(of: "Cookie") { result.parse($0) }
        return result
    }

    private mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) {
        var i = 0
        while i < bytes.count {
            let end = firstIndex(of: UInt8(ascii: ";"), in: bytes, from: i, to: bytes.count) ?? bytes.count
            parsePair(bytes, i, end)
            i = end + 1
        }
    }

    // One `name=value` pair, trimmed, with one pair of quotes removed.
    private mutating func parsePair(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
        let eq = firstIndex(of: UInt8(ascii: "="), in: bytes, from: start, to: end) ?? end
        guard eq < end else { return }
        var nameStart = start
        var nameEnd = eq
        while nameStart < nameEnd && isSpace(bytes[nameStart]) { nameStart += 1 }
        while nameEnd > nameStart && isSpace(bytes[nameEnd - 1]) { nameEnd -= 1 }
        guard nameEnd > nameStart else { return }
        var valueStart = eq + 1
        var valueEnd = end
        while valueStart < valueEnd && isSpace(bytes[valueStart]) { valueStart += 1 }
        while valueEnd > valueStart && isSpace(bytes[valueEnd - 1]) { valueEnd -= 1 }
        if valueEnd - valueStart >= 2 && bytes[valueStart] == UInt8(ascii: "\"")
            && bytes[valueEnd - 1] == UInt8(ascii: "\"")
        {
            valueStart += 1
            valueEnd -= 1
        }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd]), as: UTF8.self)
        if self[name] == nil {
            pairs.append(
                (name, String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<valueEnd]), as: UTF8.self)))
        }
    }
}

/// A `Set-Cookie` header value with its attributes (RFC 6265 §4.1).
public struct SetCookie: Sendable, Equatable {
    public enum SameSite: String, Sendable { case strict = "Strict", lax = "Lax", none = "None" }

    public var name: String
    public var value: String
    public var path: String? = "/"
    public var domain: String?
    /// Seconds; zero or less deletes the cookie.
    public var maxAge: Int?
    public var secure = false
    public var httpOnly = true
    public var sameSite: SameSite? = .lax

    public init(
        name: String, value: String, path: String? = "/", domain: String? = nil, maxAge: Int? = nil,
        secure: Bool = false, httpOnly: Bool = true, sameSite: SameSite? = .lax
    ) {
        precondition(SetCookie.isToken(name), "cookie name must be a token")
        precondition(SetCookie.isCookieValue(value), "cookie value has a forbidden byte")
        self.name = name
        self.value = value
        self.path = path
        self.domain = domain
        self.maxAge = maxAge
        self.secure = secure
        self.httpOnly = httpOnly
        self.sameSite = sameSite
    }

    /// A cookie that tells the browser to forget `name`.
    public static func expired(_ name: String, path: String? = "/") -> SetCookie {
        SetCookie(name: name, value: "", path: path, maxAge: 0)
    }

    public var headerValue: String {
        var s = name + "=" + value
        if let path { s += "; Path=" + path }
        if let domain { s += "; Domain=" + domain }
        if let maxAge { s += "; Max-Age=\(max(0, maxAge))" }
        if secure || sameSite == SameSite.none { s += "; Secure" }
        if httpOnly { s += "; HttpOnly" }
        if let sameSite { s += "; SameSite=" + sameSite.rawValue }
        return s
    }

    static func isToken(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { CharacterClass.isTokenByte($0) }
    }

    /// cookie-octet: no CTLs, whitespace, DQUOTE, comma, semicolon or backslash.
    static func isCookieValue(_ s: String) -> Bool {
        s.utf8.allSatisfy { b in
            b == 0x21 || (0x23...0x2B).contains(b) || (0x2D...0x3A).contains(b) || (0x3C...0x5B).contains(b)
                || (0x5D...0x7E).contains(b)
        }
    }
}
