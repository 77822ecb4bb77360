/// A template syntax error, with where it is and what was expected.
public struct TemplateError: Error, Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int
    public let column: Int
    public let message: String

    public var description: String { "\(file):\(line):\(column): \(message)" }
}
