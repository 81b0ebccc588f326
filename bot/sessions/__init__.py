"""The platform-neutral life of games in chats; front-ends only translate."""

from .events import (
    Event,
    GameCancelled,
    GameStarted,
    LobbyUpdated,
    MatchEnded,
    MovePlayed,
    RoundEnded,
    SeatAutoplay,
    TurnStarted,
    TurnWarning,
)
from .refusals import Reason, Refused
from .service import LEVELS, ChatRef, Sessions, UserRef, language_of
from .thinking import ComputerPool
from .views import CardChoice, HandView, LobbyView, PlayLine, SeatInfo, TableView

__all__ = [
    "LEVELS", "CardChoice", "ChatRef", "ComputerPool", "Event", "GameCancelled", "GameStarted", "HandView",
    "LobbyUpdated", "LobbyView", "MatchEnded", "MovePlayed", "PlayLine", "Reason", "Refused",
    "RoundEnded", "SeatAutoplay", "SeatInfo", "Sessions", "TableView", "TurnStarted",
    "TurnWarning", "UserRef", "language_of",
]
