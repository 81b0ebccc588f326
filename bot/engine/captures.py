"""Which table cards a played card may take: the one place for the capture rule.

The table is kept in rank order, so what a table offers depends only on the
tuple of its ranks and on the capture rules; that answer (for every rank that
could be played) is computed once and cached, which keeps random playouts and
search fast.
"""

from __future__ import annotations

from operator import itemgetter

from .rules import CaptureChoice, Rules, Variant

ESCOBA_SUM = 15
_MAX_SUM = 14
_CACHE_LIMIT = 200_000
_KEY_BITS = 3
_KEY_MASK = (1 << _KEY_BITS) - 1

IndexSets = tuple[tuple[int, ...], ...]
CaptureMode = tuple[bool, bool, bool]

_subsets_cache: dict[tuple[int, ...], dict[int, list[tuple[int, ...]]]] = {}
_options_cache: dict[CaptureMode, dict[tuple[int, ...], dict[int, IndexSets]]] = {}


def subsets_by_sum(ranks: tuple[int, ...]) -> dict[int, list[tuple[int, ...]]]:
    """Index subsets of `ranks` (ascending) grouped by their sum, for sums up to 14."""
    found = _subsets_cache.get(ranks)
    if found is not None:
        return found
    found = {}
    count = len(ranks)

    def walk(start: int, total: int, chosen: tuple[int, ...]) -> None:
        for i in range(start, count):
            value = total + ranks[i]
            if value > _MAX_SUM:
                return
            picked = (*chosen, i)
            found.setdefault(value, []).append(picked)
            walk(i + 1, value, picked)

    walk(0, 0, ())
    if len(_subsets_cache) >= _CACHE_LIMIT:
        _subsets_cache.clear()
    _subsets_cache[ranks] = found
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
    if found is not None:
        return found
    escoba, ace_takes_all, fewest = mode
    sums = subsets_by_sum(ranks)
    found = {}
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
    if len(by_ranks) >= _CACHE_LIMIT:
        by_ranks.clear()
    by_ranks[ranks] = found
    return found


# ---- the form the game reads on every turn ------------------------------------

Take = int | itemgetter
"""One capture option as the game applies it to its table list: a single table
index, or an itemgetter returning the captured cards as a tuple in table order."""

RANK_KEY: tuple[int, ...] = (0, *(1 << _KEY_BITS * (rank - 1) for rank in range(1, 11)))
"""A table's ranks as one int: the sum of RANK_KEY[rank] over its cards, so that
the game can keep it up to date with an addition per card laid or taken."""


def ranks_of_key(key: int) -> tuple[int, ...]:
    """The ascending ranks of a table whose key is `key`."""
    ranks: list[int] = []
    for rank in range(1, 11):
        ranks += [rank] * (key >> _KEY_BITS * (rank - 1) & _KEY_MASK)
    return tuple(ranks)


class CaptureTable(dict[int, tuple[tuple[Take, ...], ...]]):
    """Table key -> for each rank 0..10 the takes a card of that rank has there (empty: none).

    A dict filled on demand (`__missing__`), so that a hit costs one C-level
    lookup; the answers are `capture_options`, only reshaped for the game.
    """

    def __init__(self, mode: CaptureMode) -> None:
        super().__init__()
        self.mode = mode

    def __missing__(self, key: int) -> tuple[tuple[Take, ...], ...]:
        options = capture_options(ranks_of_key(key), self.mode)
        found = tuple(
            tuple(idx[0] if len(idx) == 1 else itemgetter(*idx) for idx in options.get(rank, ()))
            for rank in range(11)
        )
        if len(self) >= _CACHE_LIMIT:
            self.clear()
        self[key] = found
        return found


_capture_tables: dict[CaptureMode, CaptureTable] = {}


def capture_table(mode: CaptureMode) -> CaptureTable:
    """The shared CaptureTable for one capture mode."""
    table = _capture_tables.get(mode)
    if table is None:
        table = _capture_tables[mode] = CaptureTable(mode)
    return table
