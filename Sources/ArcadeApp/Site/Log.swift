/// One line per event on standard output (a single write, so lines from
/// different threads never interleave).
enum Log {
    static func info(_ message: String) { CommandLineTool.write("arcade: \(message)\n", to: 1) }
    static func error(_ message: String) { CommandLineTool.write("arcade: error: \(message)\n", to: 2) }
}
