import HTTP
import HTTPServer
import Storage

/// The site: every route Arcade answers, wired to the infrastructure.
public struct Site: Sendable {
    public let router: Router

    public init(options: ServeOptions) throws {
        // Open (or create) the database now so a bad path fails at start-up.
        _ = try Database(path: options.database)
        let files = try StaticFiles(root: options.publicDirectory)
        var router = Router()
        router.get("/healthz") { _ in .text("ok") }
        router.fallback = files.handler
        self.router = router
    }
}
