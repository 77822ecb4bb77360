import JSON
import Storage

/// Everything stored about one player: exported as one JSON file ("download my data"), deleted whole ("forget
/// me"), and pruned for players who never finished anything and stopped coming.
package enum PlayerData {
    /// Each table that holds a player's rows, with its columns and how to find that player's rows. Children come
    /// before their parents, the order deletes need.
    package static let tables: [(name: String, columns: String, owned: String)] = [
        (
            "mastermind_guesses", "game, number, guess, red, blue, gray, pegs",
            "game IN (SELECT id FROM mastermind_games WHERE player = ?)"
        ),
        (
            "mastermind_games",
            "id, secret, code_length, digit_min, digit_max, attempts, status, used_hint, hint, created, finished, "
                + "revealed, hard, daily, played_day, challenge", "player = ?"
        ),
        (
            "namegame_round_faces", "round, position, person, hide_rank, wrong_rank",
            "round IN (SELECT id FROM namegame_rounds WHERE player = ?)"
        ),
        (
            "namegame_session_people", "session, list, position, person",
            "session IN (SELECT id FROM namegame_sessions WHERE player = ?)"
        ),
        (
            "namegame_rounds", "id, session, mode, answer, started_ms, status, finished_ms, cheat, recall, typed",
            "player = ?"
        ),
        (
            "namegame_sessions",
            "id, mode, started_ms, ended, rounds, identified, correct, incorrect, identify_ms, streak, best_streak, "
                + "extra_ms, penalty_ms", "player = ?"
        ),
        (
            "namegame_lifetime", "mode, rounds, identified, correct, incorrect, identify_ms, streak, best_streak",
            "player = ?"
        ),
        (
            "namegame_cards", "person, state, step, stability, difficulty, due_ms, last_ms, reviews, lapses, note",
            "player = ?"
        ),
        ("passkeys", "id, device, sign_count, backed_up, created_ms, last_used_ms", "player = ?"),
        ("player_merges", "merged_from, at_ms, moved", "player = ?"),
        ("transfer_codes", "expires_ms", "player = ?"),
        ("once_marks", "task, at_ms, times", "player = ?"),
        ("once_todos", "task, created_ms, expires_ms, info", "player = ?"),
        ("once_versions", "version, first_seen_ms", "player = ?"),
        ("once_sessions", "session, started_ms", "player = ?"),
        ("cheat_progress", "progress", "player = ?"),
        ("mastermind_wins_by_guesses", "guesses, n", "player = ?"),
        ("mastermind_totals", "played, wins, hint_wins, hard_wins, streak, longest_streak", "player = ?"),
        ("players", "id, first_seen, display_name, namegame_pace, namegame_focus", "id = ?"),
    ]

    /// Columns the export leaves empty (null) while their game is open: a Mastermind game's secret (a daily's is
    /// everyone's code today), a Name Game round's answer, and the order its wrong faces hide in (the one face never
    /// hidden is the answer). Finished games and rounds show them.
    package static let withheld: [String: [String: String]] = [
        "mastermind_games": ["secret": "CASE WHEN status = 'playing' THEN NULL ELSE secret END"],
        "namegame_rounds": ["answer": "CASE WHEN status = 'open' THEN NULL ELSE answer END"],
        "namegame_round_faces": [
            "hide_rank":
                "CASE WHEN round IN (SELECT id FROM namegame_rounds WHERE status = 'open') THEN NULL ELSE hide_rank END"
        ],
    ]

    /// A table's columns as the export selects them, withheld ones replaced by their expressions.
    package static func exportColumns(_ table: String, _ columns: String) -> String {
        guard let hidden = withheld[table] else { return columns }
        return columns.split(separator: ",").map { column in
            let name = column.trimmingPrefix(" ")
            return hidden[String(name)].map { "\($0) AS \(name)" } ?? String(name)
        }.joined(separator: ", ")
    }

    /// Rows the export takes from each table at most, so one download's size and memory are bounded whatever the
    /// player's history (a table cut short is named in `truncated`). Ordinary Mastermind games are bounded anyway
    /// (`MastermindStore.keptGames`); this holds for Name Game rounds of a very long-standing player.
    package static let exportRows = 20_000

    /// The player's rows, table by table, parents first, as one JSON object.
    package static func export(_ player: String, _ db: Database) throws -> JSONValue {
        var sections: [(String, JSONValue)] = [("player", .string(player))]
        var truncated: [JSONValue] = []
        for table in tables.reversed() {
            var rows = try db.query(
                "SELECT \(exportColumns(table.name, table.columns)) FROM \(table.name) WHERE \(table.owned) LIMIT ?",
                [.text(player), SQLValue(exportRows + 1)])
            if rows.count > exportRows {
                rows.removeLast(rows.count - exportRows)
                truncated.append(.string(table.name))
            }
            sections.append(
                (
                    table.name,
                    .array(
                        rows.map { row in
                            .object(zip(row.columns, row.values).map { ($0, json($1)) })
                        })
                ))
        }
        if !truncated.isEmpty { sections.append(("truncated", .array(truncated))) }
        return .object(sections)
    }

    private static func json(_ value: SQLValue) -> JSONValue {
        switch value {
        case .null: .null
        case .integer(let v): .integer(v)
        case .real(let v): .double(v)
        case .text(let v): .string(v)
        case .blob(let v): .string(v.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined())
        }
    }

    /// Deletes every row of these players (call inside a write transaction); returns the rows deleted.
    @discardableResult
    package static func delete(_ players: [String], _ db: Database) throws -> Int {
        var deleted = 0
        for player in players {
            for table in tables {
                deleted += try db.execute("DELETE FROM \(table.name) WHERE \(table.owned)", [.text(player)])
            }
        }
        return deleted
    }

    /// Players first seen before `cutoff` (seconds) who have not come back since and never finished anything: no
    /// game won or lost after a guess (a game abandoned or given up untouched is no result), no Name Game round
    /// answered, no cheat found (a passkey kept by such a player goes with them: it kept nothing). Each test reads the
    /// player's own index.
    package static func inactive(before cutoff: Int, limit: Int, _ db: Database) throws -> [String] {
        let ms = SQLValue.integer(Int64(cutoff) * 1000)
        let seconds = SQLValue.integer(Int64(cutoff))
        return try db.query(
            """
            SELECT p.id AS id FROM players p WHERE p.first_seen < ?
            AND NOT EXISTS (SELECT 1 FROM mastermind_games g WHERE g.player = p.id
                AND ((g.status != 'playing' AND EXISTS (SELECT 1 FROM mastermind_guesses q WHERE q.game = g.id))
                    OR g.created >= ?))
            AND NOT EXISTS (SELECT 1 FROM namegame_rounds r WHERE r.player = p.id
                AND (r.finished_ms IS NOT NULL OR r.started_ms >= ?))
            AND NOT EXISTS (SELECT 1 FROM namegame_sessions s WHERE s.player = p.id AND s.started_ms >= ?)
            AND NOT EXISTS (SELECT 1 FROM once_sessions o WHERE o.player = p.id AND o.started_ms >= ?)
            AND NOT EXISTS (SELECT 1 FROM once_marks m WHERE m.player = p.id AND (m.task LIKE 'cheat.%' OR m.at_ms >= ?))
            ORDER BY p.id LIMIT ?
            """, [seconds, seconds, ms, ms, ms, ms, .integer(Int64(limit))]
        ).map { row throws in try row.decode("id", as: String.self) }
    }

    /// Prunes in batches of `batch` players, each its own short transaction through `write`; returns the players
    /// removed (with `dryRun`, those that would be, and nothing is written).
    package static func prune(
        before cutoff: Int, dryRun: Bool, batch: Int = 50, read: () throws -> Database,
        write: (@escaping @Sendable (Database) throws -> Int) throws -> Int
    ) throws -> Int {
        if dryRun { return try inactive(before: cutoff, limit: Int(Int32.max), read()).count }
        var total = 0
        while true {
            let removed = try write { db in
                let players = try inactive(before: cutoff, limit: batch, db)
                try delete(players, db)
                return players.count
            }
            total += removed
            if removed < batch { return total }
        }
    }
}

extension OnceStore {
    /// Everything stored of the player, as the privacy export gives it.
    package func export(_ player: String) throws -> JSONValue { try PlayerData.export(player, pool.connection()) }

    /// Forget me: every row of the player's, deleted in one transaction, and what this instance remembers of them.
    package func forget(_ player: String) throws {
        _ = try pool.write { db in try PlayerData.delete([player], db) }
        cache.records[PlayerKey(player)] = nil
    }
}
