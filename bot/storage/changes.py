"""The checked writes of a unit of work (`sessions.ports.UnitOfWork`), one shape for both
databases: each change is a plan, a generator of SQL steps written with `?` marks, which
the store's runner executes in its transaction (SQLite as it is, PostgreSQL with `$n`
marks) and answers with the rows changed, or the row a step returns. The statement that
writes a game checks its status and version; a plan that finds it moved on raises
`StaleVersion`, and the runner's transaction writes nothing of the unit.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

from ..sessions.ports import DailyClaimed, OpenGameExists, ReviewExists, StaleVersion
from ..sessions.records import (
    AchievementGrant,
    Change,
    ChatChange,
    ChatSeen,
    DailyDeal,
    DeadlineChange,
    GameCancel,
    GameNotes,
    GameStart,
    KeptSecret,
    LobbyChange,
    MatchFinish,
    MoveCommit,
    NewGame,
    NewReview,
    PlayerChange,
    PlayerSeen,
    SeatHandover,
    SeatRow,
)
from .rows import dumps


@dataclass(frozen=True, slots=True)
class Step:
    sql: str
    params: tuple[Any, ...] = ()
    many: Sequence[tuple[Any, ...]] | None = None
    """Rows for the statement run once each (answered with None)."""
    returns: bool = False
    """Answered with the first row the statement gives (or None), not with a count."""
    every: bool = False
    """Answered with every row the statement gives."""


Plan = Generator[Step, Any, Any]


@dataclass(frozen=True, slots=True)
class Dialect:
    """What the two databases say differently."""

    merge_json: str
    """An expression merging the JSON object `?` into the text column `{column}`; a null
    value in it removes that key (RFC 7396)."""
    counted: str
    """A finished game `g` that counts on leaderboards and in /stats: not a practice match
    (`Rules.practice`, stored with the lobby's options only when on), nor a deal of the day
    (`daily_plays`), which counts on the day's board alone."""
    win_kind: str
    """The kind of win in a match's record line `rec.line`."""
    lock: str
    """What locks the row a SELECT reads until the transaction ends ('' where every write
    transaction runs alone)."""
    practice: str
    """A game `g` played as a practice match."""


_NOT_DAILY = "NOT EXISTS (SELECT 1 FROM daily_plays d WHERE d.game_id=g.id)"
_SQLITE_PRACTICE = "COALESCE(json_extract(g.options, '$.practice'), 0) <> 0"
_POSTGRES_PRACTICE = "COALESCE((g.options::json->>'practice')::boolean, false)"
SQLITE = Dialect("json_patch({column}, ?)", f"NOT {_SQLITE_PRACTICE} AND {_NOT_DAILY}",
                 "json_extract(rec.line, '$.win_kind')", "", _SQLITE_PRACTICE)
POSTGRES = Dialect("jsonb_strip_nulls({column}::jsonb || ?::jsonb)::text",
                   f"NOT {_POSTGRES_PRACTICE} AND {_NOT_DAILY}",
                   "(rec.line::json->>'win_kind')", " FOR UPDATE", _POSTGRES_PRACTICE)


def single(sql: str, params: tuple[Any, ...] = (), *, returns: bool = False) -> Plan:
    """A plan of one statement, giving what it answers."""
    return (yield Step(sql, params, returns=returns))


@functools.lru_cache(maxsize=256)
def numbered(sql: str) -> str:
    """`sql` with PostgreSQL's `$1, $2, ...` for its `?` marks (none of ours is in a literal)."""
    counter = iter(range(1, 1_000))
    return re.sub(r"\?", lambda _: f"${next(counter)}", sql)


_SEAT_INSERT = ("INSERT INTO seats (game_id, seat, player_id, computer_level, ready, timeouts, autoplay, "
                "waiting_since) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")


def _seats(game_id: int, seats: Sequence[SeatRow]) -> Plan:
    yield Step("DELETE FROM seats WHERE game_id=?", (game_id,))
    if seats:
        yield Step(_SEAT_INSERT, many=[(game_id, s.seat, s.player_id, s.computer_level, bool(s.ready),
                                        s.timeouts, bool(s.autoplay), s.waiting_since) for s in seats])


def _moved_on(game_id: int, expected: object) -> StaleVersion:
    return StaleVersion(f"game {game_id} is no longer {expected}")


def new_game(game: NewGame, now: float) -> Plan:
    found = yield Step("SELECT id FROM games WHERE chat_id=? AND thread=? AND status IN ('lobby','running')",
                       (game.chat_id, game.thread), returns=True)
    if found is not None:
        raise OpenGameExists(int(found[0]))
    row = yield Step(
        "INSERT INTO games (chat_id, thread, creator_id, variant, options, players, teams, deck_style, "
        "status, seed, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?) "
        "RETURNING id",
        (game.chat_id, game.thread, game.creator_id, game.variant, dumps(game.options), game.players,
         game.teams, game.deck_style, game.seed, now, now), returns=True)
    game_id = int(row[0])
    seats = game.seats if game.seats is not None else (SeatRow(0, game.creator_id, None, True, 0, False),)
    yield from _seats(game_id, seats)
    return game_id


def daily_deal(deal: DailyDeal, now: float) -> Plan:
    """The game opened and dealt, and the player's claim on the day, or none of them."""
    game_id = yield from new_game(deal.game, now)
    yield Step("UPDATE games SET status='running', state=?, version=0, deadline=?, deadline_kind=?, warned=? "
               "WHERE id=?",
               (dumps(deal.state), _float(deal.deadline), _text(deal.deadline_kind), False, game_id))
    claimed = yield Step("INSERT INTO daily_plays (day, player_id, chat_id, game_id) VALUES (?, ?, ?, ?) "
                         "ON CONFLICT (day, player_id) DO NOTHING",
                         (deal.day, deal.game.creator_id, deal.asked_in, game_id))
    if claimed != 1:
        raise DailyClaimed(f"the deal of {deal.day} is claimed already")
    return game_id


def lobby_change(change: LobbyChange, now: float) -> Plan:
    options = None if change.options is None else dumps(change.options)
    changed = yield Step(
        "UPDATE games SET variant=COALESCE(?, variant), options=COALESCE(?, options), "
        "players=COALESCE(?, players), teams=COALESCE(?, teams), deck_style=COALESCE(?, deck_style), "
        "version=version+1, updated_at=? WHERE id=? AND version=? AND status='lobby'",
        (change.variant, options, change.players, change.teams, change.deck_style, now, change.game_id,
         change.expected_version))
    if changed != 1:
        raise _moved_on(change.game_id, f"a lobby at version {change.expected_version}")
    if change.seats is not None:
        yield from _seats(change.game_id, change.seats)


def game_start(start: GameStart, now: float) -> Plan:
    changed = yield Step(
        "UPDATE games SET status='running', state=?, version=0, deadline=?, deadline_kind=?, warned=?, "
        "updated_at=? WHERE id=? AND version=? AND status='lobby'",
        (dumps(start.state), _float(start.deadline), _text(start.deadline_kind), False, now, start.game_id,
         start.expected_version))
    if changed != 1:
        raise _moved_on(start.game_id, f"a lobby at version {start.expected_version}")
    yield from _seats(start.game_id, start.seats)


def game_cancel(cancel: GameCancel, now: float) -> Plan:
    version = "" if cancel.expected_version is None else " AND version=?"
    changed = yield Step(
        "UPDATE games SET status='cancelled', deadline=NULL, finished_at=?, updated_at=?, "
        f"options=COALESCE(?, options) WHERE id=? AND status=?{version}",
        (now, now, None if cancel.options is None else dumps(cancel.options), cancel.game_id,
         cancel.expected_status.value,
         *(() if cancel.expected_version is None else (cancel.expected_version,))))
    if changed != 1:
        raise _moved_on(cancel.game_id, f"{cancel.expected_status.value} ({cancel.expected_version})")
    if cancel.record_line is not None:
        yield Step("INSERT INTO records (game_id, line) VALUES (?, ?) "
                   "ON CONFLICT (game_id) DO UPDATE SET line=excluded.line",
                   (cancel.game_id, cancel.record_line))


def seat_handover(change: SeatHandover) -> Plan:
    if change.new_deadline:
        changed = yield Step(
            "UPDATE games SET deadline=?, deadline_kind=?, warned=? "
            "WHERE id=? AND version=? AND status='running'",
            (_float(change.deadline), _text(change.deadline_kind), False, change.game_id,
             change.expected_version))
    else:
        changed = yield Step("UPDATE games SET version=version WHERE id=? AND version=? AND status='running'",
                             (change.game_id, change.expected_version))
    if changed != 1:
        raise _moved_on(change.game_id, f"running at version {change.expected_version}")
    yield Step("UPDATE seats SET autoplay=?, timeouts=0 WHERE game_id=? AND seat=?",
               (bool(change.autoplay), change.game_id, change.seat))


def chat_change(change: ChatChange, dialect: Dialect) -> Plan:
    merged = dialect.merge_json.format(column="defaults")
    yield Step(
        "UPDATE chats SET language=COALESCE(?, language), turn_limit=COALESCE(?, turn_limit), "
        "defaults=COALESCE(?, defaults) WHERE id=?",
        (change.language, change.turn_limit, None if change.defaults is None else dumps(change.defaults),
         change.chat_id))
    if change.defaults_patch:
        yield Step(f"UPDATE chats SET defaults={merged} WHERE id=?",
                   (dumps(change.defaults_patch), change.chat_id))


MOVE_GAME = ("UPDATE games SET state=COALESCE(?, state), version=version+1, deadline=?, deadline_kind=?, "
             "warned=?, status=?, updated_at=?, finished_at=? "
             "WHERE id=? AND version=? AND status='running'")
MOVE_ROW = ("INSERT INTO moves (game_id, number, seat, move, by_computer, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)")


def move_game_params(commit: MoveCommit, now: float) -> tuple[Any, ...]:
    """`MOVE_GAME`'s parameters: the game moved on a version, only from the expected one."""
    return (None if commit.state is None else dumps(commit.state), _float(commit.deadline),
            _text(commit.deadline_kind), False, "finished" if commit.finish else "running", now,
            now if commit.finish else None, commit.game_id, commit.expected_version)


def move_row_params(commit: MoveCommit, now: float) -> tuple[Any, ...]:
    return (commit.game_id, commit.expected_version + 1, commit.seat, commit.move,
            bool(commit.by_computer), now)


def is_plain(commit: MoveCommit) -> bool:
    """A move that changes only the game's row and adds its own (most moves): a store may write
    it with `MOVE_GAME` and `MOVE_ROW` alone."""
    return (not commit.rounds and commit.finish is None and not commit.refs
            and commit.seat_timeouts is None and commit.seat_autoplay is None)


def moved_on(commit: MoveCommit) -> StaleVersion:
    return _moved_on(commit.game_id, f"running at version {commit.expected_version}")


def move(commit: MoveCommit, now: float) -> Plan:
    """A move and everything it changes (`MoveCommit`), only at the game's expected version."""
    changed = yield Step(MOVE_GAME, move_game_params(commit, now))
    if changed != 1:
        raise moved_on(commit)
    yield Step(MOVE_ROW, move_row_params(commit, now))
    if commit.seat_timeouts is not None or commit.seat_autoplay is not None:
        yield Step("UPDATE seats SET timeouts=COALESCE(?, timeouts), autoplay=COALESCE(?, autoplay) "
                   "WHERE game_id=? AND seat=?",
                   (commit.seat_timeouts, commit.seat_autoplay, commit.game_id, commit.seat))
    if commit.refs:
        yield Step("INSERT INTO ui_refs (game_id, key, value) VALUES (?, ?, ?) "
                   "ON CONFLICT (game_id, key) DO UPDATE SET value=excluded.value",
                   many=[(commit.game_id, key, value) for key, value in commit.refs])
    if commit.rounds:
        yield Step("INSERT INTO rounds (game_id, number, breakdown, record) VALUES (?, ?, ?, ?) "
                   "ON CONFLICT (game_id, number) DO UPDATE SET breakdown=excluded.breakdown, "
                   "record=excluded.record",
                   many=[(commit.game_id, number, dumps(breakdown), dumps(record))
                         for number, breakdown, record in commit.rounds])
    if commit.finish is not None:
        yield from _finish(commit.game_id, commit.finish, now)


def _finish(game_id: int, finish: MatchFinish, now: float) -> Plan:
    yield Step("INSERT INTO records (game_id, line) VALUES (?, ?)", (game_id, finish.record_line))
    yield Step("INSERT INTO results (game_id, seat, player_id, side, points, won, scope, rating_before, "
               "rating_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
               many=[(game_id, r.seat, r.player_id, r.side, r.points, bool(r.won), r.scope,
                      _float(r.rating_before), _float(r.rating_after)) for r in finish.results])
    yield Step("INSERT INTO ratings (player_id, ladder, mu, sigma, games, wins) VALUES (?, ?, ?, ?, ?, ?) "
               "ON CONFLICT (player_id, ladder) DO UPDATE SET mu=excluded.mu, sigma=excluded.sigma, "
               "games=excluded.games, wins=excluded.wins",
               many=[(r.player_id, r.ladder, float(r.mu), float(r.sigma), r.games, r.wins)
                     for r in finish.ratings])
    if finish.achievements:
        yield Step("INSERT INTO achievements (player_id, code, game_id, earned_at) VALUES (?, ?, ?, ?) "
                   "ON CONFLICT (player_id, code) DO NOTHING",
                   many=[(player_id, code, game_id, now) for player_id, code in finish.achievements])


def plan(change: Change, now: float, dialect: Dialect) -> Plan:
    """The steps that write `change`; a `NewGame`'s (and a `DailyDeal`'s) plan gives the new
    game's id. Every write of a game's tables (games, seats, moves, rounds, results, ratings,
    records, reviews) that a unit makes is one of these plans, or of a chat's move
    (`chat_moves`) or an erasure (`erasure`), which the store plans itself: an erasure reads
    first what it then checks (`sql_store`)."""
    if isinstance(change, NewGame):
        return new_game(change, now)
    if isinstance(change, LobbyChange):
        return lobby_change(change, now)
    if isinstance(change, GameStart):
        return game_start(change, now)
    if isinstance(change, GameCancel):
        return game_cancel(change, now)
    if isinstance(change, SeatHandover):
        return seat_handover(change)
    if isinstance(change, DailyDeal):
        return daily_deal(change, now)
    if isinstance(change, GameNotes):
        return game_notes(change)
    if isinstance(change, MoveCommit):
        return move(change, now)
    if isinstance(change, DeadlineChange):
        return deadline_change(change)
    if isinstance(change, NewReview):
        return new_review(change)
    if isinstance(change, AchievementGrant):
        return single("INSERT INTO achievements (player_id, code, game_id, earned_at) VALUES (?, ?, ?, ?) "
                      "ON CONFLICT (player_id, code) DO NOTHING",
                      (change.player_id, change.code, change.game_id, float(change.at)))
    if isinstance(change, KeptSecret):
        return kept_secret(change)
    if isinstance(change, ChatChange):
        return chat_change(change, dialect)
    if isinstance(change, ChatSeen):
        return chat_seen(change, now)
    if isinstance(change, PlayerSeen):
        return player_seen(change, now)
    if isinstance(change, PlayerChange):
        return single("UPDATE players SET language=COALESCE(?, language), can_dm=COALESCE(?, can_dm), "
                      "dm_pings=COALESCE(?, dm_pings), quiet_turns=COALESCE(?, quiet_turns) WHERE id=?",
                      (change.language, change.can_dm, change.dm_pings, change.quiet_turns, change.player_id))
    raise TypeError(f"{type(change).__name__} is planned by the store")


def deadline_change(change: DeadlineChange) -> Plan:
    changed = yield Step("UPDATE games SET deadline=?, deadline_kind=?, warned=? "
                         "WHERE id=? AND version=? AND status='running'",
                         (_float(change.deadline), _text(change.kind), bool(change.warned), change.game_id,
                          change.version))
    if changed != 1:
        raise _moved_on(change.game_id, f"running at version {change.version}")


def new_review(change: NewReview) -> Plan:
    stored = yield Step("INSERT INTO reviews (game_id, review) VALUES (?, ?) "
                        "ON CONFLICT (game_id) DO NOTHING", (change.game_id, change.review))
    if stored != 1:
        raise ReviewExists(f"game {change.game_id} has a review already")
    yield Step("INSERT INTO review_seats (game_id, seat, player_id, accuracy) VALUES (?, ?, ?, ?)",
               many=[(change.game_id, s.seat, s.player_id, float(s.accuracy)) for s in change.seats])


def chat_seen(change: ChatSeen, now: float) -> Plan:
    """Of two processes making the chat at once, one makes it, the other's title and home hold."""
    yield Step("INSERT INTO chats (platform, chat_key, title, language, created_at, home) "
               "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (platform, chat_key) DO UPDATE SET "
               "title=COALESCE(?, chats.title), home=COALESCE(?, chats.home)",
               (change.platform, change.chat_key, change.title, change.language or "it", now, change.home,
                change.title or None, change.home))


def player_seen(change: PlayerSeen, now: float) -> Plan:
    yield Step("INSERT INTO players (platform, user_key, display_name, platform_language, is_computer, "
               "created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (platform, user_key) DO UPDATE SET "
               "display_name=excluded.display_name, "
               "platform_language=COALESCE(excluded.platform_language, players.platform_language)",
               (change.platform, change.user_key, change.display_name, change.platform_language,
                bool(change.is_computer), now))


def kept_secret(change: KeptSecret) -> Plan:
    """The secret kept under the name: `made` unless one was kept first."""
    yield Step("INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
               (change.name, change.made))
    row = yield Step("SELECT value FROM secrets WHERE name=?", (change.name,), returns=True)
    return str(row[0])


def game_notes(change: GameNotes) -> Plan:
    for key, value in change.notes:
        if value is None:
            yield Step("DELETE FROM ui_refs WHERE game_id=? AND key=?", (change.game_id, key))
        else:
            yield Step("INSERT INTO ui_refs (game_id, key, value) VALUES (?, ?, ?) "
                       "ON CONFLICT (game_id, key) DO UPDATE SET value=excluded.value",
                       (change.game_id, key, value))


def _float(value: float | None) -> float | None:
    return None if value is None else float(value)


def _text(value: str | None) -> str | None:
    return None if value is None else str(value)
