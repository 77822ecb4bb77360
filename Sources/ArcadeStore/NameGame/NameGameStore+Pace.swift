import Storage

/// How fast learn mode meets new people, the player's choice (a review: two lessons met five of 130, and nothing set
/// the pace, as Anki's new cards a day do). Kept on the player's row, so it follows them to every device.
package enum Pace: String, CaseIterable, Sendable {
    case relaxed, steady, fast

    /// New people a day, from the site's steady number (`namegame.newPerDay`).
    package func newPerDay(_ steady: Int) -> Int {
        switch self {
        case .relaxed: max(1, steady / 2)
        case .steady: steady
        case .fast: steady * 2
        }
    }

    /// Today's goal in lessons: the answers meeting the pace's new people takes (a review met the goal of one lesson
    /// having met two of the fifteen the pace promised).
    package var lessons: Int {
        switch self {
        case .relaxed: 1
        case .steady: 2
        case .fast: 4
        }
    }

    /// People still new (not yet answered right) at one time: a faster pace meets the next sooner.
    package var batch: Int {
        switch self {
        case .relaxed: 3
        case .steady: 4
        case .fast: 6
        }
    }
}

extension NameGameStore {
    /// The player's pace; steady for anyone who never chose.
    package func pace(player: String) throws -> Pace {
        try pool.connection().value(
            String.self, "SELECT namegame_pace FROM players WHERE id = ?", [.text(player)]
        ).flatMap(Pace.init) ?? .steady
    }

    /// Kept on the player's row (made now if need be); steady is kept as no choice.
    package func choose(_ pace: Pace, player: Player) throws {
        try pool.write { db in
            try player.ensureRow(db)
            try db.execute(
                "UPDATE players SET namegame_pace = ? WHERE id = ?",
                [pace == .steady ? .null : .text(pace.rawValue), .text(player.id)])
        }
    }

    /// Whom Learn meets first: a job title, or nil for everyone alike.
    package func focus(player: String) throws -> String? {
        try pool.connection().value(String.self, "SELECT namegame_focus FROM players WHERE id = ?", [.text(player)])
    }

    /// Kept on the player's row (made now if need be); nil: everyone alike.
    package func chooseFocus(_ role: String?, player: Player) throws {
        try pool.write { db in
            try player.ensureRow(db)
            try db.execute(
                "UPDATE players SET namegame_focus = ? WHERE id = ?",
                [role.map { .text($0) } ?? .null, .text(player.id)])
        }
    }
}
