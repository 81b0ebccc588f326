"""Every lobby option and the values a chat may pick, for every front-end alike.

The engine says which variants, targets, round limits, seatings and house
rules exist (bot/engine/rules.py), the ai which computer levels
(bot/ai); this module only adds what a lobby offers on top of that (player
counts, deck styles, turn limits, the names people type for a variant) and
checks a value coming from a button, a menu or a command against it. Menus
are built from `options_for`, and a value is accepted only through `parse`:
what one front-end offers, the other offers too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from ..ai import LEVELS as AI_LEVELS
from ..engine.errors import InvalidRulesError
from ..engine.rules import (
    HOUSE_RULES,
    ROUND_LIMITS_OFFERED,
    TARGETS_OFFERED,
    CaptureChoice,
    Primiera,
    Seating,
    Variant,
    parse_variant,
)
from ..engine.rules import house_rule_switch as house_rule_switch
from .refusals import Reason, Refused
from .views import LobbyView

VARIANTS: tuple[str, ...] = tuple(v.value for v in Variant)

VARIANT_ALIASES: dict[str, str] = {
    "scientifico": Variant.SCOPONE_SCIENTIFICO.value,
    "scopone-scientifico": Variant.SCOPONE_SCIENTIFICO.value,
    "scopone scientifico": Variant.SCOPONE_SCIENTIFICO.value,
}
"""Other names people type for a variant (lower case); each variant's own name works too."""

LEVELS: tuple[str, ...] = tuple(AI_LEVELS)


def _player_range(variant: Variant) -> tuple[int, int]:
    """The fewest and the most players the engine seats for `variant`."""
    counts = [n for n in range(1, 13) if Seating.team_counts(variant, n)]
    return counts[0], counts[-1]


PLAYER_RANGE: dict[str, tuple[int, int]] = {v.value: _player_range(v) for v in Variant}
DEFAULT_PLAYERS: dict[str, int] = {v.value: PLAYER_RANGE[v.value][0] for v in Variant}
"""A new lobby's seats: the fewest the variant is played by (two at scopa, four at scopone)."""

TEAMS_VALUES: dict[int, str] = {2: "on", 3: "three", 0: "off"}
"""The lobby's `teams` option by number of teams (`Seating.team_counts`), as buttons send it."""

NO_CLOCK = 0
"""A chat's turn limit when no clock runs: nobody is ever played for. A family group that plays
through the day takes its time; the player to move is reminded once after `REMIND_AFTER`
seconds, and the game's creator or a chat admin may hand a seat nobody plays to the computer."""
REMIND_AFTER = 60 * 60
"""Seconds a turn waits, with no clock, before its player is reminded (once: a ring an hour
into a wait is a nudge, a ring every hour would be nagging)."""
TURN_LIMITS: tuple[int, ...] = (30, 60, 90, 120, 180, 300, 600, NO_CLOCK)
"""Seconds a player has for a move, as every chat's menus offer them (`NO_CLOCK` last).

Half a minute suits a quick game among people who have the chat open; a
minute and a half (a chat's default) leaves time to count the table; two to
five minutes fit a group chatting while it plays; ten minutes is for a game
played on the side, where people look at the phone now and then. Longer
waits would leave the other players wondering whether the game is dead, and
the computer takes over a seat that lets the time run out anyway.
"""

TURN_LIMIT_BOUNDS: tuple[int, int] = (15, 3600)
"""What a chat may hold at all besides `NO_CLOCK`: the menus' values, and an hour for the
terminal game, where only one person plays against the computers."""

DECK_STYLES: tuple[str, ...] = ("napoletane", "piacentine", "siciliane", "trevisane", "bergamasche",
                                "french", "spanish")
"""The decks a lobby offers, in the order menus list them: each is drawn by `bot.pictures` and
written with its own suit signs by `bot.render.words`."""

ON_OFF = ("on", "off")


def default_deck(variant: str, language: str | None) -> str:
    """The deck a lobby starts with, unless the chat chose one: the Spanish deck for an escoba
    in a Spanish chat (the cards its players know), the Neapolitan otherwise."""
    return "spanish" if variant == Variant.ESCOBA.value and language == "es" else "napoletane"


@dataclass(frozen=True, slots=True)
class Option:
    """One lobby option: its key in the sessions layer, the values it takes as text, the
    catalogue key naming it and, where values have names, the key naming each value
    (`{value}` stands for the value); `switch` is the (yes, no) values a true or false
    stands for, in options that are switched on or off."""

    key: str
    values: tuple[str, ...]
    label: str
    value_label: str | None = None
    switch: tuple[str, str] | None = None

    def value_key(self, value: str) -> str | None:
        return self.value_label.format(value=value) if self.value_label else None

    def parse(self, raw: object) -> str:
        """`raw` as one of `values`, or Refused(BAD_OPTION) naming the option and the value."""
        text = self._text(raw)
        if text is None or text not in self.values:
            raise Refused(Reason.BAD_OPTION, detail=f"{self.key}={str(raw)[:40]}")
        return text

    def _text(self, raw: object) -> str | None:
        if isinstance(raw, bool):
            return self.switch[0 if raw else 1] if self.switch else None
        if isinstance(raw, int):
            return str(raw)
        if isinstance(raw, str) and len(raw) <= 40:
            return raw.strip().lower()
        return None


def _house(name: str) -> Option:
    if name == "primiera":
        return Option(name, tuple(p.value for p in Primiera), "option.primiera.sevens",
                      "option.primiera.{value}")
    return Option(name, ON_OFF, f"option.{name}", switch=ON_OFF)


HOUSE_OPTIONS: dict[str, Option] = {name: _house(name) for names in HOUSE_RULES.values()
                                    for name in names}
"""Every house rule any variant offers; `options_for` says which a variant offers."""

VARIANT = Option("variant", VARIANTS, "button.variant", "variant.{value}")
TARGET = Option("target", tuple(str(n) for n in TARGETS_OFFERED), "button.target")
ROUND_LIMIT = Option("round_limit", tuple(str(n) for n in ROUND_LIMITS_OFFERED), "button.round_limit")
CAPTURE_CHOICE = Option("capture_choice", tuple(c.value for c in CaptureChoice), "button.capture_rule",
                        "option.capture_choice.{value}")
DECK_STYLE = Option("deck_style", DECK_STYLES, "button.deck", "deck.{value}")
TURN_LIMIT = Option("turn_limit", tuple(str(n) for n in TURN_LIMITS), "button.turn_limit")
LEVEL = Option("level", LEVELS, "options.level", "level.{value}")
PRACTICE = Option("practice", ON_OFF, "option.practice", "option.practice.{value}", switch=ON_OFF)
"""A match to learn in: hints on request, no rating (`Rules.practice`)."""


def players_option(variant: str) -> Option:
    low, high = PLAYER_RANGE[variant]
    return Option("players", tuple(str(n) for n in range(low, high + 1)), "options.players")


def teams_option(variant: str, players: int | None = None) -> Option:
    """The seatings `players` may take at `variant`; with no count, those of any count."""
    low, high = PLAYER_RANGE[variant]
    counts = {c for n in ((players,) if players is not None else range(low, high + 1))
              for c in Seating.team_counts(variant, n)}
    return Option("teams", tuple(v for c, v in TEAMS_VALUES.items() if c in counts), "button.teams",
                  switch=(TEAMS_VALUES[2], TEAMS_VALUES[0]))


def options_for(variant: object, players: int | None = None) -> tuple[Option, ...]:
    """The options a lobby of `variant` offers, each with its allowed values, in menu order;
    `players` narrows the seatings to those that many players may take."""
    return _options(variant_named(variant), players)


@lru_cache(maxsize=64)
def _options(name: str, players: int | None) -> tuple[Option, ...]:
    return (VARIANT, players_option(name), TARGET, ROUND_LIMIT, teams_option(name, players),
            CAPTURE_CHOICE, DECK_STYLE, TURN_LIMIT, PRACTICE,
            *(HOUSE_OPTIONS[rule] for rule in HOUSE_RULES[Variant(name)]))


def variant_named(raw: object) -> str:
    """The variant a command, a button or the command line names, aliases included."""
    if isinstance(raw, Variant):
        return raw.value
    if isinstance(raw, str) and len(raw) <= 40:
        text = raw.strip().lower()
        try:
            return parse_variant(VARIANT_ALIASES.get(text, text)).value
        except InvalidRulesError:
            pass
    raise Refused(Reason.UNKNOWN_GAME, game=str(raw)[:40], games=VARIANTS)


def _widest(key: str) -> Option:
    same = [o for v in VARIANTS for o in options_for(v) if o.key == key]
    values = tuple(dict.fromkeys(value for o in same for value in o.values))
    return Option(key, values, same[0].label, same[0].value_label, same[0].switch)


ALL_OPTIONS: dict[str, Option] = {key: _widest(key) for key in
                                  dict.fromkeys(o.key for v in VARIANTS for o in options_for(v))}
"""Each option with the values it takes in some variant (what a button may carry at all)."""


def option_of(variant: object, key: str, players: int | None = None) -> Option:
    """The option `key` as `variant` offers it, or Refused(BAD_OPTION)."""
    for option in options_for(variant, players):
        if option.key == key:
            return option
    raise Refused(Reason.BAD_OPTION, detail=str(key)[:40])


def parse(variant: object, key: object, raw: object, players: int | None = None) -> tuple[str, str]:
    """(key, value) if `variant` offers option `key` with value `raw`, else Refused(BAD_OPTION);
    a variant's value may be an alias."""
    if not isinstance(key, str):
        raise Refused(Reason.BAD_OPTION, detail=str(key)[:40])
    if key == VARIANT.key:
        return key, variant_named(raw)
    return key, option_of(variant, key, players).parse(raw)


def parse_any(key: object, raw: object) -> tuple[str, str]:
    """(key, value) if some variant offers it: what a button may carry, before the lobby's own
    variant is known."""
    option = ALL_OPTIONS.get(key) if isinstance(key, str) else None
    if option is None:
        raise Refused(Reason.BAD_OPTION, detail=str(key)[:40])
    return option.key, variant_named(raw) if option.key == VARIANT.key else option.parse(raw)


def current_values(view: LobbyView) -> dict[str, str]:
    """A lobby's value of every option it offers, as text (what a button for it would carry)."""
    rules = view.rules.to_dict()
    values = {"variant": view.variant, "players": str(view.players), "target": str(rules["target"]),
              "round_limit": str(rules["round_limit"]), "teams": TEAMS_VALUES.get(view.teams, "off"),
              "capture_choice": str(rules["capture_choice"]), "deck_style": view.deck_style,
              "turn_limit": str(view.turn_limit), "practice": "on" if rules["practice"] else "off"}
    for name in HOUSE_RULES[Variant(view.variant)]:
        value = rules[name]
        values[name] = ("on" if value else "off") if isinstance(value, bool) else str(value)
    return values


def catalogue_keys() -> Iterable[str]:
    """Every catalogue key the options table names."""
    for option in (*ALL_OPTIONS.values(), LEVEL):
        yield option.label
        for value in option.values:
            key = option.value_key(value)
            if key:
                yield key
    for style in DECK_STYLES:
        yield f"deck.{style}"
