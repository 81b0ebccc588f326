"""A store's writes as the tests make them: each a unit of work of its own. The lobby's are
checked against the game as the store holds it now (the sessions check against what they
read); a move, a deadline and a review against what the caller gives."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from bot.sessions.ports import ReviewExists, StaleVersion
from bot.sessions.records import (
    AchievementGrant,
    ChatMove,
    ChatRow,
    DeadlineChange,
    DeadlineKind,
    Erasure,
    GameCancel,
    GameStart,
    GameStatus,
    KeptSecret,
    LobbyChange,
    MoveCommit,
    NewReview,
    ReviewSeatRow,
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


async def commit_move(store: Any, commit: MoveCommit) -> None:
    """The move in a unit of its own: `StaleVersion` (and nothing written) when the game moved on."""
    async with store.unit() as uow:
        uow.add(commit)


async def set_deadline(store: Any, game_id: int, version: int, deadline: float | None, kind: str | None,
                       warned: bool = False) -> bool:
    """The running game's deadline; False (and nothing written) when it is not running at `version`."""
    return await _write(store, DeadlineChange(game_id, version, deadline,
                                              None if kind is None else DeadlineKind(kind), warned))


async def store_review(store: Any, game_id: int, review: str, seats: Iterable[ReviewSeatRow]) -> bool:
    """The match's review; False (and nothing written) when it has one already."""
    try:
        async with store.unit() as uow:
            uow.add(NewReview(game_id, review, tuple(seats)))
    except ReviewExists:
        return False
    return True


__all__ = ["GameStatus", "cancel_game", "commit_move", "set_deadline", "set_seat_flags", "set_seats",
           "start_game", "store_review", "update_lobby"]


async def move_chat(store: Any, platform: str, old_key: str, new_key: str) -> tuple[ChatRow, int] | None:
    """A `ChatMove` in a unit of its own: the chat as it now is and the id the old key had; None
    when no chat had the old key."""
    async with store.unit() as uow:
        uow.add(ChatMove(platform, old_key, new_key))
    if uow.moved is None:
        return None
    return await store.get_chat(uow.moved.chat_id), uow.moved.old_id


async def kept_secret(store: Any, name: str, made: str) -> str:
    """A `KeptSecret` in a unit of its own: the secret kept first under `name`."""
    async with store.unit() as uow:
        uow.add(KeptSecret(name, made))
    kept: str = uow.kept
    return kept


async def grant_achievement(store: Any, player_id: int, code: str, game_id: int, at: float) -> bool:
    """An `AchievementGrant` in a unit of its own: whether it was stored (new to the player)."""
    grant = AchievementGrant(player_id, code, game_id, at)
    async with store.unit() as uow:
        uow.add(grant)
    return grant in uow.granted


async def erase_player(store: Any, erasure: Erasure) -> None:
    """An `Erasure` in a unit of its own."""
    async with store.unit() as uow:
        uow.add(erasure)
