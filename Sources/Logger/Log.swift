import CSystem
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

// Our own small logger rather than apple/swift-log (a copy is on the machine): the fixed rules allow no new package,
// and swift-log is only a front end: the JSON lines, the plain timestamps, the ordered fields and the rate limit would
// all still be ours, in a LogHandler, behind an unordered metadata dictionary and a lock per call.

/// How much a line matters. Debug, info and notice go to standard output, warning and error to standard error.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case debug, info, notice, warning, error

    public var name: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .warning: "warning"
        case .error: "error"
        }
    }

    public init?(name: String) {
        guard let level = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = level
    }

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}

/// A field's value: text (quoted in JSON) or a whole number.
public enum LogValue: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case string(String)
    case int(Int)

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
}

/// The whole program's log: one line per event, written with a single `write` (lines from different threads never
/// interleave). `json`: one object a line, `{"time":…,"level":…,"msg":…, fields…, "request_id":…}`; plain:
/// `TIME arcade: [level: ]message key=value …`. A line never spans lines: JSON escapes a newline, plain shows `\n`.
public enum Log {
    public enum Format: Sendable { case plain, json }

    private static let jsonFormat = Atomic<Bool>(false)
    private static let minimumLevel = Atomic<Int>(LogLevel.info.rawValue)
    private static let repeatNanoseconds = Atomic<Int64>(60_000_000_000)

    /// Set once at start-up, before the site's threads (read at every line).
    public static var format: Format {
        get { jsonFormat.load(ordering: .relaxed) ? .json : .plain }
        set { jsonFormat.store(newValue == .json, ordering: .relaxed) }
    }

    /// Lines below it are dropped.
    public static var level: LogLevel {
        get { LogLevel(rawValue: minimumLevel.load(ordering: .relaxed)) ?? .info }
        set { minimumLevel.store(newValue.rawValue, ordering: .relaxed) }
    }

    /// How long a repeated line (same `every:` key) stays quiet after it was written.
    public static var repeatInterval: Double {
        get { Double(repeatNanoseconds.load(ordering: .relaxed)) / 1e9 }
        set { repeatNanoseconds.store(Int64(newValue * 1e9), ordering: .relaxed) }
    }

    public static func debug(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:], requestID: String = "")
    {
        write(.debug, message, pairs(fields), requestID: requestID)
    }

    public static func info(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:], requestID: String = "")
    {
        write(.info, message, pairs(fields), requestID: requestID)
    }

    public static func notice(
        _ message: String, _ fields: KeyValuePairs<String, LogValue> = [:], requestID: String = ""
    ) {
        write(.notice, message, pairs(fields), requestID: requestID)
    }

    public static func warning(
        _ message: String, _ fields: KeyValuePairs<String, LogValue> = [:], requestID: String = "",
        every key: String? = nil
    ) {
        log(.warning, message, pairs(fields), requestID: requestID, every: key)
    }

    public static func error(
        _ message: String, _ fields: KeyValuePairs<String, LogValue> = [:], requestID: String = "",
        every key: String? = nil
    ) {
        log(.error, message, pairs(fields), requestID: requestID, every: key)
    }

    /// A line; with `every`, a rate-limited one: the first of its key is written, the same key again within
    /// `repeatInterval` is counted instead, and the next one written after it says `repeated: N` (the ones left out
    /// since the last). Keys are the program's own words, never input: the table stays as small as the code.
    public static func log(
        _ level: LogLevel, _ message: String, _ fields: [(String, LogValue)], requestID: String = "",
        every key: String? = nil
    ) {
        guard level >= self.level else { return }
        guard let key else { return write(level, message, fields, requestID: requestID) }
        let now = csys_monotonic_ns()
        let interval = repeatNanoseconds.load(ordering: .relaxed)
        let left: Int? = repeats.withLock { table in
            var entry = table[key] ?? Repeat()
            defer { table[key] = entry }
            guard now >= entry.due else {
                entry.suppressed += 1
                entry.last = Pending(level: level, message: message, fields: fields, requestID: requestID)
                return nil
            }
            let count = entry.suppressed
            entry = Repeat(due: now + interval)
            return count
        }
        guard let left else { return }
        write(level, message, left > 0 ? fields + [("repeated", .int(left))] : fields, requestID: requestID)
    }

    /// At shutdown: a line for each rate-limited key with lines left out since its last one (the last of them, with
    /// their count), so no burst goes unreported.
    public static func flushRepeated() {
        let pending = repeats.withLock { table in
            var lines: [(Pending, Int)] = []
            for (key, entry) in table where entry.suppressed > 0 {
                if let last = entry.last { lines.append((last, entry.suppressed)) }
                table[key] = Repeat(due: entry.due)
            }
            return lines
        }
        for (line, count) in pending {
            write(line.level, line.message, line.fields + [("repeated", .int(count))], requestID: line.requestID)
        }
    }

    private static func pairs(_ fields: KeyValuePairs<String, LogValue>) -> [(String, LogValue)] {
        fields.map { ($0.key, $0.value) }
    }

    private struct Pending: Sendable {
        var level: LogLevel
        var message: String
        var fields: [(String, LogValue)]
        var requestID: String
    }

    private struct Repeat: Sendable {
        var due: Int64 = 0
        var suppressed = 0
        var last: Pending?
    }

    private static let repeats = Mutex<[String: Repeat]>([:])

    private static func write(_ level: LogLevel, _ message: String, _ fields: [(String, LogValue)], requestID: String) {
        guard level >= self.level else { return }
        var line: [UInt8] = []
        line.reserveCapacity(128 + message.utf8.count)
        if format == .json {
            appendJSON(level, message, fields, requestID: requestID, into: &line)
        } else {
            appendPlain(level, message, fields, requestID: requestID, into: &line)
        }
        output(line, to: level >= .warning ? 2 : 1)
    }

    /// The bytes of a line, written whole (a short write continues where it stopped).
    public static func output(_ bytes: [UInt8], to fd: Int32) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 {
                    if n < 0 && errno == EINTR { continue }
                    return
                }
                offset += n
            }
        }
    }

    static func appendJSON(
        _ level: LogLevel, _ message: String, _ fields: [(String, LogValue)], requestID: String,
        into out: inout [UInt8]
    ) {
        out.append(contentsOf: #"{"time":""#.utf8)
        appendTimestamp(csys_realtime_ns(), into: &out)
        out.append(contentsOf: #"","level":""#.utf8)
        out.append(contentsOf: level.name.utf8)
        out.append(contentsOf: #"","msg":"#.utf8)
        appendJSONString(message, into: &out)
        for (key, value) in fields {
            out.append(0x2C)
            appendJSONString(key, into: &out)
            out.append(0x3A)
            switch value {
            case .string(let text): appendJSONString(text, into: &out)
            case .int(let number): out.append(contentsOf: String(number).utf8)
            }
        }
        if !requestID.isEmpty {
            out.append(contentsOf: #","request_id":"#.utf8)
            appendJSONString(requestID, into: &out)
        }
        out.append(contentsOf: "}\n".utf8)
    }

    static func appendPlain(
        _ level: LogLevel, _ message: String, _ fields: [(String, LogValue)], requestID: String,
        into out: inout [UInt8]
    ) {
        appendTimestamp(csys_realtime_ns(), into: &out)
        out.append(contentsOf: " arcade: ".utf8)
        if level != .info {
            out.append(contentsOf: level.name.utf8)
            out.append(contentsOf: ": ".utf8)
        }
        appendVisible(message, into: &out)
        for (key, value) in fields {
            out.append(0x20)
            appendVisible(key, into: &out)
            out.append(0x3D)
            switch value {
            case .string(let text):
                // Quoted when it would not read as one word.
                if text.isEmpty || text.utf8.contains(where: { $0 <= 0x20 || $0 == 0x22 || $0 == 0x3D }) {
                    appendJSONString(text, into: &out)
                } else {
                    out.append(contentsOf: text.utf8)
                }
            case .int(let number): out.append(contentsOf: String(number).utf8)
            }
        }
        if !requestID.isEmpty {
            out.append(contentsOf: " request_id=".utf8)
            appendVisible(requestID, into: &out)
        }
        out.append(0x0A)
    }

    /// Text on one line: a line break reads `\n`, other control bytes `\u00XX`.
    private static func appendVisible(_ text: String, into out: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0..<0x20, 0x7F: appendEscaped(byte, into: &out)
            default: out.append(byte)
            }
        }
    }

    /// A JSON string: quotes, backslashes and control bytes escaped; other bytes as they are (Swift's strings are
    /// valid UTF-8).
    public static func appendJSONString(_ text: String, into out: inout [UInt8]) {
        out.append(0x22)
        for byte in text.utf8 {
            switch byte {
            case 0x22, 0x5C:
                out.append(0x5C)
                out.append(byte)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0..<0x20, 0x7F: appendEscaped(byte, into: &out)
            default: out.append(byte)
            }
        }
        out.append(0x22)
    }

    private static func appendEscaped(_ byte: UInt8, into out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(contentsOf: #"\u00"#.utf8)
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 15)])
    }

    /// `2026-11-23T22:14:05.123Z` (RFC 3339, UTC, milliseconds).
    public static func appendTimestamp(_ nanoseconds: Int64, into out: inout [UInt8]) {
        var seconds = time_t(nanoseconds / 1_000_000_000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func digits(_ n: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var n = n
            while divisor > 0 {
                out.append(0x30 + UInt8(n / divisor % 10))
                n %= divisor
                divisor /= 10
            }
        }
        digits(Int(parts.tm_year) + 1900, 4)
        out.append(0x2D)
        digits(Int(parts.tm_mon) + 1, 2)
        out.append(0x2D)
        digits(Int(parts.tm_mday), 2)
        out.append(0x54)
        digits(Int(parts.tm_hour), 2)
        out.append(0x3A)
        digits(Int(parts.tm_min), 2)
        out.append(0x3A)
        digits(Int(parts.tm_sec), 2)
        out.append(0x2E)
        digits(Int(nanoseconds % 1_000_000_000) / 1_000_000, 3)
        out.append(0x5A)
    }

    /// `appendTimestamp` as text.
    public static func timestamp(_ nanoseconds: Int64) -> String {
        var out: [UInt8] = []
        appendTimestamp(nanoseconds, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

/// The log as one request writes to it (every handler's context carries one): each line names the request's id, as
/// its access-log line and its error page do, so an operator finds every line of one request by it.
public struct RequestLog: Sendable {
    public let requestID: String

    public init(requestID: String) { self.requestID = requestID }

    public func info(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) {
        Log.info(message, fields, requestID: requestID)
    }

    /// `every`: rate-limited, as `Log.warning`'s.
    public func warning(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:], every key: String? = nil) {
        Log.warning(message, fields, requestID: requestID, every: key)
    }

    public func error(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:], every key: String? = nil) {
        Log.error(message, fields, requestID: requestID, every: key)
    }
}
