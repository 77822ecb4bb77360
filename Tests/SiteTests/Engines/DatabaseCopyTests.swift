import Storage
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

@Suite("arcade db copy: a site moved from SQLite to PostgreSQL")
struct DatabaseCopyTests {
    @Test func aSiteMovesWithItsPlayersGamesHotfixesAndSecretsAndAFullTargetIsRefused() throws {
        let scratch = ScratchDirectory()
        let source = DatabaseLocation.sqlite(scratch.path + "/site.sqlite")
        let target = try TestDatabase.fresh(.postgresql, in: scratch, name: "moved")
        // A site that has been played on, then stopped.
        let old = try SiteServer(routes: nil) {
            $0.database = source
            $0.photos = scratch.path + "/photos"  // beside the file, where a site keeps them by default
        }
        let player = Player(old)
        try player.get("/")
        try player.startMastermind()
        let secret = try player.secret()
        #expect(try player.post("/mastermind/guess", "guess=\(wrong(secret, 3))").status == 303)
        // A Name Game round with a wrong pick: its faces and the session's next people are rows of their own.
        let (round, answer) = try player.round(try player.play("normal").text)
        #expect(
            try player.post("/namegame/answer", "mode=normal&round=\(round)&choice=\((answer + 1) % 6)").status == 303)
        let admin = try AdminConsoleTests.admin(old)
        try admin.get("/admin/hotfixes")
        #expect(try admin.post("/admin/hotfixes", "key=home.title&language=de&value=Spielhalle").status == 303)
        try admin.get("/admin/people")
        #expect(
            try admin.upload(
                "/admin/people", [("first", "Zed"), ("last", "Quill"), ("title", "Engineer")],
                files: [UploadFile(field: "photo", name: "zed.png", type: "image/png", bytes: Images.png)]
            ).status == 303)
        let photo = try #require(
            try Database(location: source).first("SELECT photo FROM people WHERE first_name = 'Zed'")?
                .string("photo"))
        old.stop()
        let before = try Database(location: source)
        let games = try #require(try before.first("SELECT MAX(id) AS id FROM mastermind_games")?.int("id"))

        let copy = try ChildProcess(["db", "copy", "--from", "sqlite:" + source.argument, "--to", target.argument])
        #expect(copy.wait(timeout: 60) == 0, "\(copy.standardError)")
        #expect(copy.standardOutput.contains("the counts match"), "\(copy.standardOutput)")
        #expect(copy.standardOutput.contains("mastermind_guesses: 1 rows"))
        #expect(copy.standardOutput.contains("namegame_round_faces: 6 rows"), "\(copy.standardOutput)")
        #expect(copy.standardOutput.contains("namegame_session_people: 6 rows"), "\(copy.standardOutput)")
        #expect(copy.standardOutput.contains("photo files: 1 rows"), "\(copy.standardOutput)")
        let after = try Database(location: target)
        #expect(try DatabaseCopy.count("photos", in: after) == 1, "the photo file, into the database")
        for table in try DatabaseCopy.ordered(before) where table != "photos" {
            #expect(try DatabaseCopy.count(table, in: after) == DatabaseCopy.count(table, in: before), "\(table)")
        }

        // The site on PostgreSQL: the same cookies sign in the same player, the game and the hotfix are there,
        // and new rows continue after the copied ids.
        let moved = try SiteServer(routes: nil) {
            $0.database = target
            $0.photos = scratch.path + "/moved-photos"
        }
        defer { moved.stop() }
        let returning = Player(moved)
        returning.cookies = player.cookies
        let board = try returning.get("/mastermind")
        #expect(board.text.contains("data-game=\"\(games)\""), "the player's game came along")
        #expect(try returning.get("/?lang=de").text.contains("Spielhalle"))
        #expect(
            try returning.get("/namegame/normal").text.contains("data-result=\"wrong\""), "the wrong pick came along")
        // The uploaded photo came along, out of the database (the new site's folder starts empty).
        let served = try moved.get(photo)
        #expect(served.status == 200 && served.body == Images.png)
        let fresh = Player(moved)
        try fresh.get("/")
        let id = try #require(Int(try fresh.startMastermind()))
        #expect(id > games)

        // Again into the same database: refused, nothing written.
        let again = try ChildProcess(["db", "copy", "--from", "sqlite:" + source.argument, "--to", target.argument])
        #expect(again.wait(timeout: 60) == 1)
        #expect(again.standardError.contains("already holds data"), "\(again.standardError)")
        #expect(try DatabaseCopy.count("mastermind_guesses", in: after) == 1)
        // Wrong arguments: the usage.
        let wrongUsage = try ChildProcess(["db", "copy", "--from", target.argument])
        #expect(wrongUsage.wait(timeout: 10) == 2)
    }
}
