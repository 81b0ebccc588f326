"""A chat's leaderboard and a player's record in words, for every front-end."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from ..i18n import t, tn
from ..sessions import LeaderboardLine
from ..sessions.ports import ERASED_NAME
from .words import rating_shown, sweep_count


def leaderboard_text(rows: Sequence[LeaderboardLine], lang: str, global_scope: bool,
                     variant: str | None = None, chat: str | None = None) -> str:
    """The ranking; sweeps are named as in `variant` (the game the chat plays, `sessions.queries.chat_game`).
    A chat's board names the chat by its title `chat` when it has one, so that it reads right
    wherever the answer goes (a group's, sent to the asker's private chat)."""
    if global_scope:
        scope = t(lang, "leaderboard.global")
    else:
        scope = t(lang, "leaderboard.chat_named", chat=chat) if chat else t(lang, "leaderboard.chat")
    lines = [t(lang, "leaderboard.title", scope=scope)]
    if not rows:
        lines.append(t(lang, "leaderboard.empty"))
    for rank, row in enumerate(rows, 1):
        lines.append(t(lang, "leaderboard.row", rank=rank, name=board_name(row.display_name, lang),
                       rating=rating_shown(row.rating), games=tn(lang, "count.games", row.games),
                       wins=tn(lang, "count.wins", row.wins), rate=round(100 * row.win_rate),
                       scope=sweep_count(row.scope, lang, variant)))
    return "\n".join(lines)


def board_name(name: str, lang: str) -> str:
    """A name on a board: an erased player's results stay there as a former player's."""
    return t(lang, "privacy.former_player") if name == ERASED_NAME else name


def accuracy_shown(value: float) -> str:
    """An accuracy as players read it: a whole number from 0 to 100."""
    return str(math.floor(value + 0.5))


def stats_text(name: str, stats: dict[str, Any], lang: str, variant: str | None = None) -> str:
    """A player's record; sweeps are named as in `variant` (see `leaderboard_text`)."""
    lines = [t(lang, "stats.title", name=name)]
    left_out = left_out_text(stats, lang)
    if not stats.get("games"):
        lines.append(t(lang, "stats.none_counted" if left_out else "stats.none"))
        lines.extend(left_out)
        return "\n".join(lines)
    lines.append(t(lang, "stats.summary", games=tn(lang, "count.games", stats["games"]),
                   wins=tn(lang, "count.wins", stats["wins"]),
                   scope=sweep_count(stats["scope"], lang, variant),
                   points=tn(lang, "count.points", stats["points"])))
    if "best_streak" in stats:
        lines.append(t(lang, "stats.records", scope=sweep_count(stats["scope_record"], lang, variant),
                       settebello=tn(lang, "count.feat_times", stats["settebello"]),
                       primiera=tn(lang, "count.feat_rounds", stats["primiera"]),
                       streak=tn(lang, "count.feat_streak", stats["best_streak"])))
    if stats.get("by_variant"):
        lines.append(t(lang, "stats.by_variant", variants=", ".join(
            t(lang, "stats.variant_record", variant=t(lang, f"variant.{name}"), wins=wins, losses=losses)
            for name, (wins, losses) in sorted(stats["by_variant"].items()))))
    kinds = stats.get("win_kinds") or {}
    if any(kinds.values()):
        lines.append(t(lang, "stats.win_kinds", **{
            kind: tn(lang, f"count.win_kind.{kind}", kinds.get(kind, 0))
            for kind in ("semplice", "doppia", "tripla")}))
    if stats.get("reviewed") and stats.get("accuracy") is not None:
        lines.append(t(lang, "stats.accuracy", accuracy=accuracy_shown(stats["accuracy"]),
                       matches=tn(lang, "count.reviewed", stats["reviewed"])))
    for ladder, data in sorted(stats.get("ratings", {}).items()):
        lines.append(t(lang, "stats.ladder", ladder=t(lang, f"ladder.{ladder}"),
                       rating=rating_shown(data["rating"]), games=tn(lang, "count.games", data["games"]),
                       wins=tn(lang, "count.wins", data["wins"])))
    lines.extend(achievements_text(stats, lang))
    lines.extend(left_out)
    return "\n".join(lines)


def achievements_text(stats: dict[str, Any], lang: str) -> list[str]:
    """The line listing a player's achievements with the day (UTC) each was earned, or none:
    `stats["achievements"]` holds (code, when last earned, how many times) each."""
    earned = stats.get("achievements") or []
    if not earned:
        return []
    return [t(lang, "stats.achievements", achievements=", ".join(
        _achievement(code, at, times, lang) for code, at, times in earned))]


def _achievement(code: str, at: float, times: int, lang: str) -> str:
    """An achievement with the day it was (last) earned, and how many times when more than once
    (tournaments won)."""
    day = datetime.fromtimestamp(at, UTC).date().isoformat()
    if times > 1:
        return t(lang, "stats.achievement_times", name=t(lang, f"feat.{code}"),
                 times=tn(lang, "count.feat_times", times), day=day)
    return t(lang, "stats.achievement", name=t(lang, f"feat.{code}"), day=day)


def achievements_line(earned: Sequence[tuple[str, str]], lang: str) -> str:
    """The chat's one line telling the achievements earned in a match: (name, code) each."""
    return t(lang, "feats.line", earned=" · ".join(
        t(lang, "feats.earned", name=name, feat=t(lang, f"feat.{code}")) for name, code in earned))


def left_out_text(stats: dict[str, Any], lang: str) -> list[str]:
    """The line naming the finished matches /stats leaves out (practice matches, deals of the
    day), or none."""
    parts = [_apart(tn(lang, key, stats[name]), stats.get(f"{name}_won"), lang)
             for name, key in (("practice", "count.practice_matches"), ("dailies", "count.dailies"))
             if stats.get(name)]
    return [t(lang, "stats.left_out", matches=", ".join(parts))] if parts else []


def _apart(matches: str, won: int | None, lang: str) -> str:
    """Matches left out, with how many of them were won where that is known."""
    return matches if won is None else t(lang, "stats.apart", matches=matches,
                                         won=tn(lang, "count.feat_won", won))
