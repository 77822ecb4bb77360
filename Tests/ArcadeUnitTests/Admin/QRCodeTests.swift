import Files
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

#if canImport(Glibc)
import Glibc
#endif

@Suite("QR codes")
struct QRCodeTests {
    @Test func reedSolomonMatchesTheStandardsExample() {
        // ISO/IEC 18004 annex I: "01234567" at 1-M, its 16 data codewords and their 10 error-correction codewords.
        let data: [UInt8] =
            [0x10, 0x20, 0x0C, 0x56, 0x61, 0x80] + Array(repeating: [0xEC, 0x11], count: 5).flatMap { $0 }
        let ec = ReedSolomon.remainder(data, ReedSolomon.divisor(degree: 10))
        #expect(ec == [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55])
    }

    @Test func picksTheSmallestVersionAndRefusesPastTen() throws {
        #expect(QRCode(Array(repeating: 0x41, count: 14))?.version == 1)
        #expect(QRCode(Array(repeating: 0x41, count: 15))?.version == 2)
        #expect(QRCode(Array(repeating: 0x41, count: 213))?.version == 10)
        #expect(QRCode(Array(repeating: 0x41, count: 214)) == nil)
        // The longest admin name's set-up address fits (names are ASCII; an @ is not percent-encoded).
        let longest = AdminController.provisioningURI(
            name: String(repeating: "@", count: 64), secret: Array(repeating: 0, count: 20))
        #expect(QRCode(Array(longest.utf8)) != nil, "\(longest.utf8.count) bytes")
        let code = try #require(QRCode(Array("otpauth://totp/Arcade:alice?secret=AAAA".utf8)))
        #expect(code.size == code.version * 4 + 17)
        // The three finder patterns' dark corners, and the always-dark module.
        #expect(code[0, 0] && code[code.size - 1, 0] && code[0, code.size - 1] && code[8, code.size - 8])
    }

    /// zbar (pyzbar, from PyPI, over Debian's libzbar0) reads each code back: every version, every mask.
    @Test func aReferenceDecoderReadsEveryVersionAndMask() throws {
        let scratch = ScratchDirectory()
        var cases: [(String, QRCode)] = []
        for length in [10, 26, 42, 62, 84, 106, 122, 152, 180, 213] {
            let text = String((0..<length).map { Array("otpauth://ABCdef0123456789?&=%")[$0 % 30] })
            let code = try #require(QRCode(Array(text.utf8)))
            cases.append((text, code))
        }
        #expect(cases.map(\.1.version) == Array(1...10))
        let uri = "otpauth://totp/Arcade:alice%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Arcade"
        for mask in 0..<8 { cases.append((uri, try #require(QRCode(Array(uri.utf8), mask: mask)))) }
        for (i, (_, code)) in cases.enumerated() {
            #expect(Files.writeDurably(Self.raster(code), to: scratch.path + "/\(i).pgm"))
        }
        let script = """
            import sys
            from pyzbar import pyzbar
            for i in range(int(sys.argv[2])):
                data = open(f"{sys.argv[1]}/{i}.pgm", "rb").read()
                header, pixels = data.split(b"\\n", 3)[:3], data.split(b"\\n", 3)[3]
                width, height = map(int, header[1].split())
                found = pyzbar.decode((pixels, width, height))
                print(found[0].data.decode() if found else "")
            """
        let python = getenv("ARCADE_TEST_PYTHON").map { String(cString: $0) } ?? "/usr/bin/python3"
        let decoder = try ChildProcess(["-c", script, scratch.path, String(cases.count)], executable: python)
        #expect(decoder.wait(timeout: 60) == 0, "\(decoder.standardError)")
        let lines = decoder.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (i, (text, code)) in cases.enumerated() {
            #expect(i < lines.count && lines[i] == text, "version \(code.version), mask \(code.mask)")
        }
    }

    /// A binary PGM, 4 pixels a module, with the 4-module quiet zone.
    static func raster(_ code: QRCode) -> [UInt8] {
        let scale = 4
        let side = (code.size + 8) * scale
        var pixels = [UInt8](repeating: 255, count: side * side)
        for y in 0..<code.size {
            for x in 0..<code.size where code[x, y] {
                for dy in 0..<scale {
                    for dx in 0..<scale { pixels[((y + 4) * scale + dy) * side + (x + 4) * scale + dx] = 0 }
                }
            }
        }
        return Array("P5\n\(side) \(side)\n255\n".utf8) + pixels
    }
}
