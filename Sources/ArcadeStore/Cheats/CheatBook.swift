import Cheats
import Files
import JSON

/// The cheats of `Config/cheats.json`: each with its sequences (in the
/// compact form `key:a`, `swipe:up`, `tap:2`, `shake`), optional `timeout`
/// (seconds, default 2; `null` for none) and `caseSensitive`, the effect it
/// unlocks and the key of its localized hint. A bad file stops start-up.
package struct CheatBook: Sendable {
    package struct Entry: Sendable {
        package let code: CheatCode
        package let effect: String
        package let hint: String
        /// The once-store task that records it found, named once here (the home page asks for every cheat's).
        package let task: String

        package init(code: CheatCode, effect: String, hint: String) {
            self.code = code
            self.effect = effect
            self.hint = hint
            task = SiteTasks.cheat(code.name)
        }
    }

    /// The effects the site knows how to apply.
    package static let effects: Set<String> = ["mastermind.reveal", "namegame.firstLetter", "theme.crt", "credits"]

    package let entries: [Entry]
    /// Each entry's task, in order: the home page asks for all of them, and reading them from the entries copied every
    /// entry whole (a retain and a release for each of its strings).
    package let tasks: [String]
    package var codes: [CheatCode] { entries.map(\.code) }

    /// The actions any cheat starts with ("key:r swipe:up"), for the page: it posts an action only when it can start a
    /// code or a code is under way, so a player's ordinary typing never leaves the browser.
    package var starts: String {
        var seen: Set<String> = []
        return entries.flatMap { $0.code.sequences.compactMap { $0.first?.description } }
            .filter { seen.insert($0).inserted }.joined(separator: " ")
    }
    /// Seconds a code may pause between two actions at most (none: an hour), so a page that loads mid-code goes on
    /// posting for that long.
    package var longestPause: Int {
        Int(entries.map { $0.code.timeout ?? 3600 }.max() ?? 0) + 1
    }

    package func entry(_ name: String) -> Entry? { entries.first { $0.code.name == name } }

    package static func load(_ path: String) throws -> CheatBook {
        guard let bytes = Files.read(path) else {
            throw StartupError.unreadable(file: path, reason: "cannot read the cheats file")
        }
        do {
            return try CheatBook(json: JSONParser.parse(bytes))
        } catch let error as JSONParser.Error {
            throw StartupError.invalid(file: "\(path):\(error.line):\(error.column)", reason: error.message)
        } catch {
            throw StartupError.invalid(file: path, reason: "\(error)")
        }
    }

    package init(json: JSONValue) throws(CheatError) {
        guard let list = json["cheats"]?.array, !list.isEmpty else {
            throw CheatError("expected {\"cheats\": [ … ]} with at least one cheat")
        }
        var entries: [Entry] = []
        for (index, item) in list.enumerated() {
            let name = item["name"]?.string ?? ""
            let label = name.isEmpty ? "cheat #\(index + 1)" : "cheat '\(name)'"
            guard let effect = item["effect"]?.string, Self.effects.contains(effect) else {
                throw CheatError("\(label): effect must be one of \(Self.effects.sorted().joined(separator: ", "))")
            }
            guard let hint = item["hint"]?.string, !hint.isEmpty else {
                throw CheatError("\(label): needs a hint (a localized key)")
            }
            guard let sequences = item["sequences"]?.array else {
                throw CheatError("\(label): needs sequences, a list of lists")
            }
            var parsed: [[Action]] = []
            for sequence in sequences {
                guard let steps = sequence.array else {
                    throw CheatError("\(label): each sequence is a list of actions")
                }
                var actions: [Action] = []
                for step in steps {
                    guard let text = step.string else {
                        throw CheatError("\(label): each action is a string like \"key:a\"")
                    }
                    do { actions.append(try Action(text)) } catch { throw CheatError("\(label): \(error)") }
                }
                parsed.append(actions)
            }
            var timeout: Double? = CheatCode.defaultTimeout
            if let value = item["timeout"] {
                if value.isNull {
                    timeout = nil
                } else {
                    guard let seconds = value.double else {
                        throw CheatError("\(label): timeout is a number of seconds or null")
                    }
                    timeout = seconds
                }
            }
            let code = try CheatCode(
                name: name, sequences: parsed, timeout: timeout, caseSensitive: item["caseSensitive"]?.bool ?? false)
            entries.append(Entry(code: code, effect: effect, hint: hint))
        }
        _ = try CheatMatcher(cheats: entries.map(\.code))  // refuses duplicate names
        self.entries = entries
        tasks = entries.map(\.task)
    }
}
