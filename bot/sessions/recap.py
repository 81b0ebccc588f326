"""The plays a chat has not seen drawn: a group's table cannot be drawn after every play when
play is brisk (Telegram allows a group 20 messages a minute), so the next drawing tells the
plays made since the one the group saw last, those of a round that ended meanwhile too.

Plays are counted from the start of the match (`Recap.made`); a front-end keeps, with the
game, how far the drawing the chat saw last went, and asks for the plays after it."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import SETTEBELLO, Game, Play
from .records import GameRow
from .views import PlayLine, seat_name

RECAP_KEPT = 120
"""Plays a recap goes back at most: three rounds of the largest variant, more than a minute of
the briskest play (a group's table may wait a minute for its flood limit)."""


@dataclass(frozen=True, slots=True)
class RecapLine:
    """A play the chat may not have seen, with the round it was made in."""

    round_number: int
    play: PlayLine

    @property
    def matters(self) -> bool:
        """A scopa, or the settebello taken: what a player would not want to miss."""
        play = self.play
        took_it = SETTEBELLO in play.captured or (play.card == SETTEBELLO and bool(play.captured))
        return play.scopa or took_it


@dataclass(frozen=True, slots=True)
class Recap:
    made: int
    """Plays made in the match so far, the escoba dealer's takes of a starting table included."""
    since: int
    """The count the recap starts after."""
    lines: tuple[RecapLine, ...]
    """The plays after `since`, oldest first (at most `RECAP_KEPT`)."""


def match_plays(game: Game) -> list[tuple[int, Play]]:
    """Every play of the match so far with its round, oldest first."""
    plays = [(number, play) for number, log in enumerate(game.round_logs, start=1) for play in log.plays]
    if len(game.round_logs) < game.round_number:
        plays += [(game.round_number, play) for play in game.plays]
    return plays


def recap(row: GameRow, game: Game, since: int | None) -> Recap:
    """The plays after the first `since` of the match (None: the chat saw none drawn yet)."""
    plays = match_plays(game)
    made = len(plays)
    start = min(max(0, since or 0), made)
    names = {seat.seat: seat_name(seat, row.seats) for seat in row.seats}
    kept = plays[max(start, made - RECAP_KEPT):]
    lines = tuple(RecapLine(number, PlayLine(play.seat, names.get(play.seat, "?"), play.card,
                                             tuple(play.captured), play.scopa))
                  for number, play in kept)
    return Recap(made, start, lines)
