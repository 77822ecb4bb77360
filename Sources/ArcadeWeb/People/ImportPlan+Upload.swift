import ArcadeStore
import Crypto
import HTTP
import JSON
import NameGame

/// An upload read into a plan: the people file (a WillowTree JSON file or a CSV) and its photos, matched against the
/// people already there.
extension ImportPlan {
    static let maxPeople = 5000

    /// What a people file holds: people to match, with the photo file each names, and rows already skipped.
    typealias Read = (people: [(person: Person, photoFile: String?)], skipped: [Entry])

    /// Reads the people file and matches its photos against those uploaded and the people already there.
    static func make(
        file: MultipartPart, photos uploaded: [MultipartPart], existing: Directory,
        library: PhotoLibrary
    ) throws(Refusal) -> ImportPlan {
        guard let text = file.text else { throw Refusal(key: "people.import.error.encoding") }
        let trimmed = text.drop { $0.isWhitespace }
        let read = trimmed.first == "[" || trimmed.first == "{" ? try readJSON(file) : try readCSV(text)
        guard read.people.count + read.skipped.count <= maxPeople else {
            throw Refusal(key: "people.import.error.many", argument: String(maxPeople))
        }
        let files = Dictionary(
            uploaded.compactMap { part in part.filename.map { ($0, part.body) } },
            uniquingKeysWith: { a, _ in a })
        return ImportPlan(
            entries: read.skipped + (try match(read.people, existing: existing, files: files, library: library)))
    }

    /// A skipped row, shown with `label` for a name.
    private static func skipped(_ label: String, first: String? = nil, last: String = "", _ key: String) -> Entry {
        let person = Person(
            id: label, firstName: first ?? label, lastName: last, jobTitle: nil, headshotURL: "",
            retired: false)
        return Entry(action: .skip, person: person, reason: Reason(key: key), newPhoto: false)
    }

    /// A WillowTree JSON file: people, and the profiles the directory left out, each with why.
    private static func readJSON(_ file: MultipartPart) throws(Refusal) -> Read {
        let directory: Directory
        do { directory = try Directory(bytes: file.body, file: file.filename ?? "upload") } catch {
            throw Refusal(key: "people.import.error.json", argument: error.description)
        }
        let skipped = directory.skipped.map { skipped in
            let key: String =
                switch skipped.reason {
                case .noID: "people.import.skip.noid"
                case .noName: "people.import.skip.noname"
                case .noHeadshot: "people.import.skip.nophoto"
                case .repeatedID: "people.import.skip.repeated"
                case .notAnImage: "people.import.skip.notimage"
                }
            return Self.skipped(skipped.label, key)
        }
        return (directory.people.map { ($0, photoFileName($0.headshotURL)) }, skipped)
    }

    /// A CSV of first name, last name, title and photo file, with or without that header row.
    private static func readCSV(_ text: String) throws(Refusal) -> Read {
        let table: CSVTable
        do { table = try CSVTable(text) } catch {
            throw Refusal(key: "people.import.error.csv", argument: String(error.line))
        }
        var rows = table.rows
        if let first = rows.first,
            first.map({ $0.trimmingSpaces.lowercased() }) == ["first", "last", "title", "photo_file"]
        {
            rows.removeFirst()
        }
        var read: Read = ([], [])
        for (index, row) in rows.enumerated() {
            let label = "#\(index + 1)"
            guard row.count == 4 else {
                read.skipped.append(skipped(label, "people.import.skip.columns"))
                continue
            }
            guard let fields = PeopleStore.Fields(first: row[0], last: row[1], title: row[2]) else {
                read.skipped.append(skipped(label, first: row[0], last: row[1], "people.import.skip.noname"))
                continue
            }
            let photo = row[3].trimmingSpaces
            read.people.append(
                (
                    Person(
                        id: "", firstName: fields.firstName, lastName: fields.lastName,
                        jobTitle: fields.jobTitle, headshotURL: "", retired: false),
                    photo.isEmpty ? nil : photo
                ))
        }
        return read
    }

    /// Each person read, matched with one already here (by id, else by full name) and their photo saved: added,
    /// changed, or skipped with the reason.
    private static func match(
        _ read: [(person: Person, photoFile: String?)], existing: Directory,
        files: [String: [UInt8]], library: PhotoLibrary
    ) throws(Refusal) -> [Entry] {
        var byName: [String: Person] = [:]
        for person in existing.people {
            byName[person.fullName.lowercased()] = byName[person.fullName.lowercased()] ?? person
        }
        var seen = Set<String>()
        var entries: [Entry] = []
        for (candidate, photoFile) in read {
            let match = existing.person(candidate.id) ?? byName[candidate.fullName.lowercased()]
            func skip(_ key: String, _ argument: String = "") {
                entries.append(
                    Entry(
                        action: .skip, person: candidate, reason: Reason(key: key, argument: argument),
                        newPhoto: false))
            }
            guard
                seen.insert(match?.id ?? (candidate.id.isEmpty ? candidate.fullName.lowercased() : candidate.id))
                    .inserted
            else {
                skip("people.import.skip.repeated")
                continue
            }
            var photo = match?.headshotURL
            var newPhoto = false
            if let photoFile, let bytes = files[photoFile] {
                switch library.save(bytes) {
                case .success(let path): (photo, newPhoto) = (path, true)
                case .failure(.tooLarge):
                    skip("people.import.skip.toolarge", photoFile)
                    continue
                case .failure(.unsaved): throw Refusal(key: "people.error.unsaved")
                case .failure:
                    skip("people.import.skip.notimage", photoFile)
                    continue
                }
            } else if match == nil {
                if let photoFile {
                    skip("people.import.skip.missingphoto", photoFile)
                } else {
                    skip("people.import.skip.nophoto")
                }
                continue
            }
            let id = match?.id ?? (candidate.id.isEmpty ? "p" + PhotoLibrary.hex(Crypto.randomBytes(8)) : candidate.id)
            let person = Person(
                id: id, firstName: candidate.firstName, lastName: candidate.lastName,
                jobTitle: candidate.jobTitle, headshotURL: photo ?? "", retired: candidate.retired)
            if let match, match == person {
                skip("people.import.skip.unchanged")
                continue
            }
            entries.append(
                Entry(action: match == nil ? .add : .change, person: person, reason: nil, newPhoto: newPhoto))
        }
        return entries
    }
}
