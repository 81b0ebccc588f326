"""A chat's tournament played through the sessions on the in-memory store: sign-up and its
refusals, each round's matches started by the bot, advancing, byes, a restart, a late match."""

from __future__ import annotations

import dataclasses

import pytest

from bot.sessions import ChatRef, Reason, Sessions, UserRef
from bot.sessions.commands import NewGame
from bot.sessions.replies import Done, Refusal
from bot.sessions.tap import Action, Tap
from bot.sessions.tournament_play import TournamentNews, TournamentRefused, Tournaments
from bot.sessions.tournaments import Status
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
from .test_taps import Front

ELIO = UserRef("test", "u5", "Elio", "it")
VARIANTS = ("scopa", "scopone")


async def _play_out(sessions: Sessions, users: list[UserRef], limit: int = 20) -> None:
    for _ in range(limit):
        view = await sessions.tournaments.current(CHAT)
        if view is None or view.status is not Status.RUNNING:
            return
        playing = next(p for p in view.played[-1].pairings if not p.decided)
        assert playing.match is not None, "the bot started the table's match"
        sessions.tournaments.pause = 0.0
        await play_to_end(sessions, int(playing.match), users)
        await sessions.tournaments.settled()
    raise AssertionError("tournament did not finish")


async def _signed_up(sessions: Sessions, words: list[str], users: list[UserRef]) -> None:
    await sessions.tournaments.open(CHAT, users[0], words, VARIANTS)
    for user in users[1:]:
        await sessions.tournaments.join(CHAT, user)


async def test_a_four_player_knockout_is_played_to_its_champion() -> None:
    sessions = await open_memory_sessions()
    news: list[TournamentNews] = []

    async def told(item: TournamentNews) -> None:
        news.append(item)

    sessions.tournaments.subscribe(told)
    users = [ALICE, BOB, CARLA, DINO]
    await _signed_up(sessions, ["target=1"], users)
    view = await sessions.tournaments.start(CHAT, ALICE)
    assert view.status is Status.RUNNING and view.rounds == 2
    assert len(view.played[0].pairings) == 2
    await _play_out(sessions, users)
    rows = [n for n in news if n.round_done is not None]
    assert [n.round_done for n in rows] == [1, 2]
    assert news[-1].champion is not None
    assert news[-1].view.status is Status.FINISHED
    final = news[-1].view.played[-1].pairings[0]
    assert final.winner == news[-1].champion
    assert await sessions.tournaments.current(CHAT) is None, "finished: the chat may open another"


async def test_a_swiss_of_three_rounds_with_five_players_gives_three_byes_and_no_rematch() -> None:
    sessions = await open_memory_sessions()
    users = [ALICE, BOB, CARLA, DINO, ELIO]
    news: list[TournamentNews] = []

    async def told(item: TournamentNews) -> None:
        news.append(item)

    sessions.tournaments.subscribe(told)
    await _signed_up(sessions, ["swiss=3", "target=1"], users)
    await sessions.tournaments.start(CHAT, ALICE)
    await _play_out(sessions, users)
    final = news[-1].view
    assert final.status is Status.FINISHED and len(final.played) == 3
    byes = [u for r in final.played for u in r.byes]
    assert len(byes) == len(set(byes)) == 3
    pairs = [frozenset((p.first, p.second)) for r in final.played for p in r.pairings if p.second]
    assert len(pairs) == len(set(pairs)) == 6
    assert sum(r.points for r in final.standings) == 9, "one point a table, byes included"
    assert final.champion == final.standings[0].user


async def test_refusals_change_nothing() -> None:
    sessions = await open_memory_sessions()
    with pytest.raises(TournamentRefused) as bad:
        await sessions.tournaments.open(CHAT, ALICE, ["fast"], VARIANTS)
    assert (bad.value.code, bad.value.detail) == ("bad_option", "fast")
    assert await sessions.tournaments.current(CHAT) is None
    with pytest.raises(TournamentRefused) as teams:
        await sessions.tournaments.open(CHAT, ALICE, ["scopone"], VARIANTS)
    assert (teams.value.code, teams.value.detail) == ("one_to_one", "scopone")
    await sessions.tournaments.open(CHAT, ALICE, [], VARIANTS)
    for call, code in (
        (sessions.tournaments.open(CHAT, BOB, [], VARIANTS), "already_open"),
        (sessions.tournaments.start(CHAT, ALICE), "too_few"),
        (sessions.tournaments.join(CHAT, ALICE), "already_joined"),
        (sessions.tournaments.leave(CHAT, BOB), "not_joined"),
    ):
        with pytest.raises(TournamentRefused) as refused:
            await call
        assert refused.value.code == code
    await sessions.tournaments.join(CHAT, BOB)
    with pytest.raises(TournamentRefused) as stranger:
        await sessions.tournaments.start(CHAT, CARLA)
    assert stranger.value.code == "not_allowed"
    view = await sessions.tournaments.current(CHAT)
    assert view is not None and view.status is Status.SIGNUP and len(view.players) == 2
    assert (await sessions.tournaments.start(CHAT, CARLA, admin=_yes)).status is Status.RUNNING
    with pytest.raises(TournamentRefused):
        await sessions.tournaments.join(CHAT, DINO)
    cancelled = await sessions.tournaments.cancel(CHAT, ALICE)
    assert cancelled.status is Status.CANCELLED
    assert await sessions.tournaments.current(CHAT) is None


async def test_a_match_ended_while_no_process_ran_is_recorded_once_after_a_restart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = FakeClock()
    store = MemoryStore(clock)
    with monkeypatch.context() as stopped:
        stopped.setattr(Tournaments, "on_event", _ignore)
        sessions = Sessions(store, clock=clock, computer_pace=0.0, chooser=first_legal)
    await _signed_up(sessions, ["target=1"], [ALICE, BOB, CARLA, DINO])
    view = await sessions.tournaments.start(CHAT, ALICE)
    first_match = int(view.played[0].pairings[0].match or 0)
    await play_to_end(sessions, first_match, [ALICE, BOB, CARLA, DINO])
    stalled = await sessions.tournaments.current(CHAT)
    assert stalled is not None and not stalled.played[0].pairings[0].decided, "the step is owed"
    again = Sessions(store, clock=clock, computer_pace=0.0, chooser=first_legal)
    await again.tournaments.resume()
    await sessions.tournaments.resume()
    resumed = await again.tournaments.current(CHAT)
    assert resumed is not None
    assert resumed.played[0].pairings[0].decided
    second = resumed.played[0].pairings[1].match
    assert second is not None and second != str(first_match), "the next table's match started"
    games = [await store.get_game(i) for i in range(1, 5)]
    assert sum(1 for g in games if g is not None) == 2, "started once, by one of the two"


async def _ignore(self: object, event: object) -> None:
    return None


async def test_a_match_past_the_deadline_goes_to_the_player_who_played() -> None:
    clock = FakeClock()
    sessions = await open_memory_sessions(clock)
    news: list[TournamentNews] = []

    async def told(item: TournamentNews) -> None:
        news.append(item)

    sessions.tournaments.subscribe(told)
    await _signed_up(sessions, ["target=11"], [ALICE, BOB])
    view = await sessions.tournaments.start(CHAT, ALICE)
    match = int(view.played[0].pairings[0].match or 0)
    table = await sessions.queries.table(match)
    row = await sessions.queries.game(match)
    to_play = next(s for s in row.seats if s.seat == table.to_play)
    absent = ALICE if to_play.player and to_play.player.user_key == ALICE.key else BOB
    await sessions.lobby.leave(CHAT, absent)
    clock.advance(24 * 3600.0 + 1)
    await sessions.tournaments.resume()
    done = next(n.view for n in news)
    pairing = done.played[0].pairings[0]
    assert done.status is Status.FINISHED
    assert pairing.forfeit and pairing.winner != absent.key


async def test_the_champion_is_owed_until_told_and_told_once_of_two_processes() -> None:
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
    assert failing and failing[-1].champion is not None
    assert await first.tournaments.current(CHAT) is not None, "still owed: not finished"
    told: list[str] = []
    seconds = [Sessions(store, clock=clock, computer_pace=0.0, chooser=first_legal) for _ in range(2)]
    for other in seconds:

        async def heard(item: TournamentNews) -> None:
            told.append(item.champion or "")

        other.tournaments.subscribe(heard)
    await seconds[0].tournaments.resume()
    assert told == [], "held by the process that failed to post it, for its lease"
    clock.advance(121.0)
    await seconds[0].tournaments.resume()
    await seconds[1].tournaments.resume()
    assert told == [failing[-1].champion]
    assert await seconds[1].tournaments.current(CHAT) is None, "finished once told"


async def test_the_matches_are_played_in_the_topic_the_tournament_was_opened_in() -> None:
    sessions = await open_memory_sessions()
    topic = ChatRef(CHAT.platform, CHAT.key, CHAT.title, thread="77")
    await sessions.tournaments.open(topic, ALICE, ["target=1"], VARIANTS)
    await sessions.tournaments.join(topic, BOB)
    assert await sessions.tournaments.current(topic) is not None
    view = await sessions.tournaments.start(topic, ALICE)
    assert view.place == "77"
    stored = await sessions.store.get_game(int(view.played[0].pairings[0].match or 0))
    assert stored is not None and stored.thread == "77"


async def test_a_lobby_left_half_made_is_made_again_and_another_game_is_waited_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = FakeClock()
    store = MemoryStore(clock)
    sessions = Sessions(store, clock=clock, computer_pace=0.0, chooser=first_legal)
    sessions.tournaments.pause = 0.0
    await _signed_up(sessions, ["target=1"], [ALICE, BOB])
    with monkeypatch.context() as stopped:

        async def stops(*args: object, **kwargs: object) -> None:
            raise RuntimeError("stopped after opening the lobby")

        stopped.setattr(type(sessions.tournaments.lobby), "join", stops)
        with pytest.raises(RuntimeError):
            await sessions.tournaments.start(CHAT, ALICE)
    again = Sessions(store, clock=clock, computer_pace=0.0, chooser=first_legal)
    await again.tournaments.resume()
    view = await again.tournaments.current(CHAT)
    assert view is not None
    match = view.played[0].pairings[0].match
    assert match is not None and match != "1", "the half-made lobby closed, the match made again"
    await play_to_end(again, int(match), [ALICE, BOB])
    await again.tournaments.settled()
    assert await again.tournaments.current(CHAT) is None


async def test_a_game_open_in_the_thread_is_waited_for() -> None:
    sessions = await open_memory_sessions()
    sessions.tournaments.pause = 0.0
    await sessions.lobby.new_game(CHAT, CARLA)
    await _signed_up(sessions, ["target=1"], [ALICE, BOB])
    view = await sessions.tournaments.start(CHAT, ALICE)
    assert view.played[0].pairings[0].match is None, "the chat's own game comes first"
    await sessions.lobby.cancel(CHAT, CARLA)
    await sessions.tournaments.resume()
    view = await sessions.tournaments.current(CHAT)
    assert view is not None and view.played[0].pairings[0].match is not None


async def _yes() -> bool:
    return True


async def test_between_two_matches_nobody_opens_a_game_of_their_own_where_the_tournament_plays() -> None:
    sessions = await open_memory_sessions()
    users = [ALICE, BOB, CARLA, DINO]
    topic = ChatRef(CHAT.platform, CHAT.key, CHAT.title, thread="77")
    await sessions.tournaments.open(topic, ALICE, ["target=1"], VARIANTS)
    for user in users[1:]:
        await sessions.tournaments.join(topic, user)
    view = await sessions.tournaments.start(topic, ALICE)
    sessions.tournaments.pause = 3600.0
    first = int(view.played[0].pairings[0].match or 0)
    await play_to_end(sessions, first, users)
    assert await sessions.queries.open_game_id(topic) is None, "the gap before the next match"
    front = Front()
    asked = await sessions.handle(dataclasses.replace(front.asker(CARLA), chat=topic), NewGame())
    assert isinstance(asked, Refusal) and asked.refused.reason is Reason.TOURNAMENT_PLAYING
    again = await sessions.handle(dataclasses.replace(front.asker(ALICE), chat=topic),
                                  Tap(Action.REMATCH, first))
    assert isinstance(again, Refusal) and again.refused.reason is Reason.TOURNAMENT_PLAYING
    assert await sessions.queries.open_game_id(topic) is None, "nothing opened"
    elsewhere = await sessions.handle(front.asker(CARLA), NewGame())
    assert isinstance(elsewhere, Done), "another topic of the chat plays as it likes"
    await sessions.tournaments.stop()
    current = await sessions.tournaments.current(topic)
    assert current is not None
    await sessions.tournaments.advance(int(current.id))
    assert await sessions.queries.open_game_id(topic) is not None, "the tournament's next match starts"
