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

extension DatabaseLocation {
    /// As `--db` takes it.
    public var argument: String {
        switch self {
        case .sqlite(let path): path
        case .postgresql(let url): url
        }
    }
}

/// A fresh, empty database for one test: an SQLite file in the test's scratch folder, or a schema of its own on the
/// test PostgreSQL server (`ARCADE_TEST_POSTGRES`, as `scripts/test` sets it; otherwise a cluster of the user's own,
/// started here with `scripts/postgres` on first use and left running for the next run).
public enum TestDatabase {
    public static func fresh(
        _ engine: Engine, in scratch: ScratchDirectory, name: String = "site"
    ) throws -> DatabaseLocation {
        switch engine {
        case .sqlite:
            return .sqlite(scratch.path + "/\(name).sqlite")
        case .postgresql:
            let server = try serverURL()
            let schema =
                "t\(getpid())_\(counter.add(1, ordering: .relaxed).newValue)_\(name.filter(\.isLetter).lowercased())"
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

    /// One cluster per user, in a fixed folder, kept running for the next `swift test` (reused when it answers).
    private static func startCluster() throws -> String {
        let folder = "/tmp/arcade-test-postgres-\(getuid())"
        let url = "postgresql://postgres@/postgres?host=\(folder)"
        if access(folder + "/.s.PGSQL.5432", F_OK) == 0, (try? Database(location: .postgresql(url))) != nil {
            return url
        }
        _ = system("scripts/postgres stop '\(folder)' >/dev/null 2>&1; rm -rf '\(folder)'")
        guard let pipe = popen("scripts/postgres start '\(folder)'", "r") else {
            throw DatabaseError("cannot run scripts/postgres")
        }
        var output = ""
        var buffer = [CChar](repeating: 0, count: 512)
        while fgets(&buffer, Int32(buffer.count), pipe) != nil {
            output += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        guard pclose(pipe) == 0, output.contains(url) else {
            throw DatabaseError("scripts/postgres could not start a test cluster in \(folder): \(output)")
        }
        return url
    }
}
