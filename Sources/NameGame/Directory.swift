import JSON

/// One colleague, as the game needs them.
public struct Person: Sendable, Equatable, Hashable {
    public let id: String
    public let firstName: String
    public let lastName: String
    public let jobTitle: String?
    public let headshotURL: String
    /// Former staff: still played, but not in team mode.
    public let retired: Bool
    /// The face in words (the headshot's alternative text): how a player who does not see it learns this person.
    public let appearance: String?
    /// What the words name, read once (learn mode orders the whole directory by it on every round).
    let features: Features

    public init(
        id: String, firstName: String, lastName: String, jobTitle: String?, headshotURL: String, retired: Bool,
        appearance: String? = nil
    ) {
        self.id = id
        self.firstName = firstName
        self.lastName = lastName
        self.jobTitle = jobTitle
        self.headshotURL = headshotURL
        self.retired = retired
        self.appearance = appearance
        features = Features(appearance)
    }

    public var fullName: String { firstName + " " + lastName }
    public var isCurrentStaff: Bool { !retired }
}

extension Person {
    /// Whether two faces look alike at a glance: their hair shares a colour or a style, and what else they wear shares
    /// a thing or a colour (a headband, a pink top). Met one after the other, such look-alikes were mixed up (a review:
    /// Zane and Keiko, pink hair and a headband each, introduced and asked back to back). About one pair in ten of
    /// the bundled faces; faces without a description are not compared.
    public func looksLike(_ other: Person) -> Bool { Self.looksAlike(features, other.features) }

    /// `people` in the same order, but for a person who looks like the one before them: the first of the next few
    /// who does not takes their place.
    public static func lookAlikesApart(_ people: [Person], lookahead: Int = 8) -> [Person] {
        var rest = people
        var order: [Person] = []
        var last = Features(nil)
        order.reserveCapacity(people.count)
        while !rest.isEmpty {
            let unlike = rest.prefix(lookahead).firstIndex { !looksAlike(last, $0.features) } ?? 0
            let next = rest.remove(at: unlike)
            order.append(next)
            last = next.features
        }
        return order
    }

    /// The words of a description (the bundled ones name the hair first, before a comma), less those every
    /// description may have.
    struct Features: Sendable, Hashable {
        var hair: Set<Substring> = []
        var rest: Set<Substring> = []

        init(_ appearance: String?) {
            guard let text = appearance?.lowercased() else { return }
            let comma = text.firstIndex(of: ",") ?? text.endIndex
            hair = Self.words(text[..<comma])
            rest = Self.words(text[comma...])
        }

        static func words(_ text: Substring) -> Set<Substring> {
            Set(text.split { !$0.isLetter }).subtracting(["a", "an", "and", "the", "with", "in", "hair", "top"])
        }
    }

    static func looksAlike(_ one: Features, _ other: Features) -> Bool {
        !one.hair.isDisjoint(with: other.hair) && !one.rest.isDisjoint(with: other.rest)
    }
}

/// The people of a WillowTree-format profile list, with those that cannot
/// be played (no name, no usable headshot, a repeated id) left out and
/// counted.
public struct Directory: Sendable {
    public let people: [Person]
    /// The people on the team now: whom the learning modes teach and count (a review's first lesson taught four people
    /// "no longer on the team").
    public let team: [Person]
    /// Each left-out profile and why.
    public let skipped: [Skipped]
    private let index: [String: Int]

    /// A profile that cannot be played: its id (or `#index`) and the reason.
    public struct Skipped: Sendable, Equatable, CustomStringConvertible {
        public enum Reason: Sendable, Equatable {
            case noID, noName, noHeadshot, repeatedID
            /// The headshot's declared type, not an image one.
            case notAnImage(String)
        }
        public let label: String
        public let reason: Reason

        public var description: String {
            switch reason {
            case .noID: "\(label): no id"
            case .noName: "\(label): no name"
            case .noHeadshot: "\(label): no headshot"
            case .repeatedID: "\(label): repeated id"
            case .notAnImage(let type): "\(label): headshot is \(type), not an image"
            }
        }
    }

    public struct Error: Swift.Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Reads either shape: the current top-level array, or the 2017 object
    /// `{"items": [...], "meta": {...}}` whose headshot URLs start with `//`.
    public init(json: JSONValue) throws(Error) {
        let items: [JSONValue]
        if let array = json.array {
            items = array
        } else if let array = json["items"]?.array {
            items = array
        } else {
            throw Error(description: "expected an array of profiles or an object with \"items\"")
        }
        var people: [Person] = []
        var skipped: [Skipped] = []
        var seen = Set<String>()
        for (index, item) in items.enumerated() {
            let label = item["id"]?.string ?? "#\(index)"
            guard let id = item["id"]?.string, !id.isEmpty else {
                skipped.append(Skipped(label: label, reason: .noID))
                continue
            }
            let first = (item["firstName"]?.string ?? "").trimmingSpaces
            let last = (item["lastName"]?.string ?? "").trimmingSpaces
            guard !first.isEmpty || !last.isEmpty else {
                skipped.append(Skipped(label: label, reason: .noName))
                continue
            }
            guard let headshot = item["headshot"], var url = headshot["url"]?.string, !url.trimmingSpaces.isEmpty else {
                skipped.append(Skipped(label: label, reason: .noHeadshot))
                continue
            }
            if let mime = headshot["mimeType"]?.string, !mime.hasPrefix("image/") {
                skipped.append(Skipped(label: label, reason: .notAnImage(mime)))
                continue
            }
            if url.hasPrefix("//") { url = "https:" + url }  // the 2017 shape
            guard seen.insert(id).inserted else {
                skipped.append(Skipped(label: label, reason: .repeatedID))
                continue
            }
            let title = item["jobTitle"]?.string.flatMap { $0.trimmingSpaces.isEmpty ? nil : $0 }
            // A face's description: not WillowTree's "headshot", which describes nothing, and never one that names
            // the person ("Photo of Ann Ames"), which would give the answer away beside the question.
            let alt = (headshot["alt"]?.string ?? "").trimmingSpaces
            let names = [first, last].filter { !$0.isEmpty }.map { $0.lowercased() }
            let describes =
                !alt.isEmpty && alt.lowercased() != "headshot" && !names.contains { alt.lowercased().contains($0) }
            // WillowTree lists former staff without a job title.
            people.append(
                Person(
                    id: id, firstName: first, lastName: last, jobTitle: title, headshotURL: url,
                    retired: title == nil, appearance: describes ? alt : nil))
        }
        self.init(people: people, skipped: skipped)
    }

    public init(people: [Person], skipped: [Skipped] = []) {
        self.people = people
        team = people.filter(\.isCurrentStaff)
        self.skipped = skipped
        index = Dictionary(people.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Parses JSON bytes; malformed JSON names the file, line and column.
    public init(bytes: [UInt8], file: String) throws(Error) {
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch {
            throw Error(description: "\(file):\(error.line):\(error.column): \(error.message)")
        }
        do { try self.init(json: json) } catch { throw Error(description: "\(file): \(error.description)") }
    }

    public func person(_ id: String) -> Person? { index[id].map { people[$0] } }
}

extension String {
    public var trimmingSpaces: String {
        var s = self[...]
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
