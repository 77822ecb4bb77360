import HTTP
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
            // Today's code played to its end, the page offers free play, not the daily again (a review).
            "finished": .bool(own.map { $0.game.outcome != .playing } ?? false),
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
