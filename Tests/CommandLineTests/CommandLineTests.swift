import CSystem
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("The arcade command")
struct CommandLineTests {
    @Test func helpDescribesEveryOption() throws {
        let child = try ChildProcess(["--help"])
        #expect(child.wait(timeout: 10) == 0)
        let help = child.standardOutput
        for word in [
            "serve", "--host", "--port", "--workers", "--db", "--public", "ARCADE_PORT", "ARCADE_DB",
            "--header-timeout", "--access-log", "8080", "127.0.0.1",
        ] {
            #expect(help.contains(word), "help mentions \(word)")
        }
    }

    @Test(arguments: [
        ["--bogus"], ["--port", "seventy"], ["--port"], ["--workers", "0"], ["frobnicate"],
        ["serve", "--idle-timeout", "-1"], ["--access-log", "maybe"],
        ["--host", "example.com"], ["--host", "300.1.1.1"], ["--max-body", "lots"],
    ])
    func badFlagsPrintUsageAndExit2(_ arguments: [String]) throws {
        let child = try ChildProcess(arguments)
        #expect(child.wait(timeout: 10) == 2)
        #expect(child.standardError.contains("USAGE"))
        #expect(child.standardError.contains("arcade:"))
    }

    @Test func badEnvironmentVariableExits2() throws {
        let child = try ChildProcess([], environment: ["ARCADE_PORT": "99999"])
        #expect(child.wait(timeout: 10) == 2)
        #expect(child.standardError.contains("ARCADE_PORT"))
    }

    @Test func servesAndStopsGracefullyOnSIGTERM() throws {
        let db = ScratchDirectory()
        let child = try ChildProcess(["serve", "--port", "0", "--db", db.path + "/a.sqlite", "--public", "Public"])
        let port = try child.waitForPort()
        let client = try RawClient(port: port)
        client.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        let health = try client.readResponse()
        #expect(health.status == 200)
        #expect(health.text == "ok")
        #expect(access(db.path + "/a.sqlite", F_OK) == 0, "the database file was created")

        let start = csysNow()
        child.signal(SIGTERM)
        #expect(child.wait(timeout: 5) == 0)
        #expect(csysNow() - start < 5)
        #expect(try client.closes(within: 1))
        #expect(child.standardOutput.contains("GET /healthz 200 2 "), "access log line")
    }

    @Test func environmentConfiguresTheServer() throws {
        let db = ScratchDirectory()
        let child = try ChildProcess(
            [],
            environment: [
                "ARCADE_PORT": "0", "ARCADE_DB": db.path + "/b.sqlite",
                "ARCADE_ACCESS_LOG": "off", "ARCADE_PUBLIC": "Public",
            ])
        let port = try child.waitForPort()
        let client = try RawClient(port: port)
        client.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try client.readResponse().status == 200)
        child.signal(SIGINT)
        #expect(child.wait(timeout: 5) == 0)
        #expect(!child.standardOutput.contains("GET /healthz"), "access log switched off")
    }

    @Test func servesOnIPv6Loopback() throws {
        let db = ScratchDirectory()
        let child = try ChildProcess(["--host", "::1", "--port", "0", "--db", db.path + "/c.sqlite"])
        let end = csysNow() + 10
        var port: Int?
        while port == nil && csysNow() < end {
            if let range = child.standardOutput.firstRange(of: "http://[::1]:") {
                port = Int(child.standardOutput[range.upperBound...].prefix { $0.isNumber })
            }
            sleep(seconds: 0.02)
        }
        let fd = csys_connect_tcp("::1", Int32(try #require(port)), 0)
        #expect(fd >= 0)
        if fd >= 0 { close(fd) }
        child.signal(SIGTERM)
        #expect(child.wait(timeout: 5) == 0)
    }

    @Test func portInUseFailsClearly() throws {
        let db = ScratchDirectory()
        let first = try ChildProcess(["--port", "0", "--db", db.path + "/d.sqlite"])
        let port = try first.waitForPort()
        let second = try ChildProcess(["--port", "\(port)", "--db", db.path + "/e.sqlite"])
        #expect(second.wait(timeout: 10) == 1)
        #expect(second.standardError.contains("Address already in use"))
        first.signal(SIGTERM)
        #expect(first.wait(timeout: 5) == 0)
    }

    @Test func unusableDatabaseFailsAtStartup() throws {
        let child = try ChildProcess(["--port", "0", "--db", "/nonexistent-dir/x.sqlite"])
        #expect(child.wait(timeout: 10) == 1)
        #expect(child.standardError.contains("database"))
    }

    /// `--access-log json`: one JSON object a line, the query's values left out, and the request id taken from a
    /// well-formed `X-Request-Id` or made, and sent back either way.
    @Test func jsonAccessLogWithRequestIDs() throws {
        let db = ScratchDirectory()
        let child = try ChildProcess(["--port", "0", "--db", db.path + "/j.sqlite", "--access-log", "json"])
        let port = try child.waitForPort()
        let client = try RawClient(port: port)
        client.send("GET /healthz?token=hunter2&page=2 HTTP/1.1\r\nHost: t\r\nX-Request-Id: edge-42.a\r\n\r\n")
        let given = try client.readResponse()
        #expect(given.header("X-Request-Id") == "edge-42.a")
        client.send("GET /healthz HTTP/1.1\r\nHost: t\r\nX-Request-Id: has spaces \"and quotes\"\r\n\r\n")
        let made = try #require(try client.readResponse().header("X-Request-Id"))
        #expect(made != "has spaces \"and quotes\"" && !made.isEmpty)
        child.signal(SIGTERM)
        #expect(child.wait(timeout: 5) == 0)
        let lines = child.standardOutput.split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(lines.count == 2, "\(child.standardOutput)")
        let first = String(lines.first ?? "")
        #expect(first.hasPrefix("{\"time\":\"20") && first.contains("Z\",\"client\":\"127.0.0.1\""), "\(first)")
        #expect(first.contains("\"method\":\"GET\",\"path\":\"/healthz?token&page\",\"status\":200,\"bytes\":2,"))
        #expect(first.contains("\"request_id\":\"edge-42.a\"}"))
        #expect(!child.standardOutput.contains("hunter2"), "no query values")
        #expect(String(lines.last ?? "").contains("\"request_id\":\"\(made)\"}"))
    }
}
