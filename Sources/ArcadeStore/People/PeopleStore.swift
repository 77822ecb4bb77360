import Crypto
import JSON
import NameGame
import Storage
import Synchronization

/// The Name Game's people, kept in the database and edited in Admin → People. The game reads them from memory
/// (`directory`), refreshed after every change; every change commits with its audit entry.
package final class PeopleStore: Sendable {
    package let pool: DatabasePool
    package let clock: @Sendable () -> Double
    package let photos: PhotoLibrary
    /// With the number of the reading it came from: readings overlap (a change here, another instance's there), and a
    /// later-begun one, which saw every change committed before it, is never replaced by an earlier-begun one.
    private let current = Mutex((Directory(people: []), reading: 0))
    private let readings = Atomic<Int>(0)

    /// The demo people's words in other languages (`DemoWords`).
    package let demoWords: DemoWords

    package init(
        pool: DatabasePool, clock: @escaping @Sendable () -> Double, photos: PhotoLibrary,
        demoWords: DemoWords = .none
    ) {
        self.demoWords = demoWords
        self.pool = pool
        self.clock = clock
        self.photos = photos
    }

    /// Everyone, current and former staff, in the order they were added.
    package var directory: Directory { current.withLock { $0.0 } }

    /// What an admin typed for a person, checked.
    package struct Fields: Sendable, Equatable {
        package var firstName: String
        package var lastName: String
        package var jobTitle: String?
        /// The face in words, read in place of the photo (nil: not described).
        package var appearance: String?
        package static let maxLength = 100
        package static let maxAppearance = 300

        /// Trimmed (a description's line breaks become spaces); nil when both names are empty, a field is too long or
        /// holds control characters.
        package init?(first: String, last: String, title: String?, appearance: String? = nil) {
            firstName = first.trimmingSpaces
            lastName = last.trimmingSpaces
            jobTitle = title.map(\.trimmingSpaces).flatMap { $0.isEmpty ? nil : $0 }
            self.appearance = appearance.map {
                String($0.map { $0 == "\r\n" || $0 == "\n" || $0 == "\r" ? " " : $0 }).trimmingSpaces
            }.flatMap { $0.isEmpty ? nil : $0 }
            let clean: (String) -> Bool = { !$0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } }
            guard !(firstName.isEmpty && lastName.isEmpty),
                [firstName, lastName, jobTitle ?? ""].allSatisfy({ $0.count <= Self.maxLength && clean($0) }),
                (self.appearance ?? "").count <= Self.maxAppearance, clean(self.appearance ?? "")
            else { return nil }
        }
    }

    package func isSeeded() throws -> Bool {
        try pool.connection().first("SELECT 1 AS x FROM secrets WHERE name = 'people-seeded'") != nil
    }

    /// The first start: the configured profiles (the bundled fictional people by default) become the site's people.
    /// Later starts keep what admins made of them, even an empty list.
    package func seed(_ directory: Directory) throws {
        try pool.write { db in
            guard try db.first("SELECT 1 AS x FROM secrets WHERE name = 'people-seeded'") == nil else { return }
            for person in directory.people { try insert(db, person) }
            try db.execute(
                Secrets.insert { row in
                    row[.name] = "people-seeded"
                    row[.value] = [UInt8]([1])
                })
        }
        try reload()
    }

    /// Gives the people still as configured (same id, same photo) that no admin has edited the description their
    /// configured face has now: a site seeded before keeps a face's words true to its drawing when the bundled drawings
    /// change (faces redrawn without a beard kept "a full beard"), or had none. Anyone an admin edited keeps theirs.
    /// Returns how many changed.
    @discardableResult
    package func refreshAppearances(from directory: Directory) throws -> Int {
        try pool.write { db in
            var changed = 0
            for person in directory.people {
                guard let appearance = person.appearance else { continue }
                changed += try db.execute(
                    """
                    UPDATE people SET appearance = ? WHERE id = ? AND photo = ?
                        AND (appearance IS NULL OR appearance <> ?)
                        AND NOT EXISTS (SELECT 1 FROM audit WHERE target LIKE ?)
                    """,
                    [
                        .text(appearance), .text(person.id), .text(person.headshotURL), .text(appearance),
                        .text("%(\(person.id))"),
                    ])
            }
            return changed
        }
    }

    package func reload() throws {
        let reading = readings.add(1, ordering: .acquiringAndReleasing).newValue
        let people = try pool.connection().fetchAll(
            PersonRow.self, "SELECT \(PersonRow.selection) FROM people ORDER BY position, id"
        )
        .map(\.person)
        current.withLock { if reading > $0.reading { $0 = (Directory(people: people), reading) } }
    }

    package func add(_ fields: Fields, photo: String, by admin: String) throws -> Person {
        let person = Person(
            id: "p" + PhotoLibrary.hex(Crypto.randomBytes(8)), firstName: fields.firstName,
            lastName: fields.lastName, jobTitle: fields.jobTitle, headshotURL: photo, retired: false,
            appearance: fields.appearance)
        try pool.write { db in
            try insert(db, person)
            try audit(db, admin, "add person", person, before: nil, after: Self.describe(person))
        }
        try reload()
        return person
    }

    /// Changes names and title, and the photo when one is given (the old upload is then deleted).
    package func update(_ id: String, _ fields: Fields, photo: String?, by admin: String) throws -> Bool {
        guard let before = directory.person(id) else { return false }
        // A new photo drops the old one's description, unless the admin wrote another with it: the old one would
        // describe another face.
        let newPhoto = photo.map { $0 != before.headshotURL } ?? false
        let after = Person(
            id: id, firstName: fields.firstName, lastName: fields.lastName, jobTitle: fields.jobTitle,
            headshotURL: photo ?? before.headshotURL, retired: before.retired,
            appearance: newPhoto && fields.appearance == before.appearance ? nil : fields.appearance)
        try pool.write { db in
            try db.execute(
                """
                UPDATE people SET first_name = ?, last_name = ?, job_title = ?, photo = ?, appearance = ?, updated_ms = ?
                WHERE id = ?
                """,
                [
                    .text(after.firstName), .text(after.lastName), SQLValue(after.jobTitle), .text(after.headshotURL),
                    SQLValue(after.appearance), .integer(now()), .text(id),
                ])
            try audit(db, admin, "edit person", after, before: Self.describe(before), after: Self.describe(after))
        }
        if photo != nil && before.headshotURL != after.headshotURL { photos.discard(before.headshotURL) }
        try reload()
        return true
    }

    /// Former staff stay in the game (not in team mode); retiring is undone the same way.
    package func setRetired(_ id: String, _ retired: Bool, by admin: String) throws -> Bool {
        guard let person = directory.person(id) else { return false }
        try pool.write { db in
            try db.execute(
                "UPDATE people SET retired = ?, updated_ms = ? WHERE id = ?",
                [SQLValue(retired ? 1 : 0), .integer(now()), .text(id)])
            try audit(db, admin, retired ? "retire person" : "reinstate person", person, before: nil, after: nil)
        }
        try reload()
        return true
    }

    /// Gone from the game and from every player's learning; their rounds stay in the statistics.
    package func delete(_ id: String, by admin: String) throws -> Bool {
        guard let person = directory.person(id) else { return false }
        try pool.write { db in
            try db.execute("DELETE FROM people WHERE id = ?", [.text(id)])
            try db.execute("DELETE FROM namegame_cards WHERE person = ?", [.text(id)])
            try audit(db, admin, "delete person", person, before: Self.describe(person), after: nil)
        }
        photos.discard(person.headshotURL)
        try reload()
        return true
    }

    /// The bundled, fictional people: their faces are the site's own drawings (`/headshots/`), which no import or
    /// upload makes (uploads live under `/photos/`, imports name their own URLs).
    package static func isDemo(_ person: Person) -> Bool { person.headshotURL.hasPrefix("/headshots/") }

    /// Removes every demo person and what players learned about them, in one audited transaction.
    package func deleteDemo(by admin: String) throws -> Int {
        let demo = directory.people.filter(Self.isDemo)
        guard !demo.isEmpty else { return 0 }
        try pool.write { db in
            try db.execute(
                "DELETE FROM namegame_cards WHERE person IN (SELECT id FROM people WHERE photo LIKE '/headshots/%')")
            try db.execute("DELETE FROM people WHERE photo LIKE '/headshots/%'")
            try AdminStore.audit(
                db, at: Int(clock()), admin, action: "delete demo people", target: "\(demo.count) people",
                before: nil, after: nil)
        }
        try reload()
        return demo.count
    }

    /// Keeps a previewed import until the admin confirms or cancels it; imports left a day are dropped.
    package func stage(_ plan: ImportPlan, by admin: String) throws -> String {
        let id = PhotoLibrary.hex(Crypto.randomBytes(16))
        let stale = try pool.write { db in
            let old = try db.query(
                "SELECT plan FROM people_imports WHERE created_ms < ?", [.integer(now() - 86_400_000)]
            )
            .map { row throws in try Self.plan(row) }
            try db.execute("DELETE FROM people_imports WHERE created_ms < ?", [.integer(now() - 86_400_000)])
            try db.execute(
                Imports.insert { row in
                    row[.id] = id
                    row[.admin] = admin
                    row[.created] = now()
                    row[.plan] = JSONWriter().string(plan.json)
                })
            return old.compactMap { $0 }
        }
        for plan in stale { plan.discardPhotos(photos) }
        return id
    }

    package func staged(_ id: String) throws -> ImportPlan? {
        try pool.connection().first("SELECT plan FROM people_imports WHERE id = ?", [.text(id)]).flatMap { row throws in
            try Self.plan(row)
        }
    }

    /// Drops a previewed import and the photos it stored.
    package func cancel(_ id: String) throws {
        let plan = try pool.write { db in
            let plan = try db.first("SELECT plan FROM people_imports WHERE id = ?", [.text(id)]).flatMap { row throws in
                try Self.plan(row)
            }
            try db.execute("DELETE FROM people_imports WHERE id = ?", [.text(id)])
            return plan
        }
        plan?.discardPhotos(photos)
    }

    /// A stored plan that no longer parses is as good as gone.
    private static func plan(_ row: Row) throws(DatabaseError) -> ImportPlan? {
        let text: String = try row.decode(Imports.Columns.plan)
        return (try? JSONParser.parse(Array(text.utf8))).flatMap(ImportPlan.init(json:))
    }

    /// Applies a previewed import in one transaction, an audit entry for each person; nil if it is gone (applied or
    /// cancelled already).
    package func confirm(_ id: String, by admin: String) throws -> ImportPlan? {
        var replaced: [String] = []
        let applied = try pool.write { db -> ImportPlan? in
            replaced = []
            guard
                let plan = try db.first("SELECT plan FROM people_imports WHERE id = ?", [.text(id)])
                    .flatMap({ row throws in try Self.plan(row) })
            else { return nil }
            try db.execute("DELETE FROM people_imports WHERE id = ?", [.text(id)])
            for entry in plan.entries {
                switch entry.action {
                case .add:
                    try insert(db, entry.person)
                    try audit(
                        db, admin, "import: add person", entry.person, before: nil, after: Self.describe(entry.person))
                case .change:
                    let before = try db.fetchOne(
                        PersonRow.self, "SELECT \(PersonRow.selection) FROM people WHERE id = ?",
                        [.text(entry.person.id)])?.person
                    try db.execute(
                        """
                        UPDATE people SET first_name = ?, last_name = ?, job_title = ?, photo = ?, retired = ?, updated_ms = ?
                        WHERE id = ?
                        """,
                        [
                            .text(entry.person.firstName), .text(entry.person.lastName),
                            SQLValue(entry.person.jobTitle),
                            .text(entry.person.headshotURL), SQLValue(entry.person.retired ? 1 : 0), .integer(now()),
                            .text(entry.person.id),
                        ])
                    try audit(
                        db, admin, "import: edit person", entry.person, before: before.map(Self.describe),
                        after: Self.describe(entry.person))
                    if let old = before?.headshotURL, old != entry.person.headshotURL { replaced.append(old) }
                case .skip:
                    continue
                }
            }
            return plan
        }
        for photo in replaced { photos.discard(photo) }
        try reload()
        return applied
    }

    private func insert(_ db: Database, _ person: Person) throws {
        try db.execute(
            PersonRow.insert { row in
                row[.id] = person.id
                row[.firstName] = person.firstName
                row[.lastName] = person.lastName
                row[.jobTitle] = person.jobTitle
                row[.photo] = person.headshotURL
                row[.retired] = person.retired
                row[.updated] = now()
                row[.appearance] = person.appearance
                row.set(.position, sql: "(SELECT COALESCE(MAX(position), 0) + 1 FROM people)")
            })
    }

    private func audit(
        _ db: Database, _ admin: String, _ action: String, _ person: Person, before: String?,
        after: String?
    ) throws {
        try AdminStore.audit(
            db, at: Int(clock()), admin, action: action, target: "\(person.fullName) (\(person.id))",
            before: before, after: after)
    }

    private func now() -> Int64 { WallClock.milliseconds(clock) }

    /// A person as one line for the audit log.
    package static func describe(_ person: Person) -> String {
        [
            person.fullName, person.jobTitle ?? "–", person.retired ? "former staff" : nil, person.headshotURL,
            person.appearance,
        ].compactMap { $0 }.joined(separator: " · ")
    }

    /// A `people` row.
    package struct PersonRow: FetchableRecord, TableRecord {
        package static let table = "people"
        package enum Columns: String, ColumnName {
            case id, firstName = "first_name", lastName = "last_name", jobTitle = "job_title", photo, retired
            case updated = "updated_ms", appearance, position
        }
        package let person: Person

        package init(row: Row) throws(DatabaseError) {
            person = Person(
                id: try row.decode(Columns.id), firstName: try row.decode(Columns.firstName),
                lastName: try row.decode(Columns.lastName),
                jobTitle: try row.decodeIfPresent(Columns.jobTitle), headshotURL: try row.decode(Columns.photo),
                retired: try row.decode(Columns.retired), appearance: try row.decodeIfPresent(Columns.appearance))
        }
    }

    /// A `people_imports` row: an import previewed and not yet confirmed, its plan as JSON.
    package enum Imports: TableRecord {
        package static let table = "people_imports"
        package enum Columns: String, ColumnName { case id, admin, created = "created_ms", plan }
    }
}
