import Testing

@testable import Mastermind

func code(_ s: String) -> Code { try! Code(s, rules: .classic) }

@Suite("Mastermind scoring and games")
struct MastermindTests {
    @Test(arguments: [
        ("0135", "2211", 0, 1, 3), ("0123", "1000", 0, 2, 2), ("1123", "1111", 2, 0, 2), ("0110", "1100", 2, 2, 0),
        ("1234", "1111", 1, 0, 3), ("1213", "3111", 1, 2, 1), ("0135", "0156", 2, 1, 1), ("0000", "0000", 4, 0, 0),
        ("0123", "3210", 0, 4, 0), ("7777", "0000", 0, 0, 4), ("1122", "2211", 0, 4, 0), ("1122", "1212", 2, 2, 0),
        ("0012", "2100", 0, 4, 0), ("0001", "1000", 2, 2, 0), ("4567", "7654", 0, 4, 0), ("1111", "1234", 1, 0, 3),
    ])
    func scoring(_ secret: String, _ guess: String, _ red: Int, _ blue: Int, _ gray: Int) {
        #expect(
            Feedback.score(secret: code(secret), guess: code(guess)) == Feedback(red: red, blue: blue, gray: gray),
            "\(secret) vs \(guess)")
    }

    @Test func scoringIsSymmetricInBlueAndRed() {
        // Swapping secret and guess never changes the pegs.
        for a in stride(from: 0, to: 4096, by: 37) {
            for b in stride(from: 0, to: 4096, by: 53) {
                let x = Code(index: a, rules: .classic)
                let y = Code(index: b, rules: .classic)
                #expect(Feedback.score(secret: x, guess: y) == Feedback.score(secret: y, guess: x))
            }
        }
    }

    @Test(arguments: [
        ("013", Code.Problem.wrongLength(expected: 4, got: 3)), ("01355", .wrongLength(expected: 4, got: 5)),
        ("0138", .outOfRange(digit: "8", min: 0, max: 7)), ("01a5", .notADigit("a")), ("０１２３", .notADigit("０")),
        ("", .wrongLength(expected: 4, got: 0)), ("01 5", .notADigit(" ")),
    ])
    func invalidCodesSayWhy(_ text: String, _ problem: Code.Problem) {
        #expect(throws: problem) { try Code(text, rules: .classic) }
    }

    @Test func aGameIsWonOrLost() throws {
        var rng = SystemRandomNumberGenerator()
        var game = Game(rules: .classic, secret: code("0135"))
        let first = try game.guess("0156", using: &rng)
        #expect(first.feedback == Feedback(red: 2, blue: 1, gray: 1))
        #expect(first.pegs.sorted { $0.rawValue < $1.rawValue } == [.blue, .gray, .red, .red])
        #expect(game.attemptsLeft == 9)
        _ = try game.guess("0135", using: &rng)
        #expect(game.outcome == .won)
        #expect(throws: Game.Refusal.finished) { try game.guess("0000", using: &rng) }

        var lost = Game(rules: Rules(attempts: 2), secret: code("7777"))
        _ = try lost.guess("0000", using: &rng)
        #expect(throws: Game.Refusal.invalid(.notADigit("x"))) { try lost.guess("x000", using: &rng) }
        #expect(lost.turns.count == 1, "an invalid guess changes nothing")
        _ = try lost.guess("0001", using: &rng)
        #expect(lost.outcome == .lost)
    }

    @Test func pegOrderIsShuffled() throws {
        var rng = SystemRandomNumberGenerator()
        var orders = Set<[Peg]>()
        for _ in 0..<50 {
            var game = Game(rules: .classic, secret: code("0135"))
            orders.insert(try game.guess("0153", using: &rng).pegs)
        }
        #expect(orders.count > 1, "pegs do not always come in the same order")
    }

    @Test func secretsAreUniform() {
        var rng = SystemRandomNumberGenerator()
        var counts = [Int](repeating: 0, count: 8)
        for _ in 0..<20_000 { for d in Game.randomSecret(.classic, using: &rng).digits { counts[Int(d)] += 1 } }
        // 80,000 digits: each of 8 values near 10,000 (a 6-sigma band).
        #expect(counts.allSatisfy { (9_400...10_600).contains($0) }, "\(counts)")
    }

    @Test func solverHintsAreConsistentAndSmall() {
        let solver = Solver(rules: .classic)
        let first = solver.nextGuess(after: [])!
        #expect(first.digits.count == 4)
        let secret = code("5306")
        let history = [(first, Feedback.score(secret: secret, guess: first))]
        let second = solver.nextGuess(after: history)!
        #expect(second != first)
        // Impossible feedback leaves nothing to propose.
        #expect(
            solver.nextGuess(after: [
                (code("0000"), Feedback(red: 4, blue: 0, gray: 0)),
                (code("1111"), Feedback(red: 4, blue: 0, gray: 0)),
            ]) == nil)
    }

    /// The secrets the solver's tests play to the end.
    static let secrets = ["5306", "7777", "0123", "4455", "6170", "2222", "3571", "0606"]

    /// Hard mode's hint fits every row so far (the game would refuse one that does not); Knuth's minimax pick often
    /// does not, so the games below meet that case.
    @Test func aFittingHintFitsEveryRowSoFar() throws {
        let solver = Solver(rules: .classic)
        var random = SystemRandomNumberGenerator()
        var unfitting = 0
        for secret in Self.secrets {
            var game = Game(rules: .classic, secret: code(secret))
            while game.outcome == .playing {
                let history = game.turns.map { ($0.guess, $0.feedback) }
                let hint = try #require(solver.nextGuess(after: history, fitting: true))
                #expect(game.contradiction(hint) == nil, "\(hint) after \(history)")
                if let free = solver.nextGuess(after: history), game.contradiction(free) != nil { unfitting += 1 }
                _ = try game.guess(String(hint.digits.map { Character(String($0)) }), using: &random)
            }
        }
        #expect(unfitting > 0, "the unrestricted solver's picks never left the fitting codes: the test proves nothing")
    }

    /// Hard mode's move is the one weighing every code that fits (the lowest of those whose worst answer leaves the
    /// fewest), though only the lowest of each class of interchangeable codes is weighed now: the first move weighed
    /// all 4,096, and a review's give-up in hard mode took 2.6 s. An oracle that weighs them all, on small rules.
    @Test func aFittingMoveWeighsOneCodeOfEachInterchangeableClass() throws {
        let rules = Rules(length: 3, digitMin: 0, digitMax: 4, attempts: 10)
        let solver = Solver(rules: rules)
        let all = (0..<rules.codeCount).map { Code(index: $0, rules: rules) }
        func oracle(_ history: [(Code, Feedback)]) -> Code? {
            let fits = all.filter { code in history.allSatisfy { Feedback.score(secret: code, guess: $0.0) == $0.1 } }
            return fits.min { a, b in
                func worst(_ guess: Code) -> Int {
                    Dictionary(grouping: fits) { Feedback.score(secret: $0, guess: guess) }.values.map(\.count).max()!
                }
                let (x, y) = (worst(a), worst(b))
                return x != y ? x < y : a.digits.lexicographicallyPrecedes(b.digits)
            }
        }
        var random = SystemRandomNumberGenerator()
        var compared = 0
        for index in stride(from: 0, to: rules.codeCount, by: 17) {
            var game = Game(rules: rules, secret: Code(index: index, rules: rules))
            while game.outcome == .playing {
                let history = game.turns.map { ($0.guess, $0.feedback) }
                let move = try #require(solver.nextGuess(after: history, fitting: true))
                #expect(move == oracle(history), "after \(history)")
                compared += 1
                _ = try game.guess(String(move.digits.map { Character(String($0)) }), using: &random)
            }
        }
        #expect(compared >= 15)
    }

    /// A player's hint is a code that could win where that costs little: its worst case leaves at most a third more
    /// codes (and one) than the best probe's. Games played by it are still won, and some of its picks differ from the
    /// probe's (a review: a hint that "can't be the code itself" spends a guess that can never win).
    @Test func aPlayersHintCanWinWhereThatCostsLittle() throws {
        let solver = Solver(rules: .classic)
        let all = (0..<Rules.classic.codeCount).map { Code(index: $0, rules: .classic) }
        var random = SystemRandomNumberGenerator()
        var nowFitting = 0
        for secret in Self.secrets {
            var game = Game(rules: .classic, secret: code(secret))
            while game.outcome == .playing {
                let history = game.turns.map { ($0.guess, $0.feedback) }
                let left = all.filter { c in history.allSatisfy { Feedback.score(secret: c, guess: $0.0) == $0.1 } }
                func worst(_ guess: Code) -> Int {
                    var counts: [Feedback: Int] = [:]
                    for c in left { counts[Feedback.score(secret: c, guess: guess), default: 0] += 1 }
                    return counts.values.max() ?? 0
                }
                let probe = try #require(solver.nextGuess(after: history))
                let hint = try #require(solver.nextGuess(after: history, preferFitting: true))
                let (hintWorst, probeWorst) = (worst(hint), worst(probe))
                #expect(hintWorst <= probeWorst + probeWorst / 3 + 1, "\(hint) after \(history)")
                if !left.contains(probe) && left.contains(hint) { nowFitting += 1 }
                _ = try game.guess(String(hint.digits.map { Character(String($0)) }), using: &random)
            }
            #expect(game.outcome == .won, "\(secret) in \(game.turns.count)")
        }
        #expect(nowFitting > 0, "no hint differed from the probe: the preference never applied")
    }

    /// A digit the player knows in its place (the Konami code's reveal) narrows the hint: a review's late hint ignored
    /// it and named a probe that could not win, with two codes left that had the digit in place. With it, a hint is
    /// one of the codes left once only two are; a fitting hint has the digit in its place.
    @Test func aKnownDigitNarrowsTheHint() throws {
        let solver = Solver(rules: .classic)
        let all = (0..<Rules.classic.codeCount).map { Code(index: $0, rules: .classic) }
        var random = SystemRandomNumberGenerator()
        var endgames = 0
        for secret in Self.secrets {
            let known = (position: 1, digit: code(secret).digits[1])
            var game = Game(rules: .classic, secret: code(secret))
            while game.outcome == .playing {
                let history = game.turns.map { ($0.guess, $0.feedback) }
                let left = all.filter { c in
                    c.digits[known.position] == known.digit
                        && history.allSatisfy { Feedback.score(secret: c, guess: $0.0) == $0.1 }
                }
                let hint = try #require(solver.nextGuess(after: history, known: known))
                if left.count <= 2 {
                    endgames += 1
                    #expect(left.contains(hint), "\(hint) with \(left) left for \(secret)")
                }
                let fitting = try #require(solver.nextGuess(after: history, fitting: true, known: known))
                #expect(left.contains(fitting), "\(fitting) for \(secret)")
                _ = try game.guess(String(hint.digits.map { Character(String($0)) }), using: &random)
            }
        }
        #expect(endgames > 0, "no game came down to two codes: the test proves nothing")
    }

    /// A guess's expected and most codes left: the average and the largest over every secret still possible, by
    /// brute force.
    @Test func expectedLeftAveragesOverEverySecretStillPossible() {
        let solver = Solver(rules: .classic)
        let secret = code("5306")
        let history = [(code("0011"), Feedback.score(secret: secret, guess: code("0011")))]
        let all = (0..<Rules.classic.codeCount).map { Code(index: $0, rules: .classic) }
        let fitting = all.filter { c in history.allSatisfy { Feedback.score(secret: c, guess: $0.0) == $0.1 } }
        for guess in [code("2345"), code("0123"), code("5306")] {
            let left = fitting.map { s -> Int in
                let answer = Feedback.score(secret: s, guess: guess)
                if answer.red == 4 { return 0 }
                return fitting.count { Feedback.score(secret: $0, guess: guess) == answer }
            }
            let expected = Double(left.reduce(0, +)) / Double(fitting.count)
            #expect(abs(solver.expectedLeft(after: history, guess: guess) - expected) < 1e-9)
            // The most it can leave: the largest group of one feedback, a win's none.
            #expect(solver.mostLeft(after: history, guess: guess) == left.max(), "\(guess.digits)")
        }
    }

    /// The codes left after each row, against a count by brute force over every code.
    @Test func remainingCountsEveryCodeThatFitsTheFeedbackSoFar() {
        let solver = Solver(rules: .classic)
        let secret = code("5306")
        let guesses = [code("0011"), code("2345"), code("5306")]
        let history = guesses.map { ($0, Feedback.score(secret: secret, guess: $0)) }
        let all = (0..<Rules.classic.codeCount).map { Code(index: $0, rules: .classic) }
        let expected = (1...history.count).map { n in
            all.filter { candidate in
                history.prefix(n).allSatisfy { Feedback.score(secret: candidate, guess: $0.0) == $0.1 }
            }.count
        }
        #expect(solver.remaining(after: history) == expected)
        #expect(expected.last == 1 && expected[0] > expected[1])
        #expect(solver.remaining(after: []) == [])
    }

    @Test func smallerGamesAreSolvedWithinKnuthsBound() {
        // 4 pegs of 6 colours: Knuth's minimax never needs more than 5.
        let rules = Rules(length: 4, digitMin: 1, digitMax: 6)
        let solver = Solver(rules: rules)
        var cache: [String: Code] = [:]
        var worst = 0
        for i in 0..<rules.codeCount {
            worst = max(worst, solver.play(secret: Code(index: i, rules: rules), cache: &cache))
        }
        #expect(worst <= 5)
    }

    /// Hard mode: a guess must be a code that could still be the secret, given every row shown.
    @Test func hardModeNamesTheFirstRowAGuessContradicts() throws {
        let rules = Rules.classic
        var game = Game(rules: rules, secret: try Code("0123", rules: rules))
        var random = SystemRandomNumberGenerator()
        _ = try game.guess("0456", using: &random)  // 1 red (0), 0 blue
        _ = try game.guess("7103", using: &random)  // 1 red (3), 2 blue (1, 0)
        #expect(game.contradiction(try Code("0123", rules: rules)) == nil, "the secret always fits")
        #expect(game.contradiction(try Code("4567", rules: rules)) == 0, "no 0 in place: row 1 had one red")
        #expect(game.contradiction(try Code("0777", rules: rules)) == 1, "fits row 1, not row 2")
        #expect(game.contradiction(try Code("0456", rules: rules)) == 0, "an earlier guess fits only if it won")
        #expect(
            Game(rules: rules, secret: try Code("0123", rules: rules)).contradiction(try Code("7777", rules: rules))
                == nil)
    }

    /// The keys' marks: read from the rows at a glance, and never wrong about the secret.
    @Test func theDigitsKnownFollowFromTheRowsAndFitTheSecret() throws {
        var random = SystemRandomNumberGenerator()
        var game = Game(rules: .classic, secret: code("0123"))
        _ = try game.guess("4455", using: &random)  // nothing: 4 and 5 are out
        _ = try game.guess("0456", using: &random)  // one peg, and only the 0 and the 6 can have earned it
        #expect(game.digitsKnown.absent == [4, 5])
        #expect(game.digitsKnown.present.isEmpty, "0 or 6: not known yet")
        _ = try game.guess("4015", using: &random)  // two pegs: 0 and 1 by the rows together, by neither alone
        #expect(game.digitsKnown.present.isEmpty, "what rows prove together is the aid's (a review)")
        _ = try game.guess("3210", using: &random)  // four pegs: every digit
        #expect(game.digitsKnown.present == [0, 1, 2, 3])
        #expect(game.digitsKnown.absent == [4, 5, 6, 7], "every place accounted for: the rest out (a review's 7)")
        // As in a review's daily: 3415 scored two and two, and 7 stayed plain beside 0, 2 and 6 crossed out.
        var daily = Game(rules: .classic, secret: code("3451"))
        _ = try daily.guess("3415", using: &random)
        #expect(daily.digitsKnown.absent == [0, 2, 6, 7] && daily.digitsKnown.present == [1, 3, 4, 5])
        // As in a review's game: 0011 two pegs, 2233 and 1144 nothing, 5500 three: three pegs from two 5s and two 0s
        // take at least one of each, by that row alone.
        var review = Game(rules: .classic, secret: code("0057"))
        for guess in ["0011", "2233", "1144", "5500"] { _ = try review.guess(guess, using: &random) }
        #expect(review.digitsKnown.absent == [1, 2, 3, 4])
        #expect(review.digitsKnown.present == [0, 5])
        // 0066's two pegs alone could be the 6s': that it is the 0s' takes 5500 and the other rows.
        _ = try review.guess("0066", using: &random)
        #expect(!review.digitsKnown.absent.contains(6) && !review.digitsKnown.present.contains(6))
        // Over many random games, a digit marked out is never the secret's and one marked in always is.
        for _ in 0..<300 {
            var game = Game(rules: .classic, secret: Game.randomSecret(.classic, using: &random))
            while game.outcome == .playing {
                _ = try game.guess(
                    String(Game.randomSecret(.classic, using: &random).digits.map { Character(String($0)) }),
                    using: &random)
                let known = game.digitsKnown
                let secret = Set(game.secret.digits)
                #expect(known.absent.isDisjoint(with: secret) && known.present.isSubset(of: secret))
            }
        }
    }

    /// The keys by every code still fitting: sound, and complete once one code is left (a review: the rows had left
    /// one code and every key was plain).
    @Test func theSolverKnowsTheDigitsOfEveryCodeStillFitting() throws {
        var random = SystemRandomNumberGenerator()
        let solver = Solver(rules: .classic)
        #expect(solver.digitsKnown(after: []) == ([], []), "nothing before a row")
        for _ in 0..<40 {
            var game = Game(rules: .classic, secret: Game.randomSecret(.classic, using: &random))
            while game.outcome == .playing {
                let history = game.turns.map { ($0.guess, $0.feedback) }
                let guess = solver.nextGuess(after: history) ?? game.secret
                _ = try game.guess(String(guess.digits.map { Character(String($0)) }), using: &random)
                let after = game.turns.map { ($0.guess, $0.feedback) }
                let known = solver.digitsKnown(after: after)
                let secret = Set(game.secret.digits)
                #expect(known.absent.isDisjoint(with: secret) && known.present.isSubset(of: secret))
                #expect(game.digitsKnown.present.isSubset(of: known.present), "at least what bookkeeping proves")
                if solver.remaining(after: after).last == 1 {
                    #expect(known.present == secret && known.absent == Set(0...7).subtracting(secret))
                }
            }
        }
    }
}
