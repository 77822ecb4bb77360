import Foundation  // only as an oracle: Apple's own parser
import Testing

@testable import Localization

/// Apple's parser, through swift-corelibs-foundation (the same CFOldStylePList code).
func appleTable(_ bytes: [UInt8]) -> [String: String]? {
    try? PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: String]
}

func ours(_ text: String) throws(StringsFile.Error) -> [String: String] {
    try StringsFile(bytes: Array(text.utf8), file: "t.strings").table
}

@Suite("The .strings parser")
struct StringsFileTests {
    static let samples: [String] = [
        #""greeting" = "Hello";"#,
        "/* a comment */ \"a\" = \"1\"; // trailing\n\"b\" = 'single \"quoted\"';",
        "\"self\";\nunquoted_key.x-y/z:$ = unquoted.value;",
        #""escapes" = "\n\t\"\\\a\b\f\r\v\'\q";"#,
        "\"backslash-newline\" = \"a\\\nb\";",
        #""octal" = "\101\1012\0\7\60\200\351\377";"#,
        #""unicode" = "\U00e9\U20AC\Uzz\UD83D\UDE00";"#,
        "\"dup\" = \"first\";\n\"dup\" = \"second\";",
        "\"multi\nline\" = \"value\nwith newline\";",
        "\"cjk\" = \"ゲームで遊ぶ\"; \"ru\" = \"Играть\";",
        "  \n\t\"spaced\"   =   \"out\"   ;  \n",
        "\"empty\" = \"\";",
        "\"a\"=\"b\";\"c\"='d';e=f;",
        "/* nested /* not */ \"x\" = \"y\";",
        "\"slash\" = a/b;",
        "",
        "// only a comment",
        "\"line sep\"\u{2028}=\u{2029}\"ok\";",
    ]

    @Test(arguments: StringsFileTests.samples)
    func matchesApplesParser(_ text: String) throws {
        let apple = appleTable(Array(text.utf8))
        #expect(try ours(text) == (apple ?? [:]), "\(text.debugDescription)")
    }

    @Test func byteOrderMarksAndUTF16() throws {
        let text = "\"k\" = \"välue ✓\";"
        let utf8BOM: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(text.utf8)
        var le: [UInt8] = [0xFF, 0xFE]
        var be: [UInt8] = [0xFE, 0xFF]
        for unit in text.utf16 {
            le += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            be += [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        }
        for bytes in [utf8BOM, le, be] {
            #expect(try StringsFile(bytes: bytes).table == ["k": "välue ✓"])
            #expect(appleTable(bytes) == ["k": "välue ✓"])
        }
    }

    @Test func randomValidFilesAgreeWithApple() throws {
        var rng = SystemRandomNumberGenerator()
        let pieces = [
            "a", "Z", "9", "é", "ゲ", "😀", " ", "\\n", "\\t", "\\\"", "\\\\", "\\101", "\\351", "\\U00e9",
            "\\UD83D\\UDE00",
            "%@", "%1$d", "'", "/", "*", "=", ";", "\n", "\\q",
        ]
        for _ in 0..<300 {
            var text = ""
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                func quoted() -> String {
                    "\""
                        + (0..<Int.random(in: 0...8, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }
                        .joined() + "\""
                }
                text +=
                    quoted() + [" = ", "=", " =\n"].randomElement(using: &rng)! + quoted() + ";" + [
                        "\n", " ", "/* c */", "// c\n",
                    ].randomElement(using: &rng)!
            }
            let apple = try #require(appleTable(Array(text.utf8)), "Apple refused \(text.debugDescription)")
            #expect(try ours(text) == apple, "\(text.debugDescription)")
        }
    }

    /// Where Apple stops quietly and drops the rest, we fail loudly.
    @Test(arguments: [
        ("\"a\" = \"1\";\n\"b\" = \"2\"\n\"c\" = \"3\";", 3, 1, "expected ';' after the value of \"b\""),
        ("\"a\" = \"1\";\n  # stray\n\"c\" = \"3\";", 2, 3, "expected a key"),
        ("\"a\" = \"1\";\n\"b\" = ;", 2, 7, "expected a value"),
        ("\"a\" \"1\";", 1, 5, "expected '=' or ';' after the key \"a\""),
        ("\"a\" = \"1", 1, 7, "unterminated quoted string"),
        ("\"a\" = \"1\";\n/* open", 2, 1, "unterminated /* comment"),
        ("\"a\" = (\"x\");", 1, 7, "values in a strings file must be strings"),
        ("\"a\" = \"1\"", 1, 10, "expected ';' after the value of \"a\", found the end of the file"),
    ])
    func errorsNameLineAndColumn(_ text: String, _ line: Int, _ column: Int, _ message: String) {
        do {
            _ = try ours(text)
            Issue.record("parsed \(text.debugDescription)")
        } catch {
            #expect(error.line == line && error.column == column, "\(error)")
            #expect(error.message.hasPrefix(message), "\(error)")
            #expect(error.description.hasPrefix("t.strings:\(line):\(column): "))
        }
    }

    @Test func appleSilentlyTruncatesWhereWeRefuse() {
        let text = "\"a\" = \"1\";\n# stray\n\"c\" = \"3\";"
        // Apple returns nil or drops "c"; either way it does not see all of it.
        #expect(appleTable(Array(text.utf8))?["c"] == nil)
        #expect(throws: StringsFile.Error.self) { try ours(text) }
    }

    @Test func invalidUTF8IsRefused() {
        #expect(throws: StringsFile.Error.self) {
            try StringsFile(bytes: [0x22, 0x61, 0x22, 0x3B, 0x0A, 0xFF, 0xFE, 0x41])
        }
        #expect(throws: StringsFile.Error.self) { try StringsFile(bytes: [0xFF, 0xFE, 0x41]) }
    }
}
