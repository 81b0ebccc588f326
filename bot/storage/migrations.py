"""Versioned schema: each entry moves the database one version up (PRAGMA user_version)."""

from __future__ import annotations

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE chats (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        platform TEXT NOT NULL,
        chat_key TEXT NOT NULL,
        title TEXT,
        language TEXT NOT NULL DEFAULT 'it',
        turn_limit INTEGER NOT NULL DEFAULT 90,
        defaults TEXT NOT NULL DEFAULT '{}',
        created_at REAL NOT NULL,
        UNIQUE (platform, chat_key)
    );
    CREATE TABLE players (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        platform TEXT NOT NULL,
        user_key TEXT NOT NULL,
        display_name TEXT NOT NULL,
        language TEXT,
        platform_language TEXT,
        can_dm INTEGER NOT NULL DEFAULT 0,
        dm_pings INTEGER NOT NULL DEFAULT 0,
        is_computer INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        UNIQUE (platform, user_key)
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id INTEGER NOT NULL REFERENCES chats(id),
        creator_id INTEGER NOT NULL REFERENCES players(id),
        variant TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        players INTEGER NOT NULL,
        teams INTEGER NOT NULL DEFAULT 0,
        deck_style TEXT NOT NULL DEFAULT 'napoletane',
        status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        seed TEXT NOT NULL,
        deadline REAL,
        deadline_kind TEXT,
        warned INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        finished_at REAL
    );
    CREATE UNIQUE INDEX games_one_open_per_chat ON games(chat_id)
        WHERE status IN ('lobby', 'running');
    CREATE INDEX games_deadline ON games(deadline) WHERE status = 'running';
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        player_id INTEGER REFERENCES players(id),
        computer_level TEXT,
        ready INTEGER NOT NULL DEFAULT 1,
        timeouts INTEGER NOT NULL DEFAULT 0,
        autoplay INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE moves (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        move TEXT NOT NULL,
        by_computer INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, number)
    );
    CREATE TABLE results (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        player_id INTEGER REFERENCES players(id),
        side INTEGER NOT NULL,
        points INTEGER NOT NULL,
        won INTEGER NOT NULL,
        scope INTEGER NOT NULL,
        rating_before REAL,
        rating_after REAL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE rounds (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        breakdown TEXT NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (game_id, number)
    );
    CREATE TABLE records (
        game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        line TEXT NOT NULL
    );
    CREATE TABLE ratings (
        player_id INTEGER NOT NULL REFERENCES players(id),
        ladder TEXT NOT NULL CHECK (ladder IN ('duel', 'ffa', 'team')),
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (player_id, ladder)
    );
    CREATE TABLE ui_refs (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (game_id, key)
    );
    """,
    # 2: a player's open games are looked up on the event loop's thread, so by index
    # (seats of finished games stay in the table).
    """
    CREATE INDEX seats_player ON seats(player_id);
    """,
    # 3: games.teams holds the number of teams (0: every player for themselves), no longer
    # a flag, so that six players can play as three teams of two.
    """
    UPDATE games SET teams = 2 WHERE teams = 1;
    """,
    # 4: who runs a game's due work (its timer, its computer turn) and until when, so
    # that of several processes on one database one runs it (`claim_due`).
    """
    CREATE TABLE IF NOT EXISTS claims (
        game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        owner TEXT NOT NULL,
        until REAL NOT NULL
    );
    """,
    # 5: which process draws each of a game's messages, until when, and whether another asked
    # for it to be drawn again meanwhile (`hold_message`); and the
    # home a chat's platform groups it under (a Discord server), which says which
    # process runs its games' due work (`claim_due` with a `Served`); and when each
    # chat's last messages went, for a flood limit all processes keep (`take_send`).
    """
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
    # 6: a game belongs to a chat and, where the chat has topics (a Telegram forum), to one of
    # them (its `thread`; '' for none): each topic holds one open game, so several topics of
    # one group play at once.
    """
    ALTER TABLE games ADD COLUMN thread TEXT NOT NULL DEFAULT '';
    DROP INDEX games_one_open_per_chat;
    CREATE UNIQUE INDEX games_one_open_per_thread ON games(chat_id, thread)
        WHERE status IN ('lobby', 'running');
    """,
    # 7: a finished match's review (scopa-review/1), worked out once, and each seat's accuracy in
    # it, so that a player's average accuracy over their reviewed matches is one query.
    """
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
    # 8: the deal of the day: who played which day's deal, in which game, asked in which chat
    # (one a player a day, the key keeps it so).
    """
    CREATE TABLE daily_plays (
        day TEXT NOT NULL,
        player_id INTEGER NOT NULL REFERENCES players(id),
        chat_id INTEGER NOT NULL REFERENCES chats(id),
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        PRIMARY KEY (day, player_id)
    );
    CREATE INDEX daily_plays_day ON daily_plays(day);
    """,
    # 9: when a seat was taken by a player the bot could not reach yet, so that any process
    # frees it on time; a deal of the day found by its game (kept off ratings and leaderboards).
    """
    ALTER TABLE seats ADD COLUMN waiting_since REAL;
    CREATE INDEX daily_plays_game ON daily_plays(game_id);
    """,
    # 10: what the bot keeps secret with its data, made once and the same for every process on
    # the database: `daily`, the key of the deal of the day's seed, so that nobody can work out a
    # day's cards (or the computer's replies in it) from the date before the day.
    """
    CREATE TABLE secrets (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 11: a player who asked for turns that do not ring (Telegram: the hand at their turn is sent
    # with `disable_notification`); every player's turns ring unless they ask.
    """
    ALTER TABLE players ADD COLUMN quiet_turns INTEGER NOT NULL DEFAULT 0;
    """,
    # 12: the owner's tools: users blocked from the bot (by platform id, seen or not), each
    # process's heartbeat (for /botstatus), and notices to the chats with a game in play with,
    # per chat, which process delivers it and whether it went (so each chat gets it once).
    """
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
    # 13: erasures asked for from the command line (`scopa-bot erase`), which the running bot
    # makes (its games in memory and its chats told), or the command itself when no bot takes
    # them in time; each is gone in the transaction that erases the player.
    """
    CREATE TABLE erasures (
        platform TEXT NOT NULL,
        user_key TEXT NOT NULL,
        asked_at REAL NOT NULL,
        PRIMARY KEY (platform, user_key)
    );
    """,
    # 14: achievements, each earned once per player: the match it was earned in (so the chat,
    # which follows a chat's move with its games) and when; announced as the match's owed notice.
    """
    CREATE TABLE achievements (
        player_id INTEGER NOT NULL REFERENCES players(id),
        code TEXT NOT NULL,
        game_id INTEGER NOT NULL REFERENCES games(id),
        earned_at REAL NOT NULL,
        PRIMARY KEY (player_id, code)
    );
    """,
    # 15: the monthly seasons: each chat's close of a season (its champion announced), claimed by
    # one process at a time and done once; finished matches found by when they finished.
    """
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
    # 16: a chat's finished matches found by when they finished: a chat's season reads its month
    # alone (10 ms instead of 28 over 20,000 matches in 50 chats).
    """
    CREATE INDEX games_chat_finished ON games(chat_id, finished_at) WHERE status = 'finished';
    """,
    # 17: the chats' tournaments, each one row whose state is a JSON text written over its
    # version; one open (signing up or running) per chat.
    """
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
)
