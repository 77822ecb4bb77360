import SpacedRepetition

/// Whom learn mode asks next, and how a finished round rates the person it asked. Pure: the caller passes the cards
/// (what the player knows of each person met) and the time.
public struct LearningPlan: Sendable {
    /// Learning cards due this soon are asked rather than waiting idle (Anki's "learn ahead" limit).
    public var learnAhead: Int64 = 20 * FSRS.minute
    /// New people are met only while fewer than this many are still new to the player (not yet answered right since
    /// met or missed, or answered right once and asked again soon): small batches.
    public var batch = 4
    /// A right answer slower than this came with effort: rated hard, not good (Anki's grade; a review read "just like a
    /// miss" as a penalty on slow typists). Time to read the question and look at six faces on a phone: at 8 s a
    /// careful reader's right answers at 9 and 10 s came back as hard (a later review); at 12 s, a look at the faces
    /// (13.5 s) and six faces over two screens at 200 % text (20.7 s) were marked down (two later reviews).
    public var slowMilliseconds = 20_000
    /// The same for a name typed: a phone's keyboard takes its own seconds (a review's typed "hugoo", right at 8.5 s,
    /// came back as a miss).
    public var typedSlowMilliseconds = 30_000

    /// How long a right answer may take before it counts as a hard one: the plan's limit, or half again the player's
    /// `usual` time (a median of their right answers) where that is longer. A blind review's right picks, six faces
    /// heard described first, all came back as hard: slow is slow for this player, as Anki's grades are the learner's.
    public func slowLimit(typed: Bool, usual: Int? = nil) -> Int {
        max(typed ? typedSlowMilliseconds : slowMilliseconds, (usual ?? 0) * 3 / 2)
    }

    public init() {}

    /// People just met or missed falling due come first (and those answered right since, once due), then people due for
    /// review, then someone new (in a small batch, and only while `meetNew`: the day's new people are not all met),
    /// then the person due soonest (reviewed ahead); those in `recent` (whom the lesson asked last) only when nobody
    /// else would do. `avoid` (the person just asked) is skipped when anyone else would do. Nil only when there is no
    /// one.
    public func next(
        people: [Person], cards: [String: Card], now: Int64, avoid: String? = nil, recent: [String] = [],
        meetNew: Bool = true
    ) -> Person? {
        let candidates = people.count > 1 ? people.filter { $0.id != avoid } : people
        let met = candidates.compactMap { person in cards[person.id].map { (person, $0) } }
        let learning = met.filter { $0.1.state != .review }
        // Just met or just missed: asked a little ahead of their step, so a miss comes back within the lesson. Answered
        // right since: only once due, someone new meanwhile (a review's first lesson spent ten rounds on two people,
        // each asked again before the last answer had had time to fade).
        let asked = learning.filter { ($0.1.step ?? 0) == 0 ? $0.1.due <= now + learnAhead : $0.1.due <= now }
        let soonest: ([(Person, Card)]) -> Person? = { $0.min(by: { $0.1.due < $1.1.due })?.0 }
        // Someone asked in the last few rounds waits while anyone else is due or new (a struggling review's first
        // lesson asked its two misses in turn, first letter shown, for ten rounds: nobody else came).
        if let missed = soonest(asked.filter { !recent.contains($0.0.id) }) { return missed }
        if let due = soonest(met.filter { $0.1.state == .review && $0.1.due <= now }) { return due }
        // The batch counts people not yet answered right since met (or missed), and those answered right once whose
        // second question (the name typed) is near. The next comes while the rest wait for their later steps (a
        // review's second lesson met nobody new; a first lesson that met the next person as soon as the last was
        // picked met eight in ten rounds).
        let stillLearning = cards.values.count {
            $0.state != .review && (($0.step ?? 0) == 0 || ($0.step == 1 && $0.due <= now + learnAhead))
        }
        // Everyone being learned, the avoided person too: Mat, just introduced, is not followed by Matt (a review).
        let beingLearned = people.filter { cards[$0.id].map { $0.state != .review } ?? false }
        let unsettled = people.filter { cards[$0.id].map { !Self.knows($0) } ?? false }
        if meetNew, stillLearning < batch,
            let new = newPerson(candidates, learning: beingLearned, unsettled: unsettled, cards: cards)
        {
            return new
        }
        if let missed = soonest(asked) { return missed }
        // Ahead of time, the soonest due apart from the last few asked: past the day's new people, the two due
        // soonest were asked in turn for a whole lesson, so the order gave the answer (a review: Umar, Flynn, Umar…).
        let rested = met.filter { !recent.contains($0.0.id) }
        return soonest(rested.isEmpty ? met : rested) ?? candidates.first
    }

    /// Someone not met yet whose name cannot be mixed up with anyone still being learned (`similar`: not Mat, Matt and
    /// Matthew in one batch), and, where anyone else will do, whose first name is not nearly that of someone met and
    /// not yet learned (`unsettled`; `alike`): a review met Maren Thornbury, then Maren Tanaka, on its first day, as
    /// soon as the first had left her learning steps. When everyone left clashes, the first not met.
    public func newPerson(
        _ candidates: [Person], learning: [Person], unsettled: [Person] = [], cards: [String: Card]
    ) -> Person? {
        let notMet = candidates.filter { cards[$0.id] == nil }
        let apart = notMet.filter { new in !learning.contains { Self.similar(new, $0) } }
        return apart.first { new in !unsettled.contains { Self.alike(new, $0) } } ?? apart.first ?? notMet.first
    }

    /// First names that begin with the same three letters (case and accents folded): Mat, Matt, Matthew and Mathilda;
    /// two Hiros.
    public static func alike(_ a: Person, _ b: Person) -> Bool {
        NameMatch.fold(a.firstName).prefix(3) == NameMatch.fold(b.firstName).prefix(3)
    }

    /// Names easily confused in one batch: first names that begin alike (case and accents folded). The first letter,
    /// not three: it is the hint a typed question gives, which told Finn from Flynn nothing (a review's first lesson).
    public static func similar(_ a: Person, _ b: Person) -> Bool {
        NameMatch.fold(a.firstName).first == NameMatch.fold(b.firstName).first
    }

    /// Answered right since they were met (or last missed): learn mode then asks the name typed rather than picked
    /// (recall is the next step up from recognition). Not yet "learned" (`knows`). A young memory, out of its first
    /// day's steps, is picked again before it is typed (a review's second day was nine cold typed names of people met
    /// once, at 30 %): typed from a memory of `typedFromDays`.
    public static func learned(_ card: Card?) -> Bool {
        guard let card else { return false }
        if card.state == .review { return (card.stability ?? 0) >= typedFromDays }
        return (card.step ?? 0) >= 1
    }

    /// The stability (days) from which a person out of their learning steps is asked by name, typed.
    public static let typedFromDays = 5.0

    /// Learned, as the counts and the lesson summary say it (issue 41: one lucky pick among six, or the question
    /// right after the introduction, counted as learned): past the learning steps, memory lasting at least
    /// `learnedDays`, and remembered at least a day after meeting (a review saw "Learned" 25 minutes after). Answers
    /// on the day of meeting alone never reach it.
    public static func knows(_ card: Card?) -> Bool {
        guard let card, card.state == .review, (card.stability ?? 0) >= learnedDays else { return false }
        guard let created = card.created, let last = card.lastReview else { return true }
        return last - created >= FSRS.day
    }

    /// Met and on the way: likely remembered tomorrow (memory lasting a day or more), not yet learned. The level that
    /// moves on a first day (two reviews read "Learned: 0 of 130" after a day's lessons as nothing gained).
    public static func gettingThere(_ card: Card?) -> Bool {
        guard let card, !knows(card) else { return false }
        return (card.stability ?? 0) >= 1
    }

    /// The stability (days) from which someone counts as learned: beyond what the first day's answers give.
    public static let learnedDays = 7.0

    /// A round's verdict on the person asked: a wrong pick or "I don't know" is a lapse; a right answer after help (the
    /// first letter, half the faces gone) or a slow one is a hard one, not a clean recall (a review: a name typed after
    /// its first letter was shown made its person "Learned"; another: a slow right answer rated as a miss).
    public func rating(
        wrongPicks: Int, gaveUp: Bool, milliseconds: Int, helped: Bool = false, typed: Bool = false, usual: Int? = nil
    ) -> Rating {
        if wrongPicks > 0 || gaveUp { return .again }
        return helped || milliseconds > slowLimit(typed: typed, usual: usual) ? .hard : .good
    }

    /// What a player knows, in four counts; people not met are only counted, never named. "Learned" is `knows`, on
    /// the statistics page as on its wall, the menu and the lesson summary (a review found "Known well 2 · Learning 7"
    /// beside "Learned: 9 of 130" on one page).
    public struct Mastery: Sendable, Equatable {
        public var knownWell = 0, learning = 0, notMet = 0, due = 0
    }

    public func mastery(people: [Person], cards: [String: Card], now: Int64) -> Mastery {
        var result = Mastery()
        for person in people {
            guard let card = cards[person.id] else {
                result.notMet += 1
                continue
            }
            // The one rule of "Learned" (a review saw "Learned 3" here beside "Learned: 0 of 130" elsewhere).
            if Self.knows(card) {
                result.knownWell += 1
            } else {
                result.learning += 1
            }
            if card.due <= now { result.due += 1 }
        }
        return result
    }
}
