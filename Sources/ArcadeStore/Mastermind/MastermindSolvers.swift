import Crypto
import Mastermind
import Synchronization

/// One solver per rule set (building one lists every code), and what it worked out for each board: the codes
/// left after each row, the digits surely in and out, and once a game is over its best move at each step. A
/// history always gives the same, and working it out again on every view of a board took the solver up to tens of
/// milliseconds a row.
package final class MastermindSolvers: Sendable {
    private let cache = Mutex<[Rules: Solver]>([:])
    private let counts = BoundedCache<Board, [Int]>(limit: 4_096)
    private let moves = BoundedCache<Board, [Step?]>(limit: 4_096)
    private let digits = BoundedCache<Board, (absent: Set<UInt8>, present: Set<UInt8>)>(limit: 4_096)

    package init() {}

    package struct Board: Hashable, Sendable {
        package let rules: Rules
        package let secret: Code
        package let guesses: [Code]
        /// Whether every guess had to fit the rows before it (the solver's moves then do too).
        package let hard: Bool

        package init(rules: Rules, secret: Code, guesses: [Code], hard: Bool) {
            (self.rules, self.secret, self.guesses, self.hard) = (rules, secret, guesses, hard)
        }

        package init(_ game: Game, hard: Bool = false) {
            self.init(rules: game.rules, secret: game.secret, guesses: game.turns.map(\.guess), hard: hard)
        }
    }

    /// The solver's move from one position, the codes it would have left against the secret, and on average (its
    /// skill); and the player's guess's average from the same position.
    package struct Step: Sendable {
        package let guess: Code
        package let left: Int
        package let expected: Double
        package let playedExpected: Double

        /// The played guess against the solver's, on average over every secret still possible, not against this one
        /// (a review read the rows' verdicts as scolding when a good guess met an unlucky answer): better, best (as
        /// good), close (within a quarter more: a review heard 1,296 against the solver's 936 called close), worse.
        package var verdict: String {
            if playedExpected < expected * 0.999 { return "better" }
            if playedExpected <= expected * 1.001 { return "best" }
            return playedExpected <= expected * 1.25 ? "close" : "worse"
        }

        /// The answer's luck: the codes it `left` against the played guess's average, said only when far off (and by
        /// more than a code or two); beside a `strong` guess (the solver's own, or as good) only that (a review read
        /// "You got lucky" over the solver's own opener).
        package func luck(left: Int, strong: Bool) -> String? {
            let left = Double(left)
            guard abs(left - playedExpected) >= 2.5 else { return nil }
            if left < playedExpected / 1.5 { return strong ? "luckyToo" : "lucky" }
            return left > playedExpected * 1.5 ? (strong ? "unluckyToo" : "unlucky") : nil
        }
    }

    package func solver(_ rules: Rules) -> Solver {
        if let known = cache.withLock({ $0[rules] }) { return known }
        let made = Solver(rules: rules)
        cache.withLock { $0[rules] = made }
        return made
    }

    package func remaining(_ game: Game, _ solver: Solver) -> [Int] {
        let board = Board(game)
        if let known = counts[board] { return known }
        let made = solver.remaining(after: game.turns.map { ($0.guess, $0.feedback) })
        counts[board] = made
        return made
    }

    package func known(_ game: Game, _ solver: Solver) -> (absent: Set<UInt8>, present: Set<UInt8>) {
        let board = Board(game)
        if let known = digits[board] { return known }
        let made = solver.digitsKnown(after: game.turns.map { ($0.guess, $0.feedback) })
        digits[board] = made
        return made
    }

    /// The solver's move at each row, under the rules the player had: in hard mode, and with two guesses left, a
    /// code that could be the secret (a review was told to play 0 0 1 1 in hard mode, which refuses it, and 0 0 0 1
    /// as its last guess, which could not win), and preferring a code that could win as a hint does: its pick is the
    /// hint that row was given (a review played its hint and read that the solver would have played another).
    package func best(_ game: Game, _ solver: Solver, hard: Bool) -> [Step?] {
        let board = Board(game, hard: hard)
        if let known = moves[board] { return known }
        var history: [(Code, Feedback)] = []
        let made = game.turns.enumerated().map { index, turn -> Step? in
            defer { history.append((turn.guess, turn.feedback)) }
            let fitting = hard || game.rules.attempts - index <= 2
            guard let guess = solver.nextGuess(after: history, fitting: fitting, preferFitting: true) else {
                return nil
            }
            let after = history + [(guess, Feedback.score(secret: game.secret, guess: guess))]
            let averages = solver.expectedLeft(after: history, guesses: [guess, turn.guess])
            return Step(
                guess: guess, left: solver.remaining(after: after).last ?? 0, expected: averages[0],
                playedExpected: averages[1])
        }
        moves[board] = made
        return made
    }
}
