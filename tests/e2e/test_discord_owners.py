"""The owners' tools on the fake Discord: commands typed in the owner's DM with the bot (no slash
command anyone sees); the same words from anyone else answered as any DM is (nothing); a notice
posted once in the channel in play; a blocked user refused on every command and press, also
after a restart."""

from __future__ import annotations

from bot.adapters.discord.identity import PLATFORM

from ..discord_helpers import HAND, World, started_duel, table_message
from ..fakes.discord_fakes import Message, User

BLOCKED = "You cannot use this bot."


def _said(w: World, user: User) -> list[Message]:
    channel = w.fake.dm_channel(user)
    return [] if channel is None else [m for m in w.fake.messages(channel) if m.author is w.fake.bot]


async def _answer(w: World, user: User, text: str, contains: str) -> Message:
    before = len(_said(w, user))
    assert await w.fake.write_dm(user, text) is not None, "the bot is told of direct messages"
    return await w.fake.wait_for(
        lambda: next((m for m in _said(w, user)[before:] if contains in m.text), None), what=contains)


async def test_an_owner_sees_the_bot_tells_the_channels_in_play_and_blocks_a_user(world: World) -> None:
    w = world
    owner = w.fake.add_user("Olga", "en-US")
    w.sessions.owners.name({(PLATFORM, str(owner.id))})
    game_id = await started_duel(w)
    await w.fake.slash(owner, w.fake.open_dm(owner), "help")
    names = {command["name"] for command in w.fake.commands}
    assert "help" in names and not {"botstatus", "notice", "block", "unblock"} & names

    for text in ("/botstatus", "/notice Hello everyone", f"/block {w.alice.id}", "/nosuchcommand"):
        assert await w.fake.write_dm(w.bob, text) is not None
    status = await _answer(w, owner, "/botstatus", "Bot status")
    assert "Matches in play: 1" in status.text and "Players today: 2" in status.text
    assert _said(w, w.bob) == []

    await _answer(w, owner, "/notice The bot restarts in five minutes", "goes to 1 chat")
    notice = "📢 Dal gestore del bot: The bot restarts in five minutes"
    await w.fake.wait_for(lambda: any(notice in m.text for m in w.fake.messages(w.channel)),
                          what="the notice in the channel")

    await _answer(w, owner, f"/block <@{w.bob.id}>", f"discord:{w.bob.id} is blocked")
    stats = await w.fake.slash(w.bob, w.channel, "stats")
    assert stats.reply.text == BLOCKED
    table = await table_message(w, game_id)
    pressed = await w.fake.press(w.bob, table, prefix=f"{HAND}{game_id}")
    assert BLOCKED in pressed.reply.text
    assert (await w.fake.slash(w.alice, w.channel, "stats")).reply.text != BLOCKED

    await w.restart()
    w.sessions.owners.name({(PLATFORM, str(owner.id))})
    assert (await w.fake.slash(w.bob, w.channel, "stats")).reply.text == BLOCKED
    await _answer(w, owner, f"/unblock {w.bob.id}", "is no longer blocked")
    assert (await w.fake.slash(w.bob, w.channel, "stats")).reply.text != BLOCKED
    assert sum(notice in m.text for m in w.fake.messages(w.channel)) == 1
