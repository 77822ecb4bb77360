import HTTP
import Localization
import NameGame
import SpacedRepetition
import Storage
import Templates

/// How fast learn mode meets new people, the player's choice (a review: two lessons met five of 130, and nothing set
/// the pace, as Anki's new cards a day do). Kept on the player's row, so it follows them to every device.
enum Pace: String, CaseIterable, Sendable {
    case relaxed, steady, fast

    /// New people a day, from the site's steady number (`namegame.newPerDay`).
    func newPerDay(_ steady: Int) -> Int {
        switch self {
        case .relaxed: max(1, steady / 3)
        case .steady: steady
        case .fast: steady * 8 / 3
        }
    }

    /// Today's goal in lessons: the answers meeting the pace's new people takes (a review met the goal of one lesson
    /// having met two of the fifteen the pace promised).
    var lessons: Int {
        switch self {
        case .relaxed: 1
        case .steady: 2
        case .fast: 4
        }
    }

    /// People still new (not yet answered right) at one time: a faster pace meets the next sooner.
    var batch: Int {
        switch self {
        case .relaxed: 3
        case .steady: 4
        case .fast: 6
        }
    }
}

extension NameGameController {
    /// The player's pace; steady for anyone who never chose.
    func pace(_ player: String) throws -> Pace {
        try store.pool.connection().value(
            String.self, "SELECT namegame_pace FROM players WHERE id = ?", [.text(player)]
        ).flatMap(Pace.init) ?? .steady
    }

    /// `POST /namegame/pace`: the pace chosen on the menu; back to it.
    func choosePace(_ request: Request, _ context: PlayerContext) throws -> Response {
        guard let pace = request.form?["pace"].flatMap(Pace.init) else { throw PageError(.unprocessableContent) }
        let player = context.visitor.player
        try store.pool.write { db in
            try player.ensureRow(db)
            try db.execute(
                "UPDATE players SET namegame_pace = ? WHERE id = ?",
                [pace == .steady ? .null : .text(pace.rawValue), .text(player.id)])
        }
        return .redirect(to: "/namegame#pace")
    }

    /// Today's goal (the pace's lessons' worth of answers), what tomorrow holds, and the run of days, on the menu and a lesson's summary: a reason to
    /// come back tomorrow, and a number that moves in a first session (reviews: nothing brought a player back, and
    /// "Learned: 0 of 130" stood still all day, as learned waits for a later day).
    /// `streak: false` where the run of days is shown apart (the summary's figures).
    func todayFields(
        _ player: String, isNew: Bool, streak withStreak: Bool = true, tomorrow withTomorrow: Bool = true,
        tomorrowDue: Bool = true, pace: Pace, cards: [String: Card], t: LanguageStrings
    ) throws
        -> TemplateValue
    {
        let answered = isNew ? 0 : try store.answeredToday(player: player)
        let days = isNew || !withStreak ? 0 : try store.dayStreak(player: player)
        let goal = lessonLength * pace.lessons
        let met = answered >= goal
        let streak: TemplateValue =
            days == 0
            ? .null
            : [
                "days": .int(days),
                "text": .string(
                    t.string(answered == 0 ? "namegame.streak.keep" : "namegame.streak.line", [.int(days)])),
            ]
        return [
            "answered": .int(min(answered, goal)), "goal": .int(goal), "met": .bool(met),
            "text": .string(
                met
                    ? t.string("namegame.goal.met", [.int(answered)])
                    : t.string("namegame.goal.progress", [.int(answered), .int(goal)])),
            "streak": streak,
            "tomorrow": cards.isEmpty || !withTomorrow ? .null : tomorrow(cards, pace: pace, due: tomorrowDue, t: t),
        ]
    }

    /// What tomorrow holds (a review: "day two is a fog", Anki says what is due): everyone due by its end, today's
    /// too, and says so (counted apart, a review read "due tomorrow: 0" and met nine the next morning; counted
    /// together without a word, another read the same people twice), and the new people the pace meets while some are
    /// left to meet.
    /// Without `due` (a lesson's summary, whose own line says what is due), only the new people: two reviews read its
    /// "due by the end of tomorrow" beside "nothing is due right now" as a contradiction.
    private func tomorrow(_ cards: [String: Card], pace: Pace, due: Bool, t: LanguageStrings) -> TemplateValue {
        let mastery = Self.mastery(store, people: directory.people, cards: cards, daysAhead: 1)
        let new = min(pace.newPerDay(newPerDay), mastery.notMet)
        return [
            "due": .int(mastery.due), "new": .int(new),
            "dueText": due ? .string(t.string("namegame.tomorrow.due", [.int(mastery.due)])) : .null,
            "newText": new == 0 ? .null : .string(t.string("namegame.tomorrow.new", [.int(new)])),
        ]
    }

    /// The menu's choice of pace: each with its new people a day, the player's own pressed.
    func paceFields(_ chosen: Pace, t: LanguageStrings) -> TemplateValue {
        .list(
            Pace.allCases.map { pace in
                .object([
                    "pace": .string(pace.rawValue), "chosen": .bool(pace == chosen),
                    "label": .string(t.string("namegame.pace.\(pace.rawValue)", [.int(pace.newPerDay(newPerDay))])),
                ])
            })
    }
}
