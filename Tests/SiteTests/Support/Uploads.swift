import Files
import Storage
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

#if canImport(Glibc)
import Glibc
#endif

/// A file in a multipart upload.
struct UploadFile {
    let field: String
    let name: String
    let type: String
    let bytes: [UInt8]
}

extension Player {
    /// Posts a `multipart/form-data` form as a browser does, the CSRF token first.
    @discardableResult
    func upload(_ path: String, _ fields: [(String, String)], files: [UploadFile] = []) throws -> WireResponse {
        let boundary = "----arcadeTestBoundary7MA4YWxk"
        var body: [UInt8] = []
        for (name, value) in [("csrf", csrf)] + fields {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        for file in files {
            body += Array(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.field)\"; filename=\"\(file.name)\"\r\nContent-Type: \(file.type)\r\n\r\n"
                    .utf8)
            body += file.bytes + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        let response = try server.exchange(
            Array(
                "POST \(path) HTTP/1.1\r\nHost: t\r\nCookie: \(cookieHeader)\r\nContent-Type: multipart/form-data; boundary=\(boundary)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
                    .utf8) + body, from: address)
        absorb(response)
        return response
    }

    /// Signs in as a new admin.
    func signInAsAdmin() throws {
        guard let site = server as? SiteServer else { throw TestFailure("an admin is created in-process only") }
        try site.site.admins.create(name: "alice", password: "correct horse battery")
        try get("/admin/login")
        let response = try post("/admin/login", "name=alice&password=correct+horse+battery")
        #expect(response.status == 303)
    }
}

/// Tiny but genuine images: the magic bytes are what the site checks.
enum Images {
    static let png: [UInt8] =
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        + [UInt8](repeating: 1, count: 40)
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 2, count: 40)
    static let svg = Array("<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>".utf8)
}
