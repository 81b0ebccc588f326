"""What a player did in finished matches, read from their `scopa-record/1` records: the facts
of one seat in one match (`seat_facts`), a player's figures over their matches (`tally`) for
/stats, and the achievements a match earns (`earned`).

Only matches that count earn achievements or make the figures: a practice match (played with
hints on request) and a deal of the day (the same cards for everyone, which may be known before
the match) earn none of them, and are counted apart, as matches played and won
(`Tally.practice`, `Tally.dailies`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..engine import SETTEBELLO
from .records import AchievementRow, MatchKind, PlayedMatch


class Feat(StrEnum):
    """An achievement, stored by its value; listed in the order /stats shows them."""

    FIRST_SCOPA = "first_scopa"
    SETTEBELLO_TEN = "settebello_ten"
    FOUR_SCOPE = "four_scope"
    """Four scope (or more) by one player in one round."""
    SHUTOUT = "shutout"
    """A match won with every other side at 0 points (11–0 in a match to 11)."""
    NAPOLA = "napola"
    """A napola scored, in a variant that scores it."""
    COMEBACK = "comeback"
    """A match won after trailing by `COMEBACK_GAP` points or more at the end of a round."""
    TOURNAMENT_WON = "tournament_won"
    """A chat's tournament won, once per tournament (`tournament_code`)."""


SETTEBELLO_TIMES = 10
FOUR_SCOPE = 4
COMEBACK_GAP = 6


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """One seat's match: its side's result and what the seat itself took."""

    won: bool
    scope: int
    settebello: int
    """Rounds in which this seat took the settebello."""
    primiera: int
    """Rounds whose primiera point the seat's side won."""
    round_scope: int
    """The most scope the seat made in one round."""
    napola: bool
    shutout: bool
    comeback: bool


def seat_facts(record: dict[str, Any], seat: int) -> SeatFacts:
    """The facts of `seat` in the finished match `record`."""
    sides: list[list[int]] = record["teams"]
    side = next(i for i, members in enumerate(sides) if seat in members)
    won = record.get("winner") == side
    scope = settebello = primiera = round_scope = 0
    napola = False
    totals = [0] * len(sides)
    behind = 0
    for stored in record["rounds"]:
        in_round = sum(1 for play in stored["plays"] if play["seat"] == seat and play["scopa"])
        scope += in_round
        round_scope = max(round_scope, in_round)
        if _settebello_taker(stored) == seat:
            settebello += 1
        score = stored["score"][side]
        primiera += score.get("primiera", 0) > 0
        napola = napola or score.get("napola", 0) > 0
        for i, points in enumerate(stored["score"]):
            totals[i] += _total(points)
        behind = max(behind, max(totals) - totals[side])
    final = record.get("totals") or totals
    shutout = won and all(points == 0 for i, points in enumerate(final) if i != side)
    return SeatFacts(won, scope, settebello, primiera, round_scope, napola, shutout,
                     won and behind >= COMEBACK_GAP)


def _total(points: dict[str, int]) -> int:
    return int(points["total"]) if "total" in points else sum(points.values())


def _settebello_taker(stored: dict[str, Any]) -> int | None:
    """The seat that took the settebello in a round: played it to take, took it from the table,
    or got it among the cards left at the end; None when nobody did (a round ended by fuori)."""
    code = SETTEBELLO.code
    for play in stored["plays"]:
        if code in play["captured"] or (play["card"] == code and play["captured"]):
            return int(play["seat"])
    last = stored.get("last_capture_seat")
    if last is None or stored.get("fuori") is not None:
        return None
    return int(last)


@dataclass(slots=True)
class Tally:
    """A player's figures over their counted matches, and their other matches counted apart."""

    games: int = 0
    scope_record: int = 0
    """The most scope the player made in one match."""
    settebello: int = 0
    primiera: int = 0
    best_streak: int = 0
    """The most counted matches won in a row."""
    by_variant: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Wins and losses in each variant played."""
    practice: tuple[int, int] = (0, 0)
    """Practice matches played and won."""
    dailies: tuple[int, int] = (0, 0)
    """Deals of the day played and won."""


def tally(matches: Iterable[PlayedMatch]) -> Tally:
    """The figures of a player's finished `matches`."""
    out = Tally()
    streak = 0
    for match in sorted(matches, key=lambda m: (m.finished_at, m.game_id)):
        if match.kind is MatchKind.PRACTICE:
            out.practice = (out.practice[0] + 1, out.practice[1] + match.won)
            continue
        if match.kind is MatchKind.DAILY:
            out.dailies = (out.dailies[0] + 1, out.dailies[1] + match.won)
            continue
        out.games += 1
        wins, losses = out.by_variant.get(match.variant, (0, 0))
        out.by_variant[match.variant] = (wins + match.won, losses + (not match.won))
        streak = streak + 1 if match.won else 0
        out.best_streak = max(out.best_streak, streak)
        if match.record is None:
            continue
        facts = seat_facts(json.loads(match.record), match.seat)
        out.scope_record = max(out.scope_record, facts.scope)
        out.settebello += facts.settebello
        out.primiera += facts.primiera
    return out


def earned(facts: SeatFacts, had: Iterable[str], settebello_before: int | None) -> list[Feat]:
    """The achievements a counted match with `facts` earns a player who `had` those already;
    `settebello_before`, the settebello they took in their counted matches before (None when
    not looked up: only needed while the settebello feat is still to earn and this match took
    one)."""
    owned = set(had)
    new = []
    if facts.scope:
        new.append(Feat.FIRST_SCOPA)
    if facts.settebello and settebello_before is not None \
            and settebello_before + facts.settebello >= SETTEBELLO_TIMES:
        new.append(Feat.SETTEBELLO_TEN)
    if facts.round_scope >= FOUR_SCOPE:
        new.append(Feat.FOUR_SCOPE)
    if facts.shutout:
        new.append(Feat.SHUTOUT)
    if facts.napola:
        new.append(Feat.NAPOLA)
    if facts.comeback:
        new.append(Feat.COMEBACK)
    return [feat for feat in new if feat.value not in owned]


def tournament_code(tournament_id: str) -> str:
    """How a tournament won is stored: the feat and the tournament, so that each tournament won
    is kept once, and another tournament won kept again."""
    return f"{Feat.TOURNAMENT_WON.value}:{tournament_id}"


def feat_of(code: str) -> str:
    """The feat a stored code is (a tournament won is stored with its tournament)."""
    return code.split(":", 1)[0]


def listed(rows: Sequence[AchievementRow]) -> list[AchievementRow]:
    """A player's achievements in the order of `Feat` (an unknown code last)."""
    order = {feat.value: i for i, feat in enumerate(Feat)}
    return sorted(rows, key=lambda row: (order.get(feat_of(row.code), len(order)), row.earned_at))


def counted(rows: Sequence[AchievementRow]) -> list[tuple[str, float, int]]:
    """A player's achievements as /stats lists them, in the order of `listed`: each feat once, with
    when it was last earned and how many times (more than once only for tournaments won)."""
    out: dict[str, tuple[float, int]] = {}
    for row in listed(rows):
        code = feat_of(row.code)
        _, times = out.get(code, (0.0, 0))
        out[code] = (row.earned_at, times + 1)
    return [(code, at, times) for code, (at, times) in out.items()]
