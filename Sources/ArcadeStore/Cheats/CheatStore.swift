import Cheats
import JSON
import Storage

/// Players' progress through the cheats, kept in the database so it survives a
/// restart and is shared by every worker. Each action is read, matched and
/// written in one transaction, on the player's locked row, so two tabs cannot
/// both use one completion.
package struct CheatStore: Sendable {
    package let pool: DatabasePool
    package let book: CheatBook

    /// Matches one action for a player and stores the new progress.
    /// Queued for the writer; `then` runs on its thread once committed.
    package func record(
        _ action: Action, player who: Player, at time: Double,
        then: @escaping @Sendable (Result<CheatMatcher.Outcome, any Error>) -> Void
    ) {
        let player = who.id
        // On PostgreSQL the player's row is made and locked, then their progress read, all sent ahead with the rest of
        // the group's. The read is a statement of its own: one that locked and read at once would read from before
        // its wait for the lock, missing what another instance (or the writer's other connection) committed meanwhile.
        let prefetch =
            pool.location.dialect == .postgresql
            ? who.rowStatements(.postgresql) + [(Self.loadSQL, [.text(player)])] : []
        pool.write(
            { [book] db in
                if prefetch.isEmpty { try who.ensureRow(db) }
                var matcher = try CheatMatcher(cheats: book.codes, progress: try Self.load(player, db))
                let outcome = matcher.record(action, at: time)
                let members: [(String, JSONValue)] = matcher.progress.sorted { $0.key < $1.key }.compactMap {
                    name, progress in
                    guard !progress.recent.isEmpty, let at = progress.lastTime else { return nil }
                    return (
                        name,
                        .object([
                            ("at", .double(at)), ("recent", .array(progress.recent.map { .string($0.description) })),
                        ])
                    )
                }
                try db.send(
                    Progress.upsert(on: .player) { row in
                        row[.player] = player
                        row[.progress] = JSONWriter().string(.object(members))
                    })
                return outcome
            }, prefetch: prefetch, then: then)
    }

    /// `cheat_progress`: a player's partial inputs, as JSON.
    package enum Progress: TableRecord {
        package static let table = "cheat_progress"
        package enum Columns: String, ColumnName { case player, progress }
    }

    private static let loadSQL = "SELECT progress FROM cheat_progress WHERE player = ?"

    /// A stored progress that no longer parses (say, after the cheats file
    /// changed) is dropped rather than refused: it is only a partial input.
    private static func load(_ player: String, _ db: Database) throws -> [String: CheatProgress] {
        guard
            let text = try db.value(String.self, loadSQL, [.text(player)]),
            let json = try? JSONParser.parse(text), let members = json.members
        else { return [:] }
        var result: [String: CheatProgress] = [:]
        for (name, value) in members {
            guard let at = value["at"]?.double, let list = value["recent"]?.array else { continue }
            let recent = list.compactMap { $0.string.flatMap { try? Action($0) } }
            guard recent.count == list.count else { continue }
            result[name] = CheatProgress(recent: recent, lastTime: at)
        }
        return result
    }

    package init(pool: DatabasePool, book: CheatBook) {
        self.pool = pool
        self.book = book
    }
}
