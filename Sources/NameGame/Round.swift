/// One question: the people shown (no one twice), which of them is the
/// answer, and the order in which hint mode hides the wrong ones.
public struct Round: Sendable, Equatable {
    public let mode: Mode
    public let people: [Person]
    public let answer: Int
    /// Indices of the wrong choices, in the order they disappear.
    public let hideOrder: [Int]
    /// The player types the name for the face rather than picking it (recall mode, and learn mode for people met).
    public let recall: Bool

    public init(mode: Mode, people: [Person], answer: Int, hideOrder: [Int], recall: Bool? = nil) {
        self.mode = mode
        self.people = people
        self.answer = answer
        self.hideOrder = hideOrder
        self.recall = recall ?? (mode == .recall)
    }

    /// A recall round: the one face asked for.
    public static func recall(_ mode: Mode, asking person: Person) -> Round {
        Round(mode: mode, people: [person], answer: 0, hideOrder: [], recall: true)
    }

    public var answerPerson: Person { people[answer] }

    /// One face and names to pick from: reverse mode, recall's first step for someone not yet named (its text
    /// promises names; the faces it showed asked the other way round, a review), a review of misses (asked the
    /// harder way: a review found the name it had just been shown among six faces), and similar names (the
    /// look-alike names side by side are what it tests: asked by name among their faces, a review never saw them).
    public var showsNames: Bool {
        mode == .reverse || mode == .matt || ((mode == .recall || mode == .review) && !recall)
    }

    /// These faces, asking for the one at `answer`; hint mode hides the others in a random order.
    public static func asking<R: RandomNumberGenerator>(
        _ mode: Mode, people: [Person], answer: Int, using random: inout R
    ) -> Round {
        var hide = Array(people.indices.filter { $0 != answer })
        hide.shuffle(using: &random)
        return Round(mode: mode, people: people, answer: answer, hideOrder: hide)
    }

    /// A new round from the mode's pool, or nil if the pool is empty. A pool
    /// smaller than the mode's size gives a smaller round.
    public static func make<R: RandomNumberGenerator>(
        _ mode: Mode, from everyone: [Person], using random: inout R
    ) -> Round? {
        let pool = mode.pool(everyone)
        guard !pool.isEmpty else { return nil }
        // Similar names: someone, and the people whose names look like theirs first.
        if mode == .matt, let person = pool.randomElement(using: &random) {
            return make(mode, asking: person, from: everyone, using: &random)
        }
        var picked = pool
        picked.shuffle(using: &random)
        picked = Array(picked.prefix(min(mode.choices, pool.count)))
        return asking(mode, people: picked, answer: Int.random(in: 0..<picked.count, using: &random), using: &random)
    }

    /// A round asking for `person`, with the others drawn at random from the mode's pool, those in `first` (people
    /// met) before the rest, and among them those in `fresh` first; the mode's number of faces in all. The others are
    /// about half strangers where there are any: all of them people met taught elimination (three reviews: the six
    /// names were the five just met and a stranger; a timed minute showed the same six faces every round; Learn's
    /// picks showed everyone met, the one not yet named the answer), all strangers made the one familiar face the
    /// answer (an earlier one). As more are met, fewer strangers, none once there are two more people met than a
    /// round's others (two reviews passed every pick by recognising who they had met: the answer was never a
    /// stranger), drawn from enough people that the faces change from round to round.
    public static func make<R: RandomNumberGenerator>(
        _ mode: Mode, asking person: Person, from everyone: [Person], first: Set<String> = [],
        fresh: Set<String> = [], using random: inout R
    ) -> Round {
        let count = mode.choices - 1
        var others = mode.pool(everyone).filter { $0.id != person.id }
        others.shuffle(using: &random)
        let met = others.filter { first.contains($0.id) }
        let strangers = min(count / 2, max(0, count + 2 - met.count))
        let known = met.filter { fresh.contains($0.id) } + met.filter { !fresh.contains($0.id) }
        let unknown = others.filter { !first.contains($0.id) }
        let fromUnknown = min(unknown.count, max(strangers, count - known.count))
        others = Array(known.prefix(max(0, count - fromUnknown))) + unknown.prefix(fromUnknown)
        if mode == .matt {
            // The names that look most like the one asked for come first: its group, then the likest of the rest (a
            // review saw one look-alike among four unrelated names), people met and strangers in turn, each the likest
            // of its kind: met ones first outranked every look-alike stranger, and a later review saw Isla asked
            // among Umar, Olga, Yara and Matt; all strangers made the one familiar face the answer (an earlier one).
            let asked = NameMatch.fold(person.firstName)
            // Likest first; among equals, the shuffled order, people met before strangers.
            let ranked = (known + unknown).enumerated()
                .map { (likeness: Mode.likeness(asked, NameMatch.fold($1.firstName)), order: $0, person: $1) }
                .sorted { ($0.likeness, -$0.order) > ($1.likeness, -$1.order) }
            let rest = ranked.filter { $0.likeness < 100 }.map(\.person)
            let restMet = rest.filter { first.contains($0.id) }
            let restUnmet = rest.filter { !first.contains($0.id) }
            others = ranked.filter { $0.likeness >= 100 }.map(\.person)
            for index in 0..<max(restMet.count, restUnmet.count) {
                if index < restMet.count { others.append(restMet[index]) }
                if index < restUnmet.count { others.append(restUnmet[index]) }
            }
        }
        var picked = [person] + others.prefix(count)
        picked.shuffle(using: &random)
        return asking(mode, people: picked, answer: picked.firstIndex { $0.id == person.id }!, using: &random)
    }

    /// Whether hint mode had hidden every wrong choice after `elapsed` seconds: only the answer was left to tap.
    public func hintsRanOut(after elapsed: Double, interval: Double) -> Bool {
        !hideOrder.isEmpty && hidden(after: elapsed, interval: interval).count == hideOrder.count
    }

    /// Which choices hint mode has hidden after `elapsed` seconds: one more
    /// every `interval`, until only the answer is left.
    public func hidden(after elapsed: Double, interval: Double) -> Set<Int> {
        guard mode == .hint, interval > 0, elapsed >= interval else { return [] }
        let count = min(hideOrder.count, Int((elapsed / interval).rounded(.down)))
        return Set(hideOrder.prefix(count))
    }
}
