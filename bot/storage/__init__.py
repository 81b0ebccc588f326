"""Persistence: one SQLite file (WAL). Nothing outside this package writes SQL."""

from .models import (
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
from .store import OpenGameExists, StaleVersion, Store

__all__ = [
    "ChatRow", "GameRow", "LeaderboardRow", "MatchFinish", "MatchSummary", "MoveCommit", "MoveRow",
    "OpenGameExists", "PlayerRow", "RatingRow", "ResultRow", "ReviewSeatRow", "SeatRow", "StaleVersion",
    "Store",
]
