"""Games through the sessions layer: on the in-memory store, and against a real SQLite
file for what SQLite itself keeps (restarts, the timer's deadlines, stored rounds)."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.render.round import breakdown_text
from bot.render.words import lobby_text, refusal_text, table_text
from bot.sessions import (
    ChatRef,
    GameCancelled,
    GameStarted,
    GameStatus,
    MatchEnded,
    MovePlayed,
    Reason,
    Refused,
    RoundEnded,
    Served,
    Sessions,
    UserRef,
)
from bot.sessions.records import MoveRow
from bot.sessions.service import LOBBY_IDLE
from bot.sessions.views import player_language

from ..fakes.memory_store import MemoryStore
from ..sessions_helpers import (
    ALICE,
    BOB,
    CARLA,
    CHAT,
    DINO,
    FakeClock,
    fuori_match_at_alices_turn,
    open_memory_sessions,
    play_one,
    play_to_end,
    recorded,
    start_duel,
    started,
)


async def test_full_two_player_match_reaches_the_leaderboard() -> None:
    sessions = await open_memory_sessions()
    seen = recorded(sessions)
    lobby = await sessions.lobby.new_game(CHAT, ALICE, "scopa")
    assert [s.name if s else None for s in lobby.seats] == ["Alice", None]
    lobby = await sessions.lobby.join(CHAT, BOB)
    assert lobby.full
    with pytest.raises(Refused) as refused:
        await sessions.lobby.start(CHAT, BOB)
    assert refused.value.reason is Reason.NOT_ALLOWED
    table = await sessions.lobby.start(CHAT, ALICE)
    await play_to_end(sessions, table.game_id, [ALICE, BOB])
    final = await sessions.queries.table(table.game_id)
    assert final.winner is not None and max(final.totals) >= 11
    assert sessions.games.idle, \
        "a finished match keeps nothing in memory: a long-running bot does not grow"
    assert any(isinstance(e, GameStarted) for e in seen)
    assert any(isinstance(e, RoundEnded) for e in seen)
    assert sum(isinstance(e, MatchEnded) for e in seen) == 1
    board = await sessions.queries.leaderboard(CHAT)
    assert {row.display_name for row in board} == {"Alice", "Bob"}
    assert sum(row.wins for row in board) == 1 and all(row.games == 1 for row in board)
    winner_row = next(r for r in board if r.wins)
    assert winner_row is board[0]
    records = await sessions.store.records()
    assert len(records) == 1 and json.loads(records[0])["winner"] == final.winner
    stats = await sessions.queries.stats(ALICE)
    assert stats["games"] == 1 and "duel" in stats["ratings"]
    await sessions.close()


async def test_one_open_game_per_chat_and_lobby_rules() -> None:
    sessions = await open_memory_sessions()
    lobby = await sessions.lobby.new_game(CHAT, ALICE, "scopone")
    assert lobby.players == 4 and lobby.teams
    with pytest.raises(Refused) as again:
        await sessions.lobby.new_game(CHAT, BOB)
    assert again.value.reason is Reason.GAME_OPEN and again.value.params["game_id"] == lobby.game_id
    with pytest.raises(Refused) as twice:
        await sessions.lobby.join(CHAT, ALICE)
    assert twice.value.reason is Reason.ALREADY_JOINED
    await sessions.lobby.join(CHAT, BOB)
    with pytest.raises(Refused) as early:
        await sessions.lobby.start(CHAT, ALICE)
    assert early.value.reason is Reason.SEATS_EMPTY
    await sessions.lobby.add_computer(CHAT, BOB, "medium")
    await sessions.lobby.join(CHAT, CARLA)
    with pytest.raises(Refused) as full:
        await sessions.lobby.join(CHAT, DINO)
    assert full.value.reason is Reason.GAME_FULL
    with pytest.raises(Refused):
        await sessions.lobby.cancel(CHAT, BOB)
    await sessions.lobby.cancel(CHAT, BOB, is_admin=True)
    assert await sessions.queries.open_game_id(CHAT) is None
    await sessions.close()


async def test_each_thread_of_a_chat_plays_its_own_game_with_the_chats_settings_and_leaderboard() -> None:
    sessions = await open_memory_sessions()
    seen = recorded(sessions)
    topic, other = (ChatRef(CHAT.platform, CHAT.key, CHAT.title, thread=t) for t in ("7", "9"))
    first = await sessions.lobby.new_game(topic, ALICE)
    second = await sessions.lobby.new_game(other, CARLA, "escoba")
    with pytest.raises(Refused) as again:
        await sessions.lobby.new_game(topic, BOB)
    assert again.value.params["game_id"] == first.game_id
    assert await sessions.queries.open_game_id(CHAT) is None, "the chat itself has no game"
    await sessions.lobby.join(topic, BOB)
    await sessions.lobby.join(other, DINO)
    assert [s.name for s in (await sessions.queries.lobby(other)).seats] == ["Carla", "Dino"]
    table = await sessions.lobby.start(topic, ALICE)
    await play_to_end(sessions, table.game_id, [ALICE, BOB])
    assert {e.thread for e in seen if e.game_id == first.game_id} == {"7"}  # type: ignore[attr-defined]
    assert {e.thread for e in seen if e.game_id == second.game_id} == {"9"}  # type: ignore[attr-defined]
    assert (await sessions.queries.game(first.game_id)).chat.thread == "7"
    assert {line.display_name for line in await sessions.queries.leaderboard(other)} == {"Alice", "Bob"}
    await sessions.settings.set_turn_limit(other, 60)
    assert (await sessions.queries.chat(topic)).turn_limit == 60, "one chat, whichever topic asks"
    rematch = await sessions.lobby.rematch(first.game_id, BOB)
    assert await sessions.queries.open_game_id(topic) == rematch.game_id
    assert await sessions.lobby.abandon(other) == second.game_id
    assert await sessions.lobby.abandon(other) is None, "stopped once"
    assert isinstance(seen[-1], GameCancelled) and seen[-1].thread == "9" and seen[-1].by == ""
    assert await sessions.queries.open_game_id(topic) == rematch.game_id, "the other topic's game stays"
    await sessions.close()


async def test_team_match_with_a_computer_seat() -> None:
    clock = FakeClock()
    sessions = await open_memory_sessions(clock)
    await sessions.lobby.new_game(CHAT, ALICE, "scopone")
    await sessions.lobby.join(CHAT, BOB)
    await sessions.lobby.join(CHAT, CARLA)
    await sessions.lobby.add_computer(CHAT, ALICE, "easy")
    table = await sessions.lobby.start(CHAT, ALICE)
    assert table.sides == ((0, 2), (1, 3))
    await play_to_end(sessions, table.game_id, [ALICE, BOB, CARLA])
    board = await sessions.queries.leaderboard(None, "team")
    assert len(board) == 3
    await sessions.close()


async def test_hundred_concurrent_taps_apply_exactly_one_move() -> None:
    sessions, game_id = await started(None)
    table = await sessions.queries.table(game_id)  # type: ignore[attr-defined]
    user = ALICE if table.to_play == 0 else BOB
    hand = await sessions.queries.hand(game_id, user)  # type: ignore[attr-defined]
    move = hand.choices[0].moves[0].code

    async def tap() -> str:
        try:
            await sessions.play.play(game_id, user, hand.version, move)  # type: ignore[attr-defined]
            return "ok"
        except Refused as exc:
            return exc.reason.value

    outcomes = await asyncio.gather(*(tap() for _ in range(100)))
    assert outcomes.count("ok") == 1
    assert set(outcomes) - {"ok"} == {"stale"}
    moves = await sessions.store.moves(game_id)  # type: ignore[attr-defined]
    assert len(moves) == 1 and moves[0].move == move
    await sessions.close()  # type: ignore[attr-defined]


async def test_refused_moves_change_nothing() -> None:
    sessions, game_id = await started(None)
    s = sessions  # type: ignore[assignment]
    table = await s.queries.table(game_id)
    mover, other = (ALICE, BOB) if table.to_play == 0 else (BOB, ALICE)
    hand = await s.queries.hand(game_id, mover)
    before = await s.store.get_game(game_id)
    cases = [
        (other, hand.version, hand.choices[0].moves[0].code, Reason.NOT_YOUR_TURN),
        (CARLA, hand.version, hand.choices[0].moves[0].code, Reason.NOT_IN_GAME),
        (mover, hand.version + 5, hand.choices[0].moves[0].code, Reason.STALE),
        (mover, hand.version, "99Z", Reason.BAD_INPUT),
        (mover, hand.version, "not a move at all" * 10, Reason.BAD_INPUT),
    ]
    other_hand = await s.queries.hand(game_id, other)
    cases.append((mover, hand.version, other_hand.hand[0].code, Reason.ILLEGAL_MOVE))
    for user, version, move, reason in cases:
        with pytest.raises(Refused) as refused:
            await s.play.play(game_id, user, version, move)
        assert refused.value.reason is reason
    after = await s.store.get_game(game_id)
    assert after == before and await s.store.moves(game_id) == []
    await play_to_end(s, game_id, [ALICE, BOB])
    with pytest.raises(Refused) as over:
        await s.play.play(game_id, mover, (await s.queries.table(game_id)).version, "1D")
    assert over.value.reason is Reason.GAME_OVER
    await s.close()












async def test_a_match_of_an_agreed_number_of_rounds() -> None:
    """One round agreed: the match ends with it, unless it leaves the top tied."""
    s = await open_memory_sessions()
    await s.lobby.new_game(CHAT, ALICE, "scopa")
    lobby = await s.lobby.set_option(CHAT, ALICE, "round_limit", "1")
    assert "Smazzate al massimo: 1" in lobby_text(lobby, "it")
    await s.lobby.join(CHAT, BOB)
    game_id = (await s.lobby.start(CHAT, ALICE)).game_id
    assert "round 1 of 1" in table_text(await s.queries.table(game_id), "en")
    await play_to_end(s, game_id, [ALICE, BOB])
    assert (await s.queries.table(game_id)).finished
    game = await s.queries.stored_game(game_id)
    assert game is not None and game.winner is not None
    *tied, last = [result.totals for result in game.results]
    assert all(totals[0] == totals[1] for totals in tied), "only a tie plays another round"
    assert last[game.winner] > last[1 - game.winner]
    await s.close()


async def test_declaring_fuori_too_early_ends_the_match_for_the_other_side() -> None:
    s = await open_memory_sessions()
    seen = recorded(s)
    hand = await fuori_match_at_alices_turn(s)
    game_id = hand.game_id
    assert hand.my_turn and hand.may_declare, "fuori can be declared from the first play"
    await s.play.play(game_id, ALICE, hand.version, hand.choices[0].moves[0], fuori=True)
    final = await s.queries.table(game_id)
    assert final.finished and final.winner == 1, "nobody has 8 points after one play"
    ended = next(e for e in seen if isinstance(e, RoundEnded))
    assert ended.fuori_name == "Alice" and ended.fuori_side == 0
    assert "si è dichiarato fuori, ma Alice & Ciro 🙂 avevano solo" in breakdown_text(ended, "it")
    moved = [e for e in seen if isinstance(e, MovePlayed)]
    assert moved[-1].fuori and not any(e.fuori for e in moved[:-1])
    record = json.loads((await s.store.records())[0])
    assert record["winner"] == 1 and record["rounds"][-1]["fuori"] == 0
    board = await s.queries.leaderboard(CHAT)
    assert [(row.display_name, row.wins) for row in board] == [("Alice", 0)]
    await s.close()


async def test_fuori_is_refused_where_it_is_not_played() -> None:
    s = await open_memory_sessions()
    game_id = await start_duel(s)
    table = await s.queries.table(game_id)
    user = ALICE if table.to_play == 0 else BOB
    hand = await s.queries.hand(game_id, user)
    assert not hand.may_declare
    with pytest.raises(Refused) as refused:
        await s.play.play(game_id, user, hand.version, hand.choices[0].moves[0], fuori=True)
    assert refused.value.reason is Reason.NO_FUORI
    assert (await s.queries.table(game_id)).version == hand.version
    await s.close()


async def test_a_lobby_left_untouched_makes_way_for_a_new_game() -> None:
    clock = FakeClock()
    s = await open_memory_sessions(clock)
    seen = recorded(s)
    first = await s.lobby.new_game(CHAT, ALICE, "scopa")
    clock.advance(LOBBY_IDLE - 60)
    await s.lobby.join(CHAT, CARLA)
    clock.advance(LOBBY_IDLE - 60)
    with pytest.raises(Refused) as refused:
        await s.lobby.new_game(CHAT, BOB, "escoba")
    assert refused.value.reason is Reason.GAME_OPEN, "a seat taken 29 minutes ago keeps it open"
    assert "30 minutes" in refusal_text(refused.value, "en")
    clock.advance(120)
    second = await s.lobby.new_game(CHAT, BOB, "escoba")
    assert second.game_id != first.game_id and second.variant == "escoba"
    assert (await s.queries.game(first.game_id)).status == "cancelled"
    closed = [e for e in seen if isinstance(e, GameCancelled)]
    assert [(e.game_id, e.by) for e in closed] == [(first.game_id, "")]

    await s.lobby.join(CHAT, ALICE)
    game_id = (await s.lobby.start(CHAT, BOB)).game_id
    clock.advance(10 * LOBBY_IDLE)
    with pytest.raises(Refused) as refused:
        await s.lobby.new_game(CHAT, DINO, "scopa")
    assert refused.value.reason is Reason.GAME_OPEN, "a match in play never gives way"
    assert (await s.queries.game(game_id)).status == "running"
    await s.close()


async def test_six_players_of_escoba_as_three_teams_of_two() -> None:
    s = await open_memory_sessions()
    await s.lobby.new_game(CHAT, ALICE, "escoba", {"players": 6})
    lobby = await s.lobby.set_option(CHAT, ALICE, "teams", "three")
    assert lobby.teams == 3 and "Tre coppie" in lobby_text(lobby, "it")
    for _ in range(5):
        await s.lobby.add_computer(CHAT, ALICE, "easy")
    game_id = (await s.lobby.start(CHAT, ALICE)).game_id
    table = await s.queries.table(game_id)
    assert table.sides == ((0, 3), (1, 4), (2, 5)) and len(table.side_names) == 3
    await play_to_end(s, game_id, [ALICE])
    assert (await s.queries.table(game_id)).winner is not None

    await s.lobby.new_game(CHAT, BOB, "escoba", {"players": 6, "teams": "three"})
    assert (await s.lobby.set_option(CHAT, BOB, "players", "4")).teams == 2, "three teams need six"
    assert (await s.lobby.set_option(CHAT, BOB, "players", "3")).teams == 0, "nor can three make teams"
    await s.lobby.set_option(CHAT, BOB, "players", "4")
    with pytest.raises(Refused) as refused:
        await s.lobby.set_option(CHAT, BOB, "teams", "three")
    assert refused.value.reason is Reason.BAD_OPTION
    await s.lobby.cancel(CHAT, BOB)
    scopone = await s.lobby.new_game(CHAT, BOB, "scopone", {"teams": "off"})
    assert scopone.teams == 2, "scopone is always played in two teams"
    await s.close()




async def test_front_ends_get_views_of_games_chats_and_players() -> None:
    s = await open_memory_sessions()
    assert await s.queries.find_player("test", ALICE.key) is None, "looking a player up never creates one"
    lobby = await s.lobby.new_game(CHAT, ALICE, "scopa")
    summary = await s.queries.game(lobby.game_id)
    assert summary.status is GameStatus.LOBBY and not summary.started
    assert summary.chat == CHAT and summary.variant == "scopa"
    await s.lobby.add_computer(CHAT, ALICE, "easy")
    game_id = (await s.lobby.start(CHAT, ALICE)).game_id
    summary = await s.queries.game(game_id)
    assert summary.status is GameStatus.RUNNING and summary.started and summary.status.open
    alice, computer = summary.seats
    assert alice.player is not None and alice.player.display_name == "Alice" and not alice.is_computer
    assert computer.player is None and computer.is_computer and computer.computer_level == "easy"
    assert [g.id for g in await s.queries.running_games()] == [game_id]
    assert [g.id for g in await s.queries.games_of(ALICE)] == [game_id]
    profile = await s.queries.find_player("test", ALICE.key)
    assert profile == alice.player and player_language(profile) == "it"
    await s.settings.set_player_language(ALICE, "en")
    assert player_language(await s.queries.player(ALICE)) == "en"

    settings = await s.settings.set_turn_limit(CHAT, "45")
    assert settings.turn_limit == 45 and settings.chat == CHAT and settings.title == "Friends"
    assert (await s.queries.chat(CHAT)).turn_limit == 45

    refs = s.delivery.refs
    await refs.set_ref(game_id, "table", "101")
    assert await refs.get_refs(game_id) == {"table": "101"}

    await play_to_end(s, game_id, [ALICE])
    assert (await s.queries.game(game_id)).status is GameStatus.FINISHED
    assert await s.queries.running_games() == []
    board = await s.queries.leaderboard(CHAT)
    assert [(line.display_name, line.games) for line in board] == [("Alice", 1)]
    assert 0.0 <= board[0].win_rate <= 1.0
    recent = await s.queries.recent(CHAT)
    assert [match.game_id for match in recent] == [game_id] and len(recent[0].players) == 2
    await s.lobby.new_game(CHAT, BOB)
    await s.lobby.cancel(CHAT, BOB)
    assert (await s.queries.game(game_id + 1)).status is GameStatus.CANCELLED
    await s.close()


async def test_a_seat_is_confirmed_only_where_it_was_taken_and_a_lobby_button_never_leaves_a_match() -> None:
    s = await open_memory_sessions()
    lobby = await s.lobby.new_game(CHAT, ALICE, "scopa")
    await s.lobby.join(CHAT, BOB, ready=False)
    with pytest.raises(Refused) as stranger:
        await s.lobby.confirm_seat(lobby.game_id, CARLA)
    assert stranger.value.reason is Reason.NOT_JOINED, "a game's number alone seats nobody"
    assert [seat.ready for seat in (
            await s.lobby.confirm_seat(lobby.game_id, BOB)).seats if seat] == [True, True]
    game_id = (await s.lobby.start(CHAT, ALICE)).game_id
    with pytest.raises(Refused) as started:
        await s.lobby.confirm_seat(game_id, BOB)
    assert started.value.reason is Reason.NOT_IN_LOBBY
    with pytest.raises(Refused) as button:
        await s.lobby.leave(CHAT, BOB, from_lobby=True)
    assert button.value.reason is Reason.MATCH_STARTED
    assert not any(seat.autoplay for seat in (await s.queries.table(game_id)).seats)
    await s.lobby.leave(CHAT, BOB)
    assert any(seat.autoplay for seat in (await s.queries.table(game_id)).seats)
    await s.close()




async def test_a_process_plays_the_computers_only_in_the_chats_it_serves() -> None:
    """A process running only some front-ends (or some Discord shards) leaves the other
    chats' computer turns to the processes that show them."""
    clock = FakeClock()
    s = await open_memory_sessions(clock)
    chats = {"telegram": ChatRef("telegram", "-100", "Friends"),
             "discord": ChatRef("discord", "c1", "general", str(1 << 22))}
    games = {}
    for platform, chat in chats.items():
        user = UserRef(platform, "u1", "Alice", "en")
        await s.lobby.new_game(chat, user, "scopa")
        await s.lobby.add_computer(chat, user, "easy")
        game_id = (await s.lobby.start(chat, user)).game_id
        hand = await s.queries.hand(game_id, user)
        if hand.my_turn:
            await s.play.play(game_id, user, hand.version, hand.choices[0].moves[0])
        games[platform] = (game_id, (await s.queries.table(game_id)).version)
    s.delivery.serve(Served(frozenset({"telegram", "discord"}), 2, frozenset({0})))
    clock.advance(10)
    await s.scheduler.run_due()
    moved = {platform: (await s.queries.table(game_id)).version > version
             for platform, (game_id, version) in games.items()}
    assert moved == {"telegram": True, "discord": False}, "the Discord server is on shard 1"
    s.delivery.serve(Served(frozenset({"discord"}), 2, frozenset({1})))
    await s.scheduler.run_due()
    assert (await s.queries.table(games["discord"][0])).version > games["discord"][1]


async def test_a_process_owes_announcements_only_to_the_chats_it_serves() -> None:
    """Each Discord process posts at start the round breakdowns and match ends owed to its
    own servers' channels, so two processes never both post one."""
    s = await open_memory_sessions()
    homes = {0: str(2 << 22), 1: str(1 << 22)}
    for shard, home in homes.items():
        chat = ChatRef("discord", f"c{shard}", "general", home)
        alice, bob = (UserRef("discord", f"{n}{shard}", n, "en") for n in ("Alice", "Bob"))
        await s.lobby.new_game(chat, alice, "scopa")
        await s.lobby.join(chat, bob)
        game_id = (await s.lobby.start(chat, alice)).game_id
        await play_to_end(s, game_id, [alice, bob])
    every = await s.delivery.owed_notices("discord")
    assert {e.chat_key for e in every} == {"c0", "c1"}
    for shard in (0, 1):
        s.delivery.serve(Served(frozenset({"discord"}), 2, frozenset({shard})))
        assert {e.chat_key for e in await s.delivery.owed_notices("discord")} == {f"c{shard}"}
    s.delivery.serve(Served(frozenset({"telegram"})))
    assert await s.delivery.owed_notices("discord") == []
    await s.close()


async def test_an_owed_announcement_is_posted_by_one_of_two_processes_starting_together() -> None:
    """After a crash two processes start on one store and both find the end of a match owed:
    one posts it, the other looks again once the first is done and finds it posted; a post
    that failed is owed still."""
    clock = FakeClock()
    store = MemoryStore(clock)
    store.shared = True  # type: ignore[misc]
    first: asyncio.Task[bool] | None = None

    async def holder_finishes(seconds: float) -> None:
        sent.set()
        assert first is not None
        await first

    one, two = (Sessions(store, clock=clock, sleep=holder_finishes, computer_pace=0.0)  # type: ignore[arg-type]
                for _ in range(2))
    game_id = await start_duel(one, options={"target": 1})
    await play_to_end(one, game_id, [ALICE, BOB])
    match_end = next(e for e in await one.delivery.owed_notices("test") if isinstance(e, MatchEnded))
    posts: list[str] = []
    sending, sent = asyncio.Event(), asyncio.Event()

    async def slow_post() -> bool:
        posts.append("one")
        sending.set()
        await sent.wait()
        return True

    async def post() -> bool:
        posts.append("two")
        return True

    first = asyncio.create_task(one.delivery.announce(match_end, slow_post))
    await sending.wait()
    assert not await two.delivery.announce(match_end, post), "posted meanwhile by the process holding it"
    assert await first
    assert not await two.delivery.announce(match_end, post), "owed no more"
    assert posts == ["one"]
    assert match_end not in await two.delivery.owed_notices("test")

    breakdown = next(e for e in await one.delivery.owed_notices("test") if isinstance(e, RoundEnded))

    async def refused() -> bool:
        posts.append("refused")
        return False

    assert await one.delivery.announce(breakdown, refused)
    assert breakdown in await two.delivery.owed_notices("test"), "a failed post is owed still"
    assert await two.delivery.announce(breakdown, post)
    assert posts == ["one", "refused", "two"]
    await one.close()
    await two.close()


async def test_a_game_moved_on_by_another_process_between_two_reads_is_read_again() -> None:
    """Two processes on one store: one reads a game's row, the other commits a move before
    the first reads the moves. The first reads the game again, not taking it for damaged."""
    clock = FakeClock()
    store = MemoryStore(clock)
    store.shared = True  # type: ignore[misc]
    one, two = (Sessions(store, clock=clock, computer_pace=0.0) for _ in range(2))  # type: ignore[arg-type]
    game_id = await start_duel(one)
    await play_one(two, game_id)
    original = store.moves
    armed = True

    async def moved_meanwhile(game: int, after: int = 0) -> list[MoveRow]:
        nonlocal armed
        if armed:
            armed = False
            await play_one(two, game_id)
        return await original(game, after)

    store.moves = moved_meanwhile  # type: ignore[method-assign]
    table = await one.queries.table(game_id)
    assert not armed, "a move came in between the reads"
    assert table.version == 2 == (await two.queries.table(game_id)).version


async def test_a_chat_that_moves_takes_its_match_settings_and_leaderboard_along() -> None:
    sessions = await open_memory_sessions()
    seen = recorded(sessions)
    finished = await start_duel(sessions, options={"target": 1})
    await play_to_end(sessions, finished, [ALICE, BOB])
    await sessions.settings.set_turn_limit(CHAT, 300)
    await sessions.lobby.rematch(finished, ALICE)
    game_id = (await sessions.lobby.start(CHAT, ALICE)).game_id
    seated = {p.user_key: seat for seat, p in await sessions.queries.seat_players(game_id) if p is not None}
    first, second = sorted((ALICE, BOB), key=lambda user: seated[user.key])
    await play_one(sessions, game_id, first, second)
    assert (await sessions.queries.game(game_id)).chat.key == CHAT.key

    moved = ChatRef(CHAT.platform, "group-1-upgraded", CHAT.title)
    settings = await sessions.settings.move_chat(CHAT, moved.key)
    assert settings is not None and settings.turn_limit == 300
    assert await sessions.settings.move_chat(CHAT, moved.key) is None, "told twice, moved once"
    assert (await sessions.queries.game(game_id)).chat == moved
    seen.clear()
    await play_one(sessions, game_id, first, second)
    assert [e.chat_key for e in seen if isinstance(e, MovePlayed)] == [moved.key], \
        "the match goes on, in the chat's new place"
    assert await sessions.queries.open_game_id(moved) == game_id
    assert sorted(line.display_name for line in await sessions.queries.leaderboard(moved)) == ["Alice", "Bob"]
    assert (await sessions.queries.chat(moved)).turn_limit == 300
    assert (await sessions.queries.chat(
            CHAT)).turn_limit == 90 and await sessions.queries.open_game_id(CHAT) is None
