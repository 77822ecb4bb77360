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

    /// The location as messages may show it: a URL's password is left out, a `password=` value hidden.
    public var description: String {
        switch self {
        case .sqlite(let path): return Self.hidingPasswordParameters(path)
        case .postgresql(let url):
            guard let (scheme, user, password, rest) = Self.userInfo(url), password != nil else {
                return Self.hidingPasswordParameters(url)
            }
            return Self.hidingPasswordParameters(scheme + user + rest)
        }
    }

    /// `message` with every password this location carries hidden, in each form libpq takes one: URL user-info
    /// (as written and percent-decoded), a `password=` query parameter, and `password=` in key/value text.
    public func redact(_ message: String) -> String {
        guard case .postgresql(let url) = self else { return Self.hidingPasswordParameters(message) }
        var secrets: [String] = []
        if case (_, _, let password?, _)? = Self.userInfo(url) { secrets.append(String(password)) }
        for pair in url.split(whereSeparator: { $0 == "?" || $0 == "&" }) where pair.hasPrefix("password=") {
            secrets.append(String(pair.dropFirst("password=".count)))
        }
        var text = message
        for secret in secrets + secrets.compactMap(Self.percentDecoded) where !secret.isEmpty {
            text = text.replacing(secret, with: "***")
        }
        return Self.hidingPasswordParameters(text)
    }

    /// Scheme, user, password (nil when none) and the rest (`@host…`) of a URL with user-info. The user-info ends
    /// at the last `@` before the path that follows it, so a `?`, `/` or `@` inside the password stays inside it.
    static func userInfo(_ url: String) -> (String, Substring, Substring?, Substring)? {
        let scheme = url.hasPrefix("postgres://") ? "postgres://" : "postgresql://"
        let rest = url.dropFirst(scheme.count)
        guard let first = rest.firstIndex(of: "@") else { return nil }
        let pathStart = rest[first...].firstIndex(of: "/") ?? rest.endIndex
        let at = rest[..<pathStart].lastIndex(of: "@")!
        let info = rest[..<at]
        guard let colon = info.firstIndex(of: ":") else { return (scheme, info, nil, rest[at...]) }
        return (scheme, info[..<colon], info[info.index(after: colon)...], rest[at...])
    }

    /// `password=VALUE` (a query parameter, or key/value text with `'quoted value'`) → `password=***`.
    static func hidingPasswordParameters(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let range = rest.firstRange(of: "password") {
            out += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            let spaces = rest.prefix { $0 == " " }
            guard rest.dropFirst(spaces.count).first == "=" else { continue }
            var value = rest.dropFirst(spaces.count + 1).drop { $0 == " " }
            if value.first == "'" {
                // libpq's quoting: a backslash escapes the next character.
                var index = value.index(after: value.startIndex)
                while index < value.endIndex, value[index] != "'" {
                    index =
                        value.index(index, offsetBy: value[index] == "\\" ? 2 : 1, limitedBy: value.endIndex)
                        ?? value.endIndex
                }
                value = index < value.endIndex ? value[value.index(after: index)...] : value[value.endIndex...]
            } else {
                value = value.drop { $0 != " " && $0 != "&" && $0 != "\n" && $0 != ";" && $0 != "'" && $0 != "\"" }
            }
            out += "=***"
            rest = value
        }
        return out + rest
    }

    static func percentDecoded(_ text: String) -> String? {
        guard text.contains("%") else { return nil }
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
