"""How long a table picture takes to draw and encode, and how large photos are.

Cards are drawn once per style and size (`warm_up`, timed apart); every table
is composed from the cached cards. Photos are JPEG (bot/pictures/encode.py says why).
Tables come from seeded random matches at every point of a round.

    python benchmarks/pictures.py --tables 400
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bot.engine import Game
from bot.pictures import (
    HandScene,
    LastPlay,
    SeatScene,
    SideLine,
    Style,
    TableScene,
    hand_picture,
    photo_bytes,
    png_bytes,
    round_picture,
    round_scene,
    seat_picture,
    table_picture,
    warm_up,
)


def _scenes(count: int, seed: int) -> tuple[list[TableScene], list[HandScene], list[object]]:
    rng = random.Random(seed)
    tables: list[TableScene] = []
    hands: list[HandScene] = []
    rounds: list[object] = []
    styles = list(Style)
    while len(tables) < count:
        players = rng.choice((2, 4))
        game = Game.new("scopa", players, seed=rng.randrange(10**9))
        style = rng.choice(styles)
        while not game.finished and len(tables) < count:
            seat = game.to_play
            hand = tuple(game.hands[seat])
            moves = game.legal_moves()
            hands.append(HandScene(style, hand, frozenset(m.card for m in moves), True))
            outcome = game.apply(rng.choice(moves))
            play = outcome.play
            sides = tuple(SideLine(f"Player {i + 1}", game.totals[i], 1, 12) for i in range(len(game.totals)))
            tables.append(
                TableScene(
                    style,
                    "scopa",
                    game.round_number,
                    11,
                    0,
                    tuple(game.table),
                    len(game.stock),
                    sides,
                    "Player 1",
                    LastPlay("Player 2", play.card, play.captured, play.scopa),
                    None,
                    0,
                )
            )
            if outcome.round_result is not None:
                rounds.append(round_scene(outcome.round_result, [s.name for s in sides], style.value))
    return tables, hands, rounds


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tables, hands, rounds = _scenes(args.tables, args.seed)
    start = time.perf_counter()
    for style in Style:
        warm_up(style)
    print(
        f"every card of the {len(Style)} styles drawn at every size the pictures use: "
        f"{time.perf_counter() - start:.2f} s"
    )
    for scene in hands:
        hand_picture(scene)
    timings: list[float] = []
    sizes: list[int] = []
    for scene in tables:
        begin = time.perf_counter()
        data = photo_bytes(table_picture(scene))
        timings.append((time.perf_counter() - begin) * 1000)
        sizes.append(len(data))
    hand_sizes = [len(photo_bytes(hand_picture(scene))) for scene in hands[:200]]
    round_sizes = [len(photo_bytes(round_picture(scene))) for scene in rounds[:50]]  # type: ignore[arg-type]
    seat_timings: list[float] = []
    seat_sizes: list[int] = []
    for table, hand in zip(tables[:200], hands[:200], strict=False):
        begin = time.perf_counter()
        data = photo_bytes(seat_picture(SeatScene(table, hand)))
        seat_timings.append((time.perf_counter() - begin) * 1000)
        seat_sizes.append(len(data))
    png_sizes = [len(png_bytes(table_picture(scene))) for scene in tables[:40]]
    print(
        f"table picture drawn and encoded (JPEG), {len(timings)} tables: "
        f"median {statistics.median(timings):.1f} ms, "
        f"p99 {_percentile(timings, 0.99):.1f} ms, max {max(timings):.1f} ms"
    )
    print(
        f"table photo size: median {statistics.median(sizes) / 1024:.0f} KB, max {max(sizes) / 1024:.0f} KB"
    )
    print(
        f"hand photo size: max {max(hand_sizes) / 1024:.0f} KB; "
        f"round photo size: max {max(round_sizes) / 1024:.0f} KB"
    )
    print(
        f"seat picture (table above hand) drawn and encoded, {len(seat_timings)}: "
        f"median {statistics.median(seat_timings):.1f} ms, max {max(seat_timings):.1f} ms; "
        f"size median {statistics.median(seat_sizes) / 1024:.0f} KB, max {max(seat_sizes) / 1024:.0f} KB"
    )
    print(f"table as palette PNG (the picture command): max {max(png_sizes) / 1024:.0f} KB")


if __name__ == "__main__":
    main()
