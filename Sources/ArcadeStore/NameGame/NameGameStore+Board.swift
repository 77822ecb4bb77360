import NameGame
import SpacedRepetition
import Storage

extension NameGameStore {
    /// Players on the week's board, at most.
    package static let boardNames = 50

    /// Monday 00:00 UTC of this week, in milliseconds (1 January 1970 was a Thursday).
    package func weekStart() -> Int64 {
        let day = nowMilliseconds() / 86_400_000
        return (day - (day + 3) % 7) * 86_400_000
    }

    /// Named players by people met this week and learned since, most first; ties by name.
    package func weekBoard() throws -> [(name: String, learned: Int)] {
        try pool.connection().query(
            """
            SELECT p.display_name AS name, COUNT(*) AS learned FROM namegame_cards c JOIN players p ON p.id = c.player
            WHERE p.display_name IS NOT NULL AND c.met_ms >= ? AND c.state = 'review' AND c.stability >= ?
                AND c.last_ms - c.met_ms >= ?
            GROUP BY p.id, p.display_name ORDER BY learned DESC, p.display_name LIMIT ?
            """,
            [
                .integer(weekStart()), .real(LearningPlan.learnedDays), .integer(Int64(FSRS.day)),
                SQLValue(Self.boardNames),
            ]
        ).map { row throws in (try row.decode("name"), try row.decode("learned")) }
    }
}
