"""The rows a store reads and writes. The sessions define them (bot/sessions/records.py,
next to the port they belong to); this module names them for code that imports them here."""

from __future__ import annotations

import json
from typing import Any

from ..sessions.records import (
    ChatRow,
    GameRow,
    LeaderboardRow,
    MatchFinish,
    MatchSummary,
    MoveCommit,
    MoveRow,
    PlayerRow,
    RatingRow,
    ResultRow,
    ReviewSeatRow,
    SeatRow,
)

__all__ = [
    "ChatRow", "GameRow", "LeaderboardRow", "MatchFinish", "MatchSummary", "MoveCommit", "MoveRow",
    "PlayerRow", "RatingRow", "ResultRow", "ReviewSeatRow", "SeatRow", "dumps",
]


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
