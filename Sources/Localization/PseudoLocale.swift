/// The pseudo-locale `en-XA`: the base language accented, bracketed and a third longer, with its placeholders intact,
/// so that text nobody localized (plain ASCII on the page) and text clipped by its box (a missing bracket) show at a
/// glance.
public enum PseudoLocale {
    public static let tag = "en-XA"

    public static func transform(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var out = "["
        var letters = 0
        var cursor = 0
        for range in kept(bytes) where range.lowerBound >= cursor {
            out +=
                accented(bytes[cursor..<range.lowerBound], letters: &letters)
                + String(decoding: bytes[range], as: UTF8.self)
            cursor = range.upperBound
        }
        out += accented(bytes[cursor...], letters: &letters)
        // About 30% more, in words that wrap like real ones.
        var padding = ""
        let wanted = (letters * 3 + 9) / 10
        for word in filler where padding.count < wanted { padding += " " + word }
        return out + padding + "]"
    }

    /// What stays as written: the format's specifiers (as `StringFormat` reads them), `%%`, and `%#@name@` variables,
    /// by where they start, the longest first.
    static func kept(_ bytes: [UInt8]) -> [Range<Int>] {
        let percent = UInt8(ascii: "%")
        let at = UInt8(ascii: "@")
        var ranges = StringFormat.specs(bytes).map(\.source)
        var i = 0
        while i + 1 < bytes.count {
            guard bytes[i] == percent else {
                i += 1
                continue
            }
            if bytes[i + 1] == percent {
                ranges.append(i..<i + 2)
                i += 2
                continue
            }
            var j = i + 1
            while j < bytes.count, (0x30...0x39).contains(bytes[j]) || bytes[j] == UInt8(ascii: "$") { j += 1 }
            if j + 1 < bytes.count, bytes[j] == UInt8(ascii: "#"), bytes[j + 1] == at,
                let close = bytes[(j + 2)...].firstIndex(of: at)
            {
                ranges.append(i..<close + 1)
                i = close + 1
                continue
            }
            i += 1
        }
        return ranges.sorted { ($0.lowerBound, $1.count) < ($1.lowerBound, $0.count) }
    }

    static func accented(_ bytes: ArraySlice<UInt8>, letters: inout Int) -> String {
        var out = ""
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            if let accented = accents[scalar] {
                out.unicodeScalars.append(accented)
                letters += 1
                continue
            }
            out.unicodeScalars.append(scalar)
            if scalar.properties.isAlphabetic { letters += 1 }
        }
        return out
    }

    private static let filler = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
        "twenty", "twenty-one", "twenty-two", "twenty-three", "twenty-four", "twenty-five",
    ]

    private static let accents: [Unicode.Scalar: Unicode.Scalar] = {
        let plain = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".unicodeScalars)
        let fancy = Array("åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ".unicodeScalars)
        return Dictionary(uniqueKeysWithValues: zip(plain, fancy))
    }()
}
