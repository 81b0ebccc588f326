"""Which table cards a played card may take: the one place for the capture rule.

The table is kept in rank order, so what a table offers depends only on the
tuple of its ranks and on the capture rules; that answer (for every rank that
could be played) is computed once and cached, which keeps random playouts and
search fast.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Final, TypeAlias

from .rules import CaptureChoice, Rules, Variant

ESCOBA_SUM = 15
_MAX_SUM: Final = 14
_CACHE_LIMIT: Final = 200_000
_KEY_BITS = 3
_KEY_MASK = (1 << _KEY_BITS) - 1

IndexSets = tuple[tuple[int, ...], ...]
CaptureMode = tuple[bool, bool, bool]

_subsets_cache: dict[tuple[int, ...], dict[int, list[tuple[int, ...]]]] = {}
_options_cache: dict[CaptureMode, dict[tuple[int, ...], dict[int, IndexSets]]] = {}


def subsets_by_sum(ranks: tuple[int, ...]) -> dict[int, list[tuple[int, ...]]]:
    """Index subsets of `ranks` (ascending) grouped by their sum, for sums up to 14."""
    found = _subsets_cache.get(ranks)
    if found is None:
        found = _subsets(ranks)
        if len(_subsets_cache) >= _CACHE_LIMIT:
            _subsets_cache.clear()
        _subsets_cache[ranks] = found
    return found


def _subsets(ranks: tuple[int, ...]) -> dict[int, list[tuple[int, ...]]]:
    found: dict[int, list[tuple[int, ...]]] = {}
    count = len(ranks)
    stack: list[tuple[int, int, tuple[int, ...]]] = [(0, 0, ())]
    while stack:
        start, total, chosen = stack.pop()
        for i in range(start, count):
            value = total + ranks[i]
            if value > _MAX_SUM:
                break
            picked = (*chosen, i)
            found.setdefault(value, []).append(picked)
            stack.append((i + 1, value, picked))
    for subsets in found.values():
        subsets.sort()
    return found


def capture_mode(variant: Variant, rules: Rules) -> CaptureMode:
    return (variant is Variant.ESCOBA, rules.ace_takes_all,
            rules.capture_choice is CaptureChoice.FEWEST)


def capture_options(ranks: tuple[int, ...], mode: CaptureMode) -> dict[int, IndexSets]:
    """For a table with these ranks: played rank -> the index sets it may capture.

    Scopa family: a table card of the same rank must be taken (one of them, by
    choice) before any sum of two or more cards; with `ace_takes_all` an ace
    with no ace on the table takes the whole table. Escoba: any set of table
    cards that makes 15 with the card played. With `fewest`, only the sets of
    the fewest cards.
    """
    by_ranks = _options_cache.setdefault(mode, {})
    found = by_ranks.get(ranks)
    if found is None:
        found = _options(ranks, mode, subsets_by_sum(ranks))
        if len(by_ranks) >= _CACHE_LIMIT:
            by_ranks.clear()
        by_ranks[ranks] = found
    return found


def _options(ranks: tuple[int, ...], mode: CaptureMode,
             sums: dict[int, list[tuple[int, ...]]]) -> dict[int, IndexSets]:
    escoba, ace_takes_all, fewest = mode
    found: dict[int, IndexSets] = {}
    for rank in range(1, 11):
        if escoba:
            options = list(sums.get(ESCOBA_SUM - rank, ()))
        else:
            options = [(i,) for i, r in enumerate(ranks) if r == rank]
            if not options:
                if rank == 1 and ace_takes_all and ranks:
                    options = [tuple(range(len(ranks)))]
                else:
                    options = [idx for idx in sums.get(rank, ()) if len(idx) > 1]
        if len(options) > 1 and fewest:
            least = min(len(option) for option in options)
            options = [option for option in options if len(option) == least]
        if options:
            found[rank] = tuple(options)
    return found


# ---- the form the game reads on every turn ------------------------------------

Pick: TypeAlias = "int | itemgetter[Any]"
"""How the game reads one capture off its table list: a single index, or an
itemgetter returning the captured cards as a tuple in table order."""

Effect = tuple[tuple[int, ...], int, bool]
"""What one capture does to the table: the indices taken (highest first, so they
can be deleted in turn), the change to the table key, and whether it is an ace
sweeping a table without an ace (`ace_takes_all`), which is never a scopa."""

RANK_KEY: Final[tuple[int, ...]] = (0, *(1 << _KEY_BITS * (rank - 1) for rank in range(1, 11)))
"""A table's ranks as one int: the sum of RANK_KEY[rank] over its cards, so that
the game can keep it up to date with an addition per card laid or taken."""

TableTakes = tuple[tuple[tuple[Pick, ...], ...], tuple[tuple[Effect, ...], ...]]


def ranks_of_key(key: int) -> tuple[int, ...]:
    """The ascending ranks of a table whose key is `key`."""
    ranks: list[int] = []
    for rank in range(1, 11):
        ranks += [rank] * (key >> _KEY_BITS * (rank - 1) & _KEY_MASK)
    return tuple(ranks)


class CaptureTable:
    """Table key -> (picks, effects), each indexed by the rank played (0..10).

    For a rank, `picks[rank]` and `effects[rank]` list the same captures in the
    same order, empty when that rank takes nothing. `known` holds the keys met so far
    (a plain dict, so that a hit costs one C-level lookup; `takes` fills a miss); the
    answers are `capture_options`, only reshaped for the game.
    """

    def __init__(self, mode: CaptureMode) -> None:
        self.mode = mode
        self.known: dict[int, TableTakes] = {}

    def takes(self, key: int) -> TableTakes:
        found = self.known.get(key)
        if found is None:
            found = self.fill(key)
        return found

    def fill(self, key: int) -> TableTakes:
        """Work out the entry of a key not in `known` and keep it."""
        ranks = ranks_of_key(key)
        options = _options(ranks, self.mode, _subsets(ranks))
        ace_takes_all = self.mode[1]
        picks = []
        effects = []
        for rank in range(11):
            sets = options.get(rank, ())
            picks.append(tuple(idx[0] if len(idx) == 1 else itemgetter(*idx) for idx in sets))
            effects.append(tuple(
                (idx[::-1], sum(RANK_KEY[ranks[i]] for i in idx),
                 rank == 1 and ace_takes_all and all(ranks[i] != 1 for i in idx))
                for idx in sets
            ))
        found = (tuple(picks), tuple(effects))
        if len(self.known) >= _CACHE_LIMIT:
            self.known.clear()
        self.known[key] = found
        return found


_capture_tables: dict[CaptureMode, CaptureTable] = {}


def capture_table(mode: CaptureMode) -> CaptureTable:
    """The shared CaptureTable for one capture mode."""
    table = _capture_tables.get(mode)
    if table is None:
        table = _capture_tables[mode] = CaptureTable(mode)
    return table
