/// Where the data lives, from `--db` or `ARCADE_DB`: a file path or `sqlite:PATH` for SQLite (the embedded default),
/// or a `postgresql://` (or `postgres://`) URL, which libpq reads as it documents (user, password, host, port,
/// database, and query parameters such as `sslmode`, `connect_timeout` or `host=/run/postgresql` for a socket).
public enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(String)
    case postgresql(String)

    public init(parsing text: String) throws(DatabaseError) {
        if text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") {
            self = .postgresql(text)
        } else if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw DatabaseError("sqlite: needs a file path, as in sqlite:arcade.sqlite") }
            self = .sqlite(path)
        } else if text.contains("://") {
            throw DatabaseError(
                "\(text): not a database; give a file path, sqlite:PATH or postgresql://USER@HOST:PORT/DB")
        } else {
            guard !text.isEmpty else { throw DatabaseError("the database path is empty") }
            self = .sqlite(text)
        }
    }

    public var dialect: SQLDialect {
        switch self {
        case .sqlite: .sqlite
        case .postgresql: .postgresql
        }
    }

    /// The location as messages may show it: a URL's password is left out.
    public var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgresql(let url):
            let scheme = url.hasPrefix("postgres://") ? "postgres://" : "postgresql://"
            let rest = url.dropFirst(scheme.count)
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return url }
            let user = rest[..<at]
            let name = user.firstIndex(of: ":").map { user[..<$0] } ?? user
            return scheme + name + rest[at...]
        }
    }
}
