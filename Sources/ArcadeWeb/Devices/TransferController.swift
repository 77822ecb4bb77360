import ArcadeStore
import HTTP
import Localization
import Templates

/// "No passkey? Use a code": a device shows a one-time code and its QR code, another types it (or scans it) and
/// becomes that player, its own progress merged in. Plain forms: no script needed.
struct TransferController: Sendable {
    let codes: TransferCodes
    let once: OnceStore
    let pages: Pages
    let identity: Identity
    let publicHost: String?
    /// Tries per client address, and per code (its first three characters) and address, before a wait.
    let addresses: TokenBuckets
    let perCode: TokenBuckets
    let clock: @Sendable () -> Double

    func addRoutes(to routes: PlayerRoutes) {
        routes.actions.post("/progress/transfer", use: make)
        routes.actions.post("/progress/transfer/use", use: use)
    }

    func make(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let t = pages.localizer.strings(for: visitor.language)
        let code = try codes.make(for: visitor.player, now: Int64(clock() * 1000))
        // The link carries the code after `#`, which browsers never send: it reaches no server's log.
        let host = publicHost.map { "https://" + $0 } ?? "http://" + (request.headers["Host"] ?? "localhost")
        let link = host + "/progress#transfer=" + code.filter { $0 != "-" }
        let qr = QRCode(Array(link.utf8))
        return pages.render(
            "transfer-code", title: t.string("transfer.title"), for: visitor, path: "/progress/transfer",
            section: "progress",
            data: [
                "code": .string(code), "spelled": .string(code.map(String.init).joined(separator: " ")),
                "qr": qr.map { .object(["side": .int($0.size + 8), "path": .string($0.svgPath())]) } ?? .null,
            ])
    }

    func use(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        if let seconds = addresses.take(ClientAddress.limitKey(request.remoteAddress)) {
            throw PageError(.tooManyRequests, "transfer.error.wait", retryAfter: seconds)
        }
        guard let code = TransferCodes.normalize(request.form?["code"] ?? "") else { return refused("wrong") }
        // Per code and address: one address cannot lock another's code out by trying its first characters.
        if let seconds = perCode.take(String(code.prefix(3)) + "|" + ClientAddress.limitKey(request.remoteAddress)) {
            throw PageError(.tooManyRequests, "transfer.error.wait", retryAfter: seconds)
        }
        let now = Int64(clock() * 1000)
        guard let owner = try codes.owner(of: code, now: now) else { return refused("wrong") }
        // A device that has played joins the code's player with all it has (its passkeys too): only once its player
        // says so, on a page that says what happens (a link with a code filled in was one click from it).
        if owner != visitor.playerID, request.form?["confirm"] != "1",
            try !visitor.isNew && once.hasRow(visitor.playerID)
        {
            let t = pages.localizer.strings(for: visitor.language)
            return pages.render(
                "transfer-confirm", title: t.string("transfer.confirm.title"), for: visitor,
                path: "/progress/transfer/use", section: "progress",
                data: ["code": .string(String(code.prefix(4)) + "-" + String(code.dropFirst(4)))])
        }
        switch try codes.use(code, device: visitor.playerID, now: now) {
        case .failure(.own): return refused("own")
        case .failure(.wrong): return refused("wrong")
        case .success(let (player, moved)):
            for forgotten in [player.id, visitor.playerID] { once.cache.records[PlayerKey(forgotten)] = nil }
            var response = Response.redirect(
                to: "/progress?passkey=" + PlayerMerge.status(moved) + "#passkeys")
            response.setCookie(identity.cookie(for: player))
            return response
        }
    }

    /// Back to "your progress", saying why; nothing was written.
    private func refused(_ why: String) -> Response { .redirect(to: "/progress?transfer=\(why)#transfer") }

    /// The code section of `/progress`.
    static func section(_ request: Request, _ visitor: Visitor, _ t: LanguageStrings) -> TemplateValue {
        let said = request.query["transfer"].flatMap { ["wrong", "own"].contains($0) ? $0 : nil }
        return .object([
            "error": said.map { .string(t.string("transfer.error.\($0)")) } ?? .null,
            "canMake": .bool(!visitor.isNew),
        ])
    }
}
