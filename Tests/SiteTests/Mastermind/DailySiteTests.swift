import Storage
import Synchronization
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

/// The daily code: one code for everyone on a UTC day, one game each, its own streak, past days from the archive.
@Suite("Mastermind's daily code")
struct DailySiteTests {
    /// A wall clock the test moves, a day at a time.
    final class Clock: Sendable {
        let seconds = Mutex<Double>(20_000 * 86_400 + 3_600)
        func advance(days: Int) { seconds.withLock { $0 += Double(days) * 86_400 } }
    }

    static func server(_ clock: Clock) throws -> SiteServer {
        try SiteServer(routes: nil) { $0.clock = { clock.seconds.withLock { $0 } } }
    }

    static func secret(_ server: SiteServer, player: Player, day: Int) throws -> String {
        let db = try Database(location: server.database)
        let id = try #require(DurabilityTests.playerID(player.cookies["arcade_player"] ?? ""))
        return try #require(
            try db.first(
                "SELECT secret FROM mastermind_games WHERE player = ? AND daily = ?",
                [.text(id), .integer(Int64(day))])?.string("secret"))
    }

    /// The codes-left aid never counts on the daily, one code for everyone compared (a review: switched on in free
    /// play, it counted codes on the daily, which says no hints, and nothing marked it); its switch is not offered there.
    @Test func theCodesLeftAidStaysOffOnTheDaily() throws {
        let clock = Clock()
        let server = try Self.server(clock)
        defer { server.stop() }
        let player = Player(server)
        try player.get("/mastermind/daily")
        try player.post("/mastermind/codes-left", "on=1&back=/mastermind/daily")
        try player.post("/mastermind/guess", "game=0&turn=0&daily=0&guess=0123")
        let daily = try player.get("/mastermind/daily").text
        #expect(daily.contains("data-guess=\"0123\"") && !daily.contains("data-left-shown"))
        #expect(!daily.contains("data-codes-left"), "no switch on the daily")
        // (A new game starts with the aid off: switched on again in it.)
        let game = try player.startMastermind()
        try player.post("/mastermind/codes-left", "on=1&back=/mastermind")
        try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=0123")
        #expect(try player.get("/mastermind").text.contains("data-left-shown"), "free play counts, as switched on")
        // Won with the codes left in sight: helped, as with a hint (a review: praised, shared clean and charted); the
        // daily's win, where the switch is not offered, is not.
        let secret = try player.secret()
        if secret != "0123" { try player.post("/mastermind/guess", "game=\(game)&turn=1&guess=\(secret)") }
        #expect(try player.get("/mastermind").text.contains("data-used-hint>"), "the card says the win had help")
        let dailyGame = try #require(Player.attribute("data-game", in: daily))
        let dailySecret = try Self.secret(server, player: player, day: 0)
        if dailySecret != "0123" {
            try player.post("/mastermind/guess", "game=\(dailyGame)&turn=1&daily=0&guess=\(dailySecret)")
        }
        #expect(try player.get("/mastermind/daily").text.contains("data-status-won"), "the daily won")
        let stats = try player.get("/mastermind/stats").text
        #expect(stats.contains("data-hint-wins=\"1\""), "the free game's win, not the daily's")
    }

    /// The daily can be played in hard mode, chosen before its first guess, as Wordle's can (a review found hard mode
    /// in free play only): the first guess keeps it, later ones must fit, and the share text stars it.
    @Test func theDailyCanBePlayedInHardMode() throws {
        let clock = Clock()
        let server = try Self.server(clock)
        defer { server.stop() }
        let player = Player(server)
        let fresh = try player.get("/mastermind/daily").text
        #expect(fresh.contains("<a href=\"/mastermind/daily?hard=1\" data-start-hard>Play in hard mode</a>"))
        let hard = try player.get("/mastermind/daily?hard=1").text
        #expect(
            hard.contains("data-mode=\"hard\"") && hard.contains("<input type=\"hidden\" name=\"hard\" value=\"1\">"))
        #expect(hard.contains("<a href=\"/mastermind/daily\" data-start-normal>"), "and back")
        try player.post("/mastermind/guess", "game=0&turn=0&daily=0&hard=1&guess=0000")
        let secret = try Self.secret(server, player: player, day: 0)
        // Once guessed, the mode stays, whatever the address asks.
        let played = try player.get("/mastermind/daily").text
        #expect(played.contains("data-mode=\"hard\"") && !played.contains("data-hard-later"))
        #expect(!played.contains("data-start-hard") && !played.contains("data-start-normal"))
        // A guess that does not fit row 1 (0000) is refused, as in free play's hard mode: 1111 where the code holds a
        // 0, else any guess with a 0.
        try #require(secret != "0000", "won at once: nothing left to refuse")
        let misfit = secret.contains("0") ? "1111" : "0123"
        let game = try #require(Player.attribute("data-game", in: played))
        let refused = try player.post("/mastermind/guess", "game=\(game)&turn=1&daily=0&guess=\(misfit)")
        #expect(refused.status == 422 && refused.text.contains("Hard mode: a guess must fit row 1"), "\(secret)")
        try player.post("/mastermind/guess", "game=\(game)&turn=1&daily=0&guess=\(secret)")
        let won = try player.get("/mastermind/daily").text
        #expect(won.contains("/10*"), "the share text stars a hard win")
        // A player who did not choose it plays the daily as usual.
        let other = Player(server)
        try other.get("/mastermind/daily")
        try other.post("/mastermind/guess", "game=0&turn=0&daily=0&guess=0000")
        #expect(!(try other.get("/mastermind/daily?hard=1").text.contains("data-mode=\"hard\"")), "chosen before only")
    }

    /// A daily's results say how everyone did on it once the player's game is over (a review: Wordle's daily is
    /// shared, ours was private): games finished, the share cracked, the wins' average guesses; one row per daily,
    /// kept as each game ends (a give-up counts as played).
    /// The home page says a daily begun is begun, not "Not played yet today" (a review, two guesses in), and solved
    /// once it is.
    @Test func theHomePageSaysHowFarTheDailyIs() throws {
        let clock = Clock()
        let server = try Self.server(clock)
        defer { server.stop() }
        let player = Player(server)
        let state = { try #require(try player.get("/").text.firstMatch(of: /data-daily-state>([^<]*)</)?.1) }
        #expect(try state() == "Not played yet today.")
        try player.get("/mastermind/daily")
        try player.post("/mastermind/guess", "game=0&turn=0&daily=0&guess=0123")
        let secret = try Self.secret(server, player: player, day: 0)
        guard secret != "0123" else { return #expect(try state() == "Solved today.") }  // one time in 4,096
        #expect(try state() == "Begun: 1 of 10 guesses used.")
        try player.post("/mastermind/guess", "turn=1&daily=0&guess=\(secret)")
        #expect(try state() == "Solved today.")
    }

    @Test func theDailysResultsSayHowEveryoneDid() throws {
        let clock = Clock()
        let server = try Self.server(clock)
        defer { server.stop() }
        let (ann, bob) = (Player(server), Player(server))
        try ann.get("/mastermind/daily")
        try ann.post("/mastermind/guess", "game=0&turn=0&daily=0&guess=0000")
        let code = try Self.secret(server, player: ann, day: 0)
        let game = try #require(Player.attribute("data-game", in: try ann.get("/mastermind/daily").text))
        if code != "0000" {
            #expect(!(try ann.get("/mastermind/daily").text.contains("data-everyone")), "not while the game is open")
            try ann.post("/mastermind/guess", "game=\(game)&turn=1&daily=0&guess=\(code)")
        }
        let guesses = code == "0000" ? 1 : 2
        try bob.get("/mastermind/daily")
        try bob.post("/mastermind/guess", "game=0&turn=0&daily=0&guess=\(code == "1111" ? "2222" : "1111")")
        let bobs = try #require(Player.attribute("data-game", in: try bob.get("/mastermind/daily").text))
        #expect(try bob.post("/mastermind/giveup", "game=\(bobs)").status == 303)
        let card = try ann.get("/mastermind/daily").text
        #expect(card.contains("data-everyone-played=\"2\"") && card.contains("data-everyone-cracked=\"50\""), "\(card)")
        #expect(card.contains("<dt>Average guesses</dt><dd data-everyone-average>\(guesses).0</dd>"))
        let db = try Database(location: server.database)
        let row = try #require(try db.first("SELECT played, wins, win_guesses FROM mastermind_daily_totals"))
        #expect(try row.int("played") == 2 && row.int("wins") == 1 && row.int("win_guesses") == guesses)
        // A past day's code played later is an archive game: not on that day's figures, as not on its board.
        clock.advance(days: 1)
        let carl = Player(server)
        try carl.get("/mastermind/daily/0")
        try carl.post("/mastermind/guess", "game=0&turn=0&daily=0&guess=\(code)")
        #expect(try carl.get("/mastermind/daily/0").text.contains("data-everyone-played=\"2\""))
    }

    @Test func oneCodeForEveryoneAndOneGameADay() throws {
        let clock = Clock()
        let server = try Self.server(clock)
        defer { server.stop() }
        let ann = Player(server)
        let bob = Player(server)
        let board = try ann.get("/mastermind/daily").text
        #expect(Player.attribute("data-daily", in: board) == "0" && Player.attribute("data-game", in: board) == "0")
        #expect(board.contains("Daily #1") && board.contains("One code for everyone today; one game each."))
        // No Hint on the daily, and it says so where Hint is on a free game (a review took the missing button for a
        // broken one); a free game has its Hint and no such line.
        #expect(
            board.contains("data-no-hint>No hints on the daily code<") && !board.contains("action=\"/mastermind/hint\"")
        )
        let free = try ann.get("/mastermind").text
        #expect(free.contains("action=\"/mastermind/hint\"") && !free.contains("data-no-hint"))
        let home = try ann.get("/").text
        #expect(
            home.contains("Today’s code (#1)") && !home.contains("(#0)"),
            "the home page numbers the daily as its board does")
        // Unplayed, it is the Mastermind card's first call (a review: the daily ritual was a side door).
        #expect(home.contains("class=\"button button-primary home-daily-link\" data-daily-play>Today’s code (#1)<"))
        // …with free play beside it (a review's first visit saw only the daily, and took it for all there was).
        #expect(home.contains("<a href=\"/mastermind\" class=\"button button-quiet\" data-free-play>Free play</a>"))
        // …and the Name Game's card has its own button for a newcomer (a review: only a text link there).
        #expect(home.contains("data-learn-start>Meet your colleagues</a>"))
        try bob.get("/mastermind/daily")
        for player in [ann, bob] {
            #expect(
                try player.post("/mastermind/guess", "game=0&turn=0&daily=0&guess=0123").header("Location")
                    == "/mastermind/daily#board")
        }
        let code = try Self.secret(server, player: ann, day: 0)
        #expect(try Self.secret(server, player: bob, day: 0) == code, "the same code for two players")
        let annRow = try ann.get("/mastermind/daily").text
        let bobRow = try bob.get("/mastermind/daily").text
        #expect(Player.attribute("data-red", in: annRow) == Player.attribute("data-red", in: bobRow))
        // An ordinary game in play alongside is untouched.
        let ordinary = try ann.startMastermind()
        let game = try #require(Player.attribute("data-game", in: annRow))
        #expect(
            try ann.post("/mastermind/guess", "game=\(game)&turn=1&daily=0&guess=\(code)").header("Location")
                == "/mastermind/daily#result")
        let won = try ann.get("/mastermind/daily").text
        #expect(Player.attribute("data-outcome", in: won) == "won" && won.contains("Arcade Mastermind #1 2/10"))
        let solvedHome = try ann.get("/").text
        #expect(
            !solvedHome.contains("data-daily-play") && solvedHome.contains("data-free-play"), "solved: a plain link")
        // The ordinary games' win count is not the daily's (a review read "Wins: 0" beside a daily just cracked).
        #expect(!won.contains("data-wins="))
        #expect(
            Player.attribute("data-game", in: try ann.get("/mastermind").text) == ordinary,
            "the ordinary game is still there")
        // One game a day: the finished daily stays finished.
        #expect(try ann.post("/mastermind/guess", "game=0&turn=0&daily=0&guess=\(code)").status == 422)
        #expect(
            try ann.post("/mastermind/guess", "game=\(game)&turn=2&daily=0&guess=\(code)").text.contains(
                "This game is over"))
        // Days not yet come are refused.
        #expect(try ann.get("/mastermind/daily/1").status == 404)
        #expect(try ann.post("/mastermind/guess", "game=0&turn=0&daily=1&guess=0123").status == 422)
        // A new day, a new code.
        clock.advance(days: 1)
        #expect(Player.attribute("data-daily", in: try ann.get("/mastermind/daily").text) == "1")
        try ann.post("/mastermind/guess", "game=0&turn=0&daily=1&guess=0123")
        #expect(try Self.secret(server, player: ann, day: 1) != code || code == "0123", "almost surely another code")
        let yesterday = try ann.get("/mastermind/daily/0").text
        #expect(yesterday.contains("data-outcome=\"won\""), "yesterday, from the archive")
        // Not "today" on an archived day (a review read "One code for everyone today" there).
        #expect(yesterday.contains("Everyone had this code on its day") && !yesterday.contains("for everyone today"))
    }

    @Test func theStreakCountsDaysInARowAndTheArchiveNeverChangesIt() throws {
        let clock = Clock()
        let server = try Self.server(clock)
        defer { server.stop() }
        let player = Player(server)
        func win(_ day: Int, path: String = "/mastermind/daily") throws -> String {
            try player.get(path)
            try player.post("/mastermind/guess", "game=0&turn=0&daily=\(day)&guess=0000")
            let code = try Self.secret(server, player: player, day: day)
            let game = try #require(Player.attribute("data-game", in: try player.get(path).text))
            if code != "0000" { try player.post("/mastermind/guess", "game=\(game)&turn=1&daily=\(day)&guess=\(code)") }
            return try player.get(path).text
        }
        #expect(try win(0).contains("data-streak=\"1\" data-best-streak=\"1\""))
        clock.advance(days: 1)
        #expect(try win(1).contains("data-streak=\"2\" data-best-streak=\"2\""))
        clock.advance(days: 2)  // day 2 missed
        let late = try win(2, path: "/mastermind/daily/2")
        #expect(
            late.contains("data-streak=\"0\" data-best-streak=\"2\""),
            "a missed day ends it; the archive does not mend it")
        #expect(try win(3).contains("data-streak=\"1\" data-best-streak=\"2\""))
        let archive = try player.get("/mastermind/archive").text
        #expect(
            archive.contains("data-daily=\"2\" data-outcome=\"won\"")
                && archive.contains("data-daily=\"0\" data-outcome=\"won\""))
        #expect(!archive.contains("data-daily=\"3\""), "today is not in the archive")
        let stats = try player.get("/mastermind/stats").text
        #expect(
            stats.contains("data-daily-played=\"4\" data-daily-wins=\"4\"") && stats.contains("data-daily-streak=\"1\"")
        )
        #expect(stats.contains("data-played=\"0\""), "the daily keeps its own statistics")
        // …and its own chart, after each daily and with the figures (a review: Wordle's after every daily, ours
        // none): four wins, each in one guess or two, in the card's first bar.
        let chart = try #require(
            stats.firstRange(of: "data-chart=\"daily-distribution\"").map { stats[$0.lowerBound...] })
        #expect(chart.contains("<li data-guesses=\"≤4\" data-count=\"4\""))
        #expect(!chart.contains("data-guesses=\"✕\""), "no loss, no bar for losses")
        // (A daily has no hints to leave out: a review read "without hints" over it.)
        #expect(stats.contains("<h3 id=\"daily-distribution\">Guesses per game</h3>"))
        #expect(stats.contains("<ol class=\"dist\" aria-labelledby=\"daily-distribution\""))
        let card = try player.get("/mastermind/daily").text
        #expect(card.contains("data-distribution") && card.contains("data-current class=\"is-current\""))
        // "Played 0" is under a heading saying whose games it counts (a review read it as the daily not counted).
        #expect(stats.contains("<h2 id=\"own-stats\">Free play</h2>\n<dl class=\"stats\" data-played=\"0\""))
    }
}
