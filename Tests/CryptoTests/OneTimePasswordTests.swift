import Testing

@testable import Crypto

@Suite("One-time passwords")
struct OneTimePasswordTests {
    /// RFC 6238 appendix B, SHA-1 rows: the ASCII key "12345678901234567890".
    static let secret = Array("12345678901234567890".utf8)
    static let vectors: [(Int, String)] = [
        (59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"),
        (1_234_567_890, "89005924"), (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
    ]

    @Test func matchesRFC6238AppendixB() {
        for (time, expected) in Self.vectors {
            let step = OneTimePassword.step(at: time)
            #expect(OneTimePassword.code(secret: Self.secret, step: step, digits: 8) == expected, "T = \(time)")
            // Six digits (what apps show) are the same number's last six.
            #expect(OneTimePassword.code(secret: Self.secret, step: step) == String(expected.suffix(6)), "T = \(time)")
        }
    }

    @Test func hmacSHA1MatchesRFC2202() {
        let mac = Crypto.hmacSHA1(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(hex(mac) == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
    }

    @Test func acceptsOneStepEitherSideAndEachCodeOnce() {
        let now = 1_111_111_111
        let step = OneTimePassword.step(at: now)
        func code(_ offset: Int64) -> String { OneTimePassword.code(secret: Self.secret, step: step + offset) }
        #expect(OneTimePassword.matchingStep(code(0), secret: Self.secret, at: now, after: nil) == step)
        #expect(OneTimePassword.matchingStep(code(-1), secret: Self.secret, at: now, after: nil) == step - 1)
        #expect(OneTimePassword.matchingStep(code(1), secret: Self.secret, at: now, after: nil) == step + 1)
        #expect(OneTimePassword.matchingStep(code(-2), secret: Self.secret, at: now, after: nil) == nil)
        #expect(OneTimePassword.matchingStep(code(2), secret: Self.secret, at: now, after: nil) == nil)
        // Used once: that step and every earlier one are spent.
        #expect(OneTimePassword.matchingStep(code(0), secret: Self.secret, at: now, after: step) == nil)
        #expect(OneTimePassword.matchingStep(code(-1), secret: Self.secret, at: now, after: step) == nil)
        #expect(OneTimePassword.matchingStep(code(1), secret: Self.secret, at: now, after: step) == step + 1)
        // Spaces as apps group the digits are forgiven; anything else is not a code.
        let spaced = String(code(0).prefix(3)) + " " + String(code(0).suffix(3))
        #expect(OneTimePassword.matchingStep(spaced, secret: Self.secret, at: now, after: nil) == step)
        for bad in ["", "12345", "1234567", "abcdef", "１２３４５６"] {
            #expect(OneTimePassword.matchingStep(bad, secret: Self.secret, at: now, after: nil) == nil, "\(bad)")
        }
    }

    @Test func base32RoundTripsAndMatchesRFC4648() {
        // RFC 4648 §10.
        let vectors = [
            ("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"), ("fooba", "MZXW6YTB"),
            ("foobar", "MZXW6YTBOI"),
        ]
        for (plain, encoded) in vectors {
            #expect(Base32.encode(Array(plain.utf8)) == encoded)
            #expect(Base32.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base32.decode("mzxw 6ytb oi======") == Array("foobar".utf8))
        #expect(Base32.decode("MZXW1") == nil)
        let random = Crypto.randomBytes(20)
        #expect(Base32.decode(Base32.encode(random)) == random)
        #expect(Base32.encode(random).count == 32)
    }
}
