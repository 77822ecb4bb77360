import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

@Suite("Times in UTC")
struct UTCTimeTests {
    @Test func timesAreISO8601InUTC() {
        #expect(UTCTime.format(1_795_389_240) == "2026-11-22 23:14 UTC")
        #expect(UTCTime.format(0) == "1970-01-01 00:00 UTC")
        #expect(UTCTime.parse("2026-11-22T23:14") == 1_795_389_240)
        #expect(UTCTime.parse("2026-11-22 23:14 UTC") == 1_795_389_240)
        #expect(UTCTime.parse("2026-11-22T23:14:30") == 1_795_389_270)
        #expect(UTCTime.inputValue(1_795_389_240) == "2026-11-22T23:14")
        for bad in [
            "", "2026-02-30T10:00", "2026-13-01T10:00", "2026-11-22T24:00", "tomorrow", "2026-11-22", "20261122T2314",
            "2026-11-22T23:14+01:00", String(repeating: "9", count: 5000),
        ] {
            #expect(UTCTime.parse(bad) == nil, "\(bad.prefix(30))")
        }
    }
}
