"""What one seat may see: never another hand, never the order of the stock.

`Game.view(seat)` builds it; this module knows nothing of `Game`, so that the
dependency goes one way (game -> view).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .moves import Move, Play
from .rules import Rules, Variant
from .scoring import RoundResult


@dataclass(frozen=True, slots=True)
class SeatView:
    variant: Variant
    rules: Rules
    seat: int
    sides: tuple[tuple[int, ...], ...]
    side_of: tuple[int, ...]
    version: int
    round_number: int
    dealer: int
    to_play: int
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    stock_count: int
    hand_counts: tuple[int, ...]
    captured_counts: tuple[int, ...]
    scope: tuple[int, ...]
    starting_table: tuple[Card, ...]
    plays: tuple[Play, ...]
    totals: tuple[int, ...]
    results: tuple[RoundResult, ...]
    legal_moves: tuple[Move, ...]
    winner: int | None
    hand_visible: bool = True
    """False while the federal rules keep this seat's hand face down (004 art. 5): `hand`
    is then empty, `hand_counts` still says how many cards it holds."""
    counts_shown: bool = True
    """False while the federal rules forbid showing how many cards each side has taken
    (004 art. 18): a front-end then shows neither `captured_counts` nor denari, only `scope`."""

    @property
    def seats(self) -> int:
        return len(self.side_of)

    @property
    def my_turn(self) -> bool:
        return self.winner is None and self.to_play == self.seat

    @property
    def side(self) -> int:
        return self.side_of[self.seat]

    @property
    def last_result(self) -> RoundResult | None:
        return self.results[-1] if self.results else None

    def seen_cards(self) -> set[Card]:
        """Every card whose place this seat knows: its hand, the table, all played and taken."""
        seen = set(self.hand) | set(self.starting_table) | set(self.table)
        for play in self.plays:
            if play.card is not None:
                seen.add(play.card)
            seen.update(play.captured)
        return seen
