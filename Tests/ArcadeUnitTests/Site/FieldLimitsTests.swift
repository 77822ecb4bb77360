import HTTP
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

@Suite("The site's form field limits")
struct FieldLimitsTests {
    @Test func limitsFitWhatEachFieldHolds() {
        let limits = FieldLimits.site
        #expect(limits.limit(for: "key") == 200)
        #expect(limits.limit(for: "message_ja") == 2000)
        #expect(limits.limit(for: "os_message_pt-BR") == 2000)
        #expect(limits.limit(for: "anything-else") == 64)
        // Counted in characters, not bytes: 2,000 Japanese characters fit a message.
        let japanese = String(repeating: "名", count: 2000)
        #expect(limits.firstViolation(in: FormFields([("message_ja", japanese)])) == nil)
        #expect(limits.firstViolation(in: FormFields([("message_ja", japanese + "名")]))?.name == "message_ja")
        #expect(
            limits.firstViolation(
                in: FormFields([("key", "home.title"), ("mode", String(repeating: "x", count: 65))]))?.name == "mode")
    }
}
