import ArcadeStore
import Files
import Logger
import Synchronization
import Templates

/// The templates in `Templates/`, parsed once at start-up. With `--dev`, a
/// changed file is re-read on the next request; a syntax error then shows
/// on the page instead of stopping the server.
final class TemplateFolder: Sendable {
    let directory: String
    let dev: Bool
    /// Names the pages interpolate that no controller gives (see `TemplateAudit`), when audited.
    let audit: TemplateAudit?
    private let state: Mutex<(library: TemplateLibrary, stamp: Int)>

    init(directory: String, dev: Bool, audit: TemplateAudit? = nil) throws {
        self.directory = directory
        self.dev = dev
        self.audit = audit
        let (sources, stamp) = try Self.read(directory)
        state = Mutex((try Self.parse(sources, directory, audit: audit), stamp))
    }

    /// Parses every template; an error names the file, line and column.
    static func parse(_ sources: [String: String], _ directory: String, audit: TemplateAudit?) throws -> TemplateLibrary
    {
        do {
            return try TemplateLibrary(sources: sources, audit: audit)
        } catch {
            throw StartupError.invalid(
                file: "\(directory)/\(error.file).mustache:\(error.line):\(error.column)", reason: error.message)
        }
    }

    /// The current library; in dev mode, reloaded if any file changed.
    func library() throws -> TemplateLibrary {
        guard dev else { return state.withLock { $0.library } }
        let (sources, stamp) = try Self.read(directory)
        return try state.withLock { current in
            if stamp != current.stamp {
                current = (try Self.parse(sources, directory, audit: audit), stamp)
                Log.info("templates reloaded")
            }
            return current.library
        }
    }

    /// Every `*.mustache` file by name without the extension, and a stamp
    /// that changes when any of them changes.
    static func read(_ directory: String) throws -> ([String: String], Int) {
        guard let names = Files.list(directory) else {
            throw StartupError.unreadable(file: directory, reason: "cannot read the templates directory")
        }
        var sources: [String: String] = [:]
        var stamp = 0
        for name in names where name.hasSuffix(".mustache") {
            let path = directory + "/" + name
            guard let bytes = Files.read(path), let fileStamp = Files.stamp(path) else {
                throw StartupError.unreadable(file: path, reason: "cannot read")
            }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw StartupError.unreadable(file: path, reason: "not UTF-8")
            }
            sources[String(name.dropLast(9))] = text
            stamp = stamp &* 31 &+ fileStamp
        }
        return (sources, stamp)
    }
}
