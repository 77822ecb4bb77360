import ArcadeStore
import ArcadeWeb
import CSystem
import Mastermind

/// `arcade mastermind score SECRET GUESS` and `arcade mastermind solve-all`.
enum MastermindCommand {
    static func run(_ arguments: [String]) -> Int32 {
        let rules = Rules.classic
        switch arguments.first {
        case "score":
            guard arguments.count == 3 else { return usage() }
            do {
                let secret = try Code(arguments[1], rules: rules)
                let guess = try Code(arguments[2], rules: rules)
                CommandLineTool.write("\(Feedback.score(secret: secret, guess: guess))\n", to: 1)
                return 0
            } catch {
                CommandLineTool.write("arcade: \(MastermindCommand.describe(error, rules: rules))\n", to: 2)
                return 2
            }
        case "solve-all":
            guard arguments.count == 1 else { return usage() }
            let solver = Solver(rules: rules)
            var cache: [String: Code] = [:]
            var histogram: [Int: Int] = [:]
            var total = 0
            for i in 0..<rules.codeCount {
                let guesses = solver.play(secret: Code(index: i, rules: rules), cache: &cache)
                histogram[guesses, default: 0] += 1
                total += guesses
            }
            for (guesses, count) in histogram.sorted(by: { $0.key < $1.key }) {
                CommandLineTool.write("\(guesses) guesses: \(count)\n", to: 1)
            }
            let average = Double(total) / Double(rules.codeCount)
            let rounded = Double(Int(average * 1000 + 0.5)) / 1000
            CommandLineTool.write(
                "average \(rounded) worst \(histogram.keys.max() ?? 0) over \(rules.codeCount)\n", to: 1)
            return 0
        case "hint-bench":
            // The costliest hint is the second: the first guess's answer
            // leaves the most codes. Time one hint for every possible answer.
            let solver = Solver(rules: rules)
            let first = solver.nextGuess(after: [])!
            var seen = Set<Feedback>()
            var times: [Double] = []
            for i in 0..<rules.codeCount {
                let feedback = Feedback.score(secret: Code(index: i, rules: rules), guess: first)
                guard seen.insert(feedback).inserted else { continue }
                let start = csys_monotonic_ns()
                _ = solver.nextGuess(after: [(first, feedback)], preferFitting: true)  // as a player's hint asks
                times.append(Double(csys_monotonic_ns() - start) / 1e6)
            }
            let start = csys_monotonic_ns()
            _ = solver.nextGuess(after: [])
            let opening = Double(csys_monotonic_ns() - start) / 1e6
            times.sort()
            func ms(_ v: Double) -> String { String(Double(Int(v * 100)) / 100) }
            CommandLineTool.write(
                "hint: first \(ms(opening)) ms; second, over \(times.count) answers: median \(ms(times[times.count / 2])) ms, "
                    + "max \(ms(times.last!)) ms (target <= 50 ms)\n", to: 1)
            return times.last! <= 50 ? 0 : 1
        default:
            return usage()
        }
    }

    static func describe(_ problem: Code.Problem, rules: Rules) -> String {
        switch problem {
        case .wrongLength(let expected, let got): "a code has \(expected) digits, not \(got)"
        case .outOfRange(let digit, let min, let max): "digit \(digit) is outside \(min)–\(max)"
        case .notADigit(let ch): "'\(ch)' is not a digit"
        }
    }

    private static func usage() -> Int32 {
        CommandLineTool.write(
            """
            usage: arcade mastermind score SECRET GUESS   print red blue gray, e.g. "2 1 1"
                   arcade mastermind solve-all            play the hint solver against every secret

            """, to: 2)
        return 2
    }
}
