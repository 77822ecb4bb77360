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
        var forms: [[Action]] = []
        for sequence in sequences {
            for form in Self.bursts(of: sequence.map { $0.normalized(caseSensitive: caseSensitive) })
            where !forms.contains(form) {
                forms.append(form)
            }
        }
        self.sequences = forms
        self.timeout = timeout
        self.caseSensitive = caseSensitive
        longest = forms.reduce(0) { max($0, $1.count) }
    }

    /// A sequence, then every other way its taps can come in bursts: a burst ends 300 ms after its last tap, so three
    /// quick taps may reach the server as 2 and 1 (a review's triple tap, 0.3 s apart, unlocked nothing). A run of
    /// taps in a row counts by its total; runs of more than six stay as written.
    static func bursts(of sequence: [Action]) -> [[Action]] {
        var forms: [[Action]] = [[]]
        var index = sequence.startIndex
        while index < sequence.endIndex {
            var total = 0
            var end = index
            while end < sequence.endIndex, case .tap(let count) = sequence[end] {
                total += count
                end += 1
            }
            if end == index || total > 6 {
                let step = Array(sequence[index..<max(end, index + 1)])
                forms = forms.map { $0 + step }
                index = max(end, index + 1)
                continue
            }
            let splits = compositions(total).map { $0.map(Action.tap) }
            forms = forms.flatMap { form in splits.map { form + $0 } }
            index = end
        }
        return [sequence] + forms.filter { $0 != sequence }
    }

    /// Every ordered way to write `n` as a sum of whole numbers from 1.
    private static func compositions(_ n: Int) -> [[Int]] {
        n == 0 ? [[]] : (1...n).flatMap { first in compositions(n - first).map { [first] + $0 } }
    }
}
