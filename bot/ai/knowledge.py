"""What one seat knows about the hidden cards, and guesses of them consistent with it.

Besides which cards are gone, a lay-down tells something: with `must_capture`
on, a player who laid a card on a table they could have taken from held no
card that could capture there. That holds for the cards they still hold from
the same deal, so every guess of their hand leaves out those ranks.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.engine import DECK, Card, SeatView, Variant
from bot.engine.captures import capture_mode, capture_options

HAND_SIZE = 3
_FIRST_DEAL = {Variant.SCOPA: (3, 4), Variant.ESCOBA: (3, 4),
               Variant.SCOPONE: (9, 4), Variant.SCOPONE_SCIENTIFICO: (10, 0)}


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The unseen cards (other hands and stock) and what each other seat cannot hold."""

    view: SeatView
    unseen: tuple[Card, ...]
    hidden: tuple[tuple[int, int], ...]
    forbidden: dict[int, frozenset[int]]

    @classmethod
    def of(cls, view: SeatView) -> Knowledge:
        seen = view.seen_cards()
        unseen = tuple(card for card in DECK if card not in seen)
        hidden = tuple((seat, count) for seat, count in enumerate(view.hand_counts)
                       if seat != view.seat and count)
        return cls(view, unseen, hidden, lay_down_inferences(view))

    @property
    def certain(self) -> bool:
        """True when only one placement of the unseen cards fits the view."""
        return not self.unseen or (len(self.hidden) == 1 and self.view.stock_count == 0)

    def unseen_by_rank(self) -> list[int]:
        counts = [0] * 11
        for card in self.unseen:
            counts[card.rank] += 1
        return counts

    def sample(self, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
        """Hands for every seat (own hand included) and a stock, drawn from `rng` only."""
        pool = list(self.unseen)
        rng.shuffle(pool)
        hands: list[list[Card]] = [[] for _ in range(self.view.seats)]
        hands[self.view.seat] = list(self.view.hand)
        order = sorted(self.hidden, key=lambda item: (item[0] not in self.forbidden, item[0]))
        for seat, count in order:
            banned = self.forbidden.get(seat)
            chosen: list[Card] = []
            if banned:
                chosen = [card for card in pool if card.rank not in banned][:count]
            if len(chosen) < count:
                chosen = pool[:count]
            taken = set(chosen)
            pool = [card for card in pool if card not in taken]
            hands[seat] = chosen
        return hands, pool


def current_deal_start(view: SeatView) -> int | None:
    """Index in `view.plays` of the first play of the hands now held, or None if unsure."""
    per_hand, on_table = _FIRST_DEAL[view.variant]
    seats = view.seats
    in_hands = per_hand * seats
    stock = len(DECK) - on_table - in_hands
    start = 0
    for index, play in enumerate(view.plays):
        if play.card is None:
            continue
        in_hands -= 1
        if in_hands == 0 and stock:
            dealt = min(HAND_SIZE * seats, stock)
            stock -= dealt
            in_hands = dealt
            start = index + 1
    if stock != view.stock_count or in_hands != sum(view.hand_counts):
        return None
    return start


def lay_down_inferences(view: SeatView) -> dict[int, frozenset[int]]:
    """Ranks each other seat cannot hold now, from the lay-downs of the current deal."""
    if not view.rules.must_capture:
        return {}
    start = current_deal_start(view)
    if start is None:
        return {}
    mode = capture_mode(view.variant, view.rules)
    table = list(view.starting_table)
    banned: dict[int, set[int]] = {}
    for index, play in enumerate(view.plays):
        if play.card is None or play.captured:
            taken = set(play.captured)
            table = [card for card in table if card not in taken]
            continue
        if index >= start and play.seat != view.seat and table:
            ranks = tuple(sorted(card.rank for card in table))
            capturing = capture_options(ranks, mode)
            if capturing:
                banned.setdefault(play.seat, set()).update(capturing)
        table.append(play.card)
    if sorted(c.index for c in table) != sorted(c.index for c in view.table):
        return {}
    return {seat: frozenset(ranks) for seat, ranks in banned.items()}
