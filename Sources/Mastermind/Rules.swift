/// The shape of a game: code length, digit range and attempts (from the
/// constants; the classic game is 4 digits of 0–7 in 10 tries).
public struct Rules: Sendable, Hashable {
    public let length: Int
    public let digitMin: Int
    public let digitMax: Int
    public let attempts: Int

    public init(length: Int = 4, digitMin: Int = 0, digitMax: Int = 7, attempts: Int = 10) {
        precondition(
            (1...8).contains(length) && (0...9).contains(digitMin) && (digitMin...9).contains(digitMax)
                && attempts >= 1, "invalid Mastermind rules")
        self.length = length
        self.digitMin = digitMin
        self.digitMax = digitMax
        self.attempts = attempts
    }

    public static let classic = Rules()

    public var colors: Int { digitMax - digitMin + 1 }
    /// How many codes exist: colors ^ length.
    public var codeCount: Int { (0..<length).reduce(1) { acc, _ in acc * colors } }
}
