"""One object for each distinct capture and its outcome, made once and handed out again.

Moves, plays and outcomes are immutable tuples, so equal ones can be the same object (as
cards are): building a named tuple from compiled code costs more than looking one up, and
random play and search meet the same captures over and over. Each kind is kept in a dict
under an int drawn from its fields, emptied when it grows past `LIMIT`.
"""

from __future__ import annotations

from typing import Final

from .cards import Card
from .moves import Move, Play
from .outcome import Outcome

LIMIT: Final = 20_000
"""About 400 bytes an outcome: at most some 8 MB a kind. Random play meets about 25,000
distinct capture outcomes in 20,000 matches; a search, a few hundred."""

_MOVE: Final = Move
_PLAY: Final = Play
_OUTCOME: Final = Outcome

_moves: Final[dict[int, Move]] = {}
_outcomes: Final[dict[int, Outcome]] = {}


def capture_move(card: Card, captured: tuple[Card, ...]) -> Move:
    """The move playing `card` to take `captured` (in table order, as the game reads them)."""
    key = card.index
    for taken in captured:
        key |= taken.bit << 6
    found = _moves.get(key)
    if found is None:
        found = tuple.__new__(_MOVE, (card, captured))
        if len(_moves) >= LIMIT:
            _moves.clear()
        _moves[key] = found
    return found


def outcome_of(seat: int, card: Card, captured: tuple[Card, ...], bits: int, scopa: bool,
               swept_by_ace: bool, dealt: bool) -> Outcome:
    """The outcome of `seat` playing `card` to take `captured` (`bits`: the card's and their
    `Card.bit`s, 0 when it is laid down) mid-round: no round result, nothing left over."""
    key = ((((bits << 6 | card.index) << 3 | seat) << 1 | scopa) << 1 | swept_by_ace) << 1 | dealt
    found = _outcomes.get(key)
    if found is None:
        play = tuple.__new__(_PLAY, (seat, card, captured, scopa))
        found = tuple.__new__(_OUTCOME, (play, swept_by_ace, None, (), None, dealt, ()))
        if len(_outcomes) >= LIMIT:
            _outcomes.clear()
        _outcomes[key] = found
    return found
