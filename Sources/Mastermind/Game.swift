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

    /// What the rows say of each digit, by the bookkeeping a player does (no search over codes), as Wordle's keyboard
    /// shows its letters. A row's pegs are the sum, over its digits, of the fewer of their count in the guess and in the
    /// code; so a digit of a row that scored nothing is out, and once a row's other digits are accounted for (out, or
    /// known to be in the code as often as the row has them), what is left of its pegs is theirs.
    public var digitsKnown: (absent: Set<UInt8>, present: Set<UInt8>) {
        var absent: Set<UInt8> = []
        var least: [UInt8: Int] = [:]  // the code has at least this many of the digit
        var changed = true
        while changed {
            changed = false
            for turn in turns {
                var counts: [UInt8: Int] = [:]
                for digit in turn.guess.digits where !absent.contains(digit) { counts[digit, default: 0] += 1 }
                let settled = counts.filter { least[$0.key, default: 0] >= $0.value }
                let open = counts.filter { least[$0.key, default: 0] < $0.value }
                let rest = turn.feedback.red + turn.feedback.blue - settled.values.reduce(0, +)
                guard !open.isEmpty else { continue }
                if rest == 0 {
                    absent.formUnion(open.keys)
                    changed = true
                } else if rest == open.values.reduce(0, +) || open.count == 1 {
                    // All of the open digits score in full, or one digit scores all that is left.
                    for (digit, count) in open where least[digit, default: 0] < min(count, rest) {
                        least[digit] = min(count, rest)
                        changed = true
                    }
                }
            }
            // The code's places all accounted for, every other digit is out (a review: 3415 scored four pegs, and 7
            // stayed plain beside 0, 2 and 6 crossed out).
            if least.values.reduce(0, +) >= rules.length {
                let others = (rules.digitMin...rules.digitMax).map(UInt8.init).filter {
                    least[$0, default: 0] == 0 && !absent.contains($0)
                }
                if !others.isEmpty {
                    absent.formUnion(others)
                    changed = true
                }
            }
        }
        return (absent, Set(least.filter { $0.value > 0 }.keys))
    }

    /// A uniformly random secret, without modulo bias (the generator's own
    /// `random(in:)` uses rejection sampling).
    public static func randomSecret<R: RandomNumberGenerator>(_ rules: Rules, using random: inout R) -> Code {
        Code(
            digits: (0..<rules.length).map { _ in UInt8(Int.random(in: rules.digitMin...rules.digitMax, using: &random))
            })
    }
}
