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
        let lines = child.standardOutput.split(separator: "\n").filter { $0.contains("\"msg\":\"access\"") }
        #expect(lines.count == 2, "\(child.standardOutput)")
        let first = String(lines.first ?? "")
        #expect(
            first.hasPrefix("{\"time\":\"20")
                && first.contains("Z\",\"level\":\"info\",\"msg\":\"access\",\"client\":\"127.0.0.1\""), "\(first)")
        #expect(first.contains("\"method\":\"GET\",\"path\":\"/healthz?token&page\",\"status\":200,\"bytes\":2,"))
        #expect(first.contains("\"request_id\":\"edge-42.a\"}"))
        #expect(!child.standardOutput.contains("hunter2"), "no query values")
        #expect(String(lines.last ?? "").contains("\"request_id\":\"\(made)\"}"))
    }

    @Test func versionNamesTheReleaseAndItsCommit() throws {
        let child = try ChildProcess(["--version"])
        #expect(child.wait(timeout: 30) == 0)
        let line = child.standardOutput
        #expect(line.hasPrefix("arcade ") && line.contains(" (commit ") && line.hasSuffix(")\n"), "\(line)")
        #expect(line.split(separator: " ")[1].split(separator: ".").count == 3, "a release number: \(line)")
    }

    /// From `/`, with nothing but `--share-dir`, the site finds its templates, strings, constants and the files
    /// the constants name (the people and cheats files).
    @Test func servesFromAnotherFolderWithTheShareDirectory() throws {
        let db = ScratchDirectory()
        var cwd = [CChar](repeating: 0, count: 4096)
        let repo = String(cString: getcwd(&cwd, cwd.count))
        let child = try ChildProcess(
            [
                "-c", "cd / && exec \"$0\" serve --port 0 --share-dir \"$1\" --db \"$2\"", ChildProcess.arcadeBinary,
                repo, db.path + "/s.sqlite",
            ], executable: "/bin/sh")
        let port = try child.waitForPort(timeout: 60)
        let client = try RawClient(port: port)
        client.send("GET /namegame HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try client.readResponse().status == 200)
        client.send("GET /css/site.css HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try client.readResponse().status == 200)
        child.signal(SIGTERM)
        #expect(child.wait(timeout: 30) == 0, "\(child.standardError)")
    }

    /// A start that fails on a missing file has not made the admin account: its one showing is not spent.
    @Test func aFailedStartMakesNoAdmin() throws {
        let db = ScratchDirectory()
        let child = try ChildProcess(["--port", "0", "--db", db.path + "/f.sqlite", "--templates", "/nonexistent"])
        #expect(child.wait(timeout: 30) == 1)
        #expect(!(child.standardOutput + child.standardError).contains("admin"), "\(child.standardOutput)")
        let again = try ChildProcess(["admin", "list", "--db", db.path + "/f.sqlite"])
        #expect(again.wait(timeout: 30) == 0)
        #expect(again.standardOutput.isEmpty, "no admin yet: \(again.standardOutput)")
    }

    /// Under systemd (`Type=notify`) Arcade says READY=1 once it accepts connections, and STOPPING=1 on its way out.
    @Test func tellsSystemdWhenReadyAndWhenStopping() throws {
        let db = ScratchDirectory()
        let path = db.path + "/notify"
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        #expect(socket >= 0)
        defer { close(socket) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        let child = try ChildProcess(
            ["--port", "0", "--db", db.path + "/n.sqlite"], environment: ["NOTIFY_SOCKET": path])
        let ready = Self.datagram(socket, timeout: 60)
        #expect(ready.contains("READY=1"), "\(ready)")
        // Ready means serving: the port the server printed answers at once.
        let client = try RawClient(port: try child.waitForPort())
        client.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try client.readResponse().status == 200)
        child.signal(SIGTERM)
        #expect(Self.datagram(socket, timeout: 30).contains("STOPPING=1"))
        #expect(child.wait(timeout: 30) == 0)
    }

    private static func datagram(_ socket: Int32, timeout: Int32) -> String {
        var poll = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard Glibc.poll(&poll, 1, timeout * 1000) == 1 else { return "" }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(socket, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
    }
}
