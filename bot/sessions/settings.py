"""A chat's settings (language, seconds per turn, pictures or text, a new game's defaults) and a
player's."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..engine import EngineError, Rules
from ..i18n import LANGUAGES
from .directory import Directory
from .games import Games
from .options import NO_CLOCK, TURN_LIMIT_BOUNDS
from .ports import GameStore
from .records import ChatChange, ChatMove
from .refs import ChatRef, UserRef
from .refusals import Reason, Refused
from .views import PICTURES, ChatSettings, chat_settings


class Settings:
    def __init__(self, store: GameStore, directory: Directory, games: Games) -> None:
        self.store = store
        self.directory = directory
        self.games = games

    async def set_chat_language(self, chat_ref: ChatRef, language: str) -> ChatSettings:
        if language not in LANGUAGES:
            raise Refused(Reason.BAD_OPTION, detail=language)
        chat = await self.directory.chat(chat_ref)
        return await self._update_chat(chat.id, language=language)

    async def set_turn_limit(self, chat_ref: ChatRef, seconds: Any) -> ChatSettings:
        try:
            value = int(seconds)
        except (TypeError, ValueError):
            raise Refused(Reason.BAD_OPTION, detail=str(seconds)) from None
        low, high = TURN_LIMIT_BOUNDS
        if value != NO_CLOCK and not low <= value <= high:
            raise Refused(Reason.BAD_OPTION, detail=str(seconds))
        chat = await self.directory.chat(chat_ref)
        return await self._update_chat(chat.id, turn_limit=value)

    async def set_chat_defaults(self, chat_ref: ChatRef, defaults: dict[str, Any]) -> ChatSettings:
        """Replace the chat's defaults with `defaults` (`change_chat_defaults` changes some)."""
        _check_defaults(defaults)
        chat = await self.directory.chat(chat_ref)
        return await self._update_chat(chat.id, defaults=defaults)

    async def change_chat_defaults(self, chat_ref: ChatRef, changes: dict[str, Any]) -> ChatSettings:
        """Merge `changes` into the chat's defaults in one write (a None value removes that key):
        two changes of different keys made at once, maybe by two processes, both hold."""
        chat = await self.directory.chat(chat_ref)
        merged = {key: value for key, value in {**chat.defaults, **changes}.items() if value is not None}
        _check_defaults(merged)
        return await self._update_chat(chat.id, defaults_patch=changes)

    async def set_pictures(self, chat_ref: ChatRef, on: bool) -> ChatSettings:
        """Whether the chat sees its table and hands as pictures (the default) or as text."""
        if not isinstance(on, bool):
            raise Refused(Reason.BAD_OPTION, detail=str(on))
        chat = await self.directory.chat(chat_ref)
        return await self._update_chat(chat.id, defaults_patch={PICTURES: "on" if on else "off"})

    async def move_chat(self, chat_ref: ChatRef, new_key: str) -> ChatSettings | None:
        """The chat is now known as `new_key` (a Telegram group upgraded to a supergroup gets a
        new id): its games, the one in play too, its settings and its leaderboard go with it
        (`ChatMove`). None when there was nothing to move: moved already (told twice, or by
        another process), or never seen."""
        async with self.store.unit() as uow:
            uow.add(ChatMove(chat_ref.platform, chat_ref.key, new_key))
        if uow.moved is None:
            return None
        row = await self.store.get_chat(uow.moved.chat_id)
        assert row is not None
        old_id = uow.moved.old_id
        self.directory.chat_moved(old_id, row)
        for chat_id in {old_id, row.id}:
            self.games.forget_chat(chat_id)
        return chat_settings(row)

    async def _update_chat(self, chat_id: int, **changes: Any) -> ChatSettings:
        async with self.store.unit() as uow:
            uow.add(ChatChange(chat_id, **changes))
        row = await self.store.get_chat(chat_id)
        assert row is not None
        self.directory.chat_changed(row)
        return chat_settings(row)

    async def set_player_language(self, user: UserRef, language: str) -> None:
        if language not in LANGUAGES:
            raise Refused(Reason.BAD_OPTION, detail=language)
        await self._update_player(user, language=language)

    async def set_can_dm(self, user: UserRef, can_dm: bool) -> None:
        await self._update_player(user, can_dm=can_dm)

    async def set_dm_pings(self, user: UserRef, on: bool) -> None:
        await self._update_player(user, dm_pings=on)

    async def set_turn_rings(self, user: UserRef, on: bool) -> None:
        """Whether the message that says it is the player's turn rings (on by default)."""
        await self._update_player(user, quiet_turns=not on)

    async def _update_player(self, user: UserRef, **changes: Any) -> None:
        """Store `changes` to the player's settings, unless they hold already (a player's every
        private message says the bot can reach them): the directory and the games in memory
        then show the player as changed."""
        player = await self.directory.player(user)
        if all(getattr(player, name) == value for name, value in changes.items()):
            return
        await self.store.update_player(player.id, **changes)
        changed = replace(player, **changes)
        self.directory.player_updated(changed)
        self.games.player_changed(changed)


def _check_defaults(defaults: dict[str, Any]) -> None:
    """Refuse defaults a new game could not be opened with."""
    variant = defaults.get("variant", "scopa")
    try:
        rule_options = {k: v for k, v in defaults.items()
                        if k not in ("variant", "players", "teams", "deck_style", PICTURES)}
        Rules.from_options(variant, rule_options)
    except EngineError as exc:
        asked = ", ".join(f"{key}={value}" for key, value in defaults.items())
        raise Refused(Reason.BAD_OPTION, detail=str(exc), asked=asked) from None
