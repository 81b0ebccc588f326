"""The Italian and English catalogue: every word a user sees comes from here."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from string import Formatter
from typing import Any

LANGUAGES = ("it", "en")
DEFAULT_LANGUAGE = "it"


@cache
def catalogue(lang: str) -> dict[str, str]:
    path = Path(__file__).with_name(f"{lang}.json")
    return dict(json.loads(path.read_text(encoding="utf-8")))


def t(lang: str | None, key: str, **params: Any) -> str:
    """The text for `key` in `lang` (Italian if unknown), with `params` filled in."""
    language = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    text = catalogue(language).get(key)
    if text is None:
        text = catalogue("en").get(key, key)
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name}
