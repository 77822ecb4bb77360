import HTTP

#if canImport(Glibc)
import Glibc
#endif

/// Who a request comes from: one trust model for every use of the client's address (per-address limits, the
/// loopback check of `/metrics`, the access log, the audit log).
/// - Only the one header the operator names is read (`header`; none by default): a proxy sets that one, and any
///   other a client sent is passed on by it untouched, so reading two would let the client's win.
/// - It is read only from a trusted proxy's connection (anyone else can send it), and the client is the rightmost
///   hop in it that is not itself a trusted proxy, since every address left of it was written by someone we cannot
///   check.
/// - A hop that is no address (`unknown`, a name, garbage) is not trusted either: the walk stops there and the
///   client is the hop to its right, the trusted proxy that passed it on.
public struct TrustedProxies: Sendable, Equatable {
    /// The headers a proxy may name the client in.
    public enum Header: String, Sendable, CaseIterable {
        /// RFC 7239: `for=` of each element.
        case forwarded = "Forwarded"
        /// Comma-separated addresses, the nearest hop last.
        case xForwardedFor = "X-Forwarded-For"
        /// One address.
        case xRealIP = "X-Real-IP"

        /// Any spelling of a name above.
        public init?(name: String) {
            guard let header = Self.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
                return nil
            }
            self = header
        }
    }

    struct Network: Sendable, Equatable {
        let bytes: [UInt8]
        let prefix: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var bits = prefix
            for (a, b) in zip(address, bytes) where bits > 0 {
                let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
                if a & mask != b & mask { return false }
                bits -= 8
            }
            return true
        }
    }

    let networks: [Network]
    /// The header that names the client; nil: none is read, the peer is the client.
    public var header: Header?

    public init() { networks = [] }

    /// Loopback: where a proxy on the same machine connects from (the default when a header is named).
    public static let loopback = TrustedProxies(parsing: "127.0.0.0/8,::1")!

    /// `CIDR,CIDR,…` (an address alone is a /32 or /128); nil if any part does not parse.
    public init?(parsing text: String) {
        var networks: [Network] = []
        for part in text.split(separator: ",") {
            let piece = part.trimmingSpaces
            let halves = piece.split(separator: "/", maxSplits: 1)
            guard let bytes = Self.bytes(String(halves[0])) else { return nil }
            let prefix = halves.count == 2 ? Int(halves[1]) : bytes.count * 8
            guard let prefix, (0...bytes.count * 8).contains(prefix) else { return nil }
            networks.append(Network(bytes: bytes, prefix: prefix))
        }
        self.networks = networks
    }

    public var isEmpty: Bool { networks.isEmpty }

    public func isTrusted(_ address: String) -> Bool {
        guard !networks.isEmpty, let bytes = Self.bytes(address) else { return false }
        return networks.contains { $0.contains(bytes) }
    }

    /// The client a request comes from: the peer, or, from a trusted proxy, who it says it forwards for.
    public func client(peer: String, headers: HTTPHeaders) -> String {
        guard let header, isTrusted(peer) else { return peer }
        let values = headers.values(header.rawValue)
        let hops = header == .forwarded ? Self.forwarded(values) : Self.forwardedFor(values)
        var client = peer
        for hop in hops.reversed() {
            // No address ("unknown", a name, garbage): untrusted, and no client to count; the proxy that passed it
            // on is all we know.
            guard let bytes = Self.bytes(hop) else { return client }
            client = Self.text(bytes)
            if !networks.contains(where: { $0.contains(bytes) }) { return client }
        }
        return client
    }

    static func forwardedFor(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",").map { String($0.trimmingSpaces) } }
    }

    /// `for=` of each element of RFC 7239 `Forwarded` values: quotes, `[v6]` and ports taken off.
    static func forwarded(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { element -> String in
            for pair in element.split(separator: ";") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                guard kv.count == 2, kv[0].trimmingSpaces.lowercased() == "for" else { continue }
                var value = Substring(kv[1].trimmingSpaces)
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                    value = value.dropFirst().dropLast()
                }
                if value.hasPrefix("["), let end = value.firstIndex(of: "]") {
                    return String(value[value.index(after: value.startIndex)..<end])
                }
                if value.filter({ $0 == ":" }).count == 1, let colon = value.firstIndex(of: ":") {
                    return String(value[..<colon])
                }
                return String(value)
            }
            return ""
        }
    }

    /// 4 or 16 bytes; an IPv4-mapped IPv6 address is its IPv4 one.
    static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: v4) { Array($0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return Array(bytes[12...]) }
        return bytes
    }

    static func text(_ bytes: [UInt8]) -> String {
        var out = [CChar](repeating: 0, count: 64)
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &out, socklen_t(out.count)) }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var s = self
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return s
    }
}
