/// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP) as authenticator apps make them: HMAC-SHA1,
/// six digits, 30-second steps.
public enum OneTimePassword {
    public static let digits = 6
    public static let period = 30

    /// The time step a moment falls in.
    public static func step(at seconds: Int) -> Int64 { Int64(seconds / period) }

    /// The code for one step (RFC 4226 §5.3: dynamic truncation of the HMAC).
    public static func code(secret: [UInt8], step: Int64, digits: Int = digits) -> String {
        let counter = (0..<8).reversed().map { UInt8(truncatingIfNeeded: UInt64(bitPattern: step) >> ($0 * 8)) }
        let mac = Crypto.hmacSHA1(key: secret, message: counter)
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let binary =
            UInt32(mac[offset] & 0x7F) << 24 | UInt32(mac[offset + 1]) << 16 | UInt32(mac[offset + 2]) << 8
            | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let text = String(binary % modulus)
        return String(repeating: "0", count: digits - text.count) + text
    }

    /// The step a typed code matches, within one step either side of `seconds` (clocks drift), and only a step
    /// after `usedStep` (each code works once); nil otherwise. Every candidate is compared in constant time.
    public static func matchingStep(
        _ typed: String, secret: [UInt8], at seconds: Int, after usedStep: Int64?
    )
        -> Int64?
    {
        let typed = typed.filter { $0 != " " }
        guard typed.utf8.count == digits, typed.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let now = step(at: seconds)
        var found: Int64?
        for candidate in (now - 1)...(now + 1) {
            let equal = Crypto.constantTimeEqual(Array(code(secret: secret, step: candidate).utf8), Array(typed.utf8))
            if equal && candidate > (usedStep ?? Int64.min) && found == nil { found = candidate }
        }
        return found
    }
}

/// RFC 4648 base32 (upper case, no padding), the form authenticator apps take a secret in.
public enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8 | Int(byte)) & 0xFFFF
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(alphabet[buffer >> bits & 31])
            }
        }
        if bits > 0 { out.append(alphabet[buffer << (5 - bits) & 31]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Case, spaces and padding are forgiven (people copy secrets by hand); nil for any other character.
    public static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var buffer = 0
        var bits = 0
        for c in text.uppercased().utf8 where c != 0x20 && c != 0x3D {
            guard let value = alphabet.firstIndex(of: c) else { return nil }
            buffer = (buffer << 5 | value) & 0xFFFF
            bits += 5
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(buffer >> bits & 0xFF))
            }
        }
        return out
    }
}
