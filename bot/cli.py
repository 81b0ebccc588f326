"""The `scopa-bot` command."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Sequence

from .engine.errors import EngineError
from .engine.rules import parse_rule_pairs


def _simulate(args: argparse.Namespace) -> int:
    from .simulate import simulate

    records = open(args.records, "w", encoding="utf-8") if args.records else None  # noqa: SIM115
    try:
        summary = simulate(args.variant, args.players, args.teams, args.games, args.seed,
                           parse_rule_pairs(args.rule), records)
    finally:
        if records is not None:
            records.close()
    print("\n".join(summary.lines()))
    return 0


def _play(args: argparse.Namespace) -> int:
    from .adapters.terminal import TerminalGame
    from .app import open_sessions
    from .render import refusal_text
    from .sessions import Refused

    rules = parse_rule_pairs(args.rule)

    async def main() -> int:
        sessions = await open_sessions(args.db, computer_pace=args.pace)
        try:
            game = TerminalGame(sessions, lang=args.lang)
            try:
                game_id = await game.setup(args.variant, args.players, args.level, args.teams, rules)
            except Refused as refused:
                print(f"scopa-bot: {refusal_text(refused, args.lang)}", file=sys.stderr)
                return 2
            await game.run(game_id)
        finally:
            await sessions.close()
        return 0

    return asyncio.run(main())


def _export(args: argparse.Namespace) -> int:
    from .storage import Store

    async def main() -> int:
        store = await Store.open(args.db)
        try:
            for line in await store.records():
                print(line)
        finally:
            await store.close()
        return 0

    if args.db != ":memory:" and not os.path.exists(args.db):
        print(f"scopa-bot: no database at {args.db}", file=sys.stderr)
        return 2
    return asyncio.run(main())


def _serve(names: list[str]) -> int:
    from .app import Settings, serve

    settings = Settings.from_env()
    missing = [n for n in names if not getattr(settings, f"{n}_token")]
    if missing:
        print(_NO_TOKEN.format(names=", ".join(n.upper() + "_TOKEN" for n in missing)),
              file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    asyncio.run(serve(names, settings))
    return 0


def _run(args: argparse.Namespace) -> int:
    """Every front-end whose token is configured; with none, explain and offer the terminal game."""
    from .app import Settings

    settings = Settings.from_env()
    names = [name for name in ("telegram", "discord") if getattr(settings, f"{name}_token")]
    if names:
        return _serve(names)
    print(_WELCOME)
    if not sys.stdin.isatty():
        return 0
    args.variant, args.players, args.level, args.teams, args.rule = "scopa", 2, "medium", False, []
    args.lang, args.pace = "it", 0.8
    return _play(args)


_NO_TOKEN = "scopa-bot: set {names} in the environment first (see README.md)."
_WELCOME = """No chat token is configured, so no chat bot is started.

To run the bot in chats:
  Telegram: talk to @BotFather, send /newbot, and put the token it gives you in TELEGRAM_TOKEN.
  Discord:  create an application at the Discord developer portal, add a bot, and put its
            token in DISCORD_TOKEN (docs/discord.md has the invite link and permissions).
Then run this command again.

Meanwhile, a match against the computer starts here in the terminal (scopa-bot play --help)."""


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

    run = sub.add_parser("run", help="run every front-end whose token is configured (the default)")
    run.add_argument("--db", default=os.environ.get("SCOPA_DB", "scopa.db"))
    run.set_defaults(func=_run)

    for name in ("telegram", "discord"):
        front = sub.add_parser(name, help=f"run the {name.title()} bot ({name.upper()}_TOKEN)")
        front.set_defaults(func=lambda _args, name=name: _serve([name]))

    play = sub.add_parser("play", help="play a match in the terminal against the computer")
    play.add_argument("--variant", default="scopa")
    play.add_argument("--players", type=int, help="the variant's usual number when left out")
    play.add_argument("--teams", action="store_true")
    play.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                      help="a rule option (docs/rules.md), e.g. round_limit=3 or ace_takes_all=on")
    play.add_argument("--level", default="medium", choices=("easy", "medium", "hard"))
    play.add_argument("--lang", default="it", choices=("it", "en"))
    play.add_argument("--db", default=os.environ.get("SCOPA_DB", "scopa.db"))
    play.add_argument("--pace", type=float, default=0.8, help="seconds between computer moves")
    play.set_defaults(func=_play)

    arena = sub.add_parser("arena", help="measure computer levels against each other")
    arena.set_defaults(func=_arena, takes_rest=True)
    arena.usage = ("scopa-bot arena --a LEVEL --b LEVEL [--variant V] [--players N] --deals D "
                   "--seed S [--json]")

    export = sub.add_parser("export", help="print the stored scopa-record/1 lines")
    export.add_argument("--db", default=os.environ.get("SCOPA_DB", "scopa.db"))
    export.set_defaults(func=_export)
    return parser


def _arena(args: argparse.Namespace) -> int:
    from .ai.arena import configure_parser, run

    parser = argparse.ArgumentParser(prog="scopa-bot arena")
    configure_parser(parser)
    return run(parser.parse_args(args.rest))  # the arena's own options, parsed by bot.ai


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, rest = parser.parse_known_args(argv)
    if not getattr(args, "func", None):
        args, rest = parser.parse_known_args(["run", *(argv or [])])
    if rest and not getattr(args, "takes_rest", False):
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    args.rest = rest
    try:
        return int(args.func(args) or 0)
    except EngineError as exc:
        print(f"scopa-bot: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
