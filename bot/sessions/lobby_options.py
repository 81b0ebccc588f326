"""A lobby's option changed: the variant, the number of players or teams, the deck, a rule.
The lobby as it then is, checked against the rules and the seats taken."""

from __future__ import annotations

import dataclasses
from typing import Any

from ..engine import InvalidInputError, Rules
from ..engine.rules import HOUSE_RULES, parse_variant
from .options import DECK_STYLES, PLAYER_RANGE, default_deck
from .records import GameRow, LobbyChange
from .refusals import Reason, Refused
from .seats import changed_options, fitting_teams, seating, team_count, teams_of

_HOUSE_ANYWHERE = frozenset(name for names in HOUSE_RULES.values() for name in names)


def option_change(row: GameRow, key: str, value: Any, language: str | None = None) -> LobbyChange:
    """Lobby `row` with option `key` set to `value` (its seats numbered from 0 again); refused
    with why for a value the rules do not take, or fewer players than seats taken. A new
    variant brings its own default deck (in the chat's `language`) unless a deck was chosen."""
    variant, options = row.variant, dict(row.options)
    players, teams, deck_style = row.players, row.teams, row.deck_style
    try:
        if key == "variant":
            old = variant
            variant = parse_variant(str(value)).value
            if deck_style == default_deck(old, language):
                deck_style = default_deck(variant, language)
            options = {}
            teams = 2 if variant in ("scopone", "scopone_scientifico") else 0
            low, high = PLAYER_RANGE[variant]
            players = min(max(players, low), high)
        elif key == "players":
            players = int(value)
            teams = fitting_teams(variant, players, teams)
        elif key == "teams":
            teams = team_count(value)
        elif key == "deck_style":
            if value not in DECK_STYLES:
                raise InvalidInputError(f"unknown deck style {value!r}")
            deck_style = str(value)
        else:
            if key in _HOUSE_ANYWHERE and key not in HOUSE_RULES[parse_variant(variant)]:
                raise InvalidInputError(f"{key} changes nothing in {variant}")
            options[key] = value
        rules = Rules.from_options(variant, options)
        teams = teams_of(seating(variant, players, teams))
    except (InvalidInputError, ValueError) as exc:
        raise Refused(Reason.BAD_OPTION, detail=str(exc), asked=f"{key}={value}") from None
    if sum(1 for s in row.seats) > players:
        raise Refused(Reason.BAD_OPTION, detail="players")
    return LobbyChange(row.id, row.version, variant=variant,
                       options=changed_options(parse_variant(variant), rules), players=players,
                       teams=teams, deck_style=deck_style,
                       seats=tuple(dataclasses.replace(s, seat=i) for i, s in enumerate(row.seats)))
