import Files
import JSON
import NameGame

/// The bundled demo people's job titles and face descriptions in each language (`Config/people-i18n.json`, written by
/// `scripts/make-people` from a native writer's words per language): readers of five languages met them in English,
/// read by a screen reader in their own language's voice. A translation is used only while the person still reads as
/// shipped (the file's English): an admin's edit is the admin's, in the admin's words.
package struct DemoWords: Sendable {
    package struct Words: Sendable {
        package let jobTitle: String?
        package let appearance: String?
    }
    /// Language → person id → words; "en" holds what each person was shipped with.
    private let table: [String: [String: Words]]

    package static let none = DemoWords(table: [:])

    /// The file's words; none where it is missing or unreadable (a site without the demo people needs none).
    package static func load(_ path: String) -> DemoWords {
        guard let bytes = Files.read(path), let json = try? JSONParser.parse(bytes), let languages = json.members else {
            return .none
        }
        var table: [String: [String: Words]] = [:]
        for (language, people) in languages {
            for (id, words) in people.members ?? [] {
                table[language, default: [:]][id] = Words(
                    jobTitle: words["jobTitle"]?.string, appearance: words["alt"]?.string)
            }
        }
        return DemoWords(table: table)
    }

    /// The person's job title in `language`, if it is still the one shipped and the language has its own.
    package func jobTitle(_ person: Person, _ language: String) -> String? {
        guard let shipped = table["en"]?[person.id], shipped.jobTitle == person.jobTitle,
            let title = table[language]?[person.id]?.jobTitle
        else { return person.jobTitle }
        return title
    }

    /// The face in words in `language`, on the same terms.
    package func appearance(_ person: Person, _ language: String) -> String? {
        guard let shipped = table["en"]?[person.id], shipped.appearance == person.appearance,
            let words = table[language]?[person.id]?.appearance
        else { return person.appearance }
        return words
    }
}
