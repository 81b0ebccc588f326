"""Dealing drawn from a seed alone: the deck's order for each deal, the first dealer, and
how many cards each variant deals to the hands and the table.

Every number comes from hashing a text (`seed_number`), so the same seed gives the same
match on every machine and run.
"""

from __future__ import annotations

from hashlib import blake2b
from typing import Final

from .captures import ESCOBA_SUM
from .cards import DECK, Card
from .rules import Variant

HAND_SIZE = 3
MAX_SEATS = 6
START: Final = {Variant.SCOPA: (3, 4), Variant.ESCOBA: (3, 4),
                Variant.SCOPONE: (9, 4), Variant.SCOPONE_SCIENTIFICO: (10, 0)}
"""Per variant: the cards dealt to each hand and to the table at the start of a round."""


def round_seed(seed: int | str, round_number: int, attempt: int) -> str:
    return f"{seed}/round/{round_number}/deal/{attempt}"


def seed_number(text: str) -> int:
    """A 256-bit number drawn from `text` alone: the same on every machine and run."""
    digest = blake2b(text.encode("utf-8", "surrogatepass"), digest_size=32).digest()
    return int.from_bytes(digest, "little")


def first_dealer(seed: int | str, seats: int) -> int:
    """The seat that deals the first round of the match with this seed."""
    return seed_number(f"{seed}/dealer") % seats


def shuffled_deck(text: str) -> list[Card]:
    """The deck in the order drawn from `text` (Fisher-Yates on the digits of its number).

    A fresh Mersenne Twister per deal cost more than the rest of a random
    round; 256 bits leave a bias below 2**-96 over the 40! orders.
    """
    number = seed_number(text)
    deck = list(DECK)
    for product, lasts in _SWAP_GROUPS:
        number, chunk = divmod(number, product)
        for last in lasts:
            pick = chunk % (last + 1)
            chunk //= last + 1
            deck[last], deck[pick] = deck[pick], deck[last]
    return deck


def _swap_groups() -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The Fisher-Yates positions (last card first) in runs whose radices multiply to less
    than 2**30: one division of the big number per run, the rest on small ints, same picks."""
    groups: list[tuple[int, tuple[int, ...]]] = []
    lasts: list[int] = []
    product = 1
    for last in range(len(DECK) - 1, 0, -1):
        if product * (last + 1) >= 1 << 30:
            groups.append((product, tuple(lasts)))
            lasts, product = [], 1
        lasts.append(last)
        product *= last + 1
    groups.append((product, tuple(lasts)))
    return tuple(groups)


_SWAP_GROUPS: Final = _swap_groups()


def fifteen(table: list[Card]) -> tuple[Card, ...]:
    """The first cards of `table` (in table order) that make 15 together, or () if none do."""
    for mask in range(1, 1 << len(table)):
        cards = tuple([card for index, card in enumerate(table) if mask >> index & 1])
        if sum([card.rank for card in cards]) == ESCOBA_SUM:
            return cards
    return ()
