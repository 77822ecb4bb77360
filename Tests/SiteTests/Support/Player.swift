import Storage
import Synchronization
import TestSupport
import Testing

/// A client that keeps cookies and the page's CSRF token, as a browser would.
/// Its cookies and token sit behind a lock: tests send one player's requests from several threads at once.
final class Player: @unchecked Sendable {
    let server: any Endpoint
    private let state = Mutex<(cookies: [String: String], csrf: String)>(([:], ""))
    var cookies: [String: String] {
        get { state.withLock { $0.cookies } }
        set { state.withLock { $0.cookies = newValue } }
    }
    var csrf: String {
        get { state.withLock { $0.csrf } }
        set { state.withLock { $0.csrf = newValue } }
    }
    /// The loopback address this player connects from (127.0.0.x), or nil for 127.0.0.1.
    var address: String?
    /// More headers on every request (a proxy's `X-Forwarded-For`, say).
    var headers: [String: String] = [:]

    init(_ server: any Endpoint, from address: String? = nil) {
        self.server = server
        self.address = address
    }

    var cookieHeader: String { cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ") }

    @discardableResult
    func get(_ path: String) throws -> WireResponse {
        let response = try server.get(
            path, headers: headers.merging(["Cookie": cookieHeader]) { $1 }, from: address)
        absorb(response)
        return response
    }

    @discardableResult
    func post(_ path: String, _ body: String, fragment: Bool = false) throws -> WireResponse {
        var headers = self.headers.merging(["Cookie": cookieHeader]) { $1 }
        if fragment { headers["X-Fragment"] = "board" }
        let response = try server.post(
            path, body: body.isEmpty ? "csrf=\(csrf)" : "csrf=\(csrf)&" + body, headers: headers, from: address)
        absorb(response)
        return response
    }

    func absorb(_ response: WireResponse) {
        let token = response.text.firstRange(of: "name=\"csrf-token\" content=\"").map { range in
            String(response.text[range.upperBound...].prefix { $0 != "\"" })
        }
        state.withLock { state in
            for (name, value) in response.cookies { state.cookies[name] = value }
            if let token { state.csrf = token }
        }
    }

    /// Starts a Mastermind game as the "new game" button does; returns its id (read `secret()` after).
    @discardableResult
    func startMastermind() throws -> String {
        if csrf.isEmpty { try get("/") }
        let board = try post("/mastermind/new", "", fragment: true)
        return try #require(Self.attribute("data-game", in: board.text))
    }

    /// A game whose secret the test chooses (written to the database, as the server keeps it).
    func startMastermind(secret: String) throws -> String {
        let game = try startMastermind()
        _ = try Database(location: server.database).execute(
            "UPDATE mastermind_games SET secret = ? WHERE id = ?", [.text(secret), .integer(try #require(Int64(game)))])
        return game
    }

    /// A Name Game mode's page, pressing Start first if the player has never played it.
    @discardableResult
    func play(_ mode: String) throws -> WireResponse {
        var page = try get("/namegame/\(mode)")
        if page.text.contains("data-start") {
            try post("/namegame/next", "mode=\(mode)")
            page = try get("/namegame/\(mode)")
        }
        // Learn mode introduces someone new before the question about them (a round later): seen, and on until a
        // question.
        while page.text.contains("data-intro"), let round = Player.attribute("data-round", in: page.text) {
            try post("/namegame/meet", "round=\(round)")
            page = try get("/namegame/\(mode)")
        }
        return page
    }

    func secret() throws -> String {
        let db = try Database(location: server.database)
        return try #require(
            try db.first("SELECT secret FROM mastermind_games ORDER BY id DESC LIMIT 1")?.string("secret"))
    }

    static func attribute(_ name: String, in html: String) -> String? {
        html.firstRange(of: "\(name)=\"").map { String(html[$0.upperBound...].prefix { $0 != "\"" }) }
    }
}

/// A wrong guess for a secret (never the secret itself).
func wrong(_ secret: String, _ n: Int) -> String {
    var candidate = String(format4(n))
    if candidate == secret { candidate = String(format4(n + 1)) }
    return candidate
}

func format4(_ n: Int) -> String {
    let digits = (0..<4).map { String((n >> (3 * (3 - $0))) & 7) }
    return digits.joined()
}

extension String {
    var addingFormEncoding: String {
        var out = ""
        for byte in utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: out.unicodeScalars.append(Unicode.Scalar(byte))
            default: out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }
}
