import Localization

#if canImport(Glibc)
import Glibc
#endif

/// Times as admins read and type them: ISO 8601 in UTC to the minute, `2026-11-22 23:14 UTC`, one form on every
/// page (the server's locale and zone never show through).
package enum UTCTime {
    /// `14:00`.
    package static func hourLabel(_ seconds: Int) -> String { String(format(seconds).dropFirst(11).prefix(5)) }

    package static func format(_ seconds: Int) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min)) UTC"
    }

    /// A day as a player reads it in their language ("Nov 29, 2026", "29. Nov. 2026", "2026年11月29日"), in UTC as the
    /// site's days are (a native reader met ISO dates on the passkeys' list).
    package static func day(_ seconds: Int, _ t: LanguageStrings) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let month = Int(parts.tm_mon) + 1
        return t.string(
            "date.format",
            [
                .int(Int(parts.tm_mday)), .string(t.string("date.month.\(month)")),
                .string(String(Int(parts.tm_year) + 1900)),
            ])
    }

    /// The value of an `<input type="datetime-local">` (read as UTC), `YYYY-MM-DDTHH:MM[:SS]`, or this type's own
    /// output; nil for anything else, including days that do not exist.
    package static func parse(_ text: String) -> Int? {
        var s = text.drop { $0 == " " }
        while s.last == " " { s = s.dropLast() }
        if s.hasSuffix(" UTC") { s = s.dropLast(4) } else if s.hasSuffix("Z") { s = s.dropLast() }
        let bytes = Array(s.utf8)
        guard bytes.count == 16 || bytes.count == 19, bytes[4] == 45, bytes[7] == 45,
            bytes[10] == 84 || bytes[10] == 32,
            bytes[13] == 58, bytes.count == 16 || bytes[16] == 58
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var n = 0
            for b in bytes[range] {
                guard (48...57).contains(b) else { return nil }
                n = n * 10 + Int(b - 48)
            }
            return n
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), let second = bytes.count == 19 ? number(17..<19) : 0,
            (1970...9999).contains(year), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second < 60
        else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = Int(timegm(&parts))
        // timegm normalises 31 February into March: refuse what does not round-trip.
        guard parts.tm_mday == Int32(day), parts.tm_mon == Int32(month - 1) else { return nil }
        return seconds
    }

    /// The `datetime-local` form of a time, for an input's value.
    package static func inputValue(_ seconds: Int) -> String {
        String(format(seconds).dropLast(4)).replacingFirstSpace(with: "T")
    }
}

extension String {
    fileprivate func replacingFirstSpace(with replacement: Character) -> String {
        guard let i = firstIndex(of: " ") else { return self }
        var copy = self
        copy.replaceSubrange(i...i, with: [replacement])
        return copy
    }
}
