import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

@Suite("The countdown's text")
struct ClockTextTests {
    @Test func hoursMinutesAndSecondsTwoDigitsEach() {
        #expect(MastermindController.clockText(0) == "00:00:00")
        #expect(MastermindController.clockText(73_955) == "20:32:35")
        #expect(MastermindController.clockText(3_600 + 60 + 9) == "01:01:09")
        #expect(MastermindController.clockText(-5) == "00:00:00")
        // Hours past 99 keep every digit.
        #expect(MastermindController.clockText(123 * 3_600 + 45) == "123:00:45")
    }
}
