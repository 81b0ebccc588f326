"""The lobby options table: what it offers, and that both chat front-ends offer exactly that."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import discord
import pytest

from bot.adapters.common.codec import MENUS, Action
from bot.adapters.discord import commands as slash
from bot.adapters.discord.components import lobby_components
from bot.adapters.discord.custom_ids import MENU_KEYS, Menu, decode, option_choice
from bot.adapters.telegram.callbacks import decode as tg_decode
from bot.adapters.telegram.keyboards import MENU_OPTIONS, lobby_keyboard, settings_keyboard
from bot.ai import LEVELS as AI_LEVELS
from bot.engine.rules import HOUSE_RULES, Rules, Seating, Variant
from bot.i18n import catalogue
from bot.sessions import Reason, Refused, Sessions
from bot.sessions.options import (
    ALL_OPTIONS,
    DECK_STYLES,
    HOUSE_OPTIONS,
    LEVELS,
    NO_CLOCK,
    PLAYER_RANGE,
    TEAMS_VALUES,
    TURN_LIMITS,
    VARIANTS,
    catalogue_keys,
    current_values,
    option_of,
    options_for,
    parse,
    parse_any,
    variant_named,
)
from bot.sessions.views import LobbyView

from ..sessions_helpers import ALICE, CHAT


def _lobbies() -> list[LobbyView]:
    """A lobby for every variant, player count and seating the engine allows."""
    lobbies = []
    for variant in VARIANTS:
        low, high = PLAYER_RANGE[variant]
        for players in range(low, high + 1):
            for teams in Seating.team_counts(variant, players):
                lobbies.append(LobbyView(9, "lobby", variant, Rules.default(variant), {}, players, teams,
                                         "napoletane", 1, (None,) * players, 90))
    return lobbies


LOBBIES = _lobbies()


def test_the_table_is_the_engines_and_the_ais() -> None:
    assert tuple(v.value for v in Variant) == VARIANTS
    assert tuple(AI_LEVELS) == LEVELS
    assert PLAYER_RANGE == {"scopa": (2, 4), "scopone": (4, 4), "scopone_scientifico": (4, 4),
                            "escoba": (2, 6)}
    for variant in Variant:
        offered = {o.key for o in options_for(variant)}
        assert offered & set(HOUSE_OPTIONS) == set(HOUSE_RULES[variant])
        assert offered >= {"variant", "players", "target", "round_limit", "teams", "capture_choice",
                           "deck_style", "turn_limit"}
    assert option_of("scopa", "teams", 4).values == ("on", "off")
    assert option_of("escoba", "teams", 6).values == ("on", "three", "off")
    assert option_of("escoba", "teams", 5).values == ("off",)
    assert option_of("scopone", "teams").values == ("on",)
    assert DECK_STYLES == ("napoletane", "piacentine", "siciliane", "trevisane", "bergamasche", "french",
                           "spanish")
    clocked = TURN_LIMITS[:-1]
    assert tuple(sorted(clocked)) == clocked and clocked[-1] == 600 and TURN_LIMITS[-1] == NO_CLOCK


def test_variants_are_named_with_or_without_their_aliases() -> None:
    for name in ("scientifico", "Scopone-Scientifico", " scopone scientifico ", "SCOPONE_SCIENTIFICO"):
        assert variant_named(name) == "scopone_scientifico"
    assert variant_named(Variant.ESCOBA) == "escoba"
    for bad in ("briscola", "", None, 3, "x" * 1000):
        with pytest.raises(Refused) as refused:
            variant_named(bad)
        assert refused.value.reason is Reason.UNKNOWN_GAME
        assert refused.value.params["games"] == VARIANTS


def test_the_command_line_takes_the_same_names() -> None:
    from bot.cli import build_parser

    for command in ("simulate", "play"):
        args = build_parser().parse_args([command, "--variant", "Scientifico"])
        assert args.variant == "scopone_scientifico"
    assert build_parser().parse_args(["play", "--level", "hard"]).level in LEVELS


def test_every_offered_value_parses_and_anything_else_is_refused() -> None:
    for variant in VARIANTS:
        for option in options_for(variant):
            for value in option.values:
                assert parse(variant, option.key, value) == (option.key, value)
    assert parse("scopa", "players", 3) == ("players", "3")
    assert parse("scopa", "teams", True, 4) == ("teams", "on")
    assert parse("scopa", "napola", False) == ("napola", "off")
    assert parse("scopa", "variant", "scientifico") == ("variant", "scopone_scientifico")
    assert parse_any("variant", "Scientifico") == ("variant", "scopone_scientifico")
    bad = [("scopa", "players", 5), ("scopone", "players", 2), ("escoba", "napola", "on"),
           ("scopa", "teams", "three"), ("scopa", "target", "12"), ("scopa", "colour", "red"),
           ("scopa", "turn_limit", "45"), ("scopa", "deck_style", "tarot"), ("scopa", 7, "on"),
           ("scopa", "primiera", "on"), ("scopa", "target", None), ("scopa", "target", ["11"]),
           ("scopa", "target", "1" * 100)]
    for variant, key, value in bad:
        with pytest.raises(Refused) as refused:
            parse(variant, key, value)
        assert refused.value.reason is Reason.BAD_OPTION, (key, value)
    with pytest.raises(Refused):
        parse_any("napola", "maybe")


def test_every_label_the_table_names_is_in_both_catalogues() -> None:
    for lang in ("it", "en"):
        known = catalogue(lang)
        missing = [key for key in catalogue_keys() if key not in known]
        assert not missing, (lang, missing)
    folder = Path(__file__).resolve().parents[2] / "bot" / "i18n"
    import json

    it = json.loads((folder / "it.options.json").read_text(encoding="utf-8"))
    en = json.loads((folder / "en.options.json").read_text(encoding="utf-8"))
    assert set(it) == set(en)


@pytest.mark.parametrize("lobby", LOBBIES, ids=lambda v: f"{v.variant}-{v.players}-{v.teams}")
def test_telegram_menus_offer_exactly_the_tables_values(lobby: LobbyView) -> None:
    offered = {o.key: o for o in options_for(lobby.variant, lobby.players)}
    for menu, key in MENU_OPTIONS.items():
        taps = [tg_decode(b.data) for row in lobby_keyboard(lobby, "en", menu=menu) for b in row]
        values = [tap.option[1] for tap in taps if tap is not None and tap.action is Action.OPTION]
        assert tuple(values) == offered[key].values, menu
        assert all(tap.option[0] == key for tap in taps if tap is not None and tap.action is Action.OPTION)
    house = [tg_decode(b.data) for row in lobby_keyboard(lobby, "en", menu="house") for b in row]
    switched = [tap.option[0] for tap in house if tap is not None and tap.action is Action.OPTION]
    assert switched == list(HOUSE_RULES[Variant(lobby.variant)])
    main = [tg_decode(b.data) for row in lobby_keyboard(lobby, "en") for b in row if b.data]
    levels = [tap.arg for tap in main if tap is not None and tap.action is Action.ADD_COMPUTER]
    assert tuple(levels) == LEVELS


def test_telegram_menus_are_the_ones_buttons_may_open() -> None:
    assert set(MENU_OPTIONS) | {"main", "options", "house"} == set(MENUS)
    assert set(MENU_OPTIONS.values()) <= set(ALL_OPTIONS)


def test_telegram_settings_offer_the_same_turn_limits_and_variants() -> None:
    taps = [tg_decode(b.data) for row in settings_keyboard("en", True, {}) for b in row]
    args = [tap.arg for tap in taps if tap is not None]
    assert [a.split("=")[1] for a in args if a.startswith("ct=")] == [str(n) for n in TURN_LIMITS]
    assert tuple(a.split("=")[1] for a in args if a.startswith("cv=")) == VARIANTS


@pytest.mark.parametrize("lobby", LOBBIES, ids=lambda v: f"{v.variant}-{v.players}-{v.teams}")
def test_discord_menus_offer_exactly_the_tables_values(lobby: LobbyView) -> None:
    offered = {o.key: o for o in options_for(lobby.variant, lobby.players)}
    current = current_values(lobby)
    view = lobby_components(lobby, "en")
    sent: dict[str, list[str]] = defaultdict(list)
    for item in view.children:
        if isinstance(item, discord.ui.Select):
            press = decode(item.custom_id)
            assert press is not None and press.action is Action.SELECT
            menu = Menu(press.arg)
            for choice in item.options:
                found = option_choice(menu, [choice.value])
                assert found is not None, choice.value
                assert found[0] in MENU_KEYS[menu]
                sent[found[0]].append(found[1])
        elif isinstance(item, discord.ui.Button) and item.custom_id:
            press = decode(item.custom_id)
            if press is not None and press.action is Action.ADD_COMPUTER:
                sent["level"].append(press.arg)
    for key in ("variant", "players", "target", "teams", "capture_choice"):
        assert tuple(sent[key]) == offered[key].values, key
    assert tuple(sent["deck_style"]) == tuple(v for v in offered["deck_style"].values
                                              if v != current["deck_style"])
    assert tuple(sent["round_limit"]) == tuple(v for v in offered["round_limit"].values
                                               if v != current["round_limit"])
    for name in HOUSE_RULES[Variant(lobby.variant)]:
        assert len(sent[name]) == 1 and sent[name][0] in HOUSE_OPTIONS[name].values
    assert tuple(sent["level"]) == LEVELS


def test_discord_commands_offer_the_same_values() -> None:
    assert tuple(c.value for c in slash.VARIANT_CHOICES) == VARIANTS
    assert tuple(str(c.value) for c in slash.PLAYER_CHOICES) == ALL_OPTIONS["players"].values
    assert tuple(c.value for c in slash.TURN_CHOICES) == TURN_LIMITS
    assert tuple(c.value for c in slash.DECK_CHOICES) == DECK_STYLES
    assert tuple(c.value for c in slash.CAPTURE_CHOICES) == ALL_OPTIONS["capture_choice"].values
    assert tuple(str(c.value) for c in slash.TARGET_CHOICES) == ALL_OPTIONS["target"].values


async def test_the_sessions_layer_accepts_every_value_the_table_offers(memory_sessions: Sessions) -> None:
    sessions = memory_sessions
    try:
        await sessions.lobby.new_game(CHAT, ALICE, "escoba")
        for variant in VARIANTS:
            await sessions.lobby.set_option(CHAT, ALICE, "variant", variant)
            for option in options_for(variant):
                if option.key in ("variant", "turn_limit"):
                    continue
                for value in option.values:
                    if option.key == "teams":
                        players = (await sessions.queries.lobby(CHAT)).players
                        if value not in option_of(variant, "teams", players).values:
                            continue
                    lobby = await sessions.lobby.set_option(CHAT, ALICE, option.key, value)
                    assert current_values(lobby)[option.key] == value, (variant, option.key, value)
        for seconds in TURN_LIMITS:
            assert (await sessions.settings.set_turn_limit(CHAT, seconds)).turn_limit == seconds
        assert TEAMS_VALUES[0] == "off"
    finally:
        await sessions.close()
