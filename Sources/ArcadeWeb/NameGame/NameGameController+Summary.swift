import ArcadeStore
import Localization
import NameGame
import SpacedRepetition
import Templates

/// The end of a lesson (or a timed minute): whom it covered and how, accuracy, time, the day streak, what is due
/// next; in timed and practice mode, the score beside the personal best.
extension NameGameController {
    func summaryFields(
        _ mode: Mode, session: NameGameStore.Session, visitor: Visitor, cards: [String: Card], t: LanguageStrings,
        into context: inout TemplateFields
    ) throws {
        // Only Learn's runs are lessons (three reviews: "Lesson complete" after ten rounds of Normal).
        context["summaryTitle"] = .string(t.string(mode == .learn ? "namegame.lesson.done" : "namegame.summary"))
        // Whom the list is of, in the session's own word (a review's summary was headed "People in this lesson").
        context["peopleTitle"] = .string(
            t.string(
                mode == .review
                    ? "namegame.summary.people.review"
                    : mode == .learn ? "namegame.summary.people" : "namegame.summary.people.run"
            ))
        if mode == .timed || mode == .practice {
            try scoreFields(session, player: visitor.playerID, cards: cards, t: t, into: &context)
        }
        context["praise"] = try praise(mode, session: session, t: t)
        let covered = try store.covered(session: session.id)
        let people = coveredPeople(covered, cards: cards, t: t)
        // A timed session lasted its clock (a review: "Time 0:02" after a minute whose last answers were misses);
        // another, the time its rounds took (a review: "13:24" for a lesson left and finished on another device).
        let played =
            mode == .timed
            ? min(store.nowMilliseconds(), session.deadline(seconds: timedSeconds)) - session.startedMilliseconds
            : try store.playedMilliseconds(session: session.id, away: Self.awayAfter)
        let seconds = Int(max(0, played) / 1000)
        let days = try store.dayStreak(player: visitor.playerID)
        let (due, dueNow) = dueCounts(cards)
        let showDue = mode.lessonRounds(lessonLength) != nil || mode == .review
        let missed = try !store.misses(session: session.id, people: directory).isEmpty
        let dueText = summaryDue(
            (due, dueNow), offersMisses: showDue && dueNow == 0 && due > 0 && missed, listed: covered.map(\.person),
            cards: cards,
            t: t)
        context["summary"] = .object([
            "people": .list(people), "hasPeople": .bool(!people.isEmpty),
            "accuracy": .int(Int(((session.stats.accuracy ?? 0) * 100).rounded())),
            "seconds": .int(seconds),
            "time": .string("\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"),
            "days": .int(days),
            // Tomorrow's due people, as what is due, belong to lessons (below). A score's run does not count toward
            // the day's goal, so its end does not show it ("Answered today: 0 of 20" after a timed minute).
            "today": mode == .timed || mode == .practice
                ? .null
                : try todayFields(
                    visitor.playerID, isNew: false, streak: false, tomorrow: showDue, tomorrowDue: false,
                    justAnswered: session.stats.rounds, pace: try pace(visitor.playerID), cards: cards, t: t),
            "dueCount": .int(due), "dueNow": .int(dueNow),
            // What is due belongs to lessons; after a practice run or a timed minute it read as this run's score (a
            // review: "due today: 42" after two rounds of practice).
            "showDue": .bool(showDue),
            "due": .string(dueText),
        ])
        try nextStepFields(
            mode, dueNow: dueNow, missed: missed, player: visitor.playerID, cards: cards, t: t, into: &context)
    }

    /// A timed minute and a practice run end on a score, said first, beside the best (a review: a run of 13 ended on
    /// "Session over", its figure small and grey below); a run that named everyone met says so.
    private func scoreFields(
        _ session: NameGameStore.Session, player: String, cards: [String: Card], t: LanguageStrings,
        into context: inout TemplateFields
    ) throws {
        let over =
            session.mode == .timed
            ? "namegame.timed.over"
            : swept(session, cards: cards) ? "namegame.practice.swept" : "namegame.practice.over"
        context["overTitle"] = .string(t.string(over))
        context["best"] = try bestScore(session, player: player, t: t)
    }

    /// What is due, said under a summary. "Nothing is due right now" read as a contradiction above "Review the people
    /// I missed" (a review): beside that offer, only what comes back later. And the people due now are others than
    /// those listed as coming back later (a review read "Comes back later today" beside each, over "Due for review
    /// now: 3", as a contradiction).
    private func summaryDue(
        _ counts: (today: Int, now: Int), offersMisses: Bool, listed: [String], cards: [String: Card],
        t: LanguageStrings
    ) -> String {
        if offersMisses { return t.string("namegame.summary.later", [.int(counts.today)]) }
        let now = store.nowMilliseconds()
        let others = counts.now > 0 && !listed.isEmpty && !listed.contains { (cards[$0]?.due ?? .max) <= now }
        return others ? t.string("namegame.summary.due.others", [.int(counts.now)]) : dueLine(counts, t: t)
    }

    /// What the summary offers next: another run, or a lesson's own next step.
    private func nextStepFields(
        _ mode: Mode, dueNow: Int, missed: Bool, player: String, cards: [String: Card], t: LanguageStrings,
        into context: inout TemplateFields
    ) throws {
        // "You're done for now" over a big "Next lesson" was a mixed message (a review): with nobody due, the button
        // says what another lesson would do, meet someone new, or is a quiet "Keep practising" when today's new
        // people are met.
        if mode != .learn { context["continueText"] = .string(t.string("namegame.again")) }
        // People due now are offered where they are said to be due: a quiz's summary said "Due for review now: 1"
        // and offered only another round (a review). Learn reviews them. Not beside "Review the people I missed",
        // whose people are among them (a later review: two offers, 3 and 1, and no telling which to press).
        if mode != .learn && mode.lessonRounds(lessonLength) != nil && dueNow > 0 && !missed {
            context["reviewDue"] = .string(t.string("home.review", [.int(dueNow)]))
        }
        if mode == .learn && dueNow == 0 {
            let meets = try meetsNew(player)
            context["continueText"] = .string(t.string(meets ? "namegame.lesson.meet" : "namegame.lesson.practise"))
            context["continueQuiet"] = .bool(!meets)
            // Today's new people met, and more to meet: said beside the buttons, with a lesson that meets a few more
            // one tap away (a review: "Meet new people" was gone without a word; a later one: past today's ten, every
            // lesson was the same ten again, and only a faster pace for good moved on).
            if !meets && Mode.learn.pool(directory.people).contains(where: { cards[$0.id] == nil }) {
                context["capped"] = .object([
                    "text": .string(t.string("namegame.summary.capped")),
                    "more": .string(t.string("namegame.more", [.int(moreAtOnce)])),
                ])
            }
        }
        // Nothing due, a keen learner can still type the names of the people met, now (a review: after six people
        // and ten picks the only way on was more new people): Recall asks those met, typed.
        if mode == .learn && dueNow == 0 { context["typeNames"] = .string(t.string("namegame.lesson.typeNames")) }
    }

    /// How a lesson went, said first and large (a review: "a report, not a celebration"), by its share of right
    /// answers; nil after Practice and Timed, which have their own figure to beat, and after a short run.
    private func praise(_ mode: Mode, session: NameGameStore.Session, t: LanguageStrings) throws -> TemplateValue? {
        // A few rounds earn no stars (a review: "Perfect!" for a one-question review).
        guard mode.lessonRounds(lessonLength) != nil || mode == .review, session.stats.rounds >= 5,
            let accuracy = session.stats.accuracy
        else { return nil }
        // Perfect is without help (a review: two rounds helped by the "who" cheat, and still "Perfect!").
        let perfect = accuracy >= 1 ? try store.helpedRounds(session: session.id) == 0 : false
        // "Great work!" and confetti at 80 % were cheap (a review): great is nine in ten, and only perfect bursts.
        let kind = perfect ? "perfect" : accuracy >= 0.9 ? "great" : accuracy >= 0.5 ? "good" : "keep"
        // Praise leads, above the heading; advice ("keep at it") follows it (two native readers read it above as a
        // second headline that came before the result).
        return [
            "kind": .string(kind), "text": .string(t.string("namegame.summary.praise.\(kind)")),
            "leads": .bool(kind != "keep"),
        ]
    }

    /// A timed minute's score, or a practice run's, beside the personal best.
    private func bestScore(_ session: NameGameStore.Session, player: String, t: LanguageStrings) throws -> TemplateValue
    {
        let score = session.stats.correctTaps
        let previous = try store.bestScore(player: player, mode: session.mode, before: session.id)
        // A minute given more time is played, not compared: the best stays what it was; so is a run a cheat helped (a
        // review's "Who is it?" in Timed made "A new personal best!").
        let extended = session.extraMilliseconds > 0
        let helped = try !extended && store.helpedRounds(session: session.id) > 0
        let best = extended || helped ? previous ?? 0 : max(previous ?? 0, score)
        // A first minute sets the best without beating one (a review: a first run "A new personal best!").
        let record = !extended && !helped && (previous.map { score > $0 } ?? false)
        let text =
            extended
            ? t.string("namegame.timed.extended")
            : helped
                ? t.string("namegame.timed.helped")
                : record ? t.string("namegame.timed.record") : t.string("namegame.timed.best", [.int(best)])
        return .object(["score": .int(best), "record": .bool(record), "text": .string(text)])
    }

    /// Whom the session asked, each tagged with how it went: the misses first, then the slow answers (a review: the one
    /// miss was buried among nine "Remembered again" on a phone).
    private func coveredPeople(
        _ covered: [NameGameStore.Covered], cards: [String: Card], t: LanguageStrings
    ) -> [TemplateValue] {
        let now = store.nowMilliseconds()
        let first = covered.enumerated().sorted { a, b in
            let (x, y) = (
                a.element.missed ? a.element.wrong ? 0 : 1 : 2, b.element.missed ? b.element.wrong ? 0 : 1 : 2
            )
            return x != y ? x < y : a.offset < b.offset
        }
        return first.map(\.element).compactMap { item in
            guard let person = directory.person(item.person) else { return nil }
            // Learned only when remembered past the first day (issue 41). A name typed is said apart from a face picked
            // out (a review: a 50/50 coin flip and a typed name were both "Remembered again"), and each says when they
            // come back, as Anki shows its next interval (the same review: "only 'later'").
            guard let card = cards[item.person] else {
                return Self.coveredFields(person, tag: "notmet", next: nil, t: t, looks: looks(person, t))
            }
            let tag =
                item.missed
                ? (item.wrong ? (item.rightLast ? "recovered" : "again") : item.helped ? "helped" : "slow")
                : LearningPlan.knows(card) ? "learned" : item.named ? "named" : "picked"
            // Answered right and still due (a 50/50's coin toss moves no one) makes no claim: "Comes back now" beside
            // a right answer read as a contradiction (a review).
            let next = !item.missed && card.due <= now ? nil : Self.comesBack(card.due, now: now, t: t)
            return Self.coveredFields(person, tag: tag, next: next, t: t, looks: looks(person, t))
        }
    }

    private static func coveredFields(
        _ person: Person, tag: String, next: String?, t: LanguageStrings, looks: String?
    ) -> TemplateValue {
        [
            "img": .string(person.headshotURL), "alt": .string(looks ?? ""), "name": .string(person.fullName),
            "tag": .string(tag), "tagText": .string(t.string("namegame.summary.\(tag)")),
            "next": next.map(TemplateValue.string) ?? .null,
        ]
    }
}
