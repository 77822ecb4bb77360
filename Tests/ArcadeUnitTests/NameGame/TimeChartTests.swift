import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

@Suite("The Name Game's time chart")
struct TimeChartTests {
    @Test func theChartScaleIsRound() {
        #expect(TimeChart.niceCeiling(0.4) == 1)
        #expect(TimeChart.niceCeiling(3.4) == 5)
        #expect(TimeChart.niceCeiling(12) == 20)
        #expect(TimeChart.niceCeiling(50) == 50)
    }
}
