"""Tournament pictures for 4, 5, 8, 16 and 32 players with long names: how large they are, how
long they take to draw, how large their photos are; with --out, each written full size and
scaled to 320 pixels wide (a photo on a phone) to look at.

    python benchmarks/tournament_pictures.py --out /tmp/tournament-pictures
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from PIL import Image

from bot.pictures.encode import photo_bytes, png_bytes
from bot.pictures.tournament import (
    PHONE,
    BracketScene,
    Slot,
    StandingLine,
    StandingsScene,
    Table,
    bracket_picture,
    bracket_size,
    columns,
    standings_picture,
)

NAMES = ("Bartolomeo Giovannangeli di Castellammare", "Anna", "Maria Grazia Esposito-Lombardi", "Luca",
         "Giuseppe Verdi Longobardi Jr.", "Chiara", "Francesco De Gregorio", "Sofia Bianchi")


def name(seed: int) -> str:
    return NAMES[seed] if seed < len(NAMES) else f"{NAMES[seed % len(NAMES)]} {seed + 1}"


def knockout(field: int, seated: int, won: bool) -> BracketScene:
    """A knockout of `field` players with `seated` rounds seated, the higher seed winning each
    table; the last round not played yet unless `won`."""
    size = bracket_size(field)
    seeds: list[int | None] = [*range(field), *[None] * (size - field)]
    alive: list[int | None] = []
    for table in range(size // 2):
        alive += [seeds[table], seeds[size - 1 - table]]
    rounds: list[tuple[Table, ...]] = []
    for number in range(seated):
        tables: list[Table] = []
        ahead: list[int | None] = []
        playing = number == seated - 1 and not won
        for first, second in zip(alive[::2], alive[1::2], strict=True):
            if first is None or second is None:
                through = first if second is None else second
                assert through is not None
                tables.append(Table(Slot(name(through), None, True), Slot(None)))
            elif playing:
                tables.append(Table(Slot(name(first)), Slot(name(second))))
            else:
                tables.append(Table(Slot(name(first), 11, True), Slot(name(second), 4 + second % 6)))
            ahead.append(first if second is None or (first is not None and first < second) else second)
        rounds.append(tuple(tables))
        alive = ahead
    champion = name(alive[0] or 0) if won else None
    return BracketScene("🏆 Torneo · scopa · eliminazione diretta", field, tuple(rounds), champion)


def swiss(players: int, won: bool) -> StandingsScene:
    lines = tuple(StandingLine(rank + 1, name(rank), 9 - rank // 3, 3 - rank // 8, rank // 8, rank % 2,
                               20 - rank) for rank in range(players))
    return StandingsScene("🏆 Torneo · scopa · svizzero, 3 turni", 3 if won else 2, 3, lines,
                          name(0) if won else None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="a folder to write each picture in, full and at 320")
    parser.add_argument("--lang", default="it")
    args = parser.parse_args()
    pictures: list[tuple[str, Image.Image, float]] = []
    for field in (4, 5, 8, 16, 32):
        for seated, won in ((1, False), (2, False), (columns(field), True)):
            if seated <= columns(field):
                began = time.perf_counter()
                image = bracket_picture(knockout(field, seated, won), args.lang)
                tag = f"knockout-{field}-round-{seated}{'-won' if won else ''}"
                pictures.append((tag, image, time.perf_counter() - began))
    for players in (4, 5, 8, 16, 32):
        began = time.perf_counter()
        image = standings_picture(swiss(players, players == 32), args.lang)
        pictures.append((f"swiss-{players}", image, time.perf_counter() - began))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    print(f"{'picture':28} {'size':>10} {'draw ms':>8} {'photo KB':>9} {'PNG KB':>7}")
    for tag, image, seconds in pictures:
        print(f"{tag:28} {image.width:>4}×{image.height:<5} {1000 * seconds:8.1f} "
              f"{len(photo_bytes(image)) / 1024:9.0f} {len(png_bytes(image)) / 1024:7.0f}")
        if args.out:
            image.save(args.out / f"{tag}.png")
            small = image.resize((PHONE, round(image.height * PHONE / image.width)), Image.Resampling.LANCZOS)
            small.save(args.out / f"{tag}-{PHONE}.png")


if __name__ == "__main__":
    main()
