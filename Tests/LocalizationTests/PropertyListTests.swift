import Foundation  // only as an oracle: PropertyListSerialization
import PropertyList
import Testing

/// Converts Foundation's reading to ours, for comparison.
func fromFoundation(_ any: Any) -> PropertyListValue? {
    switch any {
    case let s as String: return .string(s)
    case let b as Bool where type(of: any) == Bool.self: return .bool(b)
    case let n as NSNumber:
        let type = String(cString: n.objCType)
        return type == "d" || type == "f" ? .real(n.doubleValue) : .integer(n.intValue)
    case let a as [Any]:
        let items = a.compactMap(fromFoundation)
        return items.count == a.count ? .array(items) : nil
    case let d as [String: Any]:
        var members: [(String, PropertyListValue)] = []
        for key in d.keys.sorted() {
            guard let v = fromFoundation(d[key]!) else { return nil }
            members.append((key, v))
        }
        return .dictionary(members)
    default: return nil
    }
}

func sortedKeys(_ v: PropertyListValue) -> PropertyListValue {
    switch v {
    case .array(let a): .array(a.map(sortedKeys))
    case .dictionary(let d):
        .dictionary(
            Dictionary(d, uniquingKeysWith: { $1 }).sorted { $0.key < $1.key }.map { ($0.key, sortedKeys($0.value)) })
    default: v
    }
}

@Suite("XML property lists")
struct PropertyListTests {
    static let document = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <!-- constants -->
        <dict>
            <key>mastermind.attempts</key>
            <integer>10</integer>
            <key>hint.interval</key><real>2.5</real>
            <key>enabled</key><true/>
            <key>disabled</key><false/>
            <key>title</key><string>Tom &amp; Jerry &lt;3 &#233;&#x1F600; <![CDATA[<raw>]]></string>
            <key>empty</key><string/>
            <key>list</key>
            <array>
                <string>a</string>
                <integer>-3</integer>
                <dict><key>nested</key><array/></dict>
            </array>
        </dict>
        </plist>
        """

    @Test func readsWhatFoundationReads() throws {
        let ours = try PropertyListParser.parse(Array(Self.document.utf8))
        let apple = try PropertyListSerialization.propertyList(from: Data(Self.document.utf8), format: nil)
        #expect(sortedKeys(ours) == fromFoundation(apple))
        #expect(ours["title"]?.string == "Tom & Jerry <3 é😀 <raw>")
        #expect(ours["mastermind.attempts"] == .integer(10))
    }

    @Test(arguments: [
        ("<plist><dict><key>a</key></dict></plist>", "the key 'a' has no value"),
        ("<plist><dict><string>x</string></dict></plist>", "expected <key> or </dict>"),
        ("<plist><dict><key>a</key><integer>ten</integer></dict></plist>", "<integer> holds 'ten'"),
        ("<plist><dict><key>a</key><real>x</real></dict></plist>", "<real> holds 'x'"),
        ("<plist><dict><key>a</key><string>x</dict></plist>", "expected </string>"),
        ("<plist><dict><key>a</key><blob/></dict></plist>", "unknown element <blob>"),
        ("<plist><dict>", "unexpected end of file"),
        ("<plist><string>&bogus;</string></plist>", "unknown entity"),
        ("<plist><string>a</string></plist> trailing", "unexpected content after"),
        ("not xml", "expected an element"),
    ])
    func malformedListsSayWhy(_ text: String, _ message: String) {
        do {
            _ = try PropertyListParser.parse(Array(text.utf8), file: "Constants.plist")
            Issue.record("parsed \(text)")
        } catch {
            #expect(error.message.contains(message), "\(error)")
            #expect(error.description.hasPrefix("Constants.plist:1:"), "\(error)")
        }
    }

    @Test func deepNestingIsBounded() {
        let deep = String(repeating: "<array>", count: 10_000) + String(repeating: "</array>", count: 10_000)
        #expect(throws: PropertyListParser.Error.self) { try PropertyListParser.parse(Array(deep.utf8)) }
    }
}
