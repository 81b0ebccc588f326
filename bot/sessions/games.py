"""Games as the store keeps them, rebuilt into engine games, with what is kept in
memory while they run (the game, its table view, its seats as shown, its summary)
and one lock per game, so that changes to a game never interleave."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from ..engine import EngineError, Game, Move, Rules, StateFormatError, load_game
from . import events as ev
from .directory import Directory
from .ports import GameStore
from .records import ChatRow, GameRow, GameStatus, PlayerRow, SeatRow
from .refs import ChatRef
from .refusals import Reason, Refused
from .views import (
    MAX_TIMEOUTS,
    GameSummary,
    SeatInfo,
    TableView,
    cancelled_by,
    daily_of,
    game_summary,
    rule_options,
    seat_info,
    side_names,
    table_view,
)

log = logging.getLogger(__name__)

_SKEWED_READS = 3
"""Times a game is read again when another process moved it on between two reads."""
_DAILIES_KEPT = 4096
"""Games whose being a deal of the day or not is kept in memory (the oldest forgotten first)."""

Listener = Callable[[ev.Event], Awaitable[None]]


class EventBus:
    """Hands every event to every listener; one listener's failure is logged, not passed on."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    async def publish(self, events: Sequence[ev.Event]) -> None:
        for event in events:
            for listener in self._listeners:
                try:
                    await listener(event)
                except Exception:
                    log.exception("listener failed on %s", type(event).__name__)


class Games:
    def __init__(self, store: GameStore, directory: Directory, max_timeouts: int = MAX_TIMEOUTS) -> None:
        self.store = store
        self.directory = directory
        self.max_timeouts = max_timeouts
        """Turns in a row the timer plays for a player before their seat is the computer's."""
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._cache: dict[int, tuple[GameRow, Game]] = {}
        self._tables: dict[int, tuple[GameRow, Game, TableView]] = {}
        self._seat_infos: dict[int, tuple[tuple[SeatRow, ...], tuple[SeatInfo, ...],
                                          tuple[str, ...]]] = {}
        self._summaries: dict[int, tuple[GameRow, GameSummary]] = {}
        self._changing: dict[int, asyncio.Event] = {}
        self._dailies: dict[int, bool] = {}

    def lock(self, key: int) -> asyncio.Lock:
        """The game's lock, alive while anyone holds or awaits it (then dropped, not kept per game)."""
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    @contextmanager
    def changing(self, game_id: int) -> Iterator[None]:
        """Around a change made to the game in memory before the store has it (a move is
        applied in place, not to a copy): `load` waits until the block ends, so nobody reads
        a move the store may still refuse; if the block fails, the game is dropped from
        memory and read again as stored."""
        done = self._changing[game_id] = asyncio.Event()
        try:
            yield
        except BaseException:
            self.forget(game_id)
            raise
        finally:
            del self._changing[game_id]
            done.set()

    async def open_row(self, ref: ChatRef) -> tuple[ChatRow, GameRow]:
        chat = await self.directory.chat(ref)
        row = await self.store.open_game(chat.id, ref.place)
        if row is None:
            raise Refused(Reason.NO_GAME)
        return chat, row

    async def row(self, game_id: int) -> GameRow:
        """The game as stored now (not from memory)."""
        row = await self.store.get_game(game_id)
        if row is None:
            raise Refused(Reason.NO_GAME)
        return row

    async def load(self, game_id: int) -> tuple[GameRow, Game | None]:
        """The game from memory, or as stored. While the game is `changing`, it waits for the
        change."""
        await self._settled(game_id)
        cached = self._cache.get(game_id)
        if cached is not None:
            return cached
        return await self._rebuilt(await self.row(game_id))

    async def _settled(self, game_id: int) -> None:
        pending = self._changing.get(game_id)
        while pending is not None:
            await pending.wait()
            pending = self._changing.get(game_id)
        await self.is_daily(game_id)

    async def _rebuilt(self, row: GameRow) -> tuple[GameRow, Game | None]:
        row, game = await self.stored_now(row)
        if game is not None and row.status == GameStatus.RUNNING:
            self._cache[row.id] = (row, game)
        return row, game

    async def is_daily(self, game_id: int) -> bool:
        """Whether game `game_id` is a deal of the day (the store's claim): asked of the store
        once per game, as it never changes, and kept for the views (`daily_known`)."""
        known = self._dailies.get(game_id)
        if known is None:
            known = self._dailies[game_id] = await self.store.is_daily(game_id)
            if len(self._dailies) > _DAILIES_KEPT:
                del self._dailies[next(iter(self._dailies))]
        return known

    def daily_known(self, row: GameRow) -> str | None:
        """The day whose deal of the day `row` is, as `is_daily` found it (None if not asked)."""
        return daily_of(row, self._dailies.get(row.id, False))

    def note_daily(self, game_id: int) -> None:
        """Game `game_id` was just dealt as a deal of the day."""
        self._dailies[game_id] = True

    def cached(self, game_id: int) -> Game | None:
        cached = self._cache.get(game_id)
        return cached[1] if cached else None

    def keep(self, row: GameRow, game: Game) -> None:
        """Remember a running game as it now stands (stored already)."""
        self._cache[row.id] = (row, game)

    async def stored_now(self, row: GameRow) -> tuple[GameRow, Game | None]:
        """`stored(row)`, and the row it was rebuilt at."""
        return row, await self.stored(row)

    async def stored(self, row: GameRow) -> Game | None:
        """The game as stored: its last snapshot (taken at the start and when the match
        ends) with the moves committed since then played again, each one checked by
        the engine; anything inconsistent raises StateFormatError. It keeps no undo
        records: a move the store does not take drops the game instead (`changing`)."""
        if not row.state:
            return None
        game = load_game({**row.state, "rounds": await self.store.round_records(row.id)}, undo=False)
        if game.version < row.version:
            for move in await self.store.moves(row.id, after=game.version):
                if move.number != game.version + 1:
                    raise StateFormatError(f"game {row.id} is missing move {game.version + 1}")
                try:
                    game.apply(Move.parse(move.move), seat=move.seat)
                except EngineError as exc:
                    raise StateFormatError(
                        f"game {row.id}: stored move {move.number} ({move.move}) does not apply: "
                        f"{exc}") from None
        if game.version != row.version:
            raise StateFormatError(
                f"game {row.id} is stored at version {row.version} but its moves make {game.version}")
        return game

    def seats_of(self, row: GameRow, game: Game) -> tuple[tuple[SeatInfo, ...], tuple[str, ...]]:
        """The seats and side names as shown, built once per change of seats."""
        known = self._seat_infos.get(row.id)
        if known is not None and known[0] is row.seats:
            return known[1], known[2]
        infos = tuple(seat_info(s, row.seats, self.max_timeouts) for s in row.seats)
        names = side_names(game, infos)
        if row.status == GameStatus.RUNNING:
            self._seat_infos[row.id] = (row.seats, infos, names)
        return infos, names

    def table(self, row: GameRow, game: Game) -> TableView:
        """The table view of `row` and `game`, built once for each version of them."""
        known = self._tables.get(row.id)
        if known is not None and known[0] is row and known[1] is game:
            return known[2]
        seats, names = self.seats_of(row, game)
        view = table_view(row, game, seats=seats, names=names, daily=self.daily_known(row))
        if row.status == GameStatus.RUNNING:
            self._tables[row.id] = (row, game, view)
        return view

    async def summary(self, row: GameRow) -> GameSummary:
        """The game as front-ends look it up, built once for each version of a running game."""
        known = self._summaries.get(row.id)
        if known is not None and known[0] is row:
            return known[1]
        by = cancelled_by(row)
        canceller = None if by is None else await self.store.get_player(by)
        summary = game_summary(row, await self.directory.chat_row(row.chat_id),
                               None if canceller is None else canceller.display_name,
                               await self.is_daily(row.id))
        if row.status == GameStatus.RUNNING and row.id in self._cache:
            self._summaries[row.id] = (row, summary)
        return summary

    def chat_changed(self, chat_id: int) -> None:
        """Chat `chat_id`'s row was replaced: its games' summaries are built again."""
        for game_id in [g for g, (row, _) in self._summaries.items() if row.chat_id == chat_id]:
            del self._summaries[game_id]

    def player_changed(self, player: PlayerRow) -> None:
        """Player `player`'s settings changed (stored already): the games kept in memory seat
        them as they now are."""
        for game_id, (row, game) in list(self._cache.items()):
            if any(seat.player_id == player.id for seat in row.seats):
                seats = tuple(replace(seat, player=player) if seat.player_id == player.id else seat
                              for seat in row.seats)
                self._cache[game_id] = (replace(row, seats=seats), game)

    def forget_chat(self, chat_id: int) -> None:
        """Chat `chat_id` moved (`Settings.move_chat`): what is kept of its games was built
        with its old key, or its old row, and is built again."""
        rows = [(g, row) for g, (row, _) in self._cache.items()]
        rows += [(g, row) for g, (row, _) in self._summaries.items()]
        for game_id in {g for g, row in rows if row.chat_id == chat_id}:
            self.forget(game_id)

    def forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)
        self._tables.pop(game_id, None)
        self._seat_infos.pop(game_id, None)
        self._summaries.pop(game_id, None)

    @property
    def idle(self) -> bool:
        """Nothing is kept in memory for any game."""
        return not (self._cache or self._tables or self._seat_infos or self._summaries or self._locks)


class SharedGames(Games):
    """Games on a store other processes move on too: the stored row is read at each `load`,
    and the game kept in memory only while its version is still the stored one."""

    async def load(self, game_id: int) -> tuple[GameRow, Game | None]:
        await self._settled(game_id)
        cached = self._cache.get(game_id)
        row = await self.row(game_id)
        if cached is not None and row.status == GameStatus.RUNNING and row.version == cached[0].version:
            if row == cached[0]:
                row = cached[0]
            self._cache[game_id] = (row, cached[1])
            return row, cached[1]
        if cached is not None:
            self.forget(game_id)
        return await self._rebuilt(row)

    async def stored_now(self, row: GameRow) -> tuple[GameRow, Game | None]:
        """`stored(row)`, and the row it was rebuilt at: another process may commit a move
        between the reading of the row and of its moves, and the row is read again then, rather
        than the two taken for a damaged game."""
        for _ in range(_SKEWED_READS):
            try:
                return row, await self.stored(row)
            except StateFormatError:
                again = await self.row(row.id)
                if (again.version, again.status) == (row.version, row.status):
                    raise
                row = again
        return row, await self.stored(row)


def base(row: GameRow, chat: ChatRow) -> dict[str, Any]:
    """The fields every event about `row` carries."""
    return {"game_id": row.id, "platform": chat.platform, "chat_key": chat.chat_key,
            "thread": row.thread}


def rules_of(row: GameRow) -> Rules:
    return Rules.from_options(row.variant, rule_options(row))


def manages(row: GameRow, player: PlayerRow, is_admin: bool) -> bool:
    return is_admin or row.creator_id == player.id
