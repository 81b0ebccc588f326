"""The catalogue in Italian, English and Spanish: every word a user sees comes from here."""

from __future__ import annotations

import json
import logging
from functools import cache
from pathlib import Path
from string import Formatter
from typing import Any

LANGUAGES = ("it", "en", "es")
DEFAULT_LANGUAGE = "it"
STRICT = False
"""Raise, instead of showing the text unfilled, when a call leaves out a parameter (tests)."""
log = logging.getLogger(__name__)


@cache
def catalogue(lang: str) -> dict[str, str]:
    """`<lang>.json` merged with each front-end's `<lang>.<front-end>.json`."""
    folder = Path(__file__).parent
    merged: dict[str, str] = {}
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


def t(lang: str | None, key: str, **params: Any) -> str:
    """The text for `key` in `lang` (Italian if unknown), with `params` filled in."""
    language = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    text = catalogue(language).get(key)
    if text is None:
        text = catalogue("en").get(key, key)
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        if STRICT:
            raise
        log.warning("text %s lacks a parameter (given: %s)", key, ", ".join(params) or "none")
        return text


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name}
