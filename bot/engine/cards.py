"""The 40-card Italian deck.

Cards are flyweights: there are exactly 40 `Card` objects, so identity,
equality and hashing are all cheap, which matters for search and simulation.
"""

from __future__ import annotations

from contextlib import suppress
from enum import StrEnum

from .errors import InvalidCardError


class Suit(StrEnum):
    DENARI = "D"
    COPPE = "C"
    SPADE = "S"
    BASTONI = "B"

    @property
    def index(self) -> int:  # type: ignore[override]  # str.index is shadowed on purpose
        return _SUIT_ORDER.index(self)


_SUIT_ORDER = (Suit.DENARI, Suit.COPPE, Suit.SPADE, Suit.BASTONI)

SUIT_NAMES: dict[str, dict[Suit, str]] = {
    "it": {Suit.DENARI: "denari", Suit.COPPE: "coppe", Suit.SPADE: "spade", Suit.BASTONI: "bastoni"},
    "en": {Suit.DENARI: "coins", Suit.COPPE: "cups", Suit.SPADE: "swords", Suit.BASTONI: "clubs"},
}

RANK_NAMES: dict[str, dict[int, str]] = {
    "it": {1: "asso", 2: "due", 3: "tre", 4: "quattro", 5: "cinque", 6: "sei", 7: "sette",
           8: "fante", 9: "cavallo", 10: "re"},
    "en": {1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
           8: "jack", 9: "knight", 10: "king"},
}

PRIMIERA_VALUE = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}


class Card:
    """One card of the deck: `rank` 1..10 and a `suit`; its code is e.g. `7D`."""

    __slots__ = ("bit", "code", "index", "order", "primiera", "rank", "suit")

    rank: int
    suit: Suit
    index: int
    code: str
    primiera: int
    bit: int
    order: int

    def __new__(cls, rank: int, suit: Suit | str) -> Card:
        """The card of that rank and suit: always the same object."""
        try:
            known = Suit(suit)
        except ValueError:
            raise InvalidCardError(f"no such card: rank {rank!r}, suit {suit!r}") from None
        found = _BY_CODE.get(f"{rank}{known.value}")
        if found is not None:
            return found
        if _deck_dealt or not isinstance(rank, int) or rank not in PRIMIERA_VALUE:
            raise InvalidCardError(f"no such card: rank {rank!r}, suit {suit!r}")
        card = super().__new__(cls)
        card.rank = rank
        card.suit = known
        card.index = known.index * 10 + rank - 1
        card.code = f"{rank}{known.value}"
        card.primiera = PRIMIERA_VALUE[rank]
        card.bit = 1 << card.index
        card.order = rank * 4 + known.index
        _BY_CODE[card.code] = card
        return card

    @staticmethod
    def parse(code: object) -> Card:
        """The card for a code such as `7D` or `10b`; raises InvalidCardError."""
        if not isinstance(code, str):
            raise InvalidCardError(f"a card code must be text, not {type(code).__name__}")
        card = _BY_CODE.get(code.strip().upper())
        if card is None:
            raise InvalidCardError(
                f"unknown card {code!r}: a card is a rank 1-10 and a suit D, C, S or B, e.g. 7D"
            )
        return card

    def name(self, lang: str = "en") -> str:
        names = RANK_NAMES.get(lang, RANK_NAMES["en"])
        suits = SUIT_NAMES.get(lang, SUIT_NAMES["en"])
        joiner = " di " if lang == "it" else " of "
        return names[self.rank] + joiner + suits[self.suit]

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __str__(self) -> str:
        return self.code

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self) -> tuple[object, tuple[int, str]]:
        return (Card, (self.rank, self.suit.value))


with suppress(AttributeError, TypeError):
    del Card.__hash__
"""Compiled with mypyc, Card needs the `__hash__` above (a class with `__lt__` gets
none); interpreted, deleting it leaves object's identity hash, which is C code."""

_BY_CODE: dict[str, Card] = {}
_deck_dealt = False
DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in _SUIT_ORDER for rank in range(1, 11))
_deck_dealt = True

SETTEBELLO = Card.parse("7D")
RE_BELLO = Card.parse("10D")
ASSO_BELLO = Card.parse("1D")


def parse_cards(codes: object) -> list[Card]:
    """Cards from a list of codes; raises InvalidCardError on any bad entry."""
    if not isinstance(codes, (list, tuple)):
        raise InvalidCardError("expected a list of card codes")
    return [Card.parse(code) for code in codes]


def codes(cards: list[Card] | tuple[Card, ...]) -> list[str]:
    return [card.code for card in cards]
