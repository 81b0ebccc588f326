"""Italian's euphonic *d*: "ad Anna", "ed Elena", but "a Marco", "e Marco".

A catalogue text asks for it on the placeholder that follows the word: `Tocca {name:ad}` reads
"Tocca ad Anna" or "Tocca a Marco", `{first} {second:ed}` "Marco ed Elena" or "Anna e Marco".
The rule is the one Italian writes today: *ad* before a word that begins with *a*, *ed* before
one that begins with *e* (accents and capitals aside); the plain *a* and *e* everywhere else.
"""

from __future__ import annotations

import unicodedata

WORDS = {"ad": "a", "ed": "e"}
"""The euphonic form of each word, and the plain one."""


def initial(text: str) -> str:
    """The first letter of `text`, lower case and without its accent (`È` → `e`)."""
    stripped = text.lstrip()
    if not stripped:
        return ""
    return unicodedata.normalize("NFD", stripped[0])[0].lower()


def euphonic(word: str, following: str) -> str:
    """`word` ("ad" or "ed", or their plain "a" and "e") in the form that goes before
    `following`: with its *d* only before the same vowel."""
    plain = WORDS.get(word, word)
    return plain + "d" if initial(following) == plain else plain


def joined(word: str, following: str) -> str:
    """`following` after `word` in its euphonic form: `joined("ad", "Anna")` is "ad Anna"."""
    return f"{euphonic(word, following)} {following}"
