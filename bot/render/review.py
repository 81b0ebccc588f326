"""The words of a match review, for every front-end and the command line: each seat's
accuracy, its costliest plays and why each cost points, from the catalogue."""

from __future__ import annotations

import math
from collections.abc import Sequence

from babel.numbers import format_decimal, format_percent

from ..ai.review import ACCURACY_SCALE, Fault, GradedPlay, Hint, Reason, Review
from ..engine import Move
from ..i18n import t, t_ordinal
from ..sessions import ReviewAsked
from .boards import accuracy_shown
from .words import card_label, is_escoba, move_label

_FACT_FAULTS = {Fault.PRIMIERA, Fault.SAFE_LAY, Fault.PARTNER_SWEEP, Fault.PARTNER_SETTEBELLO,
                Fault.LAST_CAPTURE, Fault.OUTLOOK, Fault.OUTLOOK_AGAINST}
_SWEEP_FAULTS = {Fault.MISSED_SCOPA: ("review.reason.missed_scopa", "review.reason.missed_escoba"),
                 Fault.LEFT_SWEEP: ("review.reason.left_sweep", "review.reason.left_escoba")}
_FRENCH_RANKS = (8, 9)
"""The ranks whose name differs in the French deck (jack and queen for fante and cavallo)."""


def number_text(value: float, lang: str, digits: int = 2) -> str:
    """`0.75` in English, `0,75` in Italian and Spanish."""
    return format_decimal(value, format="0." + "0" * digits, locale=lang)


def accuracy_line(review: Review, names: Sequence[str], lang: str) -> str:
    """`Accuracy: Anna 87 · Marco 64`: one figure per seat, for the group."""
    seats = " · ".join(f"{names[seat]} {accuracy_shown(value)}" for seat, value in enumerate(review.accuracy))
    return t(lang, "review.accuracy", seats=seats)


def accuracy_help(lang: str) -> str:
    """What accuracy means, in plain words (for /help); its formula is in docs/ai.md."""
    return t(lang, "review.accuracy_help", example=accuracy_shown(100 * math.exp(-0.1 / ACCURACY_SCALE)))


def loss_text(loss: float, lang: str) -> str:
    """`about 2 points lost`, `about half a point lost`: what a play gave up, in points of the
    match to the nearest half point (under a quarter of a point, said as such)."""
    halves = math.floor(loss * 2 + 0.5)
    if halves == 0:
        return t(lang, "review.loss.little")
    if halves == 1:
        return t(lang, "review.loss.half")
    if halves % 2 == 0:
        return t(lang, "review.loss.points", count=halves // 2, points=str(halves // 2))
    return t(lang, "review.loss.points", count=halves / 2, points=number_text(halves / 2, lang, 1))


def play_number(review: Review, play: GradedPlay) -> int:
    """Which of its player's plays of the round `play` was, from 1 (the 5th of Marco's, not the
    34th card of the round)."""
    return sum(1 for other in review.plays
               if other.seat == play.seat and other.round == play.round and other.play <= play.play)


def play_words(number: int, lang: str, name: str | None = None) -> str:
    """`your 5th play`, or with `name` `Marco's 5th play`."""
    if name is None:
        return t_ordinal(lang, "review.play.yours", number)
    return t_ordinal(lang, "review.play.theirs", number, name=name)


def move_phrase(move: Move, lang: str, style: str = "napoletane") -> str:
    """`5🪙 takes 2🗡️+3🏆`, or `lay down 2🪵`."""
    card = card_label(move.card, style)
    if not move.captures:
        return t(lang, "review.move.lay", card=card)
    return t(lang, "review.move.take", card=card, cards="+".join(card_label(c, style) for c in move.captures))


def rank_name(rank: int, lang: str, style: str = "napoletane") -> str:
    french = style == "french" and rank in _FRENCH_RANKS
    return t(lang, f"review.rank_french.{rank}" if french else f"review.rank.{rank}")


def reason_text(play: GradedPlay, lang: str, variant: str, style: str = "napoletane") -> str | None:
    """Why `play` cost points, in one sentence; None for a play that cost none."""
    reason = play.reason
    if reason is None:
        return None
    fault = reason.fault
    best = move_phrase(play.best, lang, style)
    if fault in _SWEEP_FAULTS:
        key = _SWEEP_FAULTS[fault][is_escoba(variant)]
        table = "+".join(card_label(c, style) for c in reason.table)
        ranks = t(lang, "review.or").join(rank_name(rank, lang, style) for rank in reason.ranks)
        return t(lang, key, move=best, table=table, ranks=ranks)
    if fault in _FACT_FAULTS:
        key = f"review.reason.{_fact_key(reason, variant)}"
        return t(lang, key, move=best, **fact_words(reason, play.best, play.played, lang, style))
    return t(lang, f"review.reason.{fault.value}", move=best)


def _fact_key(reason: Reason, variant: str) -> str:
    """The catalogue entry of a fact read from the search's lines: on scope, its own (an escoba's
    words are not a scopa's)."""
    if reason.part != "scope":
        return reason.fault.value
    return "outlook_escoba" if is_escoba(variant) else "outlook_scope"


def fact_words(reason: Reason, best: Move, played: Move, lang: str, style: str) -> dict[str, str]:
    """The words a reason's catalogue text may name: its `cards` and `rank`, the two moves'
    cards (`card` the better, `played` the other), the scoring `part`, and the playouts' values
    after each (`after` the better, `before` the other) as percentages, or for scope as signed
    numbers of scope."""
    words = {"cards": "+".join(card_label(c, style) for c in reason.cards),
             "rank": rank_name(reason.ranks[0], lang, style) if reason.ranks else "",
             "card": card_label(best.card, style), "played": card_label(played.card, style),
             "part": t(lang, f"review.part.{reason.part}") if reason.part else ""}
    for name, value in zip(("after", "before"), reason.odds, strict=False):
        if reason.part == "scope":
            words[name] = format_decimal(value, "+0.0;−0.0", locale=lang)
        else:
            words[name] = format_percent(value, locale=lang)
    return words


def hint_text(hint: Hint, lang: str, variant: str, style: str = "napoletane") -> str:
    """`💡 5🪙 takes 2🗡️+3🏆: it is a scopa.`: the move the computer would play and why."""
    move = move_phrase(hint.move, lang, style)
    reason = hint.reason
    if reason is None or hint.other is None:
        return t(lang, "hint.text", move=move, reason=t(lang, "hint.reason.only"))
    other = move_phrase(hint.other, lang, style)
    fault = reason.fault
    if fault in _SWEEP_FAULTS:
        key = "hint" + _SWEEP_FAULTS[fault][is_escoba(variant)].removeprefix("review")
        table = "+".join(card_label(c, style) for c in reason.table)
        ranks = t(lang, "review.or").join(rank_name(rank, lang, style) for rank in reason.ranks)
        why = t(lang, key, other=other, table=table, ranks=ranks)
    elif fault in _FACT_FAULTS:
        key = f"hint.reason.{_fact_key(reason, variant)}"
        why = t(lang, key, other=other, **fact_words(reason, hint.move, hint.other, lang, style))
    else:
        why = t(lang, f"hint.reason.{fault.value}", other=other)
    return t(lang, "hint.text", move=move, reason=why)


def costly_line(review: Review, play: GradedPlay, lang: str, style: str = "napoletane",
                name: str | None = None) -> str:
    """`Round 2, your 5th play: 7🪙 → 3🏆+4🗡️ instead of 5🪙 → 2🗡️+3🏆 (about 2 points lost): a
    scopa was there: …`; with `name`, another player's (`Marco's 5th play`)."""
    reason = reason_text(play, lang, review.variant, style) \
        or t(lang, "review.reason.better", move=move_phrase(play.best, lang, style))
    return t(lang, "review.costly", round=play.round + 1,
             play=play_words(play_number(review, play), lang, name), played=move_label(play.played, style),
             best=move_label(play.best, style), loss=loss_text(play.loss, lang), reason=reason)


def personal_review_text(review: Review, names: Sequence[str], seat: int, lang: str,
                         style: str = "napoletane") -> str:
    """One player's review: every seat's accuracy, and that seat's costliest plays with why."""
    lines = [accuracy_line(review, names, lang), ""]
    costly = review.costliest(seat)
    if not costly:
        lines.append(t(lang, "review.flawless", name=names[seat]))
    else:
        lines.append(t(lang, "review.costliest", name=names[seat]))
        lines += [f"• {costly_line(review, play, lang, style)}" for play in costly]
    return "\n".join(lines)


def review_text(review: Review, names: Sequence[str], lang: str, style: str = "napoletane") -> str:
    """The whole review: each seat's accuracy, what it means, and each seat's costliest
    plays with their reasons."""
    lines = [t(lang, "review.title"), accuracy_line(review, names, lang),
             accuracy_help(lang)]
    for seat in range(review.seats):
        lines.append("")
        costly = review.costliest(seat)
        if not costly:
            lines.append(t(lang, "review.flawless", name=names[seat]))
            continue
        lines.append(t(lang, "review.costliest", name=names[seat]))
        lines += [f"  {costly_line(review, play, lang, style, names[seat])}" for play in costly]
    return "\n".join(lines)


def asked_key(asked: ReviewAsked) -> str:
    """The catalogue key of what the asker of a review is told: sent, already sent, or on its way."""
    if asked.already:
        return "review.already_sent"
    return "review.sent" if asked.ready else "review.on_its_way"
