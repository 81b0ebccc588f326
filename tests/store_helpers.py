"""A store's lobby writes as the tests make them: each a unit of work of its own, checked
against the game as the store holds it now (the sessions check against what they read)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from bot.sessions.ports import StaleVersion
from bot.sessions.records import (
    DeadlineKind,
    GameCancel,
    GameStart,
    GameStatus,
    LobbyChange,
    SeatRow,
)


async def _write(store: Any, change: Any) -> bool:
    try:
        async with store.unit() as uow:
            uow.add(change)
    except StaleVersion:
        return False
    return True


async def start_game(store: Any, game_id: int, state: dict[str, Any], seats: Iterable[SeatRow],
                     deadline: float | None, kind: str | None) -> bool:
    """Start the lobby as it now is; False when it is not a lobby."""
    game = await store.get_game(game_id)
    return await _write(store, GameStart(game_id, game.version, state, tuple(seats), deadline,
                                         None if kind is None else DeadlineKind(kind)))


async def cancel_game(store: Any, game_id: int, record_line: str | None = None) -> bool:
    """Cancel the game if it is open; False when it is not."""
    game = await store.get_game(game_id)
    if game is None or not game.status.open:
        return False
    return await _write(store, GameCancel(game_id, game.status, game.version, record_line))


async def update_lobby(store: Any, game_id: int, **fields: Any) -> bool:
    game = await store.get_game(game_id)
    return await _write(store, LobbyChange(game_id, game.version, **fields))


async def set_seats(store: Any, game_id: int, seats: Iterable[SeatRow]) -> bool:
    return await update_lobby(store, game_id, seats=tuple(seats))


async def set_seat_flags(store: Any, game_id: int, seat: int, **flags: Any) -> bool:
    game = await store.get_game(game_id)
    return await set_seats(store, game_id, [dataclasses.replace(s, player=None, **flags) if s.seat == seat
                                            else dataclasses.replace(s, player=None) for s in game.seats])


__all__ = ["GameStatus", "cancel_game", "set_seat_flags", "set_seats", "start_game", "update_lobby"]
