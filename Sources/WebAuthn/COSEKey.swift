import COpenSSL

/// A credential public key in COSE form (RFC 9052/9053), as authenticators send it: ES256 on P-256, or RS256.
public struct COSEKey: Sendable {
    /// The COSE algorithm: -7 (ES256) or -257 (RS256).
    public let algorithm: Int
    private let key: PublicKey

    /// Enough for an 8192-bit RSA modulus; a stored key is never larger.
    static let maxSize = 2048

    public init(cbor bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count <= Self.maxSize else { throw WebAuthnError(.tooLarge) }
        try self.init(item: try CBORDecoder.decode(bytes))
    }

    /// From an item already decoded (the one in authenticator data).
    init(item: CBOR) throws(WebAuthnError) {
        guard let pairs = item.pairs else { throw WebAuthnError(.malformed) }
        // A handful of parameters in practice; the bound keeps the duplicate check below cheap.
        guard pairs.count <= 16 else { throw WebAuthnError(.tooLarge) }
        // A repeated label would let two parties read two different keys from the same bytes.
        for i in pairs.indices where pairs[(i + 1)...].contains(where: { $0.0 == pairs[i].0 }) {
            throw WebAuthnError(.malformed)
        }
        guard let kty = item[.unsigned(1)]?.int, let alg = item[.unsigned(3)]?.int else {
            throw WebAuthnError(.malformed)
        }
        switch (kty, alg) {
        case (2, -7):
            guard item[.negative(0)]?.int == 1 else { throw WebAuthnError(.unsupportedAlgorithm) }  // crv P-256
            guard let x = item[.negative(1)]?.bytes, let y = item[.negative(2)]?.bytes, x.count == 32, y.count == 32
            else { throw WebAuthnError(.badKey) }
            // SubjectPublicKeyInfo of id-ecPublicKey on prime256v1, then the uncompressed point.
            let prefix: [UInt8] = [
                0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a,
                0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00, 0x04,
            ]
            key = try PublicKey(der: prefix + x + y)
        case (3, -257):
            guard let n = item[.negative(0)]?.bytes, let e = item[.negative(1)]?.bytes else {
                throw WebAuthnError(.badKey)
            }
            let modulus = Array(n.drop { $0 == 0 })
            let exponent = Array(e.drop { $0 == 0 })
            // 2048 bits at least (weaker keys are breakable), 4096 at most (no authenticator makes more, and larger
            // keys cost the server more per check); an odd exponent of at least 3.
            guard modulus.count <= 512, modulus.last.map({ $0 & 1 == 1 }) == true, let last = exponent.last,
                last & 1 == 1,
                exponent.count <= 32,
                exponent.count > 1 || last >= 3
            else { throw WebAuthnError(.badKey) }
            let rsaEncryption: [UInt8] = [0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00]
            let rsaKey = DER.tlv(0x30, DER.integer(modulus) + DER.integer(exponent))
            // No public check for RSA: OpenSSL's tests the modulus for primality, which a prime of 8192 bits made take
            // 0.7 s of CPU per request (an attacker's review); a bad modulus only ever fails its signatures.
            key = try PublicKey(
                der: DER.tlv(0x30, DER.tlv(0x30, rsaEncryption) + DER.tlv(0x03, [0] + rsaKey)), check: false)
            guard EVP_PKEY_get_bits(key.pointer) >= 2048 else { throw WebAuthnError(.badKey) }
        default:
            throw WebAuthnError(.unsupportedAlgorithm)
        }
        algorithm = alg
    }

    /// Whether `signature` is this key's SHA-256 signature of `message`: DER-encoded ECDSA for ES256, PKCS #1 v1.5
    /// for RS256, as WebAuthn sends them.
    public func verify(signature: [UInt8], message: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        // Failures leave errors on the thread's queue, where later OpenSSL users would misread them as their own.
        defer {
            EVP_MD_CTX_free(context)
            ERR_clear_error()
        }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key.pointer) == 1 else { return false }
        return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
    }
}

/// An OpenSSL public key, freed with its last user. Verification only reads it, so sharing across threads is safe.
private final class PublicKey: @unchecked Sendable {
    let pointer: OpaquePointer

    /// From a DER SubjectPublicKeyInfo; OpenSSL refuses an EC point off the curve, and the public check (`check`)
    /// repeats that.
    init(der: [UInt8], check checked: Bool = true) throws(WebAuthnError) {
        defer { ERR_clear_error() }
        let parsed = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            let key = d2i_PUBKEY(nil, &cursor, buffer.count)
            guard cursor == buffer.baseAddress.map({ $0 + buffer.count }) else {
                EVP_PKEY_free(key)
                return nil
            }
            return key
        }
        guard let parsed else { throw WebAuthnError(.badKey) }
        pointer = parsed
        guard checked else { return }
        guard let check = EVP_PKEY_CTX_new_from_pkey(nil, parsed, nil) else { throw WebAuthnError(.badKey) }
        defer { EVP_PKEY_CTX_free(check) }
        guard EVP_PKEY_public_check(check) == 1 else { throw WebAuthnError(.badKey) }
    }

    deinit { EVP_PKEY_free(pointer) }
}

/// Just enough DER to wrap an RSA modulus and exponent in a SubjectPublicKeyInfo.
private enum DER {
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var length: [UInt8] = []
        var n = content.count
        if n < 128 {
            length = [UInt8(n)]
        } else {
            while n > 0 {
                length.insert(UInt8(n & 0xff), at: 0)
                n >>= 8
            }
            length.insert(0x80 | UInt8(length.count), at: 0)
        }
        return [tag] + length + content
    }

    /// A positive INTEGER from its minimal big-endian magnitude (non-empty).
    static func integer(_ magnitude: [UInt8]) -> [UInt8] {
        tlv(0x02, magnitude[0] & 0x80 != 0 ? [0] + magnitude : magnitude)
    }
}
