"""A round's end and a match's end in words: the breakdown read down a column per side, the
caption of a round's picture, fuori, the match's totals and ratings. Shared by every front-end."""

from __future__ import annotations

from ..i18n import subject_count, t
from ..sessions import MatchEnded, RoundEnded
from .counts import round_counts_text
from .words import display_width, is_escoba, padded, rating_shown, short_name

BREAKDOWN_COLUMNS = 32
"""A round's breakdown is read down, a column per side, in at most this many monospaced
columns: a phone's chat shows about 32 without wrapping."""
LABEL_COLUMNS = 10


def breakdown_rows(event: RoundEnded, lang: str) -> list[list[str]]:
    """The round as a table to read down: the sides' names, a row per point with each side's
    points, then the round's and the match's totals."""
    result = event.result
    names = [name for name in (result.scores[0].points if result.scores else {})]
    escoba = is_escoba(event.variant)
    rows = [["", *event.side_names]]
    for name in names:
        label = t(lang, "round.escobas" if name == "scope" and escoba else f"round.{name}")
        rows.append([label, *(str(score.points[name]) for score in result.scores)])
    rows.append([t(lang, "round.total"), *(str(score.total) for score in result.scores)])
    rows.append([t(lang, "round.match"), *(str(total) for total in result.totals)])
    return rows


def breakdown_table(rows: list[list[str]], columns: int = BREAKDOWN_COLUMNS) -> str:
    """`breakdown_rows` in at most `columns` monospaced columns: labels and names are shortened
    to fit, numbers right-aligned under their side."""
    sides = len(rows[0]) - 1
    label = min(LABEL_COLUMNS, max(display_width(row[0]) for row in rows))
    room = max(3, (columns - label - sides) // max(1, sides))
    cut = [[short_name(row[0], label), *(_column_name(cell, room) for cell in row[1:])] for row in rows]
    widths = [label, *(max(display_width(row[i]) for row in cut) for i in range(1, sides + 1))]
    return "\n".join(" ".join(padded(cell, widths[i], i == 0) for i, cell in enumerate(row)).rstrip()
                     for row in cut)


def _column_name(name: str, room: int) -> str:
    """A side's name over its column: a team's too long for it as `Anna+Carla`."""
    if display_width(name) > room:
        name = name.replace(" & ", "+")
    return short_name(name, room)


def monospace_table(rows: list[list[str]], max_name: int = 14) -> str:
    """Rows in columns aligned by display width (an emoji takes two); the first column's
    names shortened at a word to `max_name` columns."""
    clipped = [[short_name(row[0], max_name), *row[1:]] for row in rows]
    widths = [max(display_width(row[i]) for row in clipped) for i in range(len(clipped[0]))]
    return "\n".join("  ".join(padded(cell, widths[i], i == 0) for i, cell in enumerate(row)).rstrip()
                     for row in clipped)


def round_caption(event: RoundEnded, lang: str, target: int) -> str:
    """What a round's picture says in words: the round, fuori if declared, who took the round
    and the match's score."""
    result = event.result
    totals = [score.total for score in result.scores]
    best = [side for side, total in enumerate(totals) if total == max(totals, default=0)]
    if len(best) == 1:
        winner = event.side_names[best[0]]
        won = t(lang, "round.caption_won", side=winner, count=subject_count(winner),
                points=result_points(totals, best[0], lang))
    else:
        won = t(lang, "round.caption_tie", points=t(lang, "round.points_to").join(str(n) for n in totals))
    score = " · ".join(f"{name} {total}" for name, total in zip(event.side_names, result.totals, strict=True))
    lines = [t(lang, "round.title", round=result.number), fuori_line(event, lang), won,
             t(lang, "table.score", score=score, target=target)]
    return "\n".join(line for line in lines if line)


def result_points(totals: list[int], winner: int, lang: str) -> str:
    """A result as it is said with its winner as the subject: the winner's points first
    ("3 a 1", "3–1"), then the others', most first."""
    others = sorted((total for side, total in enumerate(totals) if side != winner), reverse=True)
    return t(lang, "round.points_to").join(str(total) for total in (totals[winner], *others))


def fuori_line(event: RoundEnded, lang: str) -> str | None:
    """Who declared fuori and how it went, for a round that ended that way."""
    side, result = event.fuori_side, event.result
    if side is None or event.fuori_name is None:
        return None
    points = result.totals[side]
    if result.winner == side:
        return t(lang, "round.fuori_reached", name=event.fuori_name, side=event.side_names[side],
                 points=points)
    return t(lang, "round.fuori_short", name=event.fuori_name, side=event.side_names[side],
             points=points, other=event.side_names[1 - side])


def breakdown_text(event: RoundEnded, lang: str, counts: bool = True,
                   columns: int = BREAKDOWN_COLUMNS) -> str:
    """The round's points by side, a column each within `columns` (a phone's width in a chat),
    then (with `counts`) the counts behind them."""
    fuori = fuori_line(event, lang)
    text = t(lang, "round.title", round=event.result.number) + "\n" + (
        f"{fuori}\n" if fuori else "") + breakdown_table(breakdown_rows(event, lang), columns)
    return text + "\n" + round_counts_text(event, lang) if counts else text


def match_text(event: MatchEnded, lang: str) -> str:
    lines = [t(lang, "match.title")]
    if event.winner is not None:
        winner = event.side_names[event.winner]
        lines.append(t(lang, "match.winner", name=winner, count=subject_count(winner),
                       points=result_points(list(event.totals), event.winner, lang)))
    if event.win_kind is not None and event.winner is not None:
        lines.append(t(lang, f"match.win_kind.{event.win_kind}"))
    score = " · ".join(f"{n} {p}" for n, p in zip(event.side_names, event.totals, strict=True))
    lines.append(t(lang, "match.totals", score=score))
    for name, before, after in event.rating_changes:
        lines.append(t(lang, "match.rating", name=name, before=rating_shown(before),
                       after=rating_shown(after)))
    if event.practice:
        lines.append(t(lang, "table.practice"))
    return "\n".join(lines)
