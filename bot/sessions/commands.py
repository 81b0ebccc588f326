"""What a front-end asks of the sessions, one small record a use case: a tap on a button
(`Tap`) or a command a user typed. `Sessions.handle(asker, command)` is the one door they all
go through (the table that says which handler takes each kind is `Taps.handlers`); what the
asker sees comes back as a `Reply`, a refusal included (nothing changed)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeAlias

from .refs import ChatRef, UserRef
from .tap import Asker, Setting, Tap


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


@dataclass(frozen=True, slots=True)
class PlayComputers:
    """The terminal's match: a lobby of `variant` with `options` in the asker's chat, every other
    seat the computer's at `level`, started at once; each move may wait `turn_limit` seconds."""

    variant: str
    options: Mapping[str, object] = field(default_factory=dict)
    level: str = "medium"
    turn_limit: int = 3600


@dataclass(frozen=True, slots=True)
class AskReview:
    """/review: the asker's review of the chat's last finished match, or asked in their private
    chat, of their own last finished match wherever it was played."""


@dataclass(frozen=True, slots=True)
class OpenTournament:
    """/tournament (or /duplicate, `event`) with `words`: the sign-up opened, the chat's
    tournament shown as it is (no words), or stopped (`cancel`)."""

    words: tuple[str, ...] = ()
    event: bool = False


@dataclass(frozen=True, slots=True)
class PressTournament:
    """A button under the sign-up of tournament `tournament_id`: `join`, `leave`, `start`, `cancel`."""

    tournament_id: str
    action: str


@dataclass(frozen=True, slots=True)
class OwnerCommand:
    """An owner command `name` (without its slash) with the `words` after it."""

    name: str
    words: str = ""


@dataclass(frozen=True, slots=True)
class ForgetMe:
    """/forgetme confirmed (the front-end checks its button's `privacy.confirm_token`): the
    asker's data erased. A user an owner blocked may still ask it."""


@dataclass(frozen=True, slots=True)
class Reachable:
    """The platform says whether the bot can write to the asker privately (`on`)."""

    on: bool


@dataclass(frozen=True, slots=True)
class ChatMoved:
    """The platform says the asker's chat is now known as `new_key` (a Telegram group become a
    supergroup): its games, settings and leaderboard go with it."""

    new_key: str


@dataclass(frozen=True, slots=True)
class ThreadLost:
    """The platform says the asker's thread can no longer show a game (a forum topic closed or
    deleted): its open game is stopped."""


Command: TypeAlias = (Tap | NewGame | JoinGame | LeaveGame | CancelGame | ConfirmSeat | AskDaily
                      | AnswerDaily | ShowPuzzle | ChangeSettings | PlayComputers | AskReview
                      | OpenTournament | PressTournament | OwnerCommand | ForgetMe | Reachable
                      | ChatMoved | ThreadLost)
"""Everything a front-end can ask the sessions to do for a user."""

UNBLOCKED = (ForgetMe, Reachable, ChatMoved, ThreadLost)
"""Commands `Sessions.handle` takes from a user an owner blocked too: what the platform says
of them or their chat, and the erasure of their data, which a block does not take away."""


def platform_asker(chat: ChatRef) -> Asker:
    """Who asks when the platform itself says something of `chat` (`ChatMoved`, `ThreadLost`):
    no user (an empty key)."""
    return Asker(UserRef(chat.platform, "", chat.platform), chat)
