import Files
import HTTPClient
import JSON
import Logger
import NameGame

/// Where the Name Game's people come from at start-up.
package enum PeopleSource {
    /// The Name Game's people: a file path (the default, bundled) or an
    /// http(s) URL. Malformed JSON stops start-up with the file and position.
    package static func load(_ source: String) throws -> Directory {
        let bytes: [UInt8]
        if source.hasPrefix("http://") || source.hasPrefix("https://") {
            switch HTTPClient(timeout: 10, maxResponseBytes: 16 << 20).get(source) {
            case .success(let response) where response.status == 200: bytes = response.body
            case .success(let response): throw StartupError.unreadable(file: source, reason: "HTTP \(response.status)")
            case .failure(let failure): throw StartupError.unreadable(file: source, reason: "\(failure)")
            }
        } else {
            guard let read = Files.read(source) else {
                throw StartupError.unreadable(file: source, reason: "cannot read the people file")
            }
            bytes = read
        }
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch {
            throw StartupError.invalid(file: "\(source):\(error.line):\(error.column)", reason: error.message)
        }
        let directory = try StartupError.reading(source) { try Directory(json: json) }
        if !directory.skipped.isEmpty {
            Log.info(
                "Name Game: \(directory.people.count) people, \(directory.skipped.count) left out (\(directory.skipped.prefix(3).map(\.description).joined(separator: "; "))\(directory.skipped.count > 3 ? "; …" : ""))"
            )
        }
        return directory
    }
}
