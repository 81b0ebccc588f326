"""A game in a Discord thread: the thread is a channel of its own, so the game lives there."""

from __future__ import annotations

from dataclasses import replace

from bot.adapters.discord.identity import PLATFORM
from bot.sessions import ChatRef

from ..discord_helpers import World, lobby_message, open_game, play_to_end, started_duel
from ..fakes.discord_fakes import SEND_MESSAGES_IN_THREADS


async def test_a_match_in_a_thread_is_played_there_while_its_channel_plays_another(world: World) -> None:
    w = world
    thread = w.fake.add_thread(w.channel, "partita-serale", w.alice)
    in_thread = replace(w, channel=thread)
    game_id = await started_duel(in_thread)
    await w.fake.slash(w.carla, w.channel, "newgame")
    in_channel = await open_game(w)
    assert in_channel != game_id, "the thread's game and its channel's are two"
    row = await w.sessions.queries.game(game_id)
    assert (row.chat.key, row.chat.home) == (str(thread.id), str(thread.guild.id))  # type: ignore[union-attr]

    await play_to_end(in_thread, game_id, [w.alice, w.bob])
    said = [m.text for m in w.fake.messages(thread)]
    assert any("Alice" in text and "Bob" in text for text in said), said
    ended = await w.fake.wait_for(lambda: any("🏆" in m.text for m in w.fake.messages(thread)),
                                  what="the end of the match in the thread")
    assert ended
    channel_said = " ".join(m.text for m in w.fake.messages(w.channel))
    assert "Bob" not in channel_said and "🏆" not in channel_said, "nothing of the thread's match outside it"
    assert "Carla" in (await lobby_message(w)).text
    assert await w.sessions.queries.open_game_id(ChatRef(PLATFORM, str(thread.id))) is None
    assert await w.sessions.queries.open_game_id(ChatRef(PLATFORM, str(w.channel.id))) == in_channel


async def test_a_thread_where_the_bot_may_not_post_is_refused_before_a_game_opens(world: World) -> None:
    w = world
    thread = w.fake.add_thread(w.channel, "muta", w.alice)
    thread.bot_permissions &= ~SEND_MESSAGES_IN_THREADS
    refused = await w.fake.slash(w.alice, thread, "newgame")
    assert refused.reply.ephemeral and "send messages in threads" in refused.reply.text.lower()
    assert await w.sessions.queries.open_game_id(ChatRef(PLATFORM, str(thread.id))) is None
    assert w.fake.messages(thread) == []
