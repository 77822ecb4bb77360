/// The operating system and its version, read from a browser's User-Agent.
public struct ClientOS: Sendable, Equatable {
    public let name: String  // "ios", "android", "macos", "windows"
    public let version: Version

    /// Recognizes iOS/iPadOS, Android, macOS and Windows; nil otherwise.
    public static func parse(userAgent: String) -> ClientOS? {
        // Order matters: iOS agents also say "like Mac OS X".
        let patterns: [(String, String, Character)] = [
            ("ios", "iPhone OS ", "_"), ("ios", "CPU OS ", "_"), ("android", "Android ", "."),
            ("macos", "Mac OS X ", "_"), ("windows", "Windows NT ", "."),
        ]
        for (name, marker, separator) in patterns {
            guard let range = userAgent.firstRange(of: marker) else { continue }
            let raw = userAgent[range.upperBound...].prefix {
                $0.isASCII && ($0.isNumber || $0 == separator || $0 == ".")
            }
            let text = String(raw.map { $0 == "_" ? "." : $0 }).trimmingTrailingDots
            if let version = Version(text) { return ClientOS(name: name, version: version) }
        }
        return nil
    }
}

extension String {
    var trimmingTrailingDots: String {
        var s = self[...]
        while s.last == "." { s.removeLast() }
        return String(s)
    }
}
