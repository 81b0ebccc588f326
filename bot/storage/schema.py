"""The schema's history, one step at a time, for SQLite and PostgreSQL side by side.

Each store applies, in order, its dialect's scripts past the version the database has
stored (SQLite's `PRAGMA user_version`, PostgreSQL's one-row table `schema_version`), so
a step's number in a dialect is its place among that dialect's scripts. PostgreSQL came
later: its first script is the schema SQLite had reached at its third, so SQLite's first
two steps have no PostgreSQL script, and from then on SQLite's version n is PostgreSQL's
n - 2.

To change the schema, append a `Step` at the end of `STEPS` with a script for each
dialect (PostgreSQL's in its own types: booleans, double-precision times, identity keys)
and a `why` that starts with its number in each ("SQLite 18, PostgreSQL 16: ").
Never edit, reorder or drop a step once released: databases already deployed have run it
and count it in their version (tests/unit/test_schema_history.py keeps a digest of each
dialect's scripts; a new step records the new ones there).
"""

from __future__ import annotations

from dataclasses import dataclass

from .schema_first import POSTGRES_FIRST, SQLITE_FIRST


@dataclass(frozen=True, slots=True)
class Step:
    """One change of the schema: why it is made and its script in each dialect (None: none)."""

    why: str
    sqlite: str | None
    postgres: str | None


STEPS: tuple[Step, ...] = (
    Step(
        ("SQLite 1 only: the first schema: chats, players, games with their seats, moves, results, "
         "rounds and records, ratings, and the references of each game's messages (`ui_refs`); one "
         "open game per chat."),
        sqlite=SQLITE_FIRST,
        postgres=None,
    ),
    Step(
        ("SQLite 2 only: a player's open games are looked up on the event loop's thread, so by index "
         "(seats of finished games stay in the table)."),
        sqlite="""
    CREATE INDEX seats_player ON seats(player_id);
    """,
        postgres=None,
    ),
    Step(
        ("SQLite 3, PostgreSQL 1: games.teams holds the number of teams (0: every player for "
         "themselves), no longer a flag, so that six players can play as three teams of two. "
         "PostgreSQL starts here, from the schema SQLite has reached, in its own types "
         "(`schema_first`)."),
        sqlite="""
    UPDATE games SET teams = 2 WHERE teams = 1;
    """,
        postgres=POSTGRES_FIRST,
    ),
    Step(
        ("SQLite 4, PostgreSQL 2: who runs a game's due work (its timer, its computer turn) and until "
         "when, so that of several processes on one database one runs it (`claim_due`)."),
        sqlite="""
    CREATE TABLE IF NOT EXISTS claims (
        game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        owner TEXT NOT NULL,
        until REAL NOT NULL
    );
    """,
        postgres="""
    CREATE TABLE claims (
        game_id BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        owner TEXT NOT NULL,
        until DOUBLE PRECISION NOT NULL
    );
    """,
    ),
    Step(
        ("SQLite 5, PostgreSQL 3: which process draws each of a game's messages, until when, and "
         "whether another asked for it to be drawn again meanwhile (`hold_message`); the home a chat's "
         "platform groups it under (a Discord server), which says which process runs its games' due "
         "work (`claim_due` with a `Served`); and when each chat's last messages went, for a flood "
         "limit all processes keep (`take_send`)."),
        sqlite="""
    CREATE TABLE IF NOT EXISTS message_holds (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        message TEXT NOT NULL,
        owner TEXT NOT NULL,
        until REAL NOT NULL,
        redraw INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, message)
    );
    ALTER TABLE chats ADD COLUMN home TEXT;
    CREATE TABLE chat_sends (
        chat TEXT NOT NULL,
        at REAL NOT NULL
    );
    CREATE INDEX chat_sends_chat ON chat_sends(chat, at);
    """,
        postgres="""
    CREATE TABLE message_holds (
        game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        message TEXT NOT NULL,
        owner TEXT NOT NULL,
        until DOUBLE PRECISION NOT NULL,
        redraw BOOLEAN NOT NULL DEFAULT FALSE,
        PRIMARY KEY (game_id, message)
    );
    ALTER TABLE chats ADD COLUMN home TEXT;
    CREATE TABLE chat_sends (
        chat TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX chat_sends_chat ON chat_sends(chat, at);
    """,
    ),
    Step(
        ("SQLite 6, PostgreSQL 4: a game belongs to a chat and, where the chat has topics (a Telegram "
         "forum), to one of them (its `thread`; '' for none): each topic holds one open game, so "
         "several topics of one group play at once. A game stored before belongs to its chat itself."),
        sqlite="""
    ALTER TABLE games ADD COLUMN thread TEXT NOT NULL DEFAULT '';
    DROP INDEX games_one_open_per_chat;
    CREATE UNIQUE INDEX games_one_open_per_thread ON games(chat_id, thread)
        WHERE status IN ('lobby', 'running');
    """,
        postgres="""
    ALTER TABLE games ADD COLUMN thread TEXT NOT NULL DEFAULT '';
    DROP INDEX games_one_open_per_chat;
    CREATE UNIQUE INDEX games_one_open_per_thread ON games(chat_id, thread)
        WHERE status IN ('lobby', 'running');
    """,
    ),
    Step(
        ("SQLite 7, PostgreSQL 5: a finished match's review (scopa-review/1), worked out once, and "
         "each seat's accuracy in it, so that a player's average accuracy over their reviewed matches "
         "is one query."),
        sqlite="""
    CREATE TABLE reviews (
        game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        review TEXT NOT NULL
    );
    CREATE TABLE review_seats (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        player_id INTEGER REFERENCES players(id),
        accuracy REAL NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX review_seats_player ON review_seats(player_id);
    """,
        postgres="""
    CREATE TABLE reviews (
        game_id BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        review TEXT NOT NULL
    );
    CREATE TABLE review_seats (
        game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        player_id BIGINT REFERENCES players(id),
        accuracy DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX review_seats_player ON review_seats(player_id);
    """,
    ),
    Step(
        ("SQLite 8, PostgreSQL 6: the deal of the day: who played which day's deal, in which game, "
         "asked in which chat (one a player a day, the key keeps it so)."),
        sqlite="""
    CREATE TABLE daily_plays (
        day TEXT NOT NULL,
        player_id INTEGER NOT NULL REFERENCES players(id),
        chat_id INTEGER NOT NULL REFERENCES chats(id),
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        PRIMARY KEY (day, player_id)
    );
    CREATE INDEX daily_plays_day ON daily_plays(day);
    """,
        postgres="""
    CREATE TABLE daily_plays (
        day TEXT NOT NULL,
        player_id BIGINT NOT NULL REFERENCES players(id),
        chat_id BIGINT NOT NULL REFERENCES chats(id),
        game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        PRIMARY KEY (day, player_id)
    );
    CREATE INDEX daily_plays_day ON daily_plays(day);
    """,
    ),
    Step(
        ("SQLite 9, PostgreSQL 7: when a seat was taken by a player the bot could not reach yet, so "
         "that any process frees it on time; a deal of the day found by its game (kept off ratings and "
         "leaderboards)."),
        sqlite="""
    ALTER TABLE seats ADD COLUMN waiting_since REAL;
    CREATE INDEX daily_plays_game ON daily_plays(game_id);
    """,
        postgres="""
    ALTER TABLE seats ADD COLUMN waiting_since DOUBLE PRECISION;
    CREATE INDEX daily_plays_game ON daily_plays(game_id);
    """,
    ),
    Step(
        ("SQLite 10, PostgreSQL 8: what the bot keeps secret with its data, made once and the same for "
         "every process on the database: `daily`, the key of the deal of the day's seed, so that "
         "nobody can work out a day's cards (or the computer's replies in it) from the date before the "
         "day."),
        sqlite="""
    CREATE TABLE secrets (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
        postgres="""
    CREATE TABLE secrets (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    ),
    Step(
        ("SQLite 11, PostgreSQL 9: a player who asked for turns that do not ring (Telegram: the hand "
         "at their turn is sent with `disable_notification`); every player's turns ring unless they "
         "ask."),
        sqlite="""
    ALTER TABLE players ADD COLUMN quiet_turns INTEGER NOT NULL DEFAULT 0;
    """,
        postgres="""
    ALTER TABLE players ADD COLUMN quiet_turns BOOLEAN NOT NULL DEFAULT FALSE;
    """,
    ),
    Step(
        ("SQLite 12, PostgreSQL 10: the owner's tools: users blocked from the bot (by platform id, "
         "seen or not), each process's heartbeat (for /botstatus), and notices to the chats with a "
         "game in play with, per chat, which process delivers it and whether it went (so each chat "
         "gets it once)."),
        sqlite="""
    CREATE TABLE blocked_users (
        platform TEXT NOT NULL,
        user_key TEXT NOT NULL,
        blocked_by TEXT NOT NULL,
        blocked_at REAL NOT NULL,
        PRIMARY KEY (platform, user_key)
    );
    CREATE TABLE heartbeats (
        process TEXT PRIMARY KEY,
        platforms TEXT NOT NULL,
        started_at REAL NOT NULL,
        seen_at REAL NOT NULL,
        lag REAL NOT NULL
    );
    CREATE TABLE owner_notices (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        text TEXT NOT NULL,
        sent_by TEXT NOT NULL,
        created_at REAL NOT NULL
    );
    CREATE TABLE notice_deliveries (
        notice_id INTEGER NOT NULL REFERENCES owner_notices(id) ON DELETE CASCADE,
        chat_id INTEGER NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
        thread TEXT NOT NULL DEFAULT '',
        owner TEXT,
        until REAL NOT NULL DEFAULT 0,
        delivered INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (notice_id, chat_id)
    );
    CREATE INDEX notice_deliveries_owed ON notice_deliveries(delivered, until);
    """,
        postgres="""
    CREATE TABLE blocked_users (
        platform TEXT NOT NULL,
        user_key TEXT NOT NULL,
        blocked_by TEXT NOT NULL,
        blocked_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (platform, user_key)
    );
    CREATE TABLE heartbeats (
        process TEXT PRIMARY KEY,
        platforms TEXT NOT NULL,
        started_at DOUBLE PRECISION NOT NULL,
        seen_at DOUBLE PRECISION NOT NULL,
        lag DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE owner_notices (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        text TEXT NOT NULL,
        sent_by TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE notice_deliveries (
        notice_id BIGINT NOT NULL REFERENCES owner_notices(id) ON DELETE CASCADE,
        chat_id BIGINT NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
        thread TEXT NOT NULL DEFAULT '',
        owner TEXT,
        until DOUBLE PRECISION NOT NULL DEFAULT 0,
        delivered BOOLEAN NOT NULL DEFAULT FALSE,
        PRIMARY KEY (notice_id, chat_id)
    );
    CREATE INDEX notice_deliveries_owed ON notice_deliveries(delivered, until);
    """,
    ),
    Step(
        ("SQLite 13, PostgreSQL 11: erasures asked for from the command line (`scopa-bot erase`), "
         "which the running bot makes (its games in memory and its chats told), or the command itself "
         "when no bot takes them in time; each is gone in the transaction that erases the player."),
        sqlite="""
    CREATE TABLE erasures (
        platform TEXT NOT NULL,
        user_key TEXT NOT NULL,
        asked_at REAL NOT NULL,
        PRIMARY KEY (platform, user_key)
    );
    """,
        postgres="""
    CREATE TABLE erasures (
        platform TEXT NOT NULL,
        user_key TEXT NOT NULL,
        asked_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (platform, user_key)
    );
    """,
    ),
    Step(
        ("SQLite 14, PostgreSQL 12: achievements, each earned once per player: the match it was earned "
         "in (so the chat, which follows a chat's move with its games) and when; announced as the "
         "match's owed notice."),
        sqlite="""
    CREATE TABLE achievements (
        player_id INTEGER NOT NULL REFERENCES players(id),
        code TEXT NOT NULL,
        game_id INTEGER NOT NULL REFERENCES games(id),
        earned_at REAL NOT NULL,
        PRIMARY KEY (player_id, code)
    );
    """,
        postgres="""
    CREATE TABLE achievements (
        player_id BIGINT NOT NULL REFERENCES players(id),
        code TEXT NOT NULL,
        game_id BIGINT NOT NULL REFERENCES games(id),
        earned_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (player_id, code)
    );
    """,
    ),
    Step(
        ("SQLite 15, PostgreSQL 13: the monthly seasons: each chat's close of a season (its champion "
         "announced), claimed by one process at a time and done once; finished matches found by when "
         "they finished."),
        sqlite="""
    CREATE TABLE season_closes (
        chat_id INTEGER NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
        season TEXT NOT NULL,
        owner TEXT,
        until REAL NOT NULL DEFAULT 0,
        done INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (chat_id, season)
    );
    CREATE INDEX games_finished ON games(finished_at) WHERE status = 'finished';
    """,
        postgres="""
    CREATE TABLE season_closes (
        chat_id BIGINT NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
        season TEXT NOT NULL,
        owner TEXT,
        until DOUBLE PRECISION NOT NULL DEFAULT 0,
        done BOOLEAN NOT NULL DEFAULT FALSE,
        PRIMARY KEY (chat_id, season)
    );
    CREATE INDEX games_finished ON games(finished_at) WHERE status = 'finished';
    """,
    ),
    Step(
        ("SQLite 16, PostgreSQL 14: a chat's finished matches found by when they finished: a chat's "
         "season reads its month alone (10 ms instead of 28 over 20,000 matches in 50 chats)."),
        sqlite="""
    CREATE INDEX games_chat_finished ON games(chat_id, finished_at) WHERE status = 'finished';
    """,
        postgres="""
    CREATE INDEX games_chat_finished ON games(chat_id, finished_at) WHERE status = 'finished';
    """,
    ),
    Step(
        ("SQLite 17, PostgreSQL 15: the chats' tournaments, each one row whose state is a JSON text "
         "written over its version; one open (signing up or running) per chat."),
        sqlite="""
    CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id INTEGER NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
        status TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        state TEXT NOT NULL,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX tournaments_one_open ON tournaments(chat_id) WHERE status IN ('signup', 'running');
    CREATE INDEX tournaments_running ON tournaments(status) WHERE status = 'running';
    """,
        postgres="""
    CREATE TABLE tournaments (
        id BIGSERIAL PRIMARY KEY,
        chat_id BIGINT NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
        status TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        state TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE UNIQUE INDEX tournaments_one_open ON tournaments(chat_id) WHERE status IN ('signup', 'running');
    CREATE INDEX tournaments_running ON tournaments(status) WHERE status = 'running';
    """,
    ),
)

SQLITE_MIGRATIONS: tuple[str, ...] = tuple(step.sqlite for step in STEPS if step.sqlite is not None)
"""SQLite's scripts in order: version n is the database after the first n."""

POSTGRES_MIGRATIONS: tuple[str, ...] = tuple(
    step.postgres for step in STEPS if step.postgres is not None)
"""PostgreSQL's scripts in order: version n is the database after the first n."""
