"""Database rows shaped into the records the sessions read, for every backend: an SQLite
row and a PostgreSQL record both give a column's value by its name."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Protocol

from ..sessions.records import (
    ChatRow,
    Deadline,
    DeadlineKind,
    GameRow,
    GameStatus,
    LeaderboardLine,
    MatchKind,
    MoveRow,
    PlayedMatch,
    PlayerRow,
    SeatRow,
)


class Row(Protocol):
    def __getitem__(self, column: str, /) -> Any: ...


def chat_row(row: Row) -> ChatRow:
    return ChatRow(int(row["id"]), row["platform"], row["chat_key"], row["title"], row["language"],
                   int(row["turn_limit"]), json.loads(row["defaults"] or "{}"), row["home"])


def player_row(row: Row, prefix: str = "") -> PlayerRow:
    """The player in `row`, its columns named with `prefix` where a query joins them in."""
    return PlayerRow(int(row[prefix + "id"]), row[prefix + "platform"], row[prefix + "user_key"],
                     row[prefix + "display_name"], row[prefix + "language"],
                     row[prefix + "platform_language"], bool(row[prefix + "can_dm"]),
                     bool(row[prefix + "dm_pings"]), bool(row[prefix + "is_computer"]),
                     bool(row[prefix + "quiet_turns"]))


def seat_row(row: Row, prefix: str = "") -> SeatRow:
    """The seat in `row` (its columns named with `prefix`), with its player's columns as `p_…`."""
    player = player_row(row, "p_") if row["p_id"] is not None else None
    return SeatRow(int(row[prefix + "seat"]), row[prefix + "player_id"], row[prefix + "computer_level"],
                   bool(row[prefix + "ready"]), int(row[prefix + "timeouts"]),
                   bool(row[prefix + "autoplay"]), player, row[prefix + "waiting_since"])


def game_row(row: Row, seats: tuple[SeatRow, ...]) -> GameRow:
    return GameRow(
        id=int(row["id"]), chat_id=int(row["chat_id"]), creator_id=int(row["creator_id"]),
        variant=row["variant"], options=json.loads(row["options"] or "{}"),
        players=int(row["players"]), teams=int(row["teams"]), deck_style=row["deck_style"],
        status=GameStatus(row["status"]), state=json.loads(row["state"]) if row["state"] else None,
        version=int(row["version"]), seed=row["seed"], deadline=row["deadline"],
        deadline_kind=_kind(row["deadline_kind"]), warned=bool(row["warned"]),
        created_at=float(row["created_at"]), updated_at=float(row["updated_at"]),
        finished_at=row["finished_at"], seats=seats, thread=row["thread"])


def _kind(value: str | None) -> DeadlineKind | None:
    return None if value is None else DeadlineKind(value)


def deadline_of(row: Row) -> Deadline:
    """A running game's deadline from its `id, deadline, deadline_kind, warned, version`."""
    return Deadline(int(row["id"]), float(row["deadline"]), DeadlineKind(row["deadline_kind"]),
                    bool(row["warned"]), int(row["version"]))


def move_row(row: Row) -> MoveRow:
    return MoveRow(int(row["number"]), int(row["seat"]), row["move"], bool(row["by_computer"]),
                   float(row["created_at"]))


def leaderboard_row(row: Row) -> LeaderboardLine:
    return LeaderboardLine(int(row["player_id"]), row["name"], float(row["rating"] or 0.0),
                          int(row["games"]), int(row["wins"] or 0), int(row["scope"] or 0))


def player_stats(totals: Row, kinds: Iterable[Row], ratings: Iterable[Row],
                 reviewed: Row) -> dict[str, Any]:
    """A player's finished games, wins, scope, points, wins by kind, ratings by ladder (the
    conservative rating mu − 3σ first) and mean accuracy over their reviewed matches."""
    return {
        "reviewed": int(reviewed["n"]),
        "accuracy": None if reviewed["accuracy"] is None else float(reviewed["accuracy"]),
        "games": int(totals["games"]), "wins": int(totals["wins"]), "scope": int(totals["scope"]),
        "points": int(totals["points"]), "win_kinds": {r["kind"]: int(r["n"]) for r in kinds},
        "ratings": {r["ladder"]: {"rating": float(r["mu"]) - 3 * float(r["sigma"]),
                                  "mu": float(r["mu"]), "sigma": float(r["sigma"]),
                                  "games": int(r["games"]), "wins": int(r["wins"])}
                    for r in ratings},
    }


def match_player(row: Row) -> tuple[str, int, bool]:
    """A finished match's seat as a recent match lists it: name, points, won."""
    return row["name"], int(row["points"]), bool(row["won"])


def played_match(row: Row) -> PlayedMatch:
    """A finished match of a player's, from `id, seat, variant, won, finished_at, line, daily,
    practice`."""
    kind = MatchKind.DAILY if row["daily"] else MatchKind.PRACTICE if row["practice"] else MatchKind.COUNTED
    return PlayedMatch(int(row["id"]), int(row["seat"]), str(row["variant"]), kind, bool(row["won"]),
                       float(row["finished_at"] or 0.0), row["line"])


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
