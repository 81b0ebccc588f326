"""A player's data, theirs: what the bot keeps about them (`/privacy`), all of it as a file
(`/mydata`), and erasing it (`/forgetme`, `scopa-bot erase`).

Erasing a player replaces what identifies them on their platform (their id, their name, their
settings, their private chats' ids and titles, their marks in the front-ends' notes) and keeps
what they played, under nobody's name: the boards keep their results as a former player's. Their
open games are settled in the same transaction: a lobby loses their seat (and closes if no one
else is left in it), a match with other people goes on with the computer in their seat, a match
of theirs alone (against the computer, or in their private chat) is cancelled. It is one unit
of work: a kill at any moment leaves the player erased or untouched, and erasing again (or an
erased player) finds nothing to do.

Only the private chat may ask: the answers are about one person, and a group would read them.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from . import events as ev
from .context import Context, UseCase
from .games import base
from .holds import MessageHolds
from .play import Play
from .ports import ERASED_KEY, ERASED_NOTE, Erasure, SeatToComputer, StaleVersion
from .records import Change, ChatRow, GameCancel, GameStatus, LobbyChange, PlayerRow, SeatRow
from .refs import ChatRef, UserRef
from .views import chat_ref, seat_name

DATA_FORMAT = "scopa-mydata/1"
"""The first field of the file `/mydata` sends, naming its shape."""
TAKES_OVER = "medium"
"""The computer that plays an erased player's seat to the end of a match with others."""
CONFIRM_FOR = 600.0
"""Seconds a /forgetme button stays good: an older one asks for the command again."""
AGAIN_AFTER = (2.0, 10.0)
"""Seconds after an erasure when its games' notes are looked at again (`erase_later`)."""
TOLD_NOTE = "told:"
"""The note keeping a line owed to a chat after an erasure (`Erasure.told`)."""
TOLD_BY_ANY_AFTER = 10.0
"""Seconds after which any process tells a line still owed (its own process died first)."""
TRACED_FOR = 120.0
"""Seconds the games an erasure touched are looked at again (`traces`)."""
ATTEMPTS = 5
"""Tries of an erasure whose games move on meanwhile (a move between the look and the write)."""


class Outcome(StrEnum):
    """What an erasure did to one open game."""

    LEFT_LOBBY = "left_lobby"
    LOBBY_CLOSED = "lobby_closed"
    HANDED_OVER = "handed_over"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class Settled:
    """One open game of the erased player, and what became of it. `chat` is where the others
    should be told (None for a game in the player's private chat, whom nobody else sees);
    `name`, the player's name as the others knew it; `computer`, who now plays their seat."""

    game_id: int
    outcome: Outcome
    chat: ChatRef | None
    name: str
    computer: str = ""


@dataclass(frozen=True, slots=True)
class Forgotten:
    """An erasure done: the player's row (kept, anonymous) and their open games' fates."""

    player_id: int
    games: tuple[Settled, ...]
    erasure: Erasure | None = None
    """What was written, kept in memory for `erase_again` alone."""


@dataclass(frozen=True, slots=True)
class Trace:
    """A game an erasure touched lately, and the user keys of the people seated in it now."""

    game_id: int
    people: frozenset[str]


@dataclass(frozen=True, slots=True)
class Told:
    """A line owed to the chat of a game an erasure touched: what became of the game there,
    who plays the seat now, and the player's name where it is still known ('' after a restart)."""

    game_id: int
    key: str
    outcome: Outcome
    chat: ChatRef
    computer: str
    name: str = ""


class ConfirmCheck(StrEnum):
    """How a tap on a /forgetme button is taken."""

    GOOD = "good"
    NOT_YOURS = "not_yours"
    EXPIRED = "expired"


def confirm_token(user_key: str, now: float) -> str:
    """What a /forgetme button carries: whose it is and when it was offered."""
    return f"{user_key}.{int(now)}"


def check_confirm(token: str, user_key: str, now: float) -> ConfirmCheck:
    """Only the player it was offered to may confirm, and only for `CONFIRM_FOR` seconds; a
    button the bot never made is not theirs either."""
    key, dot, issued = token.rpartition(".")
    if not dot or key != user_key or not issued.isdigit():
        return ConfirmCheck.NOT_YOURS
    if not 0 <= now - int(issued) <= CONFIRM_FOR:
        return ConfirmCheck.EXPIRED
    return ConfirmCheck.GOOD


class Privacy(UseCase):
    def __init__(self, context: Context, play: Play, holds: MessageHolds) -> None:
        super().__init__(context)
        self.play, self.holds = play, holds

    async def my_data(self, user: UserRef) -> dict[str, Any] | None:
        """Everything kept about `user` (`PlayerData.player_data`) with their private chats, as
        one JSON object; None when nothing is (never seen, or erased)."""
        player = await self.store.find_player(user.platform, user.key)
        if player is None or player.is_computer:
            return None
        data = await self.store.player_data(player.id)
        chats = [{"id": c.id, "platform": c.platform, "chat_id": c.chat_key, "title": c.title,
                  "language": c.language} for c in await self.store.private_chats(player.id)]
        return {"format": DATA_FORMAT, **data, "private_chats": chats}

    @staticmethod
    def as_file(data: dict[str, Any]) -> bytes:
        return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=False).encode()

    async def forget(self, platform: str, user_key: str, home: ChatRef | None = None) -> Forgotten | None:
        """Erase the player `user_key` of `platform` (see the module); `home`, the private chat
        they asked in. None when nothing is kept about them (already erased: nothing changes)."""
        for attempt in range(ATTEMPTS):
            player = await self.store.find_player(platform, user_key)
            if player is None or player.is_computer:
                return None
            chats = await self.store.private_chats(player.id)
            if home is not None and home.platform == platform:
                own = await self.directory.chat(home)
                chats = [*chats, own] if all(c.id != own.id for c in chats) else chats
            try:
                erasure, settled, deadlines = await self._erasure(player, chats)
                async with self.store.unit() as uow:
                    uow.add(erasure)
            except StaleVersion:
                for game_id in await self._open_game_ids(player, chats):
                    self.games.forget(game_id)
                if attempt == ATTEMPTS - 1:
                    raise
                continue
            for chat in chats:
                self.directory.chat_forgotten(chat.id)
            self.directory.player_changed(UserRef(platform, user_key, ""))
            for item in settled:
                self.games.forget(item.game_id)
            for deadline in deadlines:
                self.alarm.set(*deadline)
            await self._tell(settled)
            return Forgotten(player.id, tuple(settled), erasure)
        return None

    async def erase_again(self, forgotten: Forgotten) -> None:
        """The notes of an erasure's games looked at once more: a drawing under way when the
        player was erased (their hand, sent just then) may have noted them since."""
        if forgotten.erasure is not None:
            async with self.store.unit() as uow:
                uow.add(dataclasses.replace(forgotten.erasure, games=(), seats=(), asked=None, told=()))

    async def erase_later(self, forgotten: Forgotten, after: tuple[float, ...] = AGAIN_AFTER) -> None:
        """`erase_again` after each of `after` seconds (a front-end runs it beside its answer)."""
        for seconds in after:
            await asyncio.sleep(seconds)
            with contextlib.suppress(StaleVersion):
                await self.erase_again(forgotten)

    async def traces(self, platform: str) -> list[Trace]:
        """The games of `platform` erasures touched in the last `TRACED_FOR` seconds, each with
        the keys of its people now, for the front-end to drop its notes of anyone else (one
        erased while a drawing was under way, maybe in a process killed since); older marks
        are dropped."""
        found: list[Trace] = []
        for game_id, key, value in await self.store.refs_with_prefix(ERASED_NOTE):
            if self.clock() - float(value) > TRACED_FOR:
                await self.store.set_ref(game_id, key, None)
                continue
            row = await self.store.get_game(game_id)
            if row is None or (await self.directory.chat_row(row.chat_id)).platform != platform:
                continue
            people = frozenset(s.player.user_key for s in row.seats
                               if s.player is not None and not s.player.is_computer)
            if all(t.game_id != game_id for t in found):
                found.append(Trace(game_id, people))
        return found

    def told_of(self, forgotten: Forgotten) -> list[Told]:
        """The lines `forgotten` owes the others' chats, with the player's name (this process
        knows it still; a restarted one tells them without, `owed_told`)."""
        return [Told(s.game_id, f"{TOLD_NOTE}{forgotten.player_id}", s.outcome, s.chat, s.computer, s.name)
                for s in forgotten.games if s.chat is not None]

    async def owed_told(self, platform: str) -> list[Told]:
        """The lines still owed to `platform`'s chats `TOLD_BY_ANY_AFTER` seconds after their
        erasure (whose process died before it told them), without the name nobody keeps."""
        owed = []
        for game_id, key, value in await self.store.refs_with_prefix(TOLD_NOTE):
            note = json.loads(value)
            if self.clock() - float(note["at"]) < TOLD_BY_ANY_AFTER:
                continue
            row = await self.store.get_game(game_id)
            chat = None if row is None else await self.directory.chat_row(row.chat_id)
            if row is None or chat is None or chat.platform != platform:
                continue
            where = dataclasses.replace(chat_ref(chat), thread=row.thread or None)
            owed.append(Told(game_id, key, Outcome(note["outcome"]), where, note["computer"]))
        return owed

    async def tell(self, told: Told, post: Callable[[], Awaitable[bool]]) -> bool:
        """`post()` the line if it is still owed, one process at a time; once `post` says it
        reached the chat (or the chat refuses the bot for good) it is owed no more. True if
        this call posted it."""
        posted = False

        async def posting(first: bool) -> None:
            nonlocal posted
            if told.key not in await self.store.get_refs(told.game_id):
                return
            posted = True
            if await post():
                await self.store.set_ref(told.game_id, told.key, None)

        await self.holds.draw(told.game_id, told.key, posting)
        return posted

    async def ask(self, platform: str, user_key: str) -> None:
        """Ask the running bot to erase the player (`scopa-bot erase`): it knows their games in
        memory and tells their chats; `serve_asked` makes it."""
        await self.store.ask_erasure(platform, user_key, self.clock())

    async def asked(self, platform: str, user_key: str) -> bool:
        """Whether that erasure is asked for and not yet made."""
        return user_key in await self.store.erasures_asked(platform)

    async def serve_asked(self, platform: str) -> list[Forgotten]:
        """Make the erasures asked for on `platform`; what each did (none for a player with
        nothing kept, whose request is dropped)."""
        done = []
        for user_key in await self.store.erasures_asked(platform):
            forgotten = await self.forget(platform, user_key)
            if forgotten is None:
                await self.store.drop_erasure(platform, user_key)
            else:
                done.append(forgotten)
        return done

    async def _open_game_ids(self, player: PlayerRow, chats: list[ChatRow]) -> list[int]:
        rows = await self.store.open_games_of_player(player.id)
        for chat in chats:
            row = await self.store.open_game(chat.id)
            if row is not None and all(row.id != other.id for other in rows):
                rows.append(row)
        return [row.id for row in rows]

    async def _erasure(self, player: PlayerRow, chats: list[ChatRow]
                       ) -> tuple[Erasure, list[Settled], list[tuple[float, Any, bool]]]:
        private = {c.id for c in chats}
        changes: list[Change] = []
        seats: list[SeatToComputer] = []
        settled: list[Settled] = []
        deadlines: list[tuple[float, Any, bool]] = []
        for game_id in await self._open_game_ids(player, chats):
            row = await self.games.row(game_id)
            chat = await self.directory.chat_row(row.chat_id)
            mine = next((s for s in row.seats if s.player_id == player.id), None)
            name = seat_name(mine, row.seats) if mine is not None else player.display_name
            where = None if row.chat_id in private else dataclasses.replace(chat_ref(chat),
                                                                            thread=row.thread or None)
            others = [s for s in row.seats if s.player_id != player.id and not s.is_computer]
            if row.status == GameStatus.LOBBY:
                if row.chat_id in private or not others:
                    changes.append(GameCancel(row.id, GameStatus.LOBBY, row.version))
                    settled.append(Settled(row.id, Outcome.LOBBY_CLOSED, where, name))
                else:
                    changes.append(LobbyChange(row.id, row.version, seats=tuple(
                        s for s in row.seats if s.player_id != player.id)))
                    settled.append(Settled(row.id, Outcome.LEFT_LOBBY, where, name))
                continue
            if row.status != GameStatus.RUNNING:
                continue
            row, game = await self.games.load(game_id)
            if row.chat_id in private or not others or game is None or mine is None:
                changes.append(GameCancel(row.id, GameStatus.RUNNING, row.version))
                settled.append(Settled(row.id, Outcome.CANCELLED, where, name))
                continue
            computer = await self.store.ensure_player("computer", TAKES_OVER, f"Computer {TAKES_OVER}",
                                                      is_computer=True)
            taken = SeatRow(mine.seat, computer.id, TAKES_OVER, True, 0, False, computer)
            now_seats = tuple(taken if s.seat == mine.seat else s for s in row.seats)
            turn = game.to_play == mine.seat
            deadline, kind = row.deadline, row.deadline_kind
            if turn:
                deadline, kind = self.play.deadline_for(chat, now_seats, game, await self.play.day_over(row))
                deadlines.append((deadline, kind, False))
            seats.append(SeatToComputer(row.id, game.version, mine.seat, computer.id, TAKES_OVER,
                                        deadline, kind, turn))
            settled.append(Settled(row.id, Outcome.HANDED_OVER, where, name,
                                   seat_name(taken, now_seats)))
        marks = tuple(dict.fromkeys(m for m in (player.user_key, *(c.chat_key for c in chats))
                                    if not m.startswith(ERASED_KEY)))
        names = tuple(dict.fromkeys((player.display_name, *(c.title for c in chats if c.title))))
        told = tuple((s.game_id, f"{TOLD_NOTE}{player.id}", json.dumps(
            {"outcome": s.outcome.value, "computer": s.computer, "at": self.clock()}, ensure_ascii=False))
            for s in settled if s.chat is not None)
        return (Erasure(player.id, marks, names, tuple(c.id for c in chats), tuple(changes), tuple(seats),
                        (player.platform, player.user_key), tuple(s.game_id for s in settled),
                        self.clock(), told),
                settled, deadlines)

    async def _tell(self, settled: list[Settled]) -> None:
        """The events that redraw what the others see: their lobby without the player, a
        cancelled game as cancelled by nobody. A match handed over redraws at its next move."""
        events: list[ev.Event] = []
        for item in settled:
            if item.chat is None:
                continue
            row = await self.games.row(item.game_id)
            chat = await self.directory.chat_row(row.chat_id)
            if item.outcome is Outcome.LEFT_LOBBY:
                events.append(ev.LobbyUpdated(**base(row, chat)))
            elif item.outcome in (Outcome.LOBBY_CLOSED, Outcome.CANCELLED):
                events.append(ev.GameCancelled(**base(row, chat), by=""))
        if events:
            await self.bus.publish(events)


__all__ = ["CONFIRM_FOR", "DATA_FORMAT", "ConfirmCheck", "Forgotten", "Outcome", "Privacy", "Settled",
           "Told", "check_confirm", "confirm_token"]
