import COpenSSL
import CSystem
import HTTP

#if canImport(Glibc)
import Glibc
#endif

/// A small blocking HTTP/1.1 client without Foundation: http, and https
/// through OpenSSL with certificate and host-name verification. Every call
/// has a deadline and a cap on the response size. It blocks, so call it off
/// the event loop (a route that runs on the pool).
public struct HTTPClient: Sendable {
    public struct Response: Sendable {
        public let status: Int
        public let headers: [(String, String)]
        public let body: [UInt8]

        public func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case badURL(String)
        case resolve(String)
        case connect(String)
        case timeout
        case tls(String)
        case tooLarge(Int)
        case malformed(String)

        public var description: String {
            switch self {
            case .badURL(let url): "not an http(s) URL: \(url)"
            case .resolve(let host): "cannot resolve \(host)"
            case .connect(let why): "cannot connect: \(why)"
            case .timeout: "timed out"
            case .tls(let why): "TLS: \(why)"
            case .tooLarge(let cap): "response larger than \(cap) bytes"
            case .malformed(let why): "malformed response: \(why)"
            }
        }
    }

    /// Seconds for the whole exchange, connect to last byte.
    public var timeout: Double
    /// Largest response accepted, head and body.
    public var maxResponseBytes: Int
    /// PEM file of trusted certificates; nil uses the system's.
    public var trustedCertificates: String?
    public var userAgent = "arcade"

    public init(timeout: Double = 5, maxResponseBytes: Int = 1 << 20, trustedCertificates: String? = nil) {
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.trustedCertificates = trustedCertificates
    }

    public func get(_ url: String) -> Result<Response, Failure> {
        guard let target = Target(url) else { return .failure(.badURL(url)) }
        let deadline = csys_monotonic_ns() + Int64(timeout * 1e9)
        let transport: Transport
        switch Socket.connect(host: target.host, port: target.port, deadline: deadline) {
        case .failure(let failure): return .failure(failure)
        case .success(let socket):
            if target.secure {
                switch TLSTransport.open(socket, host: target.host, trusted: trustedCertificates, deadline: deadline) {
                case .failure(let failure): return .failure(failure)
                case .success(let tls): transport = tls
                }
            } else {
                transport = socket
            }
        }
        defer { transport.close() }
        let name = target.host.contains(":") ? "[\(target.host)]" : target.host
        let hostHeader = target.defaultPort ? name : "\(name):\(target.port)"
        let request =
            "GET \(target.path) HTTP/1.1\r\nHost: \(hostHeader)\r\n"
            + "User-Agent: \(userAgent)\r\nAccept: */*\r\nConnection: close\r\n\r\n"
        if let failure = transport.write(Array(request.utf8), deadline: deadline) { return .failure(failure) }
        // The server's parser, in response mode: one HTTP/1.1 grammar and one set of limits for both directions.
        var limits = ParserLimits()
        limits.maxBody = maxResponseBytes
        var parser = RequestParser(responses: limits)
        while true {
            switch transport.read(deadline: deadline) {
            case .failure(let failure): return .failure(failure)
            case .success(let chunk):
                if chunk.isEmpty { return outcome(parser.finish()) ?? .failure(.malformed("no response")) }
                var offset = 0
                while offset < chunk.count {
                    let (used, event) = chunk[offset...].withUnsafeBytes { parser.parse($0) }
                    offset += used
                    if let outcome = outcome(event) { return outcome }
                }
            }
        }
    }

    /// A final response or a failure; nil while more is needed (or after an interim 1xx response).
    private func outcome(_ event: RequestParser.Event) -> Result<Response, Failure>? {
        switch event {
        case .response(let status, _, _) where status < 200: return nil
        case .response(let status, let headers, let body):
            return .success(Response(status: status, headers: headers.map { ($0.name, $0.value) }, body: body))
        case .failure(let error) where error.status == .contentTooLarge: return .failure(.tooLarge(maxResponseBytes))
        case .failure(let error): return .failure(.malformed(error.reason))
        case .needMore, .expectsContinue, .request, .approval: return nil
        }
    }
}

/// An http(s) URL taken apart.
struct Target {
    let secure: Bool
    let host: String
    let port: Int
    let path: String
    var defaultPort: Bool { port == (secure ? 443 : 80) }

    init?(_ url: String) {
        let lower = url.lowercased()
        if lower.hasPrefix("https://") {
            secure = true
        } else if lower.hasPrefix("http://") {
            secure = false
        } else {
            return nil
        }
        let rest = url.dropFirst(secure ? 8 : 7)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var path = String(rest[authorityEnd...])
        if path.isEmpty || path.first == "?" { path = "/" + path }
        guard !authority.isEmpty, !authority.contains("@"), authority.allSatisfy({ $0.isASCII && !$0.isWhitespace }),
            path.allSatisfy({ $0.isASCII && !$0.isWhitespace })
        else { return nil }
        var host = String(authority)
        var port = secure ? 443 : 80
        if authority.first == "[" {  // [IPv6]:port
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if after.first == ":" {
                guard let p = Int(after.dropFirst()), (1...65535).contains(p) else { return nil }
                port = p
            }
        } else if let colon = authority.lastIndex(of: ":") {
            guard let p = Int(authority[authority.index(after: colon)...]), (1...65535).contains(p) else { return nil }
            host = String(authority[..<colon])
            port = p
        }
        guard !host.isEmpty else { return nil }
        self.host = host
        self.port = port
        self.path = path
    }
}
