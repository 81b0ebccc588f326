"""Persistence: SQLite (one file, WAL) or PostgreSQL. Nothing outside this package writes SQL."""

from ..sessions.ports import OpenGameExists, StaleVersion
from .models import (
    ChatChange,
    ChatRow,
    DeadlineChange,
    GameCancel,
    GameRow,
    GameStart,
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
from .store import Store

__all__ = [
    "ChatChange", "ChatRow", "DeadlineChange", "GameCancel", "GameRow", "GameStart", "LeaderboardLine",
    "LobbyChange", "MatchFinish", "MoveCommit", "MoveRow", "NewGame", "NewReview", "OpenGameExists",
    "PlayerRow", "RatingRow", "RecentMatch", "ResultRow", "ReviewSeatRow", "SeatHandover", "SeatRow",
    "StaleVersion", "Store",
]
