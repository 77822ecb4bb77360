import Foundation  // only as an oracle: String(format:)
import Testing

@testable import Localization

@Suite("Formatting and plurals")
struct FormatTests {
    @Test(arguments: [
        ("Welcome back, %@!", [FormatArgument.string("Ann")]),
        ("%d of %d", [.int(3), .int(10)]),
        ("%i %u %ld %lld", [.int(-4), .int(5), .int(-6), .int(7_000_000_000)]),
        ("%f|%.2f|%.0f|%8.3f|%-8.1f|", [.double(3.14159), .double(2.005), .double(2.5), .double(-1.5), .double(9.99)]),
        ("100%% sure, %@", [.string("ok")]),
        ("%2$@ before %1$@", [.string("first"), .string("second")]),
        ("%1$d and %1$d again, %2$@", [.int(42), .string("x")]),
        ("%05d|%+d|%x|%X|%o", [.int(42), .int(42), .int(255), .int(255), .int(8)]),
        ("%10@|%-10@|", [.string("right"), .string("left")]),
        ("no specifiers", []),
        ("trailing %", []),
        ("%e %g", [.double(12345.678), .double(0.0001)]),
    ])
    func matchesFoundation(_ format: String, _ arguments: [FormatArgument]) {
        let cArgs: [CVarArg] = arguments.map {
            switch $0 {
            case .string(let s): s as NSString
            case .int(let i): i
            case .double(let d): d
            }
        }
        #expect(StringFormat.format(format, arguments) == String(format: format, arguments: cArgs), "\(format)")
    }

    @Test func missingArgumentsRenderEmpty() {
        #expect(StringFormat.format("%@ and %@", ["one"]) == "one and ")
    }

    @Test func placeholdersHaveKindsAndPositions() {
        #expect(StringFormat.placeholders(in: "Welcome back, %@") == [.init(position: 1, kind: .object)])
        #expect(
            StringFormat.placeholders(in: "%2$@ has %1$d points (%.1f%%)")
                == [
                    .init(position: 1, kind: .integer), .init(position: 2, kind: .object),
                    .init(position: 1, kind: .double),
                ].sorted { $0.position < $1.position })
        #expect(StringFormat.placeholders(in: "%ld games") == StringFormat.placeholders(in: "%d partidas"))
        #expect(StringFormat.placeholders(in: "Hi, %@") != StringFormat.placeholders(in: "Hi %d"))
    }

    @Test func russianHasFewAndMany() {
        let expected: [(Double, PluralCategory)] = [
            (0, .many), (1, .one), (2, .few), (4, .few), (5, .many), (11, .many),
            (12, .many), (21, .one), (22, .few), (25, .many), (101, .one), (111, .many), (1.5, .other),
        ]
        for (n, category) in expected { #expect(PluralRules.category(for: n, language: "ru") == category, "\(n)") }
    }

    @Test func otherLanguages() {
        #expect(PluralRules.category(for: 1, language: "en") == .one)
        #expect(PluralRules.category(for: 0, language: "en") == .other)
        #expect(PluralRules.category(for: 1, language: "de") == .one)
        #expect(PluralRules.category(for: 0, language: "fr") == .one)
        #expect(PluralRules.category(for: 1.5, language: "fr") == .one)
        #expect(PluralRules.category(for: 2, language: "fr") == .other)
        #expect(PluralRules.category(for: 1, language: "es") == .one)
        #expect(PluralRules.category(for: 1_000_000, language: "es") == .many)
        #expect(PluralRules.category(for: 1, language: "ja") == .other)
    }
}
