"""Slash commands: /newgame, /leaderboard, /stats, /review, /daily, /puzzle, /season, /tournament,
/duplicate, /rules, /settings, /help.

Names, descriptions, options and choices are English by default and
localised by `translator.CatalogueTranslator` when the tree is synced. The
callbacks only hand over to `CommandHandlers`; option values are checked
there again, since nothing a client sends is trusted.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from ...i18n import LANGUAGES
from ...sessions.options import (
    ALL_OPTIONS,
    CAPTURE_CHOICE,
    DECK_STYLE,
    NO_CLOCK,
    TARGET,
    TURN_LIMITS,
    VARIANTS,
)
from .handlers import CommandHandlers
from .translator import english


def _choice(key: str, value: str) -> Choice[str]:
    return Choice(name=locale_str(english(key), key=key), value=value)


def _described(*names: str) -> dict[str, str]:
    return {name: english(f"discord.option.{name}.description") for name in names}


VARIANT_CHOICES = [_choice(f"variant.{v}", v) for v in VARIANTS]
PLAYER_CHOICES = [Choice(name=n, value=int(n)) for n in ALL_OPTIONS["players"].values]
TARGET_CHOICES = [Choice(name=n, value=int(n)) for n in TARGET.values]
ROUND_CHOICES = [Choice(name=n, value=int(n)) for n in ALL_OPTIONS["round_limit"].values if n != "0"]
CAPTURE_CHOICES = [_choice(f"option.capture_choice.{v}", v) for v in CAPTURE_CHOICE.values]
DECK_CHOICES = [_choice(f"deck.{v}", v) for v in DECK_STYLE.values]
LANGUAGE_CHOICES = [_choice(f"discord.language.{v}", v) for v in LANGUAGES]
TURN_CHOICES = [Choice(name=locale_str(english("option.no_clock"), key="option.no_clock"), value=n)
                if n == NO_CLOCK else Choice(name=f"{n} s", value=n) for n in TURN_LIMITS]


DUPLICATE_SETUP = "discord.option.duplicate_setup.description"
"""/duplicate's `setup` takes other words than /tournament's: its description has a key of its own."""


def build_commands(handlers: CommandHandlers) -> list[app_commands.Command[Any, ..., None]]:
    @app_commands.command(name="newgame", description=english("discord.command.newgame.description"))
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    @app_commands.describe(**_described("variant", "players", "target", "teams", "capture", "deck",
                                        "rounds", "options"))
    # discord.py types one kind of choice a decorator: these are words and numbers
    @app_commands.choices(variant=VARIANT_CHOICES, players=PLAYER_CHOICES, target=TARGET_CHOICES,  # type: ignore[misc]
                          capture=CAPTURE_CHOICES, deck=DECK_CHOICES, rounds=ROUND_CHOICES)
    async def newgame(interaction: discord.Interaction, variant: str | None = None,
                      players: int | None = None, target: int | None = None, teams: bool | None = None,
                      capture: str | None = None, deck: str | None = None,
                      rounds: int | None = None, options: str | None = None) -> None:
        await handlers.newgame(interaction, variant, {
            "players": players, "target": target, "teams": teams, "capture_choice": capture,
            "deck_style": deck, "round_limit": rounds}, options)

    @app_commands.command(name="leaderboard", description=english("discord.command.leaderboard.description"))
    @app_commands.describe(**_described("everyone"))
    @app_commands.rename(everyone="global")
    async def leaderboard(interaction: discord.Interaction, everyone: bool = False) -> None:
        await handlers.leaderboard(interaction, everyone)

    @app_commands.command(name="stats", description=english("discord.command.stats.description"))
    async def stats(interaction: discord.Interaction) -> None:
        await handlers.stats(interaction)

    @app_commands.command(name="review", description=english("discord.command.review.description"))
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    async def review(interaction: discord.Interaction) -> None:
        await handlers.review(interaction)

    @app_commands.command(name="rules", description=english("discord.command.rules.description"))
    @app_commands.describe(**_described("variant"))
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def rules(interaction: discord.Interaction, variant: str | None = None) -> None:
        await handlers.rules(interaction, variant)

    @app_commands.command(name="settings", description=english("discord.command.settings.description"))
    @app_commands.describe(**_described("channel_language", "turn_limit", "default_game", "my_language",
                                        "dm_pings", "pictures"))
    @app_commands.choices(channel_language=LANGUAGE_CHOICES, turn_limit=TURN_CHOICES,  # type: ignore[misc]
                          default_game=VARIANT_CHOICES, my_language=LANGUAGE_CHOICES)
    async def settings(interaction: discord.Interaction, channel_language: str | None = None,
                       turn_limit: int | None = None, default_game: str | None = None,
                       my_language: str | None = None, dm_pings: bool | None = None,
                       pictures: bool | None = None) -> None:
        await handlers.settings(interaction, channel_language=channel_language, turn_limit=turn_limit,
                                default_game=default_game, my_language=my_language, dm_pings=dm_pings,
                                pictures=pictures)

    @app_commands.command(name="help", description=english("discord.command.help.description"))
    async def help_(interaction: discord.Interaction) -> None:
        await handlers.help(interaction)

    @app_commands.command(name="daily", description=english("discord.command.daily.description"))
    @app_commands.describe(**_described("board", "everyone"))
    @app_commands.rename(everyone="global")
    async def daily(interaction: discord.Interaction, board: bool = False, everyone: bool = False) -> None:
        await handlers.daily(interaction, board, everyone)

    @app_commands.command(name="puzzle", description=english("discord.command.puzzle.description"))
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    async def puzzle(interaction: discord.Interaction) -> None:
        await handlers.puzzle(interaction)

    @app_commands.command(name="season", description=english("discord.command.season.description"))
    @app_commands.describe(**_described("last", "everyone", "player"))
    @app_commands.rename(everyone="global")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    async def season(interaction: discord.Interaction, last: bool = False, everyone: bool = False,
                     player: discord.User | None = None) -> None:
        await handlers.season(interaction, last, everyone, player)

    @app_commands.command(name="tournament", description=english("discord.command.tournament.description"))
    @app_commands.describe(**_described("setup"))
    @app_commands.guild_only()
    async def tournament(interaction: discord.Interaction, setup: str | None = None) -> None:
        await handlers.tournament(interaction, setup)

    @app_commands.command(name="duplicate", description=english("discord.command.duplicate.description"))
    @app_commands.describe(setup=locale_str(english(DUPLICATE_SETUP), key=DUPLICATE_SETUP))
    @app_commands.guild_only()
    async def duplicate(interaction: discord.Interaction, setup: str | None = None) -> None:
        await handlers.tournament(interaction, setup, event=True)

    return [newgame, leaderboard, stats, review, rules, settings, help_, daily, puzzle, season, tournament,
            duplicate]
