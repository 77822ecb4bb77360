/// A CBOR data item (RFC 8949), as much of it as WebAuthn needs and the rest kept rather than refused.
public indirect enum CBOR: Sendable, Equatable {
    case unsigned(UInt64)
    /// The integer -1 - n.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    /// Pairs in the order they were encoded: COSE keys are compared and stored as given.
    case map([(CBOR, CBOR)])
    case tagged(UInt64, CBOR)
    case simple(UInt8)
    case bool(Bool)
    case null
    case undefined
    case float(Double)

    /// Structural equality; floats compare by bit pattern, so NaN equals itself and -0.0 differs from 0.0.
    public static func == (a: CBOR, b: CBOR) -> Bool {
        switch (a, b) {
        case (.unsigned(let x), .unsigned(let y)): return x == y
        case (.negative(let x), .negative(let y)): return x == y
        case (.bytes(let x), .bytes(let y)): return x == y
        case (.text(let x), .text(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.map(let x), .map(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.tagged(let t, let x), .tagged(let u, let y)): return t == u && x == y
        case (.simple(let x), .simple(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.null, .null), (.undefined, .undefined): return true
        case (.float(let x), .float(let y)): return x.bitPattern == y.bitPattern
        default: return false
        }
    }

    /// The value of an integer item that fits an Int (COSE labels and parameters).
    public var int: Int? {
        switch self {
        case .unsigned(let n): return n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): return n <= UInt64(Int.max) ? -1 - Int(n) : nil
        default: return nil
        }
    }

    public var bytes: [UInt8]? { if case .bytes(let b) = self { b } else { nil } }
    public var text: String? { if case .text(let t) = self { t } else { nil } }
    public var pairs: [(CBOR, CBOR)]? { if case .map(let m) = self { m } else { nil } }

    /// The value under a key of a map; nil if absent or not a map.
    public subscript(key: CBOR) -> CBOR? {
        pairs?.first { $0.0 == key }?.1
    }
}

/// A strict CBOR decoder for hostile input: nesting and lengths are bounded and checked against the bytes actually
/// present before anything is allocated, and every malformation throws.
public enum CBORDecoder {
    /// Deep enough for any WebAuthn structure, shallow enough that recursion cannot exhaust the stack.
    public static let maxDepth = 16

    /// Exactly one item filling the whole input.
    public static func decode(_ bytes: [UInt8]) throws(WebAuthnError) -> CBOR {
        let (item, used) = try decodePrefix(bytes[...])
        guard used == bytes.count else { throw WebAuthnError(.malformed) }
        return item
    }

    /// The first item, and how many bytes it took.
    public static func decodePrefix(_ bytes: ArraySlice<UInt8>) throws(WebAuthnError) -> (CBOR, rest: Int) {
        var reader = Reader(bytes: bytes, position: bytes.startIndex)
        let item = try reader.item(depth: 0)
        return (item, reader.position - bytes.startIndex)
    }
}

private struct Reader {
    let bytes: ArraySlice<UInt8>
    var position: Int

    var remaining: Int { bytes.endIndex - position }

    mutating func byte() throws(WebAuthnError) -> UInt8 {
        guard position < bytes.endIndex else { throw WebAuthnError(.malformed) }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func take(_ count: UInt64) throws(WebAuthnError) -> ArraySlice<UInt8> {
        // Compared before converting, so a claimed 2^62 bytes is refused without arithmetic overflow or allocation.
        guard count <= UInt64(remaining) else { throw WebAuthnError(.malformed) }
        let end = position + Int(count)
        defer { position = end }
        return bytes[position..<end]
    }

    mutating func uint(_ size: Int) throws(WebAuthnError) -> UInt64 {
        var value: UInt64 = 0
        for byte in try take(UInt64(size)) { value = value << 8 | UInt64(byte) }
        return value
    }

    /// The argument of a head; nil for indefinite length (additional information 31).
    mutating func argument(_ info: UInt8) throws(WebAuthnError) -> UInt64? {
        switch info {
        case 0..<24: return UInt64(info)
        case 24: return try uint(1)
        case 25: return try uint(2)
        case 26: return try uint(4)
        case 27: return try uint(8)
        case 31: return nil
        default: throw WebAuthnError(.malformed)  // 28–30 are reserved
        }
    }

    mutating func item(depth: Int) throws(WebAuthnError) -> CBOR {
        guard depth <= CBORDecoder.maxDepth else { throw WebAuthnError(.tooLarge) }
        let head = try byte()
        let major = head >> 5
        let info = head & 0x1f
        if major == 7 { return try simple(info) }
        let argument = try argument(info)
        switch major {
        case 0:
            guard let n = argument else { throw WebAuthnError(.malformed) }
            return .unsigned(n)
        case 1:
            guard let n = argument else { throw WebAuthnError(.malformed) }
            return .negative(n)
        case 2:
            return .bytes(try string(major: 2, length: argument))
        case 3:
            let utf8 = try string(major: 3, length: argument)
            guard let text = String(validating: utf8, as: UTF8.self) else { throw WebAuthnError(.malformed) }
            return .text(text)
        case 4:
            var items: [CBOR] = []
            if let count = argument {
                // Every item takes at least one byte: a larger count cannot be honest.
                guard count <= UInt64(remaining) else { throw WebAuthnError(.malformed) }
                items.reserveCapacity(Int(count))
                for _ in 0..<count { items.append(try item(depth: depth + 1)) }
            } else {
                while try !atBreak() { items.append(try item(depth: depth + 1)) }
            }
            return .array(items)
        case 5:
            var pairs: [(CBOR, CBOR)] = []
            if let count = argument {
                guard count <= UInt64(remaining / 2) else { throw WebAuthnError(.malformed) }
                pairs.reserveCapacity(Int(count))
                for _ in 0..<count { pairs.append((try item(depth: depth + 1), try item(depth: depth + 1))) }
            } else {
                while try !atBreak() { pairs.append((try item(depth: depth + 1), try item(depth: depth + 1))) }
            }
            return .map(pairs)
        default:  // 6
            guard let tag = argument else { throw WebAuthnError(.malformed) }
            return .tagged(tag, try item(depth: depth + 1))
        }
    }

    /// True, and the break consumed, when the next byte ends an indefinite-length item.
    mutating func atBreak() throws(WebAuthnError) -> Bool {
        guard position < bytes.endIndex else { throw WebAuthnError(.malformed) }
        guard bytes[position] == 0xff else { return false }
        position += 1
        return true
    }

    /// A byte or text string's bytes; an indefinite one is the concatenation of definite chunks of the same type.
    mutating func string(major: UInt8, length: UInt64?) throws(WebAuthnError) -> [UInt8] {
        if let length { return Array(try take(length)) }
        var out: [UInt8] = []
        while try !atBreak() {
            let head = try byte()
            guard head >> 5 == major, let length = try argument(head & 0x1f) else { throw WebAuthnError(.malformed) }
            let chunk = try take(length)
            // RFC 8949 §3.2.3: a text chunk ends on a code point boundary, so each is valid UTF-8 by itself.
            if major == 3, String(validating: chunk, as: UTF8.self) == nil { throw WebAuthnError(.malformed) }
            out += chunk
        }
        return out
    }

    mutating func simple(_ info: UInt8) throws(WebAuthnError) -> CBOR {
        switch info {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 23: return .undefined
        case 0..<20: return .simple(info)
        case 24:
            let value = try byte()
            guard value >= 32 else { throw WebAuthnError(.malformed) }  // RFC 8949 §3.3: not well-formed
            return .simple(value)
        case 25: return .float(Self.half(UInt16(try uint(2))))
        case 26: return .float(Double(Float(bitPattern: UInt32(try uint(4)))))
        case 27: return .float(Double(bitPattern: try uint(8)))
        default: throw WebAuthnError(.malformed)  // reserved, or a break outside an indefinite-length item
        }
    }

    /// IEEE 754 binary16, by hand: Float16 is not available on every platform Swift builds for.
    static func half(_ bits: UInt16) -> Double {
        let exponent = Int(bits >> 10 & 0x1f)
        let mantissa = Double(bits & 0x3ff)
        let magnitude: Double
        switch exponent {
        case 0: magnitude = mantissa * 0x1p-24
        case 31: magnitude = mantissa == 0 ? .infinity : .nan
        default: magnitude = (1 + mantissa / 1024) * Double(sign: .plus, exponent: exponent - 15, significand: 1)
        }
        return bits & 0x8000 != 0 ? -magnitude : magnitude
    }
}
