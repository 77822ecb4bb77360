import CSystem
import JSON
import Storage
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Two `arcade` processes on one PostgreSQL database behind nginx (round-robin), as a site that outgrew one
/// machine runs them.
@Suite("Two instances on one PostgreSQL, behind nginx", .serialized)
struct MultiInstanceTests {
    final class Deployment {
        let scratch = ScratchDirectory()
        let database: DatabaseLocation
        let a: ChildProcess, b: ChildProcess
        let portA: Int, portB: Int
        private(set) var nginx: ChildProcess?
        private(set) var portN = 0
        let adminPassword: String

        init() throws {
            database = try TestDatabase.fresh(.postgresql, in: scratch, name: "pair")
            let arguments = ["--port", "0", "--db", database.argument, "--access-log", "off", "--workers", "1"]
            // One after the other: the first start creates the admin account. Each keeps its own photo files.
            a = try ChildProcess(arguments + ["--photos", scratch.path + "/photos-a"])
            portA = try a.waitForPort(timeout: 30)
            b = try ChildProcess(arguments + ["--photos", scratch.path + "/photos-b"])
            portB = try b.waitForPort(timeout: 30)
            // The first start leaves the password beside its photos folder, not in the log.
            let secret = readText(scratch.path + "/arcade-admin-password.txt")
            guard !secret.isEmpty else { throw TestFailure("no admin password: \(a.standardOutput)") }
            adminPassword = String(secret.prefix { !$0.isWhitespace })
            try startNginx()
        }

        private func startNginx() throws {
            var port: Int32 = 0
            guard csys_probe_port("127.0.0.1", 0, &port) == 0 else { throw TestFailure("no free port") }
            portN = Int(port)
            let folder = scratch.path
            scratch.write(
                "nginx.conf",
                """
                worker_processes 1;
                daemon off;
                pid \(folder)/nginx.pid;
                error_log \(folder)/nginx-error.log;
                events { worker_connections 256; }
                http {
                    access_log off;
                    client_body_temp_path \(folder); proxy_temp_path \(folder); fastcgi_temp_path \(folder);
                    uwsgi_temp_path \(folder); scgi_temp_path \(folder);
                    upstream arcade { server 127.0.0.1:\(portA) max_fails=0; server 127.0.0.1:\(portB) max_fails=0; }
                    server {
                        listen 127.0.0.1:\(portN);
                        location / { proxy_pass http://arcade; proxy_set_header Host $host; proxy_next_upstream off; }
                    }
                }
                """)
            nginx = try ChildProcess(["-c", folder + "/nginx.conf"], executable: "/usr/sbin/nginx")
            for _ in 0..<200 {
                if let answer = try? RemoteSite(port: portN, database: database).get("/healthz"), answer.status == 200 {
                    return
                }
                usleep(25_000)
            }
            throw TestFailure("nginx did not start: \(nginx?.standardError ?? "")")
        }

        var siteA: RemoteSite { RemoteSite(port: portA, database: database) }
        var siteB: RemoteSite { RemoteSite(port: portB, database: database) }
        var front: RemoteSite { RemoteSite(port: portN, database: database) }

        func admin(on site: RemoteSite) throws -> Player {
            let admin = Player(site)
            try admin.get("/admin/login")
            let signedIn = try admin.post("/admin/login", "name=admin&password=\(adminPassword.addingFormEncoding)")
            guard signedIn.status == 303 else { throw TestFailure("admin sign-in: \(signedIn.status)") }
            return admin
        }

        deinit {
            nginx?.signal(SIGTERM)
            nginx?.wait(timeout: 5)
        }
    }

    /// Seconds until `condition` holds, polling every 20 ms; nil after `limit`.
    static func time(within limit: Double, _ condition: () throws -> Bool) rethrows -> Double? {
        let start = csysNow()
        while csysNow() - start < limit {
            if try condition() { return csysNow() - start }
            usleep(20_000)
        }
        return nil
    }

    @Test func hotfixesGamesCheatsAndMaintenanceAgreeAcrossInstances() throws {
        let deployment = try Deployment()
        // A hotfix saved through A is what B serves.
        let adminA = try deployment.admin(on: deployment.siteA)
        #expect(try deployment.siteB.get("/").text.contains("Shared Arcade") == false)
        try adminA.get("/admin/hotfixes")
        let saved = try adminA.post("/admin/hotfixes", "key=home.heading&language=*&value=Shared+Arcade&confirm=1")
        #expect(saved.status == 303, "\(saved.status) \(saved.text.prefix(300))")
        let seen = Self.time(within: 2) { (try? deployment.siteB.get("/").text.contains("Shared Arcade")) == true }
        #expect(seen != nil && seen! < 1, "B served the hotfix after \(String(describing: seen)) s")

        // A Mastermind game played through nginx, each request to the other instance: every guess counts once.
        let player = Player(deployment.front)
        try player.get("/")
        try player.startMastermind()
        let secret = try player.secret()
        for n in 1...4 {
            let answer = try player.post("/mastermind/guess", "guess=\(wrong(secret, n * 9))")
            #expect(answer.status == 303 || answer.status == 200, "guess \(n): \(answer.status)")
        }
        #expect(try player.post("/mastermind/guess", "guess=\(secret)").status < 400)
        let db = try Database(location: deployment.database)
        let game = try #require(try db.first("SELECT id, status FROM mastermind_games ORDER BY id DESC LIMIT 1"))
        #expect(game.string("status") == "won")
        #expect(
            try db.first("SELECT COUNT(*) AS n FROM mastermind_guesses WHERE game = ?", [game["id"]])?.int("n") == 5)

        // The Konami code, its actions alternating between the instances, is found once.
        var last: JSONValue = .null
        for pair in CheatSiteTests.konami {
            let parts = pair.split(separator: "=").map(String.init)
            last = try JSONParser.parse(try player.post("/cheats/actions", "kind=\(parts[0])&value=\(parts[1])").text)
        }
        #expect(last["state"]?.string == "matched", "\(last)")
        #expect(try db.first("SELECT COUNT(*) AS n FROM once_marks WHERE task = 'cheat.konami'")?.int("n") == 1)

        // Maintenance switched on through B (the admin's session cookie from A works there): A answers 503 soon.
        let adminB = Player(deployment.siteB)
        adminB.cookies = adminA.cookies
        try adminB.get("/admin/maintenance")
        #expect(
            try adminB.post("/admin/maintenance", "platform=web&switch=on&confirm=1&message_en=Back+soon").status == 303
        )
        let closed = Self.time(within: 2) { (try? deployment.siteA.get("/mastermind").status) == 503 }
        #expect(closed != nil, "A still served the game 2 s after maintenance was switched on through B")
    }

    /// A photo uploaded through A is served by B, which never had the file.
    @Test func aPhotoUploadedThroughOneInstanceIsServedByTheOther() throws {
        let deployment = try Deployment()
        let admin = try deployment.admin(on: deployment.siteA)
        try admin.get("/admin/people")
        let added = try admin.upload(
            "/admin/people", [("first", "Zed"), ("last", "Quill"), ("title", "Engineer")],
            files: [UploadFile(field: "photo", name: "zed.png", type: "image/png", bytes: Images.png)])
        #expect(added.status == 303, "\(added.status)")
        let list = try admin.get("/admin/people").text
        // The only uploaded photo (the bundled people's are under /headshots/).
        let at = try #require(list.firstRange(of: "src=\"/photos/"))
        let photo = try #require(Player.attribute("src", in: String(list[at.lowerBound...])))
        let name = String(photo.dropFirst("/photos/".count))
        #expect(access(deployment.scratch.path + "/photos-b/" + name, F_OK) != 0)
        let served = try deployment.siteB.get(photo)
        #expect(served.status == 200)
        #expect(served.body == Images.png)
        #expect(access(deployment.scratch.path + "/photos-b/" + name, F_OK) == 0, "B keeps a copy")
        // The person is in B's directory too.
        #expect(Self.time(within: 2) { (try? Player(deployment.siteB).get("/namegame/normal").status) == 200 } != nil)
    }
}
