"""Random play to the end of a match: every move drawn uniformly among the legal ones.

The draw is `random.Random.randrange(len(moves))` made without its Python layers: the
same calls to `getrandbits`, so a generator seeded alike gives the same match either way
(`simulate`'s records stay what they were), at a fraction of the cost per move.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Final

from .game import Game

_KNOWN_BITS: Final = 256
_BITS: Final[tuple[int, ...]] = tuple([count.bit_length() for count in range(_KNOWN_BITS)])
"""`count.bit_length()` of the commonest counts of moves, looked up instead of called."""


def draw_below(getrandbits: Callable[[int], int], count: int) -> int:
    """`rng.randrange(count)` for `count` > 0, given `rng.getrandbits`: the same draw from the
    same generator state."""
    bits = _BITS[count] if count < _KNOWN_BITS else count.bit_length()
    drawn = getrandbits(bits)
    while drawn >= count:
        drawn = getrandbits(bits)
    return drawn


def play_to_end(game: Game, rng: Random) -> int:
    """Play `game` to the end of its match, each move uniformly among the legal ones (a
    forced move draws too, as `randrange` would), dealing each round that waits for it;
    gives the number of moves played."""
    getrandbits = rng.getrandbits
    played = 0
    while game.winner is None:
        if game.awaiting_deal:
            game.deal()
            continue
        moves = game._moves()
        game.apply(moves[draw_below(getrandbits, len(moves))])
        played += 1
    return played
