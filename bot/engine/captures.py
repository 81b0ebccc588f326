"""Which table cards a played card may take: the one place for the capture rule.

The table is kept in rank order, so what a table offers depends only on the
tuple of its ranks and on the capture rules; that answer (for every rank that
could be played) is computed once and cached, which keeps random playouts and
search fast.
"""

from __future__ import annotations

from .rules import CaptureChoice, Rules, Variant

ESCOBA_SUM = 15
_MAX_SUM = 14
_CACHE_LIMIT = 200_000

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
