import ArcadeStore
import HTTP

/// The groups the admin console adds its routes to, each with its middleware, outermost first; all stay up during
/// maintenance and run on the pool (pages renew the session, a write they wait for; sign-in hashes a password).
/// `visitors`: the sign-in page; `forms`: sign-in and sign-out, CSRF checked; `pages`: a session required;
/// `actions`: CSRF checked, then a session; `uploads`: a session, the multipart form read, then its CSRF token.
struct AdminRoutes {
    let visitors: RouterGroup<PlayerContext>
    let forms: RouterGroup<PlayerContext>
    let pages: RouterGroup<AdminContext>
    let actions: RouterGroup<AdminContext>
    let uploads: RouterGroup<UploadContext>
    /// Scripts' JSON API (`/api/admin/…`).
    let api: RouterGroup<RequestContext>

    init(
        site: RouterGroup<RequestContext>, api: RouterGroup<RequestContext>, identity: Identity, errors: ErrorPages,
        store: AdminStore, pages: Pages
    ) {
        let visitors = site.running(.pool).adding(NoStore()).adding(VisitorCookies(identity: identity, errors: errors))
        let session = AdminSession(store: store)
        self.visitors = visitors
        forms = visitors.adding(CSRFCheck(identity: identity))
        self.pages = visitors.adding(session)
        actions = forms.adding(session)
        uploads = self.pages.adding(MultipartForm()).adding(CSRFCheck(identity: identity))
        self.api = api.running(.pool)
    }
}
