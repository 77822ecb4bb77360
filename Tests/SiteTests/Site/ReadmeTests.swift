import Foundation
import HTTP
import Testing

@testable import ArcadeApp

/// The README cannot drift from the code: its route table is what the site declares, and its list of what
/// `scripts/test` installs is what the scripts install.
@Suite("README")
struct ReadmeTests {
    static let readme = (try? String(contentsOfFile: "README.md", encoding: .utf8)) ?? ""

    /// The lines of a `## heading` section, up to the next `## `.
    static func section(_ heading: String) -> [Substring] {
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: Substring("## " + heading)) else { return [] }
        let rest = lines[(start + 1)...]
        return Array(rest.prefix { !$0.hasPrefix("## ") })
    }

    /// Each `#fileID` (module and file name) as a path under Sources/.
    static func path(_ fileID: String) -> String {
        let parts = fileID.split(separator: "/")
        let root = "Sources/" + parts[0]
        let found = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }
            .first { $0.hasSuffix("/" + parts[1]) || $0 == String(parts[1]) }
        return found.map { root + "/" + $0 } ?? root + "/?" + parts[1]
    }

    @Test func whereThingsAreListsEveryRouteAndItsFile() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let expected = server.site.routes.table.map { route in
            "| `\(route.method) \(route.pattern)` | `\(Self.path(route.file))` |"
        }
        let listed = Self.section("Where things are").filter { $0.hasPrefix("| `") }.map(String.init)
        if listed != expected {
            try? FileManager.default.createDirectory(atPath: ".artifacts", withIntermediateDirectories: true)
            try? expected.joined(separator: "\n").write(
                toFile: ".artifacts/where-things-are.md", atomically: true,
                encoding: .utf8)
        }
        #expect(
            listed == expected, "README's route table differs; the expected rows are in .artifacts/where-things-are.md")
        #expect(expected.count > 50, "every route is listed (\(expected.count))")
    }

    @Test func theInstallListMatchesTheScripts() throws {
        let scripts = try ["scripts/test", "scripts/postgres"].map { try String(contentsOfFile: $0, encoding: .utf8) }
        var installed: [String] = []
        for line in scripts.joined(separator: "\n").split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            if let apt = words.firstIndex(of: "ensure_apt") {
                installed += words[(apt + 1)...].prefix { !$0.hasPrefix("#") && !$0.hasPrefix("|") && $0 != "&&" }
            }
            installed += words.filter { $0.hasPrefix("\"") && $0.contains("==") }.map {
                $0.trimmingCharacters(in: ["\""])
            }
        }
        let listed = Self.section("The two commands").joined(separator: "\n")
        #expect(installed.count >= 10, "\(installed)")
        for name in Set(installed) {
            #expect(listed.contains("`\(name)`"), "README's two commands section does not name \(name)")
        }
    }
}
