"""The deal of the day: one match a day against the `hard` computer, with the same deals for
everyone (its seed comes from the date), one attempt per player, and the day's boards.

The match is an ordinary game in the chat the front-end picks for it (the player's private
chat, where there is one): its turns, timers and end are those of every game. What makes it
the day's is its seed and the claim the store keeps, one a player a day."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from ..engine import Rules
from ..engine.rules import Variant
from .directory import Directory
from .lobby import Lobby
from .ports import GameStore, OpenGameExists
from .queries import asks_for_everyone
from .records import DailyRow, GameCancel, GameStatus, NewGame, SeatRow
from .refs import ChatRef, UserRef
from .refusals import Reason, Refused
from .seats import changed_options
from .views import TableView

DAILY_VARIANT = Variant.SCOPA
DAILY_TARGET = 11
DAILY_LEVEL = "hard"
BOARD_LINES = 10
BOARD_WORDS = frozenset({"board", "classifica", "tabla", "clasificación", "clasificacion"})
"""What after /daily asks for the board instead of a match, in every language."""


def daily_day(now: float) -> date:
    """The day (UTC) at `now`: everyone's deal changes at midnight UTC."""
    return datetime.fromtimestamp(now, UTC).date()


def daily_seed(day: date) -> str:
    """The game seed of `day`'s deal, as long as the ones lobbies draw (`secrets.token_hex(8)`)."""
    return hashlib.sha256(f"daily:{day.isoformat()}".encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class DailyLine:
    rank: int
    name: str
    margin: int
    """The player's points less the computer's."""
    moves: int


def daily_request(words: Sequence[str]) -> tuple[bool, bool]:
    """What `/daily` typed with `words` asks for: (the board rather than the deal, everyone's
    board rather than the chat's), in any of the catalogue's languages."""
    said = [word.lower() for word in words]
    board = bool(said) and said[0] in BOARD_WORDS
    return board, board and asks_for_everyone(said[1:])


@dataclass(frozen=True, slots=True)
class DailyBoard:
    day: str
    """YYYY-MM-DD (UTC)."""
    lines: tuple[DailyLine, ...]
    everyone: bool
    """The global board; otherwise one chat's players."""
    yesterday: DailyLine | None
    """Yesterday's winner of all players (the top of yesterday's global board)."""


@dataclass(frozen=True, slots=True)
class DailyStart:
    day: str
    table: TableView
    yesterday: DailyLine | None


def _lines(rows: list[DailyRow]) -> tuple[DailyLine, ...]:
    return tuple(DailyLine(rank, r.display_name, r.margin, r.moves) for rank, r in enumerate(rows, 1))


class Daily:
    def __init__(self, store: GameStore, directory: Directory, lobby: Lobby,
                 clock: Callable[[], float]) -> None:
        self.store = store
        self.directory = directory
        self.lobby = lobby
        self.clock = clock

    def today(self) -> date:
        return daily_day(self.clock())

    async def start(self, asked_in: ChatRef, plays_in: ChatRef, user: UserRef) -> DailyStart:
        """Start `user`'s deal of the day in `plays_in`, asked for in `asked_in` (whose board it
        joins). Refused once they have had today's, or while `plays_in` has a game open."""
        day = self.today()
        player = await self.directory.player(user)
        if await self.store.daily_game(day.isoformat(), player.id) is not None:
            raise Refused(Reason.DAILY_PLAYED)
        asked = await self.directory.chat(asked_in, user.language)
        home = await self.directory.chat(plays_in, user.language)
        options = changed_options(DAILY_VARIANT, Rules.from_options(DAILY_VARIANT, {"target": DAILY_TARGET}))
        deck_style = str(home.defaults.get("deck_style", "napoletane"))
        computer = await self.store.ensure_player("computer", DAILY_LEVEL, f"CPU {DAILY_LEVEL}",
                                                  is_computer=True)
        seats = (SeatRow(0, player.id, None, True, 0, False),
                 SeatRow(1, computer.id, DAILY_LEVEL, True, 0, False))
        try:
            async with self.store.unit() as uow:
                uow.add(NewGame(home.id, player.id, DAILY_VARIANT.value, options, 2, 0, deck_style,
                                daily_seed(day), plays_in.place, seats))
        except OpenGameExists as exc:
            raise Refused(Reason.GAME_OPEN, game_id=exc.game_id) from None
        game_id = uow.created
        assert game_id is not None
        if not await self.store.claim_daily(day.isoformat(), player.id, asked.id, game_id):
            async with self.store.unit() as cancel:
                cancel.add(GameCancel(game_id, GameStatus.LOBBY))
            raise Refused(Reason.DAILY_PLAYED)
        table = await self.lobby.start(plays_in, user)
        return DailyStart(day.isoformat(), table, await self._yesterday(day))

    async def board(self, chat_ref: ChatRef | None) -> DailyBoard:
        """Today's board of `chat_ref`'s players (None: of everyone), and yesterday's winner."""
        day = self.today()
        chat_id = None if chat_ref is None else (await self.directory.chat(chat_ref)).id
        rows = await self.store.daily_board(day.isoformat(), chat_id, BOARD_LINES)
        return DailyBoard(day.isoformat(), _lines(rows), chat_ref is None, await self._yesterday(day))

    async def _yesterday(self, day: date) -> DailyLine | None:
        best = await self.store.daily_board((day - timedelta(days=1)).isoformat(), None, 1)
        return _lines(best)[0] if best else None
