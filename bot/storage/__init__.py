"""Persistence: SQLite (one file, WAL) or PostgreSQL. Nothing outside this package writes SQL."""

from ..sessions.ports import OpenGameExists, StaleVersion
from ..sessions.records import (
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
from .sqlite_store import SqliteStore

__all__ = [
    "ChatChange", "ChatRow", "DeadlineChange", "GameCancel", "GameRow", "GameStart", "LeaderboardLine",
    "LobbyChange", "MatchFinish", "MoveCommit", "MoveRow", "NewGame", "NewReview", "OpenGameExists",
    "PlayerRow", "RatingRow", "RecentMatch", "ResultRow", "ReviewSeatRow", "SeatHandover", "SeatRow",
    "SqliteStore", "StaleVersion",
]
