import Foundation
import Testing

@testable import Logger

/// A line is one line whatever its message holds, and JSON a parser reads back as it was meant.
@Suite("Log lines")
struct LogLineTests {
    static let awkward = "first line\nsecond \"quoted\" \\ line\r\ttab \u{1} bell é 日本"

    @Test func aJSONLineWithBreaksAndQuotesIsOneObject() throws {
        var line: [UInt8] = []
        Log.appendJSON(
            .error, Self.awkward, [("account", .string("a\"b\nc")), ("count", .int(3))], requestID: "r-1",
            into: &line)
        #expect(line.last == 0x0A && line.dropLast().allSatisfy { $0 != 0x0A })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        #expect(object["msg"] as? String == Self.awkward)
        #expect(object["level"] as? String == "error")
        #expect(object["account"] as? String == "a\"b\nc")
        #expect(object["count"] as? Int == 3)
        #expect(object["request_id"] as? String == "r-1")
        #expect((object["time"] as? String)?.hasSuffix("Z") == true)
    }

    @Test func aPlainLineStaysOnOneLine() {
        var line: [UInt8] = []
        Log.appendPlain(.warning, Self.awkward, [("account", .string("two words"))], requestID: "", into: &line)
        let text = String(decoding: line, as: UTF8.self)
        #expect(line.filter { $0 == 0x0A || $0 == 0x0D }.count == 1 && line.last == 0x0A, "\(text)")
        #expect(text.contains(" arcade: warning: first line\\nsecond \"quoted\""), "\(text)")
        #expect(text.hasSuffix(" account=\"two words\"\n"), "\(text)")
    }

    @Test func timestampsAreRFC3339InUTC() {
        #expect(Log.timestamp(0) == "1970-01-01T00:00:00.000Z")
        #expect(Log.timestamp(1_700_000_000_123_456_789) == "2023-11-14T22:13:20.123Z")
    }
}
