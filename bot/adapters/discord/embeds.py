"""Embeds around the shared renderer's text: the lobby, the table, a hand,
a round's breakdown and the end of a match. Every word comes from
`bot.render` and the catalogue; this module only lays them out."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from ...engine import Move
from ...i18n import t, tn
from ...render.counts import round_counts_text
from ...render.round import breakdown_rows, breakdown_table, fuori_line, match_text, round_caption
from ...render.words import (
    blocked_text,
    card_label,
    hand_text,
    lobby_text,
    move_label,
    play_line_of,
    table_text,
)
from ...sessions import HandView, LobbyView, MatchEnded, RoundEnded, TableView
from ...sessions.interaction import PLAIN, FuoriOutcome, HandMode, HandPrompt

LOBBY = discord.Colour.blurple()
TABLE = discord.Colour.dark_green()
ROUND = discord.Colour.gold()
OVER = discord.Colour.dark_grey()
NOTE = discord.Colour.light_grey()

TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FOOTER_MAX = 2048


def text_embed(text: str, colour: discord.Colour = NOTE) -> discord.Embed:
    """The first line as the title, the rest as the description."""
    title, _, body = text.partition("\n")
    if len(title) > TITLE_MAX:
        title, body = "", text
    return discord.Embed(title=title or None, description=_clip(body.strip()) or None, colour=colour)


def lobby_embed(view: LobbyView, lang: str) -> discord.Embed:
    return text_embed(lobby_text(view, lang), LOBBY)


def table_embed(view: TableView, lang: str, now: float, autoplay: tuple[str, ...] = ()) -> discord.Embed:
    """The table in words, saying when the turn timer made the last play (`TableView.timed_out`)."""
    text = table_text(view, lang, now)
    if view.timed_out and not view.finished:
        last = next(play for play in reversed(view.last_plays) if not play.leftover)
        text += "\n" + t(lang, "play.timed_out_note", name=last.name)
    for name in autoplay:
        text += "\n" + t(lang, "discord.table.autoplay", name=name)
    return text_embed(text, OVER if view.finished else TABLE)


def closed_embed(lang: str, by: str | None, started: bool) -> discord.Embed:
    if by:
        text = t(lang, "lobby.cancelled", name=by)
    else:
        text = t(lang, "match.cancelled" if started else "discord.lobby.closed")
    return discord.Embed(description=text, colour=OVER)


def hand_embed(view: HandView, lang: str, variant: str, prompt: HandPrompt = PLAIN, *,
               autoplay: bool = False, outcomes: Sequence[tuple[Move, FuoriOutcome]] = (),
               legend: str | None = None) -> discord.Embed:
    """The hand's text; the cards a compulsory capture bars; while declaring fuori with a card,
    what each of its plays would mean now; the card legend in the footer when given. Under the
    title, the plays made since the player's last turn (`HandView.since_turn`), and whether the
    computer played the player's last card for them (`HandView.played_for`)."""
    text = hand_text(view, lang, variant)
    told = [t(lang, "hand.since_turn"), *("• " + play_line_of(play, lang, view.deck_style, variant)
                                           for play in view.since_turn)] if view.since_turn else []
    if view.played_for is not None:
        told.append(t(lang, "discord.hand.played_for_you"))
    if told and not view.finished:
        title, _, rest = text.partition("\n")
        text = "\n".join([title, *told, rest])
    if autoplay and not view.finished:
        text += "\n" + t(lang, "discord.hand.autoplay")
    else:
        blocked = blocked_text(view, lang)
        if blocked:
            text += "\n" + blocked
        if outcomes:
            text += "\n" + t(lang, "discord.fuori.ask")
            for move, outcome in outcomes:
                text += "\n" + t(lang, "discord.fuori.wins" if outcome.wins else "discord.fuori.loses",
                                 play=move_label(move, view.deck_style),
                                 points=tn(lang, "count.sure_points", outcome.points),
                                 target=outcome.target)
        if prompt.mode is HandMode.DECLARING and view.my_turn and view.may_declare:
            text += "\n" + t(lang, "hand.fuori")
        card = next((c.card for c in view.choices if c.card.code == prompt.card), None)
        if card is not None:
            text += "\n" + t(lang, "hand.choose", card=card_label(card, view.deck_style))
    embed = text_embed(text, OVER if view.finished else TABLE)
    if legend:
        embed.set_footer(text=legend[:FOOTER_MAX])
    return embed


def breakdown_embed(event: RoundEnded, lang: str) -> discord.Embed:
    """The round as text, where no picture goes: a table read down (a column per side, narrow
    enough for a phone) in a code block, then the counts behind the points."""
    fuori = fuori_line(event, lang)
    table = ("```\n" + breakdown_table(breakdown_rows(event, lang)) + "\n```\n"
             + round_counts_text(event, lang))
    return discord.Embed(title=t(lang, "round.title", round=event.result.number),
                         description=_clip(f"{fuori}\n{table}" if fuori else table), colour=ROUND)


def round_embed(event: RoundEnded, lang: str, target: int) -> discord.Embed:
    """Over a round's picture, which holds the numbers: who took the round and the match's score."""
    return text_embed(round_caption(event, lang, target), ROUND)


def match_embed(event: MatchEnded, lang: str) -> discord.Embed:
    return text_embed(match_text(event, lang), ROUND)


def _clip(text: str) -> str:
    return text if len(text) <= DESCRIPTION_MAX else text[: DESCRIPTION_MAX - 1] + "…"
