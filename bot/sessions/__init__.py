"""The platform-neutral life of games in chats; front-ends only translate."""

from .daily import DailyBoard, DailyLine, DailyOffer, DailyStart
from .events import (
    AchievementsEarned,
    Event,
    GameCancelled,
    GameStarted,
    LobbyUpdated,
    MatchEnded,
    MovePlayed,
    ReviewOwed,
    RoundEnded,
    SeatAutoplay,
    TurnReminder,
    TurnStarted,
    TurnWarning,
)
from .facade import Sessions
from .holds import HandedOver
from .ports import FrontEndNotes, GameStore, MessageRefs, OpenGameExists, Served, StaleVersion
from .recap import Recap, RecapLine
from .records import GameStatus, LeaderboardLine, RecentMatch
from .refs import ChatRef, UserRef, language_of
from .refusals import Reason, Refused
from .replay import ReplayStep
from .reviews import MatchReview, ReviewAsked
from .service import LEVELS
from .thinking import ComputerPool
from .views import (
    CardChoice,
    ChatSettings,
    GameSeat,
    GameSummary,
    HandView,
    LobbyView,
    PlayerProfile,
    PlayLine,
    SeatInfo,
    TableView,
)

__all__ = [
    "LEVELS",
    "AchievementsEarned",
    "CardChoice",
    "ChatRef",
    "ChatSettings",
    "ComputerPool",
    "DailyBoard",
    "DailyLine",
    "DailyOffer",
    "DailyStart",
    "Event",
    "FrontEndNotes",
    "GameCancelled",
    "GameSeat",
    "GameStarted",
    "GameStatus",
    "GameStore",
    "GameSummary",
    "HandView",
    "HandedOver",
    "LeaderboardLine",
    "LobbyUpdated",
    "LobbyView",
    "MatchEnded",
    "MatchReview",
    "MessageRefs",
    "MovePlayed",
    "OpenGameExists",
    "PlayLine",
    "PlayerProfile",
    "Reason",
    "Recap",
    "RecapLine",
    "RecentMatch",
    "Refused",
    "ReplayStep",
    "ReviewAsked",
    "ReviewOwed",
    "RoundEnded",
    "SeatAutoplay",
    "SeatInfo",
    "Served",
    "Sessions",
    "StaleVersion",
    "TableView",
    "TurnReminder",
    "TurnStarted",
    "TurnWarning",
    "UserRef",
    "language_of",
]
