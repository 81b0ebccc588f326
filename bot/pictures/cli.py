"""`scopa-bot picture`: a sheet of a deck, or the table or round end of a stored match."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import NoReturn

from PIL import Image

from ..engine.record import RecordError
from ..i18n import LANGUAGES
from .encode import png_bytes
from .record import Position, read_records, record_scene
from .scenes import SeatScene, TableScene
from .score import round_picture
from .seat import seat_picture
from .sheet import deck_sheet
from .styles import Style, parse_style
from .table import table_picture

USAGE = (
    "scopa-bot picture --deck STYLE --out FILE.png\n"
    "       scopa-bot picture --record FILE [--match M] [--round R] [--play P] [--style STYLE] "
    "[--seat S] [--lang it|en|es] [--hide-taken] --out FILE.png"
)


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.usage = USAGE
    parser.add_argument("--deck", metavar="STYLE", help=f"a sheet of all 40 cards: {', '.join(Style)}")
    parser.add_argument("--record", metavar="FILE", help="a file of scopa-record/1 lines")
    parser.add_argument("--match", type=int, default=1, metavar="M", help="which record of the file, from 1")
    parser.add_argument("--round", type=int, default=1, metavar="R", help="the round, from 1")
    parser.add_argument(
        "--play",
        type=int,
        metavar="P",
        help="the table after P plays of the round (0: as dealt); without it, the round's end",
    )
    parser.add_argument(
        "--seat",
        type=int,
        metavar="S",
        help="with --play: player S's own picture, the table above their hand",
    )
    parser.add_argument(
        "--style", default="napoletane", metavar="STYLE", help="the deck the cards are drawn as"
    )
    parser.add_argument("--lang", default="it", choices=LANGUAGES)
    parser.add_argument(
        "--hide-taken", action="store_true", help="leave out the cards each side took (federal scopone)"
    )
    parser.add_argument("--out", metavar="FILE.png")


def run(args: argparse.Namespace) -> int:
    try:
        image = _picture(args)
        Path(args.out).write_bytes(png_bytes(image))
    except (RecordError, ValueError) as exc:
        print(f"scopa-bot picture: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"scopa-bot picture: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(args.out)
    return 0


def _picture(args: argparse.Namespace) -> Image.Image:
    if not args.out:
        raise ValueError("give --out FILE.png")
    if (args.deck is None) == (args.record is None):
        raise ValueError("give either --deck STYLE or --record FILE")
    if args.deck is not None:
        return deck_sheet(parse_style(args.deck), args.lang)
    style = parse_style(args.style)
    records = read_records(args.record)
    if not 1 <= args.match <= len(records):
        raise RecordError(f"no match {args.match}: {args.record} has matches 1 to {len(records)}")
    scene = record_scene(
        records[args.match - 1],
        Position(args.round, args.play, args.seat),
        style,
        args.lang,
        show_taken=not args.hide_taken,
    )
    if isinstance(scene, TableScene):
        return table_picture(scene, args.lang)
    if isinstance(scene, SeatScene):
        return seat_picture(scene, args.lang)
    return round_picture(scene, args.lang)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"scopa-bot picture: {message} (see --help)\n")


def main(argv: list[str]) -> int:
    parser = _Parser(prog="scopa-bot picture")
    configure_parser(parser)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    return run(args)
