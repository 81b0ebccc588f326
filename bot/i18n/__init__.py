"""The catalogue in Italian, English and Spanish: every word a user sees comes from here.

An entry is a text, or an object of plural forms keyed by CLDR plural category
(`{"one": "{count} partita", "other": "{count} partite"}`): `t` picks the form its `count`
parameter needs in the language, by the CLDR rules Babel carries; a category the object
lacks (Italian and Spanish `many`, for a million) takes `other`.
"""

from __future__ import annotations

import json
import logging
from functools import cache
from pathlib import Path
from string import Formatter
from typing import Any

from babel import Locale

from .euphony import WORDS, joined

LANGUAGES = ("it", "en", "es")
DEFAULT_LANGUAGE = "it"
STRICT = False
"""Raise, instead of showing the text unfilled, when a call leaves out a parameter (tests)."""
log = logging.getLogger(__name__)

Entry = str | dict[str, str]
"""A text, or its plural forms by CLDR category."""
PLURAL_CATEGORIES = ("zero", "one", "two", "few", "many", "other")
COUNT = "count"
"""The parameter whose number picks the form of a plural entry."""


@cache
def catalogue(lang: str) -> dict[str, Entry]:
    """`<lang>.json` merged with each front-end's `<lang>.<front-end>.json`."""
    folder = Path(__file__).parent
    merged: dict[str, Entry] = {}
    for path in [folder / f"{lang}.json", *sorted(folder.glob(f"{lang}.*.json"))]:
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def language_of(code: str | None, fallback: str = DEFAULT_LANGUAGE) -> str:
    """The catalogue's language for a platform's language code.

    Telegram sends an IETF tag such as `es` or `pt-br`, Discord a locale such as `es-ES`, `es-419`
    or `en-US`: the primary subtag decides, so every Spanish is `es` and every Italian `it`; a
    language the catalogue lacks gets English, the most widely read. No code at all (a user the
    platform says nothing about) gets `fallback`, usually the chat's language.
    """
    primary = (code or "").strip().replace("_", "-").split("-")[0].lower()
    if not primary:
        return fallback
    return primary if primary in LANGUAGES else "en"


class _Formatter(Formatter):
    """`str.format`, and the Italian euphonic *ad*/*ed* as a placeholder's format:
    `Tocca {name:ad}` gives "Tocca ad Anna" or "Tocca a Marco" (`euphony`)."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec in WORDS:
            return joined(format_spec, str(value))
        text: str = super().format_field(value, format_spec)
        return text


_FORMATTER = _Formatter()


def fill(template: str, /, **params: Any) -> str:
    """`template` with `params` filled in, as `t` fills a catalogue text."""
    return _FORMATTER.vformat(template, (), params)


@cache
def _plural_rule(lang: str) -> Any:
    return Locale.parse(lang).plural_form


def plural_category(lang: str, count: int | float) -> str:
    """The CLDR plural category of `count` in `lang`: `one` for 1 in Italian, `other` for 2…"""
    category: str = _plural_rule(lang)(abs(count))
    return category


def form(lang: str, entry: Entry, count: Any) -> str:
    """The text of `entry` for `count`: the entry itself when it has no plural forms."""
    if isinstance(entry, str):
        return entry
    if isinstance(count, int | float) and not isinstance(count, bool):
        chosen = entry.get(plural_category(lang, count))
        if chosen is not None:
            return chosen
    elif STRICT:
        raise KeyError(f"a plural text needs a number as {COUNT}, not {count!r}")
    return entry["other"]


def t(lang: str | None, key: str, **params: Any) -> str:
    """The text for `key` in `lang` (Italian if unknown), with `params` filled in; for a
    plural entry, in the form its `count` parameter takes (`tn`)."""
    language = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    entry = catalogue(language).get(key)
    if entry is None:
        language = "en"
        entry = catalogue("en").get(key, key)
    text = form(language, entry, params.get(COUNT))
    try:
        return fill(text, **params)
    except (KeyError, IndexError, ValueError):
        if STRICT:
            raise
        log.warning("text %s lacks a parameter (given: %s)", key, ", ".join(params) or "none")
        return text


def tn(lang: str | None, key: str, count: int, **params: Any) -> str:
    """`t` for a plural entry: `tn("it", "count.games", 1)` is `1 partita`, with 2 `2 partite`."""
    return t(lang, key, count=count, **params)


@cache
def _ordinal_rule(lang: str) -> Any:
    return Locale.parse(lang).ordinal_form


def t_ordinal(lang: str | None, key: str, number: int, **params: Any) -> str:
    """The text for `key`, an entry whose forms are keyed by CLDR *ordinal* category (English
    1st, 2nd, 3rd, 4th; Italian 5ª and Spanish 5.ª take one form), with `number` as its `count`."""
    language = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    texts = forms(catalogue(language)[key])
    return fill(texts.get(_ordinal_rule(language)(number), texts["other"]), count=number, **params)


def subject_count(side: str) -> int:
    """How many people a side's name stands for, for a verb to agree with it as its subject
    ("Anna vince", "Anna & Marco vincono"): sides are named by their players joined with
    ` & ` (`sessions.views.side_names`)."""
    return side.count(" & ") + 1


def forms(entry: Entry) -> dict[str, str]:
    """An entry's texts by plural category; a plain text is its own `other`."""
    return {"other": entry} if isinstance(entry, str) else dict(entry)


def placeholders(entry: Entry) -> set[str]:
    """The parameters an entry names, in any of its forms."""
    return {name for text in forms(entry).values() for _, name, _, _ in Formatter().parse(text) if name}
