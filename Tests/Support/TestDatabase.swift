import Storage
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The engines every store test runs on.
public enum Engine: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgresql
    public var description: String { rawValue }
}

/// A fresh, empty database for one test: an SQLite file in the test's scratch folder, or a schema of its own on the
/// test PostgreSQL server (`ARCADE_TEST_POSTGRES`, as `scripts/test` sets it; otherwise a throwaway cluster started
/// here with `scripts/postgres` on first use and stopped when the test process exits).
public enum TestDatabase {
    public static func fresh(_ engine: Engine, in scratch: ScratchDirectory, name: String = "site") throws -> DatabaseLocation {
        switch engine {
        case .sqlite:
            return .sqlite(scratch.path + "/\(name).sqlite")
        case .postgresql:
            let server = try serverURL()
            let schema = "t\(getpid())_\(counter.add(1, ordering: .relaxed).newValue)_\(name.filter(\.isLetter).lowercased())"
            try Database(location: .postgresql(server)).executeScript("CREATE SCHEMA \(schema)")
            return .postgresql(server + (server.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)")
        }
    }

    private static let counter = Atomic<Int>(0)
    private static let server = Mutex<String?>(nil)

    public static func serverURL() throws -> String {
        try server.withLock { (url: inout String?) throws -> String in
            if let url { return url }
            if let given = getenv("ARCADE_TEST_POSTGRES").map({ String(cString: $0) }), !given.isEmpty {
                url = given
                return given
            }
            let started = try startCluster()
            url = started
            return started
        }
    }

    private static func startCluster() throws -> String {
        var template = Array("/tmp/arcade-pg-XXXXXX".utf8CString)
        let folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        clusterFolder = strdup(folder)
        guard let pipe = popen("scripts/postgres start '\(folder)'", "r") else { throw DatabaseError("cannot run scripts/postgres") }
        var output = ""
        var buffer = [CChar](repeating: 0, count: 512)
        while fgets(&buffer, Int32(buffer.count), pipe) != nil {
            output += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        guard pclose(pipe) == 0, let line = output.split(separator: "\n").last, line.hasPrefix("postgresql://") else {
            throw DatabaseError("scripts/postgres could not start a test cluster: \(output)")
        }
        atexit {
            guard let folder = TestDatabase.clusterFolder else { return }
            let path = String(cString: folder)
            _ = system("scripts/postgres stop '\(path)' >/dev/null 2>&1; rm -rf '\(path)'")
        }
        return String(line)
    }

    nonisolated(unsafe) private static var clusterFolder: UnsafeMutablePointer<CChar>?
}
