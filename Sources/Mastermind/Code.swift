/// A code or guess: `length` digits, each in the rules' range.
public struct Code: Hashable, Sendable, CustomStringConvertible {
    public let digits: [UInt8]

    public init(digits: [UInt8]) { self.digits = digits }

    public enum Problem: Error, Equatable, Sendable {
        case wrongLength(expected: Int, got: Int)
        case outOfRange(digit: Character, min: Int, max: Int)
        case notADigit(Character)
    }

    /// Parses text such as "0135"; says precisely what is wrong otherwise.
    public init(_ text: String, rules: Rules) throws(Problem) {
        var digits: [UInt8] = []
        for ch in text {
            guard let value = ch.wholeNumberValue, ch.isASCII else { throw .notADigit(ch) }
            guard (rules.digitMin...rules.digitMax).contains(value) else {
                throw .outOfRange(digit: ch, min: rules.digitMin, max: rules.digitMax)
            }
            digits.append(UInt8(value))
        }
        guard digits.count == rules.length else { throw .wrongLength(expected: rules.length, got: text.count) }
        self.digits = digits
    }

    /// The code with this index in 0..<codeCount (digits in base `colors`).
    public init(index: Int, rules: Rules) {
        var n = index
        var digits = [UInt8](repeating: 0, count: rules.length)
        for i in stride(from: rules.length - 1, through: 0, by: -1) {
            digits[i] = UInt8(rules.digitMin + n % rules.colors)
            n /= rules.colors
        }
        self.digits = digits
    }

    public func index(rules: Rules) -> Int {
        digits.reduce(0) { $0 * rules.colors + Int($1) - rules.digitMin }
    }

    public var description: String { String(digits.map { Character(String($0)) }) }
}
