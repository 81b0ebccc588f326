"""A tournament's words read right for one round and one point as for several, in each language."""

from __future__ import annotations

import pytest

from bot.render.tournament import tournament_text

from ..sessions_helpers import ALICE, CHAT, open_memory_sessions


@pytest.mark.parametrize(("words", "lang", "said"), [
    (["swiss=1", "target=1"], "en", ("Swiss, 1 round", "Matches to 1 point.")),
    (["swiss=3", "target=11"], "en", ("Swiss, 3 rounds", "Matches to 11 points.")),
    (["swiss=1", "target=1"], "it", ("svizzero, 1 turno", "Partite a 1 punto.")),
    (["swiss=2", "target=21"], "es", ("suizo, 2 rondas", "Partidas a 21 puntos.")),
])
async def test_rounds_and_points_take_their_plural(words: list[str], lang: str,
                                                   said: tuple[str, str]) -> None:
    sessions = await open_memory_sessions()
    view = await sessions.tournaments.open(CHAT, ALICE, words, ("scopa",))
    text = tournament_text(view, lang)
    assert all(part in text for part in said), text
