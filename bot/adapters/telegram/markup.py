"""Telegram HTML around the shared plain-text rendering.

Everything a user typed (names, titles) reaches Telegram escaped; the words
come from the catalogue, the layout from `bot.render`.
"""

from __future__ import annotations

import html

from ...i18n import t
from ...render import (
    breakdown_rows,
    card_label,
    cards_text,
    fuori_line,
    lobby_text,
    match_text,
    monospace_table,
    table_text,
)
from ...sessions import HandView, LobbyView, MatchEnded, RoundEnded, TableView
from .callbacks import DECLARING

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


def cancelled_html(lang: str, by: str | None, started: bool) -> str:
    if by:
        return escape(t(lang, "lobby.cancelled", name=by))
    return escape(t(lang, "match.cancelled" if started else "telegram.lobby.closed"))


def breakdown_html(event: RoundEnded, lang: str) -> str:
    title = f"<b>{escape(t(lang, 'round.title', round=event.result.number))}</b>\n"
    fuori = fuori_line(event, lang)
    if fuori:
        title += f"{escape(fuori)}\n"
    return f"{title}<pre>{escape(monospace_table(breakdown_rows(event, lang)))}</pre>"


def match_html(event: MatchEnded, lang: str) -> str:
    return titled(match_text(event, lang))


def hand_html(view: HandView, lang: str, variant: str, *, choosing: str | None = None,
              autoplay: bool = False) -> str:
    style = view.deck_style
    title = t(lang, "hand.title", variant=t(lang, f"variant.{variant}"), game=view.game_id)
    lines = [f"<b>{escape(title)}</b>"]
    if view.my_turn and not view.finished:
        lines.append(escape(t(lang, "hand.table", cards=cards_text(view.table, style) or "—")))
    lines.append(escape(t(lang, "hand.cards", cards=cards_text(view.hand, style) or "—")))
    if view.finished:
        lines.append(escape(t(lang, "hand.over")))
    elif autoplay:
        lines.append(escape(t(lang, "telegram.hand.autoplay")))
    elif view.my_turn:
        picked = next((c for c in view.choices if c.card.code == choosing), None)
        if choosing == DECLARING and view.may_declare:
            lines.append(escape(t(lang, "hand.fuori")))
        elif picked is not None and len(picked.moves) > 1:
            lines.append(escape(t(lang, "hand.choose", card=card_label(picked.card, style))))
        else:
            lines.append(escape(t(lang, "hand.your_turn")))
    else:
        lines.append(escape(t(lang, "hand.wait")))
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

