"""Variants, rule options and seatings.

Every option has one documented default per variant, taken from the rule
texts (docs/rules.md says which text each one comes from). Options travel as
plain strings from chat buttons and the command line, so `Rules.from_options`
parses and validates them; nothing user-sent is trusted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace
from enum import Enum, StrEnum
from typing import Any

from .errors import InvalidRulesError


class Variant(StrEnum):
    SCOPA = "scopa"
    SCOPONE = "scopone"
    SCOPONE_SCIENTIFICO = "scopone_scientifico"
    ESCOBA = "escoba"


class WinKind(StrEnum):
    """How a federal match to 8 is won (004 art. 16), by the losers' points: 4 or more,
    1 to 3, none."""

    SEMPLICE = "semplice"
    DOPPIA = "doppia"
    TRIPLA = "tripla"


FEDERAL_TARGET = 8
"""004 art. 16 names the win kinds for a match to 8 points only."""


class CaptureChoice(StrEnum):
    FREE = "free"
    FEWEST = "fewest"


class Primiera(StrEnum):
    CLASSIC = "classic"
    SEVENS = "sevens"


TARGETS_OFFERED = (8, 11, 15, 16, 21, 31)
ROUND_LIMITS_OFFERED = (0, 1, 3, 5)
"""0: no limit, the match is played to its target alone."""

_REGIONAL = ("ace_takes_all", "re_bello", "napola", "asso_bello", "sevens_point")
HOUSE_RULES: dict[Variant, tuple[str, ...]] = {
    Variant.SCOPA: (*_REGIONAL, "primiera", "must_capture", "three_kings_redeal", "low_table_redeal"),
    Variant.SCOPONE: (*_REGIONAL, "primiera", "must_capture", "three_kings_redeal",
                      "low_table_redeal", "fuori", "federal"),
    Variant.SCOPONE_SCIENTIFICO: (*_REGIONAL, "primiera", "must_capture", "fuori", "federal"),
    Variant.ESCOBA: ("primiera", "must_capture"),
}
"""The two-way options a lobby offers per variant, none that the variant would ignore:
escoba scores and captures by its own rules (docs/rules.md), and scopone scientifico
deals no table. Escoba's text has no redeal, so escoba offers none either."""

SCOPONE_ONLY = ("fuori", "federal")
"""Options of the federal rulebook of scopone (004) that no other variant plays."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The options in effect for one match."""

    target: int = 11
    capture_choice: CaptureChoice = CaptureChoice.FREE
    ace_takes_all: bool = False
    re_bello: bool = False
    napola: bool = False
    primiera: Primiera = Primiera.CLASSIC
    three_kings_redeal: bool = True
    low_table_redeal: bool = False
    must_capture: bool = True
    sevens_point: bool = False
    asso_bello: bool = False
    round_limit: int = 0
    fuori: bool = False
    sixes_tiebreak: bool = True
    """With `primiera=sevens`, a tie on sevens goes to the side with most sixes (003's
    Sicilian primiera); off, a tie scores nothing (001's "maggioranza di 7")."""
    federal: bool = False
    """Scopone as 004 plays it: hands seen from one's first turn (art. 5), no count of
    the cards taken shown during a round (art. 18), teams drawn (art. 3), a match to 8
    won semplice, doppia or tripla (art. 16)."""
    practice: bool = False
    """A match to learn in: a player may ask what the computer would play, and the match
    counts for no rating or leaderboard. The game itself is played as any other."""

    @classmethod
    def default(cls, variant: Variant | str) -> Rules:
        variant = parse_variant(variant)
        if cls is Rules:
            found = _DEFAULTS.get(variant)
            if found is None:
                found = _DEFAULTS[variant] = cls._default(variant)
            return found
        return cls._default(variant)

    @classmethod
    def _default(cls, variant: Variant) -> Rules:
        if variant is Variant.SCOPONE:
            return cls(low_table_redeal=True)
        if variant is Variant.SCOPONE_SCIENTIFICO:
            return cls(three_kings_redeal=False)
        if variant is Variant.ESCOBA:
            return cls(target=21, primiera=Primiera.SEVENS, three_kings_redeal=False,
                       sixes_tiebreak=False)
        return cls()

    @classmethod
    def from_options(cls, variant: Variant | str, options: dict[str, Any] | None = None) -> Rules:
        """The variant's defaults with `options` applied; values may be strings."""
        variant = parse_variant(variant)
        rules = cls.default(variant)
        if not options:
            return rules
        if not isinstance(options, dict):
            raise InvalidRulesError("rule options must be a mapping of names to values")
        changes: dict[str, Any] = {}
        known = {f.name: f for f in fields(cls)}
        for key, raw in options.items():
            if key not in known:
                raise InvalidRulesError(
                    f"unknown rule option {key!r}; known options: {', '.join(sorted(known))}"
                )
            changes[key] = _parse_value(key, getattr(rules, key), raw)
        rules = replace(rules, **changes)
        rules.check(variant)
        return rules

    def check(self, variant: Variant) -> None:
        """Raise InvalidRulesError if an option is on that `variant` does not play."""
        if variant in (Variant.SCOPONE, Variant.SCOPONE_SCIENTIFICO):
            return
        for name in SCOPONE_ONLY:
            if getattr(self, name):
                raise InvalidRulesError(
                    f"option {name} belongs to scopone's federal rulebook (004): it is played in "
                    f"scopone and scopone_scientifico only, not in {variant.value}")

    def to_dict(self) -> dict[str, Any]:
        """Every option written out, enums as their string values (a new dict each call)."""
        found = _WRITTEN.get(self)
        if found is None:
            if len(_WRITTEN) >= 256:
                _WRITTEN.clear()
            found = _WRITTEN[self] = {key: value.value if isinstance(value, Enum) else value
                                      for key, value in asdict(self).items()}
        return dict(found)


def house_rule_switch(rules: Rules, name: str) -> tuple[bool, str]:
    """Whether the house rule `name` is on in `rules`, and the value that switches it over;
    for `primiera`, "on" is the most-sevens count."""
    if name == "primiera":
        on = rules.primiera is Primiera.SEVENS
        return on, (Primiera.CLASSIC if on else Primiera.SEVENS).value
    on = bool(getattr(rules, name))
    return on, "off" if on else "on"


def parse_rule_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """`key=value` words (as typed on a command line) as an options mapping for `Rules.from_options`."""
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InvalidRulesError(f"a rule option is written key=value, not {pair!r}")
        options[key.strip()] = value.strip()
    return options


_RANGES = {"target": (1, 101), "round_limit": (0, 101)}
"""The whole-number options' bounds."""

_WRITTEN: dict[Rules, dict[str, Any]] = {}
"""Each Rules value written out once: every saved game and record writes its rules."""

_DEFAULTS: dict[Variant, Rules] = {}
"""Each variant's default Rules, made once: Rules are frozen, so they can be shared."""


def _parse_value(key: str, current: Any, raw: Any) -> Any:
    if isinstance(current, bool):
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in ("1", "true", "yes", "on", "si", "sì"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise InvalidRulesError(f"option {key} takes on/off, not {raw!r}")
    if isinstance(current, Enum):
        try:
            return type(current)(str(raw).strip().lower())
        except ValueError:
            allowed = ", ".join(member.value for member in type(current))
            raise InvalidRulesError(f"option {key} takes one of {allowed}, not {raw!r}") from None
    if isinstance(current, int):
        try:
            value = int(str(raw).strip())
        except ValueError:
            raise InvalidRulesError(f"option {key} takes a whole number, not {raw!r}") from None
        low, high = _RANGES[key]
        if not low <= value <= high:
            raise InvalidRulesError(f"option {key} must be between {low} and {high}, not {value}")
        return value
    raise InvalidRulesError(f"option {key} cannot be set")  # pragma: no cover


def parse_variant(variant: Variant | str) -> Variant:
    if isinstance(variant, Variant):
        return variant
    try:
        return Variant(str(variant.value if isinstance(variant, Variant) else variant).strip().lower())
    except ValueError:
        allowed = ", ".join(v.value for v in Variant)
        raise InvalidRulesError(f"unknown variant {variant!r}; variants: {allowed}") from None


@dataclass(frozen=True, slots=True)
class Seating:
    """How many seats play and which seats score together (a side)."""

    seats: int
    sides: tuple[tuple[int, ...], ...]

    @classmethod
    def make(cls, variant: Variant | str, players: int, teams: bool = False,
             sides: int | None = None) -> Seating:
        """Seats `0..players-1`; with teams, seat k plays for side k % number_of_sides."""
        variant = parse_variant(variant)
        if isinstance(players, bool) or not isinstance(players, int):
            raise InvalidRulesError("the number of players must be a whole number")
        if variant in (Variant.SCOPONE, Variant.SCOPONE_SCIENTIFICO):
            if players != 4:
                raise InvalidRulesError(f"{variant.value} is played by 4 players in two teams")
            teams, sides = True, 2
        elif variant is Variant.SCOPA and not 2 <= players <= 4:
            raise InvalidRulesError("scopa is played by 2, 3 or 4 players")
        elif variant is Variant.ESCOBA and not 2 <= players <= 6:
            raise InvalidRulesError("escoba is played by 2 to 6 players")
        if not teams:
            return cls(players, tuple((seat,) for seat in range(players)))
        if sides is None:
            sides = 2
        if sides < 2 or players % sides or players // sides < 2:
            raise InvalidRulesError(f"{players} players cannot form {sides} teams of equal size")
        if variant is Variant.SCOPA and players != 4:
            raise InvalidRulesError("team scopa is played by 4 players, partners opposite")
        return cls(players, tuple(tuple(range(k, players, sides)) for k in range(sides)))

    @classmethod
    def team_counts(cls, variant: Variant | str, players: int) -> tuple[int, ...]:
        """The ways `players` may sit in `variant`, as numbers of teams (0: each on their
        own), two teams first: (2, 0) for four at scopa, (2,) for scopone, (2, 3, 0) for
        six at escoba."""
        counts = []
        for count in (2, 3, 0):
            try:
                seating = cls.make(variant, players, count > 0, count or None)
            except InvalidRulesError:
                continue
            if (len(seating.sides) if seating.teams else 0) == count:
                counts.append(count)
        return tuple(counts)

    @property
    def side_of(self) -> tuple[int, ...]:
        owner = [0] * self.seats
        for index, side in enumerate(self.sides):
            for seat in side:
                owner[seat] = index
        return tuple(owner)

    @property
    def teams(self) -> bool:
        return any(len(side) > 1 for side in self.sides)
