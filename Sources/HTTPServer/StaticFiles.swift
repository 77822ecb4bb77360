import Files
import HTTP
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Serves a directory at the site root. Files are revalidated with stat(2) at
/// most once a second; small ones are kept in memory, larger ones kept open
/// and sent with sendfile, which spares copying them into the socket. A path that could leave the directory is never served:
/// `..`, encoded slashes, NUL, dotfiles, or a symlink whose target lies outside.
public final class StaticFiles: Sendable {
    public let root: String
    private let cacheControl: String
    private let cache = Mutex<[String: Cached]>([:])

    /// Files up to this size are kept in memory; larger ones are kept open.
    static let memoryLimit = 8 * 1024
    static let maxEntries = 2048
    static let revalidateAfter = Clock.nanoseconds(1)
    /// Every file is a document of its own when opened directly: an SVG (or anything a browser renders) runs no script
    /// and reaches nothing, whatever it holds. Kept with each entry's headers, so a response costs nothing more.
    public static let sandbox = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

    struct Entry {
        let file: String  // the resolved path
        let size: Int
        let mtime: Int
        let inode: UInt
        let etag: [UInt8]
        let headers: HTTPHeaders
        let body: Response.Body
    }

    /// An entry and when it was last checked, boxed: a request takes it out of the cache with one retain, not one per
    /// field of the entry.
    final class Cached: Sendable {
        let entry: Entry
        let checked: Int64

        init(_ entry: Entry, checked: Int64) {
            self.entry = entry
            self.checked = checked
        }
    }

    public init(root: String, cacheControl: String = "public, max-age=300") throws {
        guard let real = StaticFiles.realPath(root) else { throw SystemError("static root \(root)") }
        self.root = real
        self.cacheControl = cacheControl
    }

    public var handler: Handler { .loop { [self] in self.respond(to: $0) } }

    public func respond(to request: Request) -> Response {
        guard request.method == .get || request.method == .head else {
            var response = Response.error(.methodNotAllowed)
            response.headers.set("Allow", "GET, HEAD")
            return response
        }
        guard let segments = request.pathSegments else {
            return .error(.badRequest, detail: "invalid percent-encoding")
        }
        for segment in segments {
            let bytes = segment.utf8
            if bytes.contains(where: { $0 == 0x2F || $0 == 0x5C || $0 == 0 }) {
                return .error(.badRequest, detail: "invalid path")
            }
            if bytes.first == 0x2E {  // `.` and `..` are refused, dotfiles not found
                return bytes.count <= 2 && bytes.allSatisfy { $0 == 0x2E }
                    ? .error(.badRequest, detail: "invalid path")
                    : .error(.notFound)
            }
        }
        // Cached under the path as sent (no string to build); a miss joins the decoded segments to find the file.
        guard let cached = lookup(String(request.rawPath), segments) else { return .error(.notFound) }
        // Fields read through the box, not copied out of it (each copy would retain every field).
        if let match = request.headers.firstValue("If-None-Match", equals: cached.entry.etag) {
            if match || request.headers["If-None-Match"].map(etagListMatches(cached.entry.etag)) == true {
                return Response(status: .notModified, headers: cached.entry.headers)
            }
        } else if let since = request.headers["If-Modified-Since"],
            since == HTTPDate.format(secondsSinceEpoch: cached.entry.mtime)
        {
            return Response(status: .notModified, headers: cached.entry.headers)
        }
        return Response(status: .ok, headers: cached.entry.headers, body: cached.entry.body)
    }

    private func etagListMatches(_ etag: [UInt8]) -> (String) -> Bool {
        let tag = String(decoding: etag, as: UTF8.self)
        return { header in
            header.split(separator: ",").contains { element in
                let e = element.trimmingOWS
                return e == "*" || e == tag || e == "W/" + tag
            }
        }
    }

    private func lookup(_ key: String, _ segments: [String]) -> Cached? {
        let now = Clock.now()
        let previous = cache.withLock { $0[key] }
        if let previous, now - previous.checked < Self.revalidateAfter { return previous }
        guard let entry = load(segments.joined(separator: "/"), previous: previous?.entry) else {
            cache.withLock { _ = $0.removeValue(forKey: key) }
            return nil
        }
        let fresh = Cached(entry, checked: now)
        cache.withLock { cache in
            if cache.count >= Self.maxEntries && cache[key] == nil { cache.removeAll() }
            cache[key] = fresh
        }
        return fresh
    }

    private func load(_ relative: String, previous: Entry?, retries: Int = 1) -> Entry? {
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
        let size = Int(info.st_size)
        let mtime = Int(info.st_mtim.tv_sec)
        let inode = UInt(info.st_ino)
        if let previous, previous.size == size, previous.mtime == mtime, previous.inode == inode,
            previous.file == resolved
        {
            return previous
        }
        let etag = "\"\(String(mtime, radix: 16))-\(String(size, radix: 16))\""
        var headers = HTTPHeaders()
        headers.append("Content-Type", MediaType.forPath(resolved))
        headers.append("Last-Modified", HTTPDate.format(secondsSinceEpoch: mtime))
        headers.append("ETag", etag)
        headers.append("Cache-Control", cacheControl)
        headers.append("X-Content-Type-Options", "nosniff")
        headers.append("Content-Security-Policy", Self.sandbox)
        let body: Response.Body
        if size <= Self.memoryLimit {
            guard let bytes = Files.read(resolved) else { return nil }
            body = .bytes(bytes)
        } else {
            // Kept open while cached: sendfile reads at an offset, so connections share it.
            let fd = open(resolved, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            var opened = stat()
            guard fstat(fd, &opened) == 0, opened.st_ino == info.st_ino, opened.st_size == info.st_size else {
                close(fd)  // replaced between stat and open: look again, once
                return retries > 0 ? load(relative, previous: previous, retries: retries - 1) : nil
            }
            body = .file(OpenFile(descriptor: fd), offset: 0, count: size)
        }
        return Entry(
            file: resolved, size: body.count, mtime: mtime, inode: inode, etag: Array(etag.utf8),
            headers: headers, body: body)
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
