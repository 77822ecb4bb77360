import Foundation
import Testing

/// The walls between the site's modules, as the package graph cannot hold them alone (a module may import what its
/// dependencies depend on): a store sees no HTTP and no template, no web code but the composition root holds the
/// database, no function of the site's modules runs past 60 lines, and every name a template reads is one the code
/// gives.
@Suite("Walls")
struct WallsTests {
    static func files(under folder: String, ending suffix: String = ".swift") -> [(path: String, text: String)] {
        (FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(suffix) }.sorted()
            .compactMap { name in
                (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)).map { (folder + "/" + name, $0) }
            }
    }

    @Test func storesSeeNoHTTPAndControllersNoPool() {
        let stores = Self.files(under: "Sources/ArcadeStore")
        let web = Self.files(under: "Sources/ArcadeWeb")
        #expect(stores.count > 30 && web.count > 30)
        let wrongImports = stores.filter { file in
            file.text.split(separator: "\n").contains {
                ["import HTTP", "import HTTPServer", "import Templates"].contains($0)
            }
        }
        #expect(wrongImports.map(\.path) == [], "a store that imports HTTP or the templates")
        // Only the composition root opens the database and hands it to the stores.
        let root = ["Sources/ArcadeWeb/Site/Services.swift", "Sources/ArcadeWeb/Site/Site.swift"]
        let pooled = web.filter { !root.contains($0.path) }.filter {
            $0.text.contains("DatabasePool") || $0.text.contains(".connection()") || $0.text.contains("pool.write")
        }
        #expect(web.count(where: { $0.path.contains("Controller") }) > 15)
        #expect(pooled.map(\.path) == [], "web code with the database in hand")
        // No site context may be placed on the event loop: the compiler holds it while none is a `LoopContext`.
        let onLoop = web.filter { $0.text.contains("LoopContext") || $0.text.contains("runningOnLoop") }
        #expect(onLoop.map(\.path) == [], "a site context placed on the loop")
    }

    /// A request is an immutable message (issue 42: route parameters and the client's address were fields any
    /// middleware could change under a handler): its stored fields are constants or set only by `Request` itself (a
    /// copy it returns: `from`, `routed`); none has a setter outside. Computed properties (`var x: T {`) are fine.
    @Test func aRequestIsImmutable() throws {
        let source = try String(contentsOfFile: "Sources/HTTP/Request.swift", encoding: .utf8)
        let body = try #require(
            source.firstRange(of: "public struct Request: Sendable {").map { source[$0.upperBound...] })
        let end = try #require(body.firstRange(of: "\n}\n")).lowerBound
        // The struct's own members are indented four spaces; a function's variables deeper.
        let stored = body[..<end].split(separator: "\n").filter { line in
            line.hasPrefix("    ") && !line.hasPrefix("     ") && line.contains("var ") && !line.contains("{")
        }
        #expect(stored.contains { $0.contains("private(set) var parameters") }, "the checks read the fields")
        #expect(stored.filter { !$0.contains("private(set) var ") }.map(String.init) == [], "a field set from outside")
    }

    /// The graph's own wall: the stores' module depends on no HTTP, server or template module (it may still reach
    /// `HTTP` through `HTTPClient`, which the imports' check above catches).
    @Test func theStoresModuleDependsOnNoWebModule() throws {
        let package = try String(contentsOfFile: "Package.swift", encoding: .utf8)
        let start = try #require(package.range(of: "name: \"ArcadeStore\""))
        let dependencies = package[start.upperBound...].prefix { $0 != "]" }
        #expect(dependencies.contains("\"Storage\""))
        for web in ["HTTP", "HTTPServer", "Templates", "ArcadeWeb"] {
            #expect(!dependencies.contains("\"\(web)\""), "ArcadeStore depends on \(web)")
        }
    }

    /// Counted from a declaration's line to its closing brace, strings and comments set aside.
    @Test func noFunctionOfTheSiteRunsPast60Lines() {
        var long: [String] = []
        let site = ["Sources/ArcadeStore", "Sources/ArcadeWeb", "Sources/arcade"].flatMap { Self.files(under: $0) }
        for (path, text) in site {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(Self.code)
            for (index, line) in lines.enumerated() where Self.declaresFunction(line) {
                var depth = 0
                var opened = false
                for end in index..<lines.count {
                    depth += lines[end].count { $0 == "{" } - lines[end].count { $0 == "}" }
                    opened = opened || lines[end].contains("{")
                    if opened && depth <= 0 {
                        if end - index + 1 > 60 { long.append("\(path):\(index + 1) (\(end - index + 1) lines)") }
                        break
                    }
                    if !opened && end > index + 15 { break }
                }
            }
        }
        #expect(long == [])
    }

    /// Every name a template reads, sections and branches no test renders included, is one the site's code gives: a
    /// key spelt as a string in the web, store or template code (a review: a misspelt section hides its block in
    /// silence, and the audit of rendered pages sees only the variables of what tests render). Localized strings
    /// (`t.`) and number formats (`num.`) are checked where they are compiled.
    @Test func everyNameATemplateReadsIsOneTheCodeGives() {
        let code = ["Sources/ArcadeWeb", "Sources/ArcadeStore", "Sources/Templates"].flatMap { Self.files(under: $0) }
        let given = Set(code.flatMap { $0.text.matches(of: /"([A-Za-z_][A-Za-z0-9_]*)"/).map { String($0.1) } })
        let templates = Self.files(under: "Templates", ending: ".mustache")
        var unknown: [String] = []
        for (path, text) in templates {
            for tag in text.matches(of: /\{\{\{?\s*[#^&]?\s*([^}\s!>\/=][^}\s]*)/) {
                let parts = tag.1.split(separator: ".").map(String.init)
                guard tag.1 != ".", !["t", "num"].contains(parts.first) else { continue }
                unknown += parts.filter { !given.contains($0) }.map { "\(path): {{\(tag.1)}} (\($0))" }
            }
        }
        #expect(templates.count > 20 && given.count > 400)
        #expect(unknown == [], "names no code gives")
    }

    static func declaresFunction(_ line: String) -> Bool {
        let words = line.split(separator: " ").prefix { !$0.contains("(") && !$0.contains("<") }
        let rest = line.split(separator: " ").dropFirst(words.count).first ?? ""
        return words.last == "func" || rest.hasPrefix("init(") || rest.hasPrefix("init<") || rest.hasPrefix("init?(")
            || (words.isEmpty && (rest.hasPrefix("init(") || rest.hasPrefix("init<")))
    }

    /// The line without its comment and the contents of its strings.
    static func code(_ line: Substring) -> String {
        var out = ""
        var inString = false
        var previous: Character = " "
        for character in line {
            if !inString && character == "/" && previous == "/" {
                out.removeLast()
                break
            }
            if character == "\"" && previous != "\\" { inString.toggle() } else if !inString { out.append(character) }
            previous = character
        }
        return out
    }
}
