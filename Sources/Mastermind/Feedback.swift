/// The pegs a guess earns: red for a right digit in the right place, blue
/// for a right digit in the wrong place (counted with multiplicity after the
/// reds), gray for the rest.
public struct Feedback: Hashable, Sendable, CustomStringConvertible {
    public let red: Int
    public let blue: Int
    public let gray: Int

    public init(red: Int, blue: Int, gray: Int) {
        self.red = red
        self.blue = blue
        self.gray = gray
    }

    public func isWin(_ rules: Rules) -> Bool { red == rules.length }

    public var description: String { "\(red) \(blue) \(gray)" }

    /// Scores a guess against a secret of the same length.
    public static func score(secret: Code, guess: Code) -> Feedback {
        let (red, blue) = Scorer.score(secret.digits, guess.digits)
        return Feedback(red: red, blue: blue, gray: secret.digits.count - red - blue)
    }
}

/// Scoring over raw digits, allocation-free: the solver runs it millions of times.
enum Scorer {
    @inline(__always)
    static func score(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> (red: Int, blue: Int) {
        var red = 0
        var countA = SIMD16<UInt8>()
        var countB = SIMD16<UInt8>()
        for i in 0..<a.count {
            if a[i] == b[i] {
                red += 1
            } else {
                countA[Int(a[i])] &+= 1
                countB[Int(b[i])] &+= 1
            }
        }
        return (red, Int(pointwiseMin(countA, countB).wrappedSum()))
    }

    static func score(_ a: [UInt8], _ b: [UInt8]) -> (red: Int, blue: Int) {
        a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in score(pa, pb) } }
    }
}
