"""Plain-text rendering of views and events, shared by every front-end.

Front-ends add their own markup (Telegram HTML, Discord embeds, the terminal)
around these lines; the words all come from the catalogue.
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Sequence
from typing import Any

from ..engine import DECK, Card, Move, Rules, Suit
from ..engine.rules import HOUSE_RULES, Primiera, Variant, parse_variant
from ..i18n import t, tn
from ..sessions import (
    GameStatus,
    HandView,
    LobbyView,
    MovePlayed,
    PlayLine,
    Refused,
    TableView,
)
from ..sessions.interaction import blocked_cards
from ..sessions.newgame_line import line_keys
from ..sessions.options import options_for
from ..sessions.ports import StorageAway, StorageFailed
from ..sessions.service import LOBBY_IDLE

_ITALIAN = {Suit.DENARI: "🪙", Suit.COPPE: "🏆", Suit.SPADE: "🗡️", Suit.BASTONI: "🪵"}
SUIT_SIGNS: dict[str, dict[Suit, str]] = {
    "napoletane": _ITALIAN,
    "piacentine": {Suit.DENARI: "🟡", Suit.COPPE: "🍷", Suit.SPADE: "⚔️", Suit.BASTONI: "🪵"},
    "siciliane": {Suit.DENARI: "☀️", Suit.COPPE: "🏺", Suit.SPADE: "🔪", Suit.BASTONI: "🪵"},
    "trevisane": _ITALIAN,
    "bergamasche": _ITALIAN,
    "french": {Suit.DENARI: "♦", Suit.COPPE: "♥", Suit.SPADE: "♠", Suit.BASTONI: "♣"},
    "spanish": {Suit.DENARI: "🪙", Suit.COPPE: "🍷", Suit.SPADE: "🗡️", Suit.BASTONI: "🪵"},
}
"""The suit signs each deck's cards are written with, in buttons, alerts, captions and tables.
Bastoni are a log (🪵) in every Italian deck: a sign players read as a club at once, and as
widely drawn as the coin (both Emoji 13.0)."""
_RANK_LETTERS = {1: "A", 8: "F", 9: "C", 10: "R"}
_FRENCH_RANK_LETTERS = {1: "A", 8: "J", 9: "Q", 10: "K"}
_SPANISH_RANK_LETTERS = {1: "A", 8: "S", 9: "C", 10: "R"}
"""Sota, caballo, rey: the Spanish deck's figures by the letters its players name them with."""
_LETTERS = {"french": _FRENCH_RANK_LETTERS, "spanish": _SPANISH_RANK_LETTERS}
_LEGENDS = {"french": "legend.ranks_french", "spanish": "legend.ranks_spanish"}


def card_label(card: Card, style: str = "napoletane") -> str:
    """A short label for buttons and tables in deck `style`, e.g. `7🪙`, `F🟡`, `Q♠` or `S🍷` (the
    Neapolitan signs for a deck it does not know)."""
    signs = SUIT_SIGNS.get(style, _ITALIAN)
    letters = _LETTERS.get(style, _RANK_LETTERS)
    return letters.get(card.rank, str(card.rank)) + signs[card.suit]


def cards_text(cards: Sequence[Card], style: str = "napoletane") -> str:
    return " ".join(card_label(c, style) for c in cards)


def move_label(move: Move, style: str = "napoletane") -> str:
    """A button label: `7🪙` to lay a card down, `7🪙 → 3🏆+4🗡️` to capture."""
    if not move.captures:
        return card_label(move.card, style)
    return f"{card_label(move.card, style)} → " + "+".join(card_label(c, style) for c in move.captures)


_EXPLAINED = ("ace_takes_all", "re_bello", "napola", "sevens_point", "asso_bello", "fuori", "federal")
"""The two-way options players may not know: the lobby names them when on, /rules explains them."""


def card_legend(style: str, lang: str, *, buttons: bool = False) -> str:
    """What the letters and suit signs of deck `style` mean: F/C/R (J/Q/K for the French deck,
    S/C/R for the Spanish one) and the four suits, for /help and the first hand; with
    `buttons`, also the 🚫 that chat buttons put on a card that cannot be played now."""
    suits = {suit: card_label(next(c for c in DECK if c.suit is suit and c.rank == 2), style)[1:]
             for suit in Suit}
    ranks = t(lang, _LEGENDS.get(style, "legend.ranks_italian"))
    legend = t(lang, "legend.text", ranks=ranks, suits=t(
        lang, "legend.suits", denari=suits[Suit.DENARI], coppe=suits[Suit.COPPE],
        spade=suits[Suit.SPADE], bastoni=suits[Suit.BASTONI]))
    return f"{legend} {t(lang, 'legend.blocked')}" if buttons else legend


def is_escoba(variant: str | None) -> bool:
    return variant == Variant.ESCOBA.value


def sweep_count(count: int, lang: str, variant: str | None = None) -> str:
    """`1 scopa`, `2 scope`; `1 escoba`, `2 escobas` in an escoba, in every language."""
    return tn(lang, "count.escoba" if is_escoba(variant) else "count.scopa", count)


def sweep_text(lang: str, variant: str | None = None) -> str:
    """The announcement of a sweep: "Scopa!", or "Escoba!" in an escoba."""
    return t(lang, "play.escoba" if is_escoba(variant) else "play.scopa")


RATING_BASE = 1000
RATING_SCALE = 40
"""Ratings are shown as `RATING_BASE + RATING_SCALE * (mu - 3 sigma)`: a new player shows 1000
and one lost match does not make it negative, as the raw conservative rating would."""


def rating_shown(value: float) -> str:
    return str(round(RATING_BASE + RATING_SCALE * value))


def display_width(text: str) -> int:
    """Columns `text` takes in a monospaced font: emoji and wide characters take two,
    combining marks, joiners and variation selectors none (an emoji variation selector
    makes the sign before it two columns wide)."""
    width = 0
    previous = 0
    for char in text:
        code = ord(char)
        if char == "\ufe0f":
            width += 1 if previous == 1 else 0
            previous = 2
            continue
        if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf") \
                or 0xFE00 <= code <= 0xFE0F:
            continue
        wide = unicodedata.east_asian_width(char) in ("W", "F") or 0x1F000 <= code <= 0x1FAFF
        previous = 2 if wide else 1
        width += previous
    return width


def short_name(name: str, width: int) -> str:
    """`name` in at most `width` columns, cut at a word when it can be (`Maria Luisa Rossi` ->
    `Maria Luisa…`)."""
    if display_width(name) <= width:
        return name
    words = name.split()
    kept = ""
    for word in words:
        candidate = f"{kept} {word}" if kept else word
        if display_width(candidate) + 1 > width:
            break
        kept = candidate
    if not kept:
        for char in name:
            if display_width(kept + char) + 1 > width:
                break
            kept += char
    return kept.rstrip(" &") + "…"


def padded(cell: str, width: int, left: bool) -> str:
    space = " " * max(0, width - display_width(cell))
    return cell + space if left else space + cell


def house_rule_label(name: str, lang: str, variant: str | None = None) -> str:
    """A house rule's name (engine.rules.HOUSE_RULES), as a switch shows it: in an escoba the
    sevens are its own point (los sietes), not a way of counting the primiera."""
    if name == "primiera":
        return t(lang, "option.primiera.escoba.sevens" if is_escoba(variant) else "option.primiera.sevens")
    return t(lang, f"option.{name}")


def primiera_label(variant: str, primiera: Primiera, lang: str) -> str:
    """How the primiera is counted, as the lobby and /rules name it: an escoba's sevens by
    escoba's own name."""
    escoba = ".escoba" if is_escoba(variant) else ""
    return t(lang, f"option.primiera{escoba}.{primiera.value}")


def round_limit_label(limit: int, lang: str) -> str:
    return t(lang, "option.round_limit", value=limit) if limit else t(lang, "option.no_round_limit")


def rules_summary(variant: str, rules: Rules, lang: str) -> str:
    parts = [t(lang, "option.target", value=rules.target)]
    if rules.round_limit:
        parts.append(t(lang, "option.round_limit", value=rules.round_limit))
    parts.append(t(lang, f"option.capture_choice.{rules.capture_choice.value}"))
    if rules.primiera is not Primiera.CLASSIC or variant == Variant.ESCOBA.value:
        parts.append(primiera_label(variant, rules.primiera, lang))
    default = Rules.default(variant)
    offered = HOUSE_RULES[parse_variant(variant)]
    parts += [t(lang, f"option.{name}") for name in _EXPLAINED
              if name in offered and getattr(rules, name) and not getattr(default, name)]
    parts += [t(lang, f"option.{name}") for name in ("three_kings_redeal", "low_table_redeal")
              if getattr(rules, name)]
    if not rules.must_capture:
        parts.append(t(lang, "option.must_capture.off"))
    if rules.practice:
        parts.append(t(lang, "option.practice"))
    return ", ".join(parts)


def teams_label(teams: int, lang: str) -> str:
    """How the players are seated: in two teams, in three, or each on their own."""
    return t(lang, {0: "option.no_teams", 3: "option.three_teams"}.get(teams, "option.teams"))


def lobby_text(view: LobbyView, lang: str) -> str:
    lines = [t(lang, "lobby.title", variant=t(lang, f"variant.{view.variant}"))]
    lines.append(t(lang, "lobby.rules", rules=rules_summary(view.variant, view.rules, lang)))
    lines.append(teams_label(view.teams, lang))
    lines.append(t(lang, "lobby.deck", deck=t(lang, f"deck.{view.deck_style}")))
    lines.append(turn_limit_text("lobby", view.turn_limit, lang))
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
        lines.append(t(lang, "lobby.hint_full" if view.full and not view.waiting else "lobby.hint"))
        if may_choose_partners(view):
            lines.append(t(lang, "lobby.partners_hint"))
    return "\n".join(lines)


def turn_limit_text(where: str, seconds: int, lang: str) -> str:
    """The `lobby` or `settings` line telling the turn limit; 0 is no clock, said in words."""
    return t(lang, f"{where}.no_clock") if not seconds else t(lang, f"{where}.turn_limit", seconds=seconds)


def may_choose_partners(view: LobbyView) -> bool:
    """Whether a lobby offers its players to sit with a partner: a team game still in its lobby,
    every seat taken (everyone is there to choose, and the buttons take the place of the
    computer players' on Discord), whose teams no draw decides (a federal match draws them)."""
    return view.status == GameStatus.LOBBY and bool(view.teams) and not view.rules.federal and view.full


def score_text(view: TableView) -> str:
    """`Anna & Marco 13 · Luca & Sara 7`."""
    return " · ".join(f"{name} {total}" for name, total in zip(view.side_names, view.totals,
                                                                strict=True))


def play_line_of(play: PlayLine, lang: str, style: str, variant: str | None = None) -> str:
    """A play of a table view; the cards left at a round's end, with who took them."""
    if play.leftover:
        return t(lang, "play.leftover", name=play.name, cards=cards_text(play.captured, style))
    return play_line(play.name, play.card, play.captured, play.scopa, lang, style, variant)


def play_line(name: str, card: Card | None, captured: Sequence[Card], scopa: bool, lang: str,
              style: str, variant: str | None = None) -> str:
    if card is None:
        return t(lang, "play.starting_take", name=name, captured=cards_text(captured, style))
    if captured:
        text = t(lang, "play.captured", name=name, card=card_label(card, style),
                 captured=cards_text(captured, style))
    else:
        text = t(lang, "play.laid", name=name, card=card_label(card, style))
    if scopa:
        text += " " + sweep_text(lang, variant)
    return text


def team_draw_text(view: TableView, lang: str) -> str | None:
    """Who drew which card for the teams of a `federal` match (004 art. 3)."""
    if not view.team_draw:
        return None
    names = {seat.seat: seat.name for seat in view.seats}
    drawn = ", ".join(t(lang, "draw.card", name=names.get(seat, "?"), card=card_label(card, view.deck_style))
                      for seat, card in view.team_draw)
    return t(lang, "draw.teams", drawn=drawn)


def table_text(view: TableView, lang: str, now: float | None = None, *, plays: bool = True,
               timed: bool = True) -> str:
    """The table as text: without the latest `plays` when the front-end lists them itself,
    without the time left to play when the game is not `timed` (the terminal's)."""
    style = view.deck_style
    variant = t(lang, f"variant.{view.variant}")
    if view.round_limit:
        lines = [t(lang, "table.title_limited", variant=variant, round=view.round_number,
                   limit=view.round_limit)]
    else:
        lines = [t(lang, "table.title", variant=variant, round=view.round_number)]
    if view.practice:
        lines.append(t(lang, "table.practice"))
    lines.append(t(lang, "table.table", cards=cards_text(view.table, style)) if view.table
                 else t(lang, "table.empty"))
    lines.append(t(lang, "table.stock", count=view.stock_count))
    drawn = team_draw_text(view, lang)
    if drawn:
        lines.append(drawn)
    lines.append("")
    shown_plays = view.last_plays if plays else ()
    for play in shown_plays:
        lines.append("• " + play_line_of(play, lang, style, view.variant))
    if shown_plays:
        lines.append("")
    for seat in view.seats:
        marker = "➡️ " if seat.seat == view.to_play and not view.finished else ""
        scope = sweep_count(view.scope[seat.seat], lang, view.variant)
        if view.counts_shown and view.captured_counts:
            line = t(lang, "table.seat_counts", name=seat.name, hand=view.hand_counts[seat.seat],
                     taken=tn(lang, "count.taken", view.captured_counts[seat.seat]), scope=scope)
        else:
            line = t(lang, "table.seat_hidden", name=seat.name, hand=view.hand_counts[seat.seat],
                     scope=scope)
        lines.append(marker + line)
    lines.append(t(lang, "table.score", score=score_text(view), target=view.target))
    if view.finished:
        lines.append(t(lang, "table.finished"))
    else:
        name = view.seats[view.to_play].name
        if timed and view.deadline is not None and not view.seats[view.to_play].is_computer:
            seconds = max(0, round(view.deadline - (now if now is not None else time.time())))
            lines.append(t(lang, "table.turn_deadline", name=name, seconds=seconds))
        else:
            lines.append(t(lang, "table.turn", name=name))
    return "\n".join(lines)


def hand_text(view: HandView, lang: str, variant: str) -> str:
    style = view.deck_style
    lines = [t(lang, "hand.title", variant=t(lang, f"variant.{variant}"), game=view.game_id)]
    lines.append(t(lang, "hand.table", cards=cards_text(view.table, style) or "—"))
    lines.append(hand_cards_text(view, lang))
    if view.finished:
        lines.append(t(lang, "match.cancelled" if view.cancelled else "hand.over"))
    elif view.my_turn:
        lines.append(t(lang, "hand.your_turn"))
    else:
        lines.append(t(lang, "hand.wait"))
    return "\n".join(lines)


def blocked_text(view: HandView, lang: str) -> str | None:
    """The cards a compulsory capture bars now, under a hand whose buttons mark them 🚫."""
    blocked = blocked_cards(view)
    if not blocked:
        return None
    return t(lang, "hand.blocked", cards=" ".join(card_label(b.card, view.deck_style) for b in blocked))


def hand_cards_text(view: HandView, lang: str) -> str:
    """`Your cards: …`, or that they lie face down until the player's first turn (federal rules)."""
    if view.face_down:
        return t(lang, "hand.face_down", count=view.face_down)
    return t(lang, "hand.cards", cards=cards_text(view.hand, view.deck_style) or "—")


def move_text(event: MovePlayed, lang: str, style: str) -> str:
    """A play as the chat reads it; at a round's end, also who took the cards left on the table."""
    text = play_line(event.name, event.card, event.captured, event.scopa, lang, style,
                     event.variant)
    if event.swept_by_ace:
        text += " " + t(lang, "play.ace_sweep")
    if event.fuori:
        text += " " + t(lang, "play.fuori")
    if event.timed_out:
        text = t(lang, "play.timed_out", name=event.name) + "\n" + text
    if event.leftover and event.leftover_seat is not None:
        text += "\n" + t(lang, "play.leftover", name=event.leftover_name or event.name,
                         cards=cards_text(event.leftover, style))
    return text


QUOTE_MOST = 48
"""At most this many characters of what a user sent are quoted back: a refusal of a 5,000-character
argument must itself fit in a message."""


def quoted(value: object) -> object:
    if isinstance(value, str) and len(value) > QUOTE_MOST:
        return value[:QUOTE_MOST - 1] + "…"
    return value


def _shown(value: object, style: str) -> object:
    """A refusal's parameter as a user reads it: cards and moves with the signs of the game's
    deck (the refusal's `deck_style`)."""
    if isinstance(value, Move):
        return move_label(value, style)
    if isinstance(value, Card):
        return card_label(value, style)
    if isinstance(value, tuple):
        return ", ".join(str(quoted(item)) for item in value)
    return quoted(value)


def newgame_help(lang: str, key: str = "newgame.help", variant: str | None = None) -> str:
    """How to set a game's options on /newgame's line (`key`: the front-end's wording); with
    `variant`, only the options that game has (no fuori in the help of a scopa or an escoba)."""
    keys = line_keys()
    if variant is not None:
        offered = {option.key for option in options_for(variant)}
        keys = tuple(name for name in keys if name in offered)
    return t(lang, key, options=", ".join(keys))


ENGINE_LANGUAGE = "en"
"""The language of the engine's explanations (`InvalidInputError`, `IllegalMoveError`): a refusal
in another language quotes what the user asked (its `asked` parameter) instead, so that each
message is in one language."""


def refusal_text(refused: Refused, lang: str) -> str:
    params: dict[str, Any] = {"detail": "", "count": 0, "names": "", "game_id": "", "game": "", "games": ""}
    style = str(refused.params.get("deck_style", "napoletane"))
    params.update({key: _shown(value, style) for key, value in refused.params.items()})
    minutes = refused.params.get("minutes", LOBBY_IDLE // 60)
    params["minutes"] = tn(lang, "count.minutes", minutes) if isinstance(minutes, int) else minutes
    if "games" in refused.params:
        params["games"] = ", ".join(t(lang, f"variant.{game}") for game in refused.params["games"])
    if "asked" in refused.params and lang != ENGINE_LANGUAGE:
        params["detail"] = params["asked"]
    return t(lang, f"refused.{refused.reason.value}", **params)


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
        lines.append(tn(lang, "rules.explain.round_limit", rules.round_limit))
    return "\n".join(lines)


def failure_text(error: BaseException, lang: str) -> str:
    """What a user is told when their request failed for a reason of the bot's own."""
    if isinstance(error, StorageAway):
        return away_text(lang)
    return t(lang, "error.storage" if isinstance(error, StorageFailed) else "error.internal")


def away_text(lang: str) -> str:
    """What a user is told when the database is away for a moment (restarting, or too slow to
    answer in time): nothing was changed, and trying again shortly will do."""
    return t(lang, "error.storage_away")
