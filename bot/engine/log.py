"""What a match keeps of its deals and finished rounds, and their record form.

A game keeps each deal as the cards in the order they were dealt (one each to the
seat after the dealer on), which is all a deal is; a finished round as a `RoundLog`.
The record's dict forms (`scopa-record/1`) are made from them only when read, and a
saved game's dicts are turned back into them when it is loaded.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from .cards import Card
from .errors import InvalidInputError
from .moves import Play


class Deal(NamedTuple):
    """One deal: `cards` in the order dealt, and the table laid at the round's first deal
    (None for a later deal)."""

    cards: tuple[Card, ...]
    table: tuple[Card, ...] | None = None

    def hands(self, dealer: int, seats: int) -> list[list[Card]]:
        """Each seat's cards from this deal, in the order it got them."""
        first = (dealer + 1) % seats
        cards = list(self.cards)
        return [cards[(seat - first) % seats::seats] for seat in range(seats)]

    def to_dict(self, dealer: int, seats: int) -> dict[str, Any]:
        first = (dealer + 1) % seats
        codes = [card.code for card in self.cards]
        hands = [codes[(seat - first) % seats::seats] for seat in range(seats)]
        if self.table is None:
            return {"hands": hands}
        return {"hands": hands, "table": [card.code for card in self.table]}

    @classmethod
    def from_dict(cls, data: dict[str, Any], dealer: int, seats: int) -> Deal:
        """The deal a record's `{"hands": [...], "table": [...]}` describes; raises
        InvalidInputError when its hands cannot have been dealt one card a seat in turn."""
        hands = [[Card.parse(code) for code in hand] for hand in data["hands"]]
        table = data.get("table")
        count = sum(len(hand) for hand in hands)
        if count and len(hands) != seats:
            raise InvalidInputError("a deal has one hand per seat")
        first = dealer + 1
        try:
            cards = tuple(hands[(first + turn) % seats][turn // seats] for turn in range(count))
        except IndexError:
            raise InvalidInputError("a deal's hands were not dealt one card a seat in turn") from None
        return cls(cards, None if table is None else tuple(Card.parse(code) for code in table))


class RoundLog(NamedTuple):
    """A finished round: who dealt, its deals, its plays, who took the last cards, each
    side's points (as the record writes them) and the seat that declared fuori, if any."""

    dealer: int
    deals: Sequence[Deal]
    plays: Sequence[Play]
    last_capture_seat: int | None
    score: tuple[dict[str, int], ...]
    fuori: int | None = None

    def to_dict(self, seats: int) -> dict[str, Any]:
        """The round as the record writes it, except that plays stay `Play` values."""
        out: dict[str, Any] = {
            "dealer": self.dealer,
            "deals": [deal.to_dict(self.dealer, seats) for deal in self.deals],
            "plays": list(self.plays),
            "last_capture_seat": self.last_capture_seat,
            "score": [dict(points) for points in self.score],
        }
        if self.fuori is not None:
            out["fuori"] = self.fuori
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], seats: int) -> RoundLog:
        """A round as `to_dict` gives it (plays as `Play` values)."""
        dealer = int(data["dealer"])
        last = data["last_capture_seat"]
        fuori = data.get("fuori")
        return cls(dealer, tuple(Deal.from_dict(deal, dealer, seats) for deal in data["deals"]),
                   tuple(data["plays"]), None if last is None else int(last),
                   tuple({str(k): int(v) for k, v in points.items()} for points in data["score"]),
                   None if fuori is None else int(fuori))
