"""A player's data on SQLite and PostgreSQL: `/mydata`'s file has all of it, and an erasure in
the middle of a match leaves the database without the player's name or id, their results
anonymous on the boards, the others' match going on with the computer, and everyone else's
rows as they were; erasing again changes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.sessions import ChatRef, Sessions, UserRef
from bot.sessions.ports import ERASED_NAME
from bot.sessions.privacy import DATA_FORMAT, Outcome
from bot.storage.backends import open_store

from .. import pg
from ..privacy_helpers import naming, rows_of, texts
from ..sessions_helpers import REVIEW_SEARCHES, FakeClock, first_legal, play_to_end, start_duel

ALICE = UserRef("test", "7193846", "Alicia Zorglub", "it")
BOB = UserRef("test", "7293847", "Bob", "en")
CARLA = UserRef("test", "7393848", "Carla", "it")
GROUP = ChatRef("test", "-500", "Friends")
OTHER = ChatRef("test", "-600", "Cousins")
ALICE_HOME = ChatRef("test", "7193846", "Alicia Zorglub")
CLUB = ChatRef("test", "-700", "Club")


@pytest.fixture(scope="session")
def postgres_cluster() -> pg.Cluster:
    return pg.shared_cluster()


@pytest.fixture(params=["sqlite", "postgresql"])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'bot.db'}"
        return
    cluster: pg.Cluster = request.getfixturevalue("postgres_cluster")
    url = await cluster.create_database()
    try:
        yield url
    finally:
        await cluster.drop_database(url)


async def _sessions(database: str, clock: FakeClock) -> Sessions:
    store = await open_store(database, clock)
    return Sessions(store, clock=clock, computer_pace=0.0, chooser=first_legal,
                    review_searches=REVIEW_SEARCHES)


async def _world(sessions: Sessions) -> dict[str, Any]:
    """Alice's finished match with Bob (reviewed), a match in play with Bob, a lobby with Carla,
    a match against the computer in her private chat and a tournament she opened, Carla in it."""
    finished = await start_duel(sessions, GROUP, ALICE, BOB, {"target": 1})
    await play_to_end(sessions, finished, [ALICE, BOB])
    await sessions.reviews.review(finished, ALICE)
    playing = await start_duel(sessions, GROUP, ALICE, BOB, {"target": 11})
    table = await sessions.queries.table(playing)
    hand = await sessions.queries.hand(playing, ALICE if table.to_play == 0 else BOB)
    await sessions.play.play(playing, ALICE if table.to_play == 0 else BOB, hand.version,
                        hand.choices[0].moves[0].code)
    await sessions.lobby.new_game(OTHER, CARLA, "scopa")
    await sessions.lobby.join(OTHER, ALICE)
    await sessions.lobby.new_game(ALICE_HOME, ALICE, "scopa")
    await sessions.lobby.add_computer(ALICE_HOME, ALICE, "easy")
    alone = (await sessions.lobby.start(ALICE_HOME, ALICE)).game_id
    await sessions.tournaments.open(CLUB, ALICE, [], ["scopa"])
    await sessions.tournaments.join(CLUB, CARLA)
    return {"finished": finished, "playing": playing, "alone": alone}


async def test_my_data_and_forget_me_in_the_middle_of_a_match(database: str) -> None:
    clock = FakeClock()
    sessions = await _sessions(database, clock)
    try:
        games = await _world(sessions)
        data = await sessions.privacy.my_data(ALICE)
        assert data is not None and data["format"] == DATA_FORMAT
        profile = data["profile"]
        assert (profile["display_name"], profile["user_key"]) == ("Alicia Zorglub", "7193846")
        assert {r["game"] for r in data["results"]} == {games["finished"]}
        assert {g["game"] for g in data["games"]} >= set(games.values())
        assert data["moves"] and all(m["game"] in games.values() for m in data["moves"])
        assert data["ratings"] and data["reviews"]
        assert [(t["chat"], t["status"]) for t in data["tournaments"]] == [("Club", "signup")]
        assert [c["chat_id"] for c in data["private_chats"]] == ["7193846"]
        bob_id = (await sessions.queries.find_player("test", "7293847"))
        carla_id = (await sessions.queries.find_player("test", "7393848"))
        assert bob_id is not None and carla_id is not None
        before = {p: await rows_of(database, p) for p in (bob_id.id, carla_id.id)}
        board_before = await sessions.queries.leaderboard(None)

        forgotten = await sessions.privacy.forget("test", "7193846", ALICE_HOME)

        assert forgotten is not None
        fates = {s.game_id: s.outcome for s in forgotten.games}
        assert fates[games["playing"]] is Outcome.HANDED_OVER
        assert fates[games["alone"]] is Outcome.CANCELLED
        assert Outcome.LEFT_LOBBY in fates.values()
        told = {s.game_id: s for s in forgotten.games if s.chat is not None}
        assert told[games["playing"]].name == "Alicia Zorglub" and told[games["playing"]].computer
        assert games["alone"] not in told, "nobody else sees her private chat"
        assert naming(await texts(database), "Zorglub", "7193846") == []
        club = await sessions.tournaments.current(CLUB)
        assert club is not None and [e.name for e in club.players] == [ERASED_NAME, "Carla"], \
            "her place in the tournament kept, under no name"
        assert await sessions.privacy.my_data(ALICE) is None
        assert await sessions.privacy.forget("test", "7193846") is None, "erasing again changes nothing"

        board = await sessions.queries.leaderboard(None)
        counts = [(line.games, line.wins) for line in board]
        assert counts == [(line.games, line.wins) for line in board_before]
        assert ERASED_NAME in [line.display_name for line in board]
        assert "Alicia Zorglub" not in [line.display_name for line in board]
        lobby = await sessions.queries.lobby(OTHER)
        assert [s.name for s in lobby.seats if s is not None] == ["Carla"]
        await play_to_end(sessions, games["playing"], [BOB])
        assert (await sessions.queries.table(games["playing"])).finished
        after = {p: await rows_of(database, p) for p in (bob_id.id, carla_id.id)}
        assert after[carla_id.id] == before[carla_id.id]
        bob_before, bob_after = before[bob_id.id], after[bob_id.id]
        assert bob_after["players"] == bob_before["players"]
        assert bob_after["review_seats"] == bob_before["review_seats"]
        assert bob_after["results"][: len(bob_before["results"])] == bob_before["results"]
        assert naming(await texts(database), "Zorglub", "7193846") == [], "nor after the match ended"
    finally:
        await sessions.close()


async def test_a_player_never_seen_has_nothing_kept(database: str) -> None:
    sessions = await _sessions(database, FakeClock())
    try:
        assert await sessions.privacy.my_data(ALICE) is None
        assert await sessions.privacy.forget("test", "7193846") is None
    finally:
        await sessions.close()
