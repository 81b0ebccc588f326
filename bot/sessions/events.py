"""What happened in a game, for front-ends to announce. Every event is sent
only after the change it reports is committed to the database."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine import Card, RoundResult


@dataclass(frozen=True, slots=True)
class Event:
    game_id: int
    platform: str
    chat_key: str
    thread: str = field(default="", kw_only=True)
    """The part of the chat the game is played in (a forum's topic); '' for the chat itself."""


@dataclass(frozen=True, slots=True)
class LobbyUpdated(Event):
    pass


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    pass


@dataclass(frozen=True, slots=True)
class MovePlayed(Event):
    version: int
    seat: int
    name: str
    card: Card | None
    captured: tuple[Card, ...]
    scopa: bool
    by_computer: bool = False
    timed_out: bool = False
    swept_by_ace: bool = False
    dealt: bool = False
    leftover: tuple[Card, ...] = ()
    leftover_seat: int | None = None
    fuori: bool = False
    """The player declared fuori with this play: the match ends (see the RoundEnded)."""
    leftover_name: str = ""
    """Who took the cards left on the table at the round's end (`leftover_seat`)."""
    variant: str = ""
    """The game's variant: an escoba's sweep is called an escoba, a scopa's a scopa."""


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    result: RoundResult
    side_names: tuple[str, ...]
    fuori_name: str | None = None
    """Who ended the round by declaring fuori (`result.fuori` is their seat)."""
    fuori_side: int | None = None
    variant: str = ""


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    winner: int | None
    totals: tuple[int, ...]
    side_names: tuple[str, ...]
    rating_changes: tuple[tuple[str, float, float], ...] = field(default=())
    win_kind: str | None = None
    """How a `federal` match to 8 was won (004 art. 16): `semplice`, `doppia` or `tripla`."""
    rematch: bool = True
    """Whether the match's end offers a rematch (a deal of the day offers none)."""
    practice: bool = False
    """A practice match, which counted for no rating or board: its end says so."""
    daily: str = ""
    """A deal of the day's end: its day (YYYY-MM-DD), for the line of the chat it was asked in."""


@dataclass(frozen=True, slots=True)
class AchievementsEarned(Event):
    """Achievements earned in a match that just ended (`feats.Feat`), told once in its chat,
    one line; owed with the match's end (`notices`), so a crash neither loses nor doubles it."""

    earned: tuple[tuple[str, str], ...]
    """(player's name, achievement code) of each, in the order of the seats."""


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    version: int
    seat: int
    player_id: int | None
    name: str
    deadline: float | None


@dataclass(frozen=True, slots=True)
class TurnWarning(Event):
    seat: int
    player_id: int | None
    name: str
    seconds_left: int


@dataclass(frozen=True, slots=True)
class TurnReminder(Event):
    """A turn with no clock has waited `waited` seconds (`options.REMIND_AFTER`): its player is
    reminded, once, and the game's creator or a chat admin may hand the seat to the computer."""

    seat: int
    player_id: int | None
    name: str
    waited: int
    version: int


@dataclass(frozen=True, slots=True)
class SeatAutoplay(Event):
    seat: int
    player_id: int | None
    name: str
    on: bool


@dataclass(frozen=True, slots=True)
class GameCancelled(Event):
    by: str
    """Who cancelled it; empty for a lobby that closed on its own (sessions.LOBBY_IDLE)."""
    day_over: str = ""
    """A deal of the day closed unfinished because its day (this one, YYYY-MM-DD) ended."""


@dataclass(frozen=True, slots=True)
class ReviewOwed(Event):
    """A finished match's review owed until it is delivered: to the player of `seat` in their
    private chat (`player_key` on the platform), or its accuracy line to the match's chat
    (`seat` None). Kept as a notice of the game (`notices`), like a round's breakdown, so a
    restart at any moment delivers it once; `sent` counts its messages already delivered."""

    seat: int | None = None
    player_key: str = ""
    sent: int = 0
