"""A group match's round ends and its end, each player's copy in their private chat.

A player who plays from the private chat alone reads there what the group reads: every round's
breakdown, as one message that does not ring, and the match's result with Rematch and Review.
The copies go out while the group's announcement is owed and held (`Announcements.announce`),
before the group's own post, so the group's limit never holds them back; each player's copy is
noted in the game's refs once sent, so a restart, or a group post tried again, sends only the
copies still missing (at least once in the moment between a copy reaching the chat and its
note, as for the group's). A game played in a private chat itself (the deal of the day) has its
announcements there already and gets no copies."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from ...sessions import MatchEnded, PlayerProfile, RoundEnded, Sessions
from .audience import Audience
from .outbox import Content, Outbox

COPIED = "private:"
"""The game's ref that lists the players (user keys) given the copy of an announcement."""

Draw = Callable[[str, bool], Awaitable[Content]]
"""The announcement's message in a language, as a photo or not."""


def copied_key(event: RoundEnded | MatchEnded) -> str:
    if isinstance(event, RoundEnded):
        return f"{COPIED}round:{event.result.number:04d}"
    return f"{COPIED}match"


class PrivateCopies:
    def __init__(self, sessions: Sessions, outbox: Outbox, audience: Audience) -> None:
        self.sessions, self.outbox, self.audience = sessions, outbox, audience

    async def recipients(self, event: RoundEnded | MatchEnded) -> list[PlayerProfile]:
        """The people seated in the match who can be written to privately, its chat not theirs."""
        row = await self.sessions.queries.game(event.game_id)
        return [player for seat in row.seats if (player := seat.player) is not None
                and not player.is_computer and seat.ready and player.user_key != row.chat.key
                and self.audience.reachable(player)]

    async def post(self, event: RoundEnded | MatchEnded, draw: Draw, *, silent: bool) -> None:
        """Each recipient's copy of `event` not sent yet, in their language (a photo when the
        group's chat draws pictures), noted as it is sent."""
        players = await self.recipients(event)
        if not players:
            return
        key = copied_key(event)
        sent = set((await self.outbox.refs.get(event.game_id, key) or "").split())
        pictures = await self.audience.draws_pictures(int(event.chat_key))
        missing = [player for player in players if player.user_key not in sent]
        if not missing:
            return

        async def one(player: PlayerProfile) -> str | None:
            content = await draw(self.audience.language(player), pictures)
            content = Content(content.text, content.keyboard, content.picture, silent=silent)
            posted = await self.outbox.post(int(player.user_key), content)
            return player.user_key if posted is not None else None

        for user_key in await asyncio.gather(*(one(player) for player in missing)):
            if user_key is not None:
                sent.add(user_key)
        await self.outbox.refs.set(event.game_id, key, " ".join(sorted(sent)))
