import SpacedRepetition
import Testing

@testable import NameGame

private func person(_ id: String, _ first: String, _ last: String) -> Person {
    Person(id: id, firstName: first, lastName: last, jobTitle: "Designer", headshotURL: "/h", retired: false)
}

@Suite("Typed names in recall rounds")
struct NameMatchTests {
    static let maren = person("m", "Maren", "Tanaka")
    static let everyone = [
        maren, person("u", "Ugo", "Yamamoto"), person("a", "Mat", "Abernathy"), person("b", "Matt", "Baptiste"),
        person("z", "Zoë", "Ørsted"), person("k", "Karen", "Okafor"),
    ]

    func accepts(_ typed: String, _ who: Person = maren) -> Bool {
        NameMatch.accepts(typed, for: who, among: Self.everyone)
    }

    @Test func theFirstNameInAnyCaseOrWithAccentsIsEnough() {
        #expect(accepts("maren"))
        #expect(accepts("MAREN"))
        #expect(accepts("  Marén "))
        #expect(accepts("Mare\u{0301}n"), "a combining accent, as some keyboards type it")
        #expect(accepts("Maren Tanaka"))
        #expect(accepts("maren tanaka"))
        #expect(accepts("Zoe", Self.everyone[4]))
        #expect(accepts("zoe orsted", Self.everyone[4]))
    }

    @Test func oneTypoIsForgivenInNamesOfThreeLettersOrMore() {
        #expect(accepts("Maran"), "a letter wrong")
        #expect(accepts("Mren"), "a letter missing")
        #expect(accepts("Marren"), "a letter extra")
        #expect(accepts("Mraen"), "two letters swapped")
        #expect(accepts("Maren Tanak"), "a typo in the last name of the full name")
        #expect(!accepts("Mran"), "two edits")
    }

    /// Three-letter names forgive a typo too (a review: "bee" for Bea and "Adda" for Ada were plain wrong), unless
    /// what was typed is someone else's first name.
    @Test func aThreeLetterNameForgivesATypoThatIsNoOneElsesName() {
        let ugo = Self.everyone[1]
        #expect(accepts("Ugi", ugo) && accepts("Uggo", ugo) && accepts("Gugo", ugo) && accepts("Ugo", ugo))
        #expect(!accepts("U", ugo) && !accepts("Xyo", ugo), "two edits")
        #expect(!accepts("Matt", Self.everyone[2]), "Matt is someone else: not a typo for Mat")
        // Someone else, once met: a Matt never met leaves "Matt" a typo for Mat.
        #expect(NameMatch.accepts("Matt", for: Self.everyone[2], among: Self.everyone, known: { $0 != "b" }))
    }

    /// Two people of the team with one first name: "Hiro" names neither, so the full name is asked for, met or not
    /// (a review: "Sami" could not show which of two Samis the player knew), a typo in it forgiven (a review's recall
    /// asked one of two Hiros by first name).
    @Test func aSharedFirstNameAsksForTheFullName() {
        let grimaldi = person("g", "Hiro", "Grimaldi")
        let team = Self.everyone + [grimaldi, person("l", "Hiró", "Lindqvist")]
        #expect(NameMatch.asksFullName(grimaldi, among: team), "another Hiro on the team")
        #expect(!NameMatch.asksFullName(grimaldi, among: Self.everyone + [grimaldi]), "the only Hiro")
        #expect(!NameMatch.asksFullName(Self.maren, among: team), "no other Maren")
        for typed in ["Hiro Grimaldi", "hiro grimaldi", "Hiro Grimaldo"] {
            #expect(NameMatch.accepts(typed, for: grimaldi, among: team, fullName: true), "\(typed)")
        }
        for typed in ["Hiro", "hiro", "Hiro Lindqvist", "Grimaldi"] {
            #expect(!NameMatch.accepts(typed, for: grimaldi, among: team, fullName: true), "\(typed)")
        }
        #expect(NameMatch.accepts("hiro", for: grimaldi, among: team), "one Hiro known: the first name is enough")
    }

    /// A typo forgiven is one the player is shown the spelling of; case, accents, the full name and a first name
    /// spelled right before a misspelled last name are not.
    @Test func aForgivenTypoIsToldApartFromTheSpelling() {
        for typed in ["maren", "  Marén ", "Maren Tanaka", "maren tanaka", "Maren Tanak"] {
            #expect(NameMatch.spelledRight(typed, for: Self.maren), "\(typed)")
        }
        for typed in ["Maran", "Mraen", "Mraen Tanaka"] {
            #expect(accepts(typed) && !NameMatch.spelledRight(typed, for: Self.maren), "\(typed)")
        }
    }

    @Test func anotherNameIsRefused() {
        #expect(!accepts("Ugo"))
        #expect(!accepts("Karen"), "one letter from Maren, but exactly someone else's name")
        #expect(!accepts("Mat", Self.everyone[3]), "Mat is not Matt")
        #expect(!accepts("Matt", Self.everyone[2]), "nor Matt Mat")
        #expect(!accepts(""))
        #expect(!accepts("   "))
        #expect(!accepts("Tanaka"), "the last name alone is not the name asked for")
    }

    @Test func foldingAndDistance() {
        #expect(NameMatch.fold("  Ørsted-Łukasz  O’Brien ") == "orsted lukasz o brien")
        #expect(NameMatch.fold("STRAßE") == "strasse")
        #expect(NameMatch.distance(Array("maren"), Array("mraen")) == 1)
        #expect(NameMatch.distance(Array("maren"), Array("karen")) == 1)
        #expect(NameMatch.distance(Array(""), Array("abc")) == 3)
    }
}

@Suite("New people come in batches that cannot be mixed up")
struct BatchTests {
    static let people = [
        person("1", "Mat", "Abernathy"), person("2", "Matt", "Baptiste"), person("3", "Matthew", "Calloway"),
        person("4", "Mathilda", "Delacroix"), person("5", "Ada", "Everly"), person("6", "Adam", "Fenwick"),
        person("7", "Bruno", "Galloway"), person("8", "Ádám", "Holloway"), person("9", "Celia", "Ibarra"),
    ]

    @Test func aBatchAvoidsSharedFirstNamesAndFirstThreeLetters() {
        let plan = LearningPlan()
        var cards: [String: Card] = [:]
        var met: [String] = []
        // Four people met one after another (each introduced, still learning): the batch a new learner gets.
        for _ in 0..<4 {
            let next = try! #require(plan.next(people: Self.people, cards: cards, now: 0))
            met.append(next.firstName)
            cards[next.id] = Card(
                state: .learning, step: 0, stability: nil, difficulty: nil, due: 10_000_000_000, lastReview: 0)
        }
        #expect(met == ["Mat", "Ada", "Bruno", "Celia"])
        for (i, a) in met.enumerated() {
            for b in met[(i + 1)...] {
                #expect(NameMatch.fold(a).prefix(3) != NameMatch.fold(b).prefix(3), "\(a), \(b)")
            }
        }
    }

    /// The person just introduced is not asked next, but still counts as being learned: Mat is not followed by Matt
    /// (a review met Mat, then Matt).
    @Test func theNextNewFaceIsNotLikeTheOneJustMet() {
        let plan = LearningPlan()
        let cards = ["1": Card(state: .learning, step: 0, stability: nil, difficulty: nil, due: 0, lastReview: 0)]
        let next = try! #require(plan.next(people: Self.people, cards: cards, now: 0, avoid: "1"))
        #expect(next.firstName == "Ada", "\(next.firstName)")
    }

    /// A review's second lesson met nobody new: four people answered right once, waiting for their next step, no
    /// longer hold the next one back.
    @Test func peopleAnsweredRightOnceMakeRoomForSomeoneNew() {
        let plan = LearningPlan()
        var cards: [String: Card] = [:]
        for id in ["1", "5", "7", "9"] {
            cards[id] = Card(state: .learning, step: 1, stability: 2, difficulty: 5, due: 10_000_000_000, lastReview: 0)
        }
        let next = plan.next(people: Self.people, cards: cards, now: 0)
        #expect(next.map { cards[$0.id] == nil } == true, "someone new, not \(next?.firstName ?? "nobody")")
        cards["1"]?.step = 0
        cards["5"]?.step = 0
        cards["7"]?.step = 0
        cards["9"]?.step = 0
        #expect(
            plan.next(people: Self.people, cards: cards, now: 0).map { cards[$0.id] != nil } == true, "a full batch")
    }

    @Test func similarNames() {
        #expect(LearningPlan.similar(Self.people[0], Self.people[1]))
        #expect(LearningPlan.similar(Self.people[5], Self.people[7]), "Adam and Ádám: accents folded")
        #expect(!LearningPlan.similar(Self.people[4], Self.people[6]))
        // The first letter is a typed question's hint: Finn and Flynn in one batch shared it (a review).
        #expect(LearningPlan.similar(person("10", "Finn", "Huang"), person("11", "Flynn", "Benedetti")))
    }

    /// A review met Maren Thornbury, then Maren Tanaka, the same day: the first had left her learning steps, so the
    /// batch rule no longer kept them apart. Someone met and not yet learned keeps their near namesakes waiting.
    @Test func aNearNamesakeOfSomeoneNotYetLearnedWaits() {
        let plan = LearningPlan()
        let people = [person("1", "Maren", "Thornbury"), person("2", "Maren", "Tanaka"), person("3", "Zora", "Quist")]
        let fsrs = FSRS()
        // Met an hour ago, answered right twice: out of her learning steps, not learned.
        let thornbury = fsrs.review(fsrs.review(Card(due: 0), .good, at: 0), .good, at: 600_000)
        #expect(thornbury.state == .review && !LearningPlan.knows(thornbury))
        let cards = ["1": thornbury]
        #expect(plan.next(people: people, cards: cards, now: 3_600_000)?.firstName == "Zora")
        // With nobody else left, she comes after all.
        #expect(plan.next(people: Array(people.prefix(2)), cards: cards, now: 3_600_000)?.lastName == "Tanaka")
    }

    @Test func whenEveryoneLeftClashesTheFirstNotMetStillComes() {
        let plan = LearningPlan()
        let mats = Array(Self.people.prefix(2))
        let cards = [
            "1": Card(state: .learning, step: 0, stability: nil, difficulty: nil, due: 10_000_000_000, lastReview: 0)
        ]
        #expect(plan.next(people: mats, cards: cards, now: 0)?.firstName == "Matt")
    }

    @Test func learnedMeansRememberedPastTheFirstDay() {
        #expect(!LearningPlan.knows(nil))
        #expect(
            !LearningPlan.knows(Card(state: .learning, step: 1, stability: 9, difficulty: 5, due: 0, lastReview: 0)))
        #expect(
            !LearningPlan.knows(Card(state: .review, step: nil, stability: 3, difficulty: 5, due: 0, lastReview: 0)))
        #expect(LearningPlan.knows(Card(state: .review, step: nil, stability: 7, difficulty: 5, due: 0, lastReview: 0)))
    }

    @Test func recallFollowsTheFirstRightAnswer() {
        #expect(!LearningPlan.learned(nil))
        #expect(
            !LearningPlan.learned(
                Card(state: .learning, step: 0, stability: nil, difficulty: nil, due: 0, lastReview: 0)))
        #expect(
            LearningPlan.learned(Card(state: .learning, step: 1, stability: 1, difficulty: 5, due: 0, lastReview: 0)))
        // Out of its first day's steps, a young memory is picked again before it is typed (a review's second day).
        #expect(
            !LearningPlan.learned(Card(state: .review, step: nil, stability: 3, difficulty: 5, due: 0, lastReview: 0)))
        #expect(
            LearningPlan.learned(Card(state: .review, step: nil, stability: 6, difficulty: 5, due: 0, lastReview: 0)))
    }
}
