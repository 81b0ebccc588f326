"""A process looks only at the tournaments of the platforms it serves: one running Discord alone
neither starts a Telegram tournament's next match nor takes the announcement owed to its chat."""

from __future__ import annotations

import pytest

from bot.sessions import Sessions
from bot.sessions.tournament_play import TournamentNews, Tournaments
from tests.fakes.memory_store import MemoryStore

from ..sessions_helpers import ALICE, BOB, CHAT, FakeClock, first_legal, play_to_end


async def _ignore(self: object, event: object) -> None:
    return None


async def test_resuming_one_platform_leaves_another_platforms_tournament_to_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = FakeClock()
    store = MemoryStore(clock)
    with monkeypatch.context() as stopped:
        stopped.setattr(Tournaments, "on_event", _ignore)
        sessions = Sessions(store, clock=clock, computer_pace=0.0, chooser=first_legal)
    await sessions.tournaments.open(CHAT, ALICE, ["target=1"], ("scopa",))
    await sessions.tournaments.join(CHAT, BOB)
    view = await sessions.tournaments.start(CHAT, ALICE)
    await play_to_end(sessions, int(view.played[0].pairings[0].match or 0), [ALICE, BOB])

    other = Sessions(store, clock=clock, computer_pace=0.0, chooser=first_legal)
    told: list[TournamentNews] = []

    async def listener(news: TournamentNews) -> None:
        told.append(news)

    other.tournaments.subscribe(listener)
    await other.tournaments.resume("discord")
    owed = await other.tournaments.current(CHAT)
    assert owed is not None and not owed.played[0].pairings[0].decided and told == []
    await other.tournaments.resume(CHAT.platform)
    assert told and told[-1].champion is not None, "its own platform's process tells the champion"
