"""What the Telegram front-end notes about its own messages of a game, kept with the game's
message references so that every process (and a restart) draws them alike: the choice a
player's hand shows, the turn their phone last rang for, the lobby's open menu and the plays the
group's table last told. The game's facts (who cancelled it, whose cards the timer played) are
the sessions' views', never noted here."""

from __future__ import annotations

import asyncio

from ...sessions.interaction import PLAIN, HandMode, HandPrompt
from .refbook import RefBook

MENU_REF = "menu"
"""The lobby's open menu (none: the main one)."""
TABLE_SEEN_REF = "table_seen"
"""How far the table drawing the group saw last told the match's plays: `from to`, the plays
after the first `from` and up to the `to`-th (`recap`)."""
MAIN_MENU = "main"


def prompt_ref(user_key: str) -> str:
    return f"prompt:{user_key}"


def rung_ref(user_key: str) -> str:
    """The version at which the player's phone last rang for their turn."""
    return f"rung:{user_key}"


def parse_prompt(value: str | None, version: int) -> HandPrompt:
    """The prompt kept as `version:mode:card`; plain when it was drawn for another version."""
    if not value:
        return PLAIN
    drawn, _, rest = value.partition(":")
    mode, _, card = rest.partition(":")
    if drawn != str(version) or mode not in HandMode._value2member_map_:
        return PLAIN
    return HandPrompt(HandMode(mode), card or None)


class Menus:
    """Which menu each lobby shows (`menus[game_id] = "options"`), kept with the game: a lobby
    redrawn by another process shows the menu its creator opened. A menu set here is written
    in the background; until it is written, this process draws it from here (at once: the
    tap's redraw must not wait for the write)."""

    def __init__(self, refs: RefBook) -> None:
        self.refs = refs
        self._writes: dict[int, asyncio.Task[None]] = {}
        self._writing: dict[int, str | None] = {}

    def __setitem__(self, game_id: int, menu: str) -> None:
        self._write(game_id, None if menu == MAIN_MENU else menu)

    def pop(self, game_id: int, default: object = None) -> None:
        self._write(game_id, None)

    def _write(self, game_id: int, menu: str | None) -> None:
        before = self._writes.get(game_id)

        async def write() -> None:
            if before is not None:
                await asyncio.gather(before, return_exceptions=True)
            await self.refs.set(game_id, MENU_REF, menu)

        task = asyncio.ensure_future(write())
        self._writes[game_id] = task
        self._writing[game_id] = menu

        def done(finished: asyncio.Task[None]) -> None:
            if self._writes.get(game_id) is finished:
                del self._writes[game_id]
                del self._writing[game_id]

        task.add_done_callback(done)

    async def written(self, game_id: int) -> None:
        """Once what was set here for the game is in the store."""
        pending = self._writes.get(game_id)
        if pending is not None:
            await asyncio.gather(pending, return_exceptions=True)

    async def shown(self, game_id: int) -> str:
        if game_id in self._writing:
            return self._writing[game_id] or MAIN_MENU
        return await self.refs.get(game_id, MENU_REF) or MAIN_MENU


class GameNotes:
    def __init__(self, refs: RefBook) -> None:
        self.refs = refs
        self.menus = Menus(refs)

    async def prompt(self, game_id: int, user_key: str, version: int) -> HandPrompt:
        """What the player's hand shows at `version` (`prompt:<user>` = `version:mode:card`), so
        that a restart, or another process, still shows a choice of captures."""
        return parse_prompt(await self.refs.get(game_id, prompt_ref(user_key)), version)

    async def set_prompt(self, game_id: int, user_key: str, version: int, prompt: HandPrompt) -> None:
        key = prompt_ref(user_key)
        if prompt == PLAIN:
            if await self.refs.get(game_id, key) is not None:
                await self.refs.set(game_id, key, None)
            return
        await self.refs.set(game_id, key, f"{version}:{prompt.mode.value}:{prompt.card or ''}")

    async def rings(self, game_id: int, user_key: str, version: int) -> bool:
        """Whether the player's turn at `version` still has to ring their phone; it rings once.

        Telegram rings a phone for a new message and never for an edit: the hand of the
        player to move is sent anew at the bottom of their chat (the old one deleted), every
        other drawing is an edit. Capture choices, refusals and redraws keep the version, so
        they ring nobody; the version rung is kept with the game, so a restart rings no one
        twice either."""
        key = rung_ref(user_key)
        if await self.refs.get(game_id, key) == str(version):
            return False
        await self.refs.set(game_id, key, str(version))
        return True

    async def table_seen(self, game_id: int) -> tuple[int, int] | None:
        """The plays the table drawing the group saw last told (`TABLE_SEEN_REF`): after the
        first `from`, up to the `to`-th; None before the first drawing of the match (which tells
        every play made before it)."""
        value = await self.refs.get(game_id, TABLE_SEEN_REF)
        try:
            start, _, end = (value or "").partition(" ")
            return int(start), int(end)
        except ValueError:
            return None
