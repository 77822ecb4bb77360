import ArcadeStore
import HTTP
import Localization

extension NameGameController {
    /// `GET /namegame/reminder.ics?at=HH:MM`: a daily event for the player's own calendar, at that time of their day
    /// (a review: nothing brought a player back the next day, where Duolingo and Anki remind). A file, not a push
    /// service: a self-hosted site has none, and the calendar keeps it on every device the player has. Writes nothing.
    func reminder(_ request: Request, _ context: PlayerContext) throws -> Response {
        guard let at = Self.timeOfDay(request.query["at"] ?? "09:00") else {
            throw PageError(.badRequest)
        }
        let t = pages.localizer.strings(for: context.visitor.language)
        let now = Int(store.nowMilliseconds() / 1000)
        // From tomorrow: today's lesson may be behind the player already. A floating time (no zone): the calendar's
        // own, as the player's day is not the server's.
        let tomorrow = UTCTime.format(now + 86_400).prefix(10).filter { $0 != "-" }
        let stamp = UTCTime.format(now).prefix(16).filter { $0.isNumber || $0 == " " }.replacing(" ", with: "T")
        let link = (MastermindController.origin(request) ?? "") + "/namegame/learn"
        let lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Arcade//Name Game reminder//EN", "CALSCALE:GREGORIAN",
            "BEGIN:VEVENT",
            // One per site and time: downloaded again, it replaces the last rather than adding a second.
            "UID:namegame-reminder-\(at.hour)\(at.minute)@\(Self.calendarText(request.headers["Host"] ?? "arcade"))",
            "DTSTAMP:\(stamp)00Z", "DTSTART:\(tomorrow)T\(at.hour)\(at.minute)00", "DURATION:PT10M",
            "RRULE:FREQ=DAILY",
            "SUMMARY:" + Self.calendarText(t.string("namegame.reminder.title", [.string(t.string("namegame.title"))])),
            "DESCRIPTION:" + Self.calendarText(t.string("namegame.reminder.description", [.string(link)])),
            "URL:" + link,
            "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:PT0M",
            "DESCRIPTION:" + Self.calendarText(t.string("namegame.title")),
            "END:VALARM", "END:VEVENT", "END:VCALENDAR",
        ]
        var response = Response(
            status: .ok, contentType: "text/calendar; charset=utf-8",
            body: Array(lines.map(Self.folded).joined().utf8))
        response.headers.set("Content-Disposition", "attachment; filename=\"arcade-name-game.ics\"")
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// `HH:MM`, 24-hour, as a time input sends it; nil for anything else (checked before any work).
    static func timeOfDay(_ text: String) -> (hour: String, minute: String)? {
        let bytes = Array(text.utf8)
        guard bytes.count == 5, bytes[2] == UInt8(ascii: ":"),
            bytes.enumerated().allSatisfy({ $0.offset == 2 || (48...57).contains($0.element) })
        else { return nil }
        let (hour, minute) = (String(text.prefix(2)), String(text.suffix(2)))
        guard Int(hour)! < 24, Int(minute)! < 60 else { return nil }
        return (hour, minute)
    }

    /// RFC 5545's TEXT: backslash, semicolon, comma and line ends escaped.
    static func calendarText(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\", ";", ",": out += "\\\(character)"
            case "\n", "\r\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    /// A content line ended by CRLF, folded at 75 octets (RFC 5545 §3.1), never inside a character.
    static func folded(_ line: String) -> String {
        var out = ""
        var octets = 0
        for character in line {
            let size = character.utf8.count
            if octets + size > 75 {
                out += "\r\n "
                octets = 1
            }
            out.append(character)
            octets += size
        }
        return out + "\r\n"
    }
}
