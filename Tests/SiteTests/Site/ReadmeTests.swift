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

    /// Package.swift's modules (not its test targets), each with the modules it depends on.
    static func modules() throws -> [String: [String]] {
        let package = try String(contentsOfFile: "Package.swift", encoding: .utf8)
        var found: [String: [String]] = [:]
        let declaration =
            /\.(?:target|systemLibrary|executableTarget)\(\s*name: "(\w+)"(?:[^()]*?dependencies: \[([^\]]*)\])?/
        for match in package.matches(of: declaration) {
            found[String(match.1)] = match.2.map { $0.matches(of: /"(\w+)"/).map { String($0.1) } } ?? []
        }
        return found
    }

    /// The architecture's diagram and module table say what Package.swift declares (a review found `Metrics` left
    /// out of both): the table names every module once, the diagram shows each, and the app's own dependencies hang
    /// from `ArcadeApp` in it.
    @Test func theModuleDiagramAndTableArePackageSwifts() throws {
        let modules = try Self.modules()
        #expect(modules.count > 20 && modules["ArcadeApp"]?.contains("Storage") == true, "\(modules)")
        let architecture = Self.section("Architecture")
        let header = architecture.firstIndex { $0.hasPrefix("| module |") } ?? architecture.endIndex
        let tabled = architecture[header...].dropFirst(2).prefix { $0.hasPrefix("| `") }.flatMap { row in
            row.split(separator: "|")[0].matches(of: /`(\w+)`/).map { String($0.1) }
        }
        #expect(tabled.sorted() == modules.keys.sorted(), "the module table")
        let fence = architecture.indices.filter { architecture[$0].hasPrefix("```") }
        let diagram = fence.count >= 2 ? architecture[(fence[0] + 1)..<fence[1]].map(String.init) : []
        let shown = Set(diagram.joined(separator: "\n").matches(of: /(\w+)/).map { String($0.1) })
        for module in modules.keys where module != "TestSupport" {
            #expect(shown.contains(module), "the diagram leaves out \(module)")
        }
        // The app's branches: the names right after the arrows in its column, and the line of direct ones.
        let column = diagram.first.flatMap { $0.range(of: "ArcadeApp ─") }.map {
            diagram[0].distance(from: diagram[0].startIndex, to: $0.upperBound)
        }
        var branches: Set<String> = []
        for line in diagram {
            let characters = Array(line)
            guard let column, characters.count > column + 3, "┬├└".contains(characters[column]) else { continue }
            let rest = String(characters[(column + 3)...]).trimmingCharacters(in: .whitespaces)
            // One name a branch, or the line of those the app uses directly too ("JSON, Files (directly too)").
            let names = rest.contains("(directly too)") ? rest.split(separator: "(")[0] : rest.split(separator: " ")[0]
            branches.formUnion(names.matches(of: /(\w+)/).map { String($0.1) })
        }
        #expect(branches.sorted() == (modules["ArcadeApp"] ?? []).sorted(), "ArcadeApp's dependencies")
    }
}
