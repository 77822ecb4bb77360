import Testing

@testable import Crypto

func hex(_ bytes: [UInt8]) -> String { bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }

@Suite("Crypto")
struct CryptoTests {
    @Test func hmacMatchesRFC4231() {
        // RFC 4231 test case 2.
        let mac = Crypto.hmacSHA256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(hex(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func preparedKeysMatchOneShotHMAC() {
        for keyLength in [0, 4, 32, 64, 65, 200] {
            let key = (0..<keyLength).map { UInt8(truncatingIfNeeded: $0 &* 13) }
            for message in ["", "a", String(repeating: "xyz", count: 100)] {
                #expect(
                    HMACKey(key).authenticate(message) == Crypto.hmacSHA256(key: key, message: Array(message.utf8)),
                    "key \(keyLength), message \(message.count)")
            }
        }
        #expect(
            hex(HMACKey(Array("Jefe".utf8)).authenticate("what do ya want for nothing?"))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func pbkdf2MatchesKnownVector() {
        // RFC 7914 §11 (PBKDF2-HMAC-SHA256, "passwd"/"salt", 1 iteration, 64 bytes).
        let key = Crypto.pbkdf2SHA256(
            password: Array("passwd".utf8), salt: Array("salt".utf8), iterations: 1, length: 64)
        #expect(hex(key).hasPrefix("55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"))
    }

    @Test func randomBytesDiffer() {
        let a = Crypto.randomBytes(32)
        let b = Crypto.randomBytes(32)
        #expect(a.count == 32 && a != b)
    }

    @Test func base64urlRoundTripsAndRejectsNonCanonical() {
        for n in 0..<40 {
            let bytes = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
        #expect(Base64URL.encode(Array("hi?".utf8)) == "aGk_")
        #expect(Base64URL.decode("aGk/") == nil)
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("aGk") == Array("hi".utf8))
        #expect(Base64URL.decode("aGl") == nil, "non-zero leftover bits")
    }

    @Test func signedValuesResistTampering() {
        let signer = Signer(key: Crypto.randomBytes(32))
        let signed = signer.sign("player-123")
        #expect(signer.verify(signed) == "player-123")
        let other = Signer(key: Crypto.randomBytes(32))
        #expect(other.verify(signed) == nil, "forged with another key")
        var bytes = Array(signed.utf8)
        bytes[2] ^= 1
        #expect(signer.verify(String(decoding: bytes, as: UTF8.self)) == nil)
        #expect(
            signer.verify(Base64URL.encode(Array("player-999".utf8)) + "." + signed.split(separator: ".")[1]) == nil)
        for junk in ["", ".", "a.b.c", "player-123", "%%%.%%%"] { #expect(signer.verify(junk) == nil) }
    }
}
