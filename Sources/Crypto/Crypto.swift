import COpenSSL

/// Cryptographic building blocks from OpenSSL.
public enum Crypto {
    /// Bytes from OpenSSL's CSPRNG; traps if it cannot deliver (nothing is
    /// safe to do without randomness).
    public static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        precondition(RAND_bytes(&bytes, Int32(count)) == 1, "RAND_bytes failed")
        return bytes
    }

    /// HMAC-SHA256 of a message.
    public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { k in
            message.withUnsafeBytes { m in
                HMAC(EVP_sha256(), k.baseAddress, Int32(key.count), m.baseAddress?.assumingMemoryBound(to: UInt8.self),
                     message.count, &out, &length)
            }
        }
        precondition(result != nil, "HMAC failed")
        return Array(out.prefix(Int(length)))
    }

    /// PBKDF2-HMAC-SHA256 (for passwords; OWASP asks for ≥ 600,000 iterations).
    public static func pbkdf2SHA256(password: [UInt8], salt: [UInt8], iterations: Int, length: Int = 32) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: length)
        let ok = password.withUnsafeBytes { p in
            PKCS5_PBKDF2_HMAC(p.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(password.count), salt, Int32(salt.count),
                              Int32(iterations), EVP_sha256(), Int32(length), &out)
        }
        precondition(ok == 1, "PBKDF2 failed")
        return out
    }

    /// Compares in time that depends only on the length.
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return CRYPTO_memcmp(a, b, a.count) == 0
    }
}

/// URL- and cookie-safe base64 without padding (RFC 4648 §5).
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let reverse: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = Int8(i) }
        return table
    }()

    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var i = 0
        while i + 2 < bytes.count {
            let n = Int(bytes[i]) << 16 | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2])
            out += [alphabet[n >> 18 & 63], alphabet[n >> 12 & 63], alphabet[n >> 6 & 63], alphabet[n & 63]]
            i += 3
        }
        if bytes.count - i == 1 {
            let n = Int(bytes[i]) << 16
            out += [alphabet[n >> 18 & 63], alphabet[n >> 12 & 63]]
        } else if bytes.count - i == 2 {
            let n = Int(bytes[i]) << 16 | Int(bytes[i + 1]) << 8
            out += [alphabet[n >> 18 & 63], alphabet[n >> 12 & 63], alphabet[n >> 6 & 63]]
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Nil for anything but canonical unpadded base64url.
    public static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        var buffer = 0, bits = 0
        for c in chars {
            let v = reverse[Int(c)]
            guard v >= 0 else { return nil }
            buffer = buffer << 6 | Int(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(buffer >> bits & 0xFF))
            }
        }
        // Leftover bits must be zero, so each byte string has one encoding.
        guard buffer & ((1 << bits) - 1) == 0 else { return nil }
        return out
    }
}

/// Values signed with HMAC-SHA256: `value.signature`, both base64url.
public struct Signer: Sendable {
    private let key: [UInt8]

    public init(key: [UInt8]) {
        precondition(key.count >= 32, "a signing key needs at least 256 bits")
        self.key = key
    }

    public func sign(_ value: String) -> String {
        let payload = Base64URL.encode(Array(value.utf8))
        return payload + "." + Base64URL.encode(Crypto.hmacSHA256(key: key, message: Array(payload.utf8)))
    }

    /// The value, if the signature is genuine; nil for anything tampered or malformed.
    public func verify(_ signed: String) -> String? {
        let parts = signed.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count <= 4096, let signature = Base64URL.decode(String(parts[1])),
              Crypto.constantTimeEqual(signature, Crypto.hmacSHA256(key: key, message: Array(parts[0].utf8))),
              let bytes = Base64URL.decode(String(parts[0])) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}
