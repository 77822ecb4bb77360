@testable import WebAuthn

/// A CBOR encoder for building test messages; the module itself only ever decodes.
func encode(_ item: CBOR) -> [UInt8] {
    func head(_ major: UInt8, _ n: UInt64) -> [UInt8] {
        switch n {
        case 0..<24: return [major << 5 | UInt8(n)]
        case 24..<256: return [major << 5 | 24, UInt8(n)]
        case 256..<65536: return [major << 5 | 25] + bigEndian(n, 2)
        case 65536..<(1 << 32): return [major << 5 | 26] + bigEndian(n, 4)
        default: return [major << 5 | 27] + bigEndian(n, 8)
        }
    }
    switch item {
    case .unsigned(let n): return head(0, n)
    case .negative(let n): return head(1, n)
    case .bytes(let b): return head(2, UInt64(b.count)) + b
    case .text(let t): return head(3, UInt64(t.utf8.count)) + Array(t.utf8)
    case .array(let a): return head(4, UInt64(a.count)) + a.flatMap(encode)
    case .map(let m): return head(5, UInt64(m.count)) + m.flatMap { encode($0.0) + encode($0.1) }
    case .tagged(let tag, let inner): return head(6, tag) + encode(inner)
    case .simple(let v): return v < 24 ? [0xe0 | v] : [0xf8, v]
    case .bool(let b): return [b ? 0xf5 : 0xf4]
    case .null: return [0xf6]
    case .undefined: return [0xf7]
    case .float(let d): return [0xfb] + bigEndian(d.bitPattern, 8)
    }
}

func bigEndian(_ n: UInt64, _ count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: n >> (8 * UInt64(count - 1 - $0))) }
}

/// An integer item from a signed value, as COSE labels are written.
func int(_ n: Int) -> CBOR { n >= 0 ? .unsigned(UInt64(n)) : .negative(UInt64(-1 - n)) }
