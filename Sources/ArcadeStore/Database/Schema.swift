import Logger
import Storage

/// The database schema, as migrations applied at start-up.
package enum Schema {
    /// The tables other instances cache, and the kind of cached data each belongs to (`ChangeFeed`).
    package static let watched = [
        ("string_hotfixes", "hotfixes"), ("constant_hotfixes", "constants"),
        ("update_rules", "interceptions"), ("maintenance", "interceptions"), ("people", "people"),
        ("once_marks", "once"), ("once_todos", "once"),
    ]

    /// Migration 21: the Name Game's lists, once comma-joined in TEXT columns, as rows of their own.
    package static let namegameLists = """
        -- A round's faces: its people in their places, when each hides in hint mode (0 first; the answer never
        -- does), and the order of the player's wrong picks (0 first; NULL: not picked wrongly).
        CREATE TABLE namegame_round_faces (
            round INTEGER NOT NULL REFERENCES namegame_rounds(id),
            position INTEGER NOT NULL,
            person TEXT NOT NULL,
            hide_rank INTEGER,
            wrong_rank INTEGER,
            PRIMARY KEY (round, position)
        );
        -- A session's people to come: the next round's (for prefetching) and a review's queue, in order.
        CREATE TABLE namegame_session_people (
            session INTEGER NOT NULL REFERENCES namegame_sessions(id),
            list TEXT NOT NULL CHECK (list IN ('next', 'queue')),
            position INTEGER NOT NULL,
            person TEXT NOT NULL,
            PRIMARY KEY (session, list, position)
        );

        """
    package static let namegameDrops = """
        ALTER TABLE namegame_rounds DROP COLUMN people;
        ALTER TABLE namegame_rounds DROP COLUMN hide_order;
        ALTER TABLE namegame_rounds DROP COLUMN wrong;
        ALTER TABLE namegame_sessions DROP COLUMN next_people;
        ALTER TABLE namegame_sessions DROP COLUMN queue;
        """

    package static let migrations = [
        Migration(
            1,
            """
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
        Migration(
            2,
            """
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
        Migration(
            3,
            """
            CREATE TABLE namegame_sessions (
                id INTEGER PRIMARY KEY,
                player TEXT NOT NULL REFERENCES players(id),
                mode TEXT NOT NULL,
                started_ms INTEGER NOT NULL,
                ended INTEGER NOT NULL DEFAULT 0,
                rounds INTEGER NOT NULL DEFAULT 0,
                identified INTEGER NOT NULL DEFAULT 0,
                correct INTEGER NOT NULL DEFAULT 0,
                incorrect INTEGER NOT NULL DEFAULT 0,
                identify_ms INTEGER NOT NULL DEFAULT 0,
                next_people TEXT
            );
            -- One session in play per player and mode.
            CREATE UNIQUE INDEX namegame_one_session ON namegame_sessions (player, mode) WHERE ended = 0;
            CREATE TABLE namegame_rounds (
                id INTEGER PRIMARY KEY,
                session INTEGER NOT NULL REFERENCES namegame_sessions(id),
                player TEXT NOT NULL,
                mode TEXT NOT NULL,
                people TEXT NOT NULL,
                answer INTEGER NOT NULL,
                hide_order TEXT NOT NULL,
                started_ms INTEGER NOT NULL,
                wrong TEXT NOT NULL DEFAULT '',
                status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'identified', 'failed')),
                finished_ms INTEGER
            );
            CREATE INDEX namegame_rounds_by_session ON namegame_rounds (session, id);
            CREATE INDEX namegame_rounds_by_player ON namegame_rounds (player, finished_ms);
            -- Lifetime figures per player and mode, as sums: merging never overwrites an average.
            CREATE TABLE namegame_lifetime (
                player TEXT NOT NULL REFERENCES players(id),
                mode TEXT NOT NULL,
                rounds INTEGER NOT NULL DEFAULT 0,
                identified INTEGER NOT NULL DEFAULT 0,
                correct INTEGER NOT NULL DEFAULT 0,
                incorrect INTEGER NOT NULL DEFAULT 0,
                identify_ms INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (player, mode)
            );
            """),
        Migration(
            4,
            """
            -- Once-store marks: how many times a task was done at each instant, so
            -- counts stay exact in every scope while repeats cost no extra rows.
            CREATE TABLE once_marks (
                player TEXT NOT NULL REFERENCES players(id),
                task TEXT NOT NULL,
                at_ms INTEGER NOT NULL,
                times INTEGER NOT NULL DEFAULT 1,
                PRIMARY KEY (player, task, at_ms)
            );
            CREATE TABLE once_todos (
                player TEXT NOT NULL REFERENCES players(id),
                task TEXT NOT NULL,
                created_ms INTEGER NOT NULL,
                expires_ms INTEGER,
                info TEXT,
                PRIMARY KEY (player, task)
            );
            -- When each player first saw each site version, and began each browser session.
            CREATE TABLE once_versions (
                player TEXT NOT NULL REFERENCES players(id),
                version TEXT NOT NULL,
                first_seen_ms INTEGER NOT NULL,
                PRIMARY KEY (player, version)
            );
            CREATE TABLE once_sessions (
                player TEXT NOT NULL REFERENCES players(id),
                session TEXT NOT NULL,
                started_ms INTEGER NOT NULL,
                PRIMARY KEY (player, session)
            );
            """),
        Migration(
            5,
            """
            -- Update rules (GTConstants' model); messages are JSON objects by language.
            CREATE TABLE update_rules (
                id INTEGER PRIMARY KEY,
                platform TEXT NOT NULL CHECK (platform IN ('ios', 'android', 'web')),
                restriction INTEGER NOT NULL CHECK (restriction BETWEEN 0 AND 2),
                active INTEGER NOT NULL DEFAULT 1,
                min_app_version TEXT,
                min_app_messages TEXT NOT NULL DEFAULT '{}',
                min_os_version TEXT,
                min_os_messages TEXT NOT NULL DEFAULT '{}'
            );
            CREATE TABLE maintenance (
                platform TEXT PRIMARY KEY CHECK (platform IN ('ios', 'android', 'web')),
                active INTEGER NOT NULL DEFAULT 0,
                messages TEXT NOT NULL DEFAULT '{}',
                ends_at INTEGER,
                poll_interval INTEGER NOT NULL DEFAULT 30
            );
            """),
        Migration(
            6,
            """
            CREATE TABLE admins (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE,
                salt BLOB NOT NULL,
                hash BLOB NOT NULL,
                iterations INTEGER NOT NULL,
                created INTEGER NOT NULL
            );
            -- Only a hash of each session token is kept.
            CREATE TABLE admin_sessions (
                token_hash BLOB PRIMARY KEY,
                admin INTEGER NOT NULL REFERENCES admins(id) ON DELETE CASCADE,
                created INTEGER NOT NULL,
                last_seen INTEGER NOT NULL
            );
            CREATE TABLE admin_failures (
                name TEXT NOT NULL,
                address TEXT NOT NULL,
                at INTEGER NOT NULL
            );
            CREATE INDEX admin_failures_by_key ON admin_failures (name, address, at);
            CREATE TABLE audit (
                id INTEGER PRIMARY KEY,
                admin TEXT NOT NULL,
                at INTEGER NOT NULL,
                action TEXT NOT NULL,
                target TEXT NOT NULL,
                before TEXT,
                after TEXT
            );
            """),
        Migration(
            7,
            """
            -- Every hotfix change, for each key's history and one-click revert.
            CREATE TABLE hotfix_history (
                id INTEGER PRIMARY KEY,
                key TEXT NOT NULL,
                language TEXT NOT NULL,
                before TEXT,
                after TEXT,
                admin TEXT NOT NULL,
                at INTEGER NOT NULL
            );
            CREATE INDEX hotfix_history_by_key ON hotfix_history (key, id);
            """),
        Migration(
            8,
            """
            -- Constant hotfixes, as text with the type they must keep.
            CREATE TABLE constant_hotfixes (
                key TEXT PRIMARY KEY,
                type TEXT NOT NULL,
                value TEXT NOT NULL
            );
            """),
        Migration(
            9,
            """
            -- A browser rule may be for one operating system only.
            ALTER TABLE update_rules ADD COLUMN os TEXT CHECK (os IN ('ios', 'android', 'macos', 'windows'));
            """),
        Migration(
            10,
            """
            -- Each player's progress through every cheat, as JSON:
            -- {"konami": {"at": seconds, "recent": ["swipe:up", …]}, …}.
            CREATE TABLE cheat_progress (
                player TEXT PRIMARY KEY,
                progress TEXT NOT NULL
            );
            """),
        Migration(
            11,
            """
            -- The position the Konami cheat revealed in a game (0-based), once per game.
            ALTER TABLE mastermind_games ADD COLUMN revealed INTEGER;
            """),
        Migration(
            12,
            """
            -- A Name Game round helped by the "who is it?" cheat.
            ALTER TABLE namegame_rounds ADD COLUMN cheat INTEGER NOT NULL DEFAULT 0;
            """),
        Migration(
            13,
            """
            -- Hard mode: every guess must fit all the feedback shown before it.
            ALTER TABLE mastermind_games ADD COLUMN hard INTEGER NOT NULL DEFAULT 0;
            """),
        Migration(
            14,
            """
            -- The daily code: the daily a game is (days since the site's first), and the daily of the day it was played;
            -- one daily game per player per day, beside at most one ordinary game in play.
            ALTER TABLE mastermind_games ADD COLUMN daily INTEGER;
            ALTER TABLE mastermind_games ADD COLUMN played_day INTEGER;
            DROP INDEX mastermind_one_active;
            CREATE UNIQUE INDEX mastermind_one_active ON mastermind_games (player) WHERE status = 'playing' AND daily IS NULL;
            CREATE UNIQUE INDEX mastermind_one_daily ON mastermind_games (player, daily) WHERE daily IS NOT NULL;
            """),
        Migration(
            15,
            """
            -- The Name Game's people, edited in Admin → People; seeded once from the configured profiles.
            -- photo: the path it is served at (/headshots/… bundled, /photos/… uploaded).
            CREATE TABLE people (
                id TEXT PRIMARY KEY,
                first_name TEXT NOT NULL,
                last_name TEXT NOT NULL,
                job_title TEXT,
                photo TEXT NOT NULL,
                retired INTEGER NOT NULL DEFAULT 0,
                updated_ms INTEGER NOT NULL
            );
            -- An import waiting for the admin's confirmation: what it will do, as JSON.
            CREATE TABLE people_imports (
                id TEXT PRIMARY KEY,
                admin TEXT NOT NULL,
                created_ms INTEGER NOT NULL,
                plan TEXT NOT NULL
            );
            -- What each player knows of each person they have met (FSRS-5).
            CREATE TABLE namegame_cards (
                player TEXT NOT NULL,
                person TEXT NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('learning', 'review', 'relearning')),
                step INTEGER,
                stability REAL NOT NULL,
                difficulty REAL NOT NULL,
                due_ms INTEGER NOT NULL,
                last_ms INTEGER NOT NULL,
                reviews INTEGER NOT NULL DEFAULT 1,
                lapses INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (player, person)
            );
            CREATE INDEX namegame_cards_due ON namegame_cards (player, due_ms);
            -- Streaks in every mode: rounds in a row identified at the first pick.
            ALTER TABLE namegame_lifetime ADD COLUMN streak INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE namegame_lifetime ADD COLUMN best_streak INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE namegame_sessions ADD COLUMN streak INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE namegame_sessions ADD COLUMN best_streak INTEGER NOT NULL DEFAULT 0;
            -- A review session: the people still to ask, in order.
            ALTER TABLE namegame_sessions ADD COLUMN queue TEXT;
            -- A round may end with "I don't know" (skipped): the table is rebuilt, as SQLite cannot change a CHECK.
            CREATE TABLE namegame_rounds_new (
                id INTEGER PRIMARY KEY,
                session INTEGER NOT NULL REFERENCES namegame_sessions(id),
                player TEXT NOT NULL,
                mode TEXT NOT NULL,
                people TEXT NOT NULL,
                answer INTEGER NOT NULL,
                hide_order TEXT NOT NULL,
                started_ms INTEGER NOT NULL,
                wrong TEXT NOT NULL DEFAULT '',
                status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'identified', 'failed', 'skipped')),
                finished_ms INTEGER,
                cheat INTEGER NOT NULL DEFAULT 0
            );
            INSERT INTO namegame_rounds_new (id, session, player, mode, people, answer, hide_order, started_ms, wrong,
                status, finished_ms, cheat)
            SELECT id, session, player, mode, people, answer, hide_order, started_ms, wrong,
                status, finished_ms, cheat FROM namegame_rounds;
            DROP TABLE namegame_rounds;
            ALTER TABLE namegame_rounds_new RENAME TO namegame_rounds;
            CREATE INDEX namegame_rounds_by_session ON namegame_rounds (session, id);
            CREATE INDEX namegame_rounds_by_player ON namegame_rounds (player, finished_ms);
            """),
        Migration(
            16,
            """
            -- Every change to an update rule or a maintenance switch, as the whole item before and after (JSON; null
            -- where it did not exist), so any one can be reverted.
            CREATE TABLE change_history (
                id INTEGER PRIMARY KEY,
                kind TEXT NOT NULL CHECK (kind IN ('rule', 'maintenance')),
                target TEXT NOT NULL,
                before TEXT,
                after TEXT,
                admin TEXT NOT NULL,
                at INTEGER NOT NULL
            );
            CREATE INDEX change_history_by_target ON change_history (kind, target, id);
            -- Changes that start (and may end) at a given time; applied by the scheduler, whatever the requests.
            CREATE TABLE scheduled_changes (
                id INTEGER PRIMARY KEY,
                kind TEXT NOT NULL CHECK (kind IN ('maintenance', 'rule', 'hotfix')),
                target TEXT NOT NULL,
                payload TEXT NOT NULL,
                starts_at INTEGER NOT NULL,
                ends_at INTEGER,
                state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'started', 'done', 'cancelled')),
                undo TEXT,
                admin TEXT NOT NULL,
                created INTEGER NOT NULL
            );
            CREATE INDEX scheduled_changes_due ON scheduled_changes (state, starts_at);
            """),
        Migration(
            17,
            """
            -- A translator's file: kept from its upload (for the preview) until applied as hotfixes, in one change
            -- whose history rows share its id, so one revert undoes it.
            CREATE TABLE string_imports (
                id INTEGER PRIMARY KEY,
                language TEXT NOT NULL,
                format TEXT NOT NULL CHECK (format IN ('strings', 'stringsdict')),
                file TEXT NOT NULL,
                content BLOB NOT NULL,
                admin TEXT NOT NULL,
                staged_at INTEGER NOT NULL,
                applied_at INTEGER,
                changes INTEGER,
                reverted_at INTEGER
            );
            ALTER TABLE hotfix_history ADD COLUMN batch INTEGER;
            """),
        Migration(
            18,
            """
            -- The people's order, as they were added (SQLite's row id, which PostgreSQL has no equivalent of).
            ALTER TABLE people ADD COLUMN position INTEGER;
            UPDATE people SET position = rowid;
            """,
            postgresql: """
                ALTER TABLE people ADD COLUMN position INTEGER;
                """),
        Migration(
            19,
            """
            -- PostgreSQL only: how instances sharing the database learn that data they cache changed (ChangeFeed).
            """,
            postgresql: """
                -- A version per cached kind, bumped by every statement that changes it, and a notification at commit on
                -- the site's channel (arcade_SCHEMA): the kind, or kind:player for a player's once-store records.
                CREATE TABLE cache_versions (name TEXT PRIMARY KEY, version BIGINT NOT NULL);
                CREATE FUNCTION arcade_changed() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    INSERT INTO cache_versions (name, version) VALUES (TG_ARGV[0], 1)
                        ON CONFLICT (name) DO UPDATE SET version = cache_versions.version + 1;
                    PERFORM pg_notify('arcade_' || current_schema(), TG_ARGV[0]);
                    RETURN NULL;
                END $$;
                CREATE FUNCTION arcade_player_changed() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP = 'DELETE' THEN
                        PERFORM pg_notify('arcade_' || current_schema(), TG_ARGV[0] || ':' || OLD.player);
                    ELSE
                        PERFORM pg_notify('arcade_' || current_schema(), TG_ARGV[0] || ':' || NEW.player);
                    END IF;
                    RETURN NULL;
                END $$;
                """
                    + watched.map { table, kind in
                        "CREATE TRIGGER changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \(table) "
                            + "FOR EACH STATEMENT EXECUTE FUNCTION arcade_changed('\(kind)');\n"
                    }.joined()
                    + ["once_marks", "once_todos"].map { table in
                        "CREATE TRIGGER changed_player AFTER INSERT OR UPDATE OR DELETE ON \(table) "
                            + "FOR EACH ROW EXECUTE FUNCTION arcade_player_changed('once');\n"
                    }.joined()),
        Migration(
            20,
            """
            -- Uploaded photos, for instances sharing a database (each keeps a file copy); one SQLite site keeps files only.
            CREATE TABLE photos (name TEXT PRIMARY KEY, bytes BLOB NOT NULL);
            """),
        Migration(
            21,
            namegameLists + """
                -- Each comma-joined list, split into (owner, list, position, item) rows with a recursive query.
                CREATE TEMP TABLE namegame_split (owner INTEGER, list TEXT, position INTEGER, item TEXT);
                INSERT INTO namegame_split (owner, list, position, item)
                WITH RECURSIVE split (owner, list, position, item, rest) AS (
                    SELECT id, 'people', -1, '', people || ',' FROM namegame_rounds
                    UNION ALL SELECT id, 'hide', -1, '', hide_order || ',' FROM namegame_rounds
                    UNION ALL SELECT id, 'wrong', -1, '', wrong || ',' FROM namegame_rounds
                    UNION ALL SELECT id, 'next', -1, '', COALESCE(next_people, '') || ',' FROM namegame_sessions
                    UNION ALL SELECT id, 'queue', -1, '', COALESCE(queue, '') || ',' FROM namegame_sessions
                    UNION ALL SELECT owner, list, position + 1, substr(rest, 1, instr(rest, ',') - 1),
                        substr(rest, instr(rest, ',') + 1) FROM split WHERE rest != ''
                )
                SELECT owner, list, position, item FROM split WHERE position >= 0 AND item != '';
                INSERT INTO namegame_round_faces (round, position, person, hide_rank, wrong_rank)
                SELECT p.owner, p.position, p.item,
                    (SELECT MIN(h.position) FROM namegame_split h
                     WHERE h.owner = p.owner AND h.list = 'hide' AND h.item = CAST(p.position AS TEXT)),
                    (SELECT MIN(w.position) FROM namegame_split w
                     WHERE w.owner = p.owner AND w.list = 'wrong' AND w.item = CAST(p.position AS TEXT))
                FROM namegame_split p WHERE p.list = 'people';
                INSERT INTO namegame_session_people (session, list, position, person)
                SELECT owner, list, position, item FROM namegame_split WHERE list IN ('next', 'queue');
                DROP TABLE namegame_split;
                """ + namegameDrops,
            postgresql: namegameLists + """
                INSERT INTO namegame_round_faces (round, position, person, hide_rank, wrong_rank)
                SELECT r.id, p.n - 1, p.item,
                    (SELECT MIN(h.n) - 1 FROM unnest(string_to_array(r.hide_order, ',')) WITH ORDINALITY AS h (item, n)
                     WHERE h.item = CAST(p.n - 1 AS TEXT)),
                    (SELECT MIN(w.n) - 1 FROM unnest(string_to_array(r.wrong, ',')) WITH ORDINALITY AS w (item, n)
                     WHERE w.item = CAST(p.n - 1 AS TEXT))
                FROM namegame_rounds r, unnest(string_to_array(r.people, ',')) WITH ORDINALITY AS p (item, n)
                WHERE p.item != '';
                INSERT INTO namegame_session_people (session, list, position, person)
                SELECT s.id, 'next', p.n - 1, p.item
                FROM namegame_sessions s, unnest(string_to_array(s.next_people, ',')) WITH ORDINALITY AS p (item, n)
                WHERE p.item != ''
                UNION ALL SELECT s.id, 'queue', p.n - 1, p.item
                FROM namegame_sessions s, unnest(string_to_array(s.queue, ',')) WITH ORDINALITY AS p (item, n)
                WHERE p.item != '';
                """ + namegameDrops),
        Migration(
            22,
            """
            -- The admin's insights: each aggregate reads a range of one of these, and only the index (each holds
            -- the columns its queries read).
            CREATE INDEX mastermind_games_by_created ON mastermind_games (created, player, daily, status);
            CREATE INDEX mastermind_games_by_finished ON mastermind_games (finished, status);
            CREATE INDEX namegame_rounds_by_started ON namegame_rounds (started_ms, player);
            CREATE INDEX namegame_rounds_by_finished ON namegame_rounds (finished_ms, status, mode, answer);
            CREATE INDEX once_marks_by_task ON once_marks (task, player);
            """),
        Migration(
            23,
            """
            -- The insights' closed days, each summed once (InsightsRollups): per day, a metric and an item (a mode, a
            -- person, a guess count; '' for a plain count) with one or two numbers. A row ('day', '') marks a day done,
            -- even an empty one. No player column: these are counts, kept when players are forgotten.
            CREATE TABLE insights_days (
                day INTEGER NOT NULL,
                metric TEXT NOT NULL,
                item TEXT NOT NULL,
                n INTEGER NOT NULL,
                m INTEGER NOT NULL,
                PRIMARY KEY (day, metric, item)
            );
            -- The last scheduled backup, whichever instance took it: one row, replaced each time.
            CREATE TABLE backup_status (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                at INTEGER NOT NULL,
                path TEXT NOT NULL,
                bytes INTEGER NOT NULL,
                row_count INTEGER NOT NULL,
                error TEXT
            );
            """),
        Migration(24, mastermindTotals),
        Migration(
            25,
            """
            -- Admins managed in the console: when each last signed in, and an optional second factor (RFC 6238 time-
            -- based codes): its secret, the last time step a code was accepted at (each code works once), and a secret
            -- shown for setting up but not yet confirmed by a code.
            ALTER TABLE admins ADD COLUMN last_sign_in INTEGER;
            ALTER TABLE admins ADD COLUMN totp_secret BLOB;
            ALTER TABLE admins ADD COLUMN totp_step INTEGER;
            ALTER TABLE admins ADD COLUMN totp_pending BLOB;
            -- Where each session came from, for the list an admin revokes sessions from.
            ALTER TABLE admin_sessions ADD COLUMN address TEXT NOT NULL DEFAULT '';
            ALTER TABLE admin_sessions ADD COLUMN device TEXT NOT NULL DEFAULT '';
            -- One-time set-up links: the new admin chooses their password. Only a hash of the link's token is kept.
            CREATE TABLE admin_invites (
                token_hash BLOB PRIMARY KEY,
                name TEXT NOT NULL,
                created_by TEXT NOT NULL,
                created INTEGER NOT NULL,
                expires INTEGER NOT NULL
            );
            -- Second-factor recovery codes, hashed; each is deleted when used.
            CREATE TABLE admin_recovery_codes (
                admin INTEGER NOT NULL REFERENCES admins(id) ON DELETE CASCADE,
                code_hash BLOB NOT NULL,
                PRIMARY KEY (admin, code_hash)
            );
            """),
        Migration(
            26,
            """
            -- A recall round: the player types the name for the face (the round's one person) instead of picking it.
            ALTER TABLE namegame_rounds ADD COLUMN recall INTEGER NOT NULL DEFAULT 0;
            -- A player's sessions of a mode, latest first (the last lesson, the timed best) without a scan.
            CREATE INDEX namegame_sessions_by_player ON namegame_sessions (player, mode, id);
            """),
        Migration(
            27,
            """
            -- Time a timed session's player added to its clock ("More time", WCAG 2.2.1); such a score is no best.
            ALTER TABLE namegame_sessions ADD COLUMN extra_ms INTEGER NOT NULL DEFAULT 0;
            """),
        Migration(
            28,
            """
            -- A face in words (the headshot's alternative text): how a player who does not see it learns the person.
            ALTER TABLE people ADD COLUMN appearance TEXT;
            """),
        Migration(
            29,
            """
            -- When the player first met the person (introduced, asked, or named after a wrong tap): learn mode meets
            -- at most so many new people a day, then says when the day's work is done (a review: it never ended).
            ALTER TABLE namegame_cards ADD COLUMN met_ms INTEGER;
            """),
        Migration(
            30,
            """
            -- Time a timed session's wrong taps took off its clock (a review: mashing the faces cost nothing).
            ALTER TABLE namegame_sessions ADD COLUMN penalty_ms INTEGER NOT NULL DEFAULT 0;
            -- The name a recall round's player typed, shown beside the answer when it was wrong.
            ALTER TABLE namegame_rounds ADD COLUMN typed TEXT;
            """),
        Migration(
            31,
            """
            -- A player's passkeys: the credential's id (base64url), its COSE public key, and its signature counter.
            CREATE TABLE passkeys (
                id TEXT PRIMARY KEY,
                player TEXT NOT NULL REFERENCES players(id),
                public_key BLOB NOT NULL,
                sign_count INTEGER NOT NULL,
                backed_up INTEGER NOT NULL,
                created_ms INTEGER NOT NULL,
                last_used_ms INTEGER
            );
            CREATE INDEX passkeys_by_player ON passkeys (player);
            -- Challenges a registration or sign-in has used, until they expire: each works once.
            CREATE TABLE passkey_challenges_used (
                challenge TEXT PRIMARY KEY,
                expires_ms INTEGER NOT NULL
            );
            CREATE INDEX passkey_challenges_by_expiry ON passkey_challenges_used (expires_ms);
            -- Another device's progress merged into this player's (a passkey's sign-in), for the player's export.
            CREATE TABLE player_merges (
                player TEXT NOT NULL REFERENCES players(id),
                merged_from TEXT NOT NULL,
                at_ms INTEGER NOT NULL,
                moved TEXT NOT NULL
            );
            CREATE INDEX player_merges_by_player ON player_merges (player);
            """),
        Migration(
            32,
            """
            -- A code that moves a player's progress to another device once, within minutes: its first three
            -- characters find it, the other five are kept only as a hash.
            CREATE TABLE transfer_codes (
                id TEXT PRIMARY KEY,
                secret_hash TEXT NOT NULL,
                player TEXT NOT NULL REFERENCES players(id),
                expires_ms INTEGER NOT NULL
            );
            CREATE INDEX transfer_codes_by_player ON transfer_codes (player);
            """),
        Migration(
            33,
            """
            -- A game played from a friend's challenge: the friend's game, whose code it shares.
            ALTER TABLE mastermind_games ADD COLUMN challenge INTEGER;
            CREATE INDEX mastermind_by_challenge ON mastermind_games (challenge) WHERE challenge IS NOT NULL;
            """),
        Migration(
            34,
            """
            -- A player's chosen name (none: anonymous everywhere), and what it reads as once look-alike letters are
            -- folded: one player per reading, so nobody can pass for another.
            ALTER TABLE players ADD COLUMN display_name TEXT;
            ALTER TABLE players ADD COLUMN name_key TEXT;
            CREATE UNIQUE INDEX players_by_name_key ON players (name_key) WHERE name_key IS NOT NULL;
            -- Today's board reads one daily's games.
            CREATE INDEX mastermind_by_daily ON mastermind_games (daily, status) WHERE daily IS NOT NULL;
            """),
        Migration(
            35,
            """
            -- An admin's passkeys: each signs in alone (user verification required) or as the second step.
            CREATE TABLE admin_passkeys (
                id TEXT PRIMARY KEY,
                admin INTEGER NOT NULL REFERENCES admins(id) ON DELETE CASCADE,
                public_key BLOB NOT NULL,
                sign_count INTEGER NOT NULL,
                created INTEGER NOT NULL,
                last_used INTEGER
            );
            CREATE INDEX admin_passkeys_by_admin ON admin_passkeys (admin);
            """),
        Migration(
            36,
            """
            -- The browser and system a passkey was added from, so a player can tell their passkeys apart.
            ALTER TABLE passkeys ADD COLUMN device TEXT;
            """),
        Migration(
            37,
            """
            -- How fast learn mode meets new people, the player's choice: relaxed or fast (none: steady).
            ALTER TABLE players ADD COLUMN namegame_pace TEXT;
            """),
        Migration(
            38,
            """
            -- Whether Learn has introduced the person (face, name and role, before a question): someone first met by a
            -- guess in a quiz has not been, and Learn introduces them before it asks.
            ALTER TABLE namegame_cards ADD COLUMN introduced INTEGER NOT NULL DEFAULT 1;
            """),
        Migration(
            39,
            """
            -- The closed days are summed again: they counted a Name Game round whose right face was tapped after a wrong
            -- one as recognised. The insights show 30 days, summed again from the rounds there are.
            DELETE FROM insights_days;
            """),
        Migration(
            40,
            """
            -- Each daily's figures over every player, kept as its games end (the card after a daily reads one row):
            -- games finished on the daily's own day (as today's board counts), won, and the guesses the wins took.
            CREATE TABLE mastermind_daily_totals (
                daily INTEGER PRIMARY KEY,
                played INTEGER NOT NULL DEFAULT 0,
                wins INTEGER NOT NULL DEFAULT 0,
                win_guesses INTEGER NOT NULL DEFAULT 0
            );
            INSERT INTO mastermind_daily_totals (daily, played, wins, win_guesses)
            SELECT g.daily, COUNT(*), SUM(CASE WHEN g.status = 'won' THEN 1 ELSE 0 END),
                SUM(CASE WHEN g.status = 'won'
                    THEN (SELECT COUNT(*) FROM mastermind_guesses q WHERE q.game = g.id) ELSE 0 END)
            FROM mastermind_games g WHERE g.daily IS NOT NULL AND g.status != 'playing' AND g.played_day = g.daily
            GROUP BY g.daily;
            """),
        Migration(
            41,
            """
            -- A player's own note on someone met, to remember them by (Anki's own fields: a review found "no memory
            -- hooks"): on the card, so it goes wherever the card goes (merged, exported, deleted with the person).
            ALTER TABLE namegame_cards ADD COLUMN note TEXT;
            """),
        Migration(
            42,
            """
            -- Whom Learn meets first, the player's choice: a job title of the directory's (none: everyone alike).
            ALTER TABLE players ADD COLUMN namegame_focus TEXT;
            """),
        Migration(
            43,
            """
            -- A lesson asked for to meet more people than the day's pace (a review: past today's ten, every lesson was
            -- the same ten again, and only a faster pace for good moved on): how many it may meet.
            ALTER TABLE namegame_sessions ADD COLUMN meet_more INTEGER NOT NULL DEFAULT 0;
            """),
    ]

    /// Migration 24: a player's ordinary Mastermind figures as running counters, kept as each game ends (the stats
    /// read one row, not the player's history, and old games may go), summed once from the games there are.
    package static let mastermindTotals = """
        CREATE TABLE mastermind_totals (
            player TEXT PRIMARY KEY REFERENCES players(id),
            played INTEGER NOT NULL DEFAULT 0,
            wins INTEGER NOT NULL DEFAULT 0,
            hint_wins INTEGER NOT NULL DEFAULT 0,
            hard_wins INTEGER NOT NULL DEFAULT 0,
            -- Wins in a row up to the last game, and the longest such run.
            streak INTEGER NOT NULL DEFAULT 0,
            longest_streak INTEGER NOT NULL DEFAULT 0
        );
        -- Wins without a hint, by the number of guesses they took.
        CREATE TABLE mastermind_wins_by_guesses (
            player TEXT NOT NULL REFERENCES players(id),
            guesses INTEGER NOT NULL,
            n INTEGER NOT NULL,
            PRIMARY KEY (player, guesses)
        );
        INSERT INTO mastermind_totals (player, played, wins, hint_wins, hard_wins, streak, longest_streak)
        SELECT g.player, COUNT(*),
            SUM(CASE WHEN g.status = 'won' THEN 1 ELSE 0 END),
            SUM(CASE WHEN g.status = 'won' AND g.used_hint != 0 THEN 1 ELSE 0 END),
            SUM(CASE WHEN g.status = 'won' AND g.hard != 0 THEN 1 ELSE 0 END),
            SUM(CASE WHEN g.status = 'won' AND g.id > COALESCE((SELECT MAX(l.id) FROM mastermind_games l
                WHERE l.player = g.player AND l.daily IS NULL AND l.status = 'lost'), 0) THEN 1 ELSE 0 END),
            0
        FROM mastermind_games g WHERE g.daily IS NULL AND g.status != 'playing' GROUP BY g.player;
        UPDATE mastermind_totals SET longest_streak = COALESCE((
            SELECT MAX(run) FROM (
                SELECT COUNT(*) AS run FROM (
                    SELECT status, SUM(CASE WHEN status = 'won' THEN 0 ELSE 1 END) OVER (ORDER BY id) AS island
                    FROM mastermind_games WHERE player = mastermind_totals.player AND daily IS NULL
                        AND status != 'playing'
                ) runs WHERE status = 'won' GROUP BY island
            ) islands), 0);
        INSERT INTO mastermind_wins_by_guesses (player, guesses, n)
        SELECT player, guesses, COUNT(*) FROM (
            SELECT g.player AS player, (SELECT COUNT(*) FROM mastermind_guesses q WHERE q.game = g.id) AS guesses
            FROM mastermind_games g WHERE g.daily IS NULL AND g.status = 'won' AND g.used_hint = 0
        ) wins WHERE guesses >= 1 GROUP BY player, guesses;
        """
}

extension Schema {
    /// Brings a database up to date, saying which migrations an upgrade applied and how long each took.
    /// A new database gets one line; an upgrade, one line for each migration.
    package static func migrate(_ db: Database) throws(DatabaseError) {
        var applied: [(version: Int, seconds: Double)] = []
        try db.migrate(migrations) { applied.append(($0, $1)) }
        guard let first = applied.first, let last = applied.last else { return }
        func ms(_ seconds: Double) -> Int { Int((seconds * 1000).rounded()) }
        if first.version == 1 {
            Log.info(
                "created the database schema (version \(last.version)) in \(ms(applied.map(\.seconds).reduce(0, +))) ms"
            )
        } else {
            for step in applied { Log.info("applied schema migration \(step.version) in \(ms(step.seconds)) ms") }
        }
    }
}
