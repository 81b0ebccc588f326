"""Scopone by the federal rulebook (004) through the sessions layer, on the in-memory store:
hands face down until one's first turn, no counts of the cards taken during a round, the
teams drawn at the start, and the kind of win of a match to 8."""

from __future__ import annotations

from bot.engine.federal import draw_teams
from bot.render.round import match_text
from bot.render.words import hand_text, lobby_text, rules_text, table_text
from bot.sessions import MatchEnded, Sessions

from ..sessions_helpers import ALICE, BOB, CARLA, CHAT, DINO, open_memory_sessions, play_to_end, recorded

PLAYERS = [ALICE, BOB, CARLA, DINO]


async def _federal(sessions: Sessions, options: dict[str, object] | None = None) -> int:
    await sessions.lobby.new_game(CHAT, ALICE, "scopone", {"federal": "on", **(options or {})})
    for user in PLAYERS[1:]:
        await sessions.lobby.join(CHAT, user)
    return (await sessions.lobby.start(CHAT, ALICE)).game_id


async def test_the_teams_are_drawn_and_the_table_says_who_drew_which_card() -> None:
    sessions = await open_memory_sessions()
    game_id = await _federal(sessions)
    row = await sessions.store.get_game(game_id)
    assert row is not None
    draw = draw_teams(row.seed)
    by_key = {s.player.user_key: s.seat for s in row.seats if s.player is not None}
    assert [by_key[user.key] for user in PLAYERS] == list(draw.seat_of), \
        "each player sits where the card drawn in joining order puts them"
    table = await sessions.queries.table(game_id)
    assert len(table.team_draw) == 4
    text = table_text(table, "it", now=0)
    line = next(line for line in text.splitlines() if line.startswith("🎴 Sorteggio delle coppie"))
    assert all(user.name in line for user in PLAYERS)
    lowest = min(range(4), key=lambda player: draw.cards[player].rank)
    assert table.dealer == draw.seat_of[lowest], "the lowest card deals first (art. 4)"
    await sessions.close()


async def test_a_hand_stays_face_down_until_the_players_first_turn() -> None:
    sessions = await open_memory_sessions()
    game_id = await _federal(sessions)
    table = await sessions.queries.table(game_id)
    seats = {seat: next(u for u in PLAYERS if player and u.key == player.user_key)
             for seat, player in await sessions.queries.seat_players(game_id)}
    to_play = seats[table.to_play]
    waiting = seats[(table.to_play + 1) % 4]
    mine = await sessions.queries.hand(game_id, to_play)
    assert len(mine.hand) == 9 and mine.my_turn and mine.face_down == 0
    theirs = await sessions.queries.hand(game_id, waiting)
    assert theirs.hand == () and theirs.choices == () and theirs.face_down == 9
    assert "Le tue 9 carte sono coperte" in hand_text(theirs, "it", "scopone")
    assert "Your 9 cards lie face down" in hand_text(theirs, "en", "scopone")
    assert "Tus 9 cartas están boca abajo" in hand_text(theirs, "es", "scopone")
    await sessions.play.play(game_id, to_play, mine.version, mine.choices[0].moves[0].code)
    theirs = await sessions.queries.hand(game_id, waiting)
    assert len(theirs.hand) == 9 and theirs.my_turn, "the cards appear at the first turn"
    still = await sessions.queries.hand(game_id, to_play)
    assert len(still.hand) == 8 and still.face_down == 0, "once seen, a hand stays seen"
    await sessions.close()


async def test_no_count_of_the_cards_taken_while_a_round_is_played() -> None:
    sessions = await open_memory_sessions()
    game_id = await _federal(sessions)
    table = await sessions.queries.table(game_id)
    assert not table.counts_shown and table.captured_counts == ()
    for lang, word in (("it", "prese"), ("en", "taken"), ("es", "recogidas")):
        text = table_text(table, lang, now=0)
        assert word not in text
    assert "0 scope" in table_text(table, "it", now=0), "the scope are still shown"
    await sessions.close()


async def test_a_match_to_8_ends_with_its_kind_of_win_in_the_event_and_the_text() -> None:
    sessions = await open_memory_sessions()
    seen = recorded(sessions)
    game_id = await _federal(sessions, {"target": 8})
    await play_to_end(sessions, game_id, PLAYERS)
    ended = next(e for e in seen if isinstance(e, MatchEnded))
    assert ended.win_kind in ("semplice", "doppia", "tripla")
    words = {"semplice": "semplice", "doppia": "doppia", "tripla": "tripla"}
    assert f"Vittoria {words[ended.win_kind]}" in match_text(ended, "it")
    final = await sessions.queries.table(game_id)
    assert final.counts_shown and len(final.captured_counts) == 4, "everything shows at the end"
    await sessions.close()


async def test_an_ordinary_scopone_is_untouched() -> None:
    sessions = await open_memory_sessions()
    seen = recorded(sessions)
    await sessions.lobby.new_game(CHAT, ALICE, "scopone")
    for user in PLAYERS[1:]:
        await sessions.lobby.join(CHAT, user)
    table = await sessions.lobby.start(CHAT, ALICE)
    row = await sessions.queries.game(table.game_id)
    assert [s.player.user_key for s in sorted(row.seats, key=lambda s: s.seat) if s.player] == \
        [u.key for u in PLAYERS]
    assert table.counts_shown and table.team_draw == ()
    for user in PLAYERS:
        assert len((await sessions.queries.hand(table.game_id, user)).hand) == 9
    await play_to_end(sessions, table.game_id, PLAYERS)
    assert next(e for e in seen if isinstance(e, MatchEnded)).win_kind is None
    await sessions.close()


async def test_the_lobby_and_rules_explain_federal() -> None:
    sessions = await open_memory_sessions()
    lobby = await sessions.lobby.new_game(CHAT, ALICE, "scopone", {"federal": "on"})
    assert "Regolamento federale (004)" in lobby_text(lobby, "it")
    assert "first turn comes" in rules_text("scopone", lobby.rules, "en")
    await sessions.close()
