"""A hint in a practice match: the move the computer would play, worked out off the event loop.

Only the player's own view goes to the search (`Game.view`), never the hidden hands; the
search runs in the computer players' worker processes (in a thread without them), with a
fixed number of guesses, so it answers within a button's answer window.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from ..ai.review import HINT_SEARCHES, Hint, hint
from .directory import Directory
from .games import Games
from .records import GameStatus
from .refs import UserRef
from .refusals import Reason, Refused
from .thinking import ComputerPool


@dataclass(frozen=True, slots=True)
class PracticeHint:
    """A hint with what its words need: the game's variant (an escoba is not a scopa) and deck."""

    hint: Hint
    variant: str
    deck_style: str


class Hints:
    def __init__(self, directory: Directory, games: Games, pool: ComputerPool | None,
                 searches: int = HINT_SEARCHES) -> None:
        self.directory = directory
        self.games = games
        self.pool = pool
        self.searches = searches

    async def hint(self, game_id: int, user: UserRef, version: int) -> PracticeHint:
        """The hint for `user`'s seat at `version`: refused outside a practice match, for
        someone not seated, out of turn, and on a hand drawn before the last move."""
        if isinstance(version, bool) or not isinstance(version, int):
            raise Refused(Reason.BAD_INPUT)
        player = await self.directory.known_player(user.platform, user.key)
        row, game = await self.games.load(game_id)
        seat = next((s for s in row.seats if player is not None and s.player_id == player.id), None)
        if seat is None or player is None:
            raise Refused(Reason.NOT_IN_GAME)
        if row.status == GameStatus.LOBBY:
            raise Refused(Reason.NOT_IN_LOBBY)
        if row.status != GameStatus.RUNNING or game is None or game.winner is not None:
            raise Refused(Reason.GAME_OVER)
        if not game.rules.practice:
            raise Refused(Reason.NOT_PRACTICE)
        if version != game.version:
            raise Refused(Reason.STALE)
        if game.to_play != seat.seat or not game.hand_visible(seat.seat):
            raise Refused(Reason.NOT_YOUR_TURN)
        task = (game.view(seat.seat), f"{row.seed}/{game.version}", self.searches)
        if self.pool is None:
            found = await asyncio.to_thread(hint, task)
        else:
            found = await self.pool.run(hint, task)
        return PracticeHint(found, row.variant, row.deck_style)
