"""Telegram HTML around the shared plain-text rendering.

Everything a user typed (names, titles) reaches Telegram escaped; the words
come from the catalogue, the layout from `bot.render`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from ...engine import Card, Move
from ...i18n import t, tn
from ...pictures import HandScene, parse_style
from ...render import (
    blocked_text,
    breakdown_rows,
    card_label,
    card_legend,
    cards_text,
    fuori_line,
    hand_cards_text,
    lobby_text,
    match_text,
    monospace_table,
    move_label,
    play_line,
    score_text,
    table_text,
)
from ...render_counts import round_counts_text
from ...sessions import HandView, LobbyView, MatchEnded, RoundEnded, TableView
from ...sessions.interaction import PLAIN, FuoriOutcome, HandMode, HandPrompt
from .outbox import CAPTION_LIMIT

ALERT_LIMIT = 200


def escape(text: str) -> str:
    return html.escape(text, quote=False)


def titled(plain: str) -> str:
    """The first line in bold, everything escaped."""
    first, newline, rest = plain.partition("\n")
    return f"<b>{escape(first)}</b>{newline}{escape(rest)}"


def lobby_html(view: LobbyView, lang: str) -> str:
    return titled(lobby_text(view, lang))


def table_html(view: TableView, lang: str, now: float | None = None) -> str:
    text = titled(table_text(view, lang, now=now))
    notes = [t(lang, "telegram.table.autoplay", name=seat.name)
             for seat in view.seats if seat.autoplay and not seat.is_computer]
    if notes and not view.finished:
        text += "\n" + escape("\n".join(notes))
    return text


def caption(html_text: str) -> str:
    """`html_text` as a photo's caption: it must parse to at most 1,024 characters."""
    if len(html.unescape(re.sub(r"<[^>]+>", "", html_text))) <= CAPTION_LIMIT:
        return html_text
    return escape(clip(html.unescape(re.sub(r"<[^>]+>", "", html_text)), CAPTION_LIMIT))


def lobby_caption(view: LobbyView, lang: str) -> str:
    return caption(lobby_html(view, lang))


def table_caption(view: TableView, lang: str, now: float | None = None) -> str:
    """Under the table's picture, what it cannot show well: the last play in words, the score,
    and whose turn it is (with the seconds left)."""
    style = view.deck_style
    lines: list[str] = []
    if view.last_plays:
        last = view.last_plays[-1]
        lines.append(play_line(last.name, last.card, last.captured, last.scopa, lang, style))
    lines.append(t(lang, "table.score", score=score_text(view), target=view.target))
    full = table_text(view, lang, now=now).split("\n")
    lines.append(full[-1])
    notes = [t(lang, "telegram.table.autoplay", name=seat.name)
             for seat in view.seats if seat.autoplay and not seat.is_computer]
    if notes and not view.finished:
        lines.extend(notes)
    return escape(clip("\n".join(lines), CAPTION_LIMIT))


SAMPLE = tuple(Card.parse(code) for code in ("1D", "7C", "8S", "10B"))
"""One card of each suit, a figure among them: what a deck looks like, in the lobby."""


def deck_sample(style: str) -> HandScene:
    return HandScene(parse_style(style), SAMPLE, frozenset(SAMPLE), True)


def cancelled_html(lang: str, by: str | None, started: bool) -> str:
    if by:
        return escape(t(lang, "lobby.cancelled", name=by))
    return escape(t(lang, "match.cancelled" if started else "telegram.lobby.closed"))


def breakdown_html(event: RoundEnded, lang: str) -> str:
    title = f"<b>{escape(t(lang, 'round.title', round=event.result.number))}</b>\n"
    fuori = fuori_line(event, lang)
    if fuori:
        title += f"{escape(fuori)}\n"
    return (f"{title}<pre>{escape(monospace_table(breakdown_rows(event, lang)))}</pre>\n"
            f"{escape(round_counts_text(event, lang))}")


def match_html(event: MatchEnded, lang: str) -> str:
    return titled(match_text(event, lang))


def hand_html(view: HandView, lang: str, variant: str, *, prompt: HandPrompt = PLAIN,
              autoplay: bool = False, fuori: Sequence[tuple[Move, FuoriOutcome]] = (),
              fuori_wins: bool = False, legend: bool = False) -> str:
    """The hand's text (or caption). While declaring fuori with one card, `fuori` says what each
    of its plays would mean now; `fuori_wins` adds the 🏁 hint; `legend` explains the labels."""
    style = view.deck_style
    title = t(lang, "hand.title", variant=t(lang, f"variant.{variant}"), game=view.game_id)
    lines = [f"<b>{escape(title)}</b>"]
    if view.my_turn and not view.finished:
        lines.append(escape(t(lang, "hand.table", cards=cards_text(view.table, style) or "—")))
    lines.append(escape(hand_cards_text(view, lang)))
    picked = next((c for c in view.choices if c.card.code == prompt.card), None)
    if view.finished:
        lines.append(escape(t(lang, "hand.over")))
    elif autoplay:
        lines.append(escape(t(lang, "telegram.hand.autoplay")))
    elif view.my_turn:
        if prompt.mode is HandMode.DECLARING and view.may_declare and picked is not None:
            lines.append(escape(t(lang, "telegram.fuori.confirm", card=card_label(picked.card, style))))
            for move, outcome in fuori:
                key = "telegram.fuori.wins" if outcome.wins else "telegram.fuori.loses"
                lines.append(escape(t(lang, key, move=move_label(move, style),
                                      points=tn(lang, "count.sure_points", outcome.points),
                                      target=outcome.target)))
        elif prompt.mode is HandMode.DECLARING and view.may_declare:
            lines.append(escape(t(lang, "hand.fuori")))
        elif prompt.mode is HandMode.CHOOSING and picked is not None and len(picked.moves) > 1:
            lines.append(escape(t(lang, "hand.choose", card=card_label(picked.card, style))))
        else:
            lines.append(escape(t(lang, "hand.your_turn")))
            blocked = blocked_text(view, lang)
            if blocked:
                lines.append(escape(blocked))
            if fuori_wins and view.may_declare:
                lines.append(escape(t(lang, "telegram.fuori.hint")))
    else:
        lines.append(escape(t(lang, "hand.wait")))
    if legend:
        lines.append(f"<i>{escape(card_legend(style, lang, buttons=True))}</i>")
    return "\n".join(lines)


def hand_lobby_html(lang: str, variant: str, chat_title: str | None) -> str:
    return escape(t(lang, "telegram.hand.lobby", variant=t(lang, f"variant.{variant}"),
                    chat=chat_title or "—"))


def hand_closed_html(lang: str, started: bool) -> str:
    return escape(t(lang, "hand.over" if started else "telegram.lobby.closed"))


def hand_alert(view: HandView, lang: str) -> str:
    """A player's hand as an alert (plain text, at most 200 characters)."""
    style = view.deck_style
    text = t(lang, "telegram.alert.hand", cards=cards_text(view.hand, style) or "—",
             table=cards_text(view.table, style) or "—")
    if view.my_turn:
        text += "\n" + t(lang, "hand.your_turn")
    return clip(text)


def clip(text: str, limit: int = ALERT_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"

