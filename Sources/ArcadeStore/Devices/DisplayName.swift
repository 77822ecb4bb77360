import Storage

/// A name a player may show on today's board: 2 to 24 characters of letters, digits, marks, spaces and `-_.'`, spaces
/// collapsed; never one that reads as another player's or an admin's once look-alike letters are folded (`key`), nor
/// one holding a refused word (built in, and the hotfixable `names.refused`).
package struct DisplayName: Sendable, Equatable {
    package let text: String
    /// What the name reads as: lower case, digits and other scripts' look-alikes folded to Latin letters, everything
    /// but letters and digits dropped. Two names with one key are one name.
    package let key: String

    package enum Problem: String, Error, Sendable {
        /// Too short, too long, or a character a name may not hold.
        case invalid
        /// Reads as another player's or an admin's name.
        case taken
        /// Holds a refused word.
        case refused
    }

    package static let lengths = 2...24
    /// Words no name may hold, whatever the hotfix says: names that would pass for the site or its staff.
    package static let builtInRefused = ["admin", "moderator", "arcade", "system", "official", "support"]

    /// The name as typed, cleaned, or why not.
    package init(_ typed: String) throws(Problem) {
        var scalars: [Unicode.Scalar] = []
        var space = false
        for scalar in typed.unicodeScalars.prefix(256) {
            switch scalar.properties.generalCategory {
            case .spaceSeparator:
                space = !scalars.isEmpty
                continue
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber,
                .nonspacingMark, .spacingMark:
                break
            case _ where "-_.'".unicodeScalars.contains(scalar):
                break
            default:
                throw .invalid
            }
            if space { scalars.append(" ") }
            space = false
            scalars.append(scalar)
        }
        let text = String(String.UnicodeScalarView(scalars))
        guard Self.lengths.contains(text.count) else { throw .invalid }
        self.text = text
        key = Self.key(text)
        guard key.count >= 2 else { throw .invalid }
    }

    /// What `text` reads as (see `key`). Accents go (a letter with a combining accent and its precomposed form are one
    /// name, as the eye reads them), then look-alikes fold.
    package static func key(_ text: String) -> String {
        var out = ""
        for character in text.lowercased() {
            for original in character.unicodeScalars where original.properties.generalCategory != .nonspacingMark {
                let scalar = accented(original)
                if let folded = lookAlikes[scalar] {
                    out += folded
                } else if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        // Pairs that read as one letter at a glance.
        return out.replacing("rn", with: "m").replacing("vv", with: "w")
    }

    /// A Latin letter with an accent (Latin-1 and Latin Extended-A, lower case) as its base letter.
    package static func accented(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let value = Int(scalar.value)
        let table: [UInt8]
        let offset: Int
        switch value {
        case 0xE0...0xFF: (table, offset) = (latin1, 0xE0)
        case 0x100...0x17F: (table, offset) = (extendedA, 0x100)
        default: return scalar
        }
        let base = table[value - offset]
        return base == UInt8(ascii: "_") ? scalar : Unicode.Scalar(base)
    }

    /// U+00E0–U+00FF and U+0100–U+017F by base letter; `_` where there is none (÷, þ).
    private static let latin1 = Array("aaaaaaaceeeeiiiidnooooo_ouuuuy_y".utf8)
    private static let extendedA = Array(
        ("aaaaaa" + "cccccccc" + "dddd" + "eeeeeeeeee" + "gggggggg" + "hhhh" + "iiiiiiiiii" + "ii" + "jj" + "kkk"
            + "llllllllll" + "nnnnnnnnn" + "oooooooo" + "rrrrrr" + "ssssssss" + "tttttt" + "uuuuuuuuuuuu" + "ww" + "yyy"
            + "zzzzzz" + "s").utf8)

    /// Letters of other scripts and digits that pass for Latin letters, folded to them.
    package static let lookAlikes: [Unicode.Scalar: String] = {
        var map: [Unicode.Scalar: String] = [:]
        let pairs = [
            // Cyrillic
            ("а", "a"), ("в", "b"), ("е", "e"), ("ё", "e"), ("к", "k"), ("м", "m"), ("н", "h"), ("о", "o"), ("р", "p"),
            ("с", "c"), ("т", "t"), ("у", "y"), ("х", "x"), ("і", "i"), ("ј", "j"), ("ѕ", "s"), ("ԁ", "d"), ("ɡ", "g"),
            // Greek
            ("α", "a"), ("β", "b"), ("ε", "e"), ("η", "n"), ("ι", "i"), ("κ", "k"), ("ν", "v"), ("ο", "o"), ("ρ", "p"),
            ("τ", "t"), ("υ", "u"), ("χ", "x"),
            // Digits and Latin letters that read as others
            ("0", "o"), ("1", "l"), ("i", "l"), ("3", "e"), ("4", "a"), ("5", "s"), ("7", "t"), ("8", "b"), ("ı", "l"),
        ]
        for (from, to) in pairs { map[from.unicodeScalars.first!] = to }
        return map
    }()

    /// Whether the name holds a refused word (each folded as names are).
    package func holdsRefused(_ words: [String]) -> Bool {
        (Self.builtInRefused + words).contains { word in
            let folded = Self.key(word)
            return !folded.isEmpty && key.contains(folded)
        }
    }
}

extension DisplayName {
    /// The name a player chose, if any.
    package static func of(_ player: String, _ db: Database) throws -> String? {
        try db.value(String.self, "SELECT display_name FROM players WHERE id = ?", [.text(player)])
    }
}

extension PasskeyStore {
    /// The player's name, if they chose one.
    package func displayName(player: String) throws -> String? { try DisplayName.of(player, pool.connection()) }

    /// Gives the player `name` (nil: anonymous again). Refused if it reads as another player's or an admin's.
    package func setDisplayName(_ name: DisplayName?, player: Player) throws -> DisplayName.Problem? {
        try pool.write { db throws -> DisplayName.Problem? in
            try player.ensureRow(db)
            guard let name else {
                try db.execute(
                    "UPDATE players SET display_name = NULL, name_key = NULL WHERE id = ?", [.text(player.id)])
                return nil
            }
            let admins = try db.query("SELECT name FROM admins").map { row throws in
                DisplayName.key(try row.decode("name", as: String.self))
            }
            if admins.contains(name.key) { return .taken }
            let other = try db.value(
                String.self, "SELECT id FROM players WHERE name_key = ? AND id != ?",
                [.text(name.key), .text(player.id)])
            if other != nil { return .taken }
            try db.execute(
                "UPDATE players SET display_name = ?, name_key = ? WHERE id = ?",
                [.text(name.text), .text(name.key), .text(player.id)])
            return nil
        }
    }
}
