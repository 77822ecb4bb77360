import Files
import Localization
import PropertyList
import Storage
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

/// The translators' round trip: export, import with a preview, one revert; and the admins' pseudo-locale.
@Suite("Strings export and import")
struct StringsExchangeTests {
    static func importFile(_ admin: Player, language: String, name: String, _ text: String) throws -> WireResponse {
        try admin.upload(
            "/admin/strings/import", [("language", language)],
            files: [UploadFile(field: "file", name: name, type: "application/octet-stream", bytes: Array(text.utf8))])
    }

    /// The preview's counts, read from its data attributes.
    static func counts(_ page: WireResponse) -> [String: Int] {
        var result: [String: Int] = [:]
        for status in ["new", "changed", "unchanged", "refused"] {
            result[status] = Player.attribute("data-\(status)", in: page.text).flatMap { Int($0) }
        }
        return result
    }

    static func importID(_ page: WireResponse) -> String? {
        page.text.firstRange(of: "name=\"import\" value=\"").map {
            String(page.text[$0.upperBound...].prefix { $0 != "\"" })
        }
    }

    @Test(arguments: Engine.allCases) func exportThenImportOfEveryShippedLanguageIsANoOp(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let admin = try AdminConsoleTests.admin(server)
        let localizer = server.site.localizer
        #expect(localizer.languages.count == 6)
        for language in localizer.languages {
            let strings = try admin.get("/admin/strings/\(language).strings")
            #expect(strings.status == 200)
            #expect(strings.header("Content-Disposition") == "attachment; filename=\"\(language).strings\"")
            let parsed = try StringsFile(bytes: strings.body)
            #expect(
                parsed.table == localizer.table(language), "\(language): the export reads back as the shipped table")
            #expect(
                parsed.comments["site.name"] == "The site's name, in the header and titles.",
                "the base language's comment")
            let preview = try Self.importFile(admin, language: language, name: "\(language).strings", strings.text)
            #expect(preview.status == 200)
            #expect(
                Self.counts(preview) == ["new": 0, "changed": 0, "unchanged": parsed.keys.count, "refused": 0],
                "\(language)")
            #expect(preview.text.contains("data-nothing"), "nothing to apply")

            let plurals = try admin.get("/admin/strings/\(language).stringsdict")
            #expect(plurals.status == 200)
            let entries = try PluralFormat.entries(from: try PropertyListParser.parse(plurals.body), file: "export")
            let shipped = localizer.pluralTable(language)
            #expect(Set(entries.keys) == Set(shipped.keys))
            for (key, plural) in entries {
                #expect(plural.format == shipped[key]?.format)
                for (name, variable) in plural.variables {
                    #expect(variable.forms == shipped[key]?.variables[name]?.forms, "\(language) \(key)")
                }
            }
            let pluralPreview = try Self.importFile(
                admin, language: language, name: "\(language).stringsdict", plurals.text)
            #expect(
                Self.counts(pluralPreview)["changed"] == 0 && Self.counts(pluralPreview)["refused"] == 0
                    && Self.counts(pluralPreview)["new"] == 0 && (Self.counts(pluralPreview)["unchanged"] ?? 0) > 0,
                "\(language)")
        }
        #expect(try server.site.pool.connection().first("SELECT COUNT(*) AS n FROM string_hotfixes")?.int("n") == 0)
        // A hotfix is part of what the language shows, so of its export.
        #expect(try admin.post("/admin/hotfixes", "key=home.title&language=de&value=Spielhalle+(neu)").status == 303)
        let fixed = try StringsFile(bytes: try admin.get("/admin/strings/de.strings").body)
        #expect(fixed.table["home.title"] == "Spielhalle (neu)")
        // Unknown languages and formats are not found; without a session, the sign-in page.
        #expect(try admin.get("/admin/strings/xx.strings").status == 404)
        #expect(try admin.get("/admin/strings/de.json").status == 404)
        #expect(try Player(server).get("/admin/strings/de.strings").status == 303)
    }

    @Test(arguments: Engine.allCases) func theCommandLineReadsAnExportBackToTheSameTable(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let admin = try AdminConsoleTests.admin(server)
        let scratch = ScratchDirectory()
        for format in ["strings", "stringsdict"] {
            let exported = scratch.path + "/ru.\(format)"
            #expect(Files.writeDurably(try admin.get("/admin/strings/ru.\(format)").body, to: exported))
            let fromExport = try ChildProcess(["strings", exported])
            let fromShipped = try ChildProcess(["strings", "Localizations/ru.lproj/Localizable.\(format)"])
            #expect(fromExport.wait(timeout: 10) == 0 && fromShipped.wait(timeout: 10) == 0)
            #expect(
                fromExport.standardOutput.count > 100 && fromExport.standardOutput == fromShipped.standardOutput,
                "\(format)")
        }
    }

    @Test(arguments: Engine.allCases) func anImportIsPreviewedAppliedAsOneChangeAndUndoneByOneRevert(
        _ engine: Engine
    ) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let admin = try AdminConsoleTests.admin(server)
        let localizer = server.site.localizer
        let shippedTitle = try #require(localizer.table("de")["home.title"])
        let file = """
            /* A translator's file: two changes, one as shipped, one unknown key, one with a placeholder lost. */
            "home.title" = "Spielhalle: Retro";
            "home.heading" = "Wähle dein Spiel";
            "site.name" = "\(localizer.table("de")["site.name"]!)";
            "no.such.key" = "Nichts";
            "language.current" = "aktuell";
            """
        let preview = try Self.importFile(admin, language: "de", name: "de.strings", file)
        #expect(preview.status == 200)
        #expect(Self.counts(preview) == ["new": 0, "changed": 2, "unchanged": 1, "refused": 2])
        #expect(preview.text.contains("data-entry=\"home.title\" data-status=\"changed\""))
        #expect(preview.text.contains("data-entry=\"no.such.key\" data-status=\"refused\""))
        #expect(preview.text.contains("data-entry=\"language.current\" data-status=\"refused\""))
        #expect(preview.text.contains("%@"), "the refusal names the placeholder it lost")
        // Nothing has changed yet.
        #expect(localizer.overlay.values(for: "de").isEmpty)
        let id = try #require(Self.importID(preview))
        // A stringsdict in the same import flow: a form German does not ship is new.
        let plural = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>home.games.count</key><dict>
            <key>NSStringLocalizedFormatKey</key><string>%#@games@</string>
            <key>games</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
            <key>NSStringFormatValueTypeKey</key><string>d</string><key>two</key><string>%d Spielchen</string>
            <key>other</key><string>%d Spiele</string></dict></dict></dict></plist>
            """
        #expect(
            Self.counts(try Self.importFile(admin, language: "de", name: "x.stringsdict", plural)) == [
                "new": 1, "changed": 0,
                "unchanged": 1, "refused": 0,
            ])

        let applied = try admin.post("/admin/strings/import/apply", "import=\(id)")
        #expect(applied.status == 303)
        #expect(
            localizer.overlay.values(for: "de") == [
                "home.title": "Spielhalle: Retro", "home.heading": "Wähle dein Spiel",
            ])
        let db = try server.site.pool.connection()
        #expect(
            try db.first("SELECT COUNT(*) AS n FROM audit WHERE action = 'import strings'")?.int("n") == 1,
            "one audited change")
        #expect(try db.first("SELECT COUNT(*) AS n FROM hotfix_history WHERE batch = ?", [.text(id)])?.int("n") == 2)
        #expect(try admin.get("/admin/strings").text.contains("data-revert-import=\"\(id)\""))
        #expect(
            try admin.get("/admin/hotfixes?q=home.title").text.contains("data-import-batch=\"\(id)\""),
            "the key's history says which import changed it")
        // Applying it twice changes nothing more.
        #expect(try admin.post("/admin/strings/import/apply", "import=\(id)").status == 409)

        // A key changed after the import keeps that later change; the rest goes back.
        #expect(try admin.post("/admin/hotfixes", "key=home.heading&language=de&value=Such+dir+was+aus").status == 303)
        #expect(try admin.post("/admin/strings/import/revert", "import=\(id)").status == 303)
        #expect(localizer.overlay.values(for: "de") == ["home.heading": "Such dir was aus"])
        #expect(localizer.string("home.title", language: "de") == shippedTitle)
        #expect(try db.first("SELECT COUNT(*) AS n FROM audit WHERE action = 'revert import'")?.int("n") == 1)
        #expect(try admin.get("/admin/strings").text.contains("data-import=\"\(id)\" data-reverted"))
        #expect(try admin.post("/admin/strings/import/revert", "import=\(id)").status == 422, "a revert is done once")
    }

    @Test(arguments: Engine.allCases) func aBadFileIsRefusedWhole(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let admin = try AdminConsoleTests.admin(server)
        let broken = "\"home.title\" = \"Spielhalle\";\n\"home.heading\" = \"Wähle\"\n\"site.name\" = \"x\";\n"
        let refused = try Self.importFile(admin, language: "de", name: "de.strings", broken)
        #expect(refused.status == 422)
        #expect(refused.text.contains("3:1"), "line and column of the error")
        let plist = try Self.importFile(
            admin, language: "de", name: "de.stringsdict", "<plist><dict><key>a</key></plist>")
        #expect(plist.status == 422)
        #expect(try Self.importFile(admin, language: "de", name: "de.strings", "").status == 422, "an empty file")
        #expect(try Self.importFile(admin, language: "xx", name: "de.strings", "\"a\" = \"b\";").status == 422)
        let huge = String(repeating: "\"home.title\" = \"Spielhalle\";\n", count: 40_000)
        #expect(try Self.importFile(admin, language: "de", name: "de.strings", huge).status == 413)
        let db = try server.site.pool.connection()
        #expect(try db.first("SELECT COUNT(*) AS n FROM string_imports")?.int("n") == 0, "nothing kept")
        #expect(server.site.localizer.overlay.values(for: "de").isEmpty)
        try admin.get("/admin/strings")  // a refusal page before the handler carries no form token
        let unknown = try admin.post("/admin/strings/import/apply", "import=999")
        #expect(unknown.status == 422, "\(unknown.status) \(unknown.text.suffix(300))")
        // Without the form token, nothing is read.
        let anonymous = Player(server)
        try anonymous.get("/")
        #expect(
            try Self.importFile(anonymous, language: "de", name: "de.strings", "\"home.title\" = \"x\";").status != 200)
    }

    @Test(arguments: Engine.allCases) func thePseudoLocaleIsForAdminsOnly(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let visitor = Player(server)
        let plain = try visitor.get("/?lang=en-XA")
        #expect(plain.text.contains("<html lang=\"en\""), "a visitor gets the language it falls back to")
        let admin = try AdminConsoleTests.admin(server)
        let pseudo = try admin.get("/?lang=en-XA")
        #expect(pseudo.text.contains("<html lang=\"en-XA\""))
        let title = PseudoLocale.transform(server.site.localizer.string("home.heading", language: "en"))
        #expect(pseudo.text.contains(title))
        #expect(title.hasPrefix("[") && title.hasSuffix("]") && !title.contains("Pick"))
        // Remembered for the admin's next pages, and not a language players are offered.
        #expect(try admin.get("/mastermind").text.contains("<html lang=\"en-XA\""))
        #expect(!pseudo.text.contains("?lang=en-XA"))
        #expect(try admin.post("/admin/logout", "").status == 303)
        #expect(try admin.get("/").text.contains("<html lang=\"en\""), "signed out, the pseudo-locale is gone")
    }
}
