/// One peg of feedback, as shown: shuffled once when the guess is scored.
public enum Peg: String, Sendable, CaseIterable {
    case red, blue, gray
}

/// A scored guess with its pegs in their stored (shuffled) order.
public struct Turn: Sendable, Equatable {
    public let guess: Code
    public let feedback: Feedback
    public let pegs: [Peg]

    public init(guess: Code, feedback: Feedback, pegs: [Peg]) {
        self.guess = guess
        self.feedback = feedback
        self.pegs = pegs
    }
}

/// A game of Mastermind: the secret, the turns so far, and what is allowed next.
public struct Game: Sendable {
    public enum Outcome: String, Sendable { case playing, won, lost }

    public enum Refusal: Error, Equatable, Sendable {
        case invalid(Code.Problem)
        case finished
    }

    public let rules: Rules
    public let secret: Code
    public private(set) var turns: [Turn]
    /// Abandoned before the end: counts as lost.
    public let forfeited: Bool

    public init(rules: Rules, secret: Code, turns: [Turn] = [], forfeited: Bool = false) {
        self.rules = rules
        self.secret = secret
        self.turns = turns
        self.forfeited = forfeited
    }

    public var attemptsLeft: Int { outcome == .playing ? max(0, rules.attempts - turns.count) : 0 }

    public var outcome: Outcome {
        if turns.last?.feedback.isWin(rules) == true { return .won }
        return turns.count >= rules.attempts || forfeited ? .lost : .playing
    }

    /// Scores a guess. The pegs are shuffled with the given generator so the
    /// row never tells which digit earned which peg.
    public mutating func guess<R: RandomNumberGenerator>(_ text: String, using random: inout R) throws(Refusal) -> Turn
    {
        guard outcome == .playing else { throw .finished }
        let code: Code
        do { code = try Code(text, rules: rules) } catch { throw .invalid(error) }
        let feedback = Feedback.score(secret: secret, guess: code)
        var pegs =
            Array(repeating: Peg.red, count: feedback.red) + Array(repeating: .blue, count: feedback.blue)
            + Array(repeating: .gray, count: feedback.gray)
        pegs.shuffle(using: &random)
        let turn = Turn(guess: code, feedback: feedback, pegs: pegs)
        turns.append(turn)
        return turn
    }

    /// Hard mode's rule: the first earlier turn (0-based) whose feedback `guess` could not have earned, were it
    /// the secret; nil when the guess fits everything shown so far. Scoring is symmetric, so this asks what the
    /// earlier guess would score against `guess`.
    public func contradiction(_ guess: Code) -> Int? {
        turns.firstIndex { Feedback.score(secret: guess, guess: $0.guess) != $0.feedback }
    }

    /// What each row says of the digits on its own, as How to play tells and as Wordle's keyboard shows its letters:
    /// a row that scored nothing rules its digits out; a digit is in the code when the row's other places could not
    /// have earned all its pegs; a row that scored every place rules out every digit it lacks (a review's 7 beside
    /// 3415's four pegs). What rows prove together is the codes-left aid's, which counts as a hint: the keypad had
    /// combined rows (0 green from 0011 once 2313 had ruled the 1 out) where the help said "a single row", and a
    /// review found its deduction done for it, unmarked.
    public var digitsKnown: (absent: Set<UInt8>, present: Set<UInt8>) {
        var absent: Set<UInt8> = []
        var present: Set<UInt8> = []
        for turn in turns {
            let pegs = turn.feedback.red + turn.feedback.blue
            var counts: [UInt8: Int] = [:]
            for digit in turn.guess.digits { counts[digit, default: 0] += 1 }
            if pegs == 0 { absent.formUnion(counts.keys) }
            for (digit, count) in counts where pegs > rules.length - count { present.insert(digit) }
            if pegs == rules.length {
                absent.formUnion((rules.digitMin...rules.digitMax).map(UInt8.init).filter { counts[$0] == nil })
            }
        }
        return (absent, present)
    }

    /// A uniformly random secret, without modulo bias (the generator's own
    /// `random(in:)` uses rejection sampling).
    public static func randomSecret<R: RandomNumberGenerator>(_ rules: Rules, using random: inout R) -> Code {
        Code(
            digits: (0..<rules.length).map { _ in UInt8(Int.random(in: rules.digitMin...rules.digitMax, using: &random))
            })
    }
}
