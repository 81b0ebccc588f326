"""What a move owes its chat: a round's breakdown, the end of the match.

Those announcements are stored with the move, in the same transaction, as
message refs of the game (`notice:...`), and stay there until a front-end
says it posted them. A process that dies after the commit and before the
message went out thus loses nothing: after the restart the front-end is
handed the owed events again, in order, and posts them once.

Of several processes on one database, one posts each announcement: it is posted
under the hold of its notice (`holds`), and only while it is still owed, so two
processes starting together after a crash do not both post the end of a match.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Awaitable, Callable
from typing import Any

from ..engine import RoundResult
from . import events as ev
from .holds import MessageHolds
from .ports import GameStore

PREFIX = "notice:"
OWED = (ev.RoundEnded, ev.MatchEnded)
"""The events a chat must see even across a crash; the others are redrawn from the state."""

_KINDS: dict[str, type[ev.Event]] = {"round": ev.RoundEnded, "match": ev.MatchEnded}


def notice_key(event: ev.Event) -> str:
    """Rounds in order, then the match (keys sort that way)."""
    if isinstance(event, ev.RoundEnded):
        return f"{PREFIX}1:round:{event.result.number:04d}"
    if isinstance(event, ev.MatchEnded):
        return f"{PREFIX}2:match"
    raise ValueError(f"{type(event).__name__} is not announced")


def _plain(value: Any) -> Any:
    if isinstance(value, RoundResult):
        return {"round_result": value.to_dict()}
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


def _back(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"round_result"}:
        return RoundResult.from_dict(value["round_result"])
    if isinstance(value, list):
        return tuple(_back(item) for item in value)
    return value


def dump_notice(event: ev.Event) -> str:
    kind = next(name for name, cls in _KINDS.items() if isinstance(event, cls))
    fields = {f.name: _plain(getattr(event, f.name)) for f in dataclasses.fields(event)}
    return json.dumps({"kind": kind, "fields": fields}, ensure_ascii=False, separators=(",", ":"))


def load_notice(text: str) -> ev.Event:
    data = json.loads(text)
    cls = _KINDS[data["kind"]]
    return cls(**{name: _back(value) for name, value in data["fields"].items()})


def owed_refs(events: list[ev.Event]) -> tuple[tuple[str, str], ...]:
    """The message refs a move's events owe, to store with the move."""
    return tuple((notice_key(e), dump_notice(e)) for e in events if isinstance(e, OWED))


class Notices:
    def __init__(self, store: GameStore, holds: MessageHolds) -> None:
        self.store = store
        self.holds = holds

    async def owed(self, platform: str) -> list[ev.Event]:
        """The announcements still owed to `platform`'s chats, oldest game first, rounds in order."""
        owed = []
        for _, _, text in await self.store.refs_with_prefix(PREFIX):
            event = load_notice(text)
            if event.platform == platform:
                owed.append(event)
        return owed

    async def delivered(self, event: ev.Event) -> None:
        """The front-end posted `event`: it is owed no more."""
        if isinstance(event, OWED):
            await self.store.set_ref(event.game_id, notice_key(event), None)

    async def announce(self, event: ev.Event, post: Callable[[], Awaitable[bool]]) -> bool:
        """`post()` the announcement `event` if it is still owed, holding its notice so that
        no other process posts it meanwhile; once `post` says it reached the chat (or the
        chat refuses the bot for good) it is owed no more. True if this call posted it."""
        key = notice_key(event)
        posted = False

        async def posting(first: bool) -> None:
            nonlocal posted
            if key not in await self.store.get_refs(event.game_id):
                return
            posted = True
            if await post():
                await self.delivered(event)

        await self.holds.draw(event.game_id, key, posting)
        return posted
