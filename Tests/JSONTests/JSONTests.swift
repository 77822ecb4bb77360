import JSON
import Testing

@Suite("JSON")
struct JSONTests {
    @Test func parsesEveryKind() throws {
        let value = try JSONParser.parse(
            #"{"a": [1, -2.5e3, true, false, null], "b": {"c": "\u00e9\n\ud83d\ude00"}, "a2": 0}"#)
        #expect(value["a"]?[0] == .integer(1))
        #expect(value["a"]?[1] == .double(-2500))
        #expect(value["a"]?[2] == .bool(true))
        #expect(value["a"]?[4]?.isNull == true)
        #expect(value["b"]?["c"]?.string == "é\n😀")
        #expect(value["a2"]?.int == 0)
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "-", "tru", "\"a", "\"\\x\"", "\"\u{1}\"",
        "\"\\ud800\"", "\"\\udc00\"", "[1 2]", "{\"a\" 1}", "{a:1}", "1 2", "NaN", "1e999", "'a'", "// c\n1",
    ])
    func refusesInvalid(_ text: String) {
        #expect(throws: JSONParser.Error.self) { try JSONParser.parse(text) }
    }

    @Test func errorsNameLineAndColumn() {
        do {
            _ = try JSONParser.parse("{\n  \"a\": [1,\n  2,,]\n}")
            Issue.record("parsed")
        } catch {
            #expect(error.line == 3)
            #expect(error.column == 5)
        }
    }

    @Test func depthIsBounded() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParser.Error.self) { try JSONParser.parse(deep) }
    }

    @Test func writerRoundTripsAndSorts() throws {
        let value = JSONValue.object([
            ("z", .integer(1)), ("a", .array([.string("x\"<y>"), .null, .double(1.5)])), ("z", .integer(2)),
        ])
        let compact = JSONWriter(sortedKeys: true).string(value)
        #expect(compact == #"{"a":["x\"\u003cy\u003e",null,1.5],"z":2}"#)
        #expect(try JSONParser.parse(compact) == JSONParser.parse(JSONWriter().string(value)))
        #expect(
            JSONWriter(sortedKeys: true, indent: 2).string(.object([("b", .bool(true)), ("a", .array([]))]))
                == "{\n  \"a\": [],\n  \"b\": true\n}")
    }

    /// Every escape the writer makes, byte by byte: controls, HTML's three, the two line separators
    /// JavaScript will not take raw; other text (accents, kana, emoji) passes through and parses back.
    @Test func writerEscapesEveryRiskyCharacter() throws {
        let text = "a\u{1}\t\n\r\\\"<&>\u{2028}\u{2029}é日😀\u{7F}"
        let written = JSONWriter().string(.string(text))
        #expect(written == #""a\u0001\t\n\r\\\"\u003c\u0026\u003e\u2028\u2029é日😀\#u{7F}""#)
        #expect(try JSONParser.parse(written) == .string(text))
    }
}
