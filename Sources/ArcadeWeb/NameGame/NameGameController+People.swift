import ArcadeStore
import HTTP
import Localization
import NameGame
import SpacedRepetition
import Templates

/// `GET /namegame/people`: everyone the player has met, to look up ("who was that?") and to see how well each is known
/// and when they come back (reviews missed Anki's browser and its intervals). People not met are never listed.
extension NameGameController {
    /// The longest search read; anything longer is cut before it is compared.
    static let maxPeopleQuery = 100

    func peoplePage(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let t = pages.localizer.strings(for: visitor.language)
        let query = String((request.query["q"] ?? "").prefix(Self.maxPeopleQuery))
        // Faces first, each name behind a tap: to test oneself before a lesson (a review: "no study aid; Anki's
        // browser and WillowTree's learn list make pre-study easy").
        let study = request.query["view"] == "study"
        let cards = visitor.isNew ? [:] : try store.cards(player: visitor.playerID)
        let notes = visitor.isNew ? [:] : try store.notes(player: visitor.playerID)
        let now = store.nowMilliseconds()
        let met = directory.people.filter { cards[$0.id] != nil }
            .sorted { ($0.firstName, $0.lastName) < ($1.firstName, $1.lastName) }
        let words = query.lowercased().split(separator: " ").map(String.init)
        let rows: [TemplateValue] = met.compactMap { person in
            guard let card = cards[person.id] else { return nil }
            // Someone who has left has no role; said so, not left blank (a review read the blank as missing data).
            let role = role(person, t) ?? (person.retired ? t.string("namegame.people.former") : "")
            let note = notes[person.id]
            let search = ([person.fullName, role] + (note.map { [$0] } ?? [])).joined(separator: " ").lowercased()
            guard words.allSatisfy({ search.contains($0) }) else { return nil }
            let level =
                LearningPlan.knows(card) ? "learned" : LearningPlan.gettingThere(card) ? "sticking" : "new"
            return [
                // The face in words, to revise by ear too (a blind review: the list's faces said nothing).
                "img": .string(person.headshotURL), "alt": .string(looks(person, t) ?? ""),
                "name": .string(person.fullName), "role": .string(role),
                "level": .string(level), "levelText": .string(t.string("namegame.people.level.\(level)")),
                // Someone who has left is not asked again, so does not "come back" (a review read "Comes back now").
                "next": .string(person.retired ? "" : Self.comesBack(card.due, now: now, t: t)),
                "search": .string(search), "id": .string(person.id), "note": note.map(TemplateValue.string) ?? .null,
            ]
        }
        return pages.render(
            "namegame-people", title: t.string("namegame.people.title"), for: visitor, path: "/namegame/people",
            section: "namegame",
            data: [
                "people": .list(rows), "query": .string(query), "none": .bool(met.isEmpty), "study": .bool(study),
                "noMatch": .bool(!met.isEmpty && rows.isEmpty),
                // How many a search found, said (a blind review: the list narrowed in silence), and its forms for the
                // script, which counts as the field is typed in.
                "found": .string(
                    query.isEmpty || rows.isEmpty ? "" : t.string("namegame.people.found", [.int(rows.count)])),
                "foundForms": .list(foundForms(visitor.language)),
            ])
    }

    /// `POST /namegame/note`: the player's own note on someone met, to remember them by (a review: "no memory hooks;
    /// Anki lets you add your own fields"); empty clears it. Someone not met has no card to keep it on.
    func saveNote(_ request: Request, _ context: PlayerContext) throws -> Response {
        let form = request.form ?? FormFields()
        guard let person = form["person"], !context.visitor.isNew,
            try store.setNote(player: context.visitor.playerID, person: person, note: form["note"] ?? "")
        else { throw PageError(.unprocessableContent) }
        return .redirect(to: "/namegame/people#person-\(URI.encode(person))")
    }

    /// "%d people found" in each plural category (the language's own form, else its `other`), `{n}` for the count.
    private func foundForms(_ language: String) -> [TemplateValue] {
        guard let format = pages.localizer.pluralTable(language)["namegame.people.found"] else { return [] }
        return PluralCategory.allCases.compactMap { category in
            format.form("count", category).map { form in
                ["category": .string(category.rawValue), "text": .string(form.replacing("%d", with: "{n}"))]
            }
        }
    }

    /// When a card comes back: now, later today, tomorrow or in some days (days counted from today, UTC, as "due
    /// today" is elsewhere).
    static func comesBack(_ due: Int64, now: Int64, t: LanguageStrings) -> String {
        let day = FSRS.day
        if due <= now { return t.string("namegame.people.next.now") }
        let days = due / day - now / day
        if days == 0 { return t.string("namegame.people.next.today") }
        if days == 1 { return t.string("namegame.people.next.tomorrow") }
        return t.string("namegame.people.next.days", [.int(Int(days))])
    }
}
