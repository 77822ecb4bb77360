import Testing

@testable import HTTP

@Suite("HTTPHeaders")
struct HTTPHeadersTests {
    @Test func sharesNameIgnoresCaseAndComparesWholeNames() {
        let block = HTTPHeaders([("Cache-Control", "private"), ("X-Frame-Options", "DENY")])
        #expect(HTTPHeaders([("cache-control", "no-store")]).sharesName(with: block))
        #expect(
            HTTPHeaders([("Content-Type", "text/html"), ("X-FRAME-OPTIONS", "SAMEORIGIN")]).sharesName(with: block))
        // Same length, other name; a prefix; nothing at all.
        #expect(!HTTPHeaders([("Cache-Contrl", "x"), ("Cache", "x")]).sharesName(with: block))
        #expect(!HTTPHeaders([("Cache-Controls", "x")]).sharesName(with: block))
        #expect(!HTTPHeaders().sharesName(with: block))
    }

    @Test func setReplacesEveryFieldOfTheNameAndKeepsTheRest() {
        var headers = HTTPHeaders([("Vary", "Cookie"), ("Content-Type", "text/plain"), ("vary", "Accept")])
        headers.set("VARY", "Accept-Language")
        #expect(headers.values("Vary") == ["Accept-Language"])
        #expect(headers["Content-Type"] == "text/plain")
        headers.set("X-New", "1")  // absent: appended
        #expect(headers.count == 3 && headers["x-new"] == "1")
        headers.remove("Nothing-Here")
        #expect(headers.count == 3)
    }
}
