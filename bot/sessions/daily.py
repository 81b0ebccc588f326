"""The deal of the day: one match a day against the `hard` computer, with the same deals for
everyone, one attempt per player, and the day's boards.

The match is an ordinary game in the chat the front-end picks for it (the player's private
chat, where there is one), played at the player's pace: no move clock, no warning and no
reminder; they may leave and come back, across restarts, until the day ends (midnight UTC),
when a deal still unfinished is closed as it stands (`Play.close_day`: cancelled, on no
board, the player and the chat it was asked in told so). What makes it the day's is its seed
and the claim the store keeps, one a player a day, written with the dealt game in one unit
of work (`DailyDeal`): a deal of the day never sits in a lobby, and a claim never stands
without its game. /daily first offers the deal (`Daily.offer`), dealt once its player
confirms (`Daily.start`); asked again while it is being played (a confirmation tapped twice,
a retry after "one moment", a command delivered twice), the player gets back their deal.

The seed is the day's date keyed with a secret the store keeps (a `KeptSecret`), made once
and the same for every process on the database: without it nobody can deal a day's cards,
or replay the computer's replies (whose searches are seeded by the game's seed), before the
day. A game keeps the seed it was dealt from, so days already played keep their boards."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from ..engine import Game, Rules, dump_game
from ..engine.rules import Variant
from . import events as ev
from .boards import EVERYONE_WORDS
from .context import Context, UseCase
from .day import day_ends, utc_day
from .games import base
from .names import shown_name
from .play import Play
from .ports import DailyClaimed, OpenGameExists, StaleVersion
from .records import (
    ChatRow,
    DailyDeal,
    DailyRow,
    GameCancel,
    GameStatus,
    KeptSecret,
    NewGame,
    PlayerRow,
    SeatRow,
)
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
SECRET = "daily"
"""The name of the day's key among the store's secrets."""
ECHO_MOST = 40
"""Characters of the words quoted back when /daily does not know them."""


def daily_day(now: float) -> date:
    """The day (UTC) at `now`: everyone's deal changes at midnight UTC."""
    return utc_day(now)


def daily_seed(day: date, key: str) -> str:
    """The game seed of `day`'s deal, keyed with the bot's secret `key`; as long as the ones
    lobbies draw (`secrets.token_hex(8)`)."""
    return hmac.new(key.encode(), f"daily:{day.isoformat()}".encode(), hashlib.sha256).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class DailyLine:
    rank: int
    name: str
    margin: int
    """The player's points less the computer's."""
    moves: int


def daily_request(words: Sequence[str]) -> tuple[bool, bool]:
    """What `/daily` typed with `words` asks for: (the board rather than the deal, everyone's
    board rather than the chat's), in any of the catalogue's languages. Anything else is
    refused with the words quoted back (`DAILY_WORDS`), so a typo never spends the day's deal."""
    said = [word.lower() for word in words]
    if not said:
        return False, False
    if said[0] not in BOARD_WORDS or len(said) > 2 or (len(said) == 2 and said[1] not in EVERYONE_WORDS):
        raise Refused(Reason.DAILY_WORDS, asked=shown_name(" ".join(words), ECHO_MOST))
    return True, len(said) == 2


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
    resumed: bool = False
    """The player's deal of today was under way already (asked again): the front-end shows it
    to them again, hand included."""


@dataclass(frozen=True, slots=True)
class DailyOffer:
    """Today's deal offered to a player who has not had it yet: dealt only once they confirm
    (a button carrying `day` and who they are, `Taps.daily_deal`)."""

    day: str
    """YYYY-MM-DD (UTC)."""
    name: str
    """The player offered it, as the chat shows them."""
    yesterday: DailyLine | None


def _lines(rows: list[DailyRow]) -> tuple[DailyLine, ...]:
    return tuple(DailyLine(rank, r.display_name, r.margin, r.moves) for rank, r in enumerate(rows, 1))


class Daily(UseCase):
    def __init__(self, context: Context, play: Play) -> None:
        super().__init__(context)
        self.play = play
        self._key: str | None = None

    def today(self) -> date:
        return daily_day(self.clock())

    async def seed(self, day: date) -> str:
        """The seed of `day`'s deal, with the store's secret (made the first time it is asked)."""
        if self._key is None:
            async with self.store.unit() as uow:
                uow.add(KeptSecret(SECRET, secrets.token_hex(32)))
            assert uow.kept is not None
            self._key = uow.kept
        return daily_seed(day, self._key)

    async def offer(self, user: UserRef) -> DailyOffer | DailyStart:
        """What /daily offers `user` now: today's deal to confirm, or their deal under way given
        back (nothing to confirm: it is dealt already); refused once today's is over."""
        day = self.today()
        player = await self.directory.player(user)
        under_way = await self._under_way(day, player.id)
        if under_way is not None:
            return under_way
        return DailyOffer(day.isoformat(), player.display_name, await self._yesterday(day))

    async def start(self, asked_in: ChatRef, plays_in: ChatRef, user: UserRef) -> DailyStart:
        """Deal `user`'s deal of the day in `plays_in`, asked for in `asked_in` (whose board it
        joins), clearing a lobby left in `plays_in` (a place of the player's alone, where no
        lobby can be played). Their deal under way already is given back (`resumed`), today's
        or an earlier day's still running in `plays_in`; refused once today's is over, or while
        `plays_in` has another match running."""
        day = self.today()
        player = await self.directory.player(user)
        under_way = await self._under_way(day, player.id)
        if under_way is not None:
            return under_way
        asked = await self.directory.chat(asked_in, user.language)
        home = await self.directory.chat(plays_in, user.language)
        dead = await self.store.open_game(home.id, plays_in.place)
        if dead is not None and dead.status != GameStatus.LOBBY:
            mine = await self.store.is_daily(dead.id) and any(s.player_id == player.id for s in dead.seats)
            if not mine:
                raise Refused(Reason.GAME_OPEN, game_id=dead.id)
            if daily_day(dead.created_at) == day:
                return await self._given_back(dead.id, day)
            await self._close_day(dead.id)
            dead = None
        deal, game = await self._deal(day, home, player, plays_in.place, asked.id)
        try:
            async with self.store.unit() as uow:
                if dead is not None:
                    uow.add(GameCancel(dead.id, GameStatus.LOBBY, dead.version))
                uow.add(deal)
        except (OpenGameExists, DailyClaimed, StaleVersion) as exc:
            under_way = await self._under_way(day, player.id)
            if under_way is not None:
                return under_way
            if isinstance(exc, OpenGameExists):
                raise Refused(Reason.GAME_OPEN, game_id=exc.game_id) from None
            raise Refused(Reason.LOBBY_CHANGED) from None
        assert uow.created is not None
        if dead is not None:
            self.games.forget(dead.id)
            await self.bus.publish([ev.GameCancelled(**base(dead, home), by="")])
        row = await self.games.row(uow.created)
        self.games.note_daily(row.id)
        self.games.keep(row, game)
        self.alarm.set(row.deadline, row.deadline_kind, row.warned)
        await self.bus.publish([ev.GameStarted(**base(row, home)), self.play.turn_event(home, row, game)])
        return DailyStart(day.isoformat(), self.games.table(row, game), await self._yesterday(day))

    async def _deal(self, day: date, home: ChatRow, player: PlayerRow, thread: str,
                    asked_in: int) -> tuple[DailyDeal, Game]:
        """`player`'s deal of `day` against the computer, in `home`'s `thread`, as it is written
        (dealt, with its first deadline, and claimed), and the game it starts as."""
        rules = Rules.from_options(DAILY_VARIANT, {"target": DAILY_TARGET})
        computer = await self.store.ensure_player("computer", DAILY_LEVEL, f"Computer {DAILY_LEVEL}",
                                                  is_computer=True)
        seats = (SeatRow(0, player.id, None, True, 0, False, player=player),
                 SeatRow(1, computer.id, DAILY_LEVEL, True, 0, False, player=computer))
        seed = await self.seed(day)
        game = Game.new(DAILY_VARIANT.value, 2, rules=rules, seed=seed, undo=False)
        deadline, kind = self.play.deadline_for(home, seats, game, day_ends(day))
        new = NewGame(home.id, player.id, DAILY_VARIANT.value, changed_options(DAILY_VARIANT, rules), 2, 0,
                      str(home.defaults.get("deck_style", "napoletane")), seed, thread, seats)
        return DailyDeal(new, dump_game(game), deadline, kind, day.isoformat(), asked_in), game

    async def _close_day(self, game_id: int) -> None:
        """Close the player's deal of an earlier day still running (its day ended while the bot
        was away, before the timers did it), so that today's can be dealt in its place."""
        async with self.games.lock(game_id):
            row, game = await self.games.load(game_id)
            events = [] if game is None else await self.play.close_day(row, game)
        await self.bus.publish(events)
        if not events:
            raise Refused(Reason.LOBBY_CHANGED)

    async def _under_way(self, day: date, player_id: int) -> DailyStart | None:
        """The player's deal of `day` given back while it is being played; None before they
        claim it; refused once it is over."""
        game_id = await self.store.daily_game(day.isoformat(), player_id)
        return None if game_id is None else await self._given_back(game_id, day)

    async def _given_back(self, game_id: int, day: date) -> DailyStart:
        """The player's deal of `day`, game `game_id`, while it is being played; refused once
        it is over."""
        row, game = await self.games.load(game_id)
        if row.status != GameStatus.RUNNING or game is None:
            raise Refused(Reason.DAILY_PLAYED)
        return DailyStart(day.isoformat(), self.games.table(row, game), await self._yesterday(day),
                          resumed=True)

    async def board(self, chat_ref: ChatRef | None) -> DailyBoard:
        """Today's board of `chat_ref`'s players (None: of everyone), and yesterday's winner."""
        day = self.today()
        chat_id = None if chat_ref is None else (await self.directory.chat(chat_ref)).id
        rows = await self.store.daily_board(day.isoformat(), chat_id, BOARD_LINES)
        return DailyBoard(day.isoformat(), _lines(rows), chat_ref is None, await self._yesterday(day))

    async def _yesterday(self, day: date) -> DailyLine | None:
        best = await self.store.daily_board((day - timedelta(days=1)).isoformat(), None, 1)
        return _lines(best)[0] if best else None
