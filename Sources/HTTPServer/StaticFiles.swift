import Files
import HTTP
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Serves a directory at the site root. Small files are cached in memory
/// and revalidated with stat(2) at most once a second; larger ones go out
/// with sendfile. A path that could leave the directory is never served:
/// `..`, encoded slashes, NUL, dotfiles, or a symlink whose target lies outside.
public final class StaticFiles: Sendable {
    public let root: String
    private let cacheControl: String
    private let cache = Mutex<[String: Entry]>([:])

    /// Files up to this size are kept in memory.
    static let memoryLimit = 256 * 1024
    static let maxEntries = 2048
    static let revalidateAfter = Clock.nanoseconds(1)

    struct Entry {
        let file: String       // the resolved path
        let size: Int
        let mtime: Int
        let etag: [UInt8]
        let headers: HTTPHeaders
        let body: [UInt8]?
        var checked: Int64
    }

    public init(root: String, cacheControl: String = "public, max-age=300") throws {
        guard let real = StaticFiles.realPath(root) else { throw SystemError("static root \(root)") }
        self.root = real
        self.cacheControl = cacheControl
    }

    public var handler: Handler { Handler { [self] in self.respond(to: $0) } }

    public func respond(to request: Request) -> Response {
        guard request.method == .get || request.method == .head else {
            var response = Response.error(.methodNotAllowed)
            response.headers.set("Allow", "GET, HEAD")
            return response
        }
        guard let segments = request.pathSegments else { return .error(.badRequest, detail: "invalid percent-encoding") }
        for segment in segments {
            if segment == "." || segment == ".." || segment.utf8.contains(where: { $0 == 0x2F || $0 == 0x5C || $0 == 0 }) {
                return .error(.badRequest, detail: "invalid path")
            }
            if segment.hasPrefix(".") { return .error(.notFound) }
        }
        let relative = segments.joined(separator: "/")
        guard let entry = lookup(relative) else { return .error(.notFound) }

        if let match = request.headers.firstValue("If-None-Match", equals: entry.etag) {
            if match || request.headers["If-None-Match"].map(etagListMatches(entry)) == true {
                return Response(status: .notModified, headers: entry.headers)
            }
        } else if let since = request.headers["If-Modified-Since"],
                  since == HTTPDate.format(secondsSinceEpoch: entry.mtime) {
            return Response(status: .notModified, headers: entry.headers)
        }
        if let body = entry.body { return Response(status: .ok, headers: entry.headers, body: .bytes(body)) }
        // Large file: open it now; the descriptor closes when the response is sent.
        let fd = open(entry.file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .error(.notFound) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { close(fd); return .error(.notFound) }
        return Response(status: .ok, headers: entry.headers,
                        body: .file(OpenFile(descriptor: fd), offset: 0, count: min(entry.size, Int(info.st_size))))
    }

    private func etagListMatches(_ entry: Entry) -> (String) -> Bool {
        let tag = String(decoding: entry.etag, as: UTF8.self)
        return { header in
            header.split(separator: ",").contains { element in
                let e = element.trimmingOWS
                return e == "*" || e == tag || e == "W/" + tag
            }
        }
    }

    private func lookup(_ relative: String) -> Entry? {
        let now = Clock.now()
        if let entry = cache.withLock({ $0[relative] }), now - entry.checked < Self.revalidateAfter {
            return entry
        }
        let previous = cache.withLock { $0[relative] }
        guard let fresh = load(relative, previous: previous, now: now) else {
            cache.withLock { _ = $0.removeValue(forKey: relative) }
            return nil
        }
        cache.withLock { cache in
            if cache.count >= Self.maxEntries && cache[relative] == nil { cache.removeAll() }
            cache[relative] = fresh
        }
        return fresh
    }

    private func load(_ relative: String, previous: Entry?, now: Int64) -> Entry? {
        var path = relative.isEmpty ? root : root + "/" + relative
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        if info.st_mode & S_IFMT == S_IFDIR {
            path += "/index.html"
            guard stat(path, &info) == 0 else { return nil }
        }
        guard info.st_mode & S_IFMT == S_IFREG else { return nil }
        // Symlinks may point anywhere: the resolved file must stay under root.
        guard let resolved = StaticFiles.realPath(path), resolved.hasPrefix(root + "/") else { return nil }
        let size = Int(info.st_size), mtime = Int(info.st_mtim.tv_sec)
        if var previous, previous.size == size, previous.mtime == mtime, previous.file == resolved {
            previous.checked = now
            return previous
        }
        let etag = "\"\(String(mtime, radix: 16))-\(String(size, radix: 16))\""
        var headers = HTTPHeaders()
        headers.append("Content-Type", MediaType.forPath(resolved))
        headers.append("Last-Modified", HTTPDate.format(secondsSinceEpoch: mtime))
        headers.append("ETag", etag)
        headers.append("Cache-Control", cacheControl)
        headers.append("X-Content-Type-Options", "nosniff")
        let body = size <= Self.memoryLimit ? Files.read(resolved) : nil
        if size <= Self.memoryLimit && body == nil { return nil }
        return Entry(file: resolved, size: body?.count ?? size, mtime: mtime, etag: Array(etag.utf8),
                     headers: headers, body: body, checked: now)
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
