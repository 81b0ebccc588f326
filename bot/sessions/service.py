"""The life of a game in a chat, for every front-end: lobby, seats, turns,
timers, computer players, results and ratings.

Front-ends call these methods with who is asking (`UserRef`) and where
(`ChatRef`), and render the events and views they get back. A request that
is not allowed raises `Refused` and changes nothing. Every change is
committed to the store before any event about it is published.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import time
import weakref
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..ai import LEVELS, choose_move
from ..engine import (
    EngineError,
    Game,
    IllegalMoveError,
    InvalidInputError,
    Move,
    Rules,
    SeatView,
    StateFormatError,
    dump_game,
    load_game,
    record_line,
    to_record,
)
from ..engine.fuori import declaring_wins
from ..engine.record import record_text
from ..engine.rules import HOUSE_RULES, Seating, Variant, parse_variant
from ..storage import (
    ChatRow,
    GameRow,
    LeaderboardRow,
    MatchFinish,
    MatchSummary,
    MoveCommit,
    OpenGameExists,
    PlayerRow,
    ResultRow,
    SeatRow,
    StaleVersion,
    Store,
)
from . import events as ev
from .options import DECK_STYLES, DEFAULT_PLAYERS, PLAYER_RANGE, TURN_LIMIT_BOUNDS
from .ratings import display_rating, ladder_for, rate
from .refusals import Reason, Refused
from .thinking import Chooser, Think, think_in_thread
from .views import (
    HandView,
    LobbyView,
    SeatInfo,
    TableView,
    hand_view,
    lobby_view,
    seat_info,
    seat_name,
    side_names,
    table_view,
)

log = logging.getLogger(__name__)

Listener = Callable[[ev.Event], Awaitable[None]]
_IDLE_POLL = 2.0  # the timer loop also looks for due work at least this often
LANGUAGES = ("it", "en")
LOBBY_IDLE = 30 * 60
"""Seconds after its last change (a seat, an option) when a lobby gives way to a new /newgame."""
_HOUSE_ANYWHERE = frozenset(name for names in HOUSE_RULES.values() for name in names)


@dataclass(frozen=True, slots=True)
class ChatRef:
    platform: str
    key: str
    title: str | None = None


@dataclass(frozen=True, slots=True)
class UserRef:
    platform: str
    key: str
    name: str
    language: str | None = None


def language_of(code: str | None, fallback: str = "it") -> str:
    """`it` for an Italian language code, `en` for any other, fallback for none."""
    if not code:
        return fallback
    return "it" if code.lower().startswith("it") else "en"


def default_chooser(level: str, view: SeatView, seed: str, budget: float | None = None) -> Move:
    return choose_move(level, view, seed, budget)


class Sessions:
    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 computer_pace: float = 1.2, warn_before: float = 20.0,
                 chooser: Chooser | None = None, think: Think | None = None,
                 timeout_level: str = "medium", max_timeouts: int = 3) -> None:
        self.store = store
        self.clock = clock
        self.computer_pace = computer_pace
        self.warn_before = warn_before
        self.chooser = chooser or default_chooser
        self.think = think or think_in_thread
        """Where the chooser runs: a thread by default, worker processes in the bot."""
        self.timeout_level = timeout_level
        self.max_timeouts = max_timeouts
        self._listeners: list[Listener] = []
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._cache: dict[int, tuple[GameRow, Game]] = {}
        self._tables: dict[int, tuple[GameRow, Game, TableView]] = {}
        self._seat_infos: dict[int, tuple[tuple[SeatRow, ...], tuple[SeatInfo, ...],
                                          tuple[str, ...]]] = {}
        self._chats: dict[int, ChatRow] = {}
        self._players: dict[tuple[str, str], PlayerRow] = {}
        self._wake = asyncio.Event()
        self._sleeping_until: float | None = None

    # ---- plumbing -------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    async def _publish(self, events: Sequence[ev.Event]) -> None:
        for event in events:
            for listener in self._listeners:
                try:
                    await listener(event)
                except Exception:
                    log.exception("listener failed on %s", type(event).__name__)

    def _lock(self, key: int) -> asyncio.Lock:
        """The game's lock, alive while anyone holds or awaits it (then dropped, not kept per game)."""
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    async def chat(self, ref: ChatRef, language_hint: str | None = None) -> ChatRow:
        row = await self.store.ensure_chat(ref.platform, ref.key, ref.title,
                                           language_of(language_hint) if language_hint else None)
        self._chats[row.id] = row
        return row

    async def player(self, ref: UserRef) -> PlayerRow:
        known = self._players.get((ref.platform, ref.key))
        if known is not None and known.display_name == (ref.name or ref.key)[:64] and (
                not ref.language or known.platform_language == ref.language):
            return known
        row = await self.store.ensure_player(ref.platform, ref.key, ref.name or ref.key,
                                             ref.language)
        self._players[(ref.platform, ref.key)] = row
        return row

    async def _known_player(self, ref: UserRef) -> PlayerRow | None:
        """The player if they ever used the bot; taps never create players."""
        known = self._players.get((ref.platform, ref.key))
        if known is None:
            known = await self.store.find_player(ref.platform, ref.key)
            if known is not None:
                self._players[(ref.platform, ref.key)] = known
        return known

    async def _chat_row(self, chat_id: int) -> ChatRow:
        row = self._chats.get(chat_id)
        if row is None:
            row = await self.store.get_chat(chat_id)
            assert row is not None
            self._chats[chat_id] = row
        return row

    def player_language(self, player: PlayerRow | None, fallback: str = "it") -> str:
        if player is None:
            return fallback
        return player.language or language_of(player.platform_language, fallback)

    async def _open_row(self, ref: ChatRef) -> tuple[ChatRow, GameRow]:
        chat = await self.chat(ref)
        row = await self.store.open_game(chat.id)
        if row is None:
            raise Refused(Reason.NO_GAME)
        return chat, row

    async def _load(self, game_id: int) -> tuple[GameRow, Game | None]:
        cached = self._cache.get(game_id)
        if cached is not None:
            return cached
        row = await self.store.get_game(game_id)
        if row is None:
            raise Refused(Reason.NO_GAME)
        game = await self._stored(row)
        if game is not None and row.status == "running":
            self._cache[game_id] = (row, game)
        return row, game

    async def _stored(self, row: GameRow) -> Game | None:
        """The game as stored: its last snapshot (taken at the start and when the match
        ends) with the moves committed since then played again, each one checked by
        the engine; anything inconsistent raises StateFormatError."""
        if not row.state:
            return None
        game = load_game({**row.state, "rounds": await self.store.round_records(row.id)})
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

    async def stored_game(self, game_id: int) -> Game | None:
        """The game rebuilt from the database alone (not from memory); None before it starts."""
        row = await self.store.get_game(game_id)
        if row is None:
            raise Refused(Reason.NO_GAME)
        return await self._stored(row)

    def _seats_of(self, row: GameRow, game: Game) -> tuple[tuple[SeatInfo, ...], tuple[str, ...]]:
        """The seats and side names as shown, built once per change of seats."""
        known = self._seat_infos.get(row.id)
        if known is not None and known[0] is row.seats:
            return known[1], known[2]
        infos = tuple(seat_info(s, row.seats) for s in row.seats)
        names = side_names(game, infos)
        if row.status == "running":
            self._seat_infos[row.id] = (row.seats, infos, names)
        return infos, names

    def _table(self, row: GameRow, game: Game) -> TableView:
        """The table view of `row` and `game`, built once for each version of them."""
        known = self._tables.get(row.id)
        if known is not None and known[0] is row and known[1] is game:
            return known[2]
        seats, names = self._seats_of(row, game)
        view = table_view(row, game, seats=seats, names=names)
        if row.status == "running":
            self._tables[row.id] = (row, game, view)
        return view

    def _forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)
        self._tables.pop(game_id, None)
        self._seat_infos.pop(game_id, None)

    def _base(self, row: GameRow, chat: ChatRow) -> dict[str, Any]:
        return {"game_id": row.id, "platform": chat.platform, "chat_key": chat.chat_key}

    @staticmethod
    def _rules(row: GameRow) -> Rules:
        return Rules.from_options(row.variant, row.options)

    @staticmethod
    def _may_manage(row: GameRow, player: PlayerRow, is_admin: bool) -> bool:
        return is_admin or row.creator_id == player.id

    # ---- lobby ----------------------------------------------------------------

    async def new_game(self, chat_ref: ChatRef, user: UserRef, variant: str | None = None,
                       options: dict[str, Any] | None = None, *, ready: bool = True) -> LobbyView:
        """Open a lobby with its creator in seat 1; `ready=False` as for `join`.

        `options` may hold rule options and the table's layout (`players`,
        `teams`, `deck_style`); they override the chat's defaults.
        """
        chat = await self.chat(chat_ref, user.language)
        player = await self.player(user)
        defaults = dict(chat.defaults)
        try:
            chosen = parse_variant(variant or defaults.pop("variant", None) or "scopa")
        except InvalidInputError as exc:
            raise Refused(Reason.BAD_OPTION, detail=str(exc)) from None
        if variant and variant != defaults.get("variant"):
            defaults = {}
        defaults.pop("variant", None)
        rule_options = {**defaults, **(options or {})}
        try:
            players = int(rule_options.pop("players", DEFAULT_PLAYERS[chosen.value]))
            teams = _team_count(rule_options.pop("teams", chosen in (Variant.SCOPONE,
                                                                      Variant.SCOPONE_SCIENTIFICO)))
            deck_style = str(rule_options.pop("deck_style", "napoletane"))
            if deck_style not in DECK_STYLES:
                raise InvalidInputError(f"unknown deck style {deck_style!r}")
            rules = Rules.from_options(chosen, rule_options)
            teams = _teams_of(_seating(chosen.value, players, teams))
        except (InvalidInputError, ValueError) as exc:
            raise Refused(Reason.BAD_OPTION, detail=str(exc)) from None
        stored_options = _changed_options(chosen, rules)
        seed = secrets.token_hex(8)
        try:
            row = await self.store.create_game(chat.id, player.id, chosen.value, stored_options,
                                               players, teams, deck_style, seed)
        except OpenGameExists as exc:
            if not await self._close_idle_lobby(chat, exc.game_id):
                raise Refused(Reason.GAME_OPEN, game_id=exc.game_id) from None
            try:
                row = await self.store.create_game(chat.id, player.id, chosen.value, stored_options,
                                                   players, teams, deck_style, seed)
            except OpenGameExists as again:
                raise Refused(Reason.GAME_OPEN, game_id=again.game_id) from None
        if not ready:
            await self.store.set_seat_flags(row.id, 0, ready=False)
            row = dataclasses.replace(row, seats=tuple(dataclasses.replace(s, ready=False)
                                                       for s in row.seats))
        await self._publish([ev.LobbyUpdated(**self._base(row, chat))])
        return lobby_view(row, rules, chat.turn_limit)

    async def _close_idle_lobby(self, chat: ChatRow, game_id: int) -> bool:
        """Close the chat's open game if it is a lobby nobody has touched for LOBBY_IDLE
        seconds, so that a creator who went away does not keep the chat from playing."""
        async with self._lock(game_id):
            row = await self.store.get_game(game_id)
            if row is None or row.status != "lobby" or self.clock() - row.updated_at < LOBBY_IDLE:
                return False
            if not await self.store.cancel_game(row.id, None):
                return False
            self._forget(row.id)
        await self._publish([ev.GameCancelled(**self._base(row, chat), by="")])
        return True

    async def lobby(self, chat_ref: ChatRef) -> LobbyView:
        chat, row = await self._open_row(chat_ref)
        return lobby_view(row, self._rules(row), chat.turn_limit)

    async def lobby_of(self, game_id: int) -> LobbyView:
        row = await self.store.get_game(game_id)
        if row is None:
            raise Refused(Reason.NO_GAME)
        chat = await self._chat_row(row.chat_id)
        return lobby_view(row, self._rules(row), chat.turn_limit)

    async def _lobby_change(self, chat_ref: ChatRef, user: UserRef,
                            change: Callable[[ChatRow, GameRow, PlayerRow], Awaitable[None]],
                            game_id: int | None = None) -> LobbyView:
        chat = await self.chat(chat_ref)
        player = await self.player(user)
        row = await self.store.open_game(chat.id)
        if row is None or (game_id is not None and row.id != game_id):
            raise Refused(Reason.NO_GAME if row is None else Reason.STALE)
        async with self._lock(row.id):
            row = await self.store.get_game(row.id)
            assert row is not None
            if row.status != "lobby":
                raise Refused(Reason.NOT_IN_LOBBY)
            await change(chat, row, player)
            row = await self.store.get_game(row.id)
            assert row is not None
        await self._publish([ev.LobbyUpdated(**self._base(row, chat))])
        if row.status == "cancelled":
            await self._publish([ev.GameCancelled(**self._base(row, chat), by=player.display_name)])
        return lobby_view(row, self._rules(row), chat.turn_limit)

    async def may_manage(self, game_id: int, user: UserRef, is_admin: bool = False) -> bool:
        """Whether `user` may start, cancel or change game `game_id` (its creator, or an admin)."""
        if is_admin:
            return True
        row = await self.store.get_game(game_id)
        player = await self._known_player(user)
        return row is not None and player is not None and self._may_manage(row, player, False)

    async def join(self, chat_ref: ChatRef, user: UserRef, *, ready: bool = True,
                   game_id: int | None = None) -> LobbyView:
        async def change(chat: ChatRow, row: GameRow, player: PlayerRow) -> None:
            seats = list(row.seats)
            mine = next((s for s in seats if s.player_id == player.id), None)
            if mine is not None:
                if mine.ready or not ready:
                    raise Refused(Reason.ALREADY_JOINED)
                await self.store.set_seat_flags(row.id, mine.seat, ready=True)
                return
            free = _free_seat(row)
            if free is None:
                raise Refused(Reason.GAME_FULL)
            seats.append(SeatRow(free, player.id, None, ready, 0, False))
            await self.store.set_seats(row.id, seats)

        return await self._lobby_change(chat_ref, user, change, game_id)

    async def confirm_seat(self, game_id: int, user: UserRef) -> LobbyView:
        """Mark the seat `user` took in lobby `game_id` as ready (the bot can now reach them).

        Only a seat taken in the chat itself is confirmed: whoever knows a game's number
        (they are sequential) cannot sit in the lobby of a chat they are not in."""
        row = await self.store.get_game(game_id)
        player = await self._known_player(user)
        if row is None or player is None or not any(s.player_id == player.id for s in row.seats):
            raise Refused(Reason.NOT_JOINED)
        if row.status != "lobby":
            raise Refused(Reason.NOT_IN_LOBBY)
        chat = await self._chat_row(row.chat_id)
        return await self.join(ChatRef(chat.platform, chat.chat_key, chat.title), user, ready=True,
                               game_id=game_id)

    async def leave(self, chat_ref: ChatRef, user: UserRef, *,
                    from_lobby: bool = False) -> LobbyView | TableView:
        """Leave the chat's open game: a seat in the lobby is freed; in a match the computer
        plays it from now on. `from_lobby` (the lobby's Leave button) leaves only a lobby: a
        button pressed after the start does not hand a seat over unasked."""
        chat = await self.chat(chat_ref)
        player = await self.player(user)
        row = await self.store.open_game(chat.id)
        if row is None:
            raise Refused(Reason.NO_GAME)
        if row.status == "running" and from_lobby:
            raise Refused(Reason.MATCH_STARTED)
        if row.status == "running":
            seat = next((s for s in row.seats if s.player_id == player.id), None)
            if seat is None:
                raise Refused(Reason.NOT_IN_GAME)
            await self.set_autoplay(row.id, user, True)
            return await self.table(row.id)

        async def change(chat: ChatRow, row: GameRow, player: PlayerRow) -> None:
            seats = [s for s in row.seats if s.player_id != player.id or s.computer_level]
            if len(seats) == len(row.seats):
                raise Refused(Reason.NOT_JOINED)
            if not any(not s.is_computer for s in seats):
                await self.store.cancel_game(row.id)
            else:
                await self.store.set_seats(row.id, seats)

        return await self._lobby_change(chat_ref, user, change)

    async def add_computer(self, chat_ref: ChatRef, user: UserRef, level: str,
                           is_admin: bool = False) -> LobbyView:
        if level not in LEVELS:
            raise Refused(Reason.BAD_OPTION, detail=level)
        computer = await self.store.ensure_player("computer", level, f"CPU {level}",
                                                  is_computer=True)

        async def change(chat: ChatRow, row: GameRow, player: PlayerRow) -> None:
            seated = any(s.player_id == player.id for s in row.seats)
            if not seated and not self._may_manage(row, player, is_admin):
                raise Refused(Reason.NOT_ALLOWED)
            free = _free_seat(row)
            if free is None:
                raise Refused(Reason.GAME_FULL)
            await self.store.set_seats(row.id, [*row.seats,
                                                SeatRow(free, computer.id, level, True, 0, False)])

        return await self._lobby_change(chat_ref, user, change)

    async def remove_computers(self, chat_ref: ChatRef, user: UserRef,
                               is_admin: bool = False) -> LobbyView:
        async def change(chat: ChatRow, row: GameRow, player: PlayerRow) -> None:
            if not self._may_manage(row, player, is_admin):
                raise Refused(Reason.NOT_ALLOWED)
            await self.store.set_seats(row.id, [s for s in row.seats if not s.computer_level])

        return await self._lobby_change(chat_ref, user, change)

    async def set_option(self, chat_ref: ChatRef, user: UserRef, key: str, value: Any,
                         is_admin: bool = False) -> LobbyView:
        async def change(chat: ChatRow, row: GameRow, player: PlayerRow) -> None:
            if not self._may_manage(row, player, is_admin):
                raise Refused(Reason.NOT_ALLOWED)
            variant, options = row.variant, dict(row.options)
            players, teams, deck_style = row.players, row.teams, row.deck_style
            try:
                if key == "variant":
                    variant = parse_variant(str(value)).value
                    options = {}
                    teams = 2 if variant in ("scopone", "scopone_scientifico") else 0
                    low, high = PLAYER_RANGE[variant]
                    players = min(max(players, low), high)
                elif key == "players":
                    players = int(value)
                    teams = _fitting_teams(variant, players, teams)
                elif key == "teams":
                    teams = _team_count(value)
                elif key == "deck_style":
                    if value not in DECK_STYLES:
                        raise InvalidInputError(f"unknown deck style {value!r}")
                    deck_style = str(value)
                else:
                    if key in _HOUSE_ANYWHERE and key not in HOUSE_RULES[parse_variant(variant)]:
                        raise InvalidInputError(f"{key} changes nothing in {variant}")
                    options[key] = value
                rules = Rules.from_options(variant, options)
                teams = _teams_of(_seating(variant, players, teams))
            except (InvalidInputError, ValueError) as exc:
                raise Refused(Reason.BAD_OPTION, detail=str(exc)) from None
            if sum(1 for s in row.seats) > players:
                raise Refused(Reason.BAD_OPTION, detail="players")
            await self.store.update_lobby(row.id, variant=variant,
                                          options=_changed_options(parse_variant(variant), rules),
                                          players=players, teams=teams, deck_style=deck_style)
            compact = [dataclasses.replace(s, seat=i) for i, s in enumerate(row.seats)]
            await self.store.set_seats(row.id, compact)

        return await self._lobby_change(chat_ref, user, change)

    async def start(self, chat_ref: ChatRef, user: UserRef, is_admin: bool = False) -> TableView:
        chat = await self.chat(chat_ref)
        player = await self.player(user)
        row = await self.store.open_game(chat.id)
        if row is None:
            raise Refused(Reason.NO_GAME)
        async with self._lock(row.id):
            row = await self.store.get_game(row.id)
            assert row is not None
            if row.status != "lobby":
                raise Refused(Reason.NOT_IN_LOBBY)
            if not self._may_manage(row, player, is_admin):
                raise Refused(Reason.NOT_ALLOWED)
            if len(row.seats) < row.players:
                raise Refused(Reason.SEATS_EMPTY, missing=row.players - len(row.seats))
            waiting = [seat_name(s, row.seats) for s in row.seats if not s.ready]
            if waiting:
                raise Refused(Reason.SEAT_WAITING, names=", ".join(waiting))
            game = Game.new(row.variant, row.players, teams=row.teams > 0, sides=row.teams or None,
                            rules=self._rules(row), seed=row.seed)
            deadline, kind = self._deadline_for(chat, row.seats, game)
            if not await self.store.start_game(row.id, dump_game(game), row.seats, deadline, kind):
                raise Refused(Reason.NOT_IN_LOBBY)
            row = await self.store.get_game(row.id)
            assert row is not None
            self._cache[row.id] = (row, game)
        self._timer_set(row.deadline, row.deadline_kind, row.warned)
        await self._publish([ev.GameStarted(**self._base(row, chat)),
                             self._turn_event(chat, row, game)])
        return table_view(row, game)

    async def rematch(self, game_id: int, user: UserRef) -> LobbyView:
        """A new lobby with the same variant, options and seats as a finished game."""
        old = await self.store.get_game(game_id)
        if old is None:
            raise Refused(Reason.NO_GAME)
        player = await self.player(user)
        if old.status not in ("finished", "cancelled"):
            raise Refused(Reason.GAME_OPEN, game_id=old.id)
        if not any(s.player_id == player.id for s in old.seats):
            raise Refused(Reason.NOT_IN_GAME)
        chat = await self._chat_row(old.chat_id)
        try:
            row = await self.store.create_game(chat.id, player.id, old.variant, old.options,
                                               old.players, old.teams, old.deck_style,
                                               secrets.token_hex(8), creator_seat=False)
        except OpenGameExists as exc:
            raise Refused(Reason.GAME_OPEN, game_id=exc.game_id) from None
        seats = [dataclasses.replace(s, seat=(s.seat + 1) % old.players, timeouts=0, autoplay=False)
                 for s in old.seats]
        await self.store.set_seats(row.id, sorted(seats, key=lambda s: s.seat))
        row = await self.store.get_game(row.id)
        assert row is not None
        await self._publish([ev.LobbyUpdated(**self._base(row, chat))])
        return lobby_view(row, self._rules(row), chat.turn_limit)

    async def cancel(self, chat_ref: ChatRef, user: UserRef, is_admin: bool = False) -> None:
        chat = await self.chat(chat_ref)
        player = await self.player(user)
        row = await self.store.open_game(chat.id)
        if row is None:
            raise Refused(Reason.NO_GAME)
        async with self._lock(row.id):
            if not self._may_manage(row, player, is_admin):
                raise Refused(Reason.NOT_ALLOWED)
            line = None
            if row.status == "running" and row.state:
                cached = self._cache.get(row.id)
                game = cached[1] if cached else await self._stored(row)
                if game is not None:
                    line = record_line(game)
            if not await self.store.cancel_game(row.id, line):
                raise Refused(Reason.NO_GAME)
            self._forget(row.id)
        await self._publish([ev.GameCancelled(**self._base(row, chat), by=player.display_name)])

    # ---- play -----------------------------------------------------------------

    async def play(self, game_id: int, user: UserRef, expected_version: int,
                   move: str | Move, fuori: bool = False) -> TableView:
        """Play a move for `user` in game `game_id`, as seen at `expected_version`;
        with `fuori`, declare fuori with it (docs/rules.md)."""
        if isinstance(expected_version, bool) or not isinstance(expected_version, int):
            raise Refused(Reason.BAD_INPUT)
        player = await self._known_player(user)
        async with self._lock(game_id):
            row, game = await self._load(game_id)
            if row.status == "lobby":
                raise Refused(Reason.NOT_IN_LOBBY)
            if row.status != "running" or game is None:
                raise Refused(Reason.GAME_OVER)
            seat = next((s for s in row.seats if player and s.player_id == player.id), None)
            if seat is None or player is None:
                raise Refused(Reason.NOT_IN_GAME)
            if expected_version != game.version:
                raise Refused(Reason.STALE)
            if seat.seat != game.to_play:
                raise Refused(Reason.NOT_YOUR_TURN)
            if fuori and not game.may_declare(seat.seat):
                raise Refused(Reason.NO_FUORI)
            try:
                parsed = move if isinstance(move, Move) else Move.parse(move)
            except InvalidInputError:
                raise Refused(Reason.BAD_INPUT) from None
            chat = await self._chat_row(row.chat_id)
            events, row, game = await self._commit(chat, row, game, seat, parsed,
                                                   by_computer=False, timed_out=False, fuori=fuori)
        self._timer_set(row.deadline, row.deadline_kind, row.warned)
        await self._publish(events)
        assert game is not None
        return self._table(row, game)

    async def _commit(self, chat: ChatRow, row: GameRow, game: Game, seat: SeatRow, move: Move,
                      *, by_computer: bool, timed_out: bool,
                      fuori: bool = False) -> tuple[list[ev.Event], GameRow, Game]:
        """Apply `move` to a copy, store it with all it changes, then update the cache;
        gives the events and the game's new row and state.

        A running game's move is stored as the move alone: loading plays the moves
        again on the snapshot taken at the start. The state is stored again, with
        every round's breakdown and record, only when the match ends. Round ends
        thus cost no more than other moves, and they come in bursts: games started
        together end their rounds together.
        """
        new = game.copy()
        try:
            outcome = new.declare_fuori(move, seat.seat) if fuori else new.apply(move, seat=seat.seat)
        except IllegalMoveError as exc:
            raise Refused(Reason.ILLEGAL_MOVE, detail=str(exc)) from None
        timeouts, autoplay = seat.timeouts, seat.autoplay
        if timed_out:
            timeouts += 1
            autoplay = autoplay or timeouts >= self.max_timeouts
        elif not by_computer:
            timeouts, autoplay = 0, False
        seats = row.seats
        if timeouts != seat.timeouts or autoplay != seat.autoplay:
            seats = tuple(dataclasses.replace(s, timeouts=timeouts, autoplay=autoplay)
                          if s.seat == seat.seat else s for s in seats)
        finished = new.winner is not None
        deadline, kind = (None, None) if finished else self._deadline_for(chat, seats, new)
        result = outcome.round_result
        state = None
        rounds: tuple[tuple[int, dict[str, Any], dict[str, Any]], ...] = ()
        finish = None
        if finished:
            state = dump_game(new, rounds=False)
            del state["rounds"]
            record = to_record(new)
            rounds = tuple((r.number, r.to_dict(), stored)
                           for r, stored in zip(new.results, record["rounds"], strict=True))
            finish = await self._finish(row, new, seats, record)
        try:
            await self.store.commit_move(MoveCommit(
                game_id=row.id, expected_version=game.version, state=state, seat=seat.seat,
                move=move.code, by_computer=by_computer, deadline=deadline, deadline_kind=kind,
                seat_timeouts=timeouts if timeouts != seat.timeouts else None,
                seat_autoplay=autoplay if autoplay != seat.autoplay else None,
                rounds=rounds,
                finish=finish))
        except StaleVersion:
            self._forget(row.id)
            raise Refused(Reason.STALE) from None
        row = _moved(row, new.version, "finished" if finished else "running", deadline, kind,
                     seats, state)
        if finished:
            self._forget(row.id)
        else:
            self._cache[row.id] = (row, new)
        base = self._base(row, chat)
        play = outcome.play
        name = seat_name(seat, seats)
        out: list[ev.Event] = [ev.MovePlayed(
            **base, version=new.version, seat=seat.seat, name=name, card=play.card,
            captured=play.captured, scopa=play.scopa, by_computer=by_computer, timed_out=timed_out,
            swept_by_ace=outcome.swept_by_ace, dealt=outcome.dealt, leftover=outcome.leftover,
            leftover_seat=outcome.leftover_seat, fuori=fuori)]
        if autoplay and not seat.autoplay:
            out.append(ev.SeatAutoplay(**base, seat=seat.seat, player_id=seat.player_id,
                                       name=name, on=True))
        if result is not None:
            names = side_names(new, tuple(seat_info(s, seats) for s in seats))
            declarer = None if result.fuori is None else next(
                (s for s in seats if s.seat == result.fuori), None)
            out.append(ev.RoundEnded(
                **base, result=result, side_names=names,
                fuori_name=None if declarer is None else seat_name(declarer, seats),
                fuori_side=None if result.fuori is None else new.side_of[result.fuori]))
            if finished:
                changes = tuple((seat_name(s, seats), r.rating_before or 0.0, r.rating_after or 0.0)
                                for s, r in zip(seats, finish.results if finish else (),
                                                strict=False)
                                if r.player_id is not None and r.rating_after is not None)
                out.append(ev.MatchEnded(**base, winner=new.winner, totals=tuple(new.totals),
                                         side_names=names, rating_changes=changes))
        if not finished:
            out.append(self._turn_event(chat, row, new))
        return out, row, new

    async def _finish(self, row: GameRow, game: Game, seats: Sequence[SeatRow],
                      record: dict[str, Any]) -> MatchFinish:
        sides = game.seating.sides
        humans = {s.seat: s.player_id for s in seats if not s.is_computer}
        ladder = ladder_for(sides)
        current = await self.store.ratings([pid for pid in humans.values() if pid], ladder)
        new_ratings = rate(ladder, [[humans.get(seat) for seat in side] for side in sides],
                           game.totals, game.winner, current)
        by_player = {r.player_id: r for r in new_ratings}
        scope = [0] * game.seats
        for stored in record["rounds"]:
            for play in stored["plays"]:
                if play["scopa"]:
                    scope[play["seat"]] += 1
        results = []
        for seat in range(game.seats):
            side = game.side_of[seat]
            player_id = humans.get(seat)
            before = current.get(player_id) if player_id else None
            after = by_player.get(player_id) if player_id else None
            results.append(ResultRow(
                seat, player_id if player_id else None, side, game.totals[side],
                side == game.winner, scope[seat],
                display_rating(before.mu, before.sigma) if before else (
                    display_rating(25.0, 25.0 / 3) if after else None),
                display_rating(after.mu, after.sigma) if after else None))
        return MatchFinish(record_text(record), tuple(results), tuple(new_ratings))

    def _deadline_for(self, chat: ChatRow, seats: Sequence[SeatRow],
                      game: Game) -> tuple[float, str]:
        seat = next(s for s in seats if s.seat == game.to_play)
        if seat.is_computer or seat.autoplay:
            return self.clock() + self.computer_pace, "computer"
        return self.clock() + chat.turn_limit, "turn"

    def _turn_event(self, chat: ChatRow, row: GameRow, game: Game) -> ev.TurnStarted:
        seat = next(s for s in row.seats if s.seat == game.to_play)
        player_id = None if seat.is_computer else seat.player_id
        return ev.TurnStarted(**self._base(row, chat), version=game.version, seat=seat.seat,
                              player_id=player_id, name=seat_name(seat, row.seats),
                              deadline=row.deadline if row.deadline_kind == "turn" else None)

    async def set_autoplay(self, game_id: int, user: UserRef, on: bool) -> None:
        """Hand one's seat to the computer, or take it back."""
        player = await self.store.find_player(user.platform, user.key)
        async with self._lock(game_id):
            row, game = await self._load(game_id)
            if row.status != "running" or game is None:
                raise Refused(Reason.GAME_OVER)
            seat = next((s for s in row.seats if player and s.player_id == player.id), None)
            if seat is None:
                raise Refused(Reason.NOT_IN_GAME)
            await self.store.set_seat_flags(game_id, seat.seat, autoplay=on, timeouts=0)
            seats = tuple(dataclasses.replace(s, autoplay=on, timeouts=0) if s is seat else s
                          for s in row.seats)
            chat = await self._chat_row(row.chat_id)
            deadline, kind = row.deadline, row.deadline_kind
            if game.to_play == seat.seat:
                deadline, kind = self._deadline_for(chat, seats, game)
                await self.store.set_deadline(game_id, game.version, deadline, kind)
            row = dataclasses.replace(row, seats=seats, deadline=deadline, deadline_kind=kind,
                                      warned=False)
            self._cache[game_id] = (row, game)
        self._timer_set(row.deadline, row.deadline_kind, row.warned)
        await self._publish([ev.SeatAutoplay(**self._base(row, chat), seat=seat.seat,
                                             player_id=seat.player_id, name=seat_name(seat, row.seats),
                                             on=on)])

    # ---- timers and computer players --------------------------------------------

    def _due(self, deadline: float, kind: str | None, warned: bool) -> float:
        """When the timer loop has something to do about one deadline: warn or act."""
        if kind == "turn" and not warned and self.warn_before:
            return deadline - self.warn_before
        return deadline

    def _timer_set(self, deadline: float | None, kind: str | None, warned: bool) -> None:
        """Wake the timer loop if a deadline just set falls before the time it sleeps to.

        Most moves push their game's deadline later, so most moves leave it asleep."""
        if deadline is None:
            return
        if self._sleeping_until is None or self._due(deadline, kind, warned) < self._sleeping_until:
            self._wake.set()

    async def next_due(self) -> float | None:
        """When `run_due` next has something to do (None: nothing scheduled)."""
        soonest = None
        for _, deadline, kind, warned, _ in await self.store.running_deadlines():
            due = self._due(deadline, kind, warned)
            soonest = due if soonest is None else min(soonest, due)
        return soonest

    async def run_due(self) -> int:
        """Warn, time out and play computer seats whose time has come; returns actions taken.

        Games due together are handled together: a computer thinking in one game
        does not hold up the others, and one game's failure does not stop them (it
        is raised once the others are done, and the timer loop tries it again later)."""
        now = self.clock()
        actions: list[Awaitable[int]] = []
        for game_id, deadline, kind, warned, version in await self.store.running_deadlines():
            if now >= deadline:
                actions.append(self._act(game_id, version))
            elif kind == "turn" and not warned and self.warn_before and \
                    now >= deadline - self.warn_before:
                actions.append(self._warn(game_id, version, deadline))
        done = 0
        failed: Exception | None = None
        for outcome in await asyncio.gather(*actions, return_exceptions=True):
            if isinstance(outcome, Exception):
                failed = failed or outcome
            elif isinstance(outcome, BaseException):
                raise outcome
            else:
                done += outcome
        if failed is not None:
            raise failed
        return done

    async def _warn(self, game_id: int, version: int, deadline: float) -> int:
        async with self._lock(game_id):
            row, game = await self._load(game_id)
            if game is None or row.version != version or row.warned:
                return 0
            await self.store.set_deadline(game_id, version, deadline, "turn", warned=True)
            self._cache[game_id] = (dataclasses.replace(row, warned=True), game)
            chat = await self._chat_row(row.chat_id)
            seat = next(s for s in row.seats if s.seat == game.to_play)
            event = ev.TurnWarning(**self._base(row, chat), seat=seat.seat, player_id=seat.player_id,
                                   name=seat_name(seat, row.seats),
                                   seconds_left=max(0, round(deadline - self.clock())))
        await self._publish([event])
        return 1

    async def _act(self, game_id: int, version: int) -> int:
        async with self._lock(game_id):
            row, game = await self._load(game_id)
            if game is None or row.status != "running" or row.version != version:
                return 0
            if row.deadline is None or self.clock() < row.deadline:
                return 0
            seat = next(s for s in row.seats if s.seat == game.to_play)
            computer = seat.is_computer or seat.autoplay
            level = seat.computer_level if seat.is_computer and seat.computer_level else \
                self.timeout_level
            view = game.view(seat.seat)
            move = await self.think(self.chooser, level, view, f"{row.seed}/{game.version}")
            chat = await self._chat_row(row.chat_id)
            try:
                events, _, _ = await self._commit(chat, row, game, seat, move, by_computer=True,
                                                  timed_out=not computer,
                                                  fuori=computer and declaring_wins(game, move))
            except Refused:
                log.exception("computer move %s refused in game %s", move, game_id)
                return 0
        await self._publish(events)
        return 1

    async def run_forever(self) -> None:
        """Drive timers and computer players until cancelled."""
        while True:
            self._wake.clear()
            try:
                await self.run_due()
                due = await self.next_due()
            except Exception:
                log.exception("timer loop failed; retrying")
                due = self.clock() + 1.0
            wait = _IDLE_POLL if due is None else max(0.0, min(_IDLE_POLL, due - self.clock()))
            self._sleeping_until = self.clock() + wait
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a
            # cancellation that arrives as the wake-up does, and the loop never stops.
            try:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(wait):
                        await self._wake.wait()
            finally:
                self._sleeping_until = None

    # ---- views and queries ----------------------------------------------------

    async def table(self, game_id: int) -> TableView:
        row, game = await self._load(game_id)
        if game is None:
            raise Refused(Reason.NOT_IN_LOBBY)
        return self._table(row, game)

    async def hand(self, game_id: int, user: UserRef) -> HandView:
        player = await self._known_player(user)
        row, game = await self._load(game_id)
        seat = next((s for s in row.seats if player and s.player_id == player.id), None)
        if seat is None:
            raise Refused(Reason.NOT_IN_GAME)
        if game is None:
            raise Refused(Reason.NOT_IN_LOBBY)
        return hand_view(row, game, seat.seat)

    async def game_row(self, game_id: int) -> GameRow:
        row, _ = await self._load(game_id)
        return row

    async def open_game_id(self, chat_ref: ChatRef) -> int | None:
        chat = await self.chat(chat_ref)
        row = await self.store.open_game(chat.id)
        return row.id if row else None

    async def games_of(self, user: UserRef) -> list[GameRow]:
        player = await self.store.find_player(user.platform, user.key)
        return await self.store.open_games_of_player(player.id) if player else []

    async def seat_players(self, game_id: int) -> list[tuple[int, PlayerRow | None]]:
        row, _ = await self._load(game_id)
        return [(s.seat, s.player if not s.is_computer else None) for s in row.seats]

    async def leaderboard(self, chat_ref: ChatRef | None, ladder: str | None = None,
                          limit: int = 10) -> list[LeaderboardRow]:
        chat_id = (await self.chat(chat_ref)).id if chat_ref else None
        return await self.store.leaderboard(chat_id, ladder, limit)

    async def stats(self, user: UserRef) -> dict[str, Any]:
        player = await self.player(user)
        return await self.store.player_stats(player.id)

    async def recent(self, chat_ref: ChatRef, limit: int = 5) -> list[MatchSummary]:
        chat = await self.chat(chat_ref)
        return await self.store.recent_matches(chat.id, limit)

    # ---- settings ---------------------------------------------------------------

    async def set_chat_language(self, chat_ref: ChatRef, language: str) -> ChatRow:
        if language not in LANGUAGES:
            raise Refused(Reason.BAD_OPTION, detail=language)
        chat = await self.chat(chat_ref)
        row = await self.store.update_chat(chat.id, language=language)
        self._chats[row.id] = row
        return row

    async def set_turn_limit(self, chat_ref: ChatRef, seconds: Any) -> ChatRow:
        try:
            value = int(seconds)
        except (TypeError, ValueError):
            raise Refused(Reason.BAD_OPTION, detail=str(seconds)) from None
        low, high = TURN_LIMIT_BOUNDS
        if not low <= value <= high:
            raise Refused(Reason.BAD_OPTION, detail=str(seconds))
        chat = await self.chat(chat_ref)
        row = await self.store.update_chat(chat.id, turn_limit=value)
        self._chats[row.id] = row
        return row

    async def set_chat_defaults(self, chat_ref: ChatRef, defaults: dict[str, Any]) -> ChatRow:
        variant = defaults.get("variant", "scopa")
        try:
            rule_options = {k: v for k, v in defaults.items()
                            if k not in ("variant", "players", "teams", "deck_style")}
            Rules.from_options(variant, rule_options)
        except EngineError as exc:
            raise Refused(Reason.BAD_OPTION, detail=str(exc)) from None
        chat = await self.chat(chat_ref)
        row = await self.store.update_chat(chat.id, defaults=defaults)
        self._chats[row.id] = row
        return row

    async def set_player_language(self, user: UserRef, language: str) -> None:
        if language not in LANGUAGES:
            raise Refused(Reason.BAD_OPTION, detail=language)
        player = await self.player(user)
        await self.store.update_player(player.id, language=language)
        self._players.pop((user.platform, user.key), None)

    async def set_can_dm(self, user: UserRef, can_dm: bool) -> None:
        player = await self.player(user)
        await self.store.update_player(player.id, can_dm=can_dm)
        self._players.pop((user.platform, user.key), None)

    async def set_dm_pings(self, user: UserRef, on: bool) -> None:
        player = await self.player(user)
        await self.store.update_player(player.id, dm_pings=on)
        self._players.pop((user.platform, user.key), None)


def _moved(row: GameRow, version: int, status: str, deadline: float | None, kind: str | None,
           seats: tuple[SeatRow, ...], state: dict[str, Any] | None) -> GameRow:
    """`row` after a committed move (what `dataclasses.replace` gives, without its cost)."""
    return GameRow(row.id, row.chat_id, row.creator_id, row.variant, row.options, row.players,
                   row.teams, row.deck_style, status, row.state if state is None else state,
                   version, row.seed, deadline, kind, False, row.created_at, row.updated_at,
                   row.finished_at, seats)


def _flag(value: Any) -> bool:
    return value if isinstance(value, bool) else str(value).lower() in ("1", "true", "on", "yes")


def _team_count(value: Any) -> int:
    """A lobby's `teams` option (`TEAMS_VALUES`, or a flag for two teams) as a number of teams."""
    if str(value).lower() in ("three", "3"):
        return 3
    return 2 if _flag(value) else 0


def _seating(variant: str, players: int, teams: int) -> Seating:
    return Seating.make(variant, players, teams > 0, teams or None)


def _fitting_teams(variant: str, players: int, teams: int) -> int:
    """`teams` if `players` can sit that way, else the most teams, up to that, they can form."""
    return max((count for count in Seating.team_counts(variant, players) if count <= teams),
               default=0)


def _teams_of(seating: Seating) -> int:
    """The teams as the rules seat them (scopone always in two, whatever was asked)."""
    return len(seating.sides) if seating.teams else 0


def _free_seat(row: GameRow) -> int | None:
    taken = {s.seat for s in row.seats}
    return next((i for i in range(row.players) if i not in taken), None)


def _changed_options(variant: Variant, rules: Rules) -> dict[str, Any]:
    """Only the options that differ from the variant's defaults are stored."""
    default = Rules.default(variant).to_dict()
    return {k: v for k, v in rules.to_dict().items() if default[k] != v}
