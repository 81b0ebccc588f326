"""`scopa-bot arena`: two computer levels on the same deals, seats exchanged.

Each deal seed is played twice as a single round (smazzata): once with level
`a` in the seats of the even-numbered sides and `b` in the others, once the
other way round, so luck of the cards cancels out. The margin of a round is
the mean points of `a`'s sides less the mean points of `b`'s sides (with two
sides: a's points less b's). The confidence interval is computed over the
deals (each deal's two rounds averaged), since the two rounds of a deal are
not independent.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from bot.engine import Game, Rules
from bot.engine.rules import parse_rule_pairs, parse_variant

from . import LEVELS, choose_move
from .greedy import greedy_move

OPPONENTS = (*LEVELS, "greedy")
"""What the arena can pit: the computer levels, and the reference player of published results."""


@dataclass
class Tally:
    """What a batch of deals gave: per-deal margins, round results, time and moves per side."""

    margins: list[float] = field(default_factory=list)
    wins: int = 0
    losses: int = 0
    ties: int = 0
    seconds: dict[str, float] = field(default_factory=lambda: {"a": 0.0, "b": 0.0})
    moves: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})
    slowest: dict[str, float] = field(default_factory=lambda: {"a": 0.0, "b": 0.0})

    def merge(self, other: Tally) -> None:
        self.margins += other.margins
        self.wins += other.wins
        self.losses += other.losses
        self.ties += other.ties
        for key in ("a", "b"):
            self.seconds[key] += other.seconds[key]
            self.moves[key] += other.moves[key]
            self.slowest[key] = max(self.slowest[key], other.slowest[key])


@dataclass(frozen=True)
class Match:
    a: str
    b: str
    variant: str
    players: int
    teams: bool
    rules: dict[str, str]
    seed: str
    budget: float | None
    iterations: int | None


def play_round(match: Match, deal: int, swapped: bool, tally: Tally) -> float:
    """Play one round of deal `deal`; returns the margin of `a` and adds to `tally`."""
    rules = Rules.from_options(parse_variant(match.variant), match.rules)
    seed = f"{match.seed}/{deal}"
    game = Game.new(match.variant, match.players, teams=match.teams, rules=rules, seed=seed, undo=False)
    sides = len(game.seating.sides)
    label_of_side = ["a" if (side % 2 == 0) != swapped else "b" for side in range(sides)]
    level = {"a": match.a, "b": match.b}
    while True:
        seat = game.to_play
        who = label_of_side[game.side_of[seat]]
        view = game.view(seat)
        started = time.perf_counter()
        if level[who] == "greedy":
            move = greedy_move(view)
        else:
            move = choose_move(level[who], view, f"{seed}/{int(swapped)}/{game.version}", match.budget,
                               match.iterations)
        spent = time.perf_counter() - started
        tally.seconds[who] += spent
        tally.moves[who] += 1
        tally.slowest[who] = max(tally.slowest[who], spent)
        outcome = game.apply(move)
        result = outcome.round_result
        if result is not None:
            break
    points = {"a": [], "b": []}  # type: dict[str, list[int]]
    for side, score in enumerate(result.scores):
        points[label_of_side[side]].append(score.total)
    diff = statistics.mean(points["a"]) - statistics.mean(points["b"])
    if diff > 0:
        tally.wins += 1
    elif diff < 0:
        tally.losses += 1
    else:
        tally.ties += 1
    return diff


def play_deals(match: Match, deals: list[int]) -> Tally:
    tally = Tally()
    for deal in deals:
        first = play_round(match, deal, False, tally)
        second = play_round(match, deal, True, tally)
        tally.margins.append((first + second) / 2)
    return tally


def arena(match: Match, deals: int, workers: int = 1) -> dict[str, object]:
    """Play `deals` seat-swapped deals; the summary as a JSON-ready dict."""
    started = time.perf_counter()
    tally = Tally()
    numbers = list(range(deals))
    if workers > 1 and deals > 1:
        chunks = [numbers[i::workers] for i in range(workers)]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for part in pool.map(play_deals, [match] * workers, chunks):
                tally.merge(part)
    else:
        tally = play_deals(match, numbers)
    margins = tally.margins
    mean = statistics.mean(margins) if margins else 0.0
    ci95 = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins)) if len(margins) > 1 else 0.0
    return {
        "a": match.a, "b": match.b, "variant": match.variant, "players": match.players,
        "teams": match.teams, "rules": match.rules, "seed": match.seed, "deals": deals,
        "rounds": 2 * deals, "wins": tally.wins, "losses": tally.losses, "ties": tally.ties,
        "margin": round(mean, 4), "ci95": round(ci95, 4),
        "ms_per_move_a": round(1000 * tally.seconds["a"] / max(tally.moves["a"], 1), 3),
        "ms_per_move_b": round(1000 * tally.seconds["b"] / max(tally.moves["b"], 1), 3),
        "max_ms_a": round(1000 * tally.slowest["a"], 1), "max_ms_b": round(1000 * tally.slowest["b"], 1),
        "budget_ms": None if match.budget is None else round(1000 * match.budget, 1),
        "iterations": match.iterations, "workers": workers,
        "seconds": round(time.perf_counter() - started, 1),
    }


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--a", required=True, choices=OPPONENTS, help="the level measured")
    parser.add_argument("--b", required=True, choices=OPPONENTS,
                        help="the level it plays against (greedy: the reference player of published results)")
    parser.add_argument("--variant", default="scopa")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--teams", action="store_true")
    parser.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--deals", type=int, required=True,
                        help="deal seeds; each is played twice, seats exchanged")
    parser.add_argument("--seed", default="0")
    parser.add_argument("--budget", type=float, default=None, metavar="MS",
                        help="hard's time per move in milliseconds (default 300)")
    parser.add_argument("--iterations", type=int, default=None,
                        help="hard searches exactly this many guesses per move instead of a time budget")
    parser.add_argument("--workers", type=int, default=1, help="processes to split the deals across")
    parser.add_argument("--json", action="store_true", help="also print the summary as JSON, last line")


def describe(summary: dict[str, object]) -> list[str]:
    return [
        f"{summary['a']} vs {summary['b']}: {summary['variant']}, {summary['players']} players"
        f"{' in teams' if summary['teams'] else ''}, {summary['deals']} deals x 2 seatings = "
        f"{summary['rounds']} rounds (seed {summary['seed']})",
        f"rounds won/lost/tied by {summary['a']}: {summary['wins']}/{summary['losses']}/{summary['ties']}",
        f"margin per round ({summary['a']} - {summary['b']}): {summary['margin']:+.3f} "
        f"± {summary['ci95']:.3f} (95% CI)",
        f"ms per move: {summary['a']} {summary['ms_per_move_a']:.2f} (max {summary['max_ms_a']}), "
        f"{summary['b']} {summary['ms_per_move_b']:.2f} (max {summary['max_ms_b']})",
    ]


def run(args: argparse.Namespace) -> int:
    if args.deals < 1:
        raise SystemExit("--deals must be at least 1")
    match = Match(args.a, args.b, parse_variant(args.variant).value, args.players, args.teams,
                  parse_rule_pairs(args.rule), str(args.seed),
                  None if args.budget is None else args.budget / 1000, args.iterations)
    rules: dict[str, object] = dict(match.rules)
    Game.new(match.variant, match.players, teams=match.teams, rules=rules, seed=0)
    summary = arena(match, args.deals, max(1, args.workers))
    print("\n".join(describe(summary)))
    if args.json:
        print(json.dumps(summary, separators=(",", ":")))
    return 0
