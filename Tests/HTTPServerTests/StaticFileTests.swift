import HTTP
import HTTPServer
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Static files")
struct StaticFileTests {
    let outside = ScratchDirectory()
    let root = ScratchDirectory()

    init() {
        outside.write("secret.txt", "top secret")
        root.write("index.html", "<!doctype html><title>home</title>")
        root.write("css/site.css", "body { color: black; }")
        root.write("js/app.js", "console.log(1)")
        root.write(".env", "PASSWORD=x")
        root.write("big.bin", (0..<600_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        symlink(outside.path + "/secret.txt", root.path + "/escape.txt")
        symlink(outside.path, root.path + "/escape-dir")
        symlink(root.path + "/css/site.css", root.path + "/alias.css")
    }

    func withServer(_ body: (TestServer) throws -> Void) throws {
        let files = try StaticFiles(root: root.path)
        let router = Router()
        router.fallback = files.handler
        let server = try TestServer(router: router)
        defer { server.stop() }
        try body(server)
    }

    @Test func servesFilesWithTypesAndValidators() throws {
        try withServer { server in
            let client = try server.client()
            client.send(get("/css/site.css"))
            let css = try client.readResponse()
            #expect(css.status == 200)
            #expect(css.text == "body { color: black; }")
            #expect(css.header("Content-Type") == "text/css; charset=utf-8")
            #expect(css.header("Cache-Control") != nil)
            #expect(css.header("Last-Modified")?.hasSuffix("GMT") == true)
            let etag = try #require(css.header("ETag"))

            client.send(get("/css/site.css", "If-None-Match: \(etag)\r\n"))
            let cached = try client.readResponse()
            #expect(cached.status == 304)
            #expect(cached.body.isEmpty)
            #expect(cached.header("ETag") == etag)

            client.send(get("/css/site.css", "If-None-Match: \"other\", \(etag)\r\n"))
            #expect(try client.readResponse().status == 304)
            client.send(get("/css/site.css", "If-None-Match: \"other\"\r\n"))
            #expect(try client.readResponse().status == 200)
            client.send(get("/css/site.css", "If-Modified-Since: \(css.header("Last-Modified")!)\r\n"))
            #expect(try client.readResponse().status == 304)

            client.send(get("/js/app.js"))
            #expect(try client.readResponse().header("Content-Type") == "text/javascript; charset=utf-8")
            client.send(get("/"))
            #expect(try client.readResponse().text.contains("<title>home</title>"))
            client.send("HEAD /css/site.css HTTP/1.1\r\nHost: t\r\n\r\n")
            let head = try client.readResponse(head: true)
            #expect(head.header("Content-Length") == "22")
            client.send(get("/alias.css"))
            #expect(try client.readResponse().status == 200, "a symlink that stays inside is fine")
        }
    }

    @Test func largeFilesGoOutWithSendfile() throws {
        try withServer { server in
            let client = try server.client()
            client.send(get("/big.bin"))
            let response = try client.readResponse()
            #expect(response.body.count == 600_000)
            #expect(response.body.enumerated().allSatisfy { $0.element == UInt8(truncatingIfNeeded: $0.offset &* 7) })
            client.send(get("/hello-after"))
            #expect(try client.readResponse().status == 404)
        }
    }

    @Test func changedFilesAreServedFresh() throws {
        try withServer { server in
            let client = try server.client()
            client.send(get("/css/site.css"))
            _ = try client.readResponse()
            root.write("css/site.css", "body { color: red; } /* changed */")
            sleep(seconds: 1.1)
            client.send(get("/css/site.css"))
            #expect(try client.readResponse().text.contains("changed"))
        }
    }

    /// Files above the memory limit stay open while cached: a file replaced by another of the same size and time
    /// (a deploy that renames a new build into place) must not keep answering from the old one.
    @Test func aReplacedOpenFileIsServedFresh() throws {
        let old = [UInt8](repeating: UInt8(ascii: "a"), count: 40_000)
        let new = [UInt8](repeating: UInt8(ascii: "b"), count: 40_000)
        root.write("kept.txt", old)
        try withServer { server in
            let client = try server.client()
            client.send(get("/kept.txt"))
            #expect(try client.readResponse().body == old)
            var times = stat()
            stat(root.path + "/kept.txt", &times)
            root.write("kept.next", new)
            var same = [times.st_atim, times.st_mtim]
            utimensat(AT_FDCWD, root.path + "/kept.next", &same, 0)
            rename(root.path + "/kept.next", root.path + "/kept.txt")
            sleep(seconds: 1.1)
            client.send(get("/kept.txt"))
            #expect(try client.readResponse().body == new)
        }
    }

    /// A file cut short while it is being sent cannot give the length promised: the connection closes at once
    /// (it used to wait for the socket forever, since sendfile reading nothing looked like a full socket).
    @Test func aFileCutShortMidSendClosesTheConnection() throws {
        root.write("huge.bin", [UInt8](repeating: 7, count: 32 << 20))
        try withServer { server in
            let client = try server.client()
            client.send(get("/huge.bin"))
            sleep(seconds: 0.3)  // the server has filled the socket and waits for the client to read
            truncate(root.path + "/huge.bin", 1000)
            let received = try client.drain(timeout: 5)
            #expect(received < 32 << 20)
            let other = try server.client()
            other.send(get("/css/site.css"))
            #expect(try other.readResponse().status == 200, "the server goes on serving")
        }
    }

    @Test(arguments: [
        ("/../escape.txt", 400), ("/css/../../secret.txt", 400), ("/%2e%2e/%2e%2e/etc/passwd", 400),
        ("/css/..%2f..%2fetc%2fpasswd", 400), ("/css%2fsite.css", 400), ("/index.html%00.css", 400),
        ("/..%5c..%5csecret.txt", 400), ("/./index.html", 400),
        ("/escape.txt", 404), ("/escape-dir/secret.txt", 404), ("/.env", 404), ("/%2eenv", 404),
        ("/%252e%252e/secret.txt", 404), ("/nothing-here", 404), ("/%zz", 400),
    ])
    func pathsThatEscapeAreNeverServed(_ path: String, _ status: Int) throws {
        try withServer { server in
            let client = try server.client()
            client.send(get(path))
            let response = try client.readResponse()
            #expect(response.status == status, "\(path)")
            #expect(!response.text.contains("secret") && !response.text.contains("PASSWORD"))
        }
    }

    @Test func onlyGetAndHead() throws {
        try withServer { server in
            let client = try server.client()
            client.send("POST /css/site.css HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 405)
            #expect(response.header("Allow") == "GET, HEAD")
        }
    }
}
