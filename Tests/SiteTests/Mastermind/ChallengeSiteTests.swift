import Storage
import TestSupport
import Testing

/// "Challenge a friend" with three players on both engines: the link plays the same code, shows the score to beat
/// and never the rows (or the code) before the friend's own game is over; then each sees the others' rows.
@Suite("Mastermind challenges")
struct ChallengeSiteTests {
    /// Plays the player's game in play: `misses` wrong guesses (all different: `wrong` steps over the secret, so every
    /// other one), then the secret.
    private func finish(_ player: Player, misses: Int) throws {
        let secret = try player.secret()
        let board = try player.get("/mastermind").text
        let game = try #require(Player.attribute("data-game", in: board))
        for turn in 0..<misses {
            #expect(
                try player.post("/mastermind/guess", "game=\(game)&turn=\(turn)&guess=\(wrong(secret, 2 * turn))")
                    .status
                    == 303)
        }
        #expect(try player.post("/mastermind/guess", "game=\(game)&turn=\(misses)&guess=\(secret)").status == 303)
    }

    @Test(arguments: Engine.allCases) func threePlayersOneCode(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let ana = Player(server, from: "127.0.0.2")
        try ana.startMastermind()
        #expect(try ana.post("/progress/name", "name=Ana").status == 303)
        let secret = try ana.secret()
        try finish(ana, misses: 2)
        let card = try ana.get("/mastermind").text
        let path = try #require(
            card.firstMatch(of: /data-challenge><a href="(\/mastermind\/challenge\/[A-Za-z0-9_-]{24})"/).map {
                String($0.1)
            })
        #expect(!path.contains(secret))
        let own = try ana.get(path).text
        #expect(own.contains("data-challenge-link") && own.contains("data-waiting"))

        // Bo opens the link: the score to beat, not a row of Ana's nor the code.
        let bo = Player(server, from: "127.0.0.3")
        let invitation = try bo.get(path)
        #expect(invitation.status == 200)
        #expect(Player.attribute("data-to-beat", in: invitation.text) == "3/10")
        #expect(invitation.text.contains("Ana played this code: 3/10."), "who sent it, by the name they chose")
        // …and the rules, for a friend new to the game (a review: the landing said only what to beat).
        #expect(invitation.text.contains("data-challenge-rules>Crack the 4-digit code. Digits run from 0 to 7"))
        #expect(invitation.text.contains("right digit, wrong place"))
        #expect(!invitation.text.contains("data-guess=") && !invitation.text.contains(secret))
        #expect(try bo.post(path, "").header("Location") == "/mastermind")
        #expect(try bo.secret() == secret, "the same code")
        // Bo's board says whose code it is while it is played (a review: it looked like any game until its end).
        let board = try bo.get("/mastermind").text
        #expect(board.contains("data-challenge-board>A friend’s code: once your game is over, you’ll see each other’s"))
        #expect(board.contains("data-challenge-rules>A friend’s code"), "and under a phone's board, for its rules")
        let playing = try bo.get(path).text
        #expect(playing.contains("data-challenge-playing") && !playing.contains("data-guess="))
        // Taken once: a second start changes nothing.
        #expect(try bo.post(path, "").header("Location") == path)
        // Ana, while Bo plays, sees nobody's rows but her own.
        #expect(try ana.get(path).text.ranges(of: "data-side ").count == 1)
        try finish(bo, misses: 0)
        let compare = try bo.get("/mastermind").text
        #expect(!compare.contains("data-challenge-board"), "said while it is played only")
        // Bo's card says who won (a review found it only behind "See how you compare", at the card's foot).
        #expect(compare.contains("data-challenge-verdict>You win: 1/10 against 3/10. <a class=\"result-compare\""))
        #expect(compare.contains("href=\"\(path)\" data-compare>"), "Bo's card leads back to the challenge")
        // …and shows Ana's rows beside his own, as the challenge promised (a review met only the two scores).
        let theirs = try #require(compare.split(separator: "data-challenge-rows>").dropFirst().first)
        #expect(theirs.split(separator: "</ol>")[0].ranges(of: "<li>").count == 3)
        let both = try bo.get(path).text
        #expect(both.ranges(of: "data-side ").count == 2)
        #expect(both.contains("data-score=\"3/10\"") && both.contains("data-score=\"1/10\""))
        #expect(both.contains("data-guess=\"\(secret)\""))
        // Each guess read digit by digit, as the board says it (a blind review heard "0123" as a number), numbered.
        let spelled = secret.map(String.init).joined(separator: ", ")
        #expect(both.contains("<span class=\"visually-hidden\">Guess 1: \(spelled)</span>"))
        // Who won, said against Bo's own game at the top (once: not again under Ana's board).
        #expect(both.contains("data-verdict>You win: 1/10 against 3/10.</p>"))
        #expect(!both.contains("data-side-verdict"))

        // Cy starts too but has not finished: Ana sees Bo only, Cy sees nothing of the others.
        let cy = Player(server, from: "127.0.0.4")
        try cy.get(path)
        try cy.post(path, "")
        let cyPage = try cy.get(path).text
        #expect(!cyPage.contains("data-guess=") && !cyPage.contains("data-score=\"1/10\""))
        #expect(try ana.get(path).text.ranges(of: "data-side ").count == 2)
        try finish(cy, misses: 4)
        let anaSees = try ana.get(path).text
        #expect(anaSees.ranges(of: "data-side ").count == 3)
        // Ana, the sender: a line under each friend's board, none at the top.
        #expect(!anaSees.contains("data-verdict>"))
        #expect(anaSees.contains("data-side-verdict>You lose: 3/10 against 1/10.</p>"))
        #expect(anaSees.contains("data-side-verdict>You win: 3/10 against 5/10.</p>"))
        let cySees = try cy.get(path).text
        #expect(cySees.ranges(of: "data-side ").count == 3)
        #expect(cySees.contains("data-verdict>You lose: 5/10 against 3/10.</p>"))
        #expect(cySees.ranges(of: "data-side-verdict>").count == 1)
        #expect(cySees.contains("data-side-verdict>You lose: 5/10 against 1/10.</p>"))

        // Dee matches Ana's 3/10 with a hint: marked so, and not a tie (a review's hinted 6/10 was "a tie").
        let dee = Player(server, from: "127.0.0.5")
        try dee.get(path)
        try dee.post(path, "")
        let code = try dee.secret()
        let deeGame = try #require(Player.attribute("data-game", in: try dee.get("/mastermind").text))
        for (turn, guess) in [wrong(code, 0), wrong(code, 2), code].enumerated() {
            if turn == 1 { #expect(try dee.post("/mastermind/hint", "confirm=1").status == 303) }  // not the free one
            #expect(try dee.post("/mastermind/guess", "game=\(deeGame)&turn=\(turn)&guess=\(guess)").status == 303)
        }
        let deeSees = try dee.get(path).text
        #expect(
            deeSees.contains("data-verdict>You lose: 3/10 with a hint against 3/10.</p>"),
            "\(deeSees.matches(of: /data-(side-)?verdict>[^<]*/).map { $0.0 })")
        #expect(try ana.get(path).text.contains("data-side-verdict>You win: 3/10 against 3/10 with a hint.</p>"))

        // A forged or cut link is a 404; a daily has no challenge.
        var forged = Array(path)
        forged[forged.count - 1] = forged.last == "A" ? "B" : "A"
        #expect(try bo.get(String(forged)).status == 404)
        #expect(try bo.get(String(path.dropLast(2))).status == 404)
        let daily = try ana.get("/mastermind/daily").text
        #expect(!daily.contains("data-challenge>"))
    }
}
