import Testing

@testable import HTTP

@Suite("Router")
struct RouterTests {
    func router() -> Router {
        let r = Router()
        r.get("/games/:id") { .text("game \($0.parameters["id"] ?? "?")") }
        r.post("/games/:id/guess") { .text("guess \($0.parameters["id"] ?? "?")") }
        r.get("/files/*path") { .text("file \($0.parameters["path"] ?? "?")") }
        r.get("/") { _ in .text("home") }
        return r
    }

    func answer(_ method: Method, _ target: String, _ routes: Routes? = nil) -> Response {
        var request = Request(method: method, target: target)
        switch (routes ?? (try! router().build())).handler(for: &request) {
        case .loop(let respond), .pool(let respond): return respond(request)
        case .deferred: return .text("deferred", status: .internalServerError)
        }
    }

    /// As RoutingKit's trie: a literal segment beats a parameter, and a parameter a rest, in whichever order the
    /// routes were added; a path the literal branch cannot finish falls back to the parameter's.
    @Test func literalsMatchBeforeParametersWhateverTheOrder() throws {
        for literalFirst in [true, false] {
            let r = Router()
            let add = [
                { r.get("/people/import") { _ in .text("import") } },
                { r.get("/people/:id") { .text("person \($0.parameters["id"] ?? "?")") } },
                { r.get("/people/*rest") { .text("rest \($0.parameters["rest"] ?? "?")") } },
                { r.post("/people/import/confirm") { _ in .text("confirm") } },
            ]
            for step in literalFirst ? add : add.reversed() { step() }
            let routes = try r.build()
            #expect(body(answer(.get, "/people/import", routes)) == "import")
            #expect(body(answer(.get, "/people/ada", routes)) == "person ada")
            #expect(body(answer(.get, "/people/a/b", routes)) == "rest a/b")
            #expect(body(answer(.post, "/people/import/confirm", routes)) == "confirm")
            #expect(body(answer(.get, "/people/import/confirm", routes)) == "rest import/confirm")
        }
    }

    /// Two routes that could take the same path are refused when the routes are built (at start-up), naming both.
    @Test func routesThatCouldTakeTheSamePathAreRefused() {
        let same = Router()
        same.get("/games/:id") { _ in .text("a") }
        same.get("/games/:id") { _ in .text("b") }
        #expect(throws: RouteConflict.self) { try same.build() }
        let renamed = Router()
        renamed.get("/games/:id") { _ in .text("a") }
        renamed.post("/games/:game/guess") { _ in .text("b") }
        #expect(throws: RouteConflict.self) { try renamed.build() }
        let rests = Router()
        rests.get("/files/*path") { _ in .text("a") }
        rests.get("/files/*other") { _ in .text("b") }
        #expect(throws: RouteConflict.self) { try rests.build() }
        let fine = Router()
        fine.get("/games/:id") { _ in .text("a") }
        fine.post("/games/:id") { _ in .text("b") }
        fine.get("/games/new") { _ in .text("c") }
        #expect(throws: Never.self) { try fine.build() }
    }

    func body(_ r: Response) -> String {
        guard case .bytes(let b) = r.body else { return "" }
        return String(decoding: b, as: UTF8.self)
    }

    @Test func parametersAreDecodedPerSegment() {
        #expect(body(answer(.get, "/games/42")) == "game 42")
        #expect(body(answer(.get, "/games/a%2Fb")) == "game a/b", "an encoded slash stays in its segment")
        #expect(body(answer(.get, "/games/caf%C3%A9?x=1")) == "game café")
        #expect(body(answer(.post, "/games/7/guess")) == "guess 7")
        #expect(body(answer(.get, "/files/css/site.css")) == "file css/site.css")
        #expect(body(answer(.get, "/")) == "home")
    }

    @Test func headFallsBackToGet() {
        #expect(answer(.head, "/games/1").status == .ok)
    }

    @Test func unknownPathIs404() {
        #expect(answer(.get, "/nothing").status == .notFound)
        #expect(answer(.get, "/games/1/extra").status == .notFound)
    }

    @Test func wrongMethodIs405WithAllow() {
        let response = answer(.delete, "/games/1")
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD")
        #expect(answer(.get, "/games/1/guess").headers["Allow"] == "POST")
    }

    @Test func badEscapeIs400() {
        #expect(answer(.get, "/games/%FF").status == .badRequest, "not UTF-8")
    }
}

@Suite("Forms, queries and cookies")
struct FormTests {
    @Test func urlencodedFields() throws {
        let form = try #require(FormFields(urlencoded: "a=1&b=two+words&c=%E2%9C%93&a=2&flag&=empty"))
        #expect(form["a"] == "1")
        #expect(form.all("a") == ["1", "2"])
        #expect(form["b"] == "two words")
        #expect(form["c"] == "✓")
        #expect(form["flag"] == "")
        #expect(form[""] == "empty")
        #expect(form["missing"] == nil)
    }

    @Test func malformedFormsAreRefused() {
        #expect(FormFields(urlencoded: "a=%zz") == nil)
        #expect(FormFields(urlencoded: "a=%C3") == nil, "truncated UTF-8")
        #expect(FormFields(body: [0x61, 0x3D, 0xFF]) == nil)
        #expect(FormFields(urlencoded: String(repeating: "a=1&", count: FormFields.maxFields + 1)) == nil)
    }

    @Test func roundTrip() throws {
        let form = FormFields([("name", "Zoë & co"), ("q", "1+1=2")])
        let again = try #require(FormFields(urlencoded: form.urlencoded))
        #expect(again["name"] == "Zoë & co")
        #expect(again["q"] == "1+1=2")
    }

    @Test func queryFromRequest() {
        let request = Request(method: .get, target: "/s?q=mastermind&page=2")
        #expect(request.query["q"] == "mastermind")
        #expect(request.query["page"] == "2")
    }

    @Test func formBodyNeedsItsContentType() throws {
        let body = Array("guess=0135&name=J%C3%BCrgen".utf8)
        #expect(Request(method: .post, target: "/f", body: body).form == nil, "no Content-Type")
        var headers = HTTPHeaders()
        headers.append("Content-Type", "Application/X-WWW-Form-Urlencoded; charset=UTF-8")
        let form = try #require(Request(method: .post, target: "/f", headers: headers, body: body).form)
        #expect(form["guess"] == "0135")
        #expect(form["name"] == "Jürgen")
        #expect(
            Request(method: .post, target: "/f", headers: headers, body: [0x61, 0x3D, 0xC3]).form == nil,
            "truncated UTF-8")
    }

    @Test func redirectIs303() {
        let response = Response.redirect(to: "/mastermind")
        #expect(response.status.code == 303)
        #expect(response.headers["Location"] == "/mastermind")
    }

    @Test func errorPagesEscapeTheirDetail() {
        guard case .bytes(let body) = Response.error(.badRequest, detail: "<script>").body else {
            Issue.record("no body")
            return
        }
        let text = String(decoding: body, as: UTF8.self)
        #expect(text.contains("&lt;script&gt;"))
        #expect(!text.contains("<script>"))
    }

    @Test func cookies() {
        let parsed = Cookies.parse(["a=1; b=\"quoted\"; junk; =x", "a=2; c=3"])
        #expect(parsed == ["a": "1", "b": "quoted", "c": "3"])
    }

    @Test func setCookieAttributes() {
        let cookie = SetCookie(name: "sid", value: "abc", maxAge: 3600, secure: true, sameSite: .strict)
        #expect(cookie.headerValue == "sid=abc; Path=/; Max-Age=3600; Secure; HttpOnly; SameSite=Strict")
        #expect(SetCookie.expired("sid").headerValue == "sid=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax")
        #expect(!SetCookie.isCookieValue("a;b"))
        #expect(!SetCookie.isToken("a b"))
    }

    @Test func percentEncoding() {
        #expect(URI.encode("a b/c") == "a%20b%2Fc")
        #expect(URI.encode("a b/c", keepSlash: true) == "a%20b/c")
        #expect(URI.decode("%41%42") == "AB")
        #expect(URI.decode("%4") == nil)
        #expect(URI.decodeSegments("/a/%2e%2e/b") == ["a", "..", "b"])
    }

    @Test func headersAreCaseInsensitiveAndOrdered() {
        var headers = HTTPHeaders([("Content-Type", "text/plain"), ("Set-Cookie", "a=1"), ("set-cookie", "b=2")])
        #expect(headers["content-type"] == "text/plain")
        #expect(headers.values("SET-COOKIE") == ["a=1", "b=2"])
        headers.set("Set-Cookie", "c=3")
        #expect(headers.values("Set-Cookie") == ["c=3"])
        var out: [UInt8] = []
        headers.write(into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "Content-Type: text/plain\r\nSet-Cookie: c=3\r\n")
    }
}
