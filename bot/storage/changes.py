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

from ..sessions.ports import OpenGameExists, StaleVersion
from .models import (
    Change,
    ChatChange,
    GameCancel,
    GameStart,
    LobbyChange,
    NewGame,
    SeatHandover,
    SeatRow,
    dumps,
)


@dataclass(frozen=True, slots=True)
class Step:
    sql: str
    params: tuple[Any, ...] = ()
    many: Sequence[tuple[Any, ...]] | None = None
    """Rows for the statement run once each (answered with None)."""
    returns: bool = False
    """Answered with the first row the statement gives (or None), not with a count."""


Plan = Generator[Step, Any, Any]


@dataclass(frozen=True, slots=True)
class Dialect:
    merge_json: str
    """An expression merging the JSON object `?` into the text column `{column}`; a null
    value in it removes that key (RFC 7396)."""


SQLITE = Dialect("json_patch({column}, ?)")
POSTGRES = Dialect("jsonb_strip_nulls({column}::jsonb || ?::jsonb)::text")


@functools.lru_cache(maxsize=256)
def numbered(sql: str) -> str:
    """`sql` with PostgreSQL's `$1, $2, ...` for its `?` marks (none of ours is in a literal)."""
    counter = iter(range(1, 1_000))
    return re.sub(r"\?", lambda _: f"${next(counter)}", sql)


_SEAT_INSERT = ("INSERT INTO seats (game_id, seat, player_id, computer_level, ready, timeouts, autoplay) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)")


def _seats(game_id: int, seats: Sequence[SeatRow]) -> Plan:
    yield Step("DELETE FROM seats WHERE game_id=?", (game_id,))
    if seats:
        yield Step(_SEAT_INSERT, many=[(game_id, s.seat, s.player_id, s.computer_level, bool(s.ready),
                                        s.timeouts, bool(s.autoplay)) for s in seats])


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
        "UPDATE games SET status='cancelled', deadline=NULL, finished_at=?, updated_at=? "
        f"WHERE id=? AND status=?{version}",
        (now, now, cancel.game_id, cancel.expected_status.value,
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


def plan(change: Change, now: float, dialect: Dialect) -> Plan:
    """The steps that write `change`; a `NewGame`'s plan gives the new game's id."""
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
    return chat_change(change, dialect)


def _float(value: float | None) -> float | None:
    return None if value is None else float(value)


def _text(value: str | None) -> str | None:
    return None if value is None else str(value)
