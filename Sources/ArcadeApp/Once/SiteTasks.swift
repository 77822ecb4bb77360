import Once

/// The tasks the site tracks, and what the page shows for them.
enum SiteTasks {
    static let mastermindPlayed = "mastermind.played"
    static let mastermindWon = "mastermind.won"
    static let nameGamePlayed = "namegame.played"
    static let tryNameGame = "namegame.try"
    static let whatsNew = "whatsnew"
    static let updateDismissed = "update.dismissed"
    static func tutorial(_ game: String) -> String { "tutorial.\(game)" }
    static func cheat(_ name: String) -> String { "cheat.\(name)" }
    static let dismissable = [tutorial("mastermind"), tutorial("namegame"), tryNameGame, updateDismissed]

    /// Shown until dismissed, or until the game was played twice.
    /// Until dismissed or a first game is over (a review without scripts had it above the board for a whole game).
    static func showsTutorial(_ once: Once, game: String) -> Bool {
        !once.beenDone(tutorial(game)) && !once.beenDone("\(game).played")
    }
}
