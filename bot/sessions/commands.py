"""What a front-end asks of the sessions, one small record a use case: a tap on a button
(`Tap`) or a command a user typed. `Sessions.handle(asker, command)` is the one door they all
go through (the table that says which handler takes each kind is `Taps.handlers`); what the
asker sees comes back as a `Reply`, a refusal included (nothing changed)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeAlias

from .refs import ChatRef
from .tap import Setting, Tap


@dataclass(frozen=True, slots=True)
class NewGame:
    """/newgame: a lobby with the asker seated; `variant` and `options` from the command's
    fields, `line` the words typed after it (`[variant] [name=value ...]`, which win)."""

    variant: str | None = None
    options: Mapping[str, object] = field(default_factory=dict)
    line: str | None = None


@dataclass(frozen=True, slots=True)
class JoinGame:
    """/join, or Join on lobby `game_id`: a seat in the chat's lobby."""

    game_id: int | None = None


@dataclass(frozen=True, slots=True)
class LeaveGame:
    """/leave: out of the chat's open game."""


@dataclass(frozen=True, slots=True)
class CancelGame:
    """/cancel: a lobby at once, a match once its creator or an admin confirms."""


@dataclass(frozen=True, slots=True)
class ConfirmSeat:
    """The private chat opened from lobby `game_id`'s link: the seat taken there is ready."""

    game_id: int


@dataclass(frozen=True, slots=True)
class AskDaily:
    """/daily: the asker's deal of the day offered, or their deal under way given back."""


@dataclass(frozen=True, slots=True)
class AnswerDaily:
    """Deal or Not now under the offer of /daily (`tap`), the deal played in `plays_in`."""

    tap: Tap
    plays_in: ChatRef


@dataclass(frozen=True, slots=True)
class ShowPuzzle:
    """/puzzle: the chat's puzzle at `rank` (privately, from the asker's own matches)."""

    rank: int = 0


@dataclass(frozen=True, slots=True)
class ChangeSettings:
    """/settings with values: a chat's settings for its admins, a player's own for them."""

    changes: tuple[tuple[Setting, str], ...] = ()


Command: TypeAlias = (Tap | NewGame | JoinGame | LeaveGame | CancelGame | ConfirmSeat | AskDaily
                      | AnswerDaily | ShowPuzzle | ChangeSettings)
"""Everything a front-end can ask the sessions to do for a user."""
