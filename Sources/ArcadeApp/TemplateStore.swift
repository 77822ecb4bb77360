import Synchronization
import Templates
#if canImport(Glibc)
import Glibc
#endif

/// The templates in `Templates/`, parsed once at start-up. With `--dev`, a
/// changed file is re-read on the next request; a syntax error then shows
/// on the page instead of stopping the server.
final class TemplateStore: Sendable {
    let directory: String
    let dev: Bool
    private let state: Mutex<(library: TemplateLibrary, stamp: Int)>

    init(directory: String, dev: Bool) throws {
        self.directory = directory
        self.dev = dev
        let (sources, stamp) = try Self.read(directory)
        state = Mutex((try Self.parse(sources, directory), stamp))
    }

    /// Parses every template; an error names the file, line and column.
    static func parse(_ sources: [String: String], _ directory: String) throws -> TemplateLibrary {
        do {
            return try TemplateLibrary(sources: sources)
        } catch {
            throw TemplateStoreError("\(directory)/\(error.file).mustache:\(error.line):\(error.column): \(error.message)")
        }
    }

    /// The current library; in dev mode, reloaded if any file changed.
    func library() throws -> TemplateLibrary {
        guard dev else { return state.withLock { $0.library } }
        let (sources, stamp) = try Self.read(directory)
        return try state.withLock { current in
            if stamp != current.stamp {
                current = (try Self.parse(sources, directory), stamp)
                Log.info("templates reloaded")
            }
            return current.library
        }
    }

    /// Every `*.mustache` file by name without the extension, and a stamp
    /// that changes when any of them changes.
    static func read(_ directory: String) throws -> ([String: String], Int) {
        guard let dir = opendir(directory) else { throw TemplateStoreError("\(directory): cannot read the templates directory") }
        defer { closedir(dir) }
        var sources: [String: String] = [:]
        var stamp = 0
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            guard name.hasSuffix(".mustache") else { continue }
            let path = directory + "/" + name
            var info = stat()
            guard stat(path, &info) == 0, let bytes = readAll(path) else { throw TemplateStoreError("\(path): cannot read") }
            guard let text = String(validating: bytes, as: UTF8.self) else { throw TemplateStoreError("\(path): not UTF-8") }
            sources[String(name.dropLast(9))] = text
            stamp = stamp &* 31 &+ Int(info.st_mtim.tv_sec) &* 1_000_003 &+ Int(info.st_mtim.tv_nsec) &+ Int(info.st_size)
        }
        return (sources, stamp)
    }

    static func readAll(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return bytes
    }
}

struct TemplateStoreError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
