"""A full game consistent with what one seat has seen, for search under hidden information.

The caller chooses the unseen cards (the other hands and the stock); every
public fact (table, plays, captures, scores, turn) comes from the view.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import DECK, Card
from .errors import InvalidInputError
from .game import Game
from .rules import Seating
from .view import SeatView


def unseen_cards(view: SeatView) -> list[Card]:
    """The cards whose place `view.seat` does not know: other hands and the stock."""
    seen = view.seen_cards()
    return [card for card in DECK if card not in seen]


def game_from_view(view: SeatView, hands: Sequence[Sequence[Card]], stock: Sequence[Card],
                   seed: int | str = 0) -> Game:
    """The game as `view.seat` sees it, with the given hands (own hand included) and stock.

    Raises InvalidInputError when the hands and stock do not fit the view.
    """
    seats = view.seats
    if len(hands) != seats or set(hands[view.seat]) != set(view.hand):
        raise InvalidInputError("the hands must include this seat's own hand, one per seat")
    if [len(h) for h in hands] != list(view.hand_counts) or len(stock) != view.stock_count:
        raise InvalidInputError("hand or stock sizes do not match the view")
    captured: list[list[Card]] = [[] for _ in range(seats)]
    last = None
    for play in view.plays:
        if play.captured:
            if play.card is not None:
                captured[play.seat].append(play.card)
            captured[play.seat].extend(play.captured)
            last = play.seat
    return Game.restore(
        view.variant, view.rules, Seating(seats, view.sides), seed,
        version=view.version, round_number=view.round_number, first_dealer=view.dealer,
        dealer=view.dealer, totals=list(view.totals), results=list(view.results), rounds=[],
        winner=view.winner, to_play=view.to_play, hands=[list(hand) for hand in hands],
        table=list(view.table), stock=list(stock), captured=captured, scope=list(view.scope),
        last_capturer=last, deals=[{"hands": [], "table": [c.code for c in view.starting_table]}],
        plays=list(view.plays))
