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
    ]
}
