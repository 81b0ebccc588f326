"""Discord's gateway shards shared out over processes: `scopa-bot discord --shards 0-3
--shard-count 8` runs shards 0 to 3 of 8, and each process answers its own guilds."""

from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path

import pytest
import yarl
from discord.gateway import DiscordWebSocket

from bot.adapters.discord import DiscordFrontEnd
from bot.app import Settings, discord_front_end, served_by
from bot.cli import main
from bot.failures import FatalError
from bot.sessions import ChatRef, Served

from ..discord_helpers import World, start_front, started_duel, table_message
from ..fakes.discord_fakes import TOKEN, VIEW_CHANNEL, Channel, FakeDiscord
from ..sessions_helpers import open_sessions


@pytest.fixture(autouse=True)
def seeded_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    counter = itertools.count(1)
    monkeypatch.setattr("bot.sessions.lobby.secrets.token_hex", lambda n: f"{next(counter):0{2 * n}x}")


def test_shards_are_read_as_ranges_and_lists() -> None:
    settings = Settings.from_env({"DISCORD_SHARDS": "0-3,6", "DISCORD_SHARD_COUNT": "8"})
    assert settings.discord_shards == (0, 1, 2, 3, 6) and settings.discord_shard_count == 8
    assert "discord_shards=[0, 1, 2, 3, 6]/8" in repr(settings)


@pytest.mark.parametrize(("shards", "count", "says"), [
    ("0-3", None, "needs --shard-count"),
    ("0-8", "8", "shard 8 does not exist"),
    ("3-1", "8", "must look like"),
    ("one", "8", "must look like"),
    ("0-3", "0", "whole number"),
])
def test_wrong_shards_are_one_line_and_exit_code_2(shards: str, count: str | None, says: str,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    argv = ["discord", "--shards", shards] + (["--shard-count", count] if count else [])
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1 and TOKEN not in err


async def test_two_processes_each_run_their_own_shard_and_answer_their_guilds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeDiscord(shards=2, max_concurrency=2)
    await fake.start()
    # with its shard count given, discord.py connects to Discord's gateway without asking
    monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))
    channels = [fake.add_channel(fake.add_guild(f"Guild {n}", shard=n), "scopa") for n in (0, 1)]
    alice = fake.add_user("Alice", "it")
    fronts: list[DiscordFrontEnd] = []
    sessions = [await open_sessions(tmp_path / f"p{n}.db") for n in (0, 1)]
    try:
        for n in (0, 1):
            settings = Settings("unused.db", None, None, None, None, TOKEN,
                                discord_shards=(n,), discord_shard_count=2)
            front = discord_front_end(sessions[n], settings)
            assert isinstance(front, DiscordFrontEnd)
            await front.start()
            fronts.append(front)
            await fake.connected(n)
        assert sorted(i["shard"] for i in fake.identified) == [0, 1], "each shard identified once"
        assert [f.client.shard_ids for f in fronts] == [[0], [1]]
        for n, channel in enumerate(channels):
            opened = await fake.slash(alice, channel, "newgame")
            assert opened.reply.ephemeral
            await fake.wait_for(lambda c=channel: fake.messages(c), what="a lobby on each shard")
            assert [await s.queries.open_game_id(_chat(channel)) is not None for s in sessions] == \
                [m == n for m in (0, 1)], "the process running the guild's shard took the command"
    finally:
        for front in fronts:
            await front.stop()
        for s in sessions:
            await s.close()
        await fake.close()


def _chat(channel: Channel) -> ChatRef:
    return ChatRef("discord", str(channel.id))


def test_a_process_runs_due_work_only_in_the_chats_it_can_show() -> None:
    """A computer's turn in a Discord game is no business of a Telegram-only process, and a
    Discord process takes the servers of its own shards: their taps reach it, and so must
    the moves of their games."""
    env = {"DISCORD_SHARDS": "0-3", "DISCORD_SHARD_COUNT": "8"}
    telegram = served_by(["telegram"], Settings.from_env(env))
    assert telegram.takes("telegram", None) and not telegram.takes("discord", str(5 << 22))
    low = served_by(["discord"], Settings.from_env(env))
    assert [low.takes("discord", str((n << 22) + 99)) for n in (0, 3, 4, 7, 8)] == \
        [True, True, False, False, True]
    assert not low.takes("telegram", None)
    both = served_by(["telegram", "discord"], Settings.from_env({}))
    assert both.takes("discord", str(7 << 22)) and both.takes("telegram", None)


async def _restarted_on(w: World, shard: int) -> None:
    """The bot started again as the process of `shard` out of two."""
    await w.front.stop()
    await w.sessions.close()
    w.sessions = await open_sessions(w.path, w.clock)
    w.sessions.delivery.serve(Served(frozenset({"discord"}), 2, frozenset({shard})))
    w.front = await start_front(w.sessions)
    await w.front.lanes.idle()


@pytest.mark.parametrize("own_shard", [True, False])
async def test_a_channel_stored_before_its_server_was_kept_is_placed_at_start(
        world: World, own_shard: bool) -> None:
    """A game in a channel stored before channels kept their server is run by the process of
    that server's shard once a process has started: the others leave its table alone."""
    w = world
    game_id = await started_duel(w)
    table = await table_message(w, game_id)
    with sqlite3.connect(w.path) as db:
        db.execute("UPDATE chats SET home = NULL")
    guild = w.channel.guild
    assert guild is not None
    shard = (guild.id >> 22) % 2
    edits = table.edits

    await _restarted_on(w, shard if own_shard else 1 - shard)
    chat = (await w.sessions.queries.game(game_id)).chat
    assert chat.home == str(guild.id), "the server is kept"
    assert w.sessions.delivery.serves(chat) is own_shard
    assert (table.edits > edits) is own_shard, "only the server's process redraws its table"


async def test_a_channel_the_bot_cannot_see_any_more_is_left_as_it_was(world: World) -> None:
    w = world
    game_id = await started_duel(w)
    with sqlite3.connect(w.path) as db:
        db.execute("UPDATE chats SET home = NULL")
    w.channel.bot_permissions &= ~VIEW_CHANNEL

    await _restarted_on(w, 0)
    chat = (await w.sessions.queries.game(game_id)).chat
    assert chat.home is None and w.sessions.delivery.serves(chat), "any process may still run it"


def test_a_shard_list_without_a_count_stops_before_connecting() -> None:
    with pytest.raises(FatalError, match="needs --shard-count"):
        Settings.from_env({"DISCORD_SHARDS": "0"})
