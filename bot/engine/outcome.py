"""What one applied move did (`Outcome`), and the shared outcomes of the commonest moves."""

from __future__ import annotations

from typing import Final, NamedTuple

from .cards import DECK, Card
from .deck import MAX_SEATS
from .moves import SINGLE_TAKES, Play
from .scoring import RoundResult


class Outcome(NamedTuple):
    """What one applied move did, for front-ends to announce."""

    play: Play
    swept_by_ace: bool = False
    round_result: RoundResult | None = None
    leftover: tuple[Card, ...] = ()
    leftover_seat: int | None = None
    dealt: bool = False
    starting_takes: tuple[Play, ...] = ()

    @property
    def match_over(self) -> bool:
        return self.round_result is not None and self.round_result.winner is not None


LAID: Final = tuple(tuple(Outcome(Play(seat, card, (), False)) for card in DECK)
                    for seat in range(MAX_SEATS))
"""`LAID[seat][card.index]`: the outcome of laying that card down mid-hand. Outcomes are
immutable, so the game hands out these shared ones instead of making one a move."""

TOOK: Final = tuple(
    tuple(tuple(Outcome(Play(seat, card, move[1], False)) for move in SINGLE_TAKES[card.index])
          for card in DECK)
    for seat in range(MAX_SEATS))
"""`TOOK[seat][card.index][taken.index]`: the outcome of `card` taking `taken` alone mid-hand
without a scopa (shared, as `LAID`)."""

