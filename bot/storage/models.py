"""The rows a store reads and writes. The sessions define them (bot/sessions/records.py,
next to the port they belong to); this module names them for code that imports them here."""

from __future__ import annotations

import json
from typing import Any

from ..sessions.records import (
    Change,
    ChatChange,
    ChatRow,
    DailyDeal,
    DailyRow,
    Deadline,
    DeadlineChange,
    DeadlineKind,
    GameCancel,
    GameNotes,
    GameRow,
    GameStart,
    GameStatus,
    LeaderboardLine,
    LobbyChange,
    MatchFinish,
    MoveCommit,
    MoveRow,
    NewGame,
    NewReview,
    PlayerRow,
    RatingRow,
    RecentMatch,
    ResultRow,
    ReviewSeatRow,
    SeatHandover,
    SeatRow,
)

__all__ = [
    "Change",
    "ChatChange",
    "ChatRow",
    "DailyDeal",
    "DailyRow",
    "Deadline",
    "DeadlineChange",
    "DeadlineKind",
    "GameCancel",
    "GameNotes",
    "GameRow",
    "GameStart",
    "GameStatus",
    "LeaderboardLine",
    "LobbyChange",
    "MatchFinish",
    "MoveCommit",
    "MoveRow",
    "NewGame",
    "NewReview",
    "PlayerRow",
    "RatingRow",
    "RecentMatch",
    "ResultRow",
    "ReviewSeatRow",
    "SeatHandover",
    "SeatRow",
    "daily_board_sql",
    "daily_row",
    "dumps",
]


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


_DAILY_BOARD = (
    "SELECT d.player_id, p.display_name, mine.points - theirs.points AS margin, "
    "(SELECT COUNT(*) FROM moves m WHERE m.game_id=d.game_id AND m.seat=mine.seat) AS moves, "
    "g.finished_at FROM daily_plays d "
    "JOIN games g ON g.id=d.game_id AND g.status='finished' "
    "JOIN players p ON p.id=d.player_id "
    "JOIN results mine ON mine.game_id=d.game_id AND mine.player_id=d.player_id "
    "JOIN results theirs ON theirs.game_id=d.game_id AND theirs.seat<>mine.seat "
    "WHERE d.day={day} {where}"
    "ORDER BY margin DESC, moves ASC, g.finished_at ASC, d.player_id ASC LIMIT {limit}")
_DAILY_IN_CHAT = (
    "AND (d.chat_id={chat} OR d.player_id IN (SELECT s.player_id FROM seats s "
    "JOIN games c ON c.id=s.game_id WHERE c.chat_id={chat} AND s.player_id IS NOT NULL)) ")
"""The finished deals of a day, best first; `_DAILY_IN_CHAT` keeps the players of one chat."""


def daily_row(row: Any) -> DailyRow:
    return DailyRow(int(row["player_id"]), str(row["display_name"]), int(row["margin"]),
                    int(row["moves"]), float(row["finished_at"]))


def daily_board_sql(marks: tuple[str, str, str], in_chat: bool) -> str:
    """The board's query with the placeholders `marks` (day, chat, limit) of the database."""
    day, chat, limit = marks
    where = _DAILY_IN_CHAT.format(chat=chat) if in_chat else ""
    return _DAILY_BOARD.format(day=day, limit=limit, where=where)
