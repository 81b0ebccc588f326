"""The "tournament won" achievement, through the sessions on the in-memory store: the champion
earns it, told with the champion's news; nobody else does; one a tournament, counted in /stats;
stored and told once of two processes."""

from __future__ import annotations

from bot.render.tournament import news_head
from bot.sessions import Sessions, UserRef
from bot.sessions.feats import Feat
from bot.sessions.tournament_play import TournamentNews
from tests.fakes.memory_store import MemoryStore

from ..sessions_helpers import (
    ALICE,
    BOB,
    CARLA,
    CHAT,
    DINO,
    FakeClock,
    first_legal,
    open_memory_sessions,
    play_to_end,
)
from .test_tournament_play import _play_out, _signed_up


def _won(stats: dict[str, object]) -> int:
    earned = stats["achievements"]
    assert isinstance(earned, list)
    return sum(times for code, _, times in earned if code == Feat.TOURNAMENT_WON.value)


async def _tournament(sessions: Sessions, users: list[UserRef]) -> list[TournamentNews]:
    news: list[TournamentNews] = []

    async def told(item: TournamentNews) -> None:
        news.append(item)

    sessions.tournaments._listeners.clear()
    sessions.tournaments.subscribe(told)
    await _signed_up(sessions, ["target=1"], users)
    await sessions.tournaments.start(CHAT, users[0])
    await _play_out(sessions, users)
    return news


async def test_the_champion_alone_earns_it_told_with_the_champions_news() -> None:
    sessions = await open_memory_sessions()
    users = [ALICE, BOB, CARLA, DINO]
    news = await _tournament(sessions, users)
    champion = news[-1].champion
    assert champion is not None
    name = news[-1].view.name_of(champion)
    assert news[-1].earned == ((name, "tournament_won"),)
    assert all(n.earned == () for n in news[:-1]), "a round complete earns nothing"
    assert news_head(news[-1], "en").endswith(f"🏅 {name}: 🏆 Tournament won")
    for user in users:
        assert _won(await sessions.queries.stats(user)) == (user.key == champion)


async def test_each_tournament_won_counts_once_in_stats() -> None:
    sessions = await open_memory_sessions()
    champions = []
    for _ in range(3):
        news = await _tournament(sessions, [ALICE, BOB])
        champions.append(news[-1].champion)
    for user in (ALICE, BOB):
        assert _won(await sessions.queries.stats(user)) == champions.count(user.key)
    codes = [row.code for row in await sessions.store.achievements([1, 2, 3, 4])
             if row.code.startswith("tournament_won")]
    assert len(codes) == len(set(codes)) == 3


async def test_two_processes_store_it_once_and_tell_it_once() -> None:
    clock = FakeClock()
    store = MemoryStore(clock)
    first = Sessions(store, clock=clock, computer_pace=0.0, chooser=first_legal)
    first.tournaments.pause = 0.0
    failing: list[TournamentNews] = []

    async def down(item: TournamentNews) -> None:
        failing.append(item)
        raise RuntimeError("the chat could not be reached")

    first.tournaments.subscribe(down)
    await _signed_up(first, ["target=1"], [ALICE, BOB])
    view = await first.tournaments.start(CHAT, ALICE)
    await play_to_end(first, int(view.played[0].pairings[0].match or 0), [ALICE, BOB])
    await first.tournaments.settled()
    assert failing[-1].earned, "granted as the champion was to be told"
    told: list[TournamentNews] = []
    seconds = [Sessions(store, clock=clock, computer_pace=0.0, chooser=first_legal) for _ in range(2)]
    for other in seconds:

        async def heard(item: TournamentNews) -> None:
            told.append(item)

        other.tournaments.subscribe(heard)
    clock.advance(121.0)
    await seconds[0].tournaments.resume()
    await seconds[1].tournaments.resume()
    assert [n.earned for n in told] == [failing[-1].earned], "told once, with the champion"
    rows = [r for r in await store.achievements([1, 2]) if r.code.startswith("tournament_won")]
    assert len(rows) == 1
