#if canImport(Glibc)
import Glibc
#endif

/// What per-address limits count a client under. An IPv4 address is one client; an IPv6 client is its /64, since
/// one subscriber is routinely given a whole /64 and could otherwise take a fresh address for every try.
public enum ClientAddress {
    /// `2001:db8:1:2::/64` for any address in that /64, an IPv4 (or IPv4-mapped) address as dotted text, anything
    /// else (no address) as it is.
    public static func limitKey(_ address: String) -> String {
        guard address.utf8.contains(UInt8(ascii: ":")) else { return address }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return address }
        var bytes = withUnsafeBytes(of: v6) { Array($0) }
        let family: Int32
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            bytes = Array(bytes[12...])
            family = AF_INET
        } else {
            for i in 8..<16 { bytes[i] = 0 }
            family = AF_INET6
        }
        var out = [CChar](repeating: 0, count: 64)
        _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &out, socklen_t(out.count)) }
        let text = String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return family == AF_INET ? text : text + "/64"
    }
}
