"""Plain-text rendering of views and events, shared by every front-end.

Front-ends add their own markup (Telegram HTML, Discord embeds, the terminal)
around these lines; the words all come from the catalogue.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from .engine import Card, DeckStyle, Move, Rules, label
from .engine.rules import HOUSE_RULES, Primiera, Variant, parse_variant
from .i18n import t
from .sessions import (
    GameStatus,
    HandView,
    LeaderboardLine,
    LobbyView,
    MatchEnded,
    MovePlayed,
    Refused,
    RoundEnded,
    TableView,
)
from .sessions.ports import StorageFailed
from .sessions.service import LOBBY_IDLE


def card_label(card: Card, style: str = "napoletane") -> str:
    try:
        return label(card, DeckStyle(style))
    except ValueError:
        return label(card)


def cards_text(cards: Sequence[Card], style: str = "napoletane") -> str:
    return " ".join(card_label(c, style) for c in cards)


def move_label(move: Move, style: str = "napoletane") -> str:
    """A button label: `7🪙` to lay a card down, `7🪙 → 3🏆+4🗡️` to capture."""
    if not move.captures:
        return card_label(move.card, style)
    return f"{card_label(move.card, style)} → " + "+".join(card_label(c, style) for c in move.captures)


_EXPLAINED = ("ace_takes_all", "re_bello", "napola", "sevens_point", "asso_bello", "fuori")
"""The two-way options players may not know: the lobby names them when on, /rules explains them."""


def house_rule_label(name: str, lang: str) -> str:
    """A house rule's name (engine.rules.HOUSE_RULES), as a switch shows it."""
    return t(lang, "option.primiera.sevens" if name == "primiera" else f"option.{name}")


def round_limit_label(limit: int, lang: str) -> str:
    return t(lang, "option.round_limit", value=limit) if limit else t(lang, "option.no_round_limit")


def rules_summary(variant: str, rules: Rules, lang: str) -> str:
    parts = [t(lang, "option.target", value=rules.target)]
    if rules.round_limit:
        parts.append(t(lang, "option.round_limit", value=rules.round_limit))
    parts.append(t(lang, f"option.capture_choice.{rules.capture_choice.value}"))
    if rules.primiera is not Primiera.CLASSIC or variant == Variant.ESCOBA.value:
        parts.append(t(lang, f"option.primiera.{rules.primiera.value}"))
    default = Rules.default(variant)
    offered = HOUSE_RULES[parse_variant(variant)]
    parts += [t(lang, f"option.{name}") for name in _EXPLAINED
              if name in offered and getattr(rules, name) and not getattr(default, name)]
    parts += [t(lang, f"option.{name}") for name in ("three_kings_redeal", "low_table_redeal")
              if getattr(rules, name)]
    if not rules.must_capture:
        parts.append(t(lang, "option.must_capture.off"))
    return ", ".join(parts)


def teams_label(teams: int, lang: str) -> str:
    """How the players are seated: in two teams, in three, or each on their own."""
    return t(lang, {0: "option.no_teams", 3: "option.three_teams"}.get(teams, "option.teams"))


def lobby_text(view: LobbyView, lang: str) -> str:
    lines = [t(lang, "lobby.title", variant=t(lang, f"variant.{view.variant}"))]
    lines.append(t(lang, "lobby.rules", rules=rules_summary(view.variant, view.rules, lang)))
    lines.append(teams_label(view.teams, lang))
    lines.append(t(lang, "lobby.deck", deck=t(lang, f"deck.{view.deck_style}")))
    lines.append(t(lang, "lobby.turn_limit", seconds=view.turn_limit))
    lines.append("")
    lines.append(t(lang, "lobby.seats"))
    for index, seat in enumerate(view.seats):
        number = index + 1
        if seat is None:
            line = t(lang, "lobby.seat_empty", seat=number)
        elif seat.is_computer:
            line = t(lang, "lobby.seat_computer", seat=number, name=seat.name,
                     level=t(lang, f"level.{seat.level or 'medium'}"))
        elif not seat.ready:
            line = t(lang, "lobby.seat_waiting", seat=number, name=seat.name)
        else:
            line = t(lang, "lobby.seat_player", seat=number, name=seat.name)
        if view.teams:
            line += " · " + t(lang, "lobby.team", team="ABC"[index % view.teams])
        lines.append(line)
    if view.status == GameStatus.LOBBY:
        lines.append("")
        lines.append(t(lang, "lobby.hint"))
    return "\n".join(lines)


def score_text(view: TableView) -> str:
    return " · ".join(f"{name} {total}" for name, total in zip(view.side_names, view.totals,
                                                                strict=True))


def play_line(name: str, card: Card | None, captured: Sequence[Card], scopa: bool, lang: str,
              style: str) -> str:
    if card is None:
        return t(lang, "play.starting_take", name=name, captured=cards_text(captured, style))
    if captured:
        text = t(lang, "play.captured", name=name, card=card_label(card, style),
                 captured=cards_text(captured, style))
    else:
        text = t(lang, "play.laid", name=name, card=card_label(card, style))
    if scopa:
        text += " " + t(lang, "play.scopa")
    return text


def table_text(view: TableView, lang: str, now: float | None = None) -> str:
    style = view.deck_style
    variant = t(lang, f"variant.{view.variant}")
    if view.round_limit:
        lines = [t(lang, "table.title_limited", variant=variant, round=view.round_number,
                   limit=view.round_limit)]
    else:
        lines = [t(lang, "table.title", variant=variant, round=view.round_number)]
    lines.append(t(lang, "table.table", cards=cards_text(view.table, style)) if view.table
                 else t(lang, "table.empty"))
    lines.append(t(lang, "table.stock", count=view.stock_count))
    lines.append("")
    for play in view.last_plays:
        lines.append("• " + play_line(play.name, play.card, play.captured, play.scopa, lang, style))
    if view.last_plays:
        lines.append("")
    for seat in view.seats:
        marker = "➡️ " if seat.seat == view.to_play and not view.finished else ""
        lines.append(marker + t(lang, "table.seat_line", name=seat.name,
                                hand=view.hand_counts[seat.seat],
                                taken=view.captured_counts[seat.seat], scope=view.scope[seat.seat]))
    lines.append(t(lang, "table.score", score=score_text(view), target=view.target))
    if view.finished:
        lines.append(t(lang, "table.finished"))
    else:
        name = view.seats[view.to_play].name
        if view.deadline is not None and not view.seats[view.to_play].is_computer:
            seconds = max(0, round(view.deadline - (now if now is not None else time.time())))
            lines.append(t(lang, "table.turn_deadline", name=name, seconds=seconds))
        else:
            lines.append(t(lang, "table.turn", name=name))
    return "\n".join(lines)


def hand_text(view: HandView, lang: str, variant: str) -> str:
    style = view.deck_style
    lines = [t(lang, "hand.title", variant=t(lang, f"variant.{variant}"), game=view.game_id)]
    lines.append(t(lang, "hand.table", cards=cards_text(view.table, style) or "—"))
    lines.append(t(lang, "hand.cards", cards=cards_text(view.hand, style) or "—"))
    if view.finished:
        lines.append(t(lang, "hand.over"))
    elif view.my_turn:
        lines.append(t(lang, "hand.your_turn"))
    else:
        lines.append(t(lang, "hand.wait"))
    return "\n".join(lines)


def move_text(event: MovePlayed, lang: str, style: str) -> str:
    text = play_line(event.name, event.card, event.captured, event.scopa, lang, style)
    if event.swept_by_ace:
        text += " " + t(lang, "play.ace_sweep")
    if event.fuori:
        text += " " + t(lang, "play.fuori")
    if event.timed_out:
        text = t(lang, "play.timed_out", name=event.name) + "\n" + text
    return text


def breakdown_rows(event: RoundEnded, lang: str) -> list[list[str]]:
    """The round breakdown as a table: a header row, then one row per side."""
    result = event.result
    names = [name for name in (result.scores[0].points if result.scores else {})]
    header = [t(lang, "round.header")] + [t(lang, f"round.{n}") for n in names] + [
        t(lang, "round.total"), t(lang, "round.match")]
    rows = [header]
    for side, score in enumerate(result.scores):
        rows.append([event.side_names[side]] + [str(score.points[n]) for n in names]
                    + [str(score.total), str(result.totals[side])])
    return rows


def monospace_table(rows: list[list[str]], max_name: int = 14) -> str:
    clipped = [[row[0][:max_name], *row[1:]] for row in rows]
    widths = [max(len(row[i]) for row in clipped) for i in range(len(clipped[0]))]
    return "\n".join("  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i])
                               for i, cell in enumerate(row)) for row in clipped)


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


def breakdown_text(event: RoundEnded, lang: str) -> str:
    fuori = fuori_line(event, lang)
    return t(lang, "round.title", round=event.result.number) + "\n" + (
        f"{fuori}\n" if fuori else "") + monospace_table(breakdown_rows(event, lang))


def match_text(event: MatchEnded, lang: str) -> str:
    lines = [t(lang, "match.title")]
    if event.winner is not None:
        lines.append(t(lang, "match.winner", name=event.side_names[event.winner]))
    score = " · ".join(f"{n} {p}" for n, p in zip(event.side_names, event.totals, strict=True))
    lines.append(t(lang, "match.totals", score=score))
    for name, before, after in event.rating_changes:
        lines.append(t(lang, "match.rating", name=name, before=f"{before:.1f}", after=f"{after:.1f}"))
    return "\n".join(lines)


QUOTE_MOST = 48
"""At most this many characters of what a user sent are quoted back: a refusal of a 5,000-character
argument must itself fit in a message."""


def quoted(value: object) -> object:
    if isinstance(value, str) and len(value) > QUOTE_MOST:
        return value[:QUOTE_MOST - 1] + "…"
    return value


def _shown(value: object) -> object:
    """A refusal's parameter as a user reads it: cards and moves with their signs."""
    if isinstance(value, Move):
        return move_label(value)
    if isinstance(value, Card):
        return card_label(value)
    return quoted(value)


def refusal_text(refused: Refused, lang: str) -> str:
    params: dict[str, Any] = {"detail": "", "missing": "", "names": "", "game_id": "",
                              "minutes": LOBBY_IDLE // 60}
    params.update({key: _shown(value) for key, value in refused.params.items()})
    return t(lang, f"refused.{refused.reason.value}", **params)


def leaderboard_text(rows: Sequence[LeaderboardLine], lang: str, global_scope: bool) -> str:
    scope = t(lang, "leaderboard.global" if global_scope else "leaderboard.chat")
    lines = [t(lang, "leaderboard.title", scope=scope)]
    if not rows:
        lines.append(t(lang, "leaderboard.empty"))
    for rank, row in enumerate(rows, 1):
        lines.append(t(lang, "leaderboard.row", rank=rank, name=row.display_name,
                       rating=f"{row.rating:.1f}", games=row.games, wins=row.wins,
                       rate=round(100 * row.win_rate), scope=row.scope))
    return "\n".join(lines)


def stats_text(name: str, stats: dict[str, Any], lang: str) -> str:
    lines = [t(lang, "stats.title", name=name)]
    if not stats.get("games"):
        lines.append(t(lang, "stats.none"))
        return "\n".join(lines)
    lines.append(t(lang, "stats.summary", games=stats["games"], wins=stats["wins"],
                   scope=stats["scope"], points=stats["points"]))
    for ladder, data in sorted(stats.get("ratings", {}).items()):
        lines.append(t(lang, "stats.ladder", ladder=t(lang, f"ladder.{ladder}"),
                       rating=f"{data['rating']:.1f}", games=data["games"], wins=data["wins"]))
    return "\n".join(lines)


def rules_text(variant: str, rules: Rules, lang: str) -> str:
    """The variant's rules in short, the options in effect, and what each less common one means."""
    lines = [t(lang, f"rules.{variant}", target=rules.target), "",
             t(lang, "lobby.rules", rules=rules_summary(variant, rules, lang))]
    offered = HOUSE_RULES[parse_variant(variant)]
    lines += [t(lang, f"rules.explain.{name}") for name in _EXPLAINED
              if name in offered and getattr(rules, name)]
    if rules.primiera is Primiera.SEVENS and variant != Variant.ESCOBA.value:
        lines.append(t(lang, "rules.explain.primiera_sevens"))
    if not rules.must_capture:
        lines.append(t(lang, "rules.explain.optional_capture"))
    if rules.round_limit:
        lines.append(t(lang, "rules.explain.round_limit", value=rules.round_limit))
    return "\n".join(lines)


def failure_text(error: BaseException, lang: str) -> str:
    """What a user is told when their request failed for a reason of the bot's own."""
    return t(lang, "error.storage" if isinstance(error, StorageFailed) else "error.internal")
