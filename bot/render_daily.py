"""The words of the deal of the day: its start, its boards and yesterday's winner."""

from __future__ import annotations

from .i18n import t, tn
from .sessions import DailyBoard, DailyLine, DailyStart
from .sessions.daily import DAILY_TARGET


def margin_shown(margin: int) -> str:
    """A margin with its sign: +7, 0, −3."""
    return f"+{margin}" if margin > 0 else (f"−{-margin}" if margin < 0 else "0")


def yesterday_text(winner: DailyLine | None, lang: str) -> str | None:
    if winner is None:
        return None
    return t(lang, "daily.yesterday", name=winner.name, margin=margin_shown(winner.margin))


def daily_started_text(start: DailyStart, lang: str) -> str:
    """What the player reads in the chat the deal is played in, above its table; asked again
    while it is under way, that it is (the hand follows)."""
    if start.resumed:
        return t(lang, "daily.resumed", day=start.day)
    lines = [t(lang, "daily.started", day=start.day, target=DAILY_TARGET)]
    yesterday = yesterday_text(start.yesterday, lang)
    return "\n".join(lines if yesterday is None else [*lines, yesterday])


def daily_sent_text(start: DailyStart, lang: str) -> str:
    """The answer where /daily was asked when the deal went to the private chat."""
    yesterday = yesterday_text(start.yesterday, lang)
    sent = t(lang, "daily.sent")
    return sent if yesterday is None else f"{sent}\n{yesterday}"


def daily_board_text(board: DailyBoard, lang: str) -> str:
    title = t(lang, "daily.board.global" if board.everyone else "daily.board.chat", day=board.day)
    lines = [title]
    if not board.lines:
        lines.append(t(lang, "daily.board.empty"))
    for line in board.lines:
        lines.append(t(lang, "daily.board.row", rank=line.rank, name=line.name,
                       margin=margin_shown(line.margin), moves=tn(lang, "daily.moves", line.moves)))
    if board.lines:
        lines.append(t(lang, "daily.board.how"))
    yesterday = yesterday_text(board.yesterday, lang)
    return "\n".join(lines if yesterday is None else [*lines, yesterday])
