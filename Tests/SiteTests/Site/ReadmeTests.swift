import Foundation
import HTTP
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

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
        // A command continued on the next line (a trailing backslash) is read as one line.
        let text = scripts.joined(separator: "\n").replacingOccurrences(of: "\\\n", with: " ")
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            if let apt = words.firstIndex(of: "ensure_apt") {
                installed += words[(apt + 1)...].prefix { !$0.hasPrefix("#") && !$0.hasPrefix("|") && $0 != "&&" }
            }
            // `pip_pin NAME VERSION`, as README names it: NAME==VERSION.
            if words.first == "pip_pin", words.count >= 3 { installed.append("\(words[1])==\(words[2])") }
        }
        let listed = Self.section("The two commands").joined(separator: "\n")
        #expect(installed.count >= 10, "\(installed)")
        for name in Set(installed) {
            #expect(listed.contains("`\(name)`"), "README's two commands section does not name \(name)")
        }
    }

    /// A target of Package.swift: its name, the modules it depends on directly, and whether it is a test target or
    /// another target only the tests use (TestSupport, which lives under Tests/).
    struct Target {
        let name: String
        let dependencies: [String]
        let testTarget: Bool
        let underTests: Bool
        var testOnly: Bool { testTarget || underTests }
    }

    /// Package.swift's targets, read as text: each `.target(`, `.executableTarget(`, `.systemLibrary(` and
    /// `.testTarget(` that starts a line, its arguments up to the matching parenthesis.
    static func targets() throws -> [Target] {
        let package = try String(contentsOfFile: "Package.swift", encoding: .utf8)
        let declaration = /^\s*\.(target|executableTarget|systemLibrary|testTarget)\(/.anchorsMatchLineEndings()
        return package.matches(of: declaration).compactMap { match in
            let arguments = enclosed(package[match.range.upperBound...], closing: ")")
            guard let name = arguments.firstMatch(of: /^\s*name:\s*"(\w+)"/) else { return nil }
            let dependencies = arguments.firstMatch(of: /dependencies:\s*\[/).map {
                enclosed(arguments[$0.range.upperBound...], closing: "]").matches(of: /"(\w+)"/).map { String($0.1) }
            }
            return Target(
                name: String(name.1), dependencies: dependencies ?? [], testTarget: match.1 == "testTarget",
                underTests: arguments.contains(/path:\s*"Tests\//))
        }
    }

    /// The text up to the bracket that closes one already opened, skipping string literals and `//` comments, so
    /// `swiftSettings: [.unsafeFlags(["-O"], …)]` does not end a target early.
    static func enclosed(_ text: Substring, closing: Character) -> Substring {
        let opening: Character = closing == ")" ? "(" : "["
        var depth = 1
        var inString = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if inString {
                if character == "\\" {
                    index = text.index(after: index)  // an escaped character
                } else if character == "\"" {
                    inString = false
                }
            } else if character == "\"" {
                inString = true
            } else if text[index...].hasPrefix("//") {
                index = text[index...].firstIndex(of: "\n") ?? text.index(before: text.endIndex)
            } else if character == opening {
                depth += 1
            } else if character == closing {
                depth -= 1
                if depth == 0 { return text[..<index] }
            }
            index = text.index(after: index)
        }
        return text
    }

    /// Package.swift's modules (not its test targets), each with the modules it depends on.
    static func modules() throws -> [String: [String]] {
        let targets = try targets().filter { !$0.testTarget }
        return Dictionary(targets.map { ($0.name, $0.dependencies) }, uniquingKeysWith: { first, _ in first })
    }

    /// The README's module diagram, the first fenced block under "Architecture": each module it shows, with the
    /// modules it shows it depending on, and any module it shows twice. Its notation: an unindented line names a
    /// layer; `Name ─▶ A, B` is one module and its direct dependencies (a list that ends in a comma goes on the next
    /// line); a line of names without an arrow lists modules that depend on none; `(…)` is a comment.
    static func diagram() -> (modules: [String: [String]], repeated: [String]) {
        let architecture = section("Architecture")
        let fence = architecture.indices.filter { architecture[$0].hasPrefix("```") }
        let lines = fence.count >= 2 ? architecture[(fence[0] + 1)..<fence[1]] : []
        var modules: [String: [String]] = [:]
        var repeated: [String] = []
        var current: String?
        func names(_ list: Substring) -> [String] {
            list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        func show(_ module: String, _ dependencies: [String]) {
            if modules[module] != nil { repeated.append(module) }
            modules[module] = dependencies
        }
        for raw in lines {
            let line = raw.replacing(/\([^)]*\)/, with: "")
            let continued = current
            current = nil
            guard line.first?.isWhitespace == true else { continue }  // a layer's name, or a blank line
            var module: String?
            if let continued {
                modules[continued, default: []] += names(line)
                module = continued
            } else if let arrow = line.range(of: "─▶") {
                module = line[..<arrow.lowerBound].trimmingCharacters(in: .whitespaces)
                show(module ?? "", names(line[arrow.upperBound...]))
            } else {
                for leaf in names(line) { show(leaf, []) }
            }
            if line.trimmingCharacters(in: .whitespaces).hasSuffix(",") { current = module }
        }
        return (modules, repeated)
    }

    /// The architecture's diagram and module table say what Package.swift declares (a review found `Metrics` left
    /// out of both): the table names every module once, and the diagram shows every module but the tests' own.
    @Test func theModuleDiagramAndTableArePackageSwifts() throws {
        let modules = try Self.modules()
        #expect(modules.count > 20 && modules["ArcadeStore"]?.contains("Storage") == true, "\(modules)")
        let architecture = Self.section("Architecture")
        let header = architecture.firstIndex { $0.hasPrefix("| module |") } ?? architecture.endIndex
        let tabled = architecture[header...].dropFirst(2).prefix { $0.hasPrefix("| `") }.flatMap { row in
            row.split(separator: "|")[0].matches(of: /`(\w+)`/).map { String($0.1) }
        }
        #expect(tabled.sorted() == modules.keys.sorted(), "the module table")
        let shown = Self.diagram().modules
        for target in try Self.targets() where !target.testOnly {
            #expect(shown[target.name] != nil, "the diagram leaves out \(target.name)")
        }
    }

    /// Every module's arrows in the diagram are its `dependencies:` in Package.swift, no more and no fewer, so the
    /// picture of the layers cannot drift from what the compiler enforces.
    @Test func theModuleDiagramShowsEachModulesDependencies() throws {
        let declared = Dictionary(
            try Self.targets().filter { !$0.testOnly }.map { ($0.name, $0.dependencies) },
            uniquingKeysWith: { first, _ in first })
        let (shown, repeated) = Self.diagram()
        #expect(declared.count > 20 && shown.count > 20, "Package.swift: \(declared.count), diagram: \(shown.count)")
        var differences = repeated.map { "\($0): shown twice" }
        for module in Set(declared.keys).union(shown.keys).sorted() {
            guard let wanted = declared[module] else {
                differences.append("\(module): in the diagram, not a module of Package.swift")
                continue
            }
            guard let drawn = shown[module] else {
                differences.append("\(module): in Package.swift, not in the diagram")
                continue
            }
            let missing = wanted.filter { !drawn.contains($0) }
            let extra = drawn.filter { !wanted.contains($0) }
            if !missing.isEmpty {
                differences.append(
                    "\(module) ─▶ \(missing.joined(separator: ", ")): in Package.swift, not in the diagram")
            }
            if !extra.isEmpty {
                differences.append(
                    "\(module) ─▶ \(extra.joined(separator: ", ")): in the diagram, not in Package.swift")
            }
            if drawn.count != Set(drawn).count { differences.append("\(module): a dependency shown twice") }
        }
        #expect(
            differences.isEmpty,
            "the README's module diagram differs from Package.swift:\n\(differences.joined(separator: "\n"))")
    }

    /// The topic documents' folder: a DocC catalog of the executable, since the top level holds only what the
    /// owners fixed there.
    static let catalog = "Sources/arcade/Arcade.docc"

    /// Every Markdown file in the catalog, as a path from the package's root.
    static func topicDocuments() -> [String] {
        let found = FileManager.default.enumerator(atPath: catalog)?.compactMap { $0 as? String } ?? []
        return found.filter { $0.hasSuffix(".md") }.sorted().map { catalog + "/" + $0 }
    }

    /// A Markdown text's lines outside fenced code blocks, where `#` and `[…](…)` mean what they look like (an
    /// nginx or shell comment in a fence is no heading).
    static func prose(_ text: String) -> [Substring] {
        var inFence = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                inFence.toggle()
                return false
            }
            return !inFence
        }
    }

    /// The targets of a text's inline links and link definitions.
    static func links(_ text: String) -> [String] {
        prose(text).flatMap { line in
            line.matches(of: /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/).map { String($0.1) }
                + line.matches(of: /^ {0,3}\[[^\]]+\]:\s*(\S+)/).map { String($0.1) }
        }
    }

    /// The anchors GitHub gives a text's headings: the text as shown, lowercased, punctuation dropped, spaces as
    /// hyphens, and a repeated heading's anchor numbered (`-1`, `-2`).
    static func anchors(_ text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var anchors: Set<String> = []
        for line in prose(text) {
            guard let heading = line.firstMatch(of: /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/) else { continue }
            let shown = heading.1.replacing(/\[([^\]]*)\]\([^)]*\)/) { $0.1 }.filter { $0 != "`" && $0 != "*" }
            let slug = String(
                shown.lowercased().compactMap { character -> Character? in
                    if character == " " { return "-" }
                    let kept = character.isLetter || character.isNumber || character == "-" || character == "_"
                    return kept ? character : nil
                })
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
        }
        return anchors
    }

    /// A relative link's path from the package's root, resolved against the linking file's folder; nil when it
    /// climbs out of the package.
    static func resolve(_ path: Substring, from file: String) -> String? {
        var parts = file.split(separator: "/").dropLast().map(String.init)
        for part in path.split(separator: "/") where part != "." {
            if part != ".." {
                parts.append(String(part))
            } else if parts.popLast() == nil {
                return nil
            }
        }
        return parts.joined(separator: "/")
    }

    /// A link's file and anchor, or nil for a link with a scheme (`https:`, `mailto:`), which is not ours to check.
    static func relative(_ link: String, from file: String) -> (path: String?, anchor: Substring?)? {
        guard link.firstMatch(of: /^[A-Za-z][A-Za-z0-9+.\-]*:/) == nil else { return nil }
        let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        return (parts[0].isEmpty ? file : resolve(parts[0], from: file), parts.count == 2 ? parts[1] : nil)
    }

    /// The README is the topic documents' table of contents: each is linked from it once, so none is lost and none
    /// is listed twice.
    @Test func theReadmeLinksEachTopicDocumentOnce() {
        let documents = Self.topicDocuments()
        #expect(documents.count >= 10, "\(documents)")
        let linked = Self.links(Self.readme).compactMap { Self.relative($0, from: "README.md")?.path }
        for document in documents {
            let count = linked.filter { $0 == document }.count
            #expect(count == 1, "the README links \(document) \(count) times, not once")
        }
    }

    /// Each topic document reads as an article on GitHub and in DocC: its title first, the one `# ` heading.
    @Test func eachTopicDocumentStartsWithItsTitle() throws {
        for document in Self.topicDocuments() {
            let text = try String(contentsOfFile: document, encoding: .utf8)
            let titles = Self.prose(text).filter { $0.hasPrefix("# ") }
            #expect(text.hasPrefix("# ") && titles.count == 1, "\(document): \(titles.count) titles")
        }
    }

    /// Every relative link in the README and the topic documents leads to a file that exists and, with `#anchor`,
    /// to a heading there: moving a section cannot leave a "see" behind that points at nothing.
    @Test func everyRelativeLinkLeadsSomewhere() throws {
        var broken: [String] = []
        var checked = 0
        for file in ["README.md"] + Self.topicDocuments() {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            for link in Self.links(text) {
                guard let (path, anchor) = Self.relative(link, from: file) else { continue }
                checked += 1
                guard let path, FileManager.default.fileExists(atPath: path) else {
                    broken.append("\(file): \(link): no such file")
                    continue
                }
                guard let anchor, path.hasSuffix(".md") else { continue }
                let target = try String(contentsOfFile: path, encoding: .utf8)
                if !Self.anchors(target).contains(String(anchor)) {
                    broken.append("\(file): \(link): no heading #\(anchor) in \(path)")
                }
            }
        }
        #expect(checked >= Self.topicDocuments().count, "links checked: \(checked)")
        #expect(broken.isEmpty, "broken links:\n\(broken.joined(separator: "\n"))")
    }

    /// The issue asked for a README one can read through: the commands, install, the routes and one screen of
    /// architecture, with the long prose in the topic documents.
    @Test func theReadmeIsUnder400Lines() {
        let lines = Self.readme.filter { $0 == "\n" }.count
        #expect(lines < 400, "the README has \(lines) lines; move prose to a topic document in \(Self.catalog)")
    }
}
