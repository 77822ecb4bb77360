import SpacedRepetition
import Testing

/// FSRS-5 against the worked examples of py-fsrs (open-spaced-repetition's reference scheduler): its default weights,
/// learning steps of 1 and 10 minutes, relearning 10 minutes, no fuzz; each review when the card falls due.
@Suite struct FSRSTests {
    /// 2022-11-29 12:30 UTC, where the examples start.
    static let start: Int64 = 1_669_725_000_000

    @Test func intervalsAndStatesFollowTheWorkedExample() {
        let fsrs = FSRS()
        var card = Card(due: Self.start)
        var cards: [Card] = []
        let ratings: [Rating] = [
            .good, .good, .good, .good, .good, .good, .again, .again, .good, .good, .good, .good, .good,
        ]
        for rating in ratings {
            card = fsrs.review(card, rating, at: card.due)
            cards.append(card)
        }
        #expect(
            cards.map { Int(($0.due - $0.lastReview!) / FSRS.day) } == [
                0, 4, 14, 44, 125, 328, 0, 0, 7, 16, 34, 71, 142,
            ])
        #expect(
            cards.map(\.state) == [
                .learning, .review, .review, .review, .review, .review, .relearning, .relearning,
                .review, .review, .review, .review, .review,
            ])
    }

    @Test func memoryStateAfterSpacedReviews() {
        // Again, then Good five times, 0, 0, 1, 3, 8 and 21 days apart; then Good once more.
        let fsrs = FSRS()
        var card = Card(due: Self.start)
        var now = Self.start
        for (rating, days) in zip([Rating.again, .good, .good, .good, .good, .good], [Int64(0), 0, 1, 3, 8, 21]) {
            card = fsrs.review(card, rating, at: now)
            now += days * FSRS.day
        }
        card = fsrs.review(card, .good, at: now)
        #expect(card.stability!.rounded() == 49)
        #expect((card.difficulty! * 10_000).rounded() / 10_000 == 7.0866)
    }

    @Test func repeatedEasyReviewsReachTheLowestDifficulty() {
        let fsrs = FSRS()
        var card = Card(due: Self.start)
        for i in 0..<10 { card = fsrs.review(card, .easy, at: Self.start + Int64(i)) }
        #expect(card.difficulty == 1)
    }

    @Test func learningSteps() {
        let fsrs = FSRS()
        let new = Card(due: Self.start)
        let again = fsrs.review(new, .again, at: Self.start)
        #expect(again.state == .learning && again.step == 0 && again.due == Self.start + FSRS.minute)
        let hard = fsrs.review(new, .hard, at: Self.start)
        #expect(hard.state == .learning && hard.step == 0 && hard.due == Self.start + 330_000)  // between 1 and 10 min
        let good = fsrs.review(new, .good, at: Self.start)
        #expect(good.state == .learning && good.step == 1 && good.due == Self.start + 10 * FSRS.minute)
        let easy = fsrs.review(new, .easy, at: Self.start)
        #expect(easy.state == .review && easy.step == nil && easy.due >= Self.start + FSRS.day)
        let graduated = fsrs.review(good, .good, at: good.due)
        #expect(graduated.state == .review && graduated.due - good.due >= FSRS.day)
        // A lapse in review: ten minutes of relearning.
        let lapse = fsrs.review(graduated, .again, at: graduated.due)
        #expect(lapse.state == .relearning && lapse.step == 0 && lapse.due == graduated.due + 10 * FSRS.minute)
    }

    /// Four learning steps passed in one sitting grow stability four times by the short-term formula: a name met that
    /// day came back in nine days (a review). With `firstDayStability`, a card made that day leaves its steps with at
    /// most that; a card made the day before is not held back.
    @Test func aFirstDaysStepsGraduateNoFurtherThanTheCap() {
        var fsrs = FSRS(learningSteps: [40_000, FSRS.minute, 3 * FSRS.minute, 10 * FSRS.minute])
        func graduate(_ fsrs: FSRS, created: Int64) -> Card {
            var card = Card(due: Self.start)
            card.created = created
            while card.state != .review { card = fsrs.review(card, .good, at: max(card.due, Self.start)) }
            return card
        }
        let free = graduate(fsrs, created: Self.start)
        #expect((free.due - free.lastReview!) / FSRS.day == 9, "FSRS as published: nine days")
        fsrs.firstDayStability = fsrs.w[2]
        let capped = graduate(fsrs, created: Self.start)
        #expect(capped.stability == fsrs.w[2])
        #expect((capped.due - capped.lastReview!) / FSRS.day == 3)
        let older = graduate(fsrs, created: Self.start - 2 * FSRS.day)
        #expect((older.due - older.lastReview!) / FSRS.day == 9, "met two days before: no cap")
    }

    @Test func difficultyNeverPassesTen() {
        let fsrs = FSRS()
        var card = Card(due: Self.start)
        for i in 0..<40 { card = fsrs.review(card, .again, at: Self.start + Int64(i) * FSRS.day) }
        #expect(card.difficulty! <= 10 && card.difficulty! > 9)
    }

    @Test func retrievabilityFallsWithTime() {
        let fsrs = FSRS()
        let card = fsrs.review(
            fsrs.review(Card(due: Self.start), .good, at: Self.start), .good, at: Self.start + 600_000)
        let soon = fsrs.retrievability(card, at: card.lastReview!)
        let later = fsrs.retrievability(card, at: card.due)
        let much = fsrs.retrievability(card, at: card.due + 100 * FSRS.day)
        #expect(soon == 1)
        #expect(abs(later - 0.9) < 0.02)  // due when recall is expected to fall to 90%
        #expect(much < later)
        #expect(fsrs.retrievability(Card(due: Self.start), at: Self.start) == 0)
    }
}
