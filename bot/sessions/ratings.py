"""Ratings with openskill (Plackett-Luce), one ladder per kind of match."""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from .records import RatingRow

_MODEL = PlackettLuce()


def ladder_for(sides: Sequence[Sequence[int]]) -> str:
    """`duel` one against one, `team` when any side has partners, else `ffa`."""
    if any(len(side) > 1 for side in sides):
        return "team"
    return "duel" if len(sides) == 2 else "ffa"


def display_rating(mu: float, sigma: float) -> float:
    """The conservative rating shown on leaderboards."""
    return mu - 3 * sigma


def rate(ladder: str, sides: Sequence[Sequence[int | None]], totals: Sequence[int], winner: int | None,
         current: dict[int, RatingRow]) -> list[RatingRow]:
    """New ratings for every player id in `sides` after one finished match.

    The winner ranks first; the other sides rank by their totals. A computer
    seat (None) plays with a fresh default rating and is not rated itself.
    """
    order = sorted(range(len(sides)), key=lambda i: (i != winner, -totals[i]))
    ranks: list[float] = [0] * len(sides)
    for place, index in enumerate(order):
        if place and index != winner and totals[index] == totals[order[place - 1]] \
                and order[place - 1] != winner:
            ranks[index] = ranks[order[place - 1]]
        else:
            ranks[index] = place
    teams = []
    for side in sides:
        team = []
        for player_id in side:
            row = current.get(player_id) if player_id is not None else None
            if row is None:
                team.append(_MODEL.rating(name=str(player_id)))
            else:
                team.append(_MODEL.rating(mu=row.mu, sigma=row.sigma, name=str(player_id)))
        teams.append(team)
    rated = _MODEL.rate(teams, ranks=ranks)
    out = []
    for index, (side, team) in enumerate(zip(sides, rated, strict=True)):
        for player_id, rating in zip(side, team, strict=True):
            if player_id is None:
                continue
            before = current.get(player_id)
            games = (before.games if before else 0) + 1
            wins = (before.wins if before else 0) + (1 if index == winner else 0)
            out.append(RatingRow(player_id, ladder, float(rating.mu), float(rating.sigma), games, wins))
    return out
