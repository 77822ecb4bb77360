import Files
import Storage
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

#if canImport(Glibc)
import Glibc
#endif

@Suite("Admin → People over HTTP", .serialized)
struct PeopleSiteTests {
    /// A site whose people file holds `json` (an empty list by default).
    static func server(people json: String = "[]") throws -> SiteServer {
        let scratch = ScratchDirectory()
        _ = system("cp -r Config '\(scratch.path)/Config'")
        scratch.write("Config/people.json", json)
        scratch.write(
            "Config/Constants_people.plist",
            "<plist><dict><key>namegame.profiles</key><string>\(scratch.path)/Config/people.json</string></dict></plist>"
        )
        return try SiteServer(routes: nil) { options in
            options.config = scratch.path + "/Config"
            options.environments = ["people"]
            _ = scratch  // kept alive with the options' paths
        }
    }

    @Test func anAddedPersonIsAskedInARound() throws {
        let server = try Self.server()
        defer { server.stop() }
        let admin = Player(server)
        try admin.signInAsAdmin()
        let added = try admin.upload(
            "/admin/people", [("first", "Zed"), ("last", "Quill"), ("title", "Engineer")],
            files: [UploadFile(field: "photo", name: "zed.png", type: "image/png", bytes: Images.png)])
        #expect(added.status == 303, "\(added.text)")
        let list = try admin.get("/admin/people").text
        #expect(list.contains("Zed Quill"))
        let photo = try #require(
            Player.attribute("src", in: String(list[list.firstRange(of: "data-person=")!.lowerBound...])))
        #expect(photo.hasPrefix("/photos/") && photo.hasSuffix(".png") && !photo.contains("zed"))
        // Served with its type, for good, never sniffed.
        let served = try server.get(photo)
        #expect(served.status == 200)
        #expect(served.header("Content-Type") == "image/png")
        #expect(served.header("X-Content-Type-Options") == "nosniff")
        #expect(served.header("Cache-Control")?.contains("max-age=31536000") == true)
        #expect(served.body == Images.png)
        #expect([400, 404].contains(try server.get("/photos/../site.sqlite").status))
        #expect(try server.get("/photos/..%2Fsite.sqlite").status == 404)
        #expect(try server.get("/photos/0123456789abcdef0123456789abcdef.svg").status == 404)
        // Stored beside the database.
        #expect(access(server.scratch.path + "/photos/" + photo.dropFirst("/photos/".count), R_OK) == 0)
        // The only person: every round asks for them.
        let player = Player(server)
        let round = try player.play("normal").text
        #expect(round.contains("Who is Zed Quill?") || round.contains("Zed Quill"), "\(round)")
        let audit = try admin.get("/admin/audit").text
        #expect(audit.contains("add person") && audit.contains("Zed Quill"))
    }

    @Test func svgAndRenamedTextAreRefusedAndChangeNothing() throws {
        let server = try Self.server()
        defer { server.stop() }
        let admin = Player(server)
        try admin.signInAsAdmin()
        for file in [
            UploadFile(field: "photo", name: "face.svg", type: "image/svg+xml", bytes: Images.svg),
            UploadFile(field: "photo", name: "face.png", type: "image/png", bytes: Array("just some text".utf8)),
        ] {
            let refused = try admin.upload("/admin/people", [("first", "Eve"), ("last", "Mal")], files: [file])
            #expect(refused.status == 422)
            #expect(refused.text.contains("not a JPEG, PNG or WebP"))
        }
        let tooBig = try admin.upload(
            "/admin/people", [("first", "Eve"), ("last", "Mal")],
            files: [
                UploadFile(
                    field: "photo", name: "big.jpg", type: "image/jpeg",
                    bytes: Images.jpeg + [UInt8](repeating: 0, count: 2 << 20))
            ])
        #expect(tooBig.status == 422)
        #expect(tooBig.text.contains("larger than 2 MB"))
        #expect(!(try admin.get("/admin/people").text.contains("Eve Mal")))
        #expect(Files.list(server.scratch.path + "/photos")?.isEmpty ?? true, "no photo was kept")
        // Without the CSRF token, or not signed in: nothing.
        let stranger = Player(server)
        try stranger.get("/")
        let anonymous = try stranger.upload(
            "/admin/people", [("first", "X"), ("last", "Y")],
            files: [UploadFile(field: "photo", name: "a.png", type: "image/png", bytes: Images.png)])
        #expect(anonymous.status == 401, "refused on its head, the body unread")
        admin.csrf = "forged"
        let forged = try admin.upload(
            "/admin/people", [("first", "X"), ("last", "Y")],
            files: [UploadFile(field: "photo", name: "a.png", type: "image/png", bytes: Images.png)])
        #expect(forged.status == 403)
        // A body that is not multipart, or is broken, is refused.
        admin.csrf = ""
        try admin.get("/admin/people")
        #expect(try admin.post("/admin/people", "first=X").status == 415)
    }

    @Test func editRetireAndDelete() throws {
        let server = try Self.server()
        defer { server.stop() }
        let admin = Player(server)
        try admin.signInAsAdmin()
        try admin.upload(
            "/admin/people", [("first", "Ada"), ("last", "Byron")],
            files: [UploadFile(field: "photo", name: "a.png", type: "image/png", bytes: Images.png)])
        let db = try Database(location: server.database)
        let id = try #require(try db.first("SELECT id FROM people")?.string("id"))
        let edited = try admin.upload(
            "/admin/people/\(id)", [("first", "Ada"), ("last", "Lovelace"), ("title", "Analyst")],
            files: [UploadFile(field: "photo", name: "b.jpg", type: "image/jpeg", bytes: Images.jpeg)])
        #expect(edited.status == 303)
        let row = try #require(try db.first("SELECT * FROM people WHERE id = ?", [.text(id)]))
        #expect(row.string("last_name") == "Lovelace" && row.string("job_title") == "Analyst")
        #expect(row.string("photo")?.hasSuffix(".jpg") == true)
        #expect(Files.list(server.scratch.path + "/photos")?.count == 1, "the replaced photo is deleted")
        // Team mode plays current staff only.
        #expect(try admin.post("/admin/people/\(id)/retire", "retired=1").status == 303)
        #expect(try db.first("SELECT retired FROM people")?.int("retired") == 1)
        let team = try Player(server).play("team").text
        #expect(!team.contains("data-round="))
        // Deleting asks for confirmation.
        #expect(try admin.post("/admin/people/\(id)/delete", "").status == 422)
        #expect(try admin.post("/admin/people/\(id)/delete", "confirm=on").status == 303)
        #expect(try db.first("SELECT COUNT(*) AS n FROM people")?.int("n") == 0)
        let actions = try db.query("SELECT action FROM audit ORDER BY id").compactMap { $0.string("action") }
        #expect(actions.suffix(3) == ["edit person", "retire person", "delete person"])
    }

    @Test func aFaceInWordsIsReadInPlaceOfThePhotoUntilThePhotoChanges() throws {
        let server = try Self.server()
        defer { server.stop() }
        let admin = Player(server)
        try admin.signInAsAdmin()
        #expect(try admin.get("/admin/people").text.contains("name=\"appearance\""))
        let png = [UploadFile(field: "photo", name: "a.png", type: "image/png", bytes: Images.png)]
        try admin.upload(
            "/admin/people",
            [("first", "Ada"), ("last", "Byron"), ("appearance", "Short grey hair,\r\nround glasses")],
            files: png)
        let db = try Database(location: server.database)
        let appearance = { try db.first("SELECT appearance FROM people")?.string("appearance") }
        #expect(try appearance() == "Short grey hair, round glasses")
        let id = try #require(try db.first("SELECT id FROM people")?.string("id"))
        // The Name Game reads it for the face (one person: the round's only face).
        #expect(try Player(server).play("normal").text.contains("Short grey hair, round glasses"))
        // Too long: refused, nothing changed.
        let long = try admin.upload(
            "/admin/people/\(id)",
            [("first", "Ada"), ("last", "Byron"), ("appearance", String(repeating: "a", count: 301))])
        #expect(long.status == 422)
        #expect(try appearance() == "Short grey hair, round glasses")
        // A new photo with the old words drops them (they describe another face); with new words, keeps those.
        let jpeg = [UploadFile(field: "photo", name: "b.jpg", type: "image/jpeg", bytes: Images.jpeg)]
        try admin.upload(
            "/admin/people/\(id)",
            [("first", "Ada"), ("last", "Byron"), ("appearance", "Short grey hair, round glasses")],
            files: jpeg)
        #expect(try appearance() == nil)
        try admin.upload(
            "/admin/people/\(id)", [("first", "Ada"), ("last", "Byron"), ("appearance", "A red beret")], files: png)
        #expect(try appearance() == "A red beret")
        #expect(try admin.get("/admin/people/\(id)").text.contains(">A red beret</textarea>"))
    }

    @Test func importPreviewsThenConfirms() throws {
        let server = try Self.server(
            people: """
                [{"id": "w1", "firstName": "Old", "lastName": "Name", "jobTitle": "Dev",
                  "headshot": {"url": "/headshots/x.svg", "mimeType": "image/svg+xml"}}]
                """)
        defer { server.stop() }
        let admin = Player(server)
        try admin.signInAsAdmin()
        let json = """
            {"items": [
              {"id": "w1", "firstName": "New", "lastName": "Name", "jobTitle": "Lead", "headshot": {"url": "//cdn/x/w1.png"}},
              {"id": "w2", "firstName": "Bo", "lastName": "Diddley", "jobTitle": "Dev", "headshot": {"url": "//cdn/x/w2.jpg"}},
              {"id": "w3", "firstName": "No", "lastName": "Photo", "headshot": {"url": "//cdn/x/missing.png"}},
              {"id": "w4", "firstName": "", "lastName": "", "headshot": {"url": "//cdn/x/w4.png"}},
              {"id": "w5", "firstName": "Svg", "lastName": "Face", "headshot": {"url": "//cdn/x/w5.png"}}
            ], "meta": {}}
            """
        let preview = try admin.upload(
            "/admin/people/import", [],
            files: [
                UploadFile(field: "file", name: "people.json", type: "application/json", bytes: Array(json.utf8)),
                UploadFile(field: "photos", name: "w1.png", type: "image/png", bytes: Images.png),
                UploadFile(field: "photos", name: "w2.jpg", type: "image/jpeg", bytes: Images.jpeg),
                UploadFile(field: "photos", name: "w5.png", type: "image/png", bytes: Images.svg),
            ])
        #expect(preview.status == 200, "\(preview.text)")
        let page = preview.text
        #expect(page.contains("1 to add, 1 to change, 3 left out"), "\(page)")
        #expect(page.contains("the photo missing.png is not in the upload"))
        #expect(page.contains("w5.png is not a JPEG, PNG or WebP photo"))
        #expect(page.contains("no name"))
        let db = try Database(location: server.database)
        #expect(
            try db.first("SELECT first_name FROM people WHERE id = 'w1'")?.string("first_name") == "Old", "nothing yet")
        let importID = try #require(Player.attribute("name=\"import\" value", in: page))
        let confirmed = try admin.post("/admin/people/import/confirm", "import=\(importID)")
        #expect(confirmed.status == 303)
        #expect(try db.first("SELECT first_name FROM people WHERE id = 'w1'")?.string("first_name") == "New")
        #expect(try db.first("SELECT COUNT(*) AS n FROM people")?.int("n") == 2)
        #expect(try db.first("SELECT retired FROM people WHERE id = 'w2'")?.int("retired") == 0)
        let actions = try db.query("SELECT action FROM audit ORDER BY id").compactMap { $0.string("action") }
        #expect(actions.filter { $0.hasPrefix("import:") }.sorted() == ["import: add person", "import: edit person"])
        // Confirming twice changes nothing more.
        #expect(try admin.post("/admin/people/import/confirm", "import=\(importID)").status == 422)

        // A CSV with a header; a cancelled import keeps no photo.
        let before = Files.list(server.scratch.path + "/photos") ?? []
        let csv = "first,last,title,photo_file\r\n\"Cy\",\"Young, Jr.\",Pitcher,cy.png\r\nbroken row\r\n"
        let csvPreview = try admin.upload(
            "/admin/people/import", [],
            files: [
                UploadFile(field: "file", name: "people.csv", type: "text/csv", bytes: Array(csv.utf8)),
                UploadFile(field: "photos", name: "cy.png", type: "image/png", bytes: Images.png),
            ])
        #expect(csvPreview.text.contains("1 to add, 0 to change, 1 left out"), "\(csvPreview.text)")
        #expect(csvPreview.text.contains("Cy Young, Jr."))
        let csvID = try #require(Player.attribute("name=\"import\" value", in: csvPreview.text))
        #expect((Files.list(server.scratch.path + "/photos") ?? []).count == before.count + 1)
        #expect(try admin.post("/admin/people/import/cancel", "import=\(csvID)").status == 303)
        #expect((Files.list(server.scratch.path + "/photos") ?? []) == before)
        #expect(try db.first("SELECT COUNT(*) AS n FROM people")?.int("n") == 2)
    }
}

@Suite("The bundled demo people", .serialized)
struct DemoPeopleTests {
    /// A company's first start: `--demo-people off` seeds nobody, so no fictional colleague is ever asked about.
    @Test func offStartsWithAnEmptyDirectory() throws {
        let server = try SiteServer(routes: nil) { $0.demoPeople = false }
        defer { server.stop() }
        #expect(server.site.routes.table.count > 50)
        let admin = Player(server)
        try admin.signInAsAdmin()
        let list = try admin.get("/admin/people").text
        #expect(!list.contains("data-person="), "no one in the directory")
        #expect(!list.contains("data-demo-people"), "nothing to remove")
    }

    /// The shipped directory goes in one confirmed, audited step; people an admin added stay, and so does what
    /// players learned about them.
    @Test func oneConfirmedStepRemovesEveryDemoPersonAndNoOneElse() throws {
        let server = try SiteServer(routes: nil)
        defer { server.stop() }
        let admin = Player(server)
        try admin.signInAsAdmin()
        let added = try admin.upload(
            "/admin/people", [("first", "Zed"), ("last", "Quill"), ("title", "Engineer")],
            files: [UploadFile(field: "photo", name: "zed.png", type: "image/png", bytes: Images.png)])
        #expect(added.status == 303)
        let before = try admin.get("/admin/people").text
        let demo = before.components(separatedBy: "src=\"/headshots/").count - 1
        #expect(demo >= 100, "the bundled people are there (\(demo))")
        #expect(before.contains("data-demo-people"))
        // A player is told the people are drawings while any are left (a review took them for the product).
        let player = Player(server)
        #expect(try player.get("/namegame").text.contains("data-demo-note"))
        // And by the first person met, for a player who came straight to a lesson from the home page (a review).
        #expect(try player.post("/namegame/next", "mode=learn&resume=1").status == 303)
        let first = try player.get("/namegame/learn").text
        #expect(first.contains("data-intro") && first.contains("data-demo-note"))
        // Once someone is met, the menu says it in a line at its foot (a review: a fifth of every first screen).
        #expect(
            try player.post(
                "/namegame/meet", "mode=learn&round=\(try #require(Player.attribute("data-round", in: first)))"
            ).status == 303)
        let returning = try player.get("/namegame").text
        #expect(returning.contains("<p class=\"field-help\" data-demo-note>The team here is made up"))
        #expect(!returning.contains("These colleagues are made up"))

        let unconfirmed = try admin.post("/admin/people/demo/remove", "")
        #expect(unconfirmed.status == 422)
        #expect(try admin.get("/admin/people").text.components(separatedBy: "src=\"/headshots/").count - 1 == demo)

        let removed = try admin.post("/admin/people/demo/remove", "confirm=on")
        #expect(removed.status == 303)
        let after = try admin.get("/admin/people").text
        #expect(!after.contains("/headshots/"), "every demo person is gone")
        #expect(after.contains("Zed Quill"), "the admin's own person stays")
        #expect(!after.contains("data-demo-people"))
        #expect(try !player.get("/namegame").text.contains("data-demo-note"), "a real team is not called made up")
        let audit = try admin.get("/admin/audit").text
        #expect(audit.contains("delete demo people") && audit.contains("\(demo) people"))
    }

    /// A change to a person is what the game meets next, while other instances' changes keep this one reading the
    /// people again: a reading begun before the change committed does not put the person back as they were.
    @Test func aChangeIsNotUndoneByAReadingOfOtherInstancesChanges() throws {
        let server = try SiteServer(engine: .postgresql)
        defer { server.stop() }
        let admin = Player(server)
        try admin.signInAsAdmin()
        let people = server.site.services.people
        let id = try #require(people.directory.people.first?.id)
        let location = server.database
        // Many people, so that each reading takes a while (the window a change falls into).
        _ = try Database(location: location).execute(
            """
            INSERT INTO people (id, first_name, last_name, photo, retired, updated_ms)
            SELECT 'filler' || n, 'First', 'Last ' || n, '/x.png', 1, 0 FROM generate_series(1, 2000) AS n
            """)
        // Another instance, busy: every commit notifies this one, which reads the people again.
        let elsewhere = BusyElsewhere(location) { others, n in
            _ = try others.execute("UPDATE people SET job_title = ? WHERE id = 'filler1'", [.text("Job \(n)")])
        }
        defer { elsewhere.stop() }
        let readings: @Sendable () -> Double = {
            SiteMetrics.cacheReloads.samples.first { $0.0 == ["people"] }?.1 ?? 0
        }
        var undone = 0
        for round in 1...50 {
            let retired = round % 2 == 1
            #expect(try admin.post("/admin/people/\(id)/retire", retired ? "retired=1" : "").status == 303)
            // Checked after the change, and again once the reading under way has ended (the next one has begun).
            for _ in 0..<2 {
                let begun = readings()
                if people.directory.person(id)?.retired != retired { undone += 1 }
                var waited = 0
                while readings() == begun && waited < 30_000 {
                    usleep(1_000)
                    waited += 1
                }
                try #require(waited < 30_000, "this instance stopped reading the others' changes")
            }
        }
        #expect(elsewhere.writes > 50, "the other instance kept writing")
        #expect(undone == 0, "\(undone) of 100 looks at the person missed the change")
    }
}
