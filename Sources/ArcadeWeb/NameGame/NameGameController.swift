import ArcadeStore
import Constants
import Crypto
import HTTP
import Localization
import NameGame
import SpacedRepetition
import Templates

/// The Name Game on the web. Every face or name is a form button, so it
/// plays without JavaScript; the answer stays on the server until the
/// round is answered (faces are "Face 1"…, file names are opaque ids).
struct NameGameController: Sendable {
    let store: NameGameStore
    let people: PeopleStore
    let constants: Constants
    let pages: Pages
    let once: OnceStore

    /// Everyone playable now (admins may change them at any moment).
    var directory: Directory { people.directory }
    /// Seconds between one face going and the next in Hints: at 3, the last went at 15 s, a beginner's miss (a review:
    /// "called Hints, it plays like a timer"); at 4, at 20 s, the pace at which a right pick is slow anyway.
    var hintInterval: Double { max(0.2, constants.double("namegame.hintInterval", default: 4)) }
    /// How much longer a face stays in Hints mode for a player who slowed it down: ten times, WCAG 2.2.1's "adjust"
    /// (a blind review: by the time three descriptions were read, half the faces were gone).
    static let slowerHints = 10.0
    /// The seconds between two faces going in Hints mode, for this player.
    func hintInterval(_ visitor: Visitor) -> Double { hintInterval * (visitor.look.slowHints ? Self.slowerHints : 1) }
    var timedSeconds: Int { max(5, constants.int("namegame.timedSeconds", default: 60)) }
    /// Rounds in a lesson (the modes that have lessons: `Mode.lessonRounds`).
    var lessonLength: Int { max(3, constants.int("namegame.lessonRounds", default: 10)) }
    /// New people learn mode meets a day (UTC) at a steady pace, at most: then its lessons review (Anki's new cards a
    /// day). A player's pace scales it (`Pace`).
    var newPerDay: Int { max(1, constants.int("namegame.newPerDay", default: 10)) }
    /// New people a lesson asked for past the day's pace meets ("Meet 5 more now"): half a steady day's, so a keen
    /// learner always has a next step without changing their pace for good (a review: past today's ten, every lesson
    /// was the same ten again).
    var moreAtOnce: Int { max(3, newPerDay / 2) }

    /// Whether learn mode may still meet someone new today, at the player's pace.
    func meetsNew(_ player: String, pace: Pace? = nil) throws -> Bool {
        let perDay = try (pace ?? self.pace(player)).newPerDay(newPerDay)
        return try store.met(player: player, since: store.nowMilliseconds() / FSRS.day * FSRS.day) < perDay
    }
    /// People met in a quiz's pool from which its questions are about them only (`newRound`).
    static let quizFromMet = 4
    /// People met before a timed minute starts: with four, a minute asked the same four faces over and over (a review).
    static let timedFromMet = 8
    /// People met (the one asked among them) from which Learn asks a name picked among faces; below, it asks it typed,
    /// its first letter given: a pick between two faces is a coin toss (a review's first lesson opened on two 50/50s).
    static let learnPicksFromMet = 3
    /// How many of the people a lesson asked last wait while it asks ahead of time (`LearningPlan.next`'s `recent`).
    static let restAhead = 3

    /// How many people the player has met, counting `person` (about to be met when not yet).
    static func met(_ person: Person, cards: [String: Card]) -> Int { cards.count + (cards[person.id] == nil ? 1 : 0) }

    /// Whether a quiz asks about the people met, `met` of its pool: once there are `quizFromMet`; Practice, which ends
    /// at the first miss, from the first (a guess about a stranger ended a newcomer's run at once).
    static func asksMet(_ mode: Mode, met: Int) -> Bool { met >= (mode == .practice ? 1 : quizFromMet) }

    /// What a mode that waits until people are met says on its start card, or nil: it starts. Practice ends at the
    /// first miss (a newcomer's run ended on its first guess); a timed minute asks about the people met, and cannot
    /// stop its clock to introduce strangers (`Mode.introducesNewFaces`).
    func waitsToMeet(_ mode: Mode, player: String, t: LanguageStrings) throws -> String? {
        guard Self.meetsFirst(mode) > 0, try store.met(player: player, since: 0) < Self.meetsFirst(mode) else {
            return nil
        }
        return mode == .practice
            ? t.string("namegame.practice.meetfirst") : t.string("namegame.timed.meetfirst", [.int(Self.timedFromMet)])
    }

    /// The modes the menu shows after Learn, in order: recall (typing a name teaches most), the classic, the minute,
    /// then two more in the place of any left out (`featured(suggesting:met:)` shows three).
    /// 50/50 before the modes that unlock as people are met, so that the three stay put as they do (a review: after
    /// one game Practice took 50/50's place, and the menu moved under a returning player).
    static let featured: [Mode] = [.recall, .normal, .fifty, .timed, .practice]

    /// The three ways on shown after Learn, the first of `featured` that fit: not Recall where the card above already
    /// names it as the next step, nor a mode still waiting for people met (a review: Recall twice on one screen, and
    /// Timed locked among three).
    static func featured(suggesting recall: Bool, met: Int) -> [Mode] {
        Array(featured.filter { !(recall && $0 == .recall) && met >= meetsFirst($0) }.prefix(3))
    }

    /// How many people a mode waits for the player to have met (`waitsToMeet`): 0, it starts at once.
    static func meetsFirst(_ mode: Mode) -> Int { mode == .practice ? 1 : mode == .timed ? timedFromMet : 0 }
    /// The longest typed name read: anything longer is refused before it is compared.
    static let maxTypedName = 200
    /// An open round seen again after this long (milliseconds) was left: its clock starts again.
    static let awayAfter: Int64 = 30_000
    /// How long a finished lesson's summary stays the mode's page (then the mode starts afresh).
    static let summaryKept: Int64 = 10 * 60_000

    func addRoutes(to routes: PlayerRoutes) {
        // Off the event loop: a returning player's menu reads their cards.
        routes.pages.running(.pool).get("/namegame", use: menu)
        routes.pages.get("/namegame/stats") { _, context in try statsPage(context.visitor) }
        // Off the event loop: it reads the player's cards.
        routes.pages.running(.pool).get("/namegame/people", use: peoplePage)
        routes.pages.running(.pool).get("/namegame/board", use: boardPage)
        routes.pages.get("/namegame/reminder.ics", use: reminder)
        // Off the event loop: a returning player's page may end a timed session or deal a missing round.
        routes.pages.running(.pool).get("/namegame/:mode", use: mode)
        routes.actions.post("/namegame/answer", use: answer)
        routes.actions.post("/namegame/recall", use: recall)
        routes.actions.post("/namegame/dontknow", use: dontKnow)
        routes.creating.post("/namegame/review", use: review)
        routes.creating.post("/namegame/next", use: next)
        routes.actions.post("/namegame/meet", use: meet)
        routes.actions.post("/namegame/note", use: saveNote)
        routes.actions.post("/namegame/moretime", use: moreTime)
        routes.actions.post("/namegame/pace", use: choosePace)
        routes.actions.post("/namegame/focus", use: chooseFocus)
        routes.actions.post("/namegame/hint-speed", use: hintSpeed)
    }

    func menu(_ request: Request, _ context: PlayerContext) throws -> Response {
        let t = pages.localizer.strings(for: context.visitor.language)
        let cards = context.visitor.isNew ? [:] : try store.cards(player: context.visitor.playerID)
        func card(_ mode: Mode) -> TemplateValue { menuCard(mode, met: cards.count, t: t) }
        // Learn is where a newcomer starts (issue 41): first and primary; the other modes follow as practice. A player
        // who has met people sees where they stand there, and what is due (a review: after two lessons the menu still
        // said "New to the Name Game?").
        let pace = context.visitor.isNew ? Pace.steady : try pace(context.visitor.playerID)
        let paceSaved = request.query["pace"] == "saved"
        let focus = focusFields(context.visitor.isNew ? nil : try store.focus(player: context.visitor.playerID), t: t)
        let focusSaved = request.query["focus"] == "saved"
        let everyone = directory.team.count
        let learned = directory.team.count { LearningPlan.knows(cards[$0.id]) }
        let met = directory.team.count { cards[$0.id] != nil }
        let sticking = directory.team.count { LearningPlan.gettingThere(cards[$0.id]) }
        // Met first, the count that moves on a first day: a review read "Learned: 0 of 130" after a day's lessons as
        // nothing learned (learned waits for answers over more than one day). A bar shows the three parts.
        let progress: TemplateValue =
            cards.isEmpty
            ? .null
            : [
                "met": .string(t.string("namegame.met.count", [.int(met), .int(everyone)])),
                // Between met and learned, the level a first day's work reaches (see `gettingThere`).
                "sticking": .string(t.string("namegame.sticking.count", [.int(sticking)])),
                "learned": .string(t.string("namegame.wall.count", [.int(learned), .int(everyone)])),
                "due": .string(dueLine(dueCounts(cards), t: t)),
                "everyone": .int(everyone), "metCount": .int(met), "learnedCount": .int(learned),
                "stickingCount": .int(learned + sticking),
            ]
        let today = try todayFields(
            context.visitor.playerID, isNew: context.visitor.isNew, pace: pace, cards: cards, t: t)
        // Nobody due and nobody new today: Learn gives a lesson of people met, and says so (a review pressed it under
        // "Nothing is due right now" and was given a whole lesson).
        let newToday = try met < everyone && meetsNew(context.visitor.playerID, pace: pace)
        let extra = !cards.isEmpty && dueCounts(cards).now == 0 && !newToday
        // Recall is named as the next step once four of the team are met, under today's goal met (the template's test).
        let suggests = met >= Self.quizFromMet
        let shown = Self.featured(suggesting: suggests && Self.goalMet(today), met: cards.count)
        return pages.render(
            "namegame-menu", title: t.string("namegame.title"), for: context.visitor, path: "/namegame",
            section: "namegame",
            data: [
                "start": card(.learn), "progress": progress, "extra": .bool(extra),
                // Today's new people met and nobody due: a few more now, beside the extra lesson of those met.
                "more": extra && met < everyone ? .string(t.string("namegame.more", [.int(moreAtOnce)])) : .null,
                "today": today, "pace": paceFields(pace, saved: paceSaved, t: t),
                "paceSaved": paceSaved
                    ? .string(t.string("namegame.pace.saved", [.int(pace.newPerDay(newPerDay))])) : .null,
                "focus": .list(focus.choices), "focusOffered": .bool(!focus.choices.isEmpty),
                "focusSaved": focusSaved ? .string(t.string("namegame.focus.saved", [.string(focus.chosen)])) : .null,
                // The bundled people are drawings (a review took them for the product: "it does not teach my team"):
                // said in full to a newcomer, then in a line at the foot (a fifth of every first screen, a review).
                "demo": .bool(directory.people.contains(where: PeopleStore.isDemo)), "returning": .bool(!cards.isEmpty),
                // Three ways on, the rest behind "More ways to play" (reviews: ten look-alike modes, no path after
                // Learn); once four people are met, the next step is named under a met goal (the template's test).
                "modes": .list(shown.map(card)),
                "moreModes": .list(Mode.menu.filter { $0 != .learn && !shown.contains($0) }.map(card)),
                "suggest": suggests ? card(.recall) : .null,
            ])
    }

    /// A mode's card on the menu. One that waits for people met says so (a review tapped Practice and Timed to find
    /// "Start with Learn"), and how far along (another met six and read "a few" with no target).
    private func menuCard(_ mode: Mode, met: Int, t: LanguageStrings) -> TemplateValue {
        let waits = Self.meetsFirst(mode)
        let locked =
            met >= waits
            ? nil
            : waits == 1
                ? t.string("namegame.menu.locked.one") : t.string("namegame.menu.locked.few", [.int(met), .int(waits)])
        return [
            "mode": .string(mode.rawValue), "href": .string("/namegame/\(mode.rawValue)"),
            "name": .string(t.string("namegame.mode.\(mode.rawValue)")),
            "description": .string(t.string("namegame.mode.\(mode.rawValue).about")),
            "locked": locked.map { .string($0) } ?? .null,
        ]
    }

    /// Whether today's goal is met, as `todayFields` worked it out.
    static func goalMet(_ today: TemplateValue) -> Bool {
        guard case .object(let fields) = today, case .bool(let met) = fields["met"] else { return false }
        return met
    }

    /// Who is due by the end of today (UTC) and who now.
    func dueCounts(_ cards: [String: Card]) -> (today: Int, now: Int) {
        Self.dueCounts(store, people: directory.team, cards: cards)
    }

    /// The same, for a page of another feature (Your progress).
    static func dueCounts(_ store: NameGameStore, people: [Person], cards: [String: Card]) -> (today: Int, now: Int) {
        (
            mastery(store, people: people, cards: cards).due,
            store.plan.mastery(people: people, cards: cards, now: store.nowMilliseconds()).due
        )
    }

    /// What is due: now (what another lesson would start with), or nothing now with what comes later today, or
    /// nothing more today, Anki's way (a review: "due again today" only grew, and nothing said the day's work was
    /// done). No look-ahead: "due now: 1" after a perfect lesson read as a contradiction (a review); nor "done for now"
    /// under a daily goal half met (another).
    func dueLine(_ counts: (today: Int, now: Int), t: LanguageStrings) -> String {
        let (due, dueNow) = counts
        return dueNow > 0
            ? t.string("namegame.summary.due.now", [.int(dueNow)])
            : due > 0 ? t.string("namegame.summary.done.later", [.int(due)]) : t.string("namegame.summary.due.none")
    }

    func mode(_ request: Request, _ context: PlayerContext) throws -> Response {
        guard let mode = Mode(rawValue: try request.parameter("mode")) else { throw PageError(.notFound) }
        // From the home page's review line (`?start=1`): a lesson, not the last one's summary (a review came back the
        // next visit to "Perfect! Lesson complete"). Only for a player who has met people: a visitor who only looks
        // gets no row from a link.
        let visitor = context.visitor
        if request.query["start"] == "1", mode.lessonRounds(lessonLength) != nil, !visitor.isNew,
            try store.openSession(player: visitor.playerID, mode: mode) == nil,
            try !store.cards(player: visitor.playerID).isEmpty
        {
            return try advance(mode, visitor, resume: true)
        }
        return try play(mode, visitor, typo: request.query["typo"].flatMap { Int64($0) })
    }

    func answer(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let form = request.form ?? FormFields()
        let mode = form["mode"].flatMap(Mode.init) ?? .normal
        guard let roundID = form["round"].flatMap({ Int64($0) }), let choice = form["choice"].flatMap({ Int($0) })
        else {
            return try play(mode, visitor, status: .unprocessableContent, error: "namegame.error.invalid")
        }
        switch try store.answer(
            player: visitor.playerID, round: roundID, choice: choice, people: directory,
            hintInterval: hintInterval(visitor), timedSeconds: timedSeconds, ended: once.nameGameEnded(for: visitor))
        {
        case .success(let record):
            // The tap on the answer shown after a miss only moves on: straight to the next round, no "Right".
            guard record.status == "identified", !record.wrong.isEmpty else { return played(record) }
            return try advance(record.round.mode, visitor, resume: false)
        case .failure(let refusal):
            return try refused(refusal, mode, visitor)
        }
    }

    /// A refused answer's page, with its reason; time up is the minute's end, the page a reload shows (a review's
    /// address bar kept /namegame/answer after a last tap as the minute ran out).
    private func refused(
        _ refusal: NameGameStore.Refusal, _ mode: Mode, _ visitor: Visitor, typed: String? = nil
    ) throws -> Response {
        if refusal == .timeUp { return .redirect(to: "/namegame/\(mode.rawValue)") }
        return try play(mode, visitor, status: .unprocessableContent, error: Self.key(refusal), typed: typed)
    }

    /// A typed name in a recall round, or (`hint=1`) the request for its first letter.
    func recall(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let form = request.form ?? FormFields()
        let mode = form["mode"].flatMap(Mode.init) ?? .recall
        let typed = form["name"] ?? ""
        guard let roundID = form["round"].flatMap({ Int64($0) }), typed.utf8.count <= Self.maxTypedName else {
            return try play(mode, visitor, status: .unprocessableContent, error: "namegame.error.invalid")
        }
        if form["hint"] == "1" {
            guard try store.hint(player: visitor.playerID, round: roundID) else {
                return try play(mode, visitor, status: .unprocessableContent, error: "namegame.error.invalid")
            }
            return .redirect(to: "/namegame/\(mode.rawValue)")
        }
        switch try store.recall(
            player: visitor.playerID, round: roundID, typed: typed, people: directory, timedSeconds: timedSeconds,
            ended: once.nameGameEnded(for: visitor))
        {
        case .success(let record):
            // A forgiven typo is right, and the next page shows how the name is spelled.
            return played(record, typo: record.typo)
        case .failure(let refusal):
            return try refused(refusal, mode, visitor, typed: typed)
        }
    }

    /// After an answer: back to the mode's page.
    private func played(_ record: NameGameStore.RoundRecord, typo: Bool = false) -> Response {
        .redirect(to: "/namegame/\(record.round.mode.rawValue)" + (typo ? "?typo=\(record.id)" : ""))
    }

    func dontKnow(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let form = request.form ?? FormFields()
        let mode = form["mode"].flatMap(Mode.init) ?? .normal
        guard let roundID = form["round"].flatMap({ Int64($0) }) else {
            return try play(mode, visitor, status: .unprocessableContent, error: "namegame.error.invalid")
        }
        switch try store.giveUp(
            player: visitor.playerID, round: roundID, people: directory, timedSeconds: timedSeconds,
            ended: once.nameGameEnded(for: visitor))
        {
        // A round ended by "I don't know" is played too (an English reader's progress still said "Try the Name Game").
        case .success(let record): return played(record)
        case .failure(let refusal): return try refused(refusal, mode, visitor)
        }
    }

    /// The player has seen the introduction of someone new. The question about them comes after the next round
    /// (someone due, someone met before, or the next new face), so it is recalled rather than read off the page just
    /// seen: in Learn, and in a quiz too (a review: Normal asked "Who is Quinn?" right after meeting Quinn, among
    /// strangers, matching a picture, not recalling a name). Recall and Review ask it now.
    func meet(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let mode = request.form?["mode"].flatMap(Mode.init) ?? .learn
        guard let roundID = request.form?["round"].flatMap({ Int64($0) }),
            let introduced = try store.introduce(player: visitor.playerID, round: roundID, people: directory)
        else {
            return try play(mode, visitor, status: .unprocessableContent, error: "namegame.error.invalid")
        }
        let played = introduced.round.mode
        // A note written on meeting them, to remember them by (the card now exists to keep it on).
        if let note = request.form?["note"], !note.trimmingSpaces.isEmpty {
            _ = try store.setNote(player: visitor.playerID, person: introduced.round.answerPerson.id, note: note)
        }
        // (Recall recognises the person just met among six names, its first step; Review shows who a miss was.)
        guard played != .recall && played != .review else { return .redirect(to: "/namegame/\(played.rawValue)") }
        if let session = try store.openSession(player: visitor.playerID, mode: played),
            let next = try newRound(played, session: session, visitor, avoid: introduced.round.answerPerson.id)
        {
            try store.dropIntroduction(player: visitor.playerID, round: roundID, replacedBy: next.id)
        }
        return .redirect(to: "/namegame/\(played.rawValue)")
    }

    /// Timed mode's "More time": the clock gets `NameGameStore.extraTime` more (WCAG 2.2.1, a time limit a player
    /// can extend); the score then no longer counts as a personal best. Too late or too often: said on the page.
    func moreTime(_ request: Request, _ context: PlayerContext) throws -> Response {
        guard try store.addTime(player: context.visitor.playerID, timedSeconds: timedSeconds) else {
            return try play(.timed, context.visitor, status: .unprocessableContent, error: "namegame.error.moretime")
        }
        return .redirect(to: "/namegame/timed")
    }

    /// Hints mode slowed down or back to its usual speed: a cookie, so it works without an account or a script.
    func hintSpeed(_ request: Request, _ context: PlayerContext) throws -> Response {
        let slow = request.form?["slow"] == "1"
        var response = Response.redirect(to: "/namegame/hint")
        response.setCookie(
            SetCookie(name: LookCookies.hints, value: slow ? "slow" : "", maxAge: slow ? 365 * 86_400 : 0))
        return response
    }

    /// Review my misses: a review session of exactly the people a session missed.
    func review(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        guard let id = request.form?["session"].flatMap({ Int64($0) }),
            let session = try store.session(id: id, player: visitor.playerID)
        else {
            return try play(.review, visitor, status: .unprocessableContent, error: "namegame.error.invalid")
        }
        let missed = try store.misses(session: session.id, people: directory)
        guard !missed.isEmpty else {
            return try play(session.mode, visitor, status: .unprocessableContent, error: "namegame.review.none")
        }
        let review = try store.startReview(player: visitor.player, people: missed)
        _ = try newRound(.review, session: review, visitor)
        return .redirect(to: "/namegame/review")
    }

    /// The next round, or (from the menu, `resume=1`) straight into the mode: the round in play if there is one, else
    /// a new one, so one tap on a mode reaches a question.
    func next(_ request: Request, _ context: PlayerContext) throws -> Response {
        let mode = request.form?["mode"].flatMap(Mode.init) ?? .normal
        let more = mode == .learn && request.form?["more"] == "1" ? moreAtOnce : 0
        return try advance(mode, context.visitor, resume: request.form?["resume"] == "1", meetMore: more)
    }

    /// Deals the mode's next round (or ends a finished lesson) and sends the player to it. `meetMore`: a new lesson
    /// may meet so many people past the day's pace.
    func advance(_ mode: Mode, _ visitor: Visitor, resume: Bool, meetMore: Int = 0) throws -> Response {
        // Timed from the menu is a fresh minute: a run left for the menu had its clock run down meanwhile (a review
        // came back to 42 s left). A second tap within a few seconds is the same start.
        // The mode's open session, read once; one whose time is up counts as none.
        var open = try store.openSession(player: visitor.playerID, mode: mode).flatMap { timeIsUp($0) ? nil : $0 }
        if mode == .timed, resume, let session = open, store.nowMilliseconds() - session.startedMilliseconds > 5_000 {
            try store.endSession(session.id)
            open = nil
        }
        if let session = open, let latest = try store.latestRound(session: session.id, people: directory),
            latest.isOpen
        {
            if resume { return .redirect(to: "/namegame/\(mode.rawValue)") }
            return try play(mode, visitor, status: .unprocessableContent, error: "namegame.error.unanswered")
        }
        if let session = open {
            guard try lessonDone(session, player: visitor.playerID) else {
                _ = try newRound(mode, session: session, visitor)
                return .redirect(to: "/namegame/\(mode.rawValue)")
            }
            // The lesson's last round is behind: its summary, or (from the menu) the next lesson at once.
            try store.endSession(session.id)
            if !resume { return .redirect(to: "/namegame/\(mode.rawValue)") }
        }
        // Practice and Timed wait until people are met, and their start card says where to meet them.
        let t = pages.localizer.strings(for: visitor.language)
        if try waitsToMeet(mode, player: visitor.playerID, t: t) != nil {
            return .redirect(to: "/namegame/\(mode.rawValue)")
        }
        let session = try store.startSession(player: visitor.player, mode: mode, meetMore: meetMore)
        _ = try newRound(mode, session: session, visitor)
        return .redirect(to: "/namegame/\(mode.rawValue)")
    }

    /// Whether a lesson has played all its rounds (a practice run, its first miss or everyone met named once).
    func lessonDone(_ session: NameGameStore.Session, player: String) throws -> Bool {
        if session.mode == .practice {
            return try session.stats.incorrectTaps > 0 || swept(session, cards: store.cards(player: player))
        }
        guard let total = try lessonTotal(session) else { return false }
        return session.stats.rounds >= total
    }

    /// Whether a practice run has named everyone the player has met, each once: its finish line (a review ran 27 in a
    /// row through twelve people, with no end in sight).
    /// `cards`: the player's, as the caller has read them.
    func swept(_ session: NameGameStore.Session, cards: [String: Card]) -> Bool {
        let stats = session.stats
        guard stats.incorrectTaps == 0, stats.identified == stats.rounds, stats.rounds > 0 else { return false }
        return stats.identified >= Mode.practice.pool(directory.people).count { cards[$0.id] != nil }
    }

    /// Rounds a lesson may add to ask again whom it missed.
    static let secondTries = 5

    /// A session's rounds: Learn's lesson goes on past its length to ask once more whom it missed, and whom it met and
    /// never asked to type the name (`NameGameStore.unfinished`), `secondTries` rounds at most (Duolingo redoes mistakes
    /// before a lesson ends; a review's miss in round 9 of 10 waited for another day). Nil: the mode has no set length.
    func lessonTotal(_ session: NameGameStore.Session) throws -> Int? {
        guard let length = session.mode.lessonRounds(lessonLength) else { return nil }
        guard session.mode == .learn, session.stats.rounds >= length else { return length }
        let left = try store.unfinished(session: session.id, after: length)
        return min(length + Self.secondTries, session.stats.rounds + left.missed.count + left.unnamed.count)
    }

    static func key(_ refusal: NameGameStore.Refusal) -> String {
        switch refusal {
        case .unknownRound, .invalidChoice: "namegame.error.invalid"
        case .alreadyAnswered: "namegame.error.answered"
        case .alreadyTried: "namegame.error.tried"
        case .hidden: "namegame.error.hidden"
        case .timeUp: "namegame.error.timeup"
        case .surnameOnly: "namegame.error.surname"
        case .partOfFullName: "namegame.error.namesake"
        }
    }

    func timeIsUp(_ session: NameGameStore.Session) -> Bool {
        session.timeIsUp(at: store.nowMilliseconds(), seconds: timedSeconds)
    }

    /// What a player knows; "due" counts everyone due by the end of today (UTC), as "due today" says, or of the day
    /// `daysAhead` after it.
    static func mastery(
        _ store: NameGameStore, people: [Person], cards: [String: Card], daysAhead: Int64 = 0
    ) -> LearningPlan.Mastery {
        let day = FSRS.day
        let endOfDay = (store.nowMilliseconds() / day + 1 + daysAhead) * day - 1
        return store.plan.mastery(people: people, cards: cards, now: endOfDay)
    }

    /// Seconds to a tenth, as data ("2.3"): pages show them through the language's format (`%.1f` in a string,
    /// `num.decimal` in a template), which writes "2,3" where the language does.
    static func seconds(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// The statistics, from one snapshot: its three reads agree.
    private func statsPage(_ visitor: Visitor) throws -> Response {
        try store.snapshot { try statsPageInSnapshot(visitor) }
    }

    private func statsPageInSnapshot(_ visitor: Visitor) throws -> Response {
        let t = pages.localizer.strings(for: visitor.language)
        let rows: [TemplateValue] = try store.lifetime(player: visitor.playerID).map { row in
            let stats = row.stats
            let average = stats.averageIdentifyMilliseconds.map { Self.seconds($0 / 1000) } ?? "–"
            let accuracy = Int(((stats.accuracy ?? 0) * 100).rounded())
            let fields: TemplateFields = [
                "mode": .string(row.mode.rawValue), "name": .string(t.string("namegame.mode.\(row.mode.rawValue)")),
                "rounds": .int(stats.rounds), "correct": .int(stats.correctTaps),
                "incorrect": .int(stats.incorrectTaps),
                "total": .int(stats.totalTaps), "accuracy": .int(accuracy), "average": .string(average),
                "streak": .int(row.streak), "best": .int(row.best),
            ]
            return .object(fields)
        }
        let cards = try store.cards(player: visitor.playerID)
        let mastery = Self.mastery(store, people: directory.team, cards: cards)
        let masteryData: TemplateFields = [
            "known": .int(mastery.knownWell), "learning": .int(mastery.learning), "notMet": .int(mastery.notMet),
            "due": .int(mastery.due), "total": .int(directory.team.count),
        ]
        let times = try store.recentIdentifyTimes(player: visitor.playerID)
        let chart = TimeChart(
            times: times, valueLabel: { t.string("namegame.stats.seconds", [.double($0)]) })
        let summary =
            times.isEmpty
            ? ""
            : t.string(
                "namegame.stats.summary",
                [
                    .double(times.min() ?? 0), .double(times.max() ?? 0),
                    .double(times.reduce(0, +) / Double(times.count)),
                ])
        var data: TemplateFields = [
            "rows": .list(rows), "hasRows": .bool(!rows.isEmpty), "bars": .list(chart.bars),
            "hasBars": .bool(!times.isEmpty), "barCount": .int(times.count), "chart": chart.frame,
            "ticks": .list(chart.ticks), "summary": .string(summary), "mastery": .object(masteryData),
        ]
        data.merge(wallFields(cards, t: t))
        return pages.render(
            "namegame-stats", title: t.string("namegame.stats.title"), for: visitor, path: "/namegame/stats",
            section: "namegame", data: data)
    }

    /// The people I know: everyone learned (`LearningPlan.knows`) shows their face and name, then everyone met and
    /// being learned, marked so (a review: a first day's work left 130 silhouettes); the rest wait as silhouettes,
    /// never named.
    private func wallFields(_ cards: [String: Card], t: LanguageStrings) -> TemplateFields {
        let knows = { (person: Person) in LearningPlan.knows(cards[person.id]) }
        let learning = { (person: Person) in cards[person.id] != nil && !knows(person) }
        let order =
            directory.team.filter(knows) + directory.team.filter(learning)
            + directory.team.filter { cards[$0.id] == nil }
        let met = cards.isEmpty ? 0 : order.count { cards[$0.id] != nil }
        let wall: [TemplateValue] = order.enumerated().map { index, person in
            // The silhouettes start a line of their own, under the faces (after them on the faces' line, the wall
            // was ragged, a review).
            guard cards[person.id] != nil else { return ["unknown": .bool(true), "first": .bool(index == met)] }
            // The face in words, where a blind player would revise (a review: only names here).
            return [
                "img": .string(person.headshotURL), "name": .string(person.fullName),
                "alt": .string(looks(person, t) ?? ""), "learning": .bool(learning(person)),
            ]
        }
        let learned = directory.team.count(where: knows)
        let inProgress = directory.team.count(where: learning)
        return [
            "wall": .list(wall),
            "wallLabel": .string(t.string("namegame.wall.count", [.int(learned), .int(directory.team.count)])),
            "wallLearning": inProgress > 0 ? .string(t.string("namegame.learning.count", [.int(inProgress)])) : .null,
        ]
    }
}
