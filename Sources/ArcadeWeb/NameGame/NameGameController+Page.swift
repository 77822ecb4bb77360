import ArcadeStore
import HTTP
import Localization
import NameGame
import SpacedRepetition
import Templates

/// The mode's page: a round (a question, its feedback), learn mode's introduction, or a lesson's summary.
extension NameGameController {
    /// A person's job title and face in words, in the page's language where the demo people have them (`DemoWords`).
    func role(_ person: Person, _ t: LanguageStrings) -> String? { people.demoWords.jobTitle(person, t.language) }
    func looks(_ person: Person, _ t: LanguageStrings) -> String? { people.demoWords.appearance(person, t.language) }

    /// Whether a name has a word too wide for a phone's card at the usual size, in ems of a proportional face (wide
    /// letters and CJK count more): it is set smaller rather than cut ("Flynn Ravenswo…", a review).
    static func isLong(_ name: String) -> Bool {
        name.split(separator: " ").contains { word in
            word.unicodeScalars.reduce(0.0) { width, scalar in
                width + (scalar.value >= 0x2E80 ? 1.0 : "mwMW".unicodeScalars.contains(scalar) ? 0.85 : 0.6)
            } > 6.2
        }
    }

    /// `typo`: the round whose typed name was right but for a typo (its spelling is shown). `typed`: a name refused,
    /// given back in its field to be mended.
    func play(
        _ mode: Mode, _ visitor: Visitor, status: Status = .ok, error: String? = nil, typo: Int64? = nil,
        typed: String? = nil
    ) throws -> Response {
        let session = try shownSession(mode, player: visitor.playerID)
        let t = pages.localizer.strings(for: visitor.language)
        let banners = try OnceController.banners(
            once, visitor, game: "namegame", back: "/namegame/\(mode.rawValue)", t: t, tutorialCard: false)
        func page(_ context: TemplateValue) -> Response {
            pages.render(
                "namegame", status: status, title: t.string("namegame.mode.\(mode.rawValue)"), for: visitor,
                path: "/namegame/\(mode.rawValue)", section: "namegame",
                data: ["ng": context, "once": banners])
        }
        guard var current = session else { return page(try startCard(mode, visitor, error: error, t: t)) }
        var record = try shownRound(mode, session: current)
        if record == nil && !current.ended {
            record = try newRound(mode, session: current, visitor)
            current = try store.openSession(player: visitor.playerID, mode: mode) ?? current
        }
        let cards = try store.cards(player: visitor.playerID)
        // An answer the clock beat is refused; the minute's end says so itself (a review read the alert as an error).
        let shown = error == "namegame.error.timeup" && (current.ended || timeIsUp(current)) ? nil : error
        let interval = hintInterval(visitor)
        var context = sessionFields(mode, session: current, t: t, error: shown, cards: cards, hintInterval: interval)
        if shown != nil, let typed { context["typed"] = .string(typed) }
        if current.ended || timeIsUp(current) {
            try summaryFields(mode, session: current, visitor: visitor, cards: cards, t: t, into: &context)
        }
        if let record, record.isOpen, !current.ended, !timeIsUp(current),
            let intro = try introduction(record, visitor, cards: cards, t: t)
        {
            context["roundId"] = .int(Int(record.id))
            context["intro"] = intro
            // The first person a player meets says the team is made up, where it is (a review came from the home page
            // straight to a lesson, and took the bundled colleagues for real ones).
            context["demoNote"] = .bool(cards.isEmpty && directory.people.contains(where: PeopleStore.isDemo))
            // An introduction keeps the session's bar where it was (a review saw it vanish on the cards).
            lessonFields(mode, session: current, record: record, cards: cards, t: t, into: &context)
            return page(.object(context))
        }
        // A lesson's or a practice run's summary stands alone (issue 41); a timed minute ends on its last question.
        let summaryOnly =
            (current.ended || timeIsUp(current))
            && (mode.lessonRounds(lessonLength) != nil || mode == .review || mode == .practice)
        if summaryOnly, let misses = try? store.misses(session: current.id, people: directory), !misses.isEmpty {
            // Review my misses: offered by the summary that stands alone, as by an answered round.
            context["misses"] = .string(t.string("namegame.review.button", [.int(misses.count)]))
        }
        if let record, !summaryOnly {
            roundFields(
                mode, session: current, record: record, typo: typo, hintInterval: interval, cards: cards, t: t,
                into: &context)
            if !current.ended && !timeIsUp(current) {
                try recallFields(record, visitor.playerID, cards: cards, t: t, into: &context)
            }
            lessonFields(mode, session: current, record: record, cards: cards, t: t, into: &context)
        }
        return page(.object(context))
    }

    /// Never played this mode and came here by address: a start card. Looking writes nothing, and the clock (and the
    /// hints' timer) starts with Start. The menu's buttons start the round themselves.
    private func startCard(_ mode: Mode, _ visitor: Visitor, error: String?, t: LanguageStrings) throws -> TemplateValue
    {
        [
            "mode": .string(mode.rawValue), "modeName": .string(t.string("namegame.mode.\(mode.rawValue)")),
            "about": .string(t.string("namegame.mode.\(mode.rawValue).about")), "notStarted": .bool(true),
            "isTimed": .bool(mode == .timed), "error": error.map { .string(t.string($0)) } ?? .null,
            // How long a lesson is, before it starts (a review: one sentence and Start said nothing of it).
            "length": mode == .learn ? .string(t.string("namegame.start.length", [.int(lessonLength)])) : .null,
            "meetFirst": try waitsToMeet(mode, player: visitor.playerID, t: t).map { .string($0) } ?? .null,
        ]
    }

    /// A round about someone new introduces them (face, name, role) before its question (`Mode.introducesNewFaces`);
    /// Learn also those met only by a guess. Nil: the round is a question.
    private func introduction(
        _ record: NameGameStore.RoundRecord, _ visitor: Visitor, cards: [String: Card], t: LanguageStrings
    ) throws -> TemplateValue? {
        let person = record.round.answerPerson
        let mode = record.round.mode
        guard mode.introducesNewFaces, record.wrong.isEmpty || mode == .learn,
            try cards[person.id] == nil
                || mode == .learn && store.notIntroduced(player: visitor.playerID, person: person.id)
        else { return nil }
        // In a review, someone missed in a quiz before they were met: said so, not "Meet someone new" (a review read
        // its review as an ordinary lesson).
        let heading = mode == .review ? "namegame.intro.heading.review" : "namegame.intro.heading"
        return [
            "img": .string(person.headshotURL), "name": .string(person.fullName),
            "role": .string(role(person, t) ?? ""), "alt": .string(looks(person, t) ?? ""),
            "heading": .string(t.string(heading)),
        ]
    }

    /// The mode's open session, or its last one: a timed minute whose time is up ends first.
    /// A lesson left open on an earlier day is closed, and today's starts afresh from the mode's start card (a review's
    /// day-one lesson "completed" after three questions on day two, its summary mixing both days).
    private func shownSession(_ mode: Mode, player: String) throws -> NameGameStore.Session? {
        let day = FSRS.day
        let lesson = mode.lessonRounds(lessonLength) != nil
        func earlier(_ session: NameGameStore.Session) -> Bool {
            lesson && session.startedMilliseconds / day < store.nowMilliseconds() / day
        }
        if let open = try store.openSession(player: player, mode: mode) {
            guard timeIsUp(open) || earlier(open) else { return open }
            try store.endSession(open.id)
        }
        // A lesson's summary is the end of that lesson, not the mode's page for good: come back a while later and
        // the mode starts afresh (a review, back in Learn after other modes, met its first lesson's summary again).
        func stale(_ session: NameGameStore.Session) throws -> Bool {
            guard lesson, session.ended else { return false }
            let last = try store.latestRound(session: session.id, people: directory)
            let ended = last?.finishedMilliseconds ?? last?.startedMilliseconds ?? session.startedMilliseconds
            return store.nowMilliseconds() - ended > Self.summaryKept
        }
        return try store.lastSession(player: player, mode: mode).flatMap { try earlier($0) || stale($0) ? nil : $0 }
    }

    /// The session's latest round. One left open a while and seen again (another tab, a phone put away) starts its
    /// clock again: a review's round "took 14.5 s", and its lesson 13 minutes, for time spent away. Timed mode's clock
    /// is the session's.
    private func shownRound(_ mode: Mode, session: NameGameStore.Session) throws -> NameGameStore.RoundRecord? {
        let record = try store.latestRound(session: session.id, people: directory)
        guard let open = record, open.isOpen, mode != .timed, !session.ended,
            store.nowMilliseconds() - open.startedMilliseconds > Self.awayAfter, try store.restartClock(round: open.id)
        else { return record }
        return try store.latestRound(session: session.id, people: directory)
    }

    /// What the page shows of the session, with or without a round.
    func sessionFields(
        _ mode: Mode, session: NameGameStore.Session, t: LanguageStrings, error: String?, cards: [String: Card],
        hintInterval: Double
    ) -> TemplateFields {
        var context: TemplateFields = [
            "mode": .string(mode.rawValue), "modeName": .string(t.string("namegame.mode.\(mode.rawValue)")),
            "error": error.map { .string(t.string($0)) } ?? .null, "ended": .bool(session.ended || timeIsUp(session)),
            "reverse": .bool(mode == .reverse), "isTimed": .bool(mode == .timed), "timer": .bool(mode == .timed),
            "isHint": .bool(mode == .hint), "isTeam": .bool(mode == .team),
            "isPractice": .bool(mode == .practice), "hintMilliseconds": .int(Int(hintInterval * 1000)),
        ]
        if mode == .hint {
            // Slower faces (WCAG 2.2.1): a toggle that says its state, pressed or not, under one name (a blind review:
            // a label that flipped between "Slower" and "Usual speed" said nothing of which was on).
            let slow = hintInterval > self.hintInterval
            let seconds = Int((self.hintInterval * Self.slowerHints).rounded())
            context["hintSpeed"] = .object([
                "slow": .string(slow ? "0" : "1"), "pressed": .string(slow ? "true" : "false"),
                "label": .string(t.string("namegame.hint.slower", [.int(seconds)])),
            ])
        }
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
        if mode == .learn || mode == .recall { context.merge(learningCounts(cards, t: t)) }
        if mode == .timed { context.merge(clockFields(session)) }
        context["prefetch"] = .list(
            session.nextPeople.compactMap { directory.person($0) }.map { .string($0.headshotURL) })
        return context
    }

    /// Learn's and Recall's counts of the people learned and being learned, each shown once there is one.
    private func learningCounts(_ cards: [String: Card], t: LanguageStrings) -> TemplateFields {
        var fields: TemplateFields = [:]
        // Learned: remembered past the first day (`LearningPlan.knows`), not just right once today.
        // Shown once there is one: "Learned: 0 of 130" after a first lesson read as no progress (two reviews).
        let learned = directory.team.count { LearningPlan.knows(cards[$0.id]) }
        if learned > 0 {
            fields["learned"] = .object([
                "count": .int(learned),
                "text": .string(t.string("namegame.wall.count", [.int(learned), .int(directory.team.count)])),
            ])
        }
        // Met and on their way (a review: "Learned: 0 of 130" after a perfect first lesson read as no progress;
        // learned waits for a later day, so the count that moves today is this one).
        let learning = directory.team.count { cards[$0.id] != nil && !LearningPlan.knows(cards[$0.id]) }
        if learning > 0 {
            fields["learning"] = .object([
                "count": .int(learning), "text": .string(t.string("namegame.learning.count", [.int(learning)])),
            ])
        }
        return fields
    }

    /// A timed session's clock.
    private func clockFields(_ session: NameGameStore.Session) -> TemplateFields {
        var fields: TemplateFields = [:]
        let left = max(0, session.deadline(seconds: timedSeconds) - store.nowMilliseconds())
        let secondsLeft = Int((Double(left) / 1000).rounded(.up))
        fields["secondsLeft"] = .int(secondsLeft)
        fields["secondsTotal"] = .int(timedSeconds + Int(session.extraMilliseconds / 1000))
        fields["ending"] = .bool(secondsLeft <= 5)
        fields["moreTime"] = .bool(session.extraMilliseconds < NameGameStore.maxExtraTime)
        // Its place is kept from the start (nothing moves when it comes); the script shows it when the time comes.
        fields["moreTimeLater"] = .bool(left > NameGameStore.moreTimeOffered)
        fields["moreTimeFrom"] = .int(Int(NameGameStore.moreTimeOffered / 1000))
        fields["extraSeconds"] = .int(Int(NameGameStore.extraTime / 1000))
        return fields
    }

    /// The lesson's progress bar: rounds done of the lesson's (a review: of its list).
    func lessonFields(
        _ mode: Mode, session: NameGameStore.Session, record: NameGameStore.RoundRecord, cards: [String: Card],
        t: LanguageStrings, into context: inout TemplateFields
    ) {
        guard !(session.ended || timeIsUp(session)) else { return }
        // A wrong pick answers the round, though it stays open for the right one to be tapped: counted at once (a
        // review saw the bar stall on a miss, then jump by two).
        let done = session.stats.rounds + (record.isOpen && !record.wrong.isEmpty ? 1 : 0)
        // `total` is what the bar says; `end`, the rounds after which the lesson is over.
        let total: Int
        var end: Int
        if let length = mode.lessonRounds(lessonLength) {
            // Past its length, a lesson asks again whom it missed, and says so; its count stays "of 10" (a review read
            // a count going from 10 to 11 to 15 as a lesson whose length kept changing). Before it, the misses it will
            // ask again are said as they happen, and the bar does not fill before the end (a later review: "10 rounds"
            // took 12 to 14 answers, and the rounds past 9/10 came as a surprise).
            (total, end) = (length, (try? lessonTotal(session)) ?? length)
            if mode == .learn && session.stats.rounds < length {
                var missed = Set((try? store.unfinished(session: session.id, after: session.stats.rounds).missed) ?? [])
                if record.isOpen && !record.wrong.isEmpty { missed.insert(record.round.answerPerson.id) }
                end = length + min(Self.secondTries, missed.count)
            }
            // Whom it met and only picked, asked to type the name, is told so: not "someone you missed" (a review).
            if session.stats.rounds >= length && record.isOpen && mode == .learn {
                let missed = (try? store.unfinished(session: session.id, after: length).missed) ?? []
                let again = missed.contains(record.round.answerPerson.id) || !record.round.recall
                context["secondTry"] = .string(t.string(again ? "namegame.lesson.again" : "namegame.lesson.named"))
            }
        } else if mode == .review {
            total = done + session.queue.count + (record.isOpen ? 1 : 0)
            end = total
        } else {
            // Practice's run ends at its first miss, after that miss is shown (a review: "Session over" came at once,
            // with nothing marked).
            if mode == .practice {
                context["lastOfLesson"] = .bool(
                    !record.isOpen
                        && (session.stats.incorrectTaps > 0 || swept(session, cards: cards)))
            }
            return
        }
        // Only Learn's runs are lessons.
        let label = mode == .learn ? "namegame.lesson.label" : "namegame.session.label"
        // The rounds to come past the length, said beside the count (a review read 10/10 and was asked three more
        // times); the bar runs to the end, theirs included.
        let repeats = end - max(done, total)
        let extra = repeats > 0 ? t.string("namegame.lesson.extra", [.int(repeats)]) : nil
        let count = t.string("namegame.lesson.count", [.int(min(done, total)), .int(total)])
        context["lesson"] = .object([
            "done": .int(done), "total": .int(total), "end": .int(max(end, done)), "label": .string(t.string(label)),
            "shown": .int(min(done, total)),
            "text": .string(
                extra.map { t.string("namegame.lesson.countExtra", [.string(count), .string($0)]) } ?? count),
            "extra": extra.map { .string($0) } ?? .null,
        ])
        context["lastOfLesson"] = .bool(!record.isOpen && done >= end)
    }

    /// What the page shows of the round: the question, the choices (or the name to type), and what an answer, a wrong
    /// pick or the clock revealed. `typo`: the round whose typed name was right but for a typo (as `play`).
    func roundFields(
        _ mode: Mode, session: NameGameStore.Session, record: NameGameStore.RoundRecord, typo typoRound: Int64?,
        hintInterval: Double, cards: [String: Card], t: LanguageStrings, into context: inout TemplateFields
    ) {
        let typo = typoRound == record.id
        let round = record.round
        let answered = !record.isOpen
        // A session that ended (time up) with this round unanswered: nothing can be chosen any more, and the answer
        // is shown, so the last question still teaches a name.
        let over = session.ended || timeIsUp(session)
        let reveal = answered || over
        // A wrong pick in a round still open: the answer is shown (name and role) and is the one thing left to tap.
        let taught = !reveal && !record.wrong.isEmpty
        let elapsed = Double(store.nowMilliseconds() - record.startedMilliseconds) / 1000
        var hidden = reveal || taught ? [] : round.hidden(after: elapsed, interval: hintInterval)
        let person = round.answerPerson
        if record.cheat && !reveal { cheatFields(round, hidden: &hidden, t: t, into: &context) }
        context["roundId"] = .int(Int(record.id))
        context["reverse"] = .bool(round.showsNames)
        context["quiz"] = .bool(true)
        context["recall"] = .bool(round.recall)
        context["hasChoices"] = .bool(!round.recall)
        context["taught"] = .bool(taught)
        context["timedOut"] = .bool(over && !answered)
        context["skipped"] = .bool(record.status == "skipped")
        if over, let misses = try? store.misses(session: session.id, people: directory), !misses.isEmpty {
            // Review my misses: offered when the session is over, if it missed anyone (a review: offered under Next
            // mid-lesson, it took the player out of the lesson).
            context["misses"] = .string(t.string("namegame.review.button", [.int(misses.count)]))
        }
        // Someone on the faces whom a mode that introduces people has not introduced yet: named by none of its answers
        // (a review saw "Nadia Everly" under a face after a pick, before her introduction).
        let stranger = { (person: Person) in
            mode.introducesNewFaces && cards[person.id] == nil && person.id != round.answerPerson.id
        }
        let rightAtOnce = outcomeFields(
            mode, record: record, taught: taught, typo: typo, hintInterval: hintInterval, stranger: stranger, t: t,
            into: &context)
        // An answer brings back the player's own note on them, the memory hook they wrote (a review wrote one and never
        // saw it again when asked: shown after misses only).
        if taught || answered, let note = try? store.note(round: record.id, person: person.id) {
            context["note"] = .string(t.string("namegame.note.yours", [.string(note)]))
        }
        context["answerName"] = .string(person.fullName)
        context["answerRole"] = .string(role(person, t) ?? "")
        context["answered"] = .bool(answered)
        context["identified"] = .bool(rightAtOnce)
        context["failed"] = .bool(record.status == "failed")
        context["open"] = .bool(record.isOpen && !over)
        if let finished = record.finishedMilliseconds, rightAtOnce {
            timeFields(mode, record: record, took: finished - record.startedMilliseconds, t: t, into: &context)
        }
        questionFields(mode, round: round, t: t, into: &context)
        hintCatchFields(mode, session: session, record: record, t: t, into: &context)
        if !round.recall {
            context["choices"] = choices(
                mode, record: record, reveal: reveal, taught: taught, hidden: hidden, stranger: stranger, t: t)
        }
    }

    /// Hints' catch, said where it applies, on a session's first question (a review let the faces run out, as the
    /// mode seemed to invite, and was told it had not known).
    private func hintCatchFields(
        _ mode: Mode, session: NameGameStore.Session, record: NameGameStore.RoundRecord, t: LanguageStrings,
        into context: inout TemplateFields
    ) {
        guard mode == .hint && session.stats.rounds == 0 && record.isOpen else { return }
        context["modeHowto"] = .string(t.string("namegame.help.hint"))
        // Without a script the faces go on the server's clock unseen, until the next page (a review read "faces
        // disappear" and saw none go).
        context["modeHowtoNoScript"] = .string(t.string("namegame.help.hint.nojs"))
    }

    /// A right answer's time: said as slow past the player's limit, when it made the answer a hard one (a review was
    /// marked "Right, but slowly" at 8.3 s without knowing there was a limit; Timed has its own clock), and shown where
    /// it counts: when slow, and in Timed, a race (reviews: "This round took 6.9 s" after every answer of a lesson felt
    /// like pressure where the aim is to learn, and "took 0.4 s" after a quick pick was noise). A miss or "I don't
    /// know" is never timed (another read "This round took 6.8 s" as a judgement).
    private func timeFields(
        _ mode: Mode, record: NameGameStore.RoundRecord, took: Int64, t: LanguageStrings,
        into context: inout TemplateFields
    ) {
        let typed = record.round.recall
        // (A read that fails leaves the plan's own limit: the page still shows.)
        let slow =
            (try? store.slowLimit(session: record.session, typed: typed, before: record.startedMilliseconds))
            ?? store.plan.slowLimit(typed: typed)
        let tooSlow = mode != .timed && took > Int64(slow)
        if tooSlow { context["slowLine"] = .string(t.string("namegame.roundtime.slow", [.int(slow / 1000)])) }
        if tooSlow || mode == .timed { context["roundSeconds"] = .string(Self.seconds(Double(took) / 1000)) }
    }

    /// The cheat (or recall's hint): the name's first letter when a face is the question, else half the wrong faces
    /// gone.
    private func cheatFields(
        _ round: Round, hidden: inout Set<Int>, t: LanguageStrings, into context: inout TemplateFields
    ) {
        guard round.showsNames || round.recall else {
            // Beside one wrong face, half is that one (a review's cheat in a round of two faces took none away).
            let gone = max(1, round.hideOrder.count / 2)
            hidden.formUnion(round.hideOrder.prefix(gone))
            let words = round.hideOrder.count == 1 ? "namegame.cheat.face" : "namegame.cheat.faces"
            context["cheat"] = .string(t.string(words))
            return
        }
        let letter = String(round.answerPerson.firstName.prefix(1))
        context["cheat"] = .string(t.string("namegame.cheat.letter", [.string(letter)]))
        // Shown in the box, as its placeholder: typed there, a player who typed the whole name sent "ZZora" (a
        // review; before that, another found the letter said but not in the box).
        if round.recall { context["letter"] = .string(letter) }
    }

    /// An open typed round: the full name asked for where the player knows two people of this first name, and why (a
    /// review: two Hiros, and "Hiro" was the answer). A name missed typed, asked again in its learning steps, starts
    /// with its first letter given, part of the lesson and not counted as help: the fix is typed, with a start. A
    /// first typed round is from memory, the letter one tap away (counted as help): given unasked, a review scored a
    /// lesson 100 % "with zero effort"; an earlier one found a name typed after one meeting hard, which the tap eases.
    private func recallFields(
        _ record: NameGameStore.RoundRecord, _ player: String, cards: [String: Card], t: LanguageStrings,
        into context: inout TemplateFields
    ) throws {
        let round = record.round
        guard round.recall, record.isOpen else { return }
        let person = round.answerPerson
        let fullName = NameMatch.asksFullName(person, among: directory.team)
        // The field's label says which name, whatever line says why (a review: "First name" over a head start that
        // asked for the full name).
        context["askFull"] = .bool(fullName)
        if let key = try headStart(record, player, cards: cards) {
            // The head start asks for the full name itself: no namesake line besides (a review read three stacked
            // instructions saying one thing, above the phone's keyboard).
            let letter = String(person.firstName.prefix(1))
            context["cheat"] = .string(t.string(fullName ? key + ".full" : key, [.string(letter)]))
            context["letter"] = .string(letter)
        } else if fullName {
            // Without the name: it gave the first name away, leaving only the surname to recall (a review).
            context["namesake"] = .string(t.string("namegame.recall.namesake"))
        }
    }

    /// Learn's step only: Recall, chosen to type names from memory, keeps its letter behind the hint (a review saw
    /// every Recall round give it). Given to a newcomer's first names, typed for want of faces to pick among, and to a
    /// name missed typed, asked again. The key of its words, or nil.
    private func headStart(
        _ record: NameGameStore.RoundRecord, _ player: String, cards: [String: Card]
    ) throws
        -> String?
    {
        let person = record.round.answerPerson
        guard record.round.mode == .learn, !record.cheat else { return nil }
        if Self.met(person, cards: cards) < Self.learnPicksFromMet { return "namegame.recall.start" }
        if let card = cards[person.id], card.state != .review,
            try store.lastAskedTyped(player: player, person: person.id, before: record.id, missed: true)
        {
            return "namegame.recall.cue"
        }
        return nil
    }

    /// The name a typed round asks for: the first name, or the full name where someone else on the team shares it.
    func askedName(_ person: Person) -> String {
        NameMatch.asksFullName(person, among: directory.team) ? person.fullName : person.firstName
    }

    /// What an answer (or a wrong pick, "I don't know", the hints running out) says: the right name, the one tapped,
    /// the one typed, a typo forgiven, a timed miss's cost. Whether the round was right at once.
    private func outcomeFields(
        _ mode: Mode, record: NameGameStore.RoundRecord, taught: Bool, typo: Bool, hintInterval: Double,
        stranger: (Person) -> Bool, t: LanguageStrings, into context: inout TemplateFields
    ) -> Bool {
        let round = record.round
        let person = round.answerPerson
        // Name and role as a phrase of the language's own (Japanese: 名前さん（役職）; a reader wanted さん there too).
        let named =
            role(person, t).map { t.string("namegame.person.role", [.string(person.fullName), .string($0)]) }
            ?? t.string("namegame.person", [.string(person.fullName)])
        if record.status == "skipped" {
            // Hints mode's last face, tapped once every other was gone (`NameGameStore.answer`), or "I don't know".
            let waited = Double((record.finishedMilliseconds ?? 0) - record.startedMilliseconds) / 1000
            let waitedOut = round.hintsRanOut(after: waited, interval: hintInterval)
            context["revealed"] = .string(
                t.string(waitedOut ? "namegame.hint.waited" : "namegame.dontknow.answer", [.string(named)]))
            // "I don't know" is the honest answer spaced repetition lives on: shown calmly, not as a wrong one's red ✖
            // (a review: "it punishes the honest answer"). It still brings the person back soon. So is a face waited
            // for in Hints, which the mode invites: said to count as a miss, not marked as a wrong pick (a review
            // read the red ✖ there as punishment for waiting).
            context["calm"] = true
        }
        if round.recall { typedMissFields(mode, record: record, named: named, t: t, into: &context) }
        // Right only when the first answer was: a round found after a miss stays a miss.
        let rightAtOnce = record.status == "identified" && record.wrong.isEmpty
        if rightAtOnce {
            context["rightLine"] = .string(t.string("namegame.right.named", [.string(named)]))
            if typo && round.recall {
                let spelled = askedName(person)
                context["spelling"] = .string(t.string("namegame.recall.typo", [.string(spelled)]))
                context["spellingLetters"] = Self.spelledOut(spelled, typed: record.typed ?? "").map { .string($0) }
            }
            // Help asked for (the letter, or the "who is it?" cheat) is rated so and said so (a review: "hints are free"
            // after a bare "Right"; another saw Right and the streak rise for a cheat-helped pick).
            if !typo && record.cheat {
                context["helped"] = .string(t.string(round.recall ? "namegame.recall.helped" : "namegame.cheat.helped"))
            }
        } else if record.status == "identified" {
            context["revealed"] = .string(t.string("namegame.found", [.string(named)]))
        } else if taught || (record.status == "failed" && !round.recall) {
            // A wrong pick: still open where the answer is to be tapped, over where it ends the run (practice).
            // A face to name: it is this person; a name to find: this is the face that was asked for.
            context["rightLine"] = .string(
                t.string(round.showsNames ? "namegame.dontknow.answer" : "namegame.answer.shown", [.string(named)]))
            context["answerIndex"] = .int(round.answer)
            // Their face beside the words: where the window is short the words and the right card are not in sight
            // together (a low-vision review at 400 % had the face asked about, its miss and the answer each alone).
            context["rightFace"] = .string(person.headshotURL)
            if let last = record.wrong.last {
                tappedFields(
                    round.people[last], names: round.showsNames, stranger: stranger(round.people[last]), t: t,
                    into: &context)
            }
            if mode == .timed {
                context["penalty"] = .string(
                    t.string("namegame.timed.penalty", [.int(Int(NameGameStore.wrongTapCost / 1000))]))
            }
        }
        return rightAtOnce
    }

    /// Who was tapped: a face is someone ("That's Maren Tanaka"); a name is not this one ("Not Hugo Eastwick": a blind
    /// review heard only "This is …" after a wrong name, never that it was wrong), with its face beside the words (a
    /// review never saw whom it had confused; beside the name in its button the face was 27 px and pushed the name
    /// onto a second line).
    private func tappedFields(
        _ tapped: Person, names: Bool, stranger: Bool, t: LanguageStrings, into context: inout TemplateFields
    ) {
        context["tapped"] = .string(
            !names && stranger
                ? t.string("namegame.thats.notMet")
                : t.string(names ? "namegame.notThem" : "namegame.thats", [.string(tapped.fullName)]))
        guard names else { return }
        context["tappedFace"] = .string(tapped.headshotURL)
        // …and to the ear, that face in words (a blind review never heard whom it had confused).
        if let words = looks(tapped, t) {
            context["tappedLooks"] = .string(t.string("namegame.tapped.looks", [.string(words)]))
        }
    }

    /// The words of a name typed with a typo, letter by letter, for the ear: "Echeverria" and "Echeveria" sound
    /// alike (a blind review heard "it's spelled Hiro Echeverria" after typing "hiro echeveria", and learnt nothing).
    /// Only the words not typed as spelled (case and accents aside); nil when there are none.
    static func spelledOut(_ name: String, typed: String) -> String? {
        let typedWords = Set(typed.split(separator: " ").map { NameMatch.fold(String($0)) })
        let missed = name.split(separator: " ").filter { !typedWords.contains(NameMatch.fold(String($0))) }
        guard !missed.isEmpty else { return nil }
        return missed.map { $0.map(String.init).joined(separator: ", ") }.joined(separator: "; ")
    }

    /// A typed round missed: what was typed against the right name, and the name to type once right before going
    /// on, as flash-card apps ask (a review: the miss was read and gone), for a miss or "I don't know" alike. The
    /// page's script asks for it before going on (without a script, Next goes on). Not in a timed minute.
    private func typedMissFields(
        _ mode: Mode, record: NameGameStore.RoundRecord, named: String, t: LanguageStrings,
        into context: inout TemplateFields
    ) {
        let person = record.round.answerPerson
        if record.status == "failed" {
            context["recallMiss"] = .string(
                record.typed.map { !$0.isEmpty } == true
                    ? t.string("namegame.recall.miss.typed", [.string(record.typed ?? ""), .string(named)])
                    : t.string("namegame.recall.miss", [.string(named)]))
            context["typedOther"] = typedOther(record.typed ?? "", asked: person, t: t)
        }
        guard mode != .timed, record.status == "failed" || record.status == "skipped" else { return }
        // The face again beside the name to type, where the question's has scrolled away (a low-vision review, text
        // at 200 % on a phone: the correction with no face in sight, at the moment to link the two).
        context["missFace"] = .string(person.headshotURL)
        let asked = askedName(person)
        context["retype"] = .object([
            "name": .string(asked), "label": .string(t.string("namegame.retype.label", [.string(asked)])),
            "again": .string(t.string("namegame.retype.again", [.string(asked)])),
            "empty": .string(t.string("namegame.retype.empty", [.string(asked)])),
        ])
    }

    /// The question: a name to find among faces, or a face to name (its picture described), and how to answer.
    private func questionFields(_ mode: Mode, round: Round, t: LanguageStrings, into context: inout TemplateFields) {
        let person = round.answerPerson
        let faceQuestion = round.showsNames || round.recall
        context["question"] = .string(
            faceQuestion
                ? t.string("namegame.question.reverse") : t.string("namegame.question", [.string(person.fullName)]))
        if faceQuestion {
            context["face"] = .object([
                "img": .string(person.headshotURL),
                "alt": .string(
                    looks(person, t).map { t.string("namegame.face.single.described", [.string($0)]) }
                        ?? t.string("namegame.face.single")),
            ])
        }
        // Timed's line, and Sudden death's, say their own rule where the others say how to pick (reviews: one raced a
        // clock it had not been told about, the mode's card skipped as every mode starts at once; one's first miss
        // ended a "Practice" unwarned).
        context["howto"] = .string(
            t.string(
                mode == .timed || mode == .practice
                    ? "namegame.mode.\(mode.rawValue).about"
                    : round.recall
                        ? "namegame.howto.recall" : round.showsNames ? "namegame.howto.names" : "namegame.howto.faces"))
        context["keyCount"] = .int(round.people.count)
        // Only a small pool, not a round made smaller on purpose (Learn's three faces); the pool counted only then.
        if !round.recall && round.people.count < mode.choices && mode.pool(directory.people).count < mode.choices {
            context["smallPool"] = .string(t.string("namegame.smallpool", [.int(round.people.count)]))
        }
    }

    /// The faces (or names) to choose from, each with what the player did and what is revealed of it.
    func choices(
        _ mode: Mode, record: NameGameStore.RoundRecord, reveal: Bool, taught: Bool, hidden: Set<Int>,
        stranger: (Person) -> Bool, t: LanguageStrings
    ) -> TemplateValue {
        let round = record.round
        let answered = !record.isOpen
        return .list(
            round.people.enumerated().map { index, person in
                var result = ""
                let pickedWrong = record.wrong.contains(index)
                if pickedWrong { result = "wrong" }
                if answered && index == round.answer && record.status == "identified" && record.wrong.isEmpty {
                    result = "correct"
                }
                let isAnswer = (reveal || taught) && index == round.answer
                // Named: every name in reverse mode; once over, or after a wrong pick, everyone (a review: a miss, when
                // the player is most ready to learn, named two faces where a right answer named six).
                let showName = round.showsNames || reveal || taught
                // Roles: the answer's and each wrong pick's as soon as they are named, and everyone's in team mode,
                // a miss's too (a review: a team miss named six faces and gave four of them no role). Not on names
                // to choose from: a role added under a name made its row twice as tall, and the grid jumped under the
                // thumb (a review); the words about the answer carry it there.
                let unmet = !round.showsNames && stranger(person)
                let showTitle =
                    (reveal || taught) && (mode == .team || isAnswer || pickedWrong) && !round.showsNames && !unmet
                return .object([
                    "index": .int(index), "key": .int(index + 1), "img": .string(person.headshotURL),
                    // Described where the directory says what the face looks like: a player who does not see the
                    // faces learns people by these words (issue 46), as others do by sight.
                    "alt": .string(
                        looks(person, t).map { t.string("namegame.face.described", [.int(index + 1), .string($0)]) }
                            ?? t.string("namegame.face", [.int(index + 1)])),
                    // Its number alone, as a face gone in Hints mode is said (its description ran on too long).
                    "label": .string(t.string("namegame.face", [.int(index + 1)])),
                    "name": showName ? .string(unmet ? t.string("namegame.face.notMet") : person.fullName) : .null,
                    "unmet": .bool(showName && unmet),
                    "long": .bool(showName && !unmet && Self.isLong(person.fullName)),
                    "title": showTitle ? .string(role(person, t) ?? "") : .null,
                    "tapped": .bool(index == record.wrong.last && !answered),
                    "result": .string(result), "isAnswer": .bool(isAnswer),
                    "hidden": .bool(hidden.contains(index)),
                    "timedOut": .bool(reveal && !answered && index == round.answer),
                    "disabled": .bool(reveal || !result.isEmpty || hidden.contains(index) || (taught && !isAnswer)),
                ])
            })
    }

    /// A wrong name typed that is someone else's: who that is, face and name, as a wrong face picked shows who it is
    /// (a review typed "Anouk" for Mat Holloway and never saw which one Anouk was). Only a name that is one person's.
    func typedOther(_ typed: String, asked: Person, t: LanguageStrings) -> TemplateValue {
        // Not the asked person's own first name, refused only because two people share it.
        guard !NameMatch.spelledRight(typed, for: asked) else { return .null }
        let others = directory.people.filter { $0.id != asked.id && NameMatch.spelledRight(typed, for: $0) }
        guard others.count == 1, let other = others.first else { return .null }
        let named =
            role(other, t).map { t.string("namegame.person.role", [.string(other.fullName), .string($0)]) }
            ?? t.string("namegame.person", [.string(other.fullName)])
        return [
            "img": .string(other.headshotURL), "alt": .string(looks(other, t) ?? ""),
            "text": .string(t.string("namegame.recall.other", [.string(typed), .string(named)])),
        ]
    }
}
