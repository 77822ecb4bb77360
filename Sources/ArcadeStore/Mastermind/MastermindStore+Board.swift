import Storage

extension MastermindStore {
    package struct DailyBoard: Sendable {
        package var played = 0, solved = 0
        /// Solvers by guesses (index 0: one guess).
        package var distribution: [Int] = []
        package var named: [(name: String, guesses: Int)] = []
    }

    /// Players on a board, at most.
    package static let boardNames = 50

    /// Day `day`'s board: its games played that day (a past day's played later are archive games, not on it).
    package func dailyBoard(_ day: Int) throws -> DailyBoard {
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

    /// The name a player chose to be shown by, if any.
    package func displayName(of player: String) throws -> String? { try DisplayName.of(player, pool.connection()) }

    /// Games of today's code that have ended: what the ticker watches to refresh the live boards.
    package func dailyEnded() throws -> Int {
        try pool.connection().scalar(
            Int.self, "SELECT COUNT(*) AS n FROM mastermind_games WHERE daily = ? AND status != 'playing'",
            [SQLValue(today)])
    }
}
