/// One thing a player did: a key, a swipe, a burst of taps, or a shake.
public enum Action: Hashable, Sendable, CustomStringConvertible {
    case key(String)
    case swipe(Direction)
    case tap(Int)
    case shake

    public enum Direction: String, Sendable, CaseIterable {
        case up, down, left, right
    }

    /// Longest key name accepted (`event.key` values are short: "ArrowUp", "a").
    public static let maxKeyLength = 32

    /// Reads the wire form: `kind` is `key`, `swipe`, `tap` or `shake`;
    /// `value` is the key, the direction or the tap count.
    public init(kind: String, value: String) throws(CheatError) {
        switch kind {
        case "key":
            guard !value.isEmpty, value.unicodeScalars.count <= Self.maxKeyLength,
                !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                throw CheatError("a key must be 1 to \(Self.maxKeyLength) printable characters")
            }
            self = .key(value)
        case "swipe":
            guard let direction = Direction(rawValue: value) else {
                throw CheatError("a swipe is up, down, left or right, not '\(value.prefix(20))'")
            }
            self = .swipe(direction)
        case "tap":
            guard value.utf8.count <= 3, let count = Int(value), (1...100).contains(count) else {
                throw CheatError("a tap count is a whole number from 1 to 100")
            }
            self = .tap(count)
        case "shake":
            guard value.isEmpty || value == "1" else { throw CheatError("a shake takes no value") }
            self = .shake
        default:
            throw CheatError("the kind of action must be key, swipe, tap or shake")
        }
    }

    /// Parses the compact form used in cheat files: `key:a`, `swipe:up`, `tap:2`, `shake`.
    public init(_ text: String) throws(CheatError) {
        if text == "shake" {
            self = .shake
            return
        }
        guard let colon = text.firstIndex(of: ":") else { throw CheatError("'\(text)' is not kind:value (or shake)") }
        try self.init(kind: String(text[..<colon]), value: String(text[text.index(after: colon)...]))
    }

    public var description: String {
        switch self {
        case .key(let key): "key:\(key)"
        case .swipe(let direction): "swipe:\(direction.rawValue)"
        case .tap(let count): "tap:\(count)"
        case .shake: "shake"
        }
    }

    /// Keys folded to lower case unless the cheat is case-sensitive.
    func normalized(caseSensitive: Bool) -> Action {
        if !caseSensitive, case .key(let key) = self { return .key(key.lowercased()) }
        return self
    }
}

public struct CheatError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
