import ArcadeStore
import HTTP
import Interceptions
import Templates

/// Finds the update rule this browser breaks (platform `web`; the OS and its version from the User-Agent) and sets
/// what the layout shows around the page: the visitor's theme and the update banner. A low banner can be dismissed
/// for 24 hours (the once-store remembers); medium and high stay.
struct UpdateNotice: Middleware {
    let interceptions: InterceptionsStore
    let identity: Identity
    let pages: Pages
    let once: OnceStore
    /// The web app's version, compared with the rules' minimum app version.
    let clientVersion: @Sendable () -> String

    func handle(_ request: Request, context: PlayerContext, next: Next<PlayerContext>) throws -> Response {
        var context = context
        let visitor = context.visitor
        context.notice = notice(request)
        let banner = try banner(context.notice, visitor, back: String(request.rawPath))
        if banner != nil { context.visitor = visitor.with { $0.banner = banner } }
        return try next(request, context)
    }

    func notice(_ request: Request) -> Violation? {
        guard let rules = try? interceptions.cachedRules(),
            rules.contains(where: { $0.platform == "web" && $0.active }),
            let app = Version(clientVersion())
        else { return nil }
        // An unrecognized system is held to no OS minimum.
        let client = ClientOS.parse(userAgent: request.headers["User-Agent"] ?? "")
        return UpdateCheck.evaluate(
            rules, platform: "web", app: app, os: client?.version ?? Version("9999")!,
            system: client?.name, language: identity.language(for: request).0)
    }

    private func banner(_ notice: Violation?, _ visitor: Visitor, back: String) throws -> TemplateValue? {
        guard let notice else { return nil }
        let low = notice.rule.restriction == .low
        if low, try once.perform(visitor).once.beenDone(SiteTasks.updateDismissed, scope: .since(86_400)) { return nil }
        let message =
            notice.message.isEmpty
            ? pages.localizer.string("update.required.text", language: visitor.language)
            : notice.message
        return .object([
            "level": .string(notice.rule.restriction.name), "message": .string(message),
            "dismissible": .bool(low), "back": .string(OnceController.localPath(back)),
        ])
    }
}
