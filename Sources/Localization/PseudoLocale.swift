/// The pseudo-locale `en-XA`: the base language accented, bracketed and a third longer, with its placeholders intact,
/// so that text nobody localized (plain ASCII on the page) and text clipped by its box (a missing bracket) show at a
/// glance.
public enum PseudoLocale {
    public static let tag = "en-XA"

    public static func transform(_ text: String) -> String {
        var out = "["
        var letters = 0
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.first {
            if scalar == "%" {
                let spec = specifier(scalars)
                out.unicodeScalars.append(contentsOf: spec)
                scalars = scalars.dropFirst(spec.count)
                continue
            }
            scalars = scalars.dropFirst()
            if let accented = accents[scalar] { out.unicodeScalars.append(accented); letters += 1 }
            else { out.unicodeScalars.append(scalar); if scalar.properties.isAlphabetic { letters += 1 } }
        }
        // About 30% more, in words that wrap like real ones.
        var padding = ""
        let wanted = (letters * 3 + 9) / 10
        for word in filler where padding.count < wanted { padding += " " + word }
        return out + padding + "]"
    }

    /// A printf or `%#@name@` specifier at the start of `scalars`, kept as it is.
    static func specifier(_ scalars: Substring.UnicodeScalarView) -> Substring.UnicodeScalarView {
        var end = scalars.index(after: scalars.startIndex)
        guard end < scalars.endIndex else { return scalars }
        if scalars[end] == "%" { return scalars[...end] }
        while end < scalars.endIndex {
            let scalar = scalars[end]
            if scalar.properties.isWhitespace { return scalars[..<end] }  // "50% off": a lone percent sign
            if scalar == "@" && scalars[scalars.index(before: end)] == "#" {
                // `%#@name@`: up to the closing `@`.
                var close = scalars.index(after: end)
                while close < scalars.endIndex, scalars[close] != "@" { close = scalars.index(after: close) }
                return scalars[..<min(scalars.index(after: close), scalars.endIndex)]
            }
            if scalar.properties.isAlphabetic && !"hlqLzjt".unicodeScalars.contains(scalar) || scalar == "@" {
                return scalars[...end]
            }
            end = scalars.index(after: end)
        }
        return scalars
    }

    private static let filler = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                                 "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
                                 "twenty", "twenty-one", "twenty-two", "twenty-three", "twenty-four", "twenty-five"]

    private static let accents: [Unicode.Scalar: Unicode.Scalar] = {
        let plain = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".unicodeScalars)
        let fancy = Array("åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ".unicodeScalars)
        return Dictionary(uniqueKeysWithValues: zip(plain, fancy))
    }()
}
