import Mastermind
import Testing

@testable import ArcadeStore

/// The solver's review of a finished game, without a server: its moves under the player's rules, cached by board, and
/// how a row is weighed against them.
@Suite("The solver's review")
struct SolversTests {
    let solvers = MastermindSolvers()

    func step(_ played: Double, against solver: Double) -> MastermindSolvers.Step {
        MastermindSolvers.Step(
            guess: try! Code("0123", rules: .classic), left: 10, expected: solver, playedExpected: played)
    }

    @Test func aRowIsWeighedOnAverageNotAgainstThisSecret() {
        #expect(step(90, against: 100).verdict == "better")
        #expect(step(100.05, against: 100).verdict == "best")
        #expect(step(125, against: 100).verdict == "close")
        #expect(step(1_296, against: 936).verdict == "worse", "a review heard this called close")
    }

    @Test func luckIsSaidOnlyWhenFarFromTheAverage() {
        let row = step(30, against: 30)
        #expect(row.luck(left: 10, strong: false) == "lucky")
        #expect(row.luck(left: 10, strong: true) == "luckyToo")
        #expect(row.luck(left: 60, strong: false) == "unlucky")
        #expect(row.luck(left: 28, strong: false) == nil, "within a code or two")
        #expect(row.luck(left: 40, strong: false) == nil, "not half again")
    }

    @Test func aFinishedGamesMovesAreTheSolversAndCached() throws {
        let rules = Rules.classic
        let secret = try Code("4567", rules: rules)
        let turns = try ["0123", "4455", "4567"].map { text in
            let guess = try Code(text, rules: rules)
            return Turn(guess: guess, feedback: Feedback.score(secret: secret, guess: guess), pegs: [])
        }
        let game = Game(rules: rules, secret: secret, turns: turns)
        let solver = solvers.solver(rules)
        #expect(solvers.solver(rules) === solver, "one solver per rule set")
        let moves = solvers.best(game, solver, hard: false)
        #expect(moves.count == 3 && moves.allSatisfy { $0 != nil })
        #expect(moves[0]?.guess == solver.nextGuess(after: []), "the opening is the solver's")
        #expect(solvers.remaining(game, solver) == solver.remaining(after: turns.map { ($0.guess, $0.feedback) }))
    }
}
