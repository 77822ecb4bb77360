import HTTP

#if canImport(Glibc)
import Glibc
#endif

/// The plain-HTTP listener beside an HTTPS one: every request gets `308` to the same target on HTTPS, except ACME
/// HTTP-01 challenges (served from the webroot `certbot certonly --webroot -w DIR` writes them to) and the paths
/// `passed` to `inner`, such as a load balancer's health check.
public struct HTTPSRedirect: Responder {
    static let challengePrefix = "/.well-known/acme-challenge/"

    let httpsPort: Int
    /// `--public-host`: the site's own name, used instead of the request's Host (which the client chose).
    let publicHost: String?
    let challenges: StaticFiles?
    let passed: Set<String>
    let inner: any Responder

    /// `acmeDirectory` is the webroot; its `.well-known/acme-challenge` folder is made (and the webroot) if missing.
    public init(
        httpsPort: Int, publicHost: String? = nil, acmeDirectory: String?, passing passed: Set<String> = [],
        to inner: any Responder
    ) throws {
        self.httpsPort = httpsPort
        self.publicHost = publicHost
        self.passed = passed
        self.inner = inner
        if let acmeDirectory {
            var path = ""
            for part in [acmeDirectory, "/.well-known", "/acme-challenge"] {
                path += part
                if mkdir(path, 0o755) != 0 && errno != EEXIST { throw SystemError("mkdir \(path)") }
            }
            challenges = try StaticFiles(root: path, cacheControl: "no-store")
        } else {
            challenges = nil
        }
    }

    public func handler(for request: inout Request) -> Handler {
        let path = request.rawPath
        if passed.contains(String(path)) { return inner.handler(for: &request) }
        if path.hasPrefix(Self.challengePrefix) {
            guard let challenges else { return .loop { _ in .error(.notFound) } }
            request = request.retargeted("/" + path.dropFirst(Self.challengePrefix.count))
            return .loop { challenges.respond(to: $0) }
        }
        let location =
            "https://" + (publicHost ?? Self.host(request.headers["Host"])) + (httpsPort == 443 ? "" : ":\(httpsPort)")
            + (request.target.hasPrefix("/") ? request.target : "/")
        return .loop { _ in .redirect(to: location, status: Status(code: 308)) }
    }

    /// The Host header without its port; a missing or malformed one (it must be a name or an IP literal) gives
    /// `localhost`, so the redirect can never point at something other than a host.
    static func host(_ header: String?) -> String {
        guard var host = header, !host.isEmpty else { return "localhost" }
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return "localhost" }
            host = String(host[...close])
        } else if let colon = host.firstIndex(of: ":") {
            host = String(host[..<colon])
        }
        let allowed = host.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                || c == 0x2D || c == 0x2E || c == 0x3A || c == 0x5B || c == 0x5D
        }
        return allowed && !host.isEmpty ? host : "localhost"
    }
}
