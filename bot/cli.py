"""The `scopa-bot` command."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence

from .ai import LEVELS
from .ai.review import DEFAULT_SEARCHES as REVIEW_SEARCHES
from .engine.errors import EngineError
from .engine.rules import parse_rule_pairs
from .failures import FatalError
from .i18n import LANGUAGES
from .redact import redact


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


_LANGUAGE_NAMES = "it (Italian), en (English) or es (Spanish)"


def variant_name(text: str) -> str:
    """The variant `text` names, with the chat's other names for it (`scientifico`), for
    argparse: an unknown name is a usage error that lists the variants."""
    from .engine import Variant
    from .sessions import Refused
    from .sessions.options import variant_named

    try:
        return variant_named(text)
    except Refused:
        names = ", ".join(v.value for v in Variant)
        raise argparse.ArgumentTypeError(f"unknown variant {text[:40]!r}; variants: {names}") from None


def _play(args: argparse.Namespace) -> int:
    from .adapters.terminal import TerminalGame
    from .app import open_sessions
    from .i18n import t
    from .render.words import refusal_text
    from .sessions import Refused

    rules = parse_rule_pairs(args.rule)
    game: TerminalGame | None = None

    async def main() -> int:
        nonlocal game
        sessions = await open_sessions(args.db, computer_pace=args.pace)
        try:
            game = TerminalGame(sessions, lang=args.lang)
            try:
                game_id = await game.setup(args.variant, args.players, args.level, args.teams, rules)
            except Refused as refused:
                print(f"scopa-bot: {refusal_text(refused, args.lang)}", file=sys.stderr)
                return 2
            if game_id is not None:
                await game.run(game_id)
        finally:
            await sessions.close()
        return 0

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        # Every move is stored as it is played: leaving now loses nothing.
        print("\n" + t(args.lang, "terminal.saved"))
        return 0


def _backup(args: argparse.Namespace) -> int:
    from .storage.backends import Backend, UnsupportedDatabase, parse_database
    from .storage.backup import backup_sqlite
    from .storage.health import StorageUnavailable

    try:
        database = parse_database(args.db)
    except UnsupportedDatabase as exc:
        print(f"scopa-bot: {exc}", file=sys.stderr)
        return 2
    target = database.target
    if database.backend is not Backend.SQLITE:
        print("scopa-bot: back up a PostgreSQL database with pg_dump", file=sys.stderr)
        return 2
    try:
        pages = backup_sqlite(target, args.file)
    except StorageUnavailable as exc:
        print(f"scopa-bot: {exc}", file=sys.stderr)
        return 2
    print(f"{args.file}: {pages} pages copied from {target}")
    return 0


def _export(args: argparse.Namespace) -> int:
    from .storage import SqliteStore

    async def main() -> int:
        store = await SqliteStore.open(args.db)
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


def _erase(args: argparse.Namespace) -> int:
    """Erase a player as /forgetme does, in one transaction: asked of the running bot, which
    knows their games in memory and tells their chats; made here when no bot does in `--wait`."""
    from .app import open_sessions
    from .failures import FatalError

    async def main() -> int:
        sessions = await open_sessions(args.db)
        try:
            if await sessions.queries.find_player(args.platform, args.user) is None:
                print(f"{args.platform} user {args.user}: nothing is kept about them")
                return 0
            await sessions.privacy.ask(args.platform, args.user)
            waited = 0.0
            while waited < args.wait and await sessions.privacy.asked(args.platform, args.user):
                await asyncio.sleep(0.25)
                waited += 0.25
            if not await sessions.privacy.asked(args.platform, args.user):
                print(f"{args.platform} user {args.user}: erased by the running bot")
                return 0
            forgotten = await sessions.privacy.forget(args.platform, args.user)
        finally:
            await sessions.close()
        if forgotten is None:
            print(f"{args.platform} user {args.user}: nothing is kept about them")
            return 0
        print(f"{args.platform} user {args.user}: erased "
              f"(their results stay as player {forgotten.player_id}'s)")
        for settled in forgotten.games:
            print(f"  game {settled.game_id}: {settled.outcome.value.replace('_', ' ')}")
        return 0

    try:
        return asyncio.run(main())
    except FatalError as exc:
        print(f"scopa-bot: {exc}", file=sys.stderr)
        return exc.exit_code


def _serve(names: list[str], args: argparse.Namespace | None = None) -> int:
    import dataclasses

    from .app import Settings, parse_shard_count, parse_shards, serve

    settings = Settings.from_env()
    shards, count = getattr(args, "shards", None), getattr(args, "shard_count", None)
    if shards is not None or count is not None:
        settings = dataclasses.replace(
            settings, discord_shards=parse_shards(shards) if shards else settings.discord_shards,
            discord_shard_count=parse_shard_count(count) if count else settings.discord_shard_count
        ).checked()
    if args is not None and getattr(args, "listen", None):
        settings = dataclasses.replace(settings, telegram_listen=args.listen)
    missing = [n for n in names if not getattr(settings, f"{n}_token")]
    if missing:
        print(_NO_TOKEN.format(names=", ".join(n.upper() + "_TOKEN" for n in missing)),
              file=sys.stderr)
        return 2
    settings.mask_tokens()
    from .logs import configure_logging, log_mode

    configure_logging(log_mode(os.environ.get("SCOPA_LOG")))
    asyncio.run(serve(names, settings))
    return 0


def _run(args: argparse.Namespace) -> int:
    """Every front-end whose token is configured; with none, explain and offer the terminal game."""
    from .app import Settings
    from .i18n import t

    settings = Settings.from_env()
    names = [name for name in ("telegram", "discord") if getattr(settings, f"{name}_token")]
    if names:
        return _serve(names)
    print(t(args.lang, "terminal.welcome"))
    if not sys.stdin.isatty():
        return 0
    print()
    try:
        input(t(args.lang, "terminal.start"))
    except (KeyboardInterrupt, EOFError):
        print()
        return 0
    args.variant, args.players, args.level, args.teams, args.rule = None, None, "medium", False, []
    args.pace = 0.8
    return _play(args)


_NO_TOKEN = "scopa-bot: set {names} in the environment first (see README.md)."
_TELEGRAM_ENV = """environment:
  TELEGRAM_TOKEN        the token from @BotFather (required)
  TELEGRAM_API_BASE     Bot API prefix, e.g. http://127.0.0.1:8081/bot for a self-hosted server
  TELEGRAM_WEBHOOK_URL  webhook mode: the public URL (long polling when unset)
  TELEGRAM_LISTEN       webhook mode: the host:port to listen on
  TELEGRAM_WORKERS      webhook mode: how many processes share the token (on PostgreSQL
                        Telegram's limits are counted there for all; else each keeps its share)
  SCOPA_DB              the database: an SQLite file (default scopa.db) or
                        postgresql://user:password@host:5432/db
  SCOPA_OWNERS          the owners' user ids, e.g. telegram:123,discord:456 (README.md)
  SCOPA_LOG             json for one JSON object a log line (default: text)
  SCOPA_METRICS         host:port to serve /metrics, /healthz and /readyz on (README.md)"""
_DISCORD_ENV = """environment:
  DISCORD_TOKEN         the bot token from the Discord developer portal (required)
  DISCORD_API_BASE      the Discord API's address, for a proxy or a test server
  DISCORD_SHARDS, DISCORD_SHARD_COUNT  as --shards and --shard-count
  SCOPA_DB              the database: an SQLite file (default scopa.db) or
                        postgresql://user:password@host:5432/db
  SCOPA_OWNERS          the owners' user ids, e.g. telegram:123,discord:456 (README.md)
  SCOPA_LOG             json for one JSON object a log line (default: text)
  SCOPA_METRICS         host:port to serve /metrics, /healthz and /readyz on (README.md)"""
_RUN_ENV = "environment: TELEGRAM_TOKEN, DISCORD_TOKEN (and those listed by telegram --help and " \
           "discord --help), SCOPA_DB, SCOPA_OWNERS, SCOPA_LOG, SCOPA_METRICS."


def default_language() -> str:
    """The system's language (LC_ALL, LC_MESSAGES or LANG) when the catalogue has it, else English."""
    from .i18n import language_of

    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return language_of(value.split(".")[0], "en")
    return "en"


def _variants_help() -> str:
    from .engine import Variant
    from .sessions.options import VARIANT_ALIASES

    names = ", ".join(v.value for v in Variant)
    aliases = ", ".join(f"{alias} = {name}" for alias, name in VARIANT_ALIASES.items())
    return f"{names} ({aliases})"


def _rules_help() -> str:
    import textwrap
    from dataclasses import fields

    from .engine import Rules

    return textwrap.fill("rule options (docs/rules.md): " + ", ".join(f.name for f in fields(Rules))
                         + "; values are numbers, on/off, or a choice such as capture_choice=fewest "
                         "or primiera=sevens.", 78)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scopa-bot", description="Scopa for Telegram and Discord.",
        epilog="Without a subcommand: run. From a checkout, ./scripts/run SUBCOMMAND runs these.")
    sub = parser.add_subparsers(dest="command")
    variants = _variants_help()
    rules_help = "a rule option, repeatable, e.g. round_limit=3 or ace_takes_all=on"
    formatter = argparse.RawDescriptionHelpFormatter

    sim = sub.add_parser("simulate", help="play seeded random matches and summarise them",
                         epilog=_rules_help(), formatter_class=formatter)
    sim.add_argument("--variant", type=variant_name, default="scopa", help=f"one of {variants}")
    sim.add_argument("--players", type=int, default=2)
    sim.add_argument("--teams", action="store_true")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", default="0")
    sim.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE", help=rules_help)
    sim.add_argument("--records", metavar="FILE", help="write one scopa-record/1 line per match")
    sim.set_defaults(func=_simulate)

    run = sub.add_parser("run", help="run every front-end whose token is configured (the default)",
                         epilog=_RUN_ENV)
    run.add_argument("--db", default=os.environ.get("SCOPA_DB", "scopa.db"),
                     help="the SQLite file (SCOPA_DB, default scopa.db)")
    run.add_argument("--lang", default=default_language(), choices=LANGUAGES,
                     help="language of the terminal game offered when no token is set: "
                          f"{_LANGUAGE_NAMES} (default: the system's, else English)")
    run.set_defaults(func=_run)

    for name, environment in (("telegram", _TELEGRAM_ENV), ("discord", _DISCORD_ENV)):
        front = sub.add_parser(name, help=f"run the {name.title()} bot ({name.upper()}_TOKEN)",
                               description=f"Run the {name.title()} bot alone.", epilog=environment,
                               formatter_class=formatter)
        front.set_defaults(func=lambda args, name=name: _serve([name], args))
        if name == "telegram":
            front.add_argument("--listen", metavar="HOST:PORT",
                               help="webhook mode: where this process listens (TELEGRAM_LISTEN); "
                                    "several processes behind one TELEGRAM_WEBHOOK_URL each have "
                                    "their own (docs/scaling.md)")
        else:
            front.add_argument("--shards", metavar="IDS",
                               help="the gateway shards this process runs, e.g. 0-3 or 0,2 "
                                    "(DISCORD_SHARDS; default: all); needs --shard-count")
            front.add_argument("--shard-count", metavar="N",
                               help="the shards all processes run together (DISCORD_SHARD_COUNT)")

    play = sub.add_parser(
        "play", help="play a match in the terminal against the computer",
        description="A match against computer players. q or Ctrl-C saves and quits; the same "
                    "command resumes it.", epilog=_rules_help(), formatter_class=formatter)
    play.add_argument("--variant", type=variant_name, default=None,
                      help=f"one of {variants}; default: the open match, else scopa")
    play.add_argument("--players", type=int, help="the variant's usual number when left out")
    play.add_argument("--teams", action="store_true", help="play in teams of two")
    play.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE", help=rules_help)
    play.add_argument("--level", default="medium", choices=LEVELS, help="the computer players' level")
    play.add_argument("--lang", default=default_language(), choices=LANGUAGES,
                      help=f"{_LANGUAGE_NAMES}; default: the system's language, else English")
    play.add_argument("--db", default=os.environ.get("SCOPA_DB", "scopa.db"),
                      help="the SQLite file (SCOPA_DB, default scopa.db)")
    play.add_argument("--pace", type=float, default=0.8, help="seconds between computer moves")
    play.set_defaults(func=_play)

    arena = sub.add_parser("arena", help="measure computer levels against each other", add_help=False)
    arena.set_defaults(func=_arena, takes_rest=True)

    sub.add_parser("picture", help="draw a deck, or a stored match's table", add_help=False).set_defaults(
        func=_picture, takes_rest=True)

    backup = sub.add_parser("backup", help="copy the SQLite database safely while the bot runs")
    backup.add_argument("file", help="the new file to write")
    backup.add_argument("--db", default=os.environ.get("SCOPA_DB", "scopa.db"),
                        help="the database (SCOPA_DB, default scopa.db)")
    backup.set_defaults(func=_backup)

    review = sub.add_parser(
        "review", help="grade every play of a recorded match against the best move",
        description="Grades every play of a scopa-record/1 match by the hard computer player's "
                    "valuation, from the position as its player saw it. The same record and "
                    "--searches always give the same review.")
    review.add_argument("--record", required=True, metavar="FILE",
                        help="a file of scopa-record/1 lines, as scopa-bot simulate --records and "
                             "scopa-bot export write them")
    review.add_argument("--match", type=_positive, default=1, metavar="N",
                        help="which match of the file, from 1 (default: the first)")
    review.add_argument("--searches", type=_positive, default=REVIEW_SEARCHES, metavar="K",
                        help=f"guesses of the hidden cards per play (default {REVIEW_SEARCHES}); "
                             "more is slower and steadier")
    review.add_argument("--json", action="store_true",
                        help="one JSON line per play, then one with each seat's accuracy")
    review.add_argument("--lang", default=default_language(), choices=LANGUAGES,
                        help=f"{_LANGUAGE_NAMES}; default: the system's language, else English")
    review.set_defaults(func=_review)

    export = sub.add_parser("export", help="print the stored scopa-record/1 lines")
    export.add_argument("--db", default=os.environ.get("SCOPA_DB", "scopa.db"),
                        help="the SQLite file (SCOPA_DB, default scopa.db)")
    export.set_defaults(func=_export)

    erase = sub.add_parser("erase", help="erase what identifies a player (as /forgetme), while the bot runs")
    erase.add_argument("--platform", required=True, choices=("telegram", "discord"))
    erase.add_argument("--user", required=True, help="the player's user id on that platform")
    erase.add_argument("--wait", type=float, default=10.0,
                       help="seconds for a running bot to make it (its games and chats told); "
                            "then the command makes it itself (default 10)")
    erase.add_argument("--db", default=os.environ.get("SCOPA_DB", "scopa.db"),
                       help="the database (SCOPA_DB, default scopa.db): an SQLite file or postgresql://...")
    erase.set_defaults(func=_erase)
    return parser


def _review(args: argparse.Namespace) -> int:
    import json

    from .ai.review import RecordError, read_records, review_match
    from .i18n import t
    from .render.review import review_text

    try:
        with open(args.record, encoding="utf-8") as file:
            text = file.read()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"scopa-bot: cannot read {args.record}: {getattr(exc, 'strerror', None) or exc}",
              file=sys.stderr)
        return 2
    try:
        records = read_records(text, args.record)
        if not 1 <= args.match <= len(records):
            print(f"scopa-bot: no match {args.match} in {args.record}: it holds matches 1 to {len(records)}",
                  file=sys.stderr)
            return 2
        review = review_match(records[args.match - 1], args.searches)
    except RecordError as exc:
        print(f"scopa-bot: {exc}", file=sys.stderr)
        return 2
    if not args.json:
        names = [t(args.lang, "pictures.player", number=seat + 1) for seat in range(review.seats)]
        print(review_text(review, names, args.lang))
        return 0
    for play in review.plays:
        print(json.dumps(play.line(), ensure_ascii=False, separators=(", ", ": ")))
    print(json.dumps({"accuracy": list(review.accuracy)}, separators=(", ", ": ")))
    return 0


def _positive(text: str) -> int:
    """A whole number of at least 1, for argparse."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text[:20]!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def _arena(args: argparse.Namespace) -> int:
    from .ai.arena import configure_parser, run

    parser = argparse.ArgumentParser(prog="scopa-bot arena", epilog=f"variants: {_variants_help()}")
    configure_parser(parser)
    options = parser.parse_args(args.rest)  # the arena's own options, parsed by bot.ai
    try:
        options.variant = variant_name(options.variant)
    except argparse.ArgumentTypeError as exc:
        parser.error(str(exc))
    return run(options)


def _picture(args: argparse.Namespace) -> int:
    from .pictures.cli import main

    return main(args.rest)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    if words and words[0].startswith("-") and words[0] not in ("-h", "--help"):
        words.insert(0, "run")  # `scopa-bot --lang en` is `scopa-bot run --lang en`
    args, rest = parser.parse_known_args(words)
    if not getattr(args, "func", None):
        args, rest = parser.parse_known_args(["run", *words])
    if rest and not getattr(args, "takes_rest", False):
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    args.rest = rest
    try:
        return int(args.func(args) or 0)
    except EngineError as exc:
        print(f"scopa-bot: {exc}", file=sys.stderr)
        return 2
    except FatalError as failure:
        print(f"scopa-bot: {redact(str(failure))}", file=sys.stderr)
        return failure.exit_code


if __name__ == "__main__":
    sys.exit(main())
