"""A move: the card played and the exact set of table cards it captures."""

from __future__ import annotations

from operator import itemgetter
from typing import NamedTuple

from .cards import DECK, Card, Suit
from .errors import InvalidCardError, InvalidMoveError

CARD_PATTERN = rf"(?:10|[1-9])[{''.join(suit.value for suit in Suit)}]"
"""A regular expression for a card's code (`7D`), to find one inside a longer text."""
MOVE_PATTERN = rf"{CARD_PATTERN}(?::{CARD_PATTERN}(?:\+{CARD_PATTERN}){{0,15}})?"
"""A regular expression for a move's text form (`7D`, `7D:3C+4S`): at most 16 cards taken."""


def table_order(card: Card) -> int:
    """Cards on the table and in a capture are kept in this order (rank, then suit)."""
    return card.order


class Move(tuple[Card, tuple[Card, ...]]):
    """Play `card`; take `captures` from the table (empty: the card is laid down).

    A tuple underneath, so that search can make and compare millions of them;
    the text form is `7D` for a card laid down and `7D:3C+4S` for a capture.
    """

    __slots__ = ()

    card: Card = property(itemgetter(0))  # type: ignore[assignment]
    captures: tuple[Card, ...] = property(itemgetter(1))  # type: ignore[assignment]

    def __new__(cls, card: Card, captures: tuple[Card, ...] | list[Card] = ()) -> Move:
        if not isinstance(card, Card):
            raise InvalidMoveError(f"a move plays a card, not {card!r}")
        if any(not isinstance(c, Card) for c in captures):
            raise InvalidMoveError("a move captures cards only")
        ordered = tuple(sorted(captures, key=table_order))
        if len(set(ordered)) != len(ordered):
            raise InvalidMoveError("a move cannot capture the same card twice")
        if card in ordered:
            raise InvalidMoveError("a card cannot capture itself")
        return tuple.__new__(cls, (card, ordered))

    def __getnewargs__(self) -> tuple[Card, tuple[Card, ...]]:
        """Pickled as its two parts, so a view can be handed to another process."""
        return self[0], self[1]

    @classmethod
    def parse(cls, text: object) -> Move:
        if not isinstance(text, str) or not text.strip() or len(text) > 64:
            raise InvalidMoveError("a move is written like 7D or 7D:3C+4S")
        played, _, taken = text.strip().partition(":")
        try:
            card = Card.parse(played)
            captures = tuple(Card.parse(code) for code in taken.split("+")) if taken else ()
        except InvalidCardError as exc:
            raise InvalidMoveError(f"cannot read move {text!r}: {exc}") from None
        return cls(card, captures)

    @property
    def code(self) -> str:
        card, captures = self
        if not captures:
            return card.code
        return card.code + ":" + "+".join(c.code for c in captures)

    def __repr__(self) -> str:
        return f"Move({self.code})"

    def __str__(self) -> str:
        return self.code


def make_move(card: Card, captures: tuple[Card, ...]) -> Move:
    """A move from parts already checked and in table order (no validation)."""
    return tuple.__new__(Move, (card, captures))


LAYDOWNS: dict[Card, Move] = {card: make_move(card, ()) for card in DECK}
"""The one move that lays each card down: moves are immutable, so they are shared."""

LAYDOWN_BY_INDEX: list[Move] = [LAYDOWNS[card] for card in DECK]
"""`LAYDOWNS` by `Card.index`."""

SINGLE_TAKES: list[list[Move]] = [
    [make_move(card, (taken,)) for taken in DECK] for card in DECK
]
"""`SINGLE_TAKES[card.index][taken.index]`: the shared move playing `card` to take `taken` alone
(the entry where both are the same card is never used)."""


class Play(NamedTuple):
    """One card played (or, in escoba, the dealer's take of the starting table)."""

    seat: int
    card: Card | None
    captured: tuple[Card, ...]
    scopa: bool

    def to_dict(self) -> dict[str, object]:
        return {"seat": self.seat, "card": self.card.code if self.card else None,
                "captured": [c.code for c in self.captured], "scopa": self.scopa}


def why_illegal(move: Move, *, seat: int, hand: list[Card], table: list[Card], legal: list[Move]) -> str:
    """Why `seat`, holding `hand`, may not play `move` on `table` when `legal` are its moves."""
    if move.card not in hand:
        return f"{move.card.code} is not in the hand of seat {seat}"
    missing = [c.code for c in move.captures if c not in table]
    if missing:
        return f"{', '.join(missing)} not on the table"
    options = [m for m in legal if m.card is move.card]
    if not options:
        return f"{move.card.code} cannot be played now: a capture is compulsory"
    if not move.captures:
        return f"{move.card.code} must capture: " + " or ".join(m.code for m in options)
    return f"{move.code} is not a legal capture; legal: " + ", ".join(m.code for m in options)
