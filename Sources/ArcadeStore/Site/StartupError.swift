/// Why the site cannot start: the file (or URL) at fault and what is wrong with it. Every failure of `Site.init` is
/// one of these; `arcade serve` prints it and exits 1. (A `--dev` template reload reports through it too.)
package enum StartupError: Error, Equatable, CustomStringConvertible {
    /// Not there, not readable, or not text.
    case unreadable(file: String, reason: String)
    /// Read, but wrong: a syntax error (the file names the line and column when known) or a bad value.
    case invalid(file: String, reason: String)
    /// A template every page needs is absent.
    case missing(file: String)
    /// The database could not be opened, migrated or prepared.
    case database(file: String, reason: String)

    package var file: String {
        switch self {
        case .unreadable(let file, _), .invalid(let file, _), .missing(let file), .database(let file, _): file
        }
    }

    package var reason: String {
        switch self {
        case .unreadable(_, let reason), .invalid(_, let reason), .database(_, let reason): reason
        case .missing: "is missing"
        }
    }

    package var description: String { "\(file): \(reason)" }

    /// Runs one step of start-up, naming `file` in whatever it throws (a start-up error passes through as it is).
    package static func reading<T>(
        _ file: String, as wrap: (String, String) -> StartupError = StartupError.invalid,
        _ step: () throws -> T
    ) throws(StartupError) -> T {
        do {
            return try step()
        } catch let error as StartupError {
            throw error
        } catch {
            throw wrap(file, "\(error)")
        }
    }
}
