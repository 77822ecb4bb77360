/// Taps and times, for one game session or a lifetime. Figures are kept as
/// sums and counts, so merging two is exact; averages are derived, never
/// stored (the original app overwrote its lifetime average).
public struct Stats: Sendable, Equatable {
    public var rounds = 0
    /// Rounds where the right person was found.
    public var identified = 0
    public var correctTaps = 0
    public var incorrectTaps = 0
    /// Milliseconds from showing a round to the right tap, summed over identified rounds.
    public var identifyMilliseconds = 0

    public init() {}

    public var totalTaps: Int { correctTaps + incorrectTaps }
    public var accuracy: Double? { totalTaps == 0 ? nil : Double(correctTaps) / Double(totalTaps) }
    public var averageIdentifyMilliseconds: Double? {
        identified == 0 ? nil : Double(identifyMilliseconds) / Double(identified)
    }

    /// One finished round.
    public mutating func record(wrongTaps: Int, identifiedAfter milliseconds: Int?) {
        rounds += 1
        incorrectTaps += wrongTaps
        if let milliseconds {
            identified += 1
            correctTaps += 1
            identifyMilliseconds += max(0, milliseconds)
        }
    }

    public static func + (a: Stats, b: Stats) -> Stats {
        var sum = a
        sum.rounds += b.rounds
        sum.identified += b.identified
        sum.correctTaps += b.correctTaps
        sum.incorrectTaps += b.incorrectTaps
        sum.identifyMilliseconds += b.identifyMilliseconds
        return sum
    }
}
