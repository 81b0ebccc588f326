"""The counts behind a round's points, shared by every front-end: how many cards and
denari each side took, their primiera (or sevens), the scope, and who has the settebello.

A breakdown says who won each point; these lines say by how much, as players
count them at the table ("cards 22–18, denari 7–3").
"""

from __future__ import annotations

from collections.abc import Sequence

from ..i18n import t
from ..sessions import RoundEnded

_DASH = "–"


def _values(numbers: Sequence[int | None], lang: str) -> str:
    """`21–19`; spaced when a word stands for a missing primiera (`none – 73`)."""
    shown = [t(lang, "counts.no_primiera") if n is None else str(n) for n in numbers]
    return (f" {_DASH} " if None in numbers else _DASH).join(shown)


def round_counts_parts(event: RoundEnded, lang: str) -> list[str]:
    """One short text per count, in the order players check them."""
    scores = event.result.scores
    tallies = [score.tally for score in scores]
    categories = scores[0].points if scores else {}
    parts = [t(lang, "counts.cards", values=_values([x.cards for x in tallies], lang)),
             t(lang, "counts.coins", values=_values([x.coins for x in tallies], lang))]
    if "primiera" in categories:
        parts.append(t(lang, "counts.primiera", values=_values([x.primiera for x in tallies], lang)))
    if "sevens" in categories:
        parts.append(t(lang, "counts.sevens", values=_values([x.sevens for x in tallies], lang)))
    holder = next((side for side, tally in enumerate(tallies) if tally.settebello), None)
    parts.append(t(lang, "counts.settebello", name=event.side_names[holder]) if holder is not None
                 else t(lang, "counts.settebello_nobody"))
    sweeps = "counts.escobas" if event.variant == "escoba" else "counts.scope"
    parts.append(t(lang, sweeps, values=_values([x.scope for x in tallies], lang)))
    return parts


def round_counts_text(event: RoundEnded, lang: str) -> str:
    """`Counts (Alice – CPU): cards 22–18 · denari 7–3 · primiera 78–73 · settebello: Alice · scope 2–0`"""
    sides = f" {_DASH} ".join(event.side_names)
    return t(lang, "counts.title", sides=sides) + " " + " · ".join(round_counts_parts(event, lang))
