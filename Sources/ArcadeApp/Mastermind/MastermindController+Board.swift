import HTTP
import Storage
import Synchronization
import Templates

/// Today's board: how many played today's code, the guesses its solvers took, and the players who chose a name, in
/// order of guesses and then time. It changes live: the site's ticker tells the page's event stream when another
/// game of today's code ends (on any instance: it reads the database).
extension MastermindController {
    static let boardChannel = "mastermind/daily-board"

    func addBoardRoutes(to routes: PlayerRoutes) {
        routes.pages.running(.pool).get("/mastermind/daily/board", use: boardPage)
        routes.pages.get("/mastermind/daily/board/events") { _, _ in
            .eventStream(channel: Self.boardChannel, initial: Array("retry: 5000\n".utf8))
        }
    }

    func boardPage(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let t = pages.localizer.strings(for: visitor.language)
        let day = store.today
        let board = try store.dailyBoard(day)
        // The viewer's own result today, marked among the others'.
        let own = visitor.isNew ? nil : try store.daily(player: visitor.playerID, day)
        let mine = own.flatMap { $0.game.outcome == .won ? $0.game.turns.count : nil }
        let title = t.string("mastermind.board.title", [.int(day + 1)])
        let data: TemplateFields = [
            "title": .string(title), "day": .int(day),
            "played": .string(t.string("mastermind.board.played", [.int(board.played)])),
            "solved": .string(t.string("mastermind.board.solved", [.int(board.solved)])),
            "playedCount": .int(board.played), "solvedCount": .int(board.solved),
            "bars": compactDistribution(board.distribution, highlight: mine, t: t), "hasBars": .bool(board.solved > 0),
            "hasSolvers": .bool(!board.named.isEmpty),
            "solvers": .list(
                board.named.enumerated().map { index, solver in
                    [
                        "rank": .int(index + 1), "name": .string(solver.name), "guesses": .int(solver.guesses),
                        "score": .string("\(solver.guesses)/\(store.rules.attempts)"),
                        "text": .string(t.string("mastermind.board.guesses", [.int(solver.guesses)])),
                    ]
                }),
        ]
        // The live page swaps in the board alone.
        if request.query["part"] == "board" {
            return pages.fragment("mastermind-daily-board", for: visitor, data: data)
        }
        return pages.render(
            "mastermind-daily-board", title: title, for: visitor, path: "/mastermind/daily/board",
            section: "mastermind", data: data)
    }
}

extension MastermindStore {
    struct DailyBoard: Sendable {
        var played = 0, solved = 0
        /// Solvers by guesses (index 0: one guess).
        var distribution: [Int] = []
        var named: [(name: String, guesses: Int)] = []
    }

    /// Players on a board, at most.
    static let boardNames = 50

    /// Day `day`'s board: its games played that day (a past day's played later are archive games, not on it).
    func dailyBoard(_ day: Int) throws -> DailyBoard {
        let db = try pool.connection()
        var board = DailyBoard()
        let values: [SQLValue] = [SQLValue(day), SQLValue(day)]
        board.played = try db.scalar(
            Int.self, "SELECT COUNT(*) AS n FROM mastermind_games WHERE daily = ? AND played_day = ?", values)
        let guesses = "(SELECT COUNT(*) FROM mastermind_guesses q WHERE q.game = g.id)"
        var counts = Array(repeating: 0, count: rules.attempts)
        for row in try db.query(
            """
            SELECT n, COUNT(*) AS c FROM (SELECT \(guesses) AS n FROM mastermind_games g
                WHERE g.daily = ? AND g.played_day = ? AND g.status = 'won') wins GROUP BY n
            """, values)
        {
            let n: Int = try row.decode("n")
            let c: Int = try row.decode("c")
            if n >= 1 {
                if n > counts.count { counts += Array(repeating: 0, count: n - counts.count) }
                counts[n - 1] += c
                board.solved += c
            }
        }
        board.distribution = counts
        board.named = try db.query(
            """
            SELECT p.display_name AS name, \(guesses) AS n FROM mastermind_games g JOIN players p ON p.id = g.player
            WHERE g.daily = ? AND g.played_day = ? AND g.status = 'won' AND p.display_name IS NOT NULL
            ORDER BY n, g.finished, g.id LIMIT ?
            """, values + [SQLValue(Self.boardNames)]
        ).map { row throws in (try row.decode("name"), try row.decode("n")) }
        return board
    }

    /// Games of today's code that have ended: what the ticker watches to refresh the live boards.
    func dailyEnded() throws -> Int {
        try pool.connection().scalar(
            Int.self, "SELECT COUNT(*) AS n FROM mastermind_games WHERE daily = ? AND status != 'playing'",
            [SQLValue(today)])
    }
}
