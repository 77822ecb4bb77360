import Testing

@testable import WebAuthn

func bytes(hex: String) -> [UInt8] {
    let digits = Array(hex.utf8)
    return stride(from: 0, to: digits.count, by: 2).map {
        UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)!
    }
}

func decodes(_ hex: String) throws -> CBOR { try CBORDecoder.decode(bytes(hex: hex)) }

func refusal(_ hex: String) -> WebAuthnError.Reason? {
    do {
        _ = try CBORDecoder.decode(bytes(hex: hex))
        return nil
    } catch {
        return error.reason
    }
}

@Suite("CBOR")
struct CBORTests {
    // RFC 8949 Appendix A.
    @Test func integers() throws {
        let cases: [(String, CBOR)] = [
            ("00", .unsigned(0)), ("01", .unsigned(1)), ("0a", .unsigned(10)), ("17", .unsigned(23)),
            ("1818", .unsigned(24)), ("1819", .unsigned(25)), ("1864", .unsigned(100)), ("1903e8", .unsigned(1000)),
            ("1a000f4240", .unsigned(1_000_000)), ("1b000000e8d4a51000", .unsigned(1_000_000_000_000)),
            ("1bffffffffffffffff", .unsigned(UInt64.max)), ("20", .negative(0)), ("29", .negative(9)),
            ("3863", .negative(99)), ("3903e7", .negative(999)),
            ("3bffffffffffffffff", .negative(UInt64.max)),
        ]
        for (hex, value) in cases { #expect(try decodes(hex) == value, "\(hex)") }
        #expect(try decodes("3903e7").int == -1000)
        #expect(try decodes("20").int == -1)
        #expect(try decodes("1bffffffffffffffff").int == nil, "beyond Int")
    }

    @Test func floats() throws {
        let cases: [(String, Double)] = [
            ("f90000", 0.0), ("f98000", -0.0), ("f93c00", 1.0), ("fb3ff199999999999a", 1.1), ("f93e00", 1.5),
            ("f97bff", 65504.0), ("fa47c35000", 100000.0), ("fa7f7fffff", 3.4028234663852886e+38),
            ("fb7e37e43c8800759c", 1.0e+300), ("f90001", 5.960464477539063e-8), ("f90400", 0.00006103515625),
            ("f9c400", -4.0), ("fbc010666666666666", -4.1), ("f97c00", .infinity), ("f9fc00", -.infinity),
            ("fa7f800000", .infinity), ("fb7ff0000000000000", .infinity), ("fbfff0000000000000", -.infinity),
        ]
        for (hex, value) in cases { #expect(try decodes(hex) == .float(value), "\(hex)") }
        #expect(try decodes("f98000") != .float(0.0), "the sign of zero is kept")
        for hex in ["f97e00", "fa7fc00000", "fb7ff8000000000000"] {
            guard case .float(let x) = try decodes(hex) else {
                Issue.record("\(hex) is not a float")
                continue
            }
            #expect(x.isNaN, "\(hex)")
        }
    }

    @Test func simpleValues() throws {
        #expect(try decodes("f4") == .bool(false))
        #expect(try decodes("f5") == .bool(true))
        #expect(try decodes("f6") == .null)
        #expect(try decodes("f7") == .undefined)
        #expect(try decodes("f0") == .simple(16))
        #expect(try decodes("f8ff") == .simple(255))
        #expect(refusal("f818") == .malformed, "two-byte simple below 32")
        #expect(refusal("fc") == .malformed)
        #expect(refusal("ff") == .malformed, "a lone break")
    }

    @Test func tags() throws {
        #expect(
            try decodes("c074323031332d30332d32315432303a30343a30305a") == .tagged(0, .text("2013-03-21T20:04:00Z")))
        #expect(try decodes("c11a514b67b0") == .tagged(1, .unsigned(1_363_896_240)))
        #expect(try decodes("c1fb41d452d9ec200000") == .tagged(1, .float(1_363_896_240.5)))
        #expect(try decodes("d74401020304") == .tagged(23, .bytes([1, 2, 3, 4])))
        #expect(
            try decodes("d82076687474703a2f2f7777772e6578616d706c652e636f6d")
                == .tagged(32, .text("http://www.example.com")))
    }

    @Test func strings() throws {
        #expect(try decodes("40") == .bytes([]))
        #expect(try decodes("4401020304") == .bytes([1, 2, 3, 4]))
        #expect(try decodes("60") == .text(""))
        #expect(try decodes("6161") == .text("a"))
        #expect(try decodes("6449455446") == .text("IETF"))
        #expect(try decodes("62225c") == .text("\"\\"))
        #expect(try decodes("62c3bc") == .text("\u{00fc}"))
        #expect(try decodes("63e6b0b4") == .text("\u{6c34}"))
        #expect(try decodes("64f0908591") == .text("\u{10151}"))
    }

    @Test func arraysAndMaps() throws {
        let one23: CBOR = .array([
            .unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)]),
        ])
        #expect(try decodes("80") == .array([]))
        #expect(try decodes("83010203") == .array([.unsigned(1), .unsigned(2), .unsigned(3)]))
        #expect(try decodes("8301820203820405") == one23)
        let twentyFive = CBOR.array((1...25).map { .unsigned(UInt64($0)) })
        #expect(try decodes("98190102030405060708090a0b0c0d0e0f101112131415161718181819") == twentyFive)
        #expect(try decodes("a0") == .map([]))
        #expect(try decodes("a201020304") == .map([(.unsigned(1), .unsigned(2)), (.unsigned(3), .unsigned(4))]))
        #expect(try decodes("a201020304") != .map([(.unsigned(3), .unsigned(4)), (.unsigned(1), .unsigned(2))]))
        let ab: CBOR = .map([(.text("a"), .unsigned(1)), (.text("b"), .array([.unsigned(2), .unsigned(3)]))])
        #expect(try decodes("a26161016162820203") == ab)
        #expect(try decodes("826161a161626163") == .array([.text("a"), .map([(.text("b"), .text("c"))])]))
        let letters = CBOR.map(
            ["a", "b", "c", "d", "e"].map { (CBOR.text($0), CBOR.text($0.uppercased())) })
        #expect(try decodes("a56161614161626142616361436164614461656145") == letters)
    }

    @Test func indefiniteLengths() throws {
        #expect(try decodes("5f42010243030405ff") == .bytes([1, 2, 3, 4, 5]))
        #expect(try decodes("7f657374726561646d696e67ff") == .text("streaming"))
        #expect(try decodes("9fff") == .array([]))
        let one23: CBOR = .array([
            .unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)]),
        ])
        #expect(try decodes("9f018202039f0405ffff") == one23)
        #expect(try decodes("9f01820203820405ff") == one23)
        #expect(try decodes("83018202039f0405ff") == one23)
        #expect(try decodes("83019f0203ff820405") == one23)
        let twentyFive = CBOR.array((1...25).map { .unsigned(UInt64($0)) })
        #expect(try decodes("9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff") == twentyFive)
        let ab: CBOR = .map([(.text("a"), .unsigned(1)), (.text("b"), .array([.unsigned(2), .unsigned(3)]))])
        #expect(try decodes("bf61610161629f0203ffff") == ab)
        #expect(try decodes("826161bf61626163ff") == .array([.text("a"), .map([(.text("b"), .text("c"))])]))
        #expect(
            try decodes("bf6346756ef563416d7421ff")
                == .map([(.text("Fun"), .bool(true)), (.text("Amt"), .negative(1))]))
        #expect(refusal("5f4101610200ff") == .malformed, "a text chunk inside a byte string")
        #expect(refusal("5f5f4101ffff") == .malformed, "a nested indefinite chunk")
        #expect(refusal("9f0102") == .malformed, "no break")
        #expect(refusal("1f") == .malformed, "an indefinite integer")
    }

    @Test func hostileInput() throws {
        #expect(refusal("") == .malformed)
        #expect(refusal("1901") == .malformed, "truncated argument")
        #expect(refusal("44010203") == .malformed, "truncated byte string")
        #expect(refusal("830102") == .malformed, "truncated array")
        #expect(refusal("a10102a1") == .malformed, "trailing bytes")
        #expect(refusal("0000") == .malformed, "trailing bytes")
        // Lengths and counts of 2^62 and 2^64-1 are refused before any allocation.
        for head in ["5b", "7b", "9b", "bb"] {
            #expect(refusal(head + "4000000000000000" + "00") == .malformed, "\(head) of 2^62")
            #expect(refusal(head + "ffffffffffffffff" + "00") == .malformed, "\(head) of 2^64-1")
        }
        #expect(refusal("1c") == .malformed, "reserved additional information")
        #expect(refusal(String(repeating: "81", count: 100) + "00") == .tooLarge)
        #expect(refusal(String(repeating: "9f", count: 100)) == .tooLarge)
        #expect(refusal(String(repeating: "c1", count: 100) + "00") == .tooLarge)
        #expect(try decodes(String(repeating: "81", count: 16) + "00") != .null, "16 levels are fine")
        #expect(refusal("62c328") == .malformed, "invalid UTF-8")
        #expect(refusal("63eda080") == .malformed, "a UTF-8 surrogate")
        #expect(refusal("7f61c361bcff") == .malformed, "a character split across chunks")
    }

    @Test func prefixReportsTheBytesTaken() throws {
        let input = bytes(hex: "ff" + "a201020304" + "a0" + "ee")
        let (item, used) = try CBORDecoder.decodePrefix(input[1...])
        #expect(used == 5)
        #expect(item == .map([(.unsigned(1), .unsigned(2)), (.unsigned(3), .unsigned(4))]))
    }
}
