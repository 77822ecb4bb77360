/// A named cheat: one or more equivalent sequences (a keyboard form and a
/// touch form, say), an optional maximum gap between actions, and whether
/// keys compare case-sensitively.
public struct CheatCode: Sendable, Equatable {
    public let name: String
    public let sequences: [[Action]]
    /// Seconds allowed between two actions; nil for no limit. A gap of
    /// exactly the limit is still in time.
    public let timeout: Double?
    public let caseSensitive: Bool
    /// The length of the longest sequence (known at init: the matcher asks on every action).
    public let longest: Int

    public static let defaultTimeout = 2.0

    public init(
        name: String, sequences: [[Action]], timeout: Double? = CheatCode.defaultTimeout,
        caseSensitive: Bool = false
    ) throws(CheatError) {
        guard !name.isEmpty else { throw CheatError("a cheat needs a name") }
        guard !sequences.isEmpty else { throw CheatError("cheat '\(name)' has no sequence") }
        for sequence in sequences {
            guard !sequence.isEmpty else { throw CheatError("cheat '\(name)' has an empty sequence") }
            for case .tap(let count) in sequence where count < 1 {
                throw CheatError("cheat '\(name)' has tap(\(count)); taps start at 1")
            }
        }
        if let timeout {
            guard timeout > 0, timeout.isFinite else { throw CheatError("cheat '\(name)' needs a positive timeout") }
        }
        self.name = name
        self.sequences = sequences.map { $0.map { $0.normalized(caseSensitive: caseSensitive) } }
        self.timeout = timeout
        self.caseSensitive = caseSensitive
        longest = sequences.reduce(0) { max($0, $1.count) }
    }
}
