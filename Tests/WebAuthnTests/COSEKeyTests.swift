import Testing

@testable import WebAuthn

// Made with the openssl command line (3.0):
//   openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ec.pem
//   openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out rsa.pem   (and 1024 for rsa1024.pem)
//   printf 'Arcade WebAuthn test vector' > msg.txt
//   openssl dgst -sha256 -sign ec.pem -out ec.sig msg.txt; openssl dgst -sha256 -sign rsa.pem -out rsa.sig msg.txt
// x and y are the last 64 bytes of `openssl pkey -in ec.pem -pubout -outform DER`, n is from
// `openssl rsa -in rsa.pem -noout -modulus` (e = 65537), and the signatures are the .sig files in hex.
enum Vectors {
    static let message = Array("Arcade WebAuthn test vector".utf8)
    static let x = bytes(hex: "589de8585c7a5f5e04c23f5f1f82db2450f5f5dd6fbcd07c8b88dff0a60f6c81")
    static let y = bytes(hex: "2c2ff2c049363a1c74dd6d1bee01498099f343b4bbfebf22749e335fc1df143c")
    static let ecSignature = bytes(
        hex: "304402203d342fa35cbcb58190fc15e61b43c8bb1257485faa14ab28f72e6ff75975c9e302207a6be0a3cfcb90e4a7b9"
            + "d2dbc1fc3c65d0a9eec1e1e9b365195022b0075ce4dd")
    static let n = bytes(
        hex: "B105144432A3CD40B2366818D4F33CC886096DE1D6AE260BA406F18E2663C4113F0B776CA8E5A56033E0A3F3642E7C02"
            + "5F2910CEF9637956A79558DA7293A94BEC609EC7142EC07AE2F1CA9628EA07304D106F7CE4F03D1C55103C2150A91FF0"
            + "53786204A7EC2CD84A7033980D55241123D3DB9BD62B15C97EF7C0D730377751C36D10A77D37BD91E363BFF9DC3935D2"
            + "1DDA3F899654DD5F6106609A2028834DB077D62694547227BF4A1D9FF9DECF819D690EC5D80667A48FD4B581B65E2CF7"
            + "511DA39B5F20228E1E32529B3B49E8CC6F5C9467B29CD7EF3AB8EB4782102B522A83FCCC3896AB9EF78086E96A4F21B5"
            + "A7F45231D8BFFA3EC50BC003BB536557")
    static let e: [UInt8] = [0x01, 0x00, 0x01]
    static let rsaSignature = bytes(
        hex: "49f6442af44d5648a124813413c14f40e72405b5efa7b92db29f5ec30592d47e9fc9ff464305e7f534d811fd3d811911"
            + "b46075b245563bd7a1fc4c02e1cfce16d62ff66c6c3e62ea71c49b4727d2bd5b18f8c09a9ca79079acc361ba689e58c5"
            + "b2c279a9bf55d671f80de3f0e5f09e3bfd6f38dfe52b29c6292b42a7e2ce425b7f9117ff2cdcf0f3c701411bb277a7b7"
            + "ba88d15b04f7d1526127f1e55f27e005591db8c3927e64b502ca4f36e66e68c98509219861dfe785ce48e0b6fb994868"
            + "ff9839bb854588178a544c9b3296706a16de6ebf53ece44b541c4b235eff68083b8c73950f80d1f0463a6e88ca6a285c"
            + "b0e8fd0e89d0f87f795695540d1aff5c")
    static let n1024 = bytes(
        hex: "C626132B4282E6BBB39F42D08785EFD1AB670E39599943786D22F365464F031460EB070223FA0C2FA302D3745D5C7953"
            + "B16795DBCE51A7E5BBEAC1A925A1CAFC653D61736C425338EF3C010F8058E62878CF65DE9CE9259B6A278739F9F79A39"
            + "C6285A3CDC3BAC6B33680D4B4D60CB68096DD671F8A2878268EC5F3F11B16603")
}

func ecKey(kty: Int = 2, alg: Int = -7, crv: Int = 1, x: [UInt8] = Vectors.x, y: [UInt8] = Vectors.y) -> [UInt8] {
    encode(
        .map([(int(1), int(kty)), (int(3), int(alg)), (int(-1), int(crv)), (int(-2), .bytes(x)), (int(-3), .bytes(y))]))
}

func rsaKey(kty: Int = 3, alg: Int = -257, n: [UInt8] = Vectors.n, e: [UInt8] = Vectors.e) -> [UInt8] {
    encode(.map([(int(1), int(kty)), (int(3), int(alg)), (int(-1), .bytes(n)), (int(-2), .bytes(e))]))
}

func keyRefusal(_ bytes: [UInt8]) -> WebAuthnError.Reason? {
    do {
        _ = try COSEKey(cbor: bytes)
        return nil
    } catch {
        return error.reason
    }
}

func flipped(_ bytes: [UInt8], at index: Int) -> [UInt8] {
    var copy = bytes
    copy[index] ^= 0x01
    return copy
}

@Suite("COSE keys and signatures")
struct COSEKeyTests {
    @Test func es256() throws {
        let key = try COSEKey(cbor: ecKey())
        #expect(key.algorithm == -7)
        #expect(key.verify(signature: Vectors.ecSignature, message: Vectors.message))
        for index in [0, 10, Vectors.ecSignature.count - 1] {
            #expect(!key.verify(signature: flipped(Vectors.ecSignature, at: index), message: Vectors.message))
        }
        #expect(!key.verify(signature: Vectors.ecSignature, message: flipped(Vectors.message, at: 3)))
        #expect(!key.verify(signature: Vectors.ecSignature + [0], message: Vectors.message), "trailing byte")
        #expect(!key.verify(signature: [], message: Vectors.message))
        #expect(!key.verify(signature: Vectors.rsaSignature, message: Vectors.message))
    }

    @Test func rs256() throws {
        let key = try COSEKey(cbor: rsaKey())
        #expect(key.algorithm == -257)
        #expect(key.verify(signature: Vectors.rsaSignature, message: Vectors.message))
        for index in [0, 100, Vectors.rsaSignature.count - 1] {
            #expect(!key.verify(signature: flipped(Vectors.rsaSignature, at: index), message: Vectors.message))
        }
        #expect(!key.verify(signature: Vectors.rsaSignature, message: flipped(Vectors.message, at: 0)))
        #expect(!key.verify(signature: Vectors.ecSignature, message: Vectors.message))
        #expect(
            try COSEKey(cbor: rsaKey(n: [0, 0] + Vectors.n)).verify(
                signature: Vectors.rsaSignature, message: Vectors.message), "leading zeros of n are only padding")
    }

    @Test func badKeysAreRefused() {
        #expect(keyRefusal(ecKey(y: flipped(Vectors.y, at: 31))) == .badKey, "point not on the curve")
        #expect(keyRefusal(ecKey(x: [UInt8](repeating: 0, count: 32), y: [UInt8](repeating: 0, count: 32))) == .badKey)
        #expect(keyRefusal(ecKey(x: Array(Vectors.x.dropFirst()))) == .badKey, "31-byte x")
        #expect(keyRefusal(ecKey(y: Vectors.y + [0])) == .badKey, "33-byte y")
        #expect(keyRefusal(rsaKey(n: Vectors.n1024)) == .badKey, "RSA-1024")
        // Over 4096 bits is refused by its size, before OpenSSL sees it (an 8192-bit prime cost 0.7 CPU-s to check).
        #expect(keyRefusal(rsaKey(n: [UInt8](repeating: 0xff, count: 513))) == .badKey, "RSA over 4096 bits")
        #expect(keyRefusal(rsaKey(n: [UInt8](repeating: 0xff, count: 1024))) == .badKey, "RSA-8192")
        #expect(keyRefusal(rsaKey(e: [1])) == .badKey, "exponent 1")
        #expect(keyRefusal(rsaKey(e: [])) == .badKey)
        #expect(keyRefusal(rsaKey(e: [2])) == .badKey, "even exponent")
        #expect(keyRefusal(rsaKey(n: flipped(Vectors.n, at: 255))) == .badKey, "even modulus")
    }

    @Test func wrongAlgorithmsAreRefused() {
        #expect(keyRefusal(ecKey(alg: -257)) == .unsupportedAlgorithm, "EC2 with RS256")
        #expect(keyRefusal(ecKey(alg: -35)) == .unsupportedAlgorithm, "ES384")
        #expect(keyRefusal(ecKey(crv: 2)) == .unsupportedAlgorithm, "P-384 with ES256")
        #expect(keyRefusal(ecKey(kty: 1, alg: -8)) == .unsupportedAlgorithm, "Ed25519")
        #expect(keyRefusal(rsaKey(alg: -7)) == .unsupportedAlgorithm, "RSA with ES256")
        #expect(keyRefusal(rsaKey(alg: -37)) == .unsupportedAlgorithm, "PS256")
        #expect(keyRefusal(rsaKey(kty: 2)) == .unsupportedAlgorithm, "EC2 with RS256")
    }

    @Test func malformedKeysAreRefused() {
        var duplicate = ecKey()
        duplicate[0] = 0xa6  // six pairs: the five, then kty again
        duplicate += encode(int(1)) + encode(int(3))
        #expect(keyRefusal(duplicate) == .malformed, "a repeated label")
        #expect(keyRefusal(encode(.map([(int(1), int(2)), (int(-1), int(1))]))) == .malformed, "no alg")
        #expect(keyRefusal(encode(.array([int(1), int(2)]))) == .malformed, "not a map")
        #expect(keyRefusal(ecKey() + [0]) == .malformed, "trailing byte")
        #expect(keyRefusal(Array(ecKey().dropLast())) == .malformed, "truncated")
        #expect(keyRefusal([UInt8](repeating: 0, count: 4096)) == .tooLarge)
    }
}
