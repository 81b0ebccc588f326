"""Pictures on Discord: the lobby's deck sample, the table and the hand as attachments of
their embeds; a chat that chose text; a picture Discord refuses, sent again as text."""

from __future__ import annotations

import io
import logging
import re

import discord
import pytest
from PIL import Image

from bot.pictures import lobby_picture, lobby_scene, photo_bytes
from bot.sessions import ChatRef

from ..discord_helpers import (
    HAND,
    World,
    lobby_message,
    mover,
    open_game,
    play_to_end,
    play_turn,
    started_duel,
    table_message,
)
from ..fakes.discord_fakes import ATTACH_FILES, FakeDiscord, Message

JPEG = b"\xff\xd8\xff"


def shown_file(message: Message) -> str | None:
    """The name of the attachment the message's embed shows, if it shows one."""
    url = (message.embeds[0].get("image") or {}).get("url", "") if message.embeds else ""
    return next((a["filename"] for a in message.attachments if a["url"] == url), None)


async def test_the_lobby_table_and_hand_carry_their_pictures(world: World) -> None:
    w, fake = world, world.fake
    await fake.slash(w.alice, w.channel, "newgame")
    lobby = await lobby_message(w)
    await fake.wait_for(lambda: shown_file(lobby) == "deck.jpg", what="the deck's sample")
    napoletane = lobby.picture()
    assert napoletane is not None and napoletane.startswith(JPEG)
    assert napoletane == photo_bytes(lobby_picture(lobby_scene("napoletane"), "it")), (
        "the lobby shows the deck's cards under its name, no hand")
    game_id = await open_game(w)
    await fake.press(w.alice, lobby, custom_id=f"scopa:e:{game_id}:table", values=["deck_style=french"])
    await fake.wait_for(lambda: lobby.picture() not in (None, napoletane), what="the French sample")
    assert len(lobby.attachments) == 1, "the new sample replaces the old one"
    assert lobby.picture() == photo_bytes(lobby_picture(lobby_scene("french"), "it"))
    sample = lobby.attachments[0]["id"]
    await fake.press(w.bob, lobby, "Partecipa")
    await fake.wait_for(lambda: "Bob" in lobby.text, what="Bob in the lobby")
    assert [a["id"] for a in lobby.attachments] == [sample], "the same sample is kept, not sent again"
    assert shown_file(lobby) == "deck.jpg"
    await fake.press(w.alice, lobby, "▶️ Inizia")

    table = await table_message(w, game_id)
    await fake.wait_for(lambda: shown_file(table) == "table.jpg", what="the table's picture")
    assert table.picture() is not None and table.picture().startswith(JPEG)  # type: ignore[union-attr]
    assert "Mazzo" in table.text, "the embed keeps its text beside the picture"
    to_move, _, _ = await mover(w, game_id)
    hand = (await fake.press(to_move, table, prefix=f"{HAND}{game_id}")).reply
    assert hand.ephemeral and shown_file(hand) == "hand.jpg" and hand.buttons()
    before = table.picture()
    await play_turn(w, game_id, {str(u.id): u for u in (w.alice, w.bob)}, {to_move.id: hand})
    await w.front.lanes.idle()
    assert table.picture() != before and len(table.attachments) == 1, "the table's picture is redrawn"
    assert shown_file(hand) == "hand.jpg" and len(hand.attachments) == 1


async def test_a_channel_that_chose_text_gets_embeds_with_text(world: World) -> None:
    w, fake = world, world.fake
    game_id = await started_duel(w)
    table = await table_message(w, game_id)
    await fake.wait_for(lambda: shown_file(table) == "table.jpg", what="the table's picture")
    refused = await fake.slash(w.bob, w.channel, "settings", pictures=False)
    assert "Only server managers" in refused.reply.text and table.attachments
    erin = fake.add_user("Erin", "it", admin=True)
    changed = await fake.slash(erin, w.channel, "settings", pictures=False)
    assert "Tavolo e mani: testo" in changed.reply.text
    await fake.wait_for(lambda: not table.attachments, what="the table as text")
    assert "image" not in table.embeds[0] and "Mazzo" in table.text
    to_move, _, _ = await mover(w, game_id)
    hand = (await fake.press(to_move, table, prefix=f"{HAND}{game_id}")).reply
    assert not hand.attachments and "image" not in hand.embeds[0] and hand.buttons()
    again = await fake.slash(erin, w.channel, "settings", pictures=True)
    assert "immagini delle carte" in again.reply.text
    await fake.wait_for(lambda: shown_file(table) == "table.jpg", what="the picture back")


async def test_a_refused_picture_falls_back_to_text_with_one_log_line(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    w, fake = world, world.fake
    w.channel.bot_permissions &= ~ATTACH_FILES
    caplog.set_level(logging.WARNING, logger="bot.adapters.discord")
    game_id = await started_duel(w)
    table = await table_message(w, game_id)
    users = {str(u.id): u for u in (w.alice, w.bob)}
    hands: dict[int, Message] = {}
    for _ in range(3):
        await play_turn(w, game_id, users, hands)
    await w.front.lanes.idle()
    assert not table.attachments and "image" not in table.embeds[0] and "Mazzo" in table.text
    refusals = [r for r in caplog.records if "refused a picture" in r.getMessage()]
    assert len(refusals) == 1, [r.getMessage() for r in caplog.records]
    assert all(h.attachments for h in hands.values()), "private hands are not the channel's files"

    caplog.clear()
    fake.upload_limit = 1000
    to_move, _, version = await mover(w, game_id)
    opened = await fake.press(to_move, table, prefix=f"{HAND}{game_id}")
    assert opened.reply.ephemeral and not opened.reply.attachments and opened.reply.buttons()
    assert "Le tue carte" in opened.reply.text or "Your cards" in opened.reply.text
    assert len([r for r in caplog.records if "picture" in r.getMessage()]) == 1
    assert (await w.sessions.queries.table(game_id)).version == version, "nothing else changes"


async def test_the_fake_refuses_attachments_as_discord_does(world: World) -> None:
    fake: FakeDiscord = world.fake
    channel = world.front.client.get_partial_messageable(world.channel.id)
    pictured = discord.Embed(title="t").set_image(url="attachment://table.jpg")
    with pytest.raises(discord.HTTPException) as missing:
        await channel.send(embed=pictured)
    assert missing.value.code == 50035
    with pytest.raises(discord.HTTPException) as other_name:
        await channel.send(embed=pictured, file=discord.File(io.BytesIO(JPEG), filename="hand.jpg"))
    assert other_name.value.code == 50035
    fake.upload_limit = 2
    with pytest.raises(discord.HTTPException) as large:
        await channel.send(embed=pictured, file=discord.File(io.BytesIO(JPEG), filename="table.jpg"))
    assert large.value.status == 413 and large.value.code == 40005
    fake.upload_limit = 1000
    world.channel.bot_permissions &= ~ATTACH_FILES
    with pytest.raises(discord.Forbidden):
        await channel.send(embed=pictured, file=discord.File(io.BytesIO(JPEG), filename="table.jpg"))
    world.channel.bot_permissions |= ATTACH_FILES
    sent = await channel.send(embed=pictured, file=discord.File(io.BytesIO(JPEG), filename="table.jpg"))
    stored = fake.messages_by_id[sent.id]
    assert stored.picture() == JPEG and sent.embeds[0].image.url == stored.attachments[0]["url"]
    await sent.edit(attachments=[])
    with pytest.raises(discord.HTTPException):
        await sent.edit(embed=pictured)


def _round_ends(w: World) -> list[Message]:
    return [m for m in w.fake.messages(w.channel)
            if m.embeds and "Fine della smazzata" in m.embeds[0].get("title", "")]


async def test_a_round_ends_with_its_picture_and_the_numbers_once(world: World) -> None:
    w = world
    await w.sessions.settings.set_chat_defaults(ChatRef("discord", str(w.channel.id)), {"target": 1})
    game_id = await started_duel(w)
    await play_to_end(w, game_id, [w.alice, w.bob])
    await w.front.lanes.idle()
    [ended] = _round_ends(w)
    assert shown_file(ended) == "round.jpg" and ended.picture().startswith(JPEG)  # type: ignore[union-attr]
    assert Image.open(io.BytesIO(ended.picture() or b"")).width == 720
    embed = ended.embeds[0]
    lines = embed["description"].splitlines()
    assert lines[-1].startswith("Punteggio: Alice ") and "(a 1)" in lines[-1]
    assert any(re.fullmatch(r"\S+ vince la smazzata \d+ a \d+|Smazzata in parità, \d+ a \d+", line)
               for line in lines), "the round's winner is the subject"
    assert "fields" not in embed and "```" not in embed["description"], "the numbers only in the picture"


async def test_a_round_end_in_a_channel_of_text_reads_on_a_phone(world: World) -> None:
    w = world
    channel = ChatRef("discord", str(w.channel.id))
    await w.sessions.settings.set_chat_defaults(channel, {"target": 1, "pictures": "off"})
    game_id = await started_duel(w)
    await play_to_end(w, game_id, [w.alice, w.bob])
    await w.front.lanes.idle()
    [ended] = _round_ends(w)
    assert not ended.attachments
    embed = ended.embeds[0]
    table = embed["description"].split("```")[1].strip("\n").splitlines()
    assert table[0].split() == ["Alice", "Bob"] and all(len(line) <= 32 for line in table), table
    assert "fields" not in embed and embed["description"].count("Conteggi") == 1
    assert "—–" not in embed["description"]


async def test_a_round_end_a_channel_refuses_as_a_file_is_posted_as_text(world: World) -> None:
    w = world
    await w.sessions.settings.set_chat_defaults(ChatRef("discord", str(w.channel.id)), {"target": 1})
    game_id = await started_duel(w)
    await w.front.lanes.idle()
    w.channel.bot_permissions &= ~ATTACH_FILES
    await play_to_end(w, game_id, [w.alice, w.bob])
    await w.front.lanes.idle()
    [ended] = _round_ends(w)
    assert not ended.attachments and "Conteggi (Alice – Bob)" in ended.embeds[0]["description"]
