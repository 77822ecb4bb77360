/// Whether a typed name is the person asked for, in recall rounds. The rule: case, accents and spacing are folded
/// away; the first name alone is enough (the full name also counts); for names of three letters or more one typo is
/// forgiven (Damerau–Levenshtein distance ≤ 1: a letter wrong, missing, extra, or two swapped); but a name that is
/// exactly the first name of someone else the player has met never counts, so "Mat" is not "Matt" once a Mat is
/// known (a review: refused for a Mat never met, "Mat" read as a typo the rule had promised to forgive). Where the
/// team has two people of one first name, it is not enough: the full name is asked for (`fullName`; a review: with
/// two Hiros, "Hiro" named neither).
public enum NameMatch {
    /// Shortest name that forgives a typo: in a two-letter one, one letter is most of it. A three-letter typo that is
    /// another person's first name is still refused (a review: "bee" for Bea was plain wrong).
    public static let typoMinimum = 3

    /// Everyone `among` counted as met.
    public static func accepts(
        _ typed: String, for person: Person, among everyone: [Person], fullName: Bool = false
    ) -> Bool {
        accepts(typed, for: person, among: everyone, fullName: fullName, known: { _ in true })
    }

    /// `known`: whether the player has met someone, by id.
    public static func accepts(
        _ typed: String, for person: Person, among everyone: [Person], fullName: Bool = false,
        known: (String) throws -> Bool
    ) rethrows -> Bool {
        let text = fold(typed)
        guard !text.isEmpty else { return false }
        let first = fold(person.firstName)
        let full = fold(person.fullName)
        if fullName { return text == full || close(text, full) }
        if text == first || text == full { return true }
        let word = String(text.split(separator: " ").first ?? "")
        let others = everyone.filter { $0.id != person.id && fold($0.firstName) != first }
        let namesakes = others.filter { fold($0.firstName) == word || fold($0.fullName) == text }
        if try namesakes.contains(where: { try known($0.id) }) { return false }
        if word == first { return true }
        return close(word, first) || close(text, full)
    }

    /// Whether the full name is asked for: someone else in `team` has the same first name (case and accents aside),
    /// whom only the full name tells apart, met or not (a review: with two Samis on the team, "Sami" could not show
    /// which one the player knew).
    public static func asksFullName(_ person: Person, among team: [Person]) -> Bool {
        let first = fold(person.firstName)
        return team.contains { $0.id != person.id && fold($0.firstName) == first }
    }

    /// Whether `typed` is the person's surname alone (case and accents aside), not also their first name.
    public static func isSurname(_ typed: String, of person: Person) -> Bool {
        let text = fold(typed)
        return !text.isEmpty && text == fold(person.lastName) && text != fold(person.firstName)
    }

    /// Whether an accepted name was typed as spelled (case and accents aside): false for a forgiven typo, which the
    /// player is shown the spelling of. Where the full name is asked (`fullName`), all of it.
    public static func spelledRight(_ typed: String, for person: Person, fullName: Bool = false) -> Bool {
        let text = fold(typed)
        let first = fold(person.firstName)
        if fullName { return text == fold(person.fullName) }
        return text == first || text == fold(person.fullName)
            || text.split(separator: " ").first.map(String.init) == first
    }

    /// Within one typo, for names long enough to forgive one.
    static func close(_ typed: String, _ name: String) -> Bool {
        name.count >= typoMinimum && distance(Array(typed), Array(name)) <= 1
    }

    /// Damerau–Levenshtein distance (optimal string alignment: adjacent swaps count as one edit).
    public static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, table[i - 2][j - 2] + 1)
                }
                table[i][j] = best
            }
        }
        return table[a.count][b.count]
    }

    /// Lower case, without accents (combining marks dropped, Latin letters with diacritics mapped to their base; no
    /// Foundation, so a table), hyphens and apostrophes as spaces, spaces collapsed.
    public static func fold(_ text: String) -> String {
        var result = ""
        var space = false
        for scalar in text.lowercased().unicodeScalars {
            if (0x300...0x36F).contains(scalar.value) { continue }  // combining diacritical marks
            if scalar.properties.isWhitespace || scalar == "-" || scalar == "'" || scalar == "\u{2019}" {
                space = !result.isEmpty
                continue
            }
            if space {
                result.append(" ")
                space = false
            }
            if let base = bases[scalar] { result += base } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    private static let bases: [Unicode.Scalar: String] = {
        let groups: [(String, String)] = [
            ("àáâãäåāăą", "a"), ("çćĉċč", "c"), ("ďđð", "d"), ("èéêëēĕėęě", "e"), ("ĝğġģ", "g"), ("ĥħ", "h"),
            ("ìíîïĩīĭįı", "i"), ("ĵ", "j"), ("ķ", "k"), ("ĺļľŀł", "l"), ("ñńņňŉ", "n"), ("òóôõöøōŏő", "o"),
            ("ŕŗř", "r"), ("śŝşšș", "s"), ("ţťŧț", "t"), ("ùúûüũūŭůűų", "u"), ("ŵ", "w"), ("ýÿŷ", "y"),
            ("źżž", "z"), ("ß", "ss"), ("æ", "ae"), ("œ", "oe"), ("þ", "th"),
        ]
        var table: [Unicode.Scalar: String] = [:]
        for (letters, base) in groups {
            for scalar in letters.unicodeScalars { table[scalar] = base }
        }
        return table
    }()
}
