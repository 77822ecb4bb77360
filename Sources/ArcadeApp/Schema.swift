import Storage

/// The database schema, as migrations applied at start-up.
enum Schema {
    static let migrations = [
        Migration(1, """
            CREATE TABLE secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL);
            CREATE TABLE players (
                id TEXT PRIMARY KEY,
                first_seen INTEGER NOT NULL
            );
            CREATE TABLE string_hotfixes (
                key TEXT NOT NULL,
                language TEXT NOT NULL,
                value TEXT NOT NULL,
                updated INTEGER NOT NULL,
                PRIMARY KEY (key, language)
            );
            """),
        Migration(2, """
            CREATE TABLE mastermind_games (
                id INTEGER PRIMARY KEY,
                player TEXT NOT NULL REFERENCES players(id),
                secret TEXT NOT NULL,
                code_length INTEGER NOT NULL,
                digit_min INTEGER NOT NULL,
                digit_max INTEGER NOT NULL,
                attempts INTEGER NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('playing', 'won', 'lost')),
                used_hint INTEGER NOT NULL DEFAULT 0,
                hint TEXT,
                created INTEGER NOT NULL,
                finished INTEGER
            );
            -- One active game per player.
            CREATE UNIQUE INDEX mastermind_one_active ON mastermind_games (player) WHERE status = 'playing';
            CREATE INDEX mastermind_by_player ON mastermind_games (player, id);
            CREATE TABLE mastermind_guesses (
                game INTEGER NOT NULL REFERENCES mastermind_games(id),
                number INTEGER NOT NULL,
                guess TEXT NOT NULL,
                red INTEGER NOT NULL,
                blue INTEGER NOT NULL,
                gray INTEGER NOT NULL,
                pegs TEXT NOT NULL,
                PRIMARY KEY (game, number)
            );
            """),
    ]
}
