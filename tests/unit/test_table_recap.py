"""The plays a group has not seen drawn: the sessions' recap across a round's end, and the group
table's text and caption that tell them above the plays they show in full."""

from __future__ import annotations

from bot.adapters.telegram.markup import table_caption, table_html
from bot.adapters.telegram.recap import earlier_lines
from bot.render.words import play_line_of
from bot.sessions import Sessions, UserRef

from ..sessions_helpers import ALICE, BOB, CARLA, CHAT, DINO, open_memory_sessions

PLAYERS = (ALICE, BOB, CARLA, DINO)


async def _scopone() -> tuple[Sessions, int]:
    sessions = await open_memory_sessions()
    await sessions.settings.set_chat_language(CHAT, "en")
    await sessions.settings.set_chat_defaults(CHAT, {"variant": "scopone", "target": 31})  # past round 1
    await sessions.lobby.new_game(CHAT, ALICE, "scopone")
    for user in PLAYERS[1:]:
        await sessions.lobby.join(CHAT, user)
    return sessions, (await sessions.lobby.start(CHAT, ALICE)).game_id


async def _play(sessions: Sessions, game_id: int) -> UserRef:
    table = await sessions.queries.table(game_id)
    user = next(u for u in PLAYERS if u.name == table.seats[table.to_play].name)
    hand = await sessions.queries.hand(game_id, user)
    await sessions.play.play(game_id, user, hand.version, hand.choices[0].moves[-1].code)
    return user


async def test_the_recap_goes_on_from_where_the_group_saw_the_table_across_a_round_end() -> None:
    sessions, game_id = await _scopone()
    table, recap = await sessions.queries.table_since(game_id, None)
    assert (recap.made, recap.lines) == (0, ())
    for _ in range(30):
        await _play(sessions, game_id)
    table, recap = await sessions.queries.table_since(game_id, 30)
    assert (recap.made, recap.lines) == (30, ())
    while (await sessions.queries.table(game_id)).round_number == 1:
        await _play(sessions, game_id)
    for _ in range(2):
        await _play(sessions, game_id)
    table, recap = await sessions.queries.table_since(game_id, 30)
    assert recap.made == 38 and len(recap.lines) == 8
    assert [line.round_number for line in recap.lines] == [1] * 6 + [2] * 2
    assert [line.play for line in recap.lines[-2:]] == list(table.last_plays[-2:])
    _, latest = await sessions.queries.table_since(game_id, None)
    assert len(latest.lines) == 38, "none drawn yet: every play"

    text = table_html(table, "en", unseen=recap.lines)
    caption = table_caption(table, "en", unseen=recap.lines)
    assert "Round 1: " in text and "Round 1: " in caption
    assert "Earlier: " in caption and "Earlier: " not in text, "the text lists both round-2 plays in full"
    assert play_line_of(recap.lines[-1].play, "en", table.deck_style, table.variant) in caption
    for line in recap.lines[:6]:
        assert line.play.name in caption
    assert text.index("Round 1: ") < text.index("• "), "above the plays shown in full"
    await sessions.close()


async def test_a_long_recap_keeps_every_scopa_and_says_how_many_plays_it_leaves_out() -> None:
    sessions, game_id = await _scopone()
    for _ in range(36):
        await _play(sessions, game_id)
    table, recap = await sessions.queries.table_since(game_id, 0)
    assert len(recap.lines) == 36
    told = earlier_lines(recap.lines, table, "en", room=400)
    said = "\n".join(told)
    assert len(said) < 460
    for line in recap.lines:
        if line.matters:
            assert line.play.name in said
    scope = [line for line in recap.lines if line.play.scopa]
    assert said.count("Scopa!") == len(scope)
    assert ": +" in told[0] and " plays · " in told[0], told
    for lang in ("it", "es"):
        assert earlier_lines(recap.lines, table, lang)
    await sessions.close()
