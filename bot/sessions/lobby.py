"""The lobby: opening a game, seats, options, starting, a rematch, cancelling."""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from ..ai import LEVELS
from ..engine import Game, InvalidInputError, Rules, dump_game, record_line
from ..engine.rules import Variant, parse_variant
from . import events as ev
from .context import Context, UseCase
from .games import base, manages, rules_of
from .lobby_options import option_change
from .options import DECK_STYLES, DEFAULT_PLAYERS, default_deck, variant_named
from .play import Play
from .ports import OpenGameExists, StaleVersion
from .records import (
    Change,
    ChatRow,
    GameCancel,
    GameRow,
    GameStart,
    GameStatus,
    LobbyChange,
    NewGame,
    PlayerRow,
    SeatRow,
)
from .refs import ChatRef, UserRef
from .refusals import Reason, Refused
from .seats import (
    changed_options,
    drawn_seats,
    free_seat,
    options_text,
    partner_seat,
    seating,
    team_count,
    teams_of,
)
from .views import CANCELLED_BY, PICTURES, LobbyView, TableView, lobby_view, seat_name, table_view
from .views import rule_options as rules_kept

"""The lobby's `teams` option by number of teams, as buttons and menus send it."""
LOBBY_IDLE = 30 * 60
"""Seconds after its last change (a seat, an option) when a lobby gives way to a new /newgame."""
WAITING_SEAT = 3 * 60
"""Seconds a player who pressed Join but never opened the private chat holds their seat; after
that the next change to the lobby (a Join, a Start...) frees it, so nobody keeps a lobby from
starting. The creator's own seat is never freed: they only keep themselves waiting."""
LobbyWrite = LobbyChange | GameCancel
"""What a change to a lobby writes: the lobby as it becomes, or its end (the last person left)."""


class Lobby(UseCase):
    def __init__(self, context: Context, play: Play) -> None:
        super().__init__(context)
        self.play = play

    async def new_game(self, chat_ref: ChatRef, user: UserRef, variant: str | None = None,
                       options: dict[str, Any] | None = None, *, ready: bool = True,
                       seed: str | None = None) -> LobbyView:
        """Open a lobby with its creator in seat 1; `ready=False` as for `join`; `seed` deals
        a chosen board (a duplicate tournament's) instead of a fresh one.

        `options` may hold rule options and the table's layout (`players`,
        `teams`, `deck_style`); they override the chat's defaults.
        """
        chat = await self.directory.chat(chat_ref, user.language)
        player = await self.directory.player(user)
        defaults = dict(chat.defaults)
        defaults.pop(PICTURES, None)
        if variant:
            chosen = Variant(variant_named(variant))
        else:
            try:
                chosen = parse_variant(defaults.pop("variant", None) or "scopa")
            except InvalidInputError as exc:
                raise Refused(Reason.BAD_OPTION, detail=str(exc)) from None
        if variant and chosen.value != defaults.get("variant"):
            defaults = {}
        defaults.pop("variant", None)
        rule_options = {**defaults, **(options or {})}
        try:
            players = int(rule_options.pop("players", DEFAULT_PLAYERS[chosen.value]))
            teams = team_count(rule_options.pop("teams", chosen in (Variant.SCOPONE,
                                                                      Variant.SCOPONE_SCIENTIFICO)))
            deck_style = str(rule_options.pop("deck_style", default_deck(chosen.value, chat.language)))
            if deck_style not in DECK_STYLES:
                raise InvalidInputError(f"unknown deck style {deck_style!r}")
            rules = Rules.from_options(chosen, rule_options)
            teams = teams_of(seating(chosen.value, players, teams))
        except (InvalidInputError, ValueError) as exc:
            raise Refused(Reason.BAD_OPTION, detail=str(exc), asked=options_text(options or {})) from None
        stored_options = changed_options(chosen, rules)
        new = NewGame(chat.id, player.id, chosen.value, stored_options, players, teams, deck_style,
                      seed or secrets.token_hex(8), chat_ref.place,
                      (SeatRow(0, player.id, None, ready, 0, False),))
        try:
            row = await self._create(new)
        except OpenGameExists as exc:
            idle = await self._idle_lobby(exc.game_id)
            if idle is None:
                raise Refused(Reason.GAME_OPEN, game_id=exc.game_id) from None
            try:
                row = await self._create(new, GameCancel(idle.id, GameStatus.LOBBY, idle.version))
            except (OpenGameExists, StaleVersion):
                raise Refused(Reason.GAME_OPEN, game_id=exc.game_id) from None
            self.games.forget(idle.id)
            await self.bus.publish([ev.GameCancelled(**base(idle, chat), by="")])
        await self.bus.publish([ev.LobbyUpdated(**base(row, chat))])
        return lobby_view(row, rules, chat.turn_limit)

    async def _create(self, new: NewGame, *first: Change) -> GameRow:
        """Open the lobby `new` after `first` (the idle lobby it replaces), in one unit of work."""
        async with self.store.unit() as uow:
            for change in first:
                uow.add(change)
            uow.add(new)
        assert uow.created is not None
        return await self.games.row(uow.created)

    async def _idle_lobby(self, game_id: int) -> GameRow | None:
        """The chat's open game if it is a lobby nobody has touched for LOBBY_IDLE seconds
        (to be closed, so that a creator who went away does not keep the chat from playing)."""
        row = await self.store.get_game(game_id)
        if row is None or row.status != GameStatus.LOBBY or self.clock() - row.updated_at < LOBBY_IDLE:
            return None
        return row

    async def _write(self, *changes: Change) -> None:
        """Write `changes` in one unit of work; a lost race (the game moved on meanwhile, maybe
        by another process) is refused with why, and changes nothing."""
        try:
            async with self.store.unit() as uow:
                for change in changes:
                    uow.add(change)
        except StaleVersion:
            change = next(c for c in changes if isinstance(c, LobbyChange | GameStart | GameCancel))
            self.games.forget(change.game_id)
            now = await self.store.get_game(change.game_id)
            expected = change.expected_status if isinstance(change, GameCancel) else GameStatus.LOBBY
            if now is not None and now.status == expected:
                raise Refused(Reason.LOBBY_CHANGED) from None
            running = now is not None and now.status == GameStatus.RUNNING
            raise Refused(Reason.NOT_IN_LOBBY if running else Reason.NO_GAME) from None

    async def lobby(self, chat_ref: ChatRef) -> LobbyView:
        chat, row = await self.games.open_row(chat_ref)
        return lobby_view(row, rules_of(row), chat.turn_limit)

    async def lobby_of(self, game_id: int) -> LobbyView:
        row = await self.store.get_game(game_id)
        if row is None:
            raise Refused(Reason.NO_GAME)
        chat = await self.directory.chat_row(row.chat_id)
        return lobby_view(row, rules_of(row), chat.turn_limit)

    async def _lobby_change(self, chat_ref: ChatRef, user: UserRef,
                            change: Callable[[ChatRow, GameRow, PlayerRow], Awaitable[LobbyWrite]],
                            game_id: int | None = None) -> LobbyView:
        """Change the chat's lobby: `change` says how from the lobby as stored (its stale seats
        freed) and who asks, and its write is checked against the version it was read at."""
        chat = await self.directory.chat(chat_ref)
        player = await self.directory.player(user)
        row = await self.store.open_game(chat.id, chat_ref.place)
        if row is None or (game_id is not None and row.id != game_id):
            raise Refused(Reason.NO_GAME if row is None else Reason.STALE)
        async with self.games.lock(row.id):
            row = await self.games.row(row.id)
            if row.status != GameStatus.LOBBY:
                raise Refused(Reason.NOT_IN_LOBBY)
            freed = self._without_stale_seats(row)
            try:
                write = await change(chat, freed or row, player)
            except Refused:
                if freed is not None and await self._save_freed(row, freed):
                    await self.bus.publish([ev.LobbyUpdated(**base(freed, chat))])
                raise
            if freed is not None and isinstance(write, LobbyChange) and write.seats is None:
                write = dataclasses.replace(write, seats=freed.seats)
            await self._write(write)
            row = await self.games.row(row.id)
        await self.bus.publish([ev.LobbyUpdated(**base(row, chat))])
        if row.status == GameStatus.CANCELLED:
            await self.bus.publish([ev.GameCancelled(**base(row, chat), by=player.display_name)])
        return lobby_view(row, rules_of(row), chat.turn_limit)

    async def may_manage(self, game_id: int, user: UserRef, is_admin: bool = False) -> bool:
        """Whether `user` may start, cancel or change game `game_id` (its creator, or an admin)."""
        if is_admin:
            return True
        row = await self.store.get_game(game_id)
        player = await self.directory.known_player(user.platform, user.key)
        return row is not None and player is not None and manages(row, player, False)

    async def join(self, chat_ref: ChatRef, user: UserRef, *, ready: bool = True,
                   game_id: int | None = None) -> LobbyView:
        async def change(chat: ChatRow, row: GameRow, player: PlayerRow) -> LobbyWrite:
            seats = list(row.seats)
            mine = next((s for s in seats if s.player_id == player.id), None)
            if mine is not None:
                if mine.ready or not ready:
                    raise Refused(Reason.ALREADY_JOINED)
                return LobbyChange(row.id, row.version, seats=tuple(
                    dataclasses.replace(s, ready=True, waiting_since=None) if s is mine else s
                    for s in seats))
            free = free_seat(row)
            if free is None:
                raise Refused(Reason.GAME_FULL)
            seats.append(SeatRow(free, player.id, None, ready, 0, False,
                                 waiting_since=None if ready else self.clock()))
            return LobbyChange(row.id, row.version, seats=tuple(sorted(seats, key=lambda s: s.seat)))

        return await self._lobby_change(chat_ref, user, change, game_id)

    async def confirm_seat(self, game_id: int, user: UserRef) -> LobbyView:
        """Mark the seat `user` took in lobby `game_id` as ready (the bot can now reach them).

        Only a seat taken in the chat itself is confirmed: whoever knows a game's number
        (they are sequential) cannot sit in the lobby of a chat they are not in."""
        row = await self.store.get_game(game_id)
        player = await self.directory.known_player(user.platform, user.key)
        if row is None or player is None or not any(s.player_id == player.id for s in row.seats):
            raise Refused(Reason.NOT_JOINED)
        if row.status != GameStatus.LOBBY:
            raise Refused(Reason.NOT_IN_LOBBY)
        chat = await self.directory.chat_row(row.chat_id)
        return await self.join(ChatRef(chat.platform, chat.chat_key, chat.title, thread=row.thread or None),
                               user, ready=True, game_id=game_id)

    async def leave(self, chat_ref: ChatRef, user: UserRef, *,
                    from_lobby: bool = False) -> LobbyView | TableView:
        """Leave the chat's open game: a seat in the lobby is freed; in a match the computer
        plays it from now on. `from_lobby` (the lobby's Leave button) leaves only a lobby: a
        button pressed after the start does not hand a seat over unasked."""
        chat = await self.directory.chat(chat_ref)
        player = await self.directory.player(user)
        row = await self.store.open_game(chat.id, chat_ref.place)
        if row is None:
            raise Refused(Reason.NO_GAME)
        if row.status == GameStatus.RUNNING and from_lobby:
            raise Refused(Reason.MATCH_STARTED)
        if row.status == GameStatus.RUNNING:
            seat = next((s for s in row.seats if s.player_id == player.id), None)
            if seat is None:
                raise Refused(Reason.NOT_IN_GAME)
            await self.play.set_autoplay(row.id, user, True)
            running, game = await self.games.load(row.id)
            assert game is not None
            return self.games.table(running, game)

        async def change(chat: ChatRow, row: GameRow, player: PlayerRow) -> LobbyWrite:
            seats = tuple(s for s in row.seats if s.player_id != player.id or s.computer_level)
            if len(seats) == len(row.seats):
                raise Refused(Reason.NOT_JOINED)
            if not any(not s.is_computer for s in seats):
                return GameCancel(row.id, GameStatus.LOBBY, row.version)
            return LobbyChange(row.id, row.version, seats=seats)

        return await self._lobby_change(chat_ref, user, change)

    async def add_computer(self, chat_ref: ChatRef, user: UserRef, level: str,
                           is_admin: bool = False) -> LobbyView:
        if level not in LEVELS:
            raise Refused(Reason.BAD_OPTION, detail=level)

        async def change(chat: ChatRow, row: GameRow, player: PlayerRow) -> LobbyWrite:
            seated = any(s.player_id == player.id for s in row.seats)
            if not seated and not manages(row, player, is_admin):
                raise Refused(Reason.NOT_ALLOWED)
            free = free_seat(row)
            if free is None:
                raise Refused(Reason.GAME_FULL)
            computer = await self.store.ensure_player("computer", level, f"Computer {level}",
                                                      is_computer=True)
            return LobbyChange(row.id, row.version, seats=tuple(sorted(
                [*row.seats, SeatRow(free, computer.id, level, True, 0, False)], key=lambda s: s.seat)))

        return await self._lobby_change(chat_ref, user, change)

    async def remove_computers(self, chat_ref: ChatRef, user: UserRef,
                               is_admin: bool = False) -> LobbyView:
        async def change(chat: ChatRow, row: GameRow, player: PlayerRow) -> LobbyWrite:
            if not manages(row, player, is_admin):
                raise Refused(Reason.NOT_ALLOWED)
            return LobbyChange(row.id, row.version, seats=tuple(s for s in row.seats if not s.computer_level))

        return await self._lobby_change(chat_ref, user, change)

    async def sit_with(self, chat_ref: ChatRef, user: UserRef, seat: int, version: int,
                       game_id: int | None = None) -> LobbyView:
        """In a team lobby, sit as the partner of whoever is in `seat` (`seats.partner_seat`), as the
        lobby was at `version`: a seated player moves only themselves; the player they swap
        with moves to their old seat."""
        async def change(chat: ChatRow, row: GameRow, player: PlayerRow) -> LobbyWrite:
            if row.version != version:
                raise Refused(Reason.STALE)
            mine = next((s for s in row.seats if s.player_id == player.id), None)
            if mine is None:
                raise Refused(Reason.NOT_JOINED)
            target = next((s for s in row.seats if s.seat == seat), None)
            if target is None or not row.teams or rules_of(row).federal:
                raise Refused(Reason.STALE)
            to = partner_seat(row, mine.seat, seat)
            if to is None:
                raise Refused(Reason.SAME_TEAM, name=seat_name(target, row.seats))
            moved = (dataclasses.replace(s, seat=to) if s is mine else
                     dataclasses.replace(s, seat=mine.seat) if s.seat == to else s for s in row.seats)
            return LobbyChange(row.id, row.version, seats=tuple(sorted(moved, key=lambda s: s.seat)))

        return await self._lobby_change(chat_ref, user, change, game_id)

    async def set_option(self, chat_ref: ChatRef, user: UserRef, key: str, value: Any,
                         is_admin: bool = False) -> LobbyView:
        async def change(chat: ChatRow, row: GameRow, player: PlayerRow) -> LobbyWrite:
            if not manages(row, player, is_admin):
                raise Refused(Reason.NOT_ALLOWED)
            return option_change(row, key, value, chat.language)

        return await self._lobby_change(chat_ref, user, change)

    async def start(self, chat_ref: ChatRef, user: UserRef, is_admin: bool = False) -> TableView:
        chat = await self.directory.chat(chat_ref)
        player = await self.directory.player(user)
        row = await self.store.open_game(chat.id, chat_ref.place)
        if row is None:
            raise Refused(Reason.NO_GAME)
        async with self.games.lock(row.id):
            stored = await self.games.row(row.id)
            if stored.status != GameStatus.LOBBY:
                raise Refused(Reason.NOT_IN_LOBBY)
            if not manages(stored, player, is_admin):
                raise Refused(Reason.NOT_ALLOWED)
            freed = self._without_stale_seats(stored)
            row = freed or stored
            try:
                if len(row.seats) < row.players:
                    raise Refused(Reason.SEATS_EMPTY, count=row.players - len(row.seats))
                waiting = [seat_name(s, row.seats) for s in row.seats if not s.ready]
                if waiting:
                    raise Refused(Reason.SEAT_WAITING, names=", ".join(waiting),
                                  minutes=WAITING_SEAT // 60)
            except Refused:
                if freed is not None and await self._save_freed(stored, freed):
                    await self.bus.publish([ev.LobbyUpdated(**base(freed, chat))])
                raise
            game = Game.new(row.variant, row.players, teams=row.teams > 0, sides=row.teams or None,
                            rules=rules_of(row), seed=row.seed, undo=False)
            seats = drawn_seats(row.seats, row.seed) if game.rules.federal else row.seats
            deadline, kind = self.play.deadline_for(chat, seats, game)
            await self._write(GameStart(row.id, row.version, dump_game(game), tuple(seats), deadline, kind))
            row = await self.games.row(row.id)
            self.games.keep(row, game)
        self.alarm.set(row.deadline, row.deadline_kind, row.warned)
        await self.bus.publish([ev.GameStarted(**base(row, chat)),
                             self.play.turn_event(chat, row, game)])
        return table_view(row, game)

    def _without_stale_seats(self, row: GameRow) -> GameRow | None:
        """The lobby without the seats held for WAITING_SEAT seconds by players the bot cannot
        reach (written with the change that finds them), or None when no seat is stale."""
        now = self.clock()
        stale = {s.player_id for s in row.seats if not s.ready and s.player_id != row.creator_id
                 and now - (s.waiting_since or row.updated_at) >= WAITING_SEAT}
        if not stale:
            return None
        return dataclasses.replace(row, seats=tuple(s for s in row.seats if s.player_id not in stale))

    async def _save_freed(self, row: GameRow, freed: GameRow) -> bool:
        """Free the stale seats alone (the change that found them was refused); False when the
        lobby moved on meanwhile, and whoever moved it frees them."""
        try:
            await self._write(LobbyChange(row.id, row.version, seats=freed.seats))
        except Refused:
            return False
        return True

    async def rematch(self, game_id: int, user: UserRef) -> LobbyView:
        """A new lobby with the same variant, options and seats as a finished game; never of a
        deal of the day, whose lobby would sit in a place of the player's alone, where nobody can
        press its buttons, and whose attempt is one a day."""
        old = await self.store.get_game(game_id)
        if old is None:
            raise Refused(Reason.NO_GAME)
        player = await self.directory.player(user)
        if old.status.open:
            raise Refused(Reason.GAME_OPEN, game_id=old.id)
        if await self.store.is_daily(old.id):
            raise Refused(Reason.DAILY_REMATCH)
        if not any(s.player_id == player.id for s in old.seats):
            raise Refused(Reason.NOT_IN_GAME)
        chat = await self.directory.chat_row(old.chat_id)
        seats = [dataclasses.replace(s, seat=(s.seat + 1) % old.players, timeouts=0, autoplay=False)
                 for s in old.seats]
        try:
            row = await self._create(NewGame(chat.id, player.id, old.variant, rules_kept(old), old.players,
                                             old.teams, old.deck_style, secrets.token_hex(8), old.thread,
                                             tuple(sorted(seats, key=lambda s: s.seat))))
        except OpenGameExists as exc:
            raise Refused(Reason.GAME_OPEN, game_id=exc.game_id) from None
        await self.bus.publish([ev.LobbyUpdated(**base(row, chat))])
        return lobby_view(row, rules_of(row), chat.turn_limit)

    async def cancel(self, chat_ref: ChatRef, user: UserRef, is_admin: bool = False) -> None:
        chat = await self.directory.chat(chat_ref)
        player = await self.directory.player(user)
        row = await self.store.open_game(chat.id, chat_ref.place)
        if row is None:
            raise Refused(Reason.NO_GAME)
        async with self.games.lock(row.id):
            if not manages(row, player, is_admin):
                raise Refused(Reason.NOT_ALLOWED)
            if not await self._cancel(await self.games.row(row.id), by=player.id):
                raise Refused(Reason.NO_GAME)
        await self.bus.publish([ev.GameCancelled(**base(row, chat), by=player.display_name)])

    async def abandon(self, chat_ref: ChatRef) -> int | None:
        """Stop the open game of `chat_ref`'s thread, which can no longer be shown there (a
        forum topic closed or deleted under it): as a cancel, keeping a running game's record,
        asked by nobody. The game's id, or None when the thread had no open game."""
        chat = await self.directory.chat(chat_ref)
        row = await self.store.open_game(chat.id, chat_ref.place)
        if row is None:
            return None
        async with self.games.lock(row.id):
            row = await self.store.get_game(row.id)
            try:
                if row is None or not await self._cancel(row):
                    return None
            except Refused:
                return None
        await self.bus.publish([ev.GameCancelled(**base(row, chat), by="")])
        return row.id

    async def _cancel(self, row: GameRow, by: int | None = None) -> bool:
        """Cancel the game as `row` shows it, with the record of a match under way; False when
        it is not open. A match is cancelled at the version its record was made at; who
        cancelled it (`by`, a player's id) is kept with its options (`views.CANCELLED_BY`)."""
        if not row.status.open:
            return False
        line = None
        if row.status == GameStatus.RUNNING and row.state:
            game = self.games.cached(row.id)
            if game is None or game.version != row.version:
                row, game = await self.games.stored_now(row)
            if game is not None:
                line = record_line(game)
        options = None if by is None else {**row.options, CANCELLED_BY: by}
        await self._write(GameCancel(row.id, row.status, row.version, line, options))
        self.games.forget(row.id)
        return True
