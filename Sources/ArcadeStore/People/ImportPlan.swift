import Crypto
import JSON
import NameGame

/// What an upload of people would do, shown to the admin before anything changes: each person read from a WillowTree
/// JSON file (either shape) or a CSV (`first,last,title,photo_file`) is added, changed or left out with the reason.
/// Photos come in the same upload and are matched by file name. Accepted photos are stored at once (opaque names,
/// unused until confirmed; a cancelled plan deletes them).
package struct ImportPlan: Sendable, Equatable {
    package enum Action: String, Sendable { case add, change, skip }

    /// Why a person is left out: a localized string's key (`people.import.skip.*`) and its argument.
    package struct Reason: Sendable, Equatable {
        package let key: String
        package var argument = ""

        package init(key: String, argument: String = "") {
            self.key = key
            self.argument = argument
        }
    }

    package struct Entry: Sendable, Equatable {
        package let action: Action
        /// The person as they will be (for a skip: as read).
        package let person: Person
        package let reason: Reason?
        /// A photo this plan stored, deleted if the plan is cancelled.
        package let newPhoto: Bool

        package init(action: Action, person: Person, reason: Reason?, newPhoto: Bool) {
            self.action = action
            self.person = person
            self.reason = reason
            self.newPhoto = newPhoto
        }
    }

    package var entries: [Entry]

    package func count(_ action: Action) -> Int { entries.count { $0.action == action } }

    /// The refusal of a whole upload, as a localized string's key.
    package struct Refusal: Error, Equatable {
        package let key: String
        package var argument = ""

        package init(key: String, argument: String = "") {
            self.key = key
            self.argument = argument
        }
    }

    /// The last path component of a headshot URL, which an upload's photo file must be named.
    package static func photoFileName(_ url: String) -> String? {
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        return path.split(separator: "/").last.map(String.init)
    }

    /// Deletes the photos this plan stored.
    package func discardPhotos(_ library: PhotoLibrary) {
        for entry in entries where entry.newPhoto { library.discard(entry.person.headshotURL) }
    }

    // Kept in the database between the preview and the confirmation.
    package var json: JSONValue {
        .array(
            entries.map { entry in
                .object([
                    ("action", .string(entry.action.rawValue)), ("id", .string(entry.person.id)),
                    ("first", .string(entry.person.firstName)), ("last", .string(entry.person.lastName)),
                    ("title", entry.person.jobTitle.map { .string($0) } ?? .null),
                    ("photo", .string(entry.person.headshotURL)),
                    ("retired", .bool(entry.person.retired)), ("newPhoto", .bool(entry.newPhoto)),
                    ("reason", entry.reason.map { .string($0.key) } ?? .null),
                    ("argument", .string(entry.reason?.argument ?? "")),
                ])
            })
    }

    package init(entries: [Entry]) { self.entries = entries }

    package init?(json: JSONValue) {
        guard let items = json.array else { return nil }
        var entries: [Entry] = []
        for item in items {
            guard let action = item["action"]?.string.flatMap(Action.init), let id = item["id"]?.string,
                let first = item["first"]?.string, let last = item["last"]?.string, let photo = item["photo"]?.string
            else { return nil }
            let person = Person(
                id: id, firstName: first, lastName: last, jobTitle: item["title"]?.string, headshotURL: photo,
                retired: item["retired"]?.bool ?? false)
            let reason = item["reason"]?.string.map { Reason(key: $0, argument: item["argument"]?.string ?? "") }
            entries.append(
                Entry(action: action, person: person, reason: reason, newPhoto: item["newPhoto"]?.bool ?? false))
        }
        self.entries = entries
    }
}
