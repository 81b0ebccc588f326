"""A monthly season in words, for every front-end: its standings, a player's past seasons, and
the champion's announcement when the month turns."""

from __future__ import annotations

from datetime import UTC, date, datetime

from babel.dates import format_date, format_skeleton

from ..i18n import t, tn
from ..pictures.season import SeasonLine, SeasonScene
from ..sessions.seasons import PastSeason, SeasonBoard, SeasonClose, SeasonHistory, Standing
from .boards import board_name

CLOSED_NEXT = 2
"""Players named after the champion in the announcement."""


def month_name(month: date, lang: str) -> str:
    """"novembre 2026", "November 2026", "noviembre 2026"."""
    return format_date(month, "LLLL y", locale=lang)


def end_day(ends: float, lang: str) -> str:
    """The day at whose midnight (UTC) the season ends: "1 December", "1 de diciembre"."""
    return format_skeleton("dMMMM", datetime.fromtimestamp(ends, UTC).date(), locale=lang)


def _row(rank: int, standing: Standing, lang: str) -> str:
    bonus = t(lang, "season.bonus", bonus=standing.bonus) if standing.bonus else ""
    return t(lang, "season.row", rank=rank, name=board_name(standing.name, lang),
             points=tn(lang, "season.points", standing.points), wins=tn(lang, "season.wins", standing.wins),
             matches=tn(lang, "season.matches", standing.matches), bonus=bonus)


def season_title(board: SeasonBoard, lang: str) -> str:
    month = month_name(board.month, lang)
    if board.everyone:
        return t(lang, "season.title.global", month=month)
    if board.chat:
        return t(lang, "season.title.chat", month=month, chat=board.chat)
    return t(lang, "season.title.here", month=month)


def season_text(board: SeasonBoard, lang: str) -> str:
    """The standings: the title, when the season ends (or that it is over, with its champion),
    the first lines and the asker's own below them, and how points are earned."""
    lines = [season_title(board, lang)]
    lines.append(t(lang, "season.ends", day=end_day(board.ends, lang)) if board.running
                 else t(lang, "season.final"))
    if not board.lines:
        lines.append(t(lang, "season.empty" if board.running else "season.empty_past"))
    lines.extend(_row(rank, standing, lang) for rank, standing in board.lines)
    if board.asker is not None:
        lines.append(t(lang, "season.asker"))
        lines.append(_row(*board.asker, lang))
    if board.champion is not None:
        lines.append(t(lang, "season.champion", name=board_name(board.champion.name, lang)))
    lines.append("")
    lines.append(t(lang, "season.how"))
    return "\n".join(lines)


def season_caption(board: SeasonBoard, lang: str) -> str:
    """What goes under the standings' picture (which shows the rows): the title, when the season
    ends (or its champion), and how points are earned."""
    lines = [season_title(board, lang)]
    lines.append(t(lang, "season.ends", day=end_day(board.ends, lang)) if board.running
                 else t(lang, "season.final"))
    if board.champion is not None:
        lines.append(t(lang, "season.champion", name=board_name(board.champion.name, lang)))
    lines.append("")
    lines.append(t(lang, "season.how"))
    return "\n".join(lines)


def _line(rank: int, standing: Standing, lang: str) -> SeasonLine:
    return SeasonLine(rank, board_name(standing.name, lang), standing.points, standing.wins, standing.matches,
                      standing.bonus)


def season_scene(board: SeasonBoard, lang: str) -> SeasonScene:
    """The standings' picture, its names as players read them in `lang`."""
    return SeasonScene(board.month, board.everyone, board.chat, board.running, board.ends,
                       tuple(_line(rank, s, lang) for rank, s in board.lines),
                       _line(*board.asker, lang) if board.asker is not None else None)


def _past(season: PastSeason, lang: str, key: str) -> str:
    standing = season.standing
    return t(lang, key, month=month_name(season.month, lang),
             place=t(lang, "season.place", rank=season.rank, people=season.people), people=season.people,
             points=tn(lang, "season.points", standing.points), wins=tn(lang, "season.wins", standing.wins),
             matches=tn(lang, "season.matches", standing.matches))


def history_text(history: SeasonHistory, lang: str) -> str:
    """A player's seasons: this month's so far, then each past one, the seasons won counted."""
    if history.everyone:
        scope = t(lang, "season.history.everyone")
    else:
        scope = history.chat or t(lang, "season.history.here")
    lines = [t(lang, "season.history.title", name=board_name(history.name, lang), scope=scope)]
    if history.current is not None:
        lines.append(_past(history.current, lang, "season.history.current"))
    for season in history.past:
        won = season.rank == 1 and season.people >= 2 and season.standing.points > 0
        lines.append(_past(season, lang, "season.history.row_champion" if won else "season.history.row"))
    if not history.past:
        lines.append(t(lang, "season.history.none"))
    elif history.titles:
        lines.append(tn(lang, "season.history.titles", history.titles))
    return "\n".join(lines)


def unknown_player_text(name: str | None, lang: str) -> str:
    """No such player in the chat's seasons: named as typed, or (a reply, a mention) not."""
    if name:
        return t(lang, "season.history.unknown", name=name)
    return t(lang, "season.history.nobody")


def closed_text(close: SeasonClose, lang: str) -> str:
    """The champion's announcement when the month turns, with the next places."""
    board = close.board
    champion = board.champion
    assert champion is not None
    lines = [t(lang, "season.closed", month=month_name(board.month, lang),
               name=board_name(champion.name, lang), points=tn(lang, "season.points", champion.points),
               wins=tn(lang, "season.wins", champion.wins),
               matches=tn(lang, "season.matches", champion.matches))]
    following = [t(lang, "season.closed.next_row", rank=rank, name=board_name(s.name, lang),
                   points=tn(lang, "season.points", s.points))
                 for rank, s in board.lines[1:1 + CLOSED_NEXT]]
    if following:
        lines.append(t(lang, "season.closed.next", rows=", ".join(following)))
    lines.append(t(lang, "season.closed.new"))
    return "\n".join(lines)
