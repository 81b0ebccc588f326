"""A move: the card played and the exact set of table cards it captures."""

from __future__ import annotations

from .cards import Card
from .errors import InvalidCardError, InvalidMoveError


class Move:
    """Play `card`; take `captures` from the table (empty: the card is laid down).

    The text form is `7D` for a card laid down and `7D:3C+4S` for a capture.
    """

    __slots__ = ("card", "captures", "_hash")

    card: Card
    captures: tuple[Card, ...]

    def __init__(self, card: Card, captures: tuple[Card, ...] | list[Card] = ()) -> None:
        if not isinstance(card, Card):
            raise InvalidMoveError(f"a move plays a card, not {card!r}")
        if any(not isinstance(c, Card) for c in captures):
            raise InvalidMoveError("a move captures cards only")
        ordered = tuple(sorted(captures, key=_index))
        if len(set(ordered)) != len(ordered):
            raise InvalidMoveError("a move cannot capture the same card twice")
        if card in ordered:
            raise InvalidMoveError("a card cannot capture itself")
        self.card = card
        self.captures = ordered
        self._hash = hash((card.index, ordered))

    @classmethod
    def parse(cls, text: object) -> Move:
        if not isinstance(text, str) or not text.strip():
            raise InvalidMoveError("a move is written like 7D or 7D:3C+4S")
        played, _, taken = text.strip().partition(":")
        try:
            card = Card.parse(played)
            captures = tuple(Card.parse(code) for code in taken.split("+")) if taken else ()
        except InvalidCardError as exc:
            raise InvalidMoveError(f"cannot read move {text!r}: {exc}") from None
        return cls(card, captures)

    @property
    def is_capture(self) -> bool:
        return bool(self.captures)

    @property
    def code(self) -> str:
        if not self.captures:
            return self.card.code
        return self.card.code + ":" + "+".join(c.code for c in self.captures)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Move) and other.card is self.card
                and other.captures == self.captures)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Move({self.code})"

    def __str__(self) -> str:
        return self.code


def _index(card: Card) -> int:
    return card.index
