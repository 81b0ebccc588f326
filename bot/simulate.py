"""Seeded random-play matches: `scopa-bot simulate`.

The same arguments always give the same matches and records: every game's
seed and every player's choices derive from the one seed given.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TextIO

from .engine import Game, Rules, record_line
from .engine.playout import play_to_end
from .engine.rules import parse_variant


@dataclass
class Summary:
    games: int = 0
    rounds: int = 0
    plays: int = 0
    points: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    wins: dict[int, int] = field(default_factory=lambda: defaultdict(int))

    def lines(self) -> list[str]:
        rounds = max(self.rounds, 1)
        out = [
            f"games: {self.games}",
            f"rounds: {self.rounds} ({self.rounds / max(self.games, 1):.2f} per game)",
            f"plays: {self.plays}",
            "average points per round (all sides together):",
        ]
        out += [f"  {name}: {value / rounds:.3f}" for name, value in self.points.items()]
        out.append(f"scope per round: {self.points.get('scope', 0) / rounds:.3f}")
        out.append("wins by side: " + ", ".join(f"{side}: {n}" for side, n in sorted(self.wins.items())))
        return out


def simulate(variant: str, players: int, teams: bool, games: int, seed: int | str,
             options: dict[str, str], records: TextIO | None = None, *,
             sides: int | None = None) -> Summary:
    """Play `games` random matches; `sides` is the number of teams when `teams` (default 2)."""
    rules = Rules.from_options(parse_variant(variant), options)
    summary = Summary()
    for number in range(games):
        game = Game.new(variant, players, teams=teams, sides=sides, rules=rules, seed=f"{seed}/{number}",
                        undo=False)
        play_to_end(game, random.Random(f"{seed}/{number}/players"))
        summary.games += 1
        summary.rounds += len(game.results)
        summary.plays += sum(len(log.plays) for log in game.round_logs)
        for result in game.results:
            for score in result.scores:
                for name, value in score.points.items():
                    summary.points[name] += value
        if game.winner is not None:
            summary.wins[game.winner] += 1
        if records is not None:
            records.write(record_line(game) + "\n")
    return summary
