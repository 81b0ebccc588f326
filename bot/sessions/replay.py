"""A finished match stepped through play by play, for one of its players.

The positions come from the stored record alone (the engine replays it deterministically),
so a step is named by the match and its number and nothing is kept between taps: a button
carrying them works after a restart. After the match nothing is secret any more, so each
step shows the hand of the player who made the play (theirs, an opponent's or a computer's)
and the table they saw; a play the review found a better move for carries its grade, and one it
found another move as good as says so.

A match still in play is never replayed (`Reason.NOT_FINISHED`), a match is replayed only
for its players (`Reason.NOT_YOUR_REVIEW`) and a step outside the match is stale
(`Reason.STALE`): a forged or old button changes nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..ai.review import Fault, GradedPlay, Review
from ..ai.review.replay import Turn, turns
from ..engine import Card, Move
from ..engine.record import RecordError, parse_records
from .directory import Directory
from .games import Games
from .ports import GameStore
from .records import GameStatus
from .refs import UserRef
from .refusals import Reason, Refused
from .views import seat_name

GRADED_FROM = 0.3
"""The smallest loss, in points of the match, that marks a step with its grade: below it the
review's noise could be the whole difference."""


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One play of a finished match as the replay shows it."""

    game_id: int
    step: int
    """From 0."""
    steps: int
    round: int
    """From 1."""
    seat: int
    name: str
    """The name of the player who made the play."""
    nth: int
    """The mover's own play in its round, from 1 ("Marco's 5th play")."""
    table: tuple[Card, ...]
    hand: tuple[Card, ...]
    played: Move
    better: Move | None
    """The review's better move, when the play cost at least `GRADED_FROM` points."""
    loss: float
    variant: str = "scopa"
    deck_style: str = "napoletane"
    equivalent: bool = False
    """The review found another move worth as much as this play (within its noise): neither is graded."""

    @property
    def first(self) -> bool:
        return self.step == 0

    @property
    def last(self) -> bool:
        return self.step == self.steps - 1


class Replays:
    """Steps of finished matches for their players, worked out from the stored record."""

    def __init__(self, store: GameStore, directory: Directory, games: Games) -> None:
        self.store = store
        self.directory = directory
        self.games = games

    async def step(self, game_id: int, user: UserRef, step: int) -> ReplayStep:
        """Step `step` of match `game_id` for `user`, one of its players; refused otherwise."""
        row = await self.games.row(game_id)
        player = await self.directory.known_player(user.platform, user.key)
        if player is None or not any(s.player_id == player.id and not s.is_computer for s in row.seats):
            raise Refused(Reason.NOT_YOUR_REVIEW)
        if row.status != GameStatus.FINISHED:
            raise Refused(Reason.NOT_FINISHED)
        line = await self.store.match_record(row.id)
        try:
            if line is None:
                raise RecordError(f"game {row.id} has no record")
            played = list(turns(parse_records(line)[0]))
        except RecordError:
            raise Refused(Reason.NO_REVIEW) from None
        if not 0 <= step < len(played):
            raise Refused(Reason.STALE)
        turn = played[step]
        nth = sum(1 for t in played[:step + 1] if t.round == turn.round and t.seat == turn.seat)
        graded = await self._graded(row.id, turn)
        better, loss, equivalent = _grade(graded)
        return ReplayStep(game_id, step, len(played), turn.round + 1, turn.seat, seat_name(
            next(s for s in row.seats if s.seat == turn.seat), row.seats), nth, tuple(turn.view.table),
            tuple(turn.view.hand), turn.played, better, loss, row.variant, row.deck_style, equivalent)

    async def _graded(self, game_id: int, turn: Turn) -> GradedPlay | None:
        """The review's grade of `turn`, once the review is made."""
        stored = await self.store.match_review(game_id)
        if stored is None:
            return None
        review = Review.from_dict(json.loads(stored))
        return next((p for p in review.plays if p.round == turn.round and p.play == turn.play), None)


def _grade(graded: GradedPlay | None) -> tuple[Move | None, float, bool]:
    """The better move and the loss where the play cost at least `GRADED_FROM`, and whether the
    review found another move as good as it."""
    if graded is None:
        return None, 0.0, False
    equivalent = graded.reason is not None and graded.reason.fault is Fault.EQUIVALENT
    if graded.loss < GRADED_FROM or graded.best == graded.played:
        return None, 0.0, equivalent
    return graded.best, graded.loss, False
