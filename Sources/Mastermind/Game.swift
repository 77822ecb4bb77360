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

    /// What the rows say of each digit at a glance, as Wordle's keyboard does (no search over codes): a digit of a row
    /// that scored nothing is not in the code; a row whose pegs count every one of its places not so ruled out has
    /// each of those digits in the code (each place scores at most once, and a ruled-out one scores nothing).
    public var digitsKnown: (absent: Set<UInt8>, present: Set<UInt8>) {
        let absent = Set(turns.filter { $0.feedback.red + $0.feedback.blue == 0 }.flatMap(\.guess.digits))
        var present: Set<UInt8> = []
        for turn in turns {
            let open = turn.guess.digits.filter { !absent.contains($0) }
            if !open.isEmpty && open.count == turn.feedback.red + turn.feedback.blue { present.formUnion(open) }
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
