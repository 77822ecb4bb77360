import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Start-up refuses broken files")
struct StartupTests {
    func copyTree(_ from: String, _ to: String) { _ = system("cp -r '\(from)' '\(to)'") }

    @Test func templateSyntaxErrorNamesFileLineAndColumn() throws {
        let scratch = ScratchDirectory()
        copyTree("Templates", scratch.path + "/Templates")
        scratch.write(
            "Templates/home.mustache", "<h1>{{t.home.heading}}</h1>\n<ul>\n  {{#games}}\n  <li>{{name}}</li>\n</ul>\n")
        let child = try ChildProcess([
            "--port", "0", "--db", scratch.path + "/a.sqlite", "--templates", scratch.path + "/Templates",
        ])
        #expect(child.wait(timeout: 10) == 1)
        #expect(
            child.standardError.contains(
                "Templates/home.mustache:3:3: expected {{/games}} before the end of the template"),
            "\(child.standardError)")
    }

    @Test func malformedConstantsStopStartup() throws {
        let scratch = ScratchDirectory()
        scratch.write(
            "Config/Constants.plist", "<plist><dict><key>mastermind.attempts</key><integer>ten</integer></dict></plist>"
        )
        let child = try ChildProcess([
            "--port", "0", "--db", scratch.path + "/a.sqlite", "--config", scratch.path + "/Config",
        ])
        #expect(child.wait(timeout: 10) == 1)
        #expect(child.standardError.contains("Constants.plist:1:"), "\(child.standardError)")
        #expect(child.standardError.contains("not a whole number"))
    }

    @Test func constantsOutOfRangeStopStartup() throws {
        let scratch = ScratchDirectory()
        _ = system("cp -r Config '\(scratch.path)/Config'")
        scratch.write(
            "Config/Constants_wide.plist",
            "<plist><dict><key>mastermind.attempts</key><integer>100000</integer></dict></plist>")
        let child = try ChildProcess([
            "--port", "0", "--db", scratch.path + "/a.sqlite", "--config", scratch.path + "/Config", "--env", "wide",
        ])
        #expect(child.wait(timeout: 10) == 1)
        #expect(
            child.standardError.contains("Constants_wide.plist: 'mastermind.attempts' must be 1…30"),
            "\(child.standardError)")
    }

    @Test func randomOrgURLMustBeOnTheOperatorsList() throws {
        let scratch = ScratchDirectory()
        _ = system("cp -r Config '\(scratch.path)/Config'")
        scratch.write(
            "Config/Constants_elsewhere.plist",
            "<plist><dict><key>mastermind.randomOrgURL</key><string>https://rng.example</string></dict></plist>")
        let arguments = [
            "--port", "0", "--db", scratch.path + "/a.sqlite", "--config", scratch.path + "/Config", "--env",
            "elsewhere",
        ]
        let refused = try ChildProcess(arguments)
        #expect(refused.wait(timeout: 10) == 1)
        #expect(refused.standardError.contains("must be https://www.random.org"), "\(refused.standardError)")
        // The operator names the host: the same file starts.
        let allowed = try ChildProcess(arguments + ["--random-hosts", "rng.example"])
        #expect(try allowed.waitForPort() > 0)
        allowed.signal(SIGTERM)
        #expect(allowed.wait(timeout: 10) == 0)
    }

    @Test func brokenStringsFileStopsStartup() throws {
        let scratch = ScratchDirectory()
        copyTree("Localizations", scratch.path + "/Localizations")
        scratch.write("Localizations/de.lproj/Localizable.strings", "\"a\" = \"b\"\n\"c\" = \"d\";\n")
        let child = try ChildProcess([
            "--port", "0", "--db", scratch.path + "/a.sqlite", "--localizations", scratch.path + "/Localizations",
        ])
        #expect(child.wait(timeout: 10) == 1)
        #expect(
            child.standardError.contains("de.lproj/Localizable.strings:2:1: expected ';'"), "\(child.standardError)")
    }

    @Test func malformedPeopleStopStartup() throws {
        let scratch = ScratchDirectory()
        _ = system("cp -r Config '\(scratch.path)/Config'")
        scratch.write("Config/people.json", "[\n  {\"id\": \"a\", \"firstName\": \"Ann\",}\n]\n")
        scratch.write(
            "Config/Constants_broken.plist",
            "<plist><dict><key>namegame.profiles</key><string>\(scratch.path)/Config/people.json</string></dict></plist>"
        )
        let child = try ChildProcess([
            "--port", "0", "--db", scratch.path + "/a.sqlite", "--config", scratch.path + "/Config",
            "--env", "broken",
        ])
        #expect(child.wait(timeout: 10) == 1)
        #expect(child.standardError.contains("people.json:2:"), "\(child.standardError)")
    }

    @Test func corruptDatabaseStopsStartup() throws {
        let scratch = ScratchDirectory()
        scratch.write("bad.sqlite", String(repeating: "this is not sqlite ", count: 500))
        let child = try ChildProcess(["--port", "0", "--db", scratch.path + "/bad.sqlite"])
        #expect(child.wait(timeout: 10) == 1)
        #expect(
            child.standardError.contains("bad.sqlite") && child.standardError.contains("not a database"),
            "\(child.standardError)")
    }

    @Test func stringsCommand() throws {
        let ok = try ChildProcess(["strings", "Localizations/en.lproj/Localizable.strings"])
        #expect(ok.wait(timeout: 10) == 0)
        #expect(
            ok.standardOutput.hasPrefix("{\n  \"") && ok.standardOutput.contains("\n  \"site.name\": \"Arcade\",\n"))
        let scratch = ScratchDirectory()
        scratch.write("broken.strings", "\"a\" = \"1\";\n\"b\" = \"2\"\n\"c\" = \"3\";\n")
        let bad = try ChildProcess(["strings", scratch.path + "/broken.strings"])
        #expect(bad.wait(timeout: 10) == 1)
        #expect(bad.standardError.contains("broken.strings:3:1: expected ';' after the value of \"b\""))
    }
}
