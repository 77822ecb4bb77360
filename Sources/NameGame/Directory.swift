import JSON

/// One colleague, as the game needs them.
public struct Person: Sendable, Equatable, Hashable {
    public let id: String
    public let firstName: String
    public let lastName: String
    /// Nil for former staff.
    public let jobTitle: String?
    public let headshotURL: String

    public var fullName: String { firstName + " " + lastName }
    public var isCurrentStaff: Bool { jobTitle != nil }
}

/// The people of a WillowTree-format profile list, with those that cannot
/// be played (no name, no usable headshot, a repeated id) left out and
/// counted.
public struct Directory: Sendable {
    public let people: [Person]
    /// Why each left-out profile was left out, for the log.
    public let skipped: [String]

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
        var people: [Person] = [], skipped: [String] = [], seen = Set<String>()
        for (index, item) in items.enumerated() {
            let label = item["id"]?.string ?? "#\(index)"
            guard let id = item["id"]?.string, !id.isEmpty else { skipped.append("\(label): no id"); continue }
            let first = (item["firstName"]?.string ?? "").trimmingSpaces, last = (item["lastName"]?.string ?? "").trimmingSpaces
            guard !first.isEmpty || !last.isEmpty else { skipped.append("\(label): no name"); continue }
            guard let headshot = item["headshot"], var url = headshot["url"]?.string, !url.trimmingSpaces.isEmpty else {
                skipped.append("\(label): no headshot"); continue
            }
            if let mime = headshot["mimeType"]?.string, !mime.hasPrefix("image/") {
                skipped.append("\(label): headshot is \(mime), not an image"); continue
            }
            if url.hasPrefix("//") { url = "https:" + url }  // the 2017 shape
            guard seen.insert(id).inserted else { skipped.append("\(label): repeated id"); continue }
            let title = item["jobTitle"]?.string.flatMap { $0.trimmingSpaces.isEmpty ? nil : $0 }
            people.append(Person(id: id, firstName: first, lastName: last, jobTitle: title, headshotURL: url))
        }
        self.people = people
        self.skipped = skipped
    }

    /// Parses JSON bytes; malformed JSON names the file, line and column.
    public init(bytes: [UInt8], file: String) throws(Error) {
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch { throw Error(description: "\(file):\(error.line):\(error.column): \(error.message)") }
        do { try self.init(json: json) } catch { throw Error(description: "\(file): \(error.description)") }
    }

    public func person(_ id: String) -> Person? { people.first { $0.id == id } }
}

extension String {
    var trimmingSpaces: String {
        var s = self[...]
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
