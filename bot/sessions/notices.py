"""What a move owes its chat: a round's breakdown, the end of the match, the achievements
earned in it.

Those announcements are stored with the move, in the same transaction, as
message refs of the game (`notice:...`), and stay there until a front-end
says it posted them. A process that dies after the commit and before the
message went out thus loses nothing: after the restart the front-end is
handed the owed events again, in order, and posts them once.

Of several processes on one database, one posts each announcement: it is posted
under the hold of its notice (`holds`), and only while it is still owed, so two
processes starting together after a crash do not both post the end of a match.

Whoever dies, each is posted: a process that finds a notice held tries again once
that hold would run out (a dead holder's hold is then taken over), and each process
looks for what is owed to its chats at start and then every `SWEEP_EVERY` seconds
(`sweep`), so a notice whose poster died is posted by another. What remains is a
process that dies after the chat got the message and before the database heard of it:
the next one posts it again (at least once, in that window only; `docs/scaling.md`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from ..engine import RoundResult
from . import events as ev
from .holds import HandedOver, MessageHolds
from .ports import GameStore, StorageAway

PREFIX = "notice:"
OWED = (ev.RoundEnded, ev.MatchEnded, ev.AchievementsEarned)
"""The events a chat must see even across a crash; the others are redrawn from the state."""
REVIEWS = f"{PREFIX}3:review:"
"""A finished match's reviews owed (`ev.ReviewOwed`): written when a player asks, after the
match's own notices in order."""

_KINDS: dict[str, type[ev.Event]] = {"round": ev.RoundEnded, "match": ev.MatchEnded,
                                     "review": ev.ReviewOwed, "feats": ev.AchievementsEarned}

SWEEP_EVERY = 30.0
"""Seconds between two looks for owed announcements: a notice owed at two looks in a row
(its poster died, or its chat refused it for a while) is posted again."""
AFTER_HOLD = 0.5
"""Seconds past the end of another's hold before looking again, so that the hold has run out."""
AWAY_RETRY = 0.5
"""Seconds between two tries of an announcement while the database is away (each try itself
waits a few seconds for it, `StorageAway`)."""


def notice_key(event: ev.Event) -> str:
    """Rounds in order, then the match (keys sort that way)."""
    if isinstance(event, ev.RoundEnded):
        return f"{PREFIX}1:round:{event.result.number:04d}"
    if isinstance(event, ev.MatchEnded):
        return f"{PREFIX}2:match"
    if isinstance(event, ev.AchievementsEarned):
        return f"{PREFIX}2:match:feats"
    if isinstance(event, ev.ReviewOwed):
        return f"{REVIEWS}{'line' if event.seat is None else event.seat}"
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
    def __init__(self, store: GameStore, holds: MessageHolds,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        self.store = store
        self.holds = holds
        self.sleep = sleep
        self._announcing: Counter[tuple[int, str]] = Counter()
        self._seen: set[tuple[int, str]] = set()

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
        if isinstance(event, (*OWED, ev.ReviewOwed)):
            await self.store.set_ref(event.game_id, notice_key(event), None)

    async def reviews_owed(self, game_id: int) -> list[ev.ReviewOwed]:
        """Game `game_id`'s reviews still owed, as far as each was delivered."""
        refs = await self.store.get_refs(game_id)
        return [event for key, text in sorted(refs.items()) if key.startswith(REVIEWS)
                and isinstance(event := load_notice(text), ev.ReviewOwed)]

    async def owe(self, event: ev.ReviewOwed) -> bool:
        """Keep `event` owed (a review asked for); False when it is owed already."""
        key = notice_key(event)
        if key in await self.store.get_refs(event.game_id):
            return False
        await self.store.set_ref(event.game_id, key, dump_notice(event))
        return True

    async def progress(self, event: ev.ReviewOwed, sent: int) -> None:
        """`sent` of review `event`'s messages are delivered: after a restart the rest follow."""
        await self.store.set_ref(event.game_id, notice_key(event),
                                 dump_notice(dataclasses.replace(event, sent=sent)))

    async def announce(self, event: ev.Event, post: Callable[[], Awaitable[bool]]) -> bool:
        """`post()` the announcement `event` if it is still owed, holding its notice so that
        no other process posts it meanwhile; once `post` says it reached the chat (or the
        chat refuses the bot for good) it is owed no more. Held by another process, it is
        looked at again once that hold would run out, as often as it takes: posted by the
        holder meanwhile, it is left; still owed (the holder died), it is posted here.
        While the database is away (`StorageAway`) it is tried again every `AWAY_RETRY`
        seconds; once posted, only the note that it was is tried again, never the post.
        True if this call posted it."""
        key = notice_key(event)
        posted = False
        out = False
        """The chat has the message (or refused it for good): only `delivered` is left to do."""

        async def posting(first: bool) -> None:
            nonlocal posted, out
            if out or key not in await self.store.get_refs(event.game_id):
                return
            posted = True
            if await post():
                out = True
                await self._noted(event)

        mark = (event.game_id, key)
        self._announcing[mark] += 1
        try:
            while True:
                try:
                    outcome = await self.holds.draw(event.game_id, key, posting)
                except StorageAway:
                    if out:
                        await self._noted(event)
                        break
                    await self.sleep(AWAY_RETRY)
                    continue
                if not isinstance(outcome, HandedOver):
                    break
                await self.sleep(outcome.after + AFTER_HOLD)
        finally:
            self._announcing[mark] -= 1
            if not self._announcing[mark]:
                del self._announcing[mark]
        return posted

    async def _noted(self, event: ev.Event) -> None:
        """`delivered`, tried again while the database is away: the message is in the chat,
        and another process must not find it owed once the database is back."""
        while True:
            try:
                await self.delivered(event)
                return
            except StorageAway:
                await self.sleep(AWAY_RETRY)

    async def sweep(self, owed: list[ev.Event], announce: Callable[[ev.Event], Awaitable[object]]
                    ) -> float:
        """Hand `announce` (a front-end's way to post an event, through `announce` above) the
        notices of `owed` that were owed at the last sweep too and that this process is not
        posting now; give the seconds until the next sweep. A notice owed since the last
        sweep is left to the process that made it, which is most likely posting it now."""
        marks = [(event.game_id, notice_key(event)) for event in owed]
        due = [event for event, mark in zip(owed, marks, strict=True)
               if mark in self._seen and mark not in self._announcing]
        self._seen = set(marks)
        for event in due:
            await announce(event)
        return SWEEP_EVERY
