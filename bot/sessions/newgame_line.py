"""What `/newgame [variant] [name=value ...]` asks for, read against the lobby's own options table.

A typed option takes exactly what the lobby menus offer (`options.options_for`): the same
names, the same values, for the game the lobby will be. People may also type the names the
catalogue already gives an option or a value in their language (`punti=21`, `deck=francesi`,
`teams=yes`). Anything else is refused with what it takes, before anything is opened.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache

from ..i18n import LANGUAGES, t
from .names import shown_name, without_controls
from .options import DECK_STYLES, LEVEL, VARIANT, VARIANTS, Option, options_for, variant_named
from .refusals import Reason, Refused

ECHO_MOST = 40
"""Characters of a typed word quoted back in a refusal."""

NOT_ON_THE_LINE = frozenset({"turn_limit"})
"""Offered in the lobby's menu but a setting of the chat (`/settings`), not of the game."""

_SLASH_NAMES: dict[str, str] = {"variant": "variant", "players": "players", "target": "target",
                                "rounds": "round_limit", "teams": "teams", "capture": "capture_choice",
                                "deck": "deck_style", "turn_limit": "turn_limit"}
"""The names the chat front-ends' own option fields already have (`discord.option.<name>.name`),
by the option they set."""

_SWITCH_WORDS: dict[str, bool] = {
    "on": True, "yes": True, "true": True, "sì": True, "si": True, "sí": True,
    "off": False, "no": False, "false": False,
}
"""What people type for an option switched on or off, in the catalogue's languages."""


@dataclass(frozen=True, slots=True)
class NewGameAsk:
    """A /newgame line read: the game it names (None: the chat's default) and the options it
    sets, by their keys in the options table, as typed."""

    variant: str | None = None
    options: dict[str, str] = field(default_factory=dict)


def _echo(typed: str) -> str:
    """What the user typed, quoted back inside the bot's sentence as a name would be."""
    return shown_name(typed, ECHO_MOST)


def _word(text: str) -> str:
    return text.strip().lower().replace("-", "_")


@cache
def key_names() -> dict[str, str]:
    """Every name an option may be typed by (its key, and what the catalogue calls it), to the key."""
    names = {option.key: option.key for variant in VARIANTS for option in options_for(variant)
             if option.key not in NOT_ON_THE_LINE}
    for name, key in _SLASH_NAMES.items():
        names.setdefault(name, key)
        for lang in LANGUAGES:
            names.setdefault(_word(t(lang, f"discord.option.{name}.name")), key)
    return names


def line_keys() -> tuple[str, ...]:
    """The options a /newgame line may set in some game, in the lobby menus' order."""
    return tuple(dict.fromkeys(option.key for variant in VARIANTS for option in options_for(variant)
                               if option.key not in NOT_ON_THE_LINE and option.key != VARIANT.key))


@cache
def _value_names() -> dict[str, dict[str, str]]:
    """The words the catalogue gives a value, by option key: the decks' names in every language."""
    decks = {_word(t(lang, f"deck.{style}")): style for lang in LANGUAGES for style in DECK_STYLES}
    return {"deck_style": decks}


def read_newgame_line(line: str | None) -> NewGameAsk:
    """The game and the options `line` names: words that name a game first, then `name=value`
    words; refused with the first word that is neither (`OPTION_FORM`), or, when no word names a
    game, as an unknown game (`UNKNOWN_GAME`)."""
    words = without_controls(line or "").split()
    bare = 0
    while bare < len(words) and "=" not in words[bare]:
        bare += 1
    variant = _variant_of(words[:bare])
    options: dict[str, str] = {}
    for word in words[bare:]:
        name, _, value = word.partition("=")
        if not name or not value or "=" in value:
            raise Refused(Reason.OPTION_FORM, asked=_echo(word))
        key = key_names().get(_word(name), _word(name))
        if key == VARIANT.key:
            variant = variant_named(value)
        else:
            options[key] = value
    return NewGameAsk(variant, options)


def _variant_of(words: list[str]) -> str | None:
    """The game the leading words name (a game's name may be two words); a word left over is
    refused as not `name=value`."""
    if not words:
        return None
    for count in range(len(words), 0, -1):
        try:
            variant = variant_named(" ".join(words[:count]))
        except Refused:
            continue
        if count < len(words):
            raise Refused(Reason.OPTION_FORM, asked=_echo(words[count]))
        return variant
    if _word(words[0]) in key_names():
        raise Refused(Reason.OPTION_FORM, asked=_echo(words[0]))
    return variant_named(" ".join(words))


def checked_options(variant: str, options: Mapping[str, object]) -> dict[str, str]:
    """`options` as the lobby of `variant` takes them (each value as the menus send it), or
    refused naming the option a game of `variant` lacks (`OPTION_UNKNOWN`, with the options it
    has), the value it does not offer (`OPTION_VALUE`, with the values it does), or a setting
    of the chat rather than of the game (`OPTION_IN_SETTINGS`)."""
    offered = {o.key: o for o in options_for(variant) if o.key not in NOT_ON_THE_LINE}
    checked: dict[str, str] = {}
    players: int | None = None
    for key in sorted(options, key=lambda k: k != "players"):
        if key in NOT_ON_THE_LINE:
            raise Refused(Reason.OPTION_IN_SETTINGS, option=key)
        option = offered.get(key)
        if option is None or key == VARIANT.key:
            raise Refused(Reason.OPTION_UNKNOWN, option=_echo(key),
                          options=tuple(k for k in offered if k != VARIANT.key))
        if key == "teams" and players is not None:
            option = next(o for o in options_for(variant, players) if o.key == key)
        checked[key] = _value(option, options[key])
        if key == "players":
            players = int(checked[key])
    return checked


def _value(option: Option, raw: object) -> str:
    typed = raw
    if isinstance(raw, str):
        word = _word(raw)
        typed = _value_names().get(option.key, {}).get(word, word)
        if option.switch is not None and typed not in option.values and word in _SWITCH_WORDS:
            typed = _SWITCH_WORDS[word]
    try:
        return option.parse(typed)
    except Refused:
        asked = _echo(f"{option.key}={raw}")
        raise Refused(Reason.OPTION_VALUE, asked=asked, option=option.key, values=option.values) from None



SOLO_LEVEL = "medium"
"""The computer's level in a match against it opened by /newgame in a private chat, unless the
line says `level=`."""


@cache
def _level_words() -> tuple[frozenset[str], dict[str, str]]:
    """What the computer's level may be typed as, and its values' names in every language,
    accents or not."""
    keys = {LEVEL.key, "livello", "nivel"}
    values: dict[str, str] = {}
    for level in LEVEL.values:
        values[level] = level
        for lang in LANGUAGES:
            name = _word(t(lang, f"level.{level}"))
            values[name] = level
            values[name.translate(_PLAIN)] = level
    return frozenset(keys), values


_PLAIN = str.maketrans("áéíóú", "aeiou")


def solo_level(options: dict[str, object]) -> str:
    """The computer's level a solo /newgame line asks for (taken out of `options`, which keeps the
    lobby's own options), or `SOLO_LEVEL`; a level not offered is refused with the ones that are."""
    keys, values = _level_words()
    asked = [key for key in options if key in keys]
    level = SOLO_LEVEL
    for key in asked:
        raw = str(options.pop(key))
        level = values.get(_word(raw), "")
        if not level:
            raise Refused(Reason.OPTION_VALUE, asked=_echo(f"{LEVEL.key}={raw}"), option=LEVEL.key,
                          values=LEVEL.values)
    return level
