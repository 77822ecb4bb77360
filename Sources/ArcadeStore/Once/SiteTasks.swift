import Once

/// The tasks the site tracks, and what the page shows for them.
package enum SiteTasks {
    package static let mastermindPlayed = "mastermind.played"
    package static let mastermindWon = "mastermind.won"
    package static let nameGamePlayed = "namegame.played"
    package static let tryNameGame = "namegame.try"
    package static let whatsNew = "whatsnew"
    package static let updateDismissed = "update.dismissed"
    package static func tutorial(_ game: String) -> String { "tutorial.\(game)" }
    package static func cheat(_ name: String) -> String { "cheat.\(name)" }
    package static let dismissable = [tutorial("mastermind"), tutorial("namegame"), tryNameGame, updateDismissed]

    /// Shown until dismissed, or until the game was played twice.
    /// Until dismissed or a first game is over (a review without scripts had it above the board for a whole game).
    package static func showsTutorial(_ once: Once, game: String) -> Bool {
        !once.beenDone(tutorial(game)) && !once.beenDone("\(game).played")
    }
}
