"""How a lobby's options become a table: the seating and teams they allow, the seats left,
the federal team draw, and which options are worth storing."""

from __future__ import annotations

import dataclasses
from typing import Any

from ..engine import Rules
from ..engine.federal import PLAYERS as FEDERAL_PLAYERS
from ..engine.federal import draw_teams
from ..engine.rules import Seating, Variant
from .records import GameRow, SeatRow


def options_text(options: dict[str, Any]) -> str:
    """The options a user asked for, as they wrote them: a refusal in a language other than
    English quotes them instead of the engine's English explanation."""
    return " ".join(f"{key}={value}" for key, value in options.items())


def drawn_seats(seats: tuple[SeatRow, ...], seed: str) -> tuple[SeatRow, ...]:
    """The seats of a `federal` match as the team draw of 004 art. 3 and 4 gives them: the
    players, in the order of their lobby seats, each draw a card (`draw_teams`, from the
    match's seed) and sit where their card puts them."""
    if len(seats) != FEDERAL_PLAYERS:
        return seats
    draw = draw_teams(seed)
    ordered = sorted(seats, key=lambda s: s.seat)
    moved = [dataclasses.replace(seat, seat=draw.seat_of[player]) for player, seat in enumerate(ordered)]
    return tuple(sorted(moved, key=lambda s: s.seat))


def flag(value: Any) -> bool:
    return value if isinstance(value, bool) else str(value).lower() in ("1", "true", "on", "yes")


def team_count(value: Any) -> int:
    """A lobby's `teams` option (`TEAMS_VALUES`, or a flag for two teams) as a number of teams."""
    if str(value).lower() in ("three", "3"):
        return 3
    return 2 if flag(value) else 0


def seating(variant: str, players: int, teams: int) -> Seating:
    return Seating.make(variant, players, teams > 0, teams or None)


def fitting_teams(variant: str, players: int, teams: int) -> int:
    """`teams` if `players` can sit that way, else the most teams, up to that, they can form."""
    return max((count for count in Seating.team_counts(variant, players) if count <= teams),
               default=0)


def teams_of(seating: Seating) -> int:
    """The teams as the rules seat them (scopone always in two, whatever was asked)."""
    return len(seating.sides) if seating.teams else 0


def free_seat(row: GameRow) -> int | None:
    taken = {s.seat for s in row.seats}
    return next((i for i in range(row.players) if i not in taken), None)


def partner_seat(row: GameRow, mine: int, theirs: int) -> int | None:
    """Where the player in seat `mine` sits to play on the team of seat `theirs` (seat k plays
    for team k % teams): a free seat of that team, else its first other seat; None when they
    are on that team already."""
    teams = row.teams
    if not teams or mine % teams == theirs % teams:
        return None
    mates = [i for i in range(row.players) if i % teams == theirs % teams and i != theirs]
    taken = {s.seat for s in row.seats}
    return next((i for i in mates if i not in taken), mates[0] if mates else None)


def changed_options(variant: Variant, rules: Rules) -> dict[str, Any]:
    """Only the options that differ from the variant's defaults are stored."""
    default = Rules.default(variant).to_dict()
    return {k: v for k, v in rules.to_dict().items() if default[k] != v}
