"""The `scopa-bot` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .engine.errors import EngineError


def _rule_pairs(pairs: Sequence[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SystemExit(f"--rule takes key=value, not {pair!r}")
        options[key.strip()] = value.strip()
    return options


def _simulate(args: argparse.Namespace) -> int:
    from .simulate import simulate

    records = open(args.records, "w", encoding="utf-8") if args.records else None  # noqa: SIM115
    try:
        summary = simulate(args.variant, args.players, args.teams, args.games, args.seed,
                           _rule_pairs(args.rule), records)
    finally:
        if records is not None:
            records.close()
    print("\n".join(summary.lines()))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scopa-bot", description="Scopa for Telegram and Discord.")
    sub = parser.add_subparsers(dest="command")

    sim = sub.add_parser("simulate", help="play seeded random matches and summarise them")
    sim.add_argument("--variant", default="scopa")
    sim.add_argument("--players", type=int, default=2)
    sim.add_argument("--teams", action="store_true")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", default="0")
    sim.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    sim.add_argument("--records", metavar="FILE", help="write one scopa-record/1 line per match")
    sim.set_defaults(func=_simulate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except EngineError as exc:
        print(f"scopa-bot: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
