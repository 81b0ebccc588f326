"""The plays a group has not seen drawn, in the table's words.

A group takes 20 messages a minute; when play is brisker than that the table is drawn after
several plays at once. The drawing then tells, above the plays it shows in full, the ones
since the drawing the group saw last (`sessions.recap`), each in a few signs (`Anna 4🪙→4🏆
🧹 Scopa!`), those of a round that ended meanwhile under its number. A recap longer than its
room keeps the plays that matter (a scopa, the settebello taken) and the latest, and says how
many others it leaves out."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

from ...i18n import t, tn
from ...render.words import card_label, cards_text, sweep_text
from ...sessions import RecapLine, TableView

ROOM = 700
"""Characters the earlier plays may take under a picture (1,024 in all) or in a table's text."""
SEPARATOR = " · "


def unshown(lines: Sequence[RecapLine], view: TableView, in_full: int) -> tuple[RecapLine, ...]:
    """Of the plays the group has not seen, those the drawing does not show in full: the last
    `in_full` plays of the match are (the table's latest plays, or its last play alone)."""
    shown = sum(1 for play in view.last_plays[-in_full:] if not play.leftover) if in_full else 0
    return tuple(lines[:max(0, len(lines) - shown)])


def compact(line: RecapLine, lang: str, view: TableView) -> str:
    """`Anna 4🪙→4🏆`, `Bruna 7🗡`, with the sweep said in full."""
    play, style = line.play, view.deck_style
    if play.card is None:
        said = t(lang, "play.starting_take", name=play.name, captured=cards_text(play.captured, style))
    elif play.captured:
        said = t(lang, "telegram.play.compact_took", name=play.name, card=card_label(play.card, style),
                 captured=cards_text(play.captured, style))
    else:
        said = t(lang, "telegram.play.compact_laid", name=play.name, card=card_label(play.card, style))
    if play.scopa:
        said += " " + sweep_text(lang, view.variant)
    return said


def earlier_lines(lines: Sequence[RecapLine], view: TableView, lang: str, room: int = ROOM) -> list[str]:
    """The recap's lines (plain text), one per round, within `room` characters."""
    if not lines:
        return []
    said = [compact(line, lang, view) for line in lines]
    keep = _fitting(lines, said, room)
    left_out = len(lines) - len(keep)
    out: list[str] = []
    for number, group in groupby(sorted(keep), key=lambda i: lines[i].round_number):
        plays = SEPARATOR.join(said[index] for index in group)
        if left_out and not out:
            plays = tn(lang, "telegram.table.more_plays", left_out) + SEPARATOR + plays
        key = "telegram.table.earlier" if number == view.round_number else "telegram.table.earlier_round"
        out.append(t(lang, key, plays=plays, round=number))
    return out


def _fitting(lines: Sequence[RecapLine], said: list[str], room: int) -> set[int]:
    """The plays kept: all if they fit; otherwise those that matter, then the latest others."""
    def size(indexes: set[int]) -> int:
        return sum(len(said[i]) + len(SEPARATOR) for i in indexes)

    everything = set(range(len(lines)))
    if size(everything) <= room:
        return everything
    keep = {i for i, line in enumerate(lines) if line.matters}
    while size(keep) > room:
        keep.discard(min(keep))
    for index in reversed(range(len(lines))):
        if index not in keep and size(keep | {index}) <= room:
            keep.add(index)
    return keep
