import ArcadeStore
import Crypto
import NameGame
import SpacedRepetition

/// Dealing a round: whom each mode asks next, and with which faces or names.
extension NameGameController {
    /// The directory in an order of the player's own, the order learn mode meets new people in (a review: every
    /// player met the same two first, Mat and then Matt), with look-alikes apart. Stable for a player: an FNV-1a
    /// hash of their id and each person's. Those whose job title is `focus` come first (a review: no way to start
    /// with one's own part of the team).
    static func meetingOrder(_ people: [Person], player: String, focus: String? = nil) -> [Person] {
        func rank(_ id: String) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in (player + "/" + id).utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return hash
        }
        let order = Person.lookAlikesApart(people.map { (rank($0.id), $0) }.sorted { $0.0 < $1.0 }.map(\.1))
        guard let focus else { return order }
        return order.filter { $0.jobTitle == focus } + order.filter { $0.jobTitle != focus }
    }

    /// Deals the mode's next round into the session (nil: nobody to ask; a review's list is done, and its session
    /// ends). `avoid`: whom learn mode should not ask now (by default the person the session asked last).
    func newRound(
        _ mode: Mode, session: NameGameStore.Session, _ visitor: Visitor, avoid: String? = nil
    ) throws -> NameGameStore.RoundRecord? {
        var random = SecureRandom()
        let last = try avoid ?? store.latestRound(session: session.id, people: directory)?.round.answerPerson.id
        let cards = try store.cards(player: visitor.playerID)
        var next: [Person] = []
        let round: Round?
        switch mode {
        case .learn: round = try learnRound(session, visitor, cards: cards, avoid: last, &random)
        case .recall:
            let recent = try store.recentlyAsked(session: session.id, limit: Self.restAhead)
            round = recallRound(cards: cards, avoid: last, recent: recent, &random)
        case .review:
            round = try reviewRound(session, visitor, cards: cards, &random)
            if round == nil { try store.endSession(session.id) }
        default:
            // After an introduction, neither the person met nor the one asked before it (a test saw Similar names ask
            // one person, introduce another, then ask the first again).
            // A practice run asks each person once, to its finish line (`swept`).
            let before =
                mode == .practice
                ? try store.recentlyAsked(session: session.id, limit: session.stats.rounds + 1)
                : avoid == nil ? [] : try store.recentlyAsked(session: session.id, limit: 2)
            let avoiding = Set([last].compactMap { $0 } + before)
            // The day's new people met (the pace the player chose), a quiz asks those it has met (a review: Similar
            // names introduced three of the most confusable names past a limit of ten).
            let dayFull = try !cards.isEmpty && !meetsNew(visitor.playerID)
            (round, next) = quizRound(
                mode, session, cards: cards, avoid: avoiding, afterIntroduction: avoid != nil,
                dayFull: dayFull, &random)
        }
        guard let round else { return nil }
        return try store.addRound(round, next: next, session: session.id, player: visitor.player)
    }

    /// Learn: the scheduler's choice, someone new among them while the day and the lesson have room. People answered
    /// right since they were met type the name: recall after recognition.
    private func learnRound(
        _ session: NameGameStore.Session, _ visitor: Visitor, cards: [String: Card], avoid: String?,
        _ random: inout SecureRandom
    ) throws -> Round? {
        // Nobody new near a lesson's end: someone met in its last rounds was never asked about (a review).
        let roomToLearn = lessonLength - session.stats.rounds >= 3
        let pace = try pace(visitor.playerID)
        var plan = store.plan
        plan.batch = pace.batch
        // A lesson meets two new people at least, while the day has room, however many are being learned from other
        // modes (a review: after five first meetings in Normal, a whole lesson drilled them and met one).
        let metHere = try store.met(player: visitor.playerID, since: session.startedMilliseconds)
        if metHere < 2 { plan.batch = .max }
        // Past the lesson's length, whom it missed, asked again, then whom it met and only picked, asked to type the
        // name (`lessonTotal`).
        let left =
            session.stats.rounds >= lessonLength
            ? try store.unfinished(session: session.id, after: lessonLength) : (missed: [], unnamed: [])
        let again =
            (left.missed.first { $0 != avoid } ?? left.missed.first ?? left.unnamed.first { $0 != avoid }
            ?? left.unnamed.first).flatMap(directory.person)
        // People due for review later today, none yet: a lesson's first rounds review them a little early (a review
        // followed the home page's "8 people to review today" and met someone new first). Not those in learning
        // steps, whose minutes apart are the lesson's spacing.
        let now = store.nowMilliseconds()
        let endOfDay = (now / FSRS.day + 1) * FSRS.day
        let early =
            session.stats.rounds < 3 && !cards.values.contains { $0.state == .review && $0.due <= now }
            && cards.values.contains { $0.state == .review && $0.due < endOfDay }
        guard
            let person = try again
                ?? plan.next(
                    people: Self.meetingOrder(
                        directory.team, player: visitor.playerID, focus: try store.focus(player: visitor.playerID)),
                    cards: cards,
                    now: early ? endOfDay : now, avoid: avoid,
                    recent: try store.recentlyAsked(session: session.id, limit: Self.restAhead),
                    meetNew: try !early && roomToLearn
                        && (metHere < session.meetMore || meetsNew(visitor.playerID, pace: pace)))
        else { return nil }
        // The other faces: people met, those still being learned first (their names as fresh as this one's), and
        // strangers, about half each (`Round.make`). Among strangers only, the one familiar face was the answer
        // (three reviews); among the people met only, the one not yet named was (a later one: "the same six faces
        // each time", answered without remembering anything but "that face is new").
        let met = Self.met(person, cards: cards)
        // A name missed typed is asked again typed, its first letter given, whenever it comes back (two reviews: a
        // wrong typed name came back as a face to pick, the practice softest where it had failed). Typed too, with its
        // first letter, while too few are met for a real pick (`learnPicksFromMet`).
        // (Asked of the store only when the card does not already say typed.)
        let typed =
            try met < Self.learnPicksFromMet || LearningPlan.learned(cards[person.id])
            || left.unnamed.contains(person.id)
            || store.lastAskedTyped(player: visitor.playerID, person: person.id)
        return typed
            ? Round.recall(.learn, asking: person)
            : Round.make(
                .learn, asking: person, from: directory.people, first: Set(cards.keys),
                fresh: Set(cards.filter { $0.value.state != .review }.keys), using: &random)
    }

    /// Recall: names typed for people met (the scheduler's choice among them). Someone new, introduced first, is then
    /// recognised among six names: a new player was asked to type names never shown (a review). Anyone met is typed,
    /// as the mode promises (a later review: a six-name pick for someone met but not yet named was jarring mid-mode).
    private func recallRound(
        cards: [String: Card], avoid: String?, recent: [String], _ random: inout SecureRandom
    ) -> Round? {
        let everyone = directory.team
        // Among the people met once there are a few: with two, a newcomer's whole session asked them in turn (a
        // review: Mat, Maren, Mat, Maren…); until then someone new may come, introduced first.
        let met = everyone.filter { cards[$0.id] != nil }
        let pool = met.count >= Self.quizFromMet ? met : everyone
        // A miss rests for the last few rounds too, as anyone asked does: two people missed were asked in turn for
        // most of a session, and half the people met never came up (a review: 8 of 10 rounds).
        let rested = pool.filter { !recent.contains($0.id) }
        guard
            let person = store.plan.next(
                people: rested.isEmpty ? pool : rested, cards: cards, now: store.nowMilliseconds(), avoid: avoid,
                recent: recent)
                ?? pool.randomElement(using: &random)
        else { return nil }
        if cards[person.id] != nil { return Round.recall(.recall, asking: person) }
        let shown = Round.make(.normal, asking: person, from: everyone, first: Set(cards.keys), using: &random)
        return Round(
            mode: .recall, people: shown.people, answer: shown.answer, hideOrder: shown.hideOrder, recall: false)
    }

    /// Review my misses: one round per missed person (anyone since deleted is passed over), their face to name:
    /// typed when the name was typed where it was missed (a review: a typed miss came back as six names), else picked
    /// among six names. Nil once the list is done.
    private func reviewRound(
        _ session: NameGameStore.Session, _ visitor: Visitor, cards: [String: Card], _ random: inout SecureRandom
    ) throws -> Round? {
        while let id = try store.popQueue(session: session.id) {
            guard let person = directory.person(id) else { continue }
            return try store.lastAskedTyped(player: visitor.playerID, person: person.id)
                ? Round.recall(.review, asking: person)
                : Round.make(.review, asking: person, from: directory.people, first: Set(cards.keys), using: &random)
        }
        return nil
    }

    /// A quiz's round, and the faces of the one after (for the browser to fetch ahead). It asks about people met,
    /// once there are `quizFromMet` of them in its pool (a review: eight modes quizzed strangers, and a guess among
    /// strangers teaches nothing), at random but none of the last few asked (a later one: asked soonest due first, a
    /// miss came back every other round, 8 of 16 in a timed minute), the few at most half of those met (a third: with
    /// five met and four left out, the rounds went round in one order). The other faces are people met and strangers,
    /// about half each (`Round.make`: among strangers, the one familiar face or name was the answer; among those met
    /// only, elimination was). Never the person asked last,
    /// when anyone else would do (a review: Similar names asked Mat twice in a row). Until then, a round after an
    /// introduction asks about someone met before it, if anyone: two new people at most in a row (a review: Normal met
    /// five before its first question; Duolingo brings one or two new items at a time); and once the day's new people
    /// are met (`dayFull`), anyone met, even the one asked last.
    private func quizRound(
        _ mode: Mode, _ session: NameGameStore.Session, cards: [String: Card], avoid last: Set<String>,
        afterIntroduction: Bool, dayFull: Bool, _ random: inout SecureRandom
    ) -> (Round?, next: [Person]) {
        let everyone = directory.people
        let pool = mode.pool(everyone)
        let met = pool.filter { cards[$0.id] != nil }
        let metBefore = afterIntroduction && met.contains { !last.contains($0.id) }
        let asksMet = Self.asksMet(mode, met: met.count) || metBefore || (dayFull && !met.isEmpty)
        let recent = (try? store.recentlyAsked(session: session.id, limit: min(3, max(0, met.count / 2 - 1)))) ?? []
        let known = Set(cards.keys)
        let strangers = pool.filter { cards[$0.id] == nil }
        func deal(avoid: Set<String>) -> Round? {
            let fresh = met.filter { !avoid.contains($0.id) && !recent.contains($0.id) }
            let person =
                asksMet
                ? (fresh.isEmpty ? met : fresh).randomElement(using: &random)
                : strangers.filter { !avoid.contains($0.id) }.randomElement(using: &random)
            return person.map { Round.make(mode, asking: $0, from: everyone, first: known, using: &random) }
                ?? Round.make(mode, from: everyone, using: &random)
        }
        // The faces fetched ahead last time (`nextPeople`) become this round, asking one of those met when the quiz
        // asks them; else a new deal. Either way, not the person asked last.
        let hinted = session.nextPeople.compactMap { directory.person($0) }
        // (Resting the few asked just before, as a fresh deal does: one of eight came back five times in eleven.)
        var candidates = Self.askable(hinted, cards: cards, metOnly: asksMet, last: last.union(recent))
        var round: Round
        // (Faces fetched ahead whose only person to ask is the one asked last are dealt again: a test's Similar names
        // asked one person twice in a row.)
        if !metBefore && hinted.count == session.nextPeople.count && !hinted.isEmpty
            && Set(hinted).isSubset(of: Set(pool))
            && candidates.contains(where: { !last.contains(hinted[$0].id) })
        {
            // Similar names asks for someone whose look-alikes are among the faces (a review was asked for Yara among
            // two Orins and two Olgas): the faces were dealt around one person's group.
            if mode == .matt {
                let groups = hinted.map(Mode.nameGroup)
                let alike = candidates.map { index in groups.count { $0 == groups[index] } }
                let most = alike.max() ?? 0
                candidates = zip(candidates, alike).filter { $0.1 == most }.map(\.0)
            }
            round = Round.asking(
                mode, people: hinted, answer: candidates.randomElement(using: &random)!, using: &random)
        } else {
            guard let dealt = deal(avoid: last) else { return (nil, []) }
            round = dealt
            let others = Self.askable(dealt.people, cards: cards, metOnly: asksMet, last: last)
                .filter { !last.contains(dealt.people[$0].id) }
            if last.contains(dealt.answerPerson.id), let other = others.randomElement(using: &random) {
                round = Round.asking(mode, people: dealt.people, answer: other, using: &random)
            }
        }
        return (round, deal(avoid: [round.answerPerson.id])?.people ?? [])
    }

    /// Which of these faces a quiz may ask about: only those met where `metOnly` and there are any; not the person
    /// asked last where anyone else will do.
    static func askable(_ people: [Person], cards: [String: Card], metOnly: Bool, last: Set<String>) -> [Int] {
        var candidates = Array(people.indices)
        if metOnly, people.contains(where: { cards[$0.id] != nil }) {
            candidates.removeAll { cards[people[$0].id] == nil }
        }
        let others = candidates.filter { !last.contains(people[$0].id) }
        return others.isEmpty ? candidates : others
    }
}
