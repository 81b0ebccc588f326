"""Telegram HTML around the shared plain-text rendering.

Everything a user typed (names, titles) reaches Telegram escaped; the words
come from the catalogue, the layout from `bot.render`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from ...engine import Move
from ...i18n import t, tn
from ...pictures import LobbyScene, lobby_scene
from ...render.counts import round_counts_text
from ...render.round import breakdown_rows, breakdown_table, fuori_line, match_text, round_caption
from ...render.words import (
    blocked_text,
    card_label,
    card_legend,
    cards_text,
    hand_cards_text,
    lobby_text,
    move_label,
    play_line_of,
    score_text,
    table_text,
)
from ...sessions import HandView, LobbyView, MatchEnded, PlayLine, RecapLine, RoundEnded, TableView
from ...sessions.interaction import PLAIN, FuoriOutcome, HandMode, HandPrompt
from .outbox import CAPTION_LIMIT
from .recap import earlier_lines, unshown

ALERT_LIMIT = 200


def escape(text: str) -> str:
    return html.escape(text, quote=False)


def titled(plain: str) -> str:
    """The first line in bold, everything escaped."""
    first, newline, rest = plain.partition("\n")
    return f"<b>{escape(first)}</b>{newline}{escape(rest)}"


def lobby_html(view: LobbyView, lang: str) -> str:
    return titled(lobby_text(view, lang))


def table_html(view: TableView, lang: str, now: float | None = None,
               unseen: Sequence[RecapLine] = ()) -> str:
    """The table in words, the last play marked when the timer made it (`TableView.timed_out`);
    `unseen`: the plays since the drawing the group saw last, those its latest plays leave out
    told above them."""
    lines = table_text(view, lang, now=now).split("\n")
    earlier = earlier_lines(unshown(unseen, view, len(view.last_plays)), view, lang)
    if earlier:
        at = next((i for i, line in enumerate(lines) if line.startswith("• ")), None)
        if at is None:
            at = lines.index("") + 1
            earlier.append("")
        lines[at:at] = earlier
    text = titled("\n".join(lines))
    notes = [t(lang, "telegram.table.autoplay", name=seat.name)
             for seat in view.seats if seat.autoplay and not seat.is_computer]
    if view.timed_out:
        notes.insert(0, t(lang, "play.timed_out_note", name=view.last_plays[-1].name))
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


def table_caption(view: TableView, lang: str, now: float | None = None,
                  unseen: Sequence[RecapLine] = ()) -> str:
    """Under the table's picture, what it cannot show well: the plays since the drawing the
    group saw last (`unseen`) before the last one, the last play in words (and that the timer
    made it), the score, and whose turn it is (with the seconds left)."""
    lines = earlier_lines(unshown(unseen, view, 1), view, lang)
    if view.last_plays:
        lines.append(last_play_said(view, lang))
    lines.append(t(lang, "table.score", score=score_text(view), target=view.target))
    full = table_text(view, lang, now=now).split("\n")
    lines.append(full[-1])
    notes = [t(lang, "telegram.table.autoplay", name=seat.name)
             for seat in view.seats if seat.autoplay and not seat.is_computer]
    if notes and not view.finished:
        lines.extend(notes)
    return escape(clip("\n".join(lines), CAPTION_LIMIT))


def deck_sample(style: str) -> LobbyScene:
    """What a lobby's picture shows: a few cards of the deck chosen, under its name."""
    return lobby_scene(style)


def cancelled_html(lang: str, by: str | None, started: bool) -> str:
    if by:
        return escape(t(lang, "lobby.cancelled", name=by))
    return escape(t(lang, "match.cancelled" if started else "telegram.lobby.closed"))


def breakdown_html(event: RoundEnded, lang: str) -> str:
    title = f"<b>{escape(t(lang, 'round.title', round=event.result.number))}</b>\n"
    fuori = fuori_line(event, lang)
    if fuori:
        title += f"{escape(fuori)}\n"
    return (f"{title}<pre>{escape(breakdown_table(breakdown_rows(event, lang)))}</pre>\n"
            f"{escape(round_counts_text(event, lang))}")


def round_caption_html(event: RoundEnded, lang: str, target: int) -> str:
    """Under a round's picture: who took the round and the match's score."""
    return caption(titled(round_caption(event, lang, target)))


def match_html(event: MatchEnded, lang: str) -> str:
    return titled(match_text(event, lang))


def last_play_said(view: TableView, lang: str) -> str:
    """The table's last play in words, and that the turn timer made it (`TableView.timed_out`)."""
    last = view.last_plays[-1]
    said = play_line_of(last, lang, view.deck_style, view.variant)
    if view.timed_out and not last.leftover:
        said += " " + t(lang, "play.timed_out_note", name=last.name)
    return said


def seat_lines(table: TableView, lang: str, plays: Sequence[PlayLine] | None = None) -> list[str]:
    """What a player needs of the table in their private chat, so that one chat is enough to
    play: the `plays` since their last turn (by default the last play; the timer's marked), the
    cards on the table, the score."""
    style = table.deck_style
    lines: list[str] = []
    if plays is None:
        plays = table.last_plays[-1:]
    if len(plays) > 1:
        lines.append(escape(t(lang, "hand.since_turn")))
    for index, play in enumerate(plays):
        said = play_line_of(play, lang, style, table.variant)
        if table.timed_out and index == len(plays) - 1 and not play.leftover:
            said += " " + t(lang, "play.timed_out_note", name=play.name)
        lines.append(escape(f"• {said}" if len(plays) > 1 else said))
    lines.append(escape(t(lang, "hand.table", cards=cards_text(table.table, style) or "—")))
    lines.append(escape(t(lang, "table.score", score=score_text(table), target=table.target)))
    return lines


def hand_html(view: HandView, lang: str, variant: str, *, prompt: HandPrompt = PLAIN,
              autoplay: bool = False, fuori: Sequence[tuple[Move, FuoriOutcome]] = (),
              fuori_wins: bool = False, legend: bool = False, table: TableView | None = None) -> str:
    """The hand's text (or caption). While declaring fuori with one card, `fuori` says what each
    of its plays would mean now; `fuori_wins` adds the 🏁 hint; `legend` explains the labels.
    With the `table`, the message shows the game as well (`seat_lines`), the last play marked
    when the timer made it; it says when the computer played the player's last card for them
    (`HandView.played_for`)."""
    style = view.deck_style
    title = t(lang, "hand.title", variant=t(lang, f"variant.{variant}"), game=view.game_id)
    lines = [f"<b>{escape(title)}</b>"]
    if table is not None and not view.finished:
        shown = view.shown_plays(table.last_plays[-1] if table.last_plays else None)
        lines.extend(seat_lines(table, lang, shown))
    elif view.my_turn and not view.finished:
        lines.append(escape(t(lang, "hand.table", cards=cards_text(view.table, style) or "—")))
    if view.played_for is not None and not view.finished:
        lines.append(escape(t(lang, "telegram.hand.played_for_you")))
    lines.append(escape(hand_cards_text(view, lang)))
    picked = next((c for c in view.choices if c.card.code == prompt.card), None)
    if view.finished:
        lines.append(escape(t(lang, "match.cancelled" if view.cancelled else "hand.over")))
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
    elif table is not None and not table.finished:
        lines.append(escape(t(lang, "hand.wait_for", name=table.seats[table.to_play].name)))
    else:
        lines.append(escape(t(lang, "hand.wait")))
    if legend:
        lines.append(f"<i>{escape(card_legend(style, lang, buttons=True))}</i>")
    return "\n".join(lines)


def hand_lobby_html(lang: str, variant: str, chat_title: str | None, here: bool = False) -> str:
    """The note of a seat taken in a lobby: naming the group it is in, or, for a game in this
    very private chat, saying so (its title would be the player's own name)."""
    if here:
        return escape(t(lang, "telegram.hand.lobby_here", variant=t(lang, f"variant.{variant}")))
    return escape(t(lang, "telegram.hand.lobby", variant=t(lang, f"variant.{variant}"),
                    chat=chat_title or "—"))


def hand_closed_html(lang: str, started: bool) -> str:
    return escape(t(lang, "match.cancelled" if started else "telegram.lobby.closed"))


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

