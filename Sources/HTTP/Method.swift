/// The request methods Arcade serves. Anything else is answered 501.
public enum Method: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case get, head, post, put, delete, patch, options

    public var description: String {
        switch self {
        case .get: "GET"
        case .head: "HEAD"
        case .post: "POST"
        case .put: "PUT"
        case .delete: "DELETE"
        case .patch: "PATCH"
        case .options: "OPTIONS"
        }
    }

    /// Methods are case-sensitive (RFC 9110 §9.1): `get` is not `GET`.
    init?(token: UnsafeRawBufferPointer) {
        func eq(_ s: StaticString) -> Bool {
            s.utf8CodeUnitCount == token.count
                && memcmpEqual(s.utf8Start, token.baseAddress!, token.count)
        }
        switch token.count {
        case 3: if eq("GET") { self = .get } else if eq("PUT") { self = .put } else { return nil }
        case 4: if eq("HEAD") { self = .head } else if eq("POST") { self = .post } else { return nil }
        case 5: if eq("PATCH") { self = .patch } else { return nil }
        case 6: if eq("DELETE") { self = .delete } else { return nil }
        case 7: if eq("OPTIONS") { self = .options } else { return nil }
        default: return nil
        }
    }
}

@inline(__always)
func memcmpEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
    let b = b.assumingMemoryBound(to: UInt8.self)
    for i in 0..<count where a[i] != b[i] { return false }
    return true
}
