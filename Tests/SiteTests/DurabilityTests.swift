import TestSupport
import Testing
import Crypto
import Storage
#if canImport(Glibc)
import Glibc
#endif

@Suite("Acknowledged writes survive kill -9")
struct DurabilityTests {
    /// The player id inside a signed `arcade_player` cookie.
    static func playerID(_ response: WireResponse) -> String? {
        guard let cookie = response.headers.first(where: { $0.0 == "Set-Cookie" && $0.1.hasPrefix("arcade_player=") })?.1 else { return nil }
        let value = cookie.dropFirst("arcade_player=".count).prefix { $0 != ";" }
        guard let payload = value.split(separator: ".").first, let bytes = Base64URL.decode(String(payload)) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: [40, 150, 400])
    func everyAcknowledgedPlayerIsInTheDatabase(_ killAfter: Int) throws {
        let scratch = ScratchDirectory()
        let database = scratch.path + "/durable.sqlite"
        let child = try ChildProcess(["--port", "0", "--db", database, "--access-log", "off"])
        let port = try child.waitForPort()

        // Four connections, each with many requests in flight; every request
        // without a cookie makes a new player, acknowledged by its Set-Cookie.
        let clients = try (0..<4).map { _ in try RawClient(port: port) }
        for client in clients {
            client.send(String(repeating: "GET / HTTP/1.1\r\nHost: t\r\n\r\n", count: 200))
        }
        var acknowledged: [String] = []
        var killed = false
        outer: while true {
            var progressed = false
            for client in clients {
                guard let response = try? client.readResponse(timeout: killed ? 0.5 : 5) else { continue }
                progressed = true
                #expect(response.status == 200)
                if let id = Self.playerID(response) { acknowledged.append(id) }
                if !killed && acknowledged.count >= killAfter {
                    child.signal(SIGKILL)
                    killed = true
                }
            }
            // After the kill, drain what was already sent: it counts too.
            if killed && !progressed { break outer }
            if !killed && !progressed { break outer }
        }
        #expect(killed, "the server was killed mid-stream")
        #expect(child.wait(timeout: 5) == 128 + SIGKILL)

        let db = try Database(path: database)
        let stored = Set(try db.query("SELECT id FROM players").compactMap { $0.string("id") })
        let lost = acknowledged.filter { !stored.contains($0) }
        #expect(lost.isEmpty, "\(lost.count) of \(acknowledged.count) acknowledged players were lost")
        #expect(acknowledged.count >= killAfter)
    }
}

@Suite("Start-up refuses broken files")
struct StartupTests {
    func copyTree(_ from: String, _ to: String) { _ = system("cp -r '\(from)' '\(to)'") }

    @Test func templateSyntaxErrorNamesFileLineAndColumn() throws {
        let scratch = ScratchDirectory()
        copyTree("Templates", scratch.path + "/Templates")
        scratch.write("Templates/home.mustache", "<h1>{{t.home.heading}}</h1>\n<ul>\n  {{#games}}\n  <li>{{name}}</li>\n</ul>\n")
        let child = try ChildProcess(["--port", "0", "--db", scratch.path + "/a.sqlite", "--templates", scratch.path + "/Templates"])
        #expect(child.wait(timeout: 10) == 1)
        #expect(child.standardError.contains("Templates/home.mustache:3:3: expected {{/games}} before the end of the template"),
                "\(child.standardError)")
    }

    @Test func malformedConstantsStopStartup() throws {
        let scratch = ScratchDirectory()
        scratch.write("Config/Constants.plist", "<plist><dict><key>mastermind.attempts</key><integer>ten</integer></dict></plist>")
        let child = try ChildProcess(["--port", "0", "--db", scratch.path + "/a.sqlite", "--config", scratch.path + "/Config"])
        #expect(child.wait(timeout: 10) == 1)
        #expect(child.standardError.contains("Constants.plist:1:"), "\(child.standardError)")
        #expect(child.standardError.contains("not a whole number"))
    }

    @Test func brokenStringsFileStopsStartup() throws {
        let scratch = ScratchDirectory()
        copyTree("Localizations", scratch.path + "/Localizations")
        scratch.write("Localizations/de.lproj/Localizable.strings", "\"a\" = \"b\"\n\"c\" = \"d\";\n")
        let child = try ChildProcess(["--port", "0", "--db", scratch.path + "/a.sqlite", "--localizations", scratch.path + "/Localizations"])
        #expect(child.wait(timeout: 10) == 1)
        #expect(child.standardError.contains("de.lproj/Localizable.strings:2:1: expected ';'"), "\(child.standardError)")
    }

    @Test func malformedPeopleStopStartup() throws {
        let scratch = ScratchDirectory()
        _ = system("cp -r Config '\(scratch.path)/Config'")
        scratch.write("Config/people.json", "[\n  {\"id\": \"a\", \"firstName\": \"Ann\",}\n]\n")
        scratch.write("Config/Constants_broken.plist",
                      "<plist><dict><key>namegame.profiles</key><string>\(scratch.path)/Config/people.json</string></dict></plist>")
        let child = try ChildProcess(["--port", "0", "--db", scratch.path + "/a.sqlite", "--config", scratch.path + "/Config",
                                      "--env", "broken"])
        #expect(child.wait(timeout: 10) == 1)
        #expect(child.standardError.contains("people.json:2:"), "\(child.standardError)")
    }

    @Test func corruptDatabaseStopsStartup() throws {
        let scratch = ScratchDirectory()
        scratch.write("bad.sqlite", String(repeating: "this is not sqlite ", count: 500))
        let child = try ChildProcess(["--port", "0", "--db", scratch.path + "/bad.sqlite"])
        #expect(child.wait(timeout: 10) == 1)
        #expect(child.standardError.contains("bad.sqlite") && child.standardError.contains("not a database"), "\(child.standardError)")
    }

    @Test func stringsCommand() throws {
        let ok = try ChildProcess(["strings", "Localizations/en.lproj/Localizable.strings"])
        #expect(ok.wait(timeout: 10) == 0)
        #expect(ok.standardOutput.hasPrefix("{\n  \"") && ok.standardOutput.contains("\n  \"site.name\": \"Arcade\",\n"))
        let scratch = ScratchDirectory()
        scratch.write("broken.strings", "\"a\" = \"1\";\n\"b\" = \"2\"\n\"c\" = \"3\";\n")
        let bad = try ChildProcess(["strings", scratch.path + "/broken.strings"])
        #expect(bad.wait(timeout: 10) == 1)
        #expect(bad.standardError.contains("broken.strings:3:1: expected ';' after the value of \"b\""))
    }
}
