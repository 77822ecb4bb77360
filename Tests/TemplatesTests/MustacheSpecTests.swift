import JSON
import Synchronization
import Templates
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension TemplateValue {
    init(_ json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .integer(let i): self = .int(Int(i))
        case .double(let d): self = .double(d)
        case .string(let s): self = .string(s)
        case .array(let a): self = .list(a.map(TemplateValue.init))
        case .object(let members): self = .object(TemplateFields(members.map { ($0.0, TemplateValue($0.1)) }))
        }
    }
}

func readFile(_ path: String) -> String? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&chunk, 1, chunk.count, file)
        if n == 0 { break }
        bytes += chunk[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}

@Suite("Mustache spec")
struct MustacheSpecTests {
    static let files = ["comments", "delimiters", "interpolation", "inverted", "partials", "sections"]

    /// The official spec, vendored beside these tests (a clone elsewhere than beside ../shared found none); the shared
    /// copy beside the project if that is gone.
    static func specDirectory() -> String? {
        for candidate in ["Tests/TemplatesTests/MustacheSpec", "../shared/mustache-spec", "../../shared/mustache-spec"]
        where access(candidate + "/sections.json", R_OK) == 0 {
            return candidate
        }
        return nil
    }

    /// As parsed; compiled (partials linked in place, text joined); and prepared for a page with the test's data known
    /// ahead (sections on it unrolled, names in it folded), all of it or every other field of it, the rest given when
    /// rendering: each must pass the whole spec.
    @Test(arguments: ["parsed", "compiled", "prepared", "prepared-half"])
    func allCoreSpecTestsPass(mode: String) throws {
        let directory = try #require(
            Self.specDirectory(), "the Mustache spec is missing from Tests/TemplatesTests/MustacheSpec")
        var total = 0
        var passed = 0
        var failures: [String] = []
        for file in Self.files {
            let text = try #require(readFile("\(directory)/\(file).json"))
            let spec = try JSONParser.parse(text)
            for test in spec["tests"]?.array ?? [] {
                total += 1
                let name = "\(file): \(test["name"]?.string ?? "?")"
                var sources = ["<test>": test["template"]?.string ?? ""]
                for (partial, source) in test["partials"]?.members ?? [] { sources[partial] = source.string ?? "" }
                do {
                    let parsed = try TemplateLibrary(sources: sources)
                    let data = TemplateValue(test["data"] ?? .null)
                    let output: String
                    if mode.hasPrefix("prepared"), case .object(let fields) = data {
                        var shared = TemplateFields()
                        var given = TemplateFields()
                        for (index, field) in fields.enumerated() {
                            if mode == "prepared" || index % 2 == 0 {
                                shared[field.0] = field.1
                            } else {
                                given[field.0] = field.1
                            }
                        }
                        let prepared = try #require(parsed.compiled(constants: [:]).prepared("<test>", shared: shared))
                        var bytes: [UInt8] = []
                        prepared.render(.object(given), into: &bytes)
                        output = String(decoding: bytes, as: UTF8.self)
                    } else {
                        output = (mode == "parsed" ? parsed : parsed.compiled(constants: [:])).render("<test>", data)
                    }
                    if output == test["expected"]?.string {
                        passed += 1
                    } else {
                        failures.append(
                            "\(name): got \(output.debugDescription), expected \((test["expected"]?.string ?? "").debugDescription)"
                        )
                    }
                } catch {
                    failures.append("\(name): \(error)")
                }
            }
        }
        print("Mustache spec: \(passed) of \(total) passing")
        for failure in failures { Issue.record("\(failure)") }
        #expect(total == 136)
        #expect(passed == total)
    }
}

@Suite("Templates beyond the spec")
struct TemplateExtensionTests {
    @Test func syntaxErrorsSayWhereAndWhat() {
        func message(_ source: String) -> String {
            do {
                _ = try Template(source, name: "home.mustache")
                return "parsed"
            } catch { return "\(error)" }
        }
        #expect(
            message("<p>\n  {{#games}}\n  {{name}}\n")
                == "home.mustache:2:3: expected {{/games}} before the end of the template")
        #expect(
            message("{{#a}}{{/b}}")
                == "home.mustache:1:7: expected {{/a}} to close the section opened at 1:1, but found {{/b}}")
        #expect(message("x\n {{name") == "home.mustache:2:2: expected '}}' to close the tag")
        #expect(message("{{}}") == "home.mustache:1:1: expected a name inside the tag")
        #expect(message("{{/a}}") == "home.mustache:1:1: found {{/a}} with no open section")
        #expect(message("{{=<% %>}}").hasPrefix("home.mustache:1:1: expected '=}}'"))
        #expect(message("{{a..b}}") == "home.mustache:1:1: 'a..b' is not a valid name")
    }

    /// The audit notes an interpolated name that nothing gives, under the page's template, partials included; a null
    /// given, a section's name (absent is false) and a folded constant are not noted.
    @Test(arguments: ["parsed", "compiled", "prepared"]) func theAuditNotesNamesGivenByNothing(_ kind: String) throws {
        let audit = TemplateAudit()
        let sources = [
            "page": "{{title}}{{#items}}{{name}}{{lable}}{{/items}}{{^gone}}{{given}}{{/gone}}{{> foot}}{{k}}",
            "foot": "{{footer}}{{user.nmae}}",
        ]
        let library = try TemplateLibrary(sources: sources, audit: audit)
        let context: TemplateValue = [
            "title": "T", "items": .list([["name": "a"]]), "given": .null, "user": ["name": "u"],
        ]
        var out: [UInt8] = []
        switch kind {
        case "parsed": library.render("page", context, into: &out)
        case "compiled": library.compiled(constants: ["k": "K"]).render("page", context, into: &out)
        default:
            try #require(library.compiled(constants: ["k": "K"]).prepared("page", shared: [:])).render(
                context, into: &out)
        }
        let expected: Set = ["page: {{lable}}", "page: {{footer}}", "page: {{user.nmae}}"]
        #expect(audit.missing == (kind == "parsed" ? expected.union(["page: {{k}}"]) : expected))
    }

    @Test func escapesByDefault() throws {
        let library = try TemplateLibrary(sources: ["t": "{{x}}|{{{x}}}|{{&x}}"])
        #expect(
            library.render("t", ["x": "<a href=\"'\">&</a>"])
                == "&lt;a href=&quot;&#39;&quot;&gt;&amp;&lt;/a&gt;|<a href=\"'\">&</a>|<a href=\"'\">&</a>")
    }

    @Test func functionsTakeTheRestOfTheNameAndArguments() throws {
        let t = TemplateFunction { path, args in
            .string(
                "[\(path)|\(args.map { "\($0)" }.count)|\(args.first.map { if case .string(let s) = $0 { s } else { "?" } } ?? "")]"
            )
        }
        let library = try TemplateLibrary(sources: [
            "t": "{{t.home.title}} {{t.greeting player.name}} {{#player}}{{t.x name}}{{/player}}"
        ])
        let output = library.render("t", ["t": .function(t), "player": ["name": "<Ann>"]])
        #expect(output == "[home.title|0|] [greeting|1|&lt;Ann&gt;] [x|1|&lt;Ann&gt;]")
    }

    @Test func dynamicPartialsMakeLayouts() throws {
        let library = try TemplateLibrary(sources: [
            "layout": "<main>\n  {{>*page}}\n</main>",
            "home": "<h1>{{title}}</h1>\n<p>hi</p>\n",
        ])
        #expect(
            library.render("layout", ["page": "home", "title": "Arcade"])
                == "<main>\n  <h1>Arcade</h1>\n  <p>hi</p>\n</main>")
    }

    @Test func recursivePartialsAreBounded() throws {
        let library = try TemplateLibrary(sources: ["loop": "x{{>loop}}"])
        #expect(library.render("loop", [:]).count == 101)
    }

    /// Compiled against a language's strings: plain lookups become text once, lookups with arguments bind their
    /// path once and take the arguments per render, and the result is the same as rendering the parsed template.
    @Test func compilingFoldsConstantsAndBindsFunctions() throws {
        let lookups = Mutex(0)
        let bindings = Mutex(0)
        let t = TemplateFunction(
            { path, args in
                lookups.withLock { $0 += 1 }
                return .string("<\(path)\(args.map { " " + $0.text }.joined())>")
            },
            bind: { path in
                bindings.withLock { $0 += 1 }
                return { args in .string("<\(path)\(args.map { " " + $0.text }.joined())>") }
            })
        let sources = [
            "page": "{{t.title}}|{{{t.raw}}}|{{>part}}|{{#items}}{{t.count n}}{{/items}}|{{csrf}}",
            "part": "{{t.part}}+{{csrf}}",
        ]
        let parsed = try TemplateLibrary(sources: sources)
        let compiled = parsed.compiled(constants: ["t": .function(t)])
        #expect(lookups.withLock { $0 } == 4)  // title, raw, part (linked into page, and alone): at compile time
        #expect(bindings.withLock { $0 } == 1)  // count
        let context: TemplateValue = ["csrf": "k&", "items": [["n": 1], ["n": 2]]]
        let expected = "&lt;title&gt;|<raw>|&lt;part&gt;+k&amp;|&lt;count 1&gt;&lt;count 2&gt;|k&amp;"
        #expect(compiled.render("page", context) == expected)
        #expect(lookups.withLock { $0 } == 4)  // rendering looked nothing up by name
        #expect(parsed.render("page", ["t": .function(t), "csrf": "k&", "items": [["n": 1], ["n": 2]]]) == expected)
    }

    /// A section on a constant is rendered ahead only when everything inside it is found there: one that needs the
    /// request's data stays a section.
    @Test func constantSectionsFoldOnlyWhenSelfContained() throws {
        let sources = [
            "page": "{{#menu}}<{{code}}{{#current}}*{{/current}}>{{/menu}}|{{#menu}}{{code}}={{csrf}};{{/menu}}"
        ]
        let constants: TemplateFields = ["menu": [["code": "en", "current": true], ["code": "fr", "current": false]]]
        let compiled = try TemplateLibrary(sources: sources).compiled(constants: constants)
        #expect(compiled.render("page", ["csrf": "k"]) == "<en*><fr>|en=k;fr=k;")
        #expect(compiled.render("page", ["csrf": "j"]) == "<en*><fr>|en=j;fr=j;")
    }

    /// A page's shared values are folded where nothing can shadow them; inside a section whose items may carry the same
    /// name, they are looked up as usual, and a dynamic partial named by one is linked in.
    @Test func preparedPagesFoldSharedValuesOnlyWhereUnshadowed() throws {
        let sources = [
            "layout": "<{{title}}>{{>*page}}|{{#items}}[{{title}}]{{/items}}|{{^items}}{{title}}{{/items}}|{{csrf}}",
            "home": "{{#games}}{{name}}{{/games}}",
        ]
        let library = try TemplateLibrary(sources: sources).compiled(constants: [:])
        let shared: TemplateFields = ["title": "Home", "page": "home", "games": [["name": "a"], ["name": "b"]]]
        let prepared = try #require(library.prepared("layout", shared: shared))
        func render(_ context: TemplateValue) -> String {
            var out: [UInt8] = []
            prepared.render(context, into: &out)
            return String(decoding: out, as: UTF8.self)
        }
        #expect(render(["csrf": "k", "items": [["title": "own"], ["x": 1]]]) == "<Home>ab|[own][Home]||k")
        #expect(render(["csrf": "j"]) == "<Home>ab||Home|j")
        // The same as rendering the unprepared layout with everything in one context.
        var all: [UInt8] = []
        library.render(
            "layout", ["csrf": "j", "title": "Home", "page": "home", "games": [["name": "a"], ["name": "b"]]],
            into: &all)
        #expect(String(decoding: all, as: UTF8.self) == "<Home>ab||Home|j")
    }

    /// A section on a page's shared list is unrolled when prepared: what the items hold is looked up once, ahead, and
    /// only the request's names are looked up per render. Where a section of the request's sits inside (and might
    /// shadow an item's name), the list stays a section.
    @Test func preparedPagesUnrollSharedSections() throws {
        let calls = Mutex(0)
        let counted = TemplateFunction { path, _ in
            calls.withLock { $0 += 1 }
            return .string("n" + path)
        }
        let sources = [
            "page":
                "{{#games}}<{{name}}{{#on}}+{{/on}}:{{csrf}}>{{/games}}|{{#games}}{{#extra}}{{label}}{{/extra}}{{/games}}"
        ]
        let shared: TemplateFields = [
            "games": [
                ["name": .function(counted), "on": true, "label": "a"], ["name": .function(counted), "on": false],
            ]
        ]
        let library = try TemplateLibrary(sources: sources).compiled(constants: [:])
        let prepared = try #require(library.prepared("page", shared: shared))
        let ahead = calls.withLock { $0 }
        func render(_ context: TemplateFields) -> String {
            var out: [UInt8] = []
            prepared.render(.object(context), into: &out)
            return String(decoding: out, as: UTF8.self)
        }
        #expect(render(["csrf": "k", "extra": ["label": "own"]]) == "<n+:k><n:k>|ownown")
        #expect(render(["csrf": "j", "extra": true]) == "<n+:j><n:j>|a")
        #expect(calls.withLock { $0 } == ahead)
        var all: [UInt8] = []
        var everything = shared
        everything["csrf"] = "j"
        everything["extra"] = true
        library.render("page", .object(everything), into: &all)
        #expect(String(decoding: all, as: UTF8.self) == "<n+:j><n:j>|a")
    }
}
