import Mastermind
import Storage
import Synchronization
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

@Suite("Mastermind over HTTP")
struct MastermindSiteTests {
    @Test(arguments: Engine.allCases) func invalidGuessesAre422AndChangeNothing(_ engine: Engine) throws {
        let server = try InProcessSite(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        let board = try player.get("/mastermind")
        let game = try #require(Player.attribute("data-game", in: board.text))
        let cases: [(String, String)] = [
            ("013", "A guess has 4 digits; you entered 3."), ("01234", "A guess has 4 digits; you entered 5."),
            ("0189", "“8” is not one of them"), ("01a3", "“a” is not a digit"), ("", "you entered 0"),
            ("０１２３", "is not a digit"), ("0 12", "“ ” is not a digit"),
        ]
        for (guess, message) in cases {
            let response = try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=\(guess.addingFormEncoding)")
            #expect(response.status == 422, "\(guess)")
            #expect(response.text.contains(message), "\(guess): \(message)")
            #expect(Player.attribute("data-attempts-left", in: response.text) == "10")
            #expect(!response.text.contains("id=\"row-"), "nothing was scored")
        }
        let malformed = try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=%ZZ")
        #expect(malformed.status == 400, "a body that is not a valid form")
        #expect(malformed.text.contains("Bad request"))
        #expect(try player.post("/mastermind/guess", "game=\(game)&turn=5&guess=0123").text.contains("out of date"))
        #expect(try player.post("/mastermind/guess", "game=999&turn=0&guess=0123").status == 422)
        let forged = try server.post(
            "/mastermind/guess", body: "game=\(game)&turn=0&guess=0123",
            headers: ["Cookie": player.cookieHeader])
        #expect(forged.status == 403)
        #expect(Player.attribute("data-attempts-left", in: try player.get("/mastermind").text) == "10")
    }

    @Test(arguments: Engine.allCases) func theSecretNeverLeavesTheServerBeforeTheEnd(_ engine: Engine) throws {
        let server = try InProcessSite(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        _ = try player.startMastermind()
        let first = try player.get("/mastermind")
        let secret = try player.secret()
        var responses = [first]
        for n in 0..<10 {
            let game = try #require(Player.attribute("data-game", in: responses.last!.text))
            responses.append(
                try player.post(
                    "/mastermind/guess", "game=\(game)&turn=\(n)&guess=\(wrong(secret, n * 411 + 7))",
                    fragment: n % 2 == 0))
            if n < 9 { responses.append(try player.get("/mastermind")) }
            responses.append(try player.post("/mastermind/hint", "confirm=1", fragment: true))
        }
        for response in responses.dropLast(2) {
            // A hint is computed from the feedback the player already has, so
            // it may name the secret once only one code fits; it is no leak.
            var text = response.text
            if let start = text.firstRange(of: "<p data-hint="),
                let end = text[start.upperBound...].firstRange(of: "</p>")
            {
                text.removeSubrange(start.lowerBound..<end.upperBound)
            }
            // (Not Content-Length: a page of 11276 bytes "contains" the secret 1127.)
            let everything =
                response.headers.filter { $0.0 != "Content-Length" }.map { "\($0.0): \($0.1)" }.joined(
                    separator: "\n") + text
            #expect(!everything.contains(secret), "the secret leaked before the end")
            #expect(!response.text.contains("data-secret"))
        }
        let end = try player.get("/mastermind")
        #expect(Player.attribute("data-outcome", in: end.text) == "lost")
        #expect(Player.attribute("data-secret", in: end.text) == secret)
    }

    /// A review heard nothing after New game: a board with no row yet says its rules through the script's announcement.
    @Test func aNewBoardSaysItsRules() throws {
        let server = try InProcessSite()
        defer { server.stop() }
        let player = Player(server)
        _ = try player.startMastermind()
        let board = try player.get("/mastermind").text
        #expect(Player.attribute("data-announce", in: board) == "4 digits from 0 to 7, repeats allowed, 10 guesses.")
    }

    /// A guess already made is refused with its row named and costs no try (a player review: a repeat went through
    /// silently and spent a row that could teach nothing).
    @Test func aRepeatedGuessIsRefusedAndCostsNothing() throws {
        let server = try InProcessSite()
        defer { server.stop() }
        let player = Player(server)
        let game = try player.startMastermind()
        let miss = wrong(try player.secret(), 100)
        #expect(try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=\(miss)").status == 303)
        let again = try player.post("/mastermind/guess", "game=\(game)&turn=1&guess=\(miss)", fragment: true)
        #expect(again.status == 422)
        #expect(again.text.contains("You already tried this guess in row 1"))
        #expect(again.text.contains("value=\"\(miss)\""), "the typed guess stays to be changed")
        let board = try player.get("/mastermind").text
        #expect(Player.attribute("data-attempts-left", in: board) == "9")
        #expect(board.ranges(of: " data-guess=\"").count == 1)
    }

    @Test func pegsAreShownRightPlacesFirstNeverInPlaces() throws {
        let server = try InProcessSite()
        defer { server.stop() }
        let player = Player(server)
        let game = try player.startMastermind()
        let d = Array(try player.secret())
        // A guess with a right place, two swapped and a digit not in the code: pegs of two or three kinds.
        let absent = try #require("01234567".first { !d.contains($0) })
        let guesses = [[d[0], d[2], d[1], absent], [absent, d[1], d[3], d[2]], [d[1], absent, d[2], d[3]]]
        for (turn, guess) in guesses.enumerated() {
            try player.post("/mastermind/guess", "game=\(game)&turn=\(turn)&guess=\(String(guess))")
        }
        // Shown right places first, then wrong places, then misses (a review read shuffled pegs as places), each row;
        // the stored order stays shuffled.
        let page = try player.get("/mastermind").text
        let rows = page.matches(of: /<span class="pegs"[^>]*>(.*?)<\/span><\/span>/).map { String($0.output.1) }
        #expect(rows.count == 3)
        let rank = ["red": 0, "blue": 1, "gray": 2]
        for row in rows {
            let kinds = row.matches(of: /peg peg-(red|blue|gray)/).map { rank[String($0.output.1)]! }
            #expect(kinds.count == 4 && kinds == kinds.sorted(), "\(kinds)")
        }
    }

    /// A win says where it stands among the player's own: the first, the fewest guesses again, a new fewest; an
    /// ordinary one says nothing more (a review: a three-row win and a ten-row one got the same card).
    @Test func aWinSaysWhenItIsARecord() throws {
        let server = try InProcessSite(engine: .sqlite)
        defer { server.stop() }
        let player = Player(server)
        var said: [String] = []
        for misses in [1, 1, 0, 2] {
            let game = try player.startMastermind()
            let secret = try player.secret()
            for turn in 0..<misses {
                try player.post("/mastermind/guess", "game=\(game)&turn=\(turn)&guess=\(wrong(secret, 100 + turn))")
            }
            try player.post("/mastermind/guess", "game=\(game)&turn=\(misses)&guess=\(secret)")
            let page = try player.get("/mastermind").text
            #expect(Player.attribute("data-outcome", in: page) == "won")
            said.append(page.firstMatch(of: /data-record>([^<]*)</).map { String($0.1) } ?? "")
        }
        #expect(
            said == ["Your first code cracked!", "That equals your best.", "A new best: your fewest guesses yet!", ""])
    }

    @Test(arguments: Engine.allCases) func aGameCanBeWonWithFormsAlone(_ engine: Engine) throws {
        let server = try InProcessSite(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        let game = try player.startMastermind()
        let secret = try player.secret()
        let miss = try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=\(wrong(secret, 100))")
        #expect(miss.status == 303)
        #expect(miss.header("Location") == "/mastermind#board", "without a script, back to the board")
        // The pegs were shuffled once, when scored: every reload shows the same order.
        func pegs(_ html: String) -> String {
            html.firstRange(of: "<span class=\"pegs\"").map { String(html[$0.lowerBound...].prefix(400)) } ?? ""
        }
        let shown = pegs(try player.get("/mastermind").text)
        #expect(!shown.isEmpty)
        for _ in 0..<5 { #expect(pegs(try player.get("/mastermind").text) == shown) }
        let win = try player.post("/mastermind/guess", "game=\(game)&turn=1&guess=\(secret)")
        #expect(win.status == 303)
        #expect(win.header("Location") == "/mastermind#result")
        let result = try player.get("/mastermind")
        #expect(result.text.contains("id=\"row-2\"") && result.text.contains("id=\"result\""))
        #expect(
            result.text.contains("2 of 10 guesses used") && !result.text.contains("No guesses left"), "a win is no loss"
        )
        #expect(Player.attribute("data-outcome", in: result.text) == "won")
        #expect(result.text.contains("data-guess=\"\(secret)\" data-red=\"4\" data-blue=\"0\" data-gray=\"0\""))
        #expect(result.text.contains("You cracked the code!"))
        // The card's title praises the win by its guesses, as Wordle's does (not "Cracked in 2" a second time).
        #expect(
            result.text.contains(
                "data-praise>Brilliant!<span class=\"visually-hidden\"> You cracked the code!</span></h2>"),
            "a win to the ear too (a blind review heard only \"Splendid!\")")
        #expect(result.text.contains("data-verdict=\"cracked\">Guess 2 ("), "the winning row is not weighed")
        // A code is said digit by digit, in the rows and on the card (a blind review heard "4455" as a number), each
        // row with its number (another went back over seven bare codes).
        let spelled = secret.map(String.init).joined(separator: ", ")
        #expect(
            result.text.contains(
                "<span class=\"row-guess cells\"><span class=\"visually-hidden\">Guess 2: \(spelled)</span>"))
        #expect(
            result.text.contains(
                "<span aria-hidden=\"true\">\(secret)</span><span class=\"visually-hidden\">\(spelled)</span>"))
        // The card's bars are always the same five, as Wordle's are (a review saw them move): a win in 2 is in "≤4".
        let bars = result.text.matches(of: /<li data-guesses="([^"]+)" data-count="(\d+)"( data-current)?/).map {
            "\($0.1)=\($0.2)" + ($0.3 == nil ? "" : "*")
        }
        #expect(bars == ["≤4=1*", "5=0", "6=0", "7=0", "≥8=0"])
        // Said in words (a reader heard "less-than-or-equal 4").
        #expect(
            // (This game's bar says so, as its marker shows: a blind review could not tell which it was.)
            result.text.contains(">Won in 4 guesses or fewer: 1 (this game)<")
                && result.text.contains(">Won in 8 guesses or more: 0<"))
        #expect(
            try player.post("/mastermind/guess", "game=\(game)&turn=2&guess=\(secret)").text.contains(
                "This game is over"))
        let stats = try player.get("/mastermind/stats")
        #expect(stats.text.contains("data-played=\"1\" data-wins=\"1\""))
        // The card's bars, the same everywhere (a review: "≤4" on the card, "2" here).
        #expect(stats.text.contains("data-guesses=\"≤4\" data-count=\"1\""))
        #expect(stats.text.contains("<ol class=\"dist\" aria-labelledby=\"distribution\" data-chart=\"distribution\">"))
        // The chart in words for a screen reader (a review: an image read by its title alone).
        #expect(stats.text.contains("<span class=\"visually-hidden\">Won in 4 guesses or fewer: 1</span>"))
        // A new game starts clean.
        #expect(try player.post("/mastermind/new", "").status == 303)
        let fresh = try player.get("/mastermind")
        #expect(Player.attribute("data-attempts-left", in: fresh.text) == "10")
        #expect(Player.attribute("data-game", in: fresh.text) != game)
    }

    /// The finished page of a game of `guesses`, then the code itself, against `secret`: its solver's review.
    private func reviewed(_ guesses: String..., against secret: String, _ engine: Engine) throws -> String {
        let server = try InProcessSite(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        let game = try player.startMastermind(secret: secret)
        for (turn, guess) in (guesses + [secret]).enumerated() {
            _ = try player.post("/mastermind/guess", "game=\(game)&turn=\(turn)&guess=\(guess)")
        }
        return try player.get("/mastermind").text
    }

    /// A row is weighed by what its guess leaves on average, not by the answer this secret gave: 4566 against 4567
    /// left 28 codes where the solver's 0123 left 256, yet on average it leaves 705 to the solver's 665. The answer's
    /// luck is said apart (a review read the verdicts as scolding when a good guess met an unlucky answer).
    @Test(arguments: Engine.allCases) func aRowIsWeighedOnAverageAndItsLuckSaidApart(_ engine: Engine) throws {
        let text = try reviewed("4566", against: "4567", engine)
        #expect(text.contains("data-best=\"0123\" data-best-left=\"256\" data-verdict=\"close\" data-luck=\"lucky\">"))
        #expect(
            text.contains(
                "<strong>Lucky: on average this guess leaves 705, and this time it left fewer. Nearly as good as the solver’s pick.</strong>"
            ))
    }

    /// A review's 4054 against 1611 left 625 codes where the solver's 0123 would have left 976, yet was "nearly as good
    /// as the solver's pick", on average: read as a contradiction, the row says both.
    @Test(arguments: Engine.allCases) func aRowThatBeatTheSolverHereButNotOnAverageSaysBoth(_ engine: Engine) throws {
        let text = try reviewed("4054", against: "1611", engine)
        #expect(text.contains("data-left=\"625\"") && text.contains("data-best=\"0123\" data-best-left=\"976\""))
        #expect(
            text.contains("<strong>This time it beat the solver’s pick; on average, though, it"))
    }

    /// 0011 against 1242 left 864 where the solver's 0123 would have left 936, and on average leaves 853 to its 665:
    /// said both ways, the verdict "the solver's pick usually leaves fewer" said it a second time (a language review).
    @Test func aRowSaidBothWaysDoesNotSayTheVerdictAgain() throws {
        let text = try reviewed("0011", against: "1242", .sqlite)
        let from = try #require(text.firstRange(of: "data-step=\"1\"")).lowerBound
        let first = try #require(text[from...].firstRange(of: "</li>").map { text[from..<$0.lowerBound] })
        #expect(first.contains("data-verdict=\"worse\"") && first.contains("data-left=\"864\""))
        #expect(first.contains("it leaves 853 to the solver’s 665.") && !first.contains("usually leaves fewer"))
    }

    /// An English reader's third row, 4563 against 3443, left 10 where the solver's 0556 would have left 13, and
    /// read "on average, though, it leaves 10 to the solver's 10. Nearly as good": averages equal once rounded are
    /// not set against each other.
    @Test func averagesEqualOnceRoundedAreNotSetAgainstEachOther() throws {
        let text = try reviewed("0123", "4455", "4563", against: "3443", .sqlite)
        #expect(text.contains("data-left=\"10\"") && text.contains("data-best=\"0556\" data-best-left=\"13\""))
        let from = try #require(text.firstRange(of: "data-step=\"3\"")).lowerBound
        let third = try #require(text[from...].firstRange(of: "</li>").map { text[from..<$0.lowerBound] })
        #expect(!third.contains("on average, though"))
        #expect(text.contains("Nearly as good as the solver’s pick."))
    }

    /// The solver's own opener met a lucky answer: a review read "You got lucky" beside "the solver would have played
    /// the same". Beside a guess as good as the solver's, the answer's luck is only that.
    @Test func theSolversOwnGuessIsNotCalledLucky() throws {
        let text = try reviewed("0123", against: "3210", .sqlite)
        #expect(text.contains("data-verdict=\"best\" data-luck=\"luckyToo\">"))
        // …said after the verdict it adds to (a language review read "too" before it).
        #expect(
            text.contains(
                "<strong>The solver would have played the same. A lucky answer, too: on average this guess leaves 665.")
        )
        #expect(!text.contains("Lucky: "))
    }

    /// The coach follows the rules the player had (a review was told to play 0 0 1 1 in hard mode, which refuses it),
    /// and a pick of the solver's that was the code says so (the review read "2 2 0 7 would have left 1" of the code).
    @Test func theSolversPicksFollowHardModeAndSayWhenTheyWereTheCode() throws {
        let solver = Solver(rules: .classic)
        let opener = try Code("0123", rules: .classic)
        // A secret the solver, in hard mode, would have played second, and another code that also fits the first row.
        let (secret, other) = try #require(
            (0..<4096).lazy.map { Code(index: $0, rules: .classic) }.compactMap { secret -> (Code, Code)? in
                let history = [(opener, Feedback.score(secret: secret, guess: opener))]
                guard solver.nextGuess(after: history, fitting: true) == secret, secret != opener,
                    let other = (0..<4096).lazy.map({ Code(index: $0, rules: .classic) }).first(where: {
                        $0 != secret && Feedback.score(secret: $0, guess: opener) == history[0].1
                    })
                else { return nil }
                return (secret, other)
            }.first)
        let server = try InProcessSite(engine: .sqlite)
        defer { server.stop() }
        let player = Player(server)
        _ = try player.startMastermind()
        try player.post("/mastermind/new", "hard=1")
        let game = try #require(Player.attribute("data-game", in: try player.get("/mastermind").text))
        _ = try Database(location: server.database).execute(
            "UPDATE mastermind_games SET secret = ?", [.text("\(secret)")])
        for (turn, guess) in [opener, other, secret].enumerated() {
            #expect(try player.post("/mastermind/guess", "game=\(game)&turn=\(turn)&guess=\(guess)").status == 303)
        }
        let text = try player.get("/mastermind").text
        let best = try #require(text.firstRange(of: "data-step=\"2\"").map { text[$0.upperBound...] })
        #expect(Player.attribute("data-best", in: String(best)) == "\(secret)", "a code that fits the first row")
        let spaced = MastermindController.spaced("\(secret)")
        #expect(text.contains("In its place, the solver would have played \(spaced), which was the code itself."))
    }

    /// The review's pick at a row is the hint that row was given: a review was hinted 1 4 5 6, played it, and read
    /// that the solver would have played 4 4 5 5, so that the hint had beaten the solver.
    @Test func theReviewsPickAtARowIsTheHintItWasGiven() throws {
        let server = try InProcessSite(engine: .sqlite)
        defer { server.stop() }
        let player = Player(server)
        let game = try player.startMastermind(secret: "3443")
        #expect(try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=0123").status == 303)
        let hinted = try player.post("/mastermind/hint", "confirm=1", fragment: true).text
        let hint = try #require(
            [Player.attribute("data-hint-nudge", in: hinted), Player.attribute("data-hint", in: hinted)]
                .compactMap { $0 }.first { !$0.isEmpty })
        for (turn, guess) in [hint, "3443"].enumerated() where guess != "3443" || hint != "3443" {
            #expect(try player.post("/mastermind/guess", "game=\(game)&turn=\(turn + 1)&guess=\(guess)").status == 303)
        }
        let text = try player.get("/mastermind").text
        let second = try #require(text.firstRange(of: "data-step=\"2\"").map { String(text[$0.upperBound...]) })
        #expect(Player.attribute("data-best", in: second) == hint)
        #expect(Player.attribute("data-verdict", in: second) == "best", "the hint played is the solver's pick")
    }

    /// A row as good as the solver's on average that left more codes this time says so before its verdict (a review
    /// read "185 left; the solver's would have left 47. As good as the solver's pick." as a contradiction). 1235
    /// after 0011 is the solver's 1234 with two unused digits swapped: the same on average, 161 left against 47.
    @Test func aRowAsGoodAsTheSolversThatLeftMoreSaysThisTime() throws {
        let server = try InProcessSite(engine: .sqlite)
        defer { server.stop() }
        let player = Player(server)
        let game = try player.startMastermind(secret: "6143")
        for (turn, guess) in ["0011", "1235", "6143"].enumerated() {
            #expect(try player.post("/mastermind/guess", "game=\(game)&turn=\(turn)&guess=\(guess)").status == 303)
        }
        let text = try player.get("/mastermind").text
        #expect(
            text.contains(
                "Guess 2 (1\u{00A0}2\u{00A0}3\u{00A0}5). Codes still possible after it: 161. In its place, the solver "
                    + "would have played 1\u{00A0}2\u{00A0}3\u{00A0}4, which here would have left 47."))
        #expect(
            text.contains(
                "This time the solver’s pick would have left fewer; on average, though, the two leave the same number. "
                    + "As good as the solver’s pick."))
        // Nearly as good on average, 38 left where the solver's pick would have left 34 (a second review's game, its
        // third row changed once the solver's pick became the hint's): the averages are said before the verdict too.
        let other = Player(server)
        let second = try other.startMastermind(secret: "5074")
        for (turn, guess) in ["0123", "4567", "1205", "5074"].enumerated() {
            #expect(try other.post("/mastermind/guess", "game=\(second)&turn=\(turn)&guess=\(guess)").status == 303)
        }
        let review = try other.get("/mastermind").text
        let third = try #require(
            review.firstRange(of: "Guess 3 (1").map { String(review[$0.lowerBound...].prefix(400)) })
        #expect(
            third.contains(
                "would have left 34. <strong>This time the solver’s pick would have left fewer; on average, though, "
                    + "this guess leaves 27 to the solver’s 24. Nearly as good as the solver’s pick."), "\(third)")
    }

    /// A game won in place (a script posts, the board is swapped) says how many guesses it took, in every language,
    /// never "no tries left".
    @Test(arguments: Engine.allCases) func anInPlaceWinSaysHowManyGuesses(_ engine: Engine) throws {
        let server = try InProcessSite(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        let game = try player.startMastermind()
        let secret = try player.secret()
        for n in 0..<5 {
            try player.post(
                "/mastermind/guess", "game=\(game)&turn=\(n)&guess=\(wrong(secret, n * 97 + 3))", fragment: true)
        }
        let board = try player.post("/mastermind/guess", "game=\(game)&turn=5&guess=\(secret)", fragment: true).text
        #expect(Player.attribute("data-outcome", in: board) == "won")
        // The board has no win count of its own (it left out the daily's wins, and a review read two totals that
        // disagreed): the card's statistics and the stats page count them.
        #expect(!board.contains("data-wins="))
        #expect(board.contains("6 of 10 guesses used") && !board.contains("No guesses left"))
        for (language, words) in [
            ("ja", "予想：10回中6回"), ("de", "6 von 10 Versuchen verbraucht"), ("ru", "Использовано 6 попыток из\u{00A0}10"),
        ] {
            let page = try player.get("/mastermind?lang=\(language)").text
            #expect(page.contains(words), "\(language)")
        }
    }

    /// A loss says how close its rows came: how many codes still fitted them (a review: the loss's words were flat),
    /// counted here by brute force.
    @Test func aLossSaysHowManyCodesStillFitted() throws {
        let server = try InProcessSite(engine: .sqlite)
        defer { server.stop() }
        let player = Player(server)
        let game = try player.startMastermind(secret: "1234")
        let rows = ["0011", "2233", "4455"]
        for (turn, guess) in rows.enumerated() {
            try player.post("/mastermind/guess", "game=\(game)&turn=\(turn)&guess=\(guess)")
        }
        func score(_ code: [Int], _ guess: [Int]) -> [Int] {
            let red = zip(code, guess).count { $0 == $1 }
            return [
                red, (0...7).reduce(0) { sum, d in sum + min(code.count { $0 == d }, guess.count { $0 == d }) } - red,
            ]
        }
        let secret = [1, 2, 3, 4]
        let fitting = (0..<4096).map { n in (0..<4).map { (n >> (3 * (3 - $0))) & 7 } }.count { code in
            rows.allSatisfy { row in
                let guess = row.map { Int(String($0))! }
                return score(code, guess) == score(secret, guess)
            }
        }
        #expect(fitting > 1)
        try player.post("/mastermind/giveup", "game=\(game)")
        let page = try player.get("/mastermind").text
        #expect(
            page.contains("data-encourage>Not this time. Codes that still fit your rows: \(fitting).<"), "\(fitting)")
    }

    /// The card charts the games not cracked beside the wins, marked after a loss (a review: a loss's card charted
    /// wins only, as if it had not happened); no loss yet, no bar for them.
    @Test func theCardChartsTheGamesNotCracked() throws {
        let server = try InProcessSite(engine: .sqlite)
        defer { server.stop() }
        let player = Player(server)
        let won = try player.startMastermind()
        try player.post("/mastermind/guess", "game=\(won)&turn=0&guess=\(try player.secret())")
        #expect(
            try player.get("/mastermind").text.contains("data-distribution")
                && !player.get("/mastermind").text.contains("is-lost"))
        let lost = try player.startMastermind()
        try player.post("/mastermind/guess", "game=\(lost)&turn=0&guess=\(wrong(try player.secret(), 5))")
        try player.post("/mastermind/giveup", "game=\(lost)")
        #expect(
            try player.get("/mastermind").text.contains(
                "<li data-guesses=\"✕\" data-count=\"1\" data-current class=\"is-current is-lost\">"
                    + "<span class=\"visually-hidden\">Not cracked: 1 (this game)</span>"))
        let next = try player.startMastermind()
        try player.post("/mastermind/guess", "game=\(next)&turn=0&guess=\(try player.secret())")
        #expect(
            try player.get("/mastermind").text.contains("<li data-guesses=\"✕\" data-count=\"1\" class=\" is-lost\">"))
    }

    /// A free game one wrong row in: its site (to stop), player, game and secret.
    private func oneRowIn(_ engine: Engine) throws -> (InProcessSite, Player, game: String, secret: String) {
        let server = try InProcessSite(engine: engine)
        let player = Player(server)
        let game = try player.startMastermind()
        let secret = try player.secret()
        _ = try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=\(wrong(secret, 5))")
        return (server, player, game, secret)
    }

    /// A hint that would take a win out of the chart asks first, once a game, with and without a script (a review:
    /// one tap took a win out of the chart for good); asked, it changes nothing. Confirmed, it is given; a second hint
    /// in that game asks no more.
    @Test(arguments: Engine.allCases) func aHintThatCostsTheChartAsksFirst(_ engine: Engine) throws {
        let (server, player, game, secret) = try oneRowIn(engine)
        defer { server.stop() }
        let asked = try player.post("/mastermind/hint", "", fragment: true)
        #expect(asked.status == 200 && asked.text.contains("data-hint-ask"))
        #expect(asked.text.contains(">With a hint, a win in this game won’t appear in the guess chart.</span>"))
        #expect(!asked.text.contains("data-hint-spoken=\"Hint:"), "no hint yet")
        let page = try player.post("/mastermind/hint", "")
        #expect(page.status == 303 && page.header("Location") == "/mastermind?hint=ask")
        #expect(try player.get("/mastermind?hint=ask").text.contains("data-hint-confirm"))
        #expect(try !player.get("/mastermind").text.contains("data-hint-ask"), "Not now: the board as it was")
        #expect(try player.get("/mastermind/stats").text.contains("data-hint-wins=\"0\""))
        let given = try player.post("/mastermind/hint", "confirm=1", fragment: true).text
        #expect(given.contains("data-hint-spoken=\"Hint:") && !given.contains("data-hint-ask"))
        #expect(!(try player.post("/mastermind/hint", "", fragment: true).text.contains("data-hint-ask")))
    }

    /// Hint wins are counted apart, so after only those the chart would be bars of 0: it says so instead.
    @Test(arguments: Engine.allCases) func statisticsAfterOnlyAHintWinShowNoEmptyChart(_ engine: Engine) throws {
        let (server, player, game, secret) = try oneRowIn(engine)
        defer { server.stop() }
        try player.post("/mastermind/hint", "confirm=1")
        // What a hint costs is said with it (a review learnt it only from the results): asked first, in those words,
        // then spoken with the hint; not shown again on the card, whose lines lay over the board (another review).
        let hinted = try player.get("/mastermind").text
        #expect(!hinted.contains("class=\"hint-cost\""))
        #expect(
            Player.attribute("data-hint-spoken", in: hinted)?.hasSuffix(
                " A win with a hint won’t appear in the guess chart.")
                == true)
        try player.post("/mastermind/guess", "game=\(game)&turn=1&guess=\(secret)")
        let stats = try player.get("/mastermind/stats").text
        #expect(stats.contains("data-played=\"1\" data-wins=\"1\"") && stats.contains("data-hint-wins=\"1\""))
        #expect(!stats.contains("<svg class=\"chart\""), "no chart of zeros")
        #expect(stats.contains("data-empty=\"bars\"") && stats.contains("No wins without hints yet"))
        // The card says why there is no chart; once there is one, that it charts the wins without a hint only (a
        // review read "isn't shown in the guess chart" beside a chart with a bar, an earlier win's).
        #expect(try player.get("/mastermind").text.contains("data-used-hint>A win with a hint still counts as a win"))
        let clean = try player.startMastermind()
        try player.post("/mastermind/guess", "game=\(clean)&turn=0&guess=\(try player.secret())")
        let helped = try player.startMastermind()
        let code = try player.secret()
        try player.post("/mastermind/guess", "game=\(helped)&turn=0&guess=\(wrong(code, 5))")
        try player.post("/mastermind/hint", "confirm=1")
        try player.post("/mastermind/guess", "game=\(helped)&turn=1&guess=\(code)")
        let card = try player.get("/mastermind").text
        #expect(card.contains("data-distribution") && card.contains("the chart above shows only your wins without one"))
    }

    /// A hint before any row is an opening guess, which tells nothing of the code: it costs nothing (a review lost a
    /// win from its chart for "a strong next guess is 0 1 2 3"), and says no cost.
    @Test(arguments: Engine.allCases) func anOpeningHintIsFree(_ engine: Engine) throws {
        let server = try InProcessSite(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        let game = try player.startMastermind()
        try player.post("/mastermind/hint", "confirm=1")
        let hinted = try player.get("/mastermind").text
        #expect(hinted.firstMatch(of: /data-hint="\d{4}"/) != nil && !hinted.contains("won’t appear"))
        // And says so, shown and spoken (a review could not tell whether its unasked opening hint had counted).
        let free = "Before your first guess, a hint is free: a win still appears in the guess chart."
        #expect(hinted.contains("<span class=\"hint-cost\"> \(free)</span>"))
        #expect((Player.attribute("data-hint-spoken", in: hinted) ?? "").hasSuffix(free))
        // And says what makes it an opening (a review: "a strong next guess is 0 1 2 3" taught nothing).
        #expect(hinted.contains("Hint: open with ") && hinted.contains("rules out more codes than most opening"))
        #expect(!hinted.contains("a strong next guess"))
        try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=\(try player.secret())")
        let stats = try player.get("/mastermind/stats").text
        #expect(stats.contains("data-wins=\"1\"") && stats.contains("data-hint-wins=\"0\""), "in the chart")
        // A game helped already (Konami's digit, which "counts as a hint") is not told its opening hint is free (a
        // review read both).
        let helped = try player.startMastermind()
        _ = try Database(location: server.database).execute(
            "UPDATE mastermind_games SET used_hint = 1 WHERE id = ?", [.integer(Int64(helped)!)])
        try player.post("/mastermind/hint", "confirm=1")
        let costly = try player.get("/mastermind").text
        #expect(!costly.contains(free) && costly.contains(" A win with a hint won’t appear in the guess chart.\""))
    }

    /// A hint the rows rule out as the code says why it is offered, and any hint after a row how many codes it can
    /// leave; one that could be the code does not say it cannot (a review read "a strong next guess is 0055", ruled
    /// out by its rows, as a mistake): after 1234 scored one misplaced
    /// against 4567, the solver's pick is 0055, which scores nothing against 1234.
    @Test(arguments: Engine.allCases) func aHintThatCannotBeTheCodeSaysWhy(_ engine: Engine) throws {
        let server = try InProcessSite(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        let game = try player.startMastermind(secret: "4236")
        try player.post("/mastermind/hint", "confirm=1")
        let first = try player.get("/mastermind").text
        #expect(!first.contains("It can’t be the code itself"), "a first hint fits: there are no rows yet")
        _ = try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=1234")
        // After 1234 and 5175 twelve codes are left: the best that could win leaves six where the probe leaves two, so
        // the hint is the probe, and says why.
        _ = try player.post("/mastermind/guess", "game=\(game)&turn=1&guess=5175")
        try player.post("/mastermind/hint", "confirm=1")
        let second = try player.get("/mastermind").text
        let hint = try #require(second.firstMatch(of: /data-hint="(\d{4})"/)?.1)
        #expect(hint == "2036")
        // Its digits apart, so a screen reader reading the board back says four digits, not a number.
        #expect(second.contains("a strong next guess is 2\u{00A0}0\u{00A0}3\u{00A0}6."))
        #expect(second.contains("It can’t be the code itself, but its feedback will rule out the most codes."))
        // And why, in a number the player can check (a review: the hint gave no reason): of the twelve, whatever 2036
        // scores, at most two are left. Said, and shown beside it; an opening says why in words.
        let most = "After it, at most 2 codes will still be possible."
        let probe = "It can’t be the code itself, but its feedback will rule out the most codes."
        #expect(second.contains("<span class=\"hint-probe\"> \(probe) \(most)</span>"))
        #expect((Player.attribute("data-hint-spoken", in: second) ?? "").contains(most))
        #expect(!first.contains("at most"))
    }

    /// With one code left that fits every row, a hint says so and folds the guess, which is that code, under "Show a
    /// strong guess" (a review: after 0123, 4444 and 4455 the hint "5 5 4 4" won the game for the player).
    @Test(arguments: Engine.allCases) func aLateHintNudgesBeforeItGivesTheCode(_ engine: Engine) throws {
        let server = try InProcessSite(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        _ = try player.startMastermind()
        try player.post("/mastermind/new", "hard=1")
        let game = try #require(Player.attribute("data-game", in: try player.get("/mastermind").text))
        _ = try Database(location: server.database).execute("UPDATE mastermind_games SET secret = '5544'")
        for (turn, guess) in ["0123", "4444", "4455"].enumerated() {
            _ = try player.post("/mastermind/guess", "game=\(game)&turn=\(turn)&guess=\(guess)")
        }
        try player.post("/mastermind/hint", "confirm=1")
        let page = try player.get("/mastermind").text
        let said = try #require(Player.attribute("data-hint-spoken", in: page))
        #expect(said.hasPrefix("Hint: only one code fits every row so far. It’s yours to find."))
        #expect(!said.contains("5") && page.contains("<p data-hint=\"\" data-hint-nudge="), "not said, nor typed in")
        let folded = try #require(
            page.firstMatch(of: /data-hint-show>([^<]*)<\/a><strong class="hint-guess" id="hint-guess"[^>]*>([^<]*)</))
        #expect(folded.1 == "Show a strong guess" && folded.2 == "5\u{00A0}5\u{00A0}4\u{00A0}4")
        // Earlier, with many codes left, the hint is the guess itself.
        let other = Player(server)
        let early = try other.startMastermind(secret: "5544")
        _ = try other.post("/mastermind/guess", "game=\(early)&turn=0&guess=0123")
        try other.post("/mastermind/hint", "confirm=1")
        let first = try other.get("/mastermind").text
        #expect(!first.contains("data-hint-nudge") && first.firstMatch(of: /data-hint="\d{4}"/) != nil)
    }

    /// Giving up asks first (a page: no script needed), then shows the code, says so, and counts one loss.
    @Test(arguments: Engine.allCases) func givingUpAsksFirstThenShowsTheCode(_ engine: Engine) throws {
        let server = try InProcessSite(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        #expect(
            !(try player.get("/mastermind").text.contains("data-giveup-link")),
            "nothing to give up on an unstarted board")
        try player.startMastermind()
        // Nor before the first guess: the board offers the other mode instead, and leaving it costs nothing.
        let fresh = try player.get("/mastermind").text
        #expect(!fresh.contains("data-giveup-link") && fresh.contains("data-start-hard"))
        try player.post("/mastermind/new", "hard=1")
        let hard = try player.get("/mastermind").text
        #expect(hard.contains("data-mode=\"hard\"") && hard.contains("data-start-normal"))
        // Its rule is said as the game starts (a blind review learnt of it from a refused guess).
        #expect(
            hard.contains("repeats allowed, 10 guesses. Hard mode: every guess must fit all the feedback so far.\""))
        #expect(!fresh.contains("Hard mode: every guess must fit all the feedback so far.\""))
        let stats = try player.get("/mastermind/stats").text
        #expect(stats.contains("data-played=\"0\""), "a game left before its first guess was not played")
        #expect(stats.contains("<dd data-win-rate>–</dd>"), "no rate of no games (a review read \"Win rate 0%\")")
        let game = try #require(Player.attribute("data-game", in: hard))
        let secret = try player.secret()
        try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=\(wrong(secret, 5))")
        let board = try player.get("/mastermind").text
        #expect(board.contains("href=\"/mastermind/giveup\"") && !board.contains("Give up and start over"))
        #expect(!board.contains("data-start-hard") && !board.contains("data-start-normal"), "a game under way")
        let ask = try player.get("/mastermind/giveup")
        #expect(ask.status == 200 && ask.text.contains("Give up this game?") && ask.text.contains("value=\"\(game)\""))
        let after = try player.get("/mastermind").text
        #expect(
            !ask.text.contains(secret) && Player.attribute("data-attempts-left", in: after) == "9",
            "asking changes nothing")
        let done = try player.post("/mastermind/giveup", "game=\(game)")
        #expect(done.status == 303 && done.header("Location") == "/mastermind#result")
        let result = try player.get("/mastermind").text
        #expect(Player.attribute("data-outcome", in: result) == "lost" && result.contains("data-gave-up"))
        #expect(Player.attribute("data-secret", in: result) == secret)
        // A harder game is offered after a win, not after giving up (a review: the wrong next step).
        #expect(result.contains("data-new-game") && !result.contains("data-new-hard-game"))
        // The game's menu offers the next too, in the mode played (a low-vision review: the card's New game was
        // screens down at 200 % text, and the menu had none); a game in play has none there.
        #expect(
            result.contains(
                "name=\"hard\" value=\"1\"><button type=\"submit\" class=\"button-quiet\" data-menu-new-game>"))
        #expect(!board.contains("data-menu-new-game"))
        // …and the other mode beside it (a review: after a hard game every New game was hard, a normal one found only
        // under the solver's review).
        #expect(
            result.contains(
                "name=\"hard\" value=\"0\"><button type=\"submit\" class=\"button-quiet\" data-menu-other-game>"))
        let lost = try player.get("/mastermind/stats").text
        #expect(lost.contains("data-played=\"1\" data-wins=\"0\"") && lost.contains("<dd data-win-rate>0%</dd>"))
        // A stale give-up (another game, or one already over) changes nothing.
        #expect(try player.post("/mastermind/giveup", "game=\(game)").status == 303)
        #expect(try player.get("/mastermind/stats").text.contains("data-played=\"1\""))
        #expect(try player.get("/mastermind/giveup").status == 303, "nothing in play: back to the board")
    }

    /// The share text: the game, N/10 or X/10, then each row's pegs as symbols, red, blue, then none (counts, not
    /// places); no digits of any guess or of the code. The result also shows the streaks and the distribution with this game's bar marked.
    @Test(arguments: Engine.allCases) func aFinishedGameHasAResultWorthSharing(_ engine: Engine) throws {
        let server = try InProcessSite(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        func share(_ html: String) throws -> String {
            let start = try #require(html.firstRange(of: "data-share aria-hidden=\"true\">"))
            return String(html[start.upperBound...].prefix { $0 != "<" })
        }
        let game = try player.startMastermind()
        let secret = try player.secret()
        let misses = [wrong(secret, 9), wrong(secret, 700)]
        for (n, guess) in misses.enumerated() {
            try player.post("/mastermind/guess", "game=\(game)&turn=\(n)&guess=\(guess)")
        }
        try player.post("/mastermind/guess", "game=\(game)&turn=2&guess=\(secret)")
        let won = try player.get("/mastermind").text
        let text = try share(won)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "Arcade Mastermind 3/10")
        // Its symbols hidden from a screen reader, which is told in words (a blind review heard "heavy minus sign").
        #expect(won.contains("data-share-said>The text to share: Arcade Mastermind 3/10, then a line of symbols"))
        #expect(lines.count == 5 && lines[3] == "🔴🔴🔴🔴")
        // The link is the game's challenge, as the player reached the site (Host: t): a friend plays the same code (a
        // review: it led to a new game).
        let challenge = try #require(won.firstMatch(of: /data-challenge><a href="([^"]+)"/)?.1)
        #expect(challenge.hasPrefix("/mastermind/challenge/") && lines.last == "http://t\(challenge)")
        #expect(lines.dropFirst().dropLast().allSatisfy { $0.count == 4 && $0.allSatisfy { "🔴🟦➖".contains($0) } })
        #expect(
            lines.dropFirst().dropLast().allSatisfy { row in
                row == String(row.sorted { "🔴🟦➖".firstIndex(of: $0)! < "🔴🟦➖".firstIndex(of: $1)! })
            }, "\(lines)")
        let rows = lines.dropFirst().dropLast().joined()
        #expect(!rows.contains { $0.isNumber }, "no digits in the rows")
        #expect(won.contains("data-streak=\"1\" data-best-streak=\"1\""))
        #expect(won.contains("data-guesses=\"≤4\" data-count=\"1\" data-current"))

        try player.post("/mastermind/new", "")
        let next = try #require(Player.attribute("data-game", in: try player.get("/mastermind").text))
        let nextSecret = try player.secret()
        for n in 0..<10 {
            try player.post("/mastermind/guess", "game=\(next)&turn=\(n)&guess=\(wrong(nextSecret, n * 131 + 1))")
        }
        let lost = try share(try player.get("/mastermind").text)
        #expect(lost.hasPrefix("Arcade Mastermind X/10\n") && lost.split(separator: "\n").count == 12)
        let lostRows = lost.dropFirst(23).split(separator: "\n").dropLast().joined()
        // (The link's token may hold any four digits: the text before it may not hold the code.)
        #expect(
            !lost.split(separator: "\n").dropLast().joined().contains(nextSecret) && !lostRows.contains { $0.isNumber })
    }

    /// Hard mode: every guess must fit all earlier feedback; one that does not is 422, names the row, changes nothing.
    @Test(arguments: Engine.allCases) func hardModeRefusesAGuessThatContradictsARow(_ engine: Engine) throws {
        let server = try InProcessSite(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        #expect(try player.get("/mastermind").text.contains("data-start-hard"), "a first game can be hard too")
        let started = try player.post("/mastermind/new", "hard=1", fragment: true).text
        #expect(started.contains("data-mode=\"hard\""))
        let game = try #require(Player.attribute("data-game", in: started))
        let secret = try player.secret()
        // A first guess sharing nothing with the secret: any later guess reusing one of its digits contradicts it.
        let digits = Set(secret)
        let absent = try #require((0...7).map { Character(String($0)) }.first { !digits.contains($0) })
        try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=\(String(repeating: absent, count: 4))")
        let refused = try player.post("/mastermind/guess", "game=\(game)&turn=1&guess=\(absent)\(secret.dropFirst())")
        #expect(refused.status == 422)
        #expect(refused.text.contains("Hard mode: a guess must fit row 1 (0 in place, 0 misplaced)."))
        #expect(Player.attribute("data-attempts-left", in: refused.text) == "9", "nothing counted")
        #expect(try player.post("/mastermind/guess", "game=\(game)&turn=1&guess=\(secret)").status == 303)
        let stats = try player.get("/mastermind/stats").text
        #expect(stats.contains("data-hard-wins=\"1\""))
        let won = try player.get("/mastermind").text
        #expect(won.contains("Arcade Mastermind 2/10*"))
        // The card shows the game at a glance, each row's pegs in a line, as Wordle's grid (a review: "a form").
        let glance = try #require(
            won.firstMatch(of: /<ol class="result-rows" aria-hidden="true" data-result-rows>(.*?)<\/ol>/))
        #expect(
            glance.1 == "<li>" + String(repeating: "<span class=\"peg peg-gray\"></span>", count: 4) + "</li><li>"
                + String(repeating: "<span class=\"peg peg-red\"></span>", count: 4) + "</li>")
        // The results say the win was in hard mode (a review: it looked like any other win); a normal win does not.
        #expect(won.contains("data-hard-win>Won in hard mode"))
        // Its results lead back to the ordinary rules as plainly as into hard mode (a review found no way out).
        #expect(won.contains("data-new-normal-game") && won.contains("Play in normal mode"))
        // Its New game says it stays hard (a review: after a friend's hard challenge it silently did).
        #expect(won.contains("aria-keyshortcuts=\"n\">New hard game</button>"))
        #expect(!won.contains("data-new-hard-game"))
        // A normal game stays normal.
        let normal = try player.post("/mastermind/new", "", fragment: true).text
        #expect(!normal.contains("data-mode=\"hard\""))
        let normalGame = try #require(Player.attribute("data-game", in: normal))
        try player.post("/mastermind/guess", "game=\(normalGame)&turn=0&guess=\(try player.secret())")
        #expect(!(try player.get("/mastermind").text.contains("data-hard-win")))
    }

    /// The keypad remembers: digits of a row that scored nothing are marked as not in the code, those a row's pegs
    /// count as in it, for screen readers too.
    @Test(arguments: Engine.allCases) func theKeypadRulesOutDigitsARowProvedAbsent(_ engine: Engine) throws {
        let server = try InProcessSite(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        var game = try player.startMastermind()
        var secret = try player.secret()
        // A code of one digit four times (8 in 4,096; a clean clone drew 7777) leaves its four-of-a-kind row below
        // nothing to prove: another is drawn.
        while Set(secret).count < 2 {
            game = try player.startMastermind()
            secret = try player.secret()
        }
        let absent = (0...7).map { Character(String($0)) }.filter { !secret.contains($0) }
        try #require(absent.count >= 2)
        let guess = String([absent[0], absent[0], absent[1], absent[1]])
        let board = try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=\(guess)", fragment: true).text
        for digit in absent.prefix(2) {
            #expect(
                board.contains(
                    "data-key=\"\(digit)\" class=\"is-absent\" data-absent aria-label=\"\(digit): not in the code\""))
        }
        #expect(
            !board.contains("data-key=\"\(secret.first!)\" class=\"is-absent\""),
            "a digit of the code is never ruled out")
        #expect(!board.contains("is-present"))
        // Four of one of the code's digits: the row's pegs can only be that digit's, so it is in, by that row alone.
        let digit = secret.first!
        let known = String(repeating: digit, count: 4)
        let after = try player.post("/mastermind/guess", "game=\(game)&turn=1&guess=\(known)", fragment: true).text
        #expect(
            after.contains(
                "data-key=\"\(digit)\" class=\"is-present\" data-present aria-label=\"\(digit): in the code\""))
        #expect(after.components(separatedBy: "class=\"is-present\"").count - 1 == 1)
        // Three of the code's digits beside a digit ruled out: three pegs, theirs by both rows together, by neither
        // alone; what rows prove together is the codes-left aid's (a review found the keypad deducing for it).
        let three = String(secret.prefix(3)) + String(absent[0])
        let later = try player.post("/mastermind/guess", "game=\(game)&turn=2&guess=\(three)", fragment: true).text
        for other in Set(secret.prefix(3)) where other != digit && three.filter({ $0 == other }).count == 1 {
            #expect(!later.contains("data-key=\"\(other)\" class=\"is-present\""), "\(other) of \(three)")
        }
    }

    /// The keys show what each row proves on its own, as Wordle's keyboard does (a review: by row 9
    /// the solver's marks had done the deducing); the codes-still-possible aid adds all that those codes prove. The
    /// solver's guesses are played until the two differ.
    @Test func theKeysMarkThePlayersBookkeepingAndTheAidMarksAllTheCodesProve() throws {
        let server = try InProcessSite()
        defer { server.stop() }
        let player = Player(server)
        let solver = Solver(rules: .classic)
        func marks(_ html: String) -> (absent: Set<UInt8>, present: Set<UInt8>) {
            func digits(_ kind: String) -> Set<UInt8> {
                let found = html.matches(of: /data-key="(\d)" class="is-(absent|present)"/)
                return Set(found.filter { $0.2 == kind }.compactMap { UInt8($0.1) })
            }
            return (digits("absent"), digits("present"))
        }
        var compared = false
        for _ in 0..<6 where !compared {
            let game = try player.startMastermind()
            let secret = try Code(try player.secret(), rules: .classic)
            var history: [(Code, Feedback)] = []
            while !compared, let guess = solver.nextGuess(after: history), guess != secret, history.count < 8 {
                let text = String(guess.digits.map { Character(String($0)) })
                let page = try player.post(
                    "/mastermind/guess", "game=\(game)&turn=\(history.count)&guess=\(text)", fragment: true
                ).text
                history.append((guess, Feedback.score(secret: secret, guess: guess)))
                let played = Game(
                    rules: .classic, secret: secret,
                    turns: history.map { Turn(guess: $0.0, feedback: $0.1, pegs: []) })
                let full = solver.digitsKnown(after: history)
                #expect(marks(page) == played.digitsKnown, "bookkeeping only, aid off")
                guard full != played.digitsKnown else { continue }
                try player.post("/mastermind/codes-left", "on=1&back=/mastermind")
                #expect(marks(try player.get("/mastermind").text) == full, "all the codes prove, aid on")
                try player.post("/mastermind/codes-left", "on=0&back=/mastermind")
                compared = true
            }
        }
        #expect(compared, "the solver's games came to a row where the aid knows more")
    }

    /// With two guesses left a hint could win: it fits every row (a review was offered a probe on row 9).
    @Test func aHintWithTwoGuessesLeftCouldBeTheCode() throws {
        let server = try InProcessSite()
        defer { server.stop() }
        let player = Player(server)
        // Eight rows and a secret after which the solver's own pick would be a probe that cannot be the code.
        let rows = ["0011", "2233", "4455", "6677", "0246", "1357", "0415", "2637"]
        let solver = Solver(rules: .classic)
        let codes = try (0..<4096).map { n in
            try Code(String((0..<4).map { Character(String(n >> (9 - 3 * $0) & 7)) }), rules: .classic)
        }
        let probing = try #require(
            codes.first { secret in
                let history = try! rows.map { row in
                    let guess = try Code(row, rules: .classic)
                    return (guess, Feedback.score(secret: secret, guess: guess))
                }
                guard let pick = solver.nextGuess(after: history) else { return false }
                return history.contains { Feedback.score(secret: pick, guess: $0.0) != $0.1 }
            })
        let secret = probing
        let game = try player.startMastermind(secret: secret.description)
        for (turn, guess) in rows.enumerated() {
            #expect(try player.post("/mastermind/guess", "game=\(game)&turn=\(turn)&guess=\(guess)").status == 303)
        }
        try player.post("/mastermind/hint", "confirm=1")
        let page = try player.get("/mastermind").text
        let hint = try Code(try #require(page.firstMatch(of: /data-hint="(\d{4})"/)?.1).description, rules: .classic)
        for row in rows {
            let guess = try Code(row, rules: .classic)
            #expect(
                Feedback.score(secret: hint, guess: guess) == Feedback.score(secret: secret, guess: guess),
                "\(hint) fits \(row)")
        }
        #expect(!page.contains("It can’t be the code itself"))
    }

    /// A board whose statistics cannot be read is an error page, not a player with no games (a code review: the
    /// failure was swallowed and the card said "Wins: 0"). Here the totals' table is gone from under the site.
    @Test func unreadableStatisticsAreAnErrorNotZero() throws {
        let server = try InProcessSite()
        defer { server.stop() }
        let player = Player(server)
        let game = try player.startMastermind(secret: "4567")
        try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=4567")
        #expect(try player.get("/mastermind").text.contains("data-streak"))
        _ = try Database(location: server.database).execute("ALTER TABLE mastermind_totals RENAME TO totals_gone")
        let page = try player.get("/mastermind")
        #expect(page.status >= 500 && !page.text.contains("data-streak"), "\(page.status)")
    }

    /// The codes-left aid is the game's it was turned on in: a new game starts without it, and its win is not a hinted
    /// one (a review: left on, every later game said "You used a hint", its wins out of the chart, no hint asked).
    @Test func theCodesLeftAidEndsWithItsGame() throws {
        let server = try InProcessSite()
        defer { server.stop() }
        let player = Player(server)
        let game = try player.startMastermind(secret: "4567")
        try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=1234")
        try player.post("/mastermind/codes-left", "on=1&back=/mastermind")
        #expect(try player.get("/mastermind").text.contains("role=\"switch\" aria-checked=\"true\""))
        let helped = try player.post("/mastermind/guess", "game=\(game)&turn=1&guess=4567", fragment: true).text
        #expect(helped.contains("data-used-hint"), "the game it was on in is helped")
        let next = try player.startMastermind(secret: "0123")
        let board = try player.get("/mastermind").text
        #expect(board.contains("role=\"switch\" aria-checked=\"false\"") && !board.contains("data-remaining"))
        try player.post("/mastermind/guess", "game=\(next)&turn=0&guess=4567")
        let won = try player.post("/mastermind/guess", "game=\(next)&turn=1&guess=0123", fragment: true).text
        #expect(won.contains("data-outcome=\"won\""))
        #expect(!won.contains("data-used-hint"), "a new game is not helped")
    }

    /// With the codes-left aid on, the row's announcement says how many codes still fit (a blind review had to leave
    /// the game after every row to read the count in the board's list).
    @Test func theAidsCountAndAnEndingsFiguresAreSaid() throws {
        let server = try InProcessSite()
        defer { server.stop() }
        let player = Player(server)
        let game = try player.startMastermind(secret: "4567")
        let off = try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=1234", fragment: true).text
        let said = try #require(off.firstMatch(of: /data-announce="([^"]*)"/)?.1)
        #expect(said.hasPrefix("1, 2, 3, 4: ") && !said.contains("Codes still possible"), "aid off: \(said)")
        try player.post("/mastermind/codes-left", "on=1&back=/mastermind")
        let on = try player.get("/mastermind").text
        let left = try #require(on.firstMatch(of: /data-remaining="(\d+)"/)?.1)
        let announced = try #require(on.firstMatch(of: /data-announce="([^"]*)"/)?.1)
        #expect(announced == said + " Codes still possible: \(left).", "aid on")
        // An ending says what the card says first (a blind review heard only "You cracked the code!"): the guesses a
        // win took, or the code of a loss.
        let won = try player.post("/mastermind/guess", "game=\(game)&turn=1&guess=4567", fragment: true).text
        #expect(won.contains("data-announce=\"You cracked the code! 2 of 10 guesses used.\""))
        // Before the card, the winning row's pegs, as every row's are (a keyboard review heard all but that one), and
        // the ending at once (a blind review heard the card's title 1.3 s after a silence).
        #expect(
            won.contains("data-announce-before-results=\"4, 5, 6, 7: 4 in place, 0 misplaced. Code cracked!\""),
            "\(won.prefix(700))")
        // The first row's count shows; the winning row's goes without saying (a review read "1 left" beside the code).
        #expect(won.ranges(of: "data-left-shown").count == 1)
        let next = try player.startMastermind(secret: "0123")
        try player.post("/mastermind/guess", "game=\(next)&turn=0&guess=4567")
        let gaveUp = try player.post("/mastermind/giveup", "game=\(next)", fragment: true).text
        #expect(gaveUp.contains("data-announce=\"You gave up. The code was 0, 1, 2, 3.\""), "\(gaveUp.prefix(600))")
        // Where the card says the rest, its code is said as it turns over (a keyboard review: 2 s of silence).
        #expect(gaveUp.contains("data-announce-before-results=\"The code was 0, 1, 2, 3.\""))
        // Out of guesses, the last row is said before the code (a blind review never heard how close it came).
        let last = try player.startMastermind(secret: "0123")
        var out = ""
        let rows = ["4567", "4566", "4565", "4564", "4577", "4576", "4575", "4574", "4555", "0132"]
        for (turn, row) in rows.enumerated() {
            out = try player.post("/mastermind/guess", "game=\(last)&turn=\(turn)&guess=\(row)", fragment: true).text
        }
        let lost = try #require(out.firstMatch(of: /data-announce="([^"]*)"/)?.1)
        #expect(
            lost.hasPrefix("0, 1, 3, 2: 2 in place, 2 misplaced") && lost.hasSuffix("The code was 0, 1, 2, 3."),
            "\(lost)")
        // An ended game's rows are said without the guesses left, which it has none of to play (reviews: noise).
        #expect(!lost.contains("Guesses left") && !out.contains("misplaced. Guesses left"), "\(lost)")
        #expect(out.contains("data-announce-before-results=\"0, 1, 3, 2: 2 in place, 2 misplaced. Out of guesses.\""))
    }

    /// The board is a board: played rows, the row being typed, then a slot for each attempt still to come.
    @Test(arguments: Engine.allCases) func theBoardShowsEveryAttempt(_ engine: Engine) throws {
        let server = try InProcessSite(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        func count(_ needle: String, _ html: String) -> Int { html.ranges(of: needle).count }
        let fresh = try player.get("/mastermind").text
        #expect(
            count("id=\"row-", fresh) == 0 && count("data-current-row", fresh) == 1
                && count("class=\"slot\"", fresh) == 9)
        #expect(count("data-cell", fresh) == 4, "one cell per digit in the row being typed")
        let game = try player.startMastermind()
        let secret = try player.secret()
        let one = try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=\(wrong(secret, 9))", fragment: true)
            .text
        #expect(
            count("id=\"row-", one) == 1 && count("data-current-row", one) == 1 && count("class=\"slot\"", one) == 8)
        let over = try player.post("/mastermind/guess", "game=\(game)&turn=1&guess=\(secret)", fragment: true).text
        #expect(
            count("id=\"row-", over) == 2 && count("data-current-row", over) == 0 && count("class=\"slot\"", over) == 0)
    }

    @Test(arguments: Engine.allCases) func concurrentGuessersCountEachAttemptOnce(_ engine: Engine) throws {
        let server = try InProcessSite(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        let game = try player.startMastermind()
        let secret = try player.secret()
        // Sixteen tabs submit the same turn at once: exactly one counts.
        let statuses = Mutex<[Int]>([])
        concurrently(16) { i in
            let status =
                (try? player.post("/mastermind/guess", "game=\(game)&turn=0&guess=\(wrong(secret, i))").status) ?? -1
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.withLock { $0.filter { $0 == 303 }.count } == 1)
        #expect(statuses.withLock { $0.filter { $0 == 422 }.count } == 15)
        // Sixteen posts without a turn: ten count, then the game is over.
        concurrently(16) { i in _ = try? player.post("/mastermind/guess", "game=\(game)&guess=\(wrong(secret, 50 + i))")
        }
        let db = try Database(location: server.database)
        let numbers = try db.query("SELECT number FROM mastermind_guesses ORDER BY number").compactMap {
            $0.int("number")
        }
        #expect(numbers == Array(1...10), "each attempt counted once, in order")
        #expect(try db.first("SELECT status FROM mastermind_games")?.string("status") == "lost")
    }

    @Test(arguments: Engine.allCases) func gamesAndWinsSurviveARestart(_ engine: Engine) throws {
        let server = try InProcessSite(engine: engine)
        let player = Player(server)
        let game = try player.startMastermind()
        try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=\(try player.secret())")
        try player.post("/mastermind/new", "")
        try player.post("/mastermind/guess", "game=\(Int(game)! + 1)&turn=0&guess=\(wrong(try player.secret(), 3))")
        server.stop()

        let again = try InProcessSite(engine: engine) { $0.database = server.database }
        defer { again.stop() }
        let returning = Player(again)
        returning.cookies = player.cookies
        let page = try returning.get("/mastermind")
        #expect(try returning.get("/mastermind/stats").text.contains("data-wins=\"1\""))
        #expect(page.text.contains("id=\"row-1\""), "the game in play, with its guess")
        #expect(Player.attribute("data-attempts-left", in: page.text) == "9")
    }
}
