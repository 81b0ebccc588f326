"""A match's review as data: every play graded, and each seat's accuracy.

Nothing here belongs to a platform: sessions store a review as `to_dict()` (plain JSON)
and read it back with `Review.from_dict`; front-ends word it from the catalogue and draw
each costly play from its table and hand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from bot.engine import Card, Move

from .facts import Fault, Reason

FORMAT = "scopa-review/1"
ACCURACY_SCALE = 0.25
"""Accuracy is 100 × exp(−mean loss / `ACCURACY_SCALE`), the mean over a seat's plays
that had a choice: a mean loss of a quarter point per move gives 37."""
COSTLIEST = 3


def accuracy(losses: list[float]) -> float:
    """0–100 from the points lost per move (100 for no move, or none lost), to a tenth."""
    if not losses:
        return 100.0
    return round(100 * math.exp(-sum(losses) / len(losses) / ACCURACY_SCALE), 1)


@dataclass(frozen=True, slots=True)
class GradedPlay:
    """One play as graded, with the position the player saw when making it."""

    round: int
    """Index into the record's `rounds`, from 0."""
    play: int
    """Index into that round's `plays`, from 0."""
    seat: int
    played: Move
    best: Move
    loss: float
    """Expected points the played move gives up against `best` (≥ 0)."""
    choices: int
    """How many legal moves there were (1: a forced move)."""
    table: tuple[Card, ...]
    hand: tuple[Card, ...]
    reason: Reason | None = None
    """Why the play cost points; None when it cost none."""

    @property
    def forced(self) -> bool:
        return self.choices == 1

    def line(self) -> dict[str, Any]:
        """The play as `scopa-bot review --json` prints it."""
        out = {"round": self.round, "play": self.play, "seat": self.seat,
               "played": _move_dict(self.played), "best": _move_dict(self.best), "loss": self.loss}
        if self.reason is not None:
            out["reason"] = self.reason.data()
        return out

    def to_dict(self) -> dict[str, Any]:
        out = self.line()
        out.update(choices=self.choices, table=[c.code for c in self.table],
                   hand=[c.code for c in self.hand])
        if self.reason is not None:
            reason = self.reason
            out["reason"] = {"fault": reason.fault.value, "table": [c.code for c in reason.table],
                             "ranks": list(reason.ranks), "chance": reason.chance,
                             "cards": [c.code for c in reason.cards]}
            if reason.part:
                out["reason"]["part"] = reason.part
            if reason.odds:
                out["reason"]["odds"] = list(reason.odds)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GradedPlay:
        found = data.get("reason")
        reason = None if found is None else Reason(
            Fault(found["fault"]), _cards(found["table"]), tuple(int(r) for r in found["ranks"]),
            float(found["chance"]), _cards(found.get("cards", [])), str(found.get("part", "")),
            tuple(float(value) for value in found.get("odds", ())))
        return cls(int(data["round"]), int(data["play"]), int(data["seat"]), _move(data["played"]),
                   _move(data["best"]), float(data["loss"]), int(data["choices"]), _cards(data["table"]),
                   _cards(data["hand"]), reason)


@dataclass(frozen=True, slots=True)
class Review:
    """Every play of a match graded, in the order played."""

    variant: str
    seats: int
    searches: int
    plays: tuple[GradedPlay, ...]

    @property
    def accuracy(self) -> tuple[float, ...]:
        """Each seat's accuracy (see `accuracy`), over its plays that had a choice."""
        return tuple(accuracy([p.loss for p in self.plays if p.seat == seat and not p.forced])
                     for seat in range(self.seats))

    def costliest(self, seat: int, count: int = COSTLIEST) -> list[GradedPlay]:
        """The seat's `count` plays that gave up the most points (none that gave up nothing),
        the costliest first; between equal losses, the earlier play."""
        costly = [p for p in self.plays if p.seat == seat and p.loss > 0]
        costly.sort(key=lambda p: -p.loss)
        return costly[:count]

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "variant": self.variant, "seats": self.seats,
                "searches": self.searches, "plays": [p.to_dict() for p in self.plays]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Review:
        if data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} review")
        return cls(str(data["variant"]), int(data["seats"]), int(data["searches"]),
                   tuple(GradedPlay.from_dict(p) for p in data["plays"]))


def _move_dict(move: Move) -> dict[str, Any]:
    return {"card": move.card.code, "captured": [c.code for c in move.captures]}


def _move(data: dict[str, Any]) -> Move:
    return Move(Card.parse(data["card"]), _cards(data["captured"]))


def _cards(codes: list[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes)
