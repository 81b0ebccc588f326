"""Observers of a match's state: what one seat may see, and the federal silence rules.

The state (`Game`) knows the whole deal; these functions decide what of it a seat is
shown, reading the state and never changing it. `Game.view` and the `Game` methods of
the same names call them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .cards import Card
from .moves import Move, Play, table_order
from .rules import Rules, Seating, Variant
from .scoring import RoundResult
from .view import SeatView


class Observed(Protocol):
    """What an observer reads of a match's state."""

    variant: Variant
    rules: Rules
    seating: Seating
    side_of: tuple[int, ...]
    version: int
    round_number: int
    dealer: int
    to_play: int
    winner: int | None
    hands: list[list[Card]]
    table: list[Card]
    stock: list[Card]
    captured: list[list[Card]]
    scope: list[int]
    plays: list[Play]
    totals: list[int]
    results: list[RoundResult]

    @property
    def starting_table(self) -> tuple[Card, ...]: ...

    def legal_moves(self, seat: int | None = None) -> list[Move]: ...


def hand_visible(state: Observed, seat: int) -> bool:
    """Whether `seat` may look at its hand: always, except that under `federal` rules a
    player sees their cards "solo quando giunge il suo primo turno di gioco" (004 art. 5)
    of each round."""
    if not state.rules.federal or state.winner is not None or state.to_play == seat:
        return True
    return any(play.seat == seat and play.card is not None for play in state.plays)


def counts_shown(state: Observed) -> bool:
    """Whether the number of cards and denari each side has taken may be shown: not while
    a round is played under `federal` rules ("non è consentito rivedere le prese", 004
    art. 18); scope are shown all the same."""
    return not state.rules.federal or state.winner is not None


def _lengths(piles: Sequence[Sequence[Card]]) -> tuple[int, ...]:
    return tuple([len(pile) for pile in piles])


def seat_view(state: Observed, seat: int) -> SeatView:
    """What `seat` may see: its own hand (empty until `hand_visible`), the table,
    everything played and taken."""
    seats = state.seating.seats
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise ValueError(f"no seat {seat!r} in a game of {seats}")
    visible = hand_visible(state, seat)
    return SeatView(
        variant=state.variant,
        rules=state.rules,
        seat=seat,
        sides=state.seating.sides,
        side_of=state.side_of,
        version=state.version,
        round_number=state.round_number,
        dealer=state.dealer,
        to_play=state.to_play,
        hand=tuple(sorted(state.hands[seat], key=table_order)) if visible else (),
        table=tuple(state.table),
        stock_count=len(state.stock),
        hand_counts=_lengths(state.hands),
        captured_counts=_lengths(state.captured),
        scope=tuple(state.scope),
        starting_table=state.starting_table,
        plays=tuple(state.plays),
        totals=tuple(state.totals),
        results=tuple(state.results),
        legal_moves=tuple(state.legal_moves(seat)),
        winner=state.winner,
        hand_visible=visible,
        counts_shown=counts_shown(state),
    )
