#if canImport(Glibc)
import Glibc
#endif

/// How well a person was recalled.
public enum Rating: Int, Sendable, CaseIterable {
    case again = 1, hard, good, easy
}

/// What one player knows of one item (for the Name Game, one person).
/// Times are milliseconds on the caller's clock; the scheduler never reads a clock.
public struct Card: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Met, and going through the short learning steps.
        case learning
        /// Graduated: next seen after an interval in days.
        case review
        /// Forgotten after graduating: short steps again.
        case relearning
    }

    public var state: State = .learning
    /// The learning or relearning step; nil in review.
    public var step: Int? = 0
    /// Days until recall falls to 90%; nil before the first review.
    public var stability: Double?
    /// 1 (easy) … 10 (hard); nil before the first review.
    public var difficulty: Double?
    public var due: Int64
    public var lastReview: Int64?
    /// When the card was made (its first review or introduction), if known; reviews keep it.
    public var created: Int64?

    /// A card never reviewed, due at once.
    public init(due: Int64) { self.due = due }

    public init(
        state: State, step: Int?, stability: Double?, difficulty: Double?, due: Int64, lastReview: Int64?,
        created: Int64? = nil
    ) {
        self.state = state
        self.step = step
        self.stability = stability
        self.difficulty = difficulty
        self.due = due
        self.lastReview = lastReview
        self.created = created
    }
}

/// The Free Spaced Repetition Scheduler, version 5 (FSRS-5, open-spaced-repetition), with learning and
/// relearning steps and no fuzz: the same reviews always give the same schedule.
public struct FSRS: Sendable {
    /// FSRS-5's 19 published default weights.
    public static let defaultWeights: [Double] = [
        0.40255, 1.18385, 3.173, 15.69105, 7.1949, 0.5345, 1.4604, 0.0046, 1.54575, 0.1192, 1.01925, 1.9395, 0.11,
        0.29605, 2.2698, 0.2315, 2.9898, 0.51655, 0.6621,
    ]
    public static let minute: Int64 = 60_000
    public static let day: Int64 = 86_400_000

    public let w: [Double]
    public let desiredRetention: Double
    public let learningSteps: [Int64]
    public let relearningSteps: [Int64]
    public let maximumInterval: Int
    /// The most stability (days) a card may leave its learning steps with on the day it was made (`Card.created`):
    /// each same-day step grows it by the short-term formula, and four steps passed in one sitting took a name met
    /// that day to nine days (a review: "comes back in 9 days" on day one). Nil: no cap (FSRS as published).
    public var firstDayStability: Double?

    private let decay = -0.5
    private var factor: Double { pow(0.9, 1 / decay) - 1 }

    public init(
        weights: [Double] = FSRS.defaultWeights, desiredRetention: Double = 0.9,
        learningSteps: [Int64] = [FSRS.minute, 10 * FSRS.minute], relearningSteps: [Int64] = [10 * FSRS.minute],
        maximumInterval: Int = 36_500
    ) {
        precondition(weights.count == 19, "FSRS-5 has 19 weights")
        w = weights
        self.desiredRetention = desiredRetention
        self.learningSteps = learningSteps
        self.relearningSteps = relearningSteps
        self.maximumInterval = maximumInterval
    }

    /// The card after a review with `rating` at `now`.
    public func review(_ card: Card, _ rating: Rating, at now: Int64) -> Card {
        var next = card
        if let s = card.stability, let d = card.difficulty {
            next.stability = stability(s, d, rating, now: now, last: card.lastReview)
            next.difficulty = nextDifficulty(d, rating)
        } else {
            next.stability = w[rating.rawValue - 1]
            next.difficulty = initialDifficulty(rating)
        }
        next.due = now + interval(&next, rating)
        if let cap = firstDayStability, card.state == .learning, next.state == .review, let s = next.stability, s > cap,
            now - (card.created ?? card.lastReview ?? now) < FSRS.day
        {
            next.stability = cap
            next.due = now + interval(&next, rating)
        }
        next.lastReview = now
        return next
    }

    /// The chance of recalling the card at `now` (1 before its first review's day is over).
    public func retrievability(_ card: Card, at now: Int64) -> Double {
        guard let s = card.stability, let last = card.lastReview else { return 0 }
        return pow(1 + factor * Double(max(0, (now - last) / FSRS.day)) / s, decay)
    }

    private func stability(_ s: Double, _ d: Double, _ rating: Rating, now: Int64, last: Int64?) -> Double {
        if let last, now - last < FSRS.day { return shortTerm(s, rating) }
        let r = last.map { pow(1 + factor * Double(max(0, (now - $0) / FSRS.day)) / s, decay) } ?? 0
        if rating == .again {
            let forget = w[11] * pow(d, -w[12]) * (pow(s + 1, w[13]) - 1) * exp((1 - r) * w[14])
            return min(forget, shortTerm(s, rating))
        }
        let bonus = (rating == .hard ? w[15] : 1) * (rating == .easy ? w[16] : 1)
        return s * (1 + exp(w[8]) * (11 - d) * pow(s, -w[9]) * (exp((1 - r) * w[10]) - 1) * bonus)
    }

    /// Reviews on the same day change stability by the short-term formula.
    private func shortTerm(_ s: Double, _ rating: Rating) -> Double {
        s * exp(w[17] * (Double(rating.rawValue) - 3 + w[18]))
    }

    private func initialDifficulty(_ rating: Rating) -> Double {
        w[4] - exp(w[5] * Double(rating.rawValue - 1)) + 1
    }

    private func nextDifficulty(_ d: Double, _ rating: Rating) -> Double {
        let delta = -w[6] * (Double(rating.rawValue) - 3)
        let damped = d + delta * (10 - d) / 9
        let reverted = w[7] * initialDifficulty(.easy) + (1 - w[7]) * damped
        return min(max(reverted, 1), 10)
    }

    /// Milliseconds to the next review, moving the card between states.
    private func interval(_ card: inout Card, _ rating: Rating) -> Int64 {
        let days = (card.stability! / factor) * (pow(desiredRetention, 1 / decay) - 1)
        let graduated = Int64(min(max(days.rounded(), 1), Double(maximumInterval))) * FSRS.day
        func steps(_ steps: [Int64]) -> Int64 {
            let step = card.step ?? 0
            if step >= steps.count || rating == .easy || (rating == .good && step + 1 == steps.count) {
                card.state = .review
                card.step = nil
                return graduated
            }
            switch rating {
            case .hard: return step + 1 == steps.count ? steps[step] * 3 / 2 : (steps[step] + steps[step + 1]) / 2
            case .again: card.step = 0
            default: card.step = step + 1
            }
            return steps[card.step!]
        }
        switch card.state {
        case .learning: return steps(learningSteps)
        case .relearning: return steps(relearningSteps)
        case .review:
            guard rating == .again, !relearningSteps.isEmpty else { return graduated }
            card.state = .relearning
            card.step = 0
            return relearningSteps[0]
        }
    }
}
