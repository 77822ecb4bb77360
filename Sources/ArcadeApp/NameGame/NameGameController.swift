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
    var hintInterval: Double { max(0.2, constants.double("namegame.hintInterval", default: 2)) }
    var timedSeconds: Int { max(5, constants.int("namegame.timedSeconds", default: 60)) }

    func addRoutes(to routes: PlayerRoutes) {
        routes.pages.get("/namegame", use: menu)
        routes.pages.get("/namegame/stats") { _, context in try statsPage(context.visitor) }
        // Off the event loop: a returning player's page may end a timed session or deal a missing round.
        routes.pages.running(.pool).get("/namegame/:mode", use: mode)
        routes.actions.post("/namegame/answer", use: answer)
        routes.actions.post("/namegame/dontknow", use: dontKnow)
        routes.creating.post("/namegame/review", use: review)
        routes.creating.post("/namegame/next", use: next)
        routes.actions.post("/namegame/meet", use: meet)
    }

    func menu(_ request: Request, _ context: PlayerContext) throws -> Response {
        let t = pages.localizer.strings(for: context.visitor.language)
        let modes: [TemplateValue] = Mode.menu.map { mode in
            [
                "mode": .string(mode.rawValue), "href": .string("/namegame/\(mode.rawValue)"),
                "name": .string(t.string("namegame.mode.\(mode.rawValue)")),
                "description": .string(t.string("namegame.mode.\(mode.rawValue).about")),
            ]
        }
        return pages.render(
            "namegame-menu", title: t.string("namegame.title"), for: context.visitor, path: "/namegame",
            section: "namegame", data: ["modes": .list(modes)])
    }

    func mode(_ request: Request, _ context: PlayerContext) throws -> Response {
        guard let mode = Mode(rawValue: try request.parameter("mode")) else { throw PageError(.notFound) }
        return try play(mode, context.visitor)
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
            hintInterval: hintInterval, timedSeconds: timedSeconds)
        {
        case .success(let record):
            if !record.isOpen {
                // Playing the Name Game: remembered, and the reminder to try it is done.
                try once.perform(visitor) { $0.markDone(SiteTasks.nameGamePlayed) + $0.markDone(SiteTasks.tryNameGame) }
            }
            return .redirect(to: "/namegame/\(record.round.mode.rawValue)")
        case .failure(let refusal):
            return try play(mode, visitor, status: .unprocessableContent, error: Self.key(refusal))
        }
    }

    func dontKnow(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let form = request.form ?? FormFields()
        let mode = form["mode"].flatMap(Mode.init) ?? .normal
        guard let roundID = form["round"].flatMap({ Int64($0) }) else {
            return try play(mode, visitor, status: .unprocessableContent, error: "namegame.error.invalid")
        }
        switch try store.giveUp(player: visitor.playerID, round: roundID, people: directory, timedSeconds: timedSeconds)
        {
        case .success(let record): return .redirect(to: "/namegame/\(record.round.mode.rawValue)")
        case .failure(let refusal):
            return try play(mode, visitor, status: .unprocessableContent, error: Self.key(refusal))
        }
    }

    /// Learn mode: the player has seen the introduction of someone new; the question about them follows.
    func meet(_ request: Request, _ context: PlayerContext) throws -> Response {
        guard let roundID = request.form?["round"].flatMap({ Int64($0) }),
            try store.introduce(player: context.visitor.playerID, round: roundID, people: directory) != nil
        else {
            return try play(.learn, context.visitor, status: .unprocessableContent, error: "namegame.error.invalid")
        }
        return .redirect(to: "/namegame/learn")
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

    func next(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let mode = request.form?["mode"].flatMap(Mode.init) ?? .normal
        if let session = try store.openSession(player: visitor.playerID, mode: mode),
            let latest = try store.latestRound(session: session.id, people: directory), latest.isOpen,
            !timeIsUp(session)
        {
            return try play(mode, visitor, status: .unprocessableContent, error: "namegame.error.unanswered")
        }
        if let session = try store.openSession(player: visitor.playerID, mode: mode), !timeIsUp(session) {
            _ = try newRound(mode, session: session, visitor)
        } else {
            let session = try store.startSession(player: visitor.player, mode: mode)
            _ = try newRound(mode, session: session, visitor)
        }
        return .redirect(to: "/namegame/\(mode.rawValue)")
    }

    static func key(_ refusal: NameGameStore.Refusal) -> String {
        switch refusal {
        case .unknownRound, .invalidChoice: "namegame.error.invalid"
        case .alreadyAnswered: "namegame.error.answered"
        case .alreadyTried: "namegame.error.tried"
        case .hidden: "namegame.error.hidden"
        case .timeUp: "namegame.error.timeup"
        }
    }

    private func timeIsUp(_ session: NameGameStore.Session) -> Bool {
        session.mode == .timed && store.nowMilliseconds() - session.startedMilliseconds > Int64(timedSeconds) * 1000
    }

    private func newRound(
        _ mode: Mode, session: NameGameStore.Session, _ visitor: Visitor
    ) throws -> NameGameStore.RoundRecord? {
        var random = SecureRandom()
        let everyone = directory.people
        switch mode {
        case .learn:
            let avoid = try store.latestRound(session: session.id, people: directory)?.round.answerPerson.id
            let cards = try store.cards(player: visitor.playerID)
            guard
                let person = store.plan.next(people: everyone, cards: cards, now: store.nowMilliseconds(), avoid: avoid)
            else { return nil }
            return try store.addRound(
                Round.make(.learn, asking: person, from: everyone, using: &random), next: [],
                session: session.id, player: visitor.player)
        case .review:
            // One round per missed person (anyone since deleted is passed over); then the session is over.
            while let id = try store.popQueue(session: session.id) {
                guard let person = directory.person(id) else { continue }
                return try store.addRound(
                    Round.make(.review, asking: person, from: everyone, using: &random), next: [],
                    session: session.id, player: visitor.player)
            }
            try store.endSession(session.id)
            return nil
        default: break
        }
        var round: Round?
        // The people hinted for prefetch last time become this round.
        let hinted = session.nextPeople.compactMap { directory.person($0) }
        if hinted.count == session.nextPeople.count, !hinted.isEmpty,
            Set(hinted).isSubset(of: Set(mode.pool(directory.people)))
        {
            var hide = Array(hinted.indices)
            let answer = Int.random(in: 0..<hinted.count, using: &random)
            hide.removeAll { $0 == answer }
            hide.shuffle(using: &random)
            round = Round(mode: mode, people: hinted, answer: answer, hideOrder: hide)
        } else {
            round = Round.make(mode, from: directory.people, using: &random)
        }
        guard let round else { return nil }
        let next = Round.make(mode, from: directory.people, using: &random)?.people ?? []
        return try store.addRound(round, next: next, session: session.id, player: visitor.player)
    }

    /// The mode's page: the round in play, or the summary of a finished session.
    private func play(_ mode: Mode, _ visitor: Visitor, status: Status = .ok, error: String? = nil) throws -> Response {
        var session = try store.openSession(player: visitor.playerID, mode: mode)
        if let open = session, timeIsUp(open) {
            try store.endSession(open.id)
            session = try store.lastSession(player: visitor.playerID, mode: mode)
        }
        if session == nil { session = try store.lastSession(player: visitor.playerID, mode: mode) }
        let t = pages.localizer.strings(for: visitor.language)
        let banners = try OnceController.banners(
            once, visitor, game: "namegame", back: "/namegame/\(mode.rawValue)", t: t)
        func page(_ context: TemplateValue) -> Response {
            pages.render(
                "namegame", status: status, title: t.string("namegame.mode.\(mode.rawValue)"), for: visitor,
                path: "/namegame/\(mode.rawValue)", section: "namegame",
                data: ["ng": context, "once": banners])
        }
        guard var current = session else {
            // Never played this mode: a start card. Looking writes nothing, and the clock (and the hints'
            // timer) starts when the player presses Start, not when the page loads.
            return page([
                "mode": .string(mode.rawValue), "modeName": .string(t.string("namegame.mode.\(mode.rawValue)")),
                "about": .string(t.string("namegame.mode.\(mode.rawValue).about")), "notStarted": .bool(true),
                "isTimed": .bool(mode == .timed), "error": error.map { .string(t.string($0)) } ?? .null,
            ])
        }
        var record = try store.latestRound(session: current.id, people: directory)
        if record == nil && !current.ended {
            record = try newRound(mode, session: current, visitor)
            current = try store.openSession(player: visitor.playerID, mode: mode) ?? current
        }
        if mode == .learn, let record, record.isOpen, !current.ended,
            try !store.hasMet(player: visitor.playerID, person: record.round.answerPerson.id)
        {
            // Someone new: introduced (face, name, role) before the first question about them.
            var context = sessionFields(mode, session: current, t: t, error: error.map { t.string($0) })
            let person = record.round.answerPerson
            context["roundId"] = .int(Int(record.id))
            context["intro"] = .object([
                "img": .string(person.headshotURL), "name": .string(person.fullName),
                "role": .string(person.jobTitle ?? ""),
            ])
            return page(.object(context))
        }
        return page(roundContext(mode, session: current, record: record, t: t, error: error.map { t.string($0) }))
    }

    func roundContext(
        _ mode: Mode, session: NameGameStore.Session, record: NameGameStore.RoundRecord?, t: LanguageStrings,
        error: String?
    ) -> TemplateValue {
        var context = sessionFields(mode, session: session, t: t, error: error)
        guard let record else { return .object(context) }
        roundFields(mode, session: session, record: record, t: t, into: &context)
        return .object(context)
    }

    /// What the page shows of the session, with or without a round.
    private func sessionFields(
        _ mode: Mode, session: NameGameStore.Session, t: LanguageStrings,
        error: String?
    ) -> TemplateFields {
        var context: TemplateFields = [
            "mode": .string(mode.rawValue), "modeName": .string(t.string("namegame.mode.\(mode.rawValue)")),
            "error": error.map { .string($0) } ?? .null, "ended": .bool(session.ended || timeIsUp(session)),
            "reverse": .bool(mode == .reverse), "isTimed": .bool(mode == .timed), "timer": .bool(mode == .timed),
            "isHint": .bool(mode == .hint),
            "isPractice": .bool(mode == .practice), "hintMilliseconds": .int(Int(hintInterval * 1000)),
        ]
        let stats = session.stats
        context["session"] = .object([
            "rounds": .int(stats.rounds), "correct": .int(stats.correctTaps), "incorrect": .int(stats.incorrectTaps),
            "total": .int(stats.totalTaps), "accuracy": .int(Int(((stats.accuracy ?? 0) * 100).rounded())),
            "average": .string(stats.averageIdentifyMilliseconds.map { Self.seconds($0 / 1000) } ?? "–"),
            "streak": .int(session.streak), "best": .int(session.bestStreak),
        ])
        context["sessionId"] = .int(Int(session.id))
        context["isReview"] = .bool(mode == .review)
        context["isLearn"] = .bool(mode == .learn)
        if mode == .timed {
            let left = max(0, Int64(timedSeconds) * 1000 - (store.nowMilliseconds() - session.startedMilliseconds))
            let secondsLeft = Int((Double(left) / 1000).rounded(.up))
            context["secondsLeft"] = .int(secondsLeft)
            context["secondsTotal"] = .int(timedSeconds)
            context["ending"] = .bool(secondsLeft <= 5)
        }
        context["prefetch"] = .list(
            session.nextPeople.compactMap { directory.person($0) }.map { .string($0.headshotURL) })
        return context
    }

    /// What the page shows of the round: the question, the choices, and what an answer or the clock revealed.
    private func roundFields(
        _ mode: Mode, session: NameGameStore.Session, record: NameGameStore.RoundRecord,
        t: LanguageStrings, into context: inout TemplateFields
    ) {
        let round = record.round
        let answered = !record.isOpen
        // A session that ended (time up) with this round unanswered: nothing can be chosen any more, and the answer
        // is shown, so the last question still teaches a name.
        let over = session.ended || timeIsUp(session)
        let reveal = answered || over
        let elapsed = Double(store.nowMilliseconds() - record.startedMilliseconds) / 1000
        var hidden = reveal ? [] : round.hidden(after: elapsed, interval: hintInterval)
        if record.cheat && !reveal {
            // The cheat: the name's first letter when faces are the question, else half the wrong faces gone.
            if mode == .reverse {
                context["cheat"] = .string(
                    t.string("namegame.cheat.letter", [.string(String(round.answerPerson.fullName.prefix(1)))]))
            } else {
                hidden.formUnion(round.hideOrder.prefix(round.hideOrder.count / 2))
                context["cheat"] = .string(t.string("namegame.cheat.faces"))
            }
        }
        context["roundId"] = .int(Int(record.id))
        context["quiz"] = .bool(true)
        // The clock cut this round off: it shows the answer, marked as timed out (not as identified).
        context["timedOut"] = .bool(over && !answered)
        context["skipped"] = .bool(record.status == "skipped")
        if answered || over {
            // Review my misses: offered once the round is over, when the session missed anyone.
            let misses = try? store.misses(session: session.id, people: directory)
            if let misses, !misses.isEmpty {
                context["misses"] = .string(t.string("namegame.review.button", [.int(misses.count)]))
            }
        }
        if record.status == "skipped" {
            context["revealed"] = .string(t.string("namegame.dontknow.answer", [.string(round.answerPerson.fullName)]))
        }
        context["answered"] = .bool(answered)
        context["identified"] = .bool(record.status == "identified")
        context["failed"] = .bool(record.status == "failed")
        context["open"] = .bool(record.isOpen && !(session.ended || timeIsUp(session)))
        if let finished = record.finishedMilliseconds {
            context["roundSeconds"] = .string(Self.seconds(Double(finished - record.startedMilliseconds) / 1000))
        }
        context["question"] = .string(
            mode == .reverse
                ? t.string("namegame.question.reverse")
                : t.string("namegame.question", [.string(round.answerPerson.fullName)]))
        if mode == .reverse {
            context["face"] = .object([
                "img": .string(round.answerPerson.headshotURL), "alt": .string(t.string("namegame.face.single")),
            ])
        }
        context["keyCount"] = .int(round.people.count)
        if round.people.count < mode.choices {
            context["smallPool"] = .string(t.string("namegame.smallpool", [.int(round.people.count)]))
        }
        context["choices"] = choices(mode, record: record, reveal: reveal, hidden: hidden, t: t)
    }

    /// The faces (or names) to choose from, each with what the player did and what is revealed of it.
    private func choices(
        _ mode: Mode, record: NameGameStore.RoundRecord, reveal: Bool, hidden: Set<Int>,
        t: LanguageStrings
    ) -> TemplateValue {
        let round = record.round
        let answered = !record.isOpen
        return .list(
            round.people.enumerated().map { index, person in
                var result = ""
                if record.wrong.contains(index) { result = "wrong" }
                if answered && index == round.answer && record.status == "identified" { result = "correct" }
                let showName = mode == .reverse || reveal
                return .object([
                    "index": .int(index), "key": .int(index + 1), "img": .string(person.headshotURL),
                    "alt": .string(t.string("namegame.face", [.int(index + 1)])),
                    "name": showName ? .string(person.fullName) : .null,
                    "title": reveal && mode == .team ? .string(person.jobTitle ?? "") : .null,
                    "result": .string(result), "isAnswer": .bool(reveal && index == round.answer),
                    "hidden": .bool(hidden.contains(index)),
                    "timedOut": .bool(reveal && !answered && index == round.answer),
                    "disabled": .bool(reveal || !result.isEmpty || hidden.contains(index)),
                ])
            })
    }

    /// What a player knows; "due" counts everyone due by the end of today (UTC), as "due today" says.
    static func mastery(_ store: NameGameStore, people: [Person], cards: [String: Card]) -> LearningPlan.Mastery {
        let day: Int64 = 86_400_000
        let endOfToday = (store.nowMilliseconds() / day + 1) * day - 1
        return store.plan.mastery(people: people, cards: cards, now: endOfToday)
    }

    static func seconds(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    private func statsPage(_ visitor: Visitor) throws -> Response {
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
        let mastery = Self.mastery(store, people: directory.people, cards: cards)
        // The people I know: everyone learned (past the learning steps) shows their face and name; the rest wait as
        // silhouettes, never named.
        let learnedFirst =
            directory.people.filter { cards[$0.id]?.state == .review }
            + directory.people.filter { cards[$0.id]?.state != .review }
        let wall: [TemplateValue] = learnedFirst.map { person in
            guard let card = cards[person.id], card.state == .review else { return ["unknown": .bool(true)] }
            return ["img": .string(person.headshotURL), "name": .string(person.fullName)]
        }
        let learned = directory.people.count { cards[$0.id]?.state == .review }
        let masteryData: TemplateFields = [
            "known": .int(mastery.knownWell), "learning": .int(mastery.learning), "notMet": .int(mastery.notMet),
            "due": .int(mastery.due), "total": .int(directory.people.count),
        ]
        let times = try store.recentIdentifyTimes(player: visitor.playerID)
        let chart = TimeChart(
            times: times, valueLabel: { t.string("namegame.stats.seconds", [.string(Self.seconds($0))]) })
        let summary =
            times.isEmpty
            ? ""
            : t.string(
                "namegame.stats.summary",
                [
                    .string(Self.seconds(times.min() ?? 0)), .string(Self.seconds(times.max() ?? 0)),
                    .string(Self.seconds(times.reduce(0, +) / Double(times.count))),
                ])
        return pages.render(
            "namegame-stats", title: t.string("namegame.stats.title"), for: visitor, path: "/namegame/stats",
            section: "namegame",
            data: [
                "rows": .list(rows), "hasRows": .bool(!rows.isEmpty), "bars": .list(chart.bars),
                "hasBars": .bool(!times.isEmpty), "barCount": .int(times.count), "chart": chart.frame,
                "ticks": .list(chart.ticks), "summary": .string(summary), "mastery": .object(masteryData),
                "wall": .list(wall),
                "wallLabel": .string(t.string("namegame.wall.count", [.int(learned), .int(directory.people.count)])),
            ])
    }
}
