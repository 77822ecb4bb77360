import HTTP
import NameGame
import SpacedRepetition
import Templates

/// The week's board of the Name Game: the players who chose a name, by how many people they met this week (from
/// Monday, UTC) and have learned since, as "Learned" counts everywhere (`LearningPlan.knows`). Players without a name
/// are never shown.
extension NameGameController {
    func boardPage(_ request: Request, _ context: PlayerContext) throws -> Response {
        let t = pages.localizer.strings(for: context.visitor.language)
        let rows = try store.weekBoard()
        let title = t.string("namegame.board.title")
        return pages.render(
            "namegame-board", title: title, for: context.visitor, path: "/namegame/board", section: "namegame",
            data: [
                "title": .string(title), "hasRows": .bool(!rows.isEmpty),
                "rows": .list(
                    rows.enumerated().map { index, row in
                        [
                            "rank": .int(index + 1), "name": .string(row.name), "learned": .int(row.learned),
                            "text": .string(t.string("namegame.board.learned", [.int(row.learned)])),
                        ]
                    }),
            ])
    }
}
