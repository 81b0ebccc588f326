"""The words of the deal of the day: its offer, its start, the line of the chat it was asked in,
its boards and yesterday's winner."""

from __future__ import annotations

from ..i18n import t, tn
from ..sessions import DailyBoard, DailyLine, DailyOffer, DailyStart, MatchEnded
from ..sessions.daily import DAILY_TARGET
from .boards import board_name


def margin_shown(margin: int) -> str:
    """A margin with its sign: +7, 0, −3."""
    return f"+{margin}" if margin > 0 else (f"−{-margin}" if margin < 0 else "0")


def yesterday_text(winner: DailyLine | None, lang: str) -> str | None:
    if winner is None:
        return None
    return t(lang, "daily.yesterday", name=board_name(winner.name, lang), margin=margin_shown(winner.margin))


def daily_started_text(start: DailyStart, lang: str) -> str:
    """What the player reads in the chat the deal is played in, above its table; asked again
    while it is under way, that it is (the hand follows)."""
    if start.resumed:
        return t(lang, "daily.resumed", day=start.day)
    lines = [t(lang, "daily.started", day=start.day, target=DAILY_TARGET)]
    yesterday = yesterday_text(start.yesterday, lang)
    return "\n".join(lines if yesterday is None else [*lines, yesterday])


def daily_offer_text(offer: DailyOffer, lang: str) -> str:
    """/daily's answer before anything is dealt: what the deal is, to confirm with a tap."""
    lines = [t(lang, "daily.offer", name=offer.name, day=offer.day, target=DAILY_TARGET)]
    yesterday = yesterday_text(offer.yesterday, lang)
    return "\n".join(lines if yesterday is None else [*lines, yesterday])


def daily_playing_text(name: str, day: str, lang: str) -> str:
    """The line of the chat /daily was asked in, once the deal is dealt: who plays it."""
    return t(lang, "daily.playing", name=name, day=day)


def daily_done_text(event: MatchEnded, lang: str) -> str:
    """That line once the deal is over: the player's points, the computer's, and the margin
    the day's board ranks by (the player sits first, the computer second)."""
    points, computer = event.totals[0], event.totals[1]
    return t(lang, "daily.done", name=event.side_names[0], day=event.daily, points=points,
             computer=computer, margin=margin_shown(points - computer))


def daily_unfinished_text(name: str, day: str, lang: str) -> str:
    """That line when the day ended before the deal did."""
    return t(lang, "daily.unfinished", name=name, day=day)


def daily_board_text(board: DailyBoard, lang: str) -> str:
    title = t(lang, "daily.board.global" if board.everyone else "daily.board.chat", day=board.day)
    lines = [title]
    if not board.lines:
        lines.append(t(lang, "daily.board.empty"))
    for line in board.lines:
        lines.append(t(lang, "daily.board.row", rank=line.rank, name=board_name(line.name, lang),
                       margin=margin_shown(line.margin), moves=tn(lang, "daily.moves", line.moves)))
    if board.lines:
        lines.append(t(lang, "daily.board.how"))
    yesterday = yesterday_text(board.yesterday, lang)
    return "\n".join(lines if yesterday is None else [*lines, yesterday])
