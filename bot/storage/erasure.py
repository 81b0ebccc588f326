"""A player's data read whole (`player_data`) and erased by a unit's `Erasure` in one
transaction (`erasure_plan`), the same statements on SQLite and PostgreSQL.

Front-ends keep notes with each game (`ui_refs`), hold its messages (`message_holds`) and
count each chat's messages (`chat_sends`) under names that may hold a platform id (Telegram's
`hand:<user id>`, `telegram:<chat id>`) or a text that may hold a name (a match's end owed to
the chat). Those are read first, and the transaction writes each change only where the note
is still as read: a note that changed meanwhile makes the erasure `StaleVersion`, to be tried
again, never half-done.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..sessions.ports import ERASED_KEY, ERASED_NAME, ERASED_NOTE, Erasure, SeatToComputer, StaleVersion
from .changes import Dialect, Plan, Step, plan
from .rows import Row

_TOKENS = re.compile(r"[:\s]+")

GAMES_OF = ("SELECT game_id FROM seats WHERE player_id={p} UNION SELECT game_id FROM results "
            "WHERE player_id={p} UNION SELECT game_id FROM review_seats WHERE player_id={p} "
            "UNION SELECT game_id FROM daily_plays WHERE player_id={p}")
"""The games a player sat in (`{p}`: the mark of their id)."""

PRIVATE_CHATS = (
    "SELECT * FROM chats c WHERE c.platform=? AND (c.chat_key=? OR (c.home IS NULL AND c.platform=? "
    "AND (c.title=? OR EXISTS (SELECT 1 FROM games g JOIN seats s ON s.game_id=g.id "
    "WHERE g.chat_id=c.id AND s.player_id=?)))) ORDER BY c.id")
"""A player's private chats (`platform, user_key, platform of direct messages, display_name,
player_id`): keyed by their id (Telegram's private chats are), or, where direct messages are
channels of their own without a home (Discord's), those that bear their name or held their game."""
DIRECT_MESSAGES = "discord"


def without_player(state: str, player_id: int, marks: Sequence[str], names: Sequence[str]) -> str:
    """A tournament's state (a JSON text) with each string that was one of the player's ids as
    their erased key and each that was their name as `ERASED_NAME`: their place in its rounds
    and standings stays, under no name."""
    for mark in marks:
        for ascii_only in (False, True):
            state = state.replace(json.dumps(mark, ensure_ascii=ascii_only),
                                  json.dumps(f"{ERASED_KEY}{player_id}", ensure_ascii=ascii_only))
    return scrubbed(state, marks, names)


def names_in(text: str, marks: Sequence[str]) -> bool:
    """Whether `text`, split at colons and spaces, holds one of `marks` whole."""
    return any(token in marks for token in _TOKENS.split(text))


def scrubbed(value: str, marks: Sequence[str], names: Sequence[str]) -> str:
    """`value` without the player: a JSON text with each string that was their name as
    `ERASED_NAME`; any other text without the space-separated tokens that are their ids and
    with each colon-separated field that was their name as `ERASED_NAME`."""
    if value[:1] in ("{", "["):
        for name in names:
            for ascii_only in (False, True):
                value = value.replace(json.dumps(name, ensure_ascii=ascii_only),
                                      json.dumps(ERASED_NAME, ensure_ascii=ascii_only))
        return value
    words = value.split(" ")
    kept = [word for word in words if word not in marks]
    value = " ".join(kept) if len(kept) != len(words) else value
    return ":".join(ERASED_NAME if field in names else field for field in value.split(":"))


@dataclass(frozen=True, slots=True)
class Seen:
    """The notes, holds and send counts an erasure reads first (`erase_reads`)."""

    notes: Sequence[Row]
    """(game_id, key, value) of the games the player sat in or their private chats held."""
    private_games: frozenset[int]
    holds: Sequence[Row]
    """(game_id, message) of those games."""
    sends: Sequence[str]
    """Every chat name `chat_sends` counts under."""
    tournaments: Sequence[Row]
    """(id, version, state) of the tournaments whose state holds one of the player's ids."""


def erase_reads(erasure: Erasure) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """The queries whose rows make a `Seen`: notes, private games, holds, send names."""
    pid = erasure.player_id
    in_chats = ", ".join("?" * len(erasure.chats)) or "NULL"
    also = ", ".join("?" * len(erasure.notes_of)) or "NULL"
    games = (f"SELECT id FROM games WHERE chat_id IN ({in_chats}) OR id IN ({also}) UNION "
             + GAMES_OF.format(p="?"))
    params = (*erasure.chats, *erasure.notes_of, pid, pid, pid, pid)
    return (
        (f"SELECT game_id, key, value FROM ui_refs WHERE game_id IN ({games}) ORDER BY game_id, key", params),
        (f"SELECT id FROM games WHERE chat_id IN ({in_chats})", tuple(erasure.chats)),
        (f"SELECT game_id, message FROM message_holds WHERE game_id IN ({games})", params),
        ("SELECT DISTINCT chat FROM chat_sends", ()),
        ("SELECT id, version, state FROM tournaments WHERE "
         + (" OR ".join("state LIKE ?" for _ in erasure.marks) or "FALSE") + " ORDER BY id",
         tuple(f"%{json.dumps(mark)}%" for mark in erasure.marks)),
    )


def seen(rows: Sequence[Sequence[Row]]) -> Seen:
    notes, private, holds, sends, tournaments = rows
    return Seen(notes, frozenset(int(r["id"]) for r in private), holds, [str(r["chat"]) for r in sends],
                tournaments)


def erasure_plan(erasure: Erasure, read: Seen, now: float, dialect: Dialect) -> Plan:
    """The erasure's games' changes (`changes.plan`, each checking its game), then the rest."""
    for change in erasure.games:
        yield from plan(change, now, dialect)
    yield from erase_plan(erasure, read)


def erase_plan(erasure: Erasure, read: Seen) -> Plan:
    """The player's row, their private chats, and the notes that name them; `StaleVersion`
    when a note is no longer as read."""
    pid, marks, names = erasure.player_id, erasure.marks, erasure.names
    for seat in erasure.seats:
        yield from seat_to_computer(seat)
    yield Step("UPDATE players SET user_key=?, display_name=?, language=NULL, platform_language=NULL, "
               "can_dm=?, dm_pings=?, quiet_turns=? WHERE id=?",
               (f"{ERASED_KEY}{pid}", ERASED_NAME, False, False, False, pid))
    for chat_id in erasure.chats:
        yield Step("UPDATE chats SET chat_key=?, title=NULL WHERE id=?", (f"{ERASED_KEY}{chat_id}", chat_id))
    for game_id, key, value in ((int(r["game_id"]), str(r["key"]), str(r["value"])) for r in read.notes):
        if game_id in read.private_games or names_in(key, marks):
            changed = yield Step("DELETE FROM ui_refs WHERE game_id=? AND key=? AND value=?",
                                 (game_id, key, value))
        else:
            clean = scrubbed(value, marks, names)
            if clean == value:
                continue
            changed = yield Step("UPDATE ui_refs SET value=? WHERE game_id=? AND key=? AND value=?",
                                 (clean, game_id, key, value))
        if changed != 1:
            raise StaleVersion(f"a note of game {game_id} changed while {pid} was erased")
    for game_id, message in ((int(r["game_id"]), str(r["message"])) for r in read.holds):
        if game_id in read.private_games or names_in(message, marks):
            yield Step("DELETE FROM message_holds WHERE game_id=? AND message=?", (game_id, message))
    for chat in read.sends:
        if names_in(chat, marks):
            yield Step("DELETE FROM chat_sends WHERE chat=?", (chat,))
    for tournament in read.tournaments:
        state = str(tournament["state"])
        clean = without_player(state, pid, marks, names)
        if clean != state:
            changed = yield Step("UPDATE tournaments SET state=?, version=version+1 WHERE id=? AND version=?",
                                 (clean, int(tournament["id"]), int(tournament["version"])))
            if changed != 1:
                raise StaleVersion(f"tournament {tournament['id']} changed while {pid} was erased")
    if erasure.asked is not None:
        yield Step("DELETE FROM erasures WHERE platform=? AND user_key=?", erasure.asked)
    if erasure.told:
        yield Step("INSERT INTO ui_refs (game_id, key, value) VALUES (?, ?, ?) "
                   "ON CONFLICT (game_id, key) DO UPDATE SET value=excluded.value", many=list(erasure.told))
    if erasure.notes_of:
        yield Step("INSERT INTO ui_refs (game_id, key, value) VALUES (?, ?, ?) "
                   "ON CONFLICT (game_id, key) DO UPDATE SET value=excluded.value",
                   many=[(game_id, f"{ERASED_NOTE}{pid}", repr(float(erasure.at)))
                         for game_id in erasure.notes_of])


def seat_to_computer(seat: SeatToComputer) -> Plan:
    if seat.new_deadline:
        changed = yield Step("UPDATE games SET deadline=?, deadline_kind=?, warned=? "
                             "WHERE id=? AND version=? AND status='running'",
                             (seat.deadline, None if seat.deadline_kind is None else str(seat.deadline_kind),
                              False, seat.game_id, seat.expected_version))
    else:
        changed = yield Step("UPDATE games SET version=version WHERE id=? AND version=? AND status='running'",
                             (seat.game_id, seat.expected_version))
    if changed != 1:
        raise StaleVersion(f"game {seat.game_id} is no longer running at version {seat.expected_version}")
    yield Step("UPDATE seats SET player_id=?, computer_level=?, autoplay=?, timeouts=0, ready=? "
               "WHERE game_id=? AND seat=?",
               (seat.computer_id, seat.level, False, True, seat.game_id, seat.seat))


DATA_QUERIES: tuple[tuple[str, str], ...] = (
    ("profile", "SELECT id, platform, user_key, display_name, language, platform_language, can_dm, "
                "dm_pings, quiet_turns, created_at FROM players WHERE id=?"),
    ("ratings", "SELECT ladder, mu, sigma, games, wins FROM ratings WHERE player_id=? ORDER BY ladder"),
    ("games", "SELECT g.id AS game, g.variant, g.status, g.created_at, g.finished_at, c.platform, "
              "c.title AS chat, s.seat FROM seats s JOIN games g ON g.id=s.game_id "
              "JOIN chats c ON c.id=g.chat_id WHERE s.player_id=? ORDER BY g.id"),
    ("results", "SELECT game_id AS game, seat, side, points, won, scope, rating_before, rating_after "
                "FROM results WHERE player_id=? ORDER BY game_id"),
    ("moves", "SELECT m.game_id AS game, m.number, m.seat, m.move, m.by_computer, m.created_at "
              "FROM moves m JOIN seats s ON s.game_id=m.game_id AND s.seat=m.seat "
              "WHERE s.player_id=? ORDER BY m.game_id, m.number"),
    ("reviews", "SELECT game_id AS game, seat, accuracy FROM review_seats WHERE player_id=? "
                "ORDER BY game_id"),
    ("daily", "SELECT day, game_id AS game FROM daily_plays WHERE player_id=? ORDER BY day"),
    ("achievements", "SELECT code, game_id AS game, earned_at FROM achievements WHERE player_id=? "
                     "ORDER BY earned_at, code"),
    ("tournaments", "SELECT t.id AS tournament, c.title AS chat, t.status, t.state FROM tournaments t "
                    "JOIN chats c ON c.id=t.chat_id JOIN players p ON p.id=? AND p.platform=c.platform "
                    "WHERE t.state LIKE '%\"' || p.user_key || '\"%' ORDER BY t.id"),
)
"""What `player_data` gives, each part one query on the player's id."""

_FLAGS = frozenset({"can_dm", "dm_pings", "quiet_turns", "won", "by_computer"})


def plain(row: Any) -> dict[str, Any]:
    """A row (SQLite's or PostgreSQL's: both have `keys`) as JSON values, 0/1 flags as booleans."""
    return {key: bool(row[key]) if key in _FLAGS else row[key] for key in row.keys()}  # noqa: SIM118 (asyncpg records iterate values)
