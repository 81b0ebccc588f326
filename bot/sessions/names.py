"""A player's name or a chat's title as every front-end shows it, made once where it comes in.

Names are typed by users and shown inside the bot's own lines ("Eve 0 · Anna 11"). A name
carrying a right-to-left override (U+202E) or written in a right-to-left script would pull
the text around it into its own direction, so that scores appear beside the wrong names.
So explicit direction controls are dropped, and a name that still holds right-to-left
letters is isolated (FSI … PDI): it keeps its own direction without touching its
neighbours. A long name is cut to `NAME_MOST` characters between grapheme clusters, never
inside an emoji sequence, a flag or a letter with its accents.
"""

from __future__ import annotations

import unicodedata

import regex

NAME_MOST = 64
"""Characters (code points) a name or a title keeps, its isolation marks included."""

FSI = "\u2068"
PDI = "\u2069"

_CONTROLS = frozenset({"LRE", "RLE", "PDF", "LRO", "RLO", "LRI", "RLI", "FSI", "PDI"})
"""Bidirectional classes of the embedding, override and isolate controls."""
_RIGHT_TO_LEFT = frozenset({"R", "AL", "AN"})
"""Bidirectional classes that turn the text around them (letters of Hebrew, Arabic and the
like, Arabic digits, the right-to-left marks)."""
_CLUSTER = regex.compile(r"\X")


def without_controls(text: str) -> str:
    """`text` without explicit direction controls (embeddings, overrides, isolates)."""
    if text.isascii():
        return text
    return "".join(ch for ch in text if unicodedata.bidirectional(ch) not in _CONTROLS)


def clipped(text: str, most: int) -> str:
    """The longest start of `text` of at most `most` characters that ends between grapheme
    clusters."""
    if len(text) <= most:
        return text
    end = 0
    for cluster in _CLUSTER.finditer(text):
        if cluster.end() > most:
            break
        end = cluster.end()
    return text[:end]


def shown_name(raw: str, most: int = NAME_MOST) -> str:
    """`raw` as a name the bot's lines can hold: without direction controls, isolated if it
    has right-to-left letters, at most `most` characters on grapheme boundaries; the same for
    a name already made so."""
    if raw.isascii():
        return raw.strip()[:most]
    text = without_controls(raw).strip()
    if not any(unicodedata.bidirectional(ch) in _RIGHT_TO_LEFT for ch in text):
        return clipped(text, most).rstrip()
    return FSI + clipped(text, most - 2).rstrip() + PDI
