/// Knuth's minimax hint: among all codes, the guess whose worst-case answer
/// leaves the fewest codes still consistent with the feedback so far; ties
/// go to a code that could itself be the secret, then to the lowest.
public final class Solver: Sendable {
    public let rules: Rules
    private let codes: [UInt8]  // every code's digits, back to back
    private let count: Int
    private let buckets: Int

    public init(rules: Rules) {
        self.rules = rules
        count = rules.codeCount
        buckets = (rules.length + 1) * (rules.length + 1)
        var codes: [UInt8] = []
        codes.reserveCapacity(count * rules.length)
        for i in 0..<count { codes += Code(index: i, rules: rules).digits }
        self.codes = codes
    }

    /// The next guess given the turns so far (nil if no code fits them). `fitting`: only a code that could be the
    /// secret, as hard mode requires of every guess (a hint there named a code the game then refused). `known`: a
    /// digit the player knows in its place (a cheat's reveal), which only codes with it there can be.
    /// `preferFitting`: a code that could be the secret wins when its worst case leaves at most a third more codes
    /// (and one) than the best probe's: a player's hint that can never win read as the game holding back (a review).
    public func nextGuess(
        after history: [(Code, Feedback)], fitting onlyFitting: Bool = false,
        known: (position: Int, digit: UInt8)? = nil, preferFitting: Bool = false
    ) -> Code? {
        let length = rules.length
        return codes.withUnsafeBufferPointer { all -> Code? in
            func code(_ i: Int) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: all[(i * length)..<((i + 1) * length)])
            }
            let consistent = fitting(history, all).filter { known == nil || code($0)[known!.position] == known!.digit }
            guard !consistent.isEmpty else { return nil }
            if consistent.count == 1 { return Code(digits: Array(code(consistent[0]))) }
            let isConsistent = Set(consistent)
            // Digits no guess has used yet are interchangeable: permuting them
            // maps the consistent codes onto themselves. So only guesses that
            // bring in unused digits in increasing order need scoring (on the
            // first move: 0000, 0001, 0011, 0012, 0123). Each is the lowest
            // code of its class, so ties still go to the lowest.
            var used = [Bool](repeating: false, count: 16)
            for (guess, _) in history { for d in guess.digits { used[Int(d)] = true } }
            // The known digit is set apart from the unused ones: it is not interchangeable with them.
            if let known { used[Int(known.digit)] = true }
            // (The codes that fit are closed under the same permutations, so their lowest of a class stands for it too:
            // hard mode's first move weighed all 4,096 codes, and a review's give-up took 2.6 s.)
            let candidates = (onlyFitting ? consistent : Array(0..<count)).filter { isCanonical(code($0), used: used) }
            var best = -1
            var bestWorst = Int.max
            var bestFits = false
            // The best code that could be the secret, kept apart when one is preferred.
            var bestFitting = -1
            var bestFittingWorst = Int.max
            var partition = [Int](repeating: 0, count: buckets)
            for g in candidates {
                for b in 0..<buckets { partition[b] = 0 }
                var worst = 0
                let guess = code(g)
                let fits = isConsistent.contains(g)
                // Counting stops once the guess cannot win (bestWorst <= bestFittingWorst, so a code that fits is
                // counted as long as it can beat either).
                let limit = fits && preferFitting ? bestFittingWorst : bestWorst
                for s in consistent {
                    let (red, blue) = Scorer.score(code(s), guess)
                    let bucket = red * (length + 1) + blue
                    partition[bucket] += 1
                    if partition[bucket] > worst {
                        worst = partition[bucket]
                        if worst > limit { break }
                    }
                }
                if worst < bestWorst || (worst == bestWorst && fits && !bestFits) {
                    best = g
                    bestWorst = worst
                    bestFits = fits
                }
                if preferFitting && fits && worst < bestFittingWorst {
                    bestFitting = g
                    bestFittingWorst = worst
                }
            }
            if preferFitting && bestFitting >= 0 && bestFittingWorst <= bestWorst + bestWorst / 3 + 1 {
                best = bestFitting
            }
            return Code(digits: Array(code(best)))
        }
    }

    /// How many codes `guess` leaves on average after `history`, every code that still fits being as likely to be
    /// the secret: a guess's skill, apart from the luck of the answer it got (as WordleBot weighs a word).
    public func expectedLeft(after history: [(Code, Feedback)], guess: Code) -> Double {
        expectedLeft(after: history, guesses: [guess])[0]
    }

    /// The same for several guesses from one position, the codes that still fit found once.
    public func expectedLeft(after history: [(Code, Feedback)], guesses: [Code]) -> [Double] {
        partitions(after: history, guesses: guesses).map { partition, fitting in
            fitting == 0 ? 0 : Double(partition.reduce(0) { $0 + $1 * $1 }) / Double(fitting)
        }
    }

    /// The most codes `guess` can leave after `history`, whatever its feedback: a hint's reason in a number.
    public func mostLeft(after history: [(Code, Feedback)], guess: Code) -> Int {
        partitions(after: history, guesses: [guess])[0].partition.max() ?? 0
    }

    /// For each guess, how many of the codes that still fit would get each feedback, a win's counted as none (a win
    /// leaves nothing to find); and how many fit.
    private func partitions(after history: [(Code, Feedback)], guesses: [Code]) -> [(partition: [Int], fitting: Int)] {
        let length = rules.length
        return codes.withUnsafeBufferPointer { all in
            let consistent = fitting(history, all)
            return guesses.map { guess in
                var partition = [Int](repeating: 0, count: buckets)
                guess.digits.withUnsafeBufferPointer { guess in
                    for s in consistent {
                        let (red, blue) = Scorer.score(
                            UnsafeBufferPointer(rebasing: all[(s * length)..<((s + 1) * length)]), guess)
                        partition[red * (length + 1) + blue] += 1
                    }
                }
                partition[length * (length + 1)] = 0
                return (partition, consistent.count)
            }
        }
    }

    /// After each turn of `history`, how many codes still fit every answer so far (the last is 1 after a win).
    public func remaining(after history: [(Code, Feedback)]) -> [Int] {
        let length = rules.length
        return codes.withUnsafeBufferPointer { all in
            var alive = Array(0..<count)
            return history.map { guess, feedback in
                alive = alive.filter { i in
                    let (red, blue) = guess.digits.withUnsafeBufferPointer {
                        Scorer.score(UnsafeBufferPointer(rebasing: all[(i * length)..<((i + 1) * length)]), $0)
                    }
                    return red == feedback.red && blue == feedback.blue
                }
                return alive.count
            }
        }
    }

    /// What the keys show (a review: the rows had left one code, and every key was still plain): a digit every code
    /// still fitting the answers has is surely in the code, one that none has surely out. Nothing before a row.
    public func digitsKnown(after history: [(Code, Feedback)]) -> (absent: Set<UInt8>, present: Set<UInt8>) {
        let length = rules.length
        let all = Set((rules.digitMin...rules.digitMax).map { UInt8($0) })
        return codes.withUnsafeBufferPointer { codes in
            var inEvery = all
            var inSome: Set<UInt8> = []
            for i in fitting(history, codes) {
                let code = UnsafeBufferPointer(rebasing: codes[(i * length)..<((i + 1) * length)])
                inEvery.formIntersection(code)
                inSome.formUnion(code)
            }
            return inSome.isEmpty ? ([], []) : (all.subtracting(inSome), inEvery)
        }
    }

    /// The indices of the codes consistent with every answer so far.
    private func fitting(_ history: [(Code, Feedback)], _ codes: UnsafeBufferPointer<UInt8>) -> [Int] {
        let length = rules.length
        var consistent: [Int] = []
        outer: for i in 0..<count {
            let code = UnsafeBufferPointer(rebasing: codes[(i * length)..<((i + 1) * length)])
            for (guess, feedback) in history {
                let (red, blue) = guess.digits.withUnsafeBufferPointer { Scorer.score(code, $0) }
                if red != feedback.red || blue != feedback.blue { continue outer }
            }
            consistent.append(i)
        }
        return consistent
    }

    /// Whether the unused digits of a code appear as the smallest unused
    /// digits, in increasing order of first appearance.
    private func isCanonical(_ digits: UnsafeBufferPointer<UInt8>, used: [Bool]) -> Bool {
        var introduced = used
        for d in digits where !used[Int(d)] {
            if introduced[Int(d)] { continue }
            // Every unused digit below d must already have been introduced.
            for lower in rules.digitMin..<Int(d) where !introduced[lower] { return false }
            introduced[Int(d)] = true
        }
        return true
    }

    /// Plays the solver against a secret; returns the guesses it took.
    public func play(secret: Code, cache: inout [String: Code]) -> Int {
        var history: [(Code, Feedback)] = []
        while true {
            let key = history.map { "\($0.0)\($0.1.red)\($0.1.blue)" }.joined(separator: "|")
            let guess: Code
            if let known = cache[key] {
                guess = known
            } else {
                guess = nextGuess(after: history)!
                cache[key] = guess
            }
            let feedback = Feedback.score(secret: secret, guess: guess)
            history.append((guess, feedback))
            if feedback.isWin(rules) { return history.count }
        }
    }
}
