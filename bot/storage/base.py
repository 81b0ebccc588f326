"""What every store does the same way on top of its own SQL: units of work, a lobby or a
chat's settings changed in a unit of their own, and telling the sessions of failures."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

from ..sessions.ports import StorageFailed
from ..sessions.records import (
    Change,
    ChatChange,
    ChatRow,
    GameRow,
    NewGame,
    PlayerChange,
)
from .unit import Unit


class UnitStore(ABC):
    def __init__(self) -> None:
        self._failure_notes: list[Callable[[StorageFailed], None]] = []

    def unit(self) -> Unit:
        return Unit(self._commit_changes)

    @abstractmethod
    async def _commit_changes(self, changes: tuple[Change, ...]) -> Sequence[Any]:
        """Write `changes` in one transaction (`changes.plan`); what each gave, in order (`Unit`)."""

    @abstractmethod
    async def get_game(self, game_id: int) -> GameRow | None:
        ...

    @abstractmethod
    async def get_chat(self, chat_id: int) -> ChatRow | None:
        ...

    async def create_game(self, chat_id: int, creator_id: int, variant: str,
                          options: dict[str, Any], players: int, teams: int, deck_style: str,
                          seed: str, creator_seat: bool = True, thread: str = "") -> GameRow:
        """A `NewGame` in a unit of its own (its creator in seat 0 unless `creator_seat` is False)."""
        async with self.unit() as uow:
            uow.add(NewGame(chat_id, creator_id, variant, options, players, teams, deck_style, seed,
                            thread, None if creator_seat else ()))
        assert uow.created is not None
        game = await self.get_game(uow.created)
        assert game is not None
        return game

    async def update_chat(self, chat_id: int, *, language: str | None = None,
                          turn_limit: int | None = None,
                          defaults: dict[str, Any] | None = None) -> ChatRow:
        """A `ChatChange` in a unit of its own; the chat as it then is."""
        async with self.unit() as uow:
            uow.add(ChatChange(chat_id, language, turn_limit, defaults))
        chat = await self.get_chat(chat_id)
        assert chat is not None
        return chat

    async def update_player(self, player_id: int, *, language: str | None = None,
                            can_dm: bool | None = None, dm_pings: bool | None = None,
                            quiet_turns: bool | None = None) -> None:
        """A `PlayerChange` in a unit of its own."""
        async with self.unit() as uow:
            uow.add(PlayerChange(player_id, language, can_dm, dm_pings, quiet_turns))

    def on_failure(self, note: Callable[[StorageFailed], None]) -> None:
        self._failure_notes.append(note)

    def _failed(self, error: StorageFailed) -> StorageFailed:
        """`error`, once every `on_failure` note has heard of it."""
        for note in self._failure_notes:
            note(error)
        return error
