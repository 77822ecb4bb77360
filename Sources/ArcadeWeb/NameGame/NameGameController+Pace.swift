import ArcadeStore
import HTTP
import Localization
import NameGame
import SpacedRepetition
import Templates

extension NameGameController {
    /// The player's pace; steady for anyone who never chose.
    func pace(_ player: String) throws -> Pace { try store.pace(player: player) }

    /// `POST /namegame/pace`: the pace chosen on the menu; back to it.
    func choosePace(_ request: Request, _ context: PlayerContext) throws -> Response {
        guard let pace = request.form?["pace"].flatMap(Pace.init) else { throw PageError(.unprocessableContent) }
        try store.choose(pace, player: context.visitor.player)
        // Said where it was chosen, the choice focused (a blind review: the page came back silent, focus on its body);
        // no fragment, which would keep the browser from focusing it.
        return .redirect(to: "/namegame?pace=saved")
    }

    /// `POST /namegame/focus`: whom Learn meets first, one of the team's job titles or "" for everyone; back to the menu.
    func chooseFocus(_ request: Request, _ context: PlayerContext) throws -> Response {
        guard let role = request.form?["role"], role.isEmpty || directory.team.contains(where: { $0.jobTitle == role })
        else { throw PageError(.unprocessableContent) }
        try store.chooseFocus(role.isEmpty ? nil : role, player: context.visitor.player)
        return .redirect(to: "/namegame?focus=saved")
    }

    /// The menu's choice of whom to meet first: everyone, or those of one job title (with how many there are), in the
    /// player's language and alphabetical; the player's own selected. None where the team has fewer than two titles.
    /// `chosen`: the choice in words.
    func focusFields(_ chosen: String?, t: LanguageStrings) -> (choices: [TemplateValue], chosen: String) {
        var roles: [String: (label: String, count: Int)] = [:]
        for person in directory.team {
            guard let title = person.jobTitle, !title.isEmpty else { continue }
            roles[title, default: (role(person, t) ?? title, 0)].count += 1
        }
        let everyone = t.string("namegame.focus.everyone")
        guard roles.count >= 2 else { return ([], everyone) }
        let sorted = roles.sorted { $0.value.label.lowercased() < $1.value.label.lowercased() }
        let options: [TemplateValue] =
            [["value": "", "label": .string(everyone), "chosen": .bool(chosen == nil)]]
            + sorted.map { title, role in
                [
                    "value": .string(title), "chosen": .bool(title == chosen),
                    "label": .string(t.string("namegame.focus.role", [.string(role.label), .int(role.count)])),
                ]
            }
        return (options, chosen.flatMap { roles[$0]?.label } ?? everyone)
    }

    /// Today's goal (the pace's lessons' worth of answers), what tomorrow holds, and the run of days, on the menu and a lesson's summary: a reason to
    /// come back tomorrow, and a number that moves in a first session (reviews: nothing brought a player back, and
    /// "Learned: 0 of 130" stood still all day, as learned waits for a later day).
    /// `streak: false` where the run of days is shown apart (the summary's figures). `justAnswered`: the rounds of the
    /// lesson just ended, which met the goal if it was not met without them (a summary cheers it).
    func todayFields(
        _ player: String, isNew: Bool, streak withStreak: Bool = true, tomorrow withTomorrow: Bool = true,
        tomorrowDue: Bool = true, justAnswered: Int = 0, pace: Pace, cards: [String: Card], t: LanguageStrings
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
            // A goal met is cheered once, at the end of the lesson that met it (a review: no celebration at all).
            "justMet": .bool(met && answered - justAnswered < goal),
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
        let mastery = Self.mastery(store, people: directory.team, cards: cards, daysAhead: 1)
        let new = min(pace.newPerDay(newPerDay), mastery.notMet)
        return [
            "due": .int(mastery.due), "new": .int(new),
            "dueText": due ? .string(t.string("namegame.tomorrow.due", [.int(mastery.due)])) : .null,
            "newText": new == 0 ? .null : .string(t.string("namegame.tomorrow.new", [.int(new)])),
        ]
    }

    /// The menu's choice of pace: each with its new people a day, the player's own pressed.
    /// `saved`: just chosen, so the choice takes the focus as the page loads.
    func paceFields(_ chosen: Pace, saved: Bool = false, t: LanguageStrings) -> TemplateValue {
        .list(
            Pace.allCases.map { pace in
                .object([
                    "pace": .string(pace.rawValue), "chosen": .bool(pace == chosen),
                    "focus": .bool(saved && pace == chosen),
                    "label": .string(t.string("namegame.pace.\(pace.rawValue)", [.int(pace.newPerDay(newPerDay))])),
                ])
            })
    }
}
