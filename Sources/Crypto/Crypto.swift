import COpenSSL
import Synchronization

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
        hmac(EVP_sha256(), key: key, message: message)
    }

    /// HMAC-SHA1: only for one-time passwords (RFC 6238), which authenticator apps compute with SHA-1.
    public static func hmacSHA1(key: [UInt8], message: [UInt8]) -> [UInt8] {
        hmac(EVP_sha1(), key: key, message: message)
    }

    private static func hmac(_ digest: OpaquePointer?, key: [UInt8], message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { k in
            message.withUnsafeBytes { m in
                HMAC(
                    digest, k.baseAddress, Int32(key.count), m.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    message.count, &out, &length)
            }
        }
        precondition(result != nil, "HMAC failed")
        return Array(out.prefix(Int(length)))
    }

    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        precondition(EVP_Digest(bytes, bytes.count, &out, &length, EVP_sha256(), nil) == 1, "SHA-256 failed")
        return out
    }

    /// PBKDF2-HMAC-SHA256 (for passwords; OWASP asks for ≥ 600,000 iterations).
    public static func pbkdf2SHA256(password: [UInt8], salt: [UInt8], iterations: Int, length: Int = 32) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: length)
        let ok = password.withUnsafeBytes { p in
            PKCS5_PBKDF2_HMAC(
                p.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(password.count), salt, Int32(salt.count),
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

/// OpenSSL's CSPRNG as a Swift random number generator. The standard
/// library's `random(in:)` over it rejects out-of-range draws, so ranges
/// come out uniform, with no modulo bias.
public struct SecureRandom: RandomNumberGenerator, Sendable {
    public init() {}

    public mutating func next() -> UInt64 {
        var value: UInt64 = 0
        withUnsafeMutableBytes(of: &value) {
            precondition(RAND_bytes($0.baseAddress!.assumingMemoryBound(to: UInt8.self), 8) == 1)
        }
        return value
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
        var text = text
        return text.withUTF8 { chars -> [UInt8]? in
            guard chars.count % 4 != 1 else { return nil }
            return reverse.withUnsafeBufferPointer { table -> [UInt8]? in
                var out: [UInt8] = []
                out.reserveCapacity(chars.count * 3 / 4)
                var buffer = 0
                var bits = 0
                for c in chars {
                    let v = table[Int(c)]
                    guard v >= 0 else { return nil }
                    buffer = (buffer << 6 | Int(v)) & 0xFFFFFF
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
    }
}

/// An HMAC-SHA256 key prepared once (RFC 2104): OpenSSL's SHA-256 states
/// after the inner and outer padded key, copied by value for each message.
/// OpenSSL 3's one-shot HMAC() fetches the digest on every call, which
/// costs more than the hashing itself on the path of every page.
public struct HMACKey: Sendable {
    private let inner: SHA256_CTX
    private let outer: SHA256_CTX

    public init(_ key: [UInt8]) {
        var block = key.count > 64 ? Crypto.sha256(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let ipad = block.map { $0 ^ 0x36 }
        let opad = block.map { $0 ^ 0x5C }
        var inner = SHA256_CTX()
        var outer = SHA256_CTX()
        precondition(
            SHA256_Init(&inner) == 1 && SHA256_Update(&inner, ipad, 64) == 1
                && SHA256_Init(&outer) == 1 && SHA256_Update(&outer, opad, 64) == 1, "SHA-256 unavailable")
        self.inner = inner
        self.outer = outer
    }

    public func authenticate(_ message: UnsafeRawBufferPointer) -> [UInt8] {
        var ctx = inner
        var innerHash = [UInt8](repeating: 0, count: 32)
        _ = SHA256_Update(&ctx, message.baseAddress, message.count)
        _ = SHA256_Final(&innerHash, &ctx)
        ctx = outer
        return [UInt8](unsafeUninitializedCapacity: 32) { mac, count in
            _ = SHA256_Update(&ctx, innerHash, 32)
            _ = SHA256_Final(mac.baseAddress, &ctx)
            count = 32
        }
    }

    public func authenticate(_ message: [UInt8]) -> [UInt8] { message.withUnsafeBytes { authenticate($0) } }

    public func authenticate(_ message: String) -> [UInt8] {
        var message = message
        return message.withUTF8 { authenticate(UnsafeRawBufferPointer($0)) }
    }
}

/// Values signed with HMAC-SHA256: `value.signature`, both base64url.
/// Nothing is remembered here: the site keeps returning visitors' verified cookies once, in `Identity`.
public struct Signer: Sendable {
    private let key: HMACKey

    public init(key: [UInt8]) {
        precondition(key.count >= 32, "a signing key needs at least 256 bits")
        self.key = HMACKey(key)
    }

    public func sign(_ value: String) -> String {
        let payload = Base64URL.encode(Array(value.utf8))
        return payload + "." + Base64URL.encode(key.authenticate(payload))
    }

    /// The value, if the signature is genuine; nil for anything tampered or malformed.
    public func verify(_ signed: String) -> String? {
        let utf8 = signed.utf8
        guard let dot = utf8.firstIndex(of: UInt8(ascii: ".")), utf8.distance(from: utf8.startIndex, to: dot) <= 4096
        else { return nil }
        let payload = String(signed[..<dot])
        let signatureText = String(signed[utf8.index(after: dot)...])
        guard let signature = Base64URL.decode(signatureText),
            Crypto.constantTimeEqual(signature, key.authenticate(payload)),
            let bytes = Base64URL.decode(payload)
        else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}

/// A thread-safe map that forgets everything when it grows past its limit:
/// enough to keep the hot entries of a cache without unbounded memory.
/// Inlinable, so each use is specialized for its types (unspecialized, a lookup costs more than the hashing).
public final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline let storage = Mutex<[Key: Value]>([:])
    @usableFromInline let limit: Int

    public init(limit: Int) { self.limit = limit }

    @inlinable public subscript(key: Key) -> Value? {
        get { storage.withLock { $0[key] } }
        set {
            storage.withLock {
                if $0.count >= limit { $0.removeAll(keepingCapacity: true) }
                $0[key] = newValue
            }
        }
    }
}

extension BoundedCache {
    /// Forgets everything (the data changed somewhere this cache cannot tell).
    @inlinable public func removeAll() { storage.withLock { $0.removeAll(keepingCapacity: true) } }

    /// Forgets the entries whose key `drop` accepts.
    @inlinable public func removeAll(where drop: (Key) -> Bool) {
        storage.withLock { entries in entries = entries.filter { !drop($0.key) } }
    }
}

extension BoundedCache where Value: Equatable {
    /// Drops the entry only while it still holds `value`, not a newer one set since.
    @inlinable public func remove(_ key: Key, ifStill value: Value) {
        storage.withLock { if $0[key] == value { $0[key] = nil } }
    }
}
