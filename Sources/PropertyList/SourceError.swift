/// A parse error in a text file, named by file, line and column (1-based),
/// as compilers print them. Shared by the plist and `.strings` parsers.
public struct SourceError: Error, Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int
    public let column: Int
    public let message: String
    public var description: String { "\(file):\(line):\(column): \(message)" }

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }
}
