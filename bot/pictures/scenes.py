"""What a picture shows, as small values any front-end can build: the table, a hand, a
round's score. Builders make them from the sessions' views and events."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..engine import Card, Primiera, RoundResult, Rules
from ..sessions import HandView, MovePlayed, PlayLine, RoundEnded, TableView
from .styles import Style, parse_style


@dataclass(frozen=True, slots=True)
class SideLine:
    """One side as the table shows it."""

    name: str
    total: int
    scope: int
    taken: int | None
    """Cards taken this round; None when the rules hide them (federal scopone)."""


@dataclass(frozen=True, slots=True)
class LastPlay:
    name: str
    card: Card | None
    """None for the dealer taking the starting table (escoba)."""
    captured: tuple[Card, ...]
    scopa: bool
    timed_out: bool = False
    """The play was made for the player when their time ran out."""
    leftover: bool = False
    """Not a play: `name` took the cards left on the table at the round's end (`captured`)."""


@dataclass(frozen=True, slots=True)
class TableScene:
    style: Style
    variant: str
    round_number: int
    target: int
    round_limit: int
    table: tuple[Card, ...]
    stock: int
    sides: tuple[SideLine, ...]
    to_play: str | None
    """Whose turn it is; None once the match is over."""
    last_play: LastPlay | None = None
    winner: str | None = None
    turn_side: int | None = None
    """The index in `sides` of the side whose turn it is."""


@dataclass(frozen=True, slots=True)
class HandScene:
    style: Style
    cards: tuple[Card, ...]
    playable: frozenset[Card]
    """The cards that can be played now; on the player's turn the others are dimmed."""
    my_turn: bool
    waiting_for: str | None = None
    """Who is to play while it is not the player's turn."""
    face_down: int = 0
    """Cards held face down (federal scopone, before the player's first turn of the round)."""


@dataclass(frozen=True, slots=True)
class SeatScene:
    """What one player sees in private: the table, the last play, the scores and their own hand."""

    table: TableScene
    hand: HandScene
    plays: tuple[LastPlay, ...] = ()
    """The plays since the player's last turn when there are several (`HandView.since_turn`),
    drawn in place of the table's last play."""

    @property
    def style(self) -> Style:
        return self.table.style


@dataclass(frozen=True, slots=True)
class LobbyScene:
    """A game not dealt yet: the deck it will be played with."""

    style: Style


@dataclass(frozen=True, slots=True)
class RoundScene:
    style: Style
    variant: str
    side_names: tuple[str, ...]
    result: RoundResult
    target: int
    by_sevens: bool = False
    """Primiera was settled by counting sevens (the `primiera=sevens` rule)."""
    winner: str | None = None
    fuori_name: str | None = None
    """Who ended the round by declaring fuori."""


def style_of(name: str) -> Style:
    """The picture style for a deck name, the Neapolitan deck for one it does not know."""
    try:
        return parse_style(name)
    except ValueError:
        return Style.NAPOLETANE


class PlayLike(Protocol):
    """A play as the sessions report it: a `PlayLine` of a view, or a `MovePlayed` event."""

    @property
    def name(self) -> str: ...
    @property
    def card(self) -> Card | None: ...
    @property
    def captured(self) -> tuple[Card, ...]: ...
    @property
    def scopa(self) -> bool: ...


def last_play_of(play: PlayLike | None) -> LastPlay | None:
    """The last play to draw: for a `MovePlayed` that ended a round with cards left on the table,
    who took them; a play made when time ran out says so."""
    if play is None:
        return None
    if isinstance(play, PlayLine):
        return LastPlay(play.name, play.card, play.captured, play.scopa, leftover=play.leftover)
    if isinstance(play, MovePlayed) and play.leftover and play.leftover_seat is not None:
        return LastPlay(play.leftover_name or play.name, None, tuple(play.leftover), False, leftover=True)
    timed_out = play.timed_out if isinstance(play, MovePlayed) else False
    return LastPlay(play.name, play.card, tuple(play.captured), play.scopa, timed_out)


def table_scene(view: TableView, show_taken: bool = True, last: LastPlay | None = None) -> TableScene:
    """The table of `view`; the last play is `last` when given (e.g. from a `MovePlayed`,
    see `last_play_of`), else the view's own last play."""
    sides = tuple(
        SideLine(
            name,
            view.totals[i],
            sum(view.scope[s] for s in seats),
            sum(view.captured_counts[s] for s in seats) if show_taken and view.counts_shown else None,
        )
        for i, (name, seats) in enumerate(zip(view.side_names, view.sides, strict=True))
    )
    if last is None:
        last = last_play_of(view.last_plays[-1] if view.last_plays else None)
    names = {seat.seat: seat.name for seat in view.seats}
    over = view.finished or view.winner is not None
    winner = view.side_names[view.winner] if view.winner is not None else None
    return TableScene(
        style_of(view.deck_style),
        view.variant,
        view.round_number,
        view.target,
        view.round_limit,
        tuple(view.table),
        view.stock_count,
        sides,
        None if over else names.get(view.to_play, "?"),
        last,
        winner,
        None if over else next((i for i, seats in enumerate(view.sides) if view.to_play in seats), None),
    )


def hand_scene(view: HandView, waiting_for: str | None = None) -> HandScene:
    """The hand of `view`; `waiting_for` names who is to play while it is not the player's turn
    (by default the view's own)."""
    playable = frozenset(choice.card for choice in view.choices) if view.my_turn else frozenset()
    return HandScene(
        style_of(view.deck_style),
        tuple(view.hand),
        playable,
        view.my_turn,
        None if view.my_turn or view.finished else (waiting_for or view.waiting_for),
        view.face_down,
    )


def lobby_scene(deck_style: str) -> LobbyScene:
    return LobbyScene(style_of(deck_style))


def seat_scene(table: TableView, hand: HandView, last: LastPlay | None = None) -> SeatScene:
    """One player's private picture: the public table of `table` (its last play `last` when given,
    as for `table_scene`) above the hand of `hand`; with several plays since the player's last
    turn, all of them (the last one as `last`)."""
    scene = table_scene(table, last=last)
    plays = tuple(filter(None, (last_play_of(play) for play in hand.since_turn)))
    if last is not None and plays:
        plays = (*plays[:-1], last)
    return SeatScene(scene, hand_scene(hand, scene.to_play), plays if len(plays) > 1 else ())


def round_scene(
    result: RoundResult,
    side_names: Sequence[str],
    deck_style: str = "napoletane",
    variant: str = "scopa",
    target: int = 11,
    by_sevens: bool = False,
    fuori_name: str | None = None,
) -> RoundScene:
    """The end of a round, e.g. from a `RoundEnded` event (its result, side names and fuori name)."""
    winner = side_names[result.winner] if result.winner is not None else None
    return RoundScene(
        style_of(deck_style), variant, tuple(side_names), result, target, by_sevens, winner, fuori_name
    )


def round_scene_of(event: RoundEnded, deck_style: str, rules: Rules) -> RoundScene:
    """The end of a round as the sessions announce it, in the game's deck and rules."""
    return round_scene(
        event.result,
        event.side_names,
        deck_style,
        event.variant or "scopa",
        rules.target,
        rules.primiera is Primiera.SEVENS,
        event.fuori_name,
    )
