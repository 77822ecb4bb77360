/// The ways to play.
public enum Mode: String, Sendable, CaseIterable {
    /// Six faces: "Who is First Last?"
    case normal
    /// Only people whose first names look alike (`similarNames`): Mat, Matt, Matthew, Mathilda.
    case matt
    /// One face and six names.
    case reverse
    /// One face: type the name (recall, not recognition).
    case recall
    /// Only current staff; the title shows after the answer.
    case team
    /// A wrong face disappears every few seconds.
    case hint
    /// Two faces: a 50/50 guess.
    case fifty
    /// The game ends at the first wrong answer.
    case practice
    /// As many as you can in a minute.
    case timed
    /// Spaced repetition: whom to ask is the scheduler's choice.
    case learn
    /// Exactly the people missed in a session, once each (started from that session, not from the menu).
    case review

    /// The modes a player picks from.
    public static var menu: [Mode] { allCases.filter { $0 != .review } }

    /// Whether the answer is chosen for the player (by the scheduler or a review list) rather than at random.
    public var isScheduled: Bool { self == .learn || self == .review }

    /// Whether a round about someone the player has not met starts by introducing them (face, name, role), then asks:
    /// every mode but Timed, whose clock cannot stop for it (a review: the quizzes opened on strangers, and a guess
    /// among strangers teaches nothing).
    public var introducesNewFaces: Bool { self != .timed }

    /// Faces (or names) per round: recall shows one face and no choices.
    public var choices: Int {
        switch self {
        case .fifty: 2
        case .recall: 1
        default: 6
        }
    }

    /// Rounds in a lesson (nil: the mode ends otherwise — on time, at a mistake, or when its list is done).
    public func lessonRounds(_ length: Int) -> Int? {
        switch self {
        case .timed, .practice, .review: nil
        default: length
        }
    }

    /// People whose first names look alike: someone else's begins with the same three letters, case and accents
    /// aside (Mat, Matt, Matthew; two people called Hugo). It was the names starting "Mat": one fixed group, which a
    /// team without a Mat did not have at all (a review).
    public static func similarNames(_ people: [Person]) -> [Person] {
        var counts: [String: Int] = [:]
        for person in people { counts[nameGroup(person), default: 0] += 1 }
        return people.filter { counts[nameGroup($0), default: 0] > 1 }
    }

    /// How much two folded first names look alike, for ordering: a shared start counts most (the same group, three
    /// letters, outranks anything else), then a shared ending, a near length, and letter pairs in common.
    public static func likeness(_ a: String, _ b: String) -> Int {
        let x = Array(a)
        let y = Array(b)
        let start = zip(x, y).prefix { $0 == $1 }.count
        let end = zip(x.reversed(), y.reversed()).prefix { $0 == $1 }.count
        let pairs = { (letters: [Character]) in Set(zip(letters, letters.dropFirst()).map { String([$0, $1]) }) }
        let shared = pairs(x).intersection(pairs(y)).count
        return (start >= 3 ? 100 : 0) + start * 8 + min(end, 3) * 4 + (abs(x.count - y.count) <= 1 ? 2 : 0) + shared
    }

    /// The group a first name looks alike with: its first three letters, folded.
    public static func nameGroup(_ person: Person) -> String {
        String(NameMatch.fold(person.firstName).prefix(3))
    }

    /// Whom this mode plays with: the team as it is now, in every mode. The classic quizzes kept former staff, as
    /// WillowTree's did, and reviews met and drilled a colleague who had left, as a face to pick and a name to learn
    /// ("exactly the memory the app exists to build, wasted").
    public func pool(_ people: [Person]) -> [Person] {
        let team = people.filter(\.isCurrentStaff)
        return self == .matt ? Self.similarNames(team) : team
    }
}
