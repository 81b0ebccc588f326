"""Many Discord channels playing at once: bot-side time per press, and presses per second.

The real bot (DiscordFrontEnd: discord.py's auto-sharded client, the sessions
layer, SQLite) and the fake Discord of the tests (REST and gateway on
127.0.0.1) run in this process, with the simulated players. Each channel has
two players; on their turn a player presses a card in their hand (opening it
with "My hand" the first time; after that the bot keeps it current), and when
a match ends they press Rematch and go on. Channels see pictures (the default:
the table's and each hand's picture drawn in the bot's thread pool and uploaded
with every change); `--text` measures channels that chose text instead.

Bot-side time per press is measured by the fake Discord, from the moment it
sends INTERACTION_CREATE on the gateway to the bot's first response to it: the
commit of the move included; the table edits, hand refreshes and pings that
follow it not. The fake has no rate limits, so this is what the bot can do;
it shares this process and its event loop with the bot, so with pictures it
also pays for receiving every upload (the real Discord does that elsewhere).

    python benchmarks/discord_taps.py                      # 20 channels, 1,000 presses
    python benchmarks/discord_taps.py --channels 100 --presses 3000
    python benchmarks/discord_taps.py --text               # the same without pictures
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.adapters.discord import DiscordFrontEnd  # noqa: E402
from bot.sessions import ChatRef, Sessions  # noqa: E402
from bot.storage import SqliteStore  # noqa: E402
from tests.fakes.discord_fakes import TOKEN, Channel, FakeDiscord, Interaction, Message, User  # noqa: E402
from tests.sessions_helpers import first_legal  # noqa: E402


class Players:
    def __init__(self, fake: FakeDiscord, sessions: Sessions, channel: Channel,
                 users: tuple[User, User]) -> None:
        self.fake, self.sessions, self.channel, self.users = fake, sessions, channel, users
        self.hands: dict[tuple[int, int], Message] = {}
        self.presses: list[Interaction] = []

    async def play(self, until: asyncio.Event) -> None:
        await self.fake.slash(self.users[0], self.channel, "newgame")
        lobby = await self._message(lambda m: "scopa:j:" in str(m.components))
        await self.fake.press(self.users[1], lobby, prefix="scopa:j:")
        await self.fake.wait_for(lambda: self.users[1].name in lobby.text)
        await self.fake.press(self.users[0], lobby, prefix="scopa:s:")
        while not until.is_set():
            game_id = await self.sessions.queries.open_game_id(ChatRef("discord", str(self.channel.id)))
            if game_id is None:
                over = await self._message(lambda m: "scopa:r:" in str(m.components) and
                                           not m.deleted and m.edits == 0)
                await self.fake.press(self.users[0], over, prefix="scopa:r:")
                over.components = []
                lobby = await self._message(lambda m: "scopa:s:" in str(m.components))
                await self.fake.press(self.users[0], lobby, prefix="scopa:s:")
                continue
            await self._turn(game_id)

    async def _turn(self, game_id: int) -> None:
        table = await self.sessions.queries.table(game_id)
        if table.finished:
            await asyncio.sleep(0)
            return
        user = next(u for u in self.users if u.name == table.seats[table.to_play].name)
        hand = self.hands.get((game_id, user.id))
        if hand is None:
            board = await self._message(lambda m: f"scopa:H:{game_id}" in str(m.components) and
                                        "scopa:k:" in str(m.components))
            opened = await self.fake.press(user, board, prefix=f"scopa:H:{game_id}")
            self.presses.append(opened)
            hand = self.hands[(game_id, user.id)] = opened.reply
        playing = f"scopa:p:{game_id}:{table.version}:"
        picking = f"scopa:h:{game_id}:{table.version}:"
        await self.fake.wait_for(lambda: playing in str(hand.components) or picking in str(hand.components))
        if playing not in str(hand.components):
            self.presses.append(await self.fake.press(user, hand, prefix=picking))
        self.presses.append(await self.fake.press(user, hand, prefix=playing))

    async def _message(self, check: object) -> Message:
        def found() -> Message | None:
            return next((m for m in reversed(self.fake.messages(self.channel)) if check(m)), None)  # type: ignore[operator]
        return await self.fake.wait_for(found)


async def run(channels: int, presses: int, pictures: bool) -> None:
    logging.disable(logging.WARNING)
    fake = FakeDiscord()
    await fake.start()
    guild = fake.add_guild("Bench")
    with tempfile.TemporaryDirectory() as folder:
        store = await SqliteStore.open(Path(folder) / "bench.db")
        sessions = Sessions(store, chooser=first_legal, computer_pace=0.0)
        front = DiscordFrontEnd(sessions, TOKEN, guild_ready_timeout=0.01)
        await front.start()
        tables = [Players(fake, sessions, fake.add_channel(guild, f"table-{n}"),
                          (fake.add_user(f"A{n}"), fake.add_user(f"B{n}"))) for n in range(channels)]
        for players in tables:
            await sessions.settings.set_pictures(ChatRef("discord", str(players.channel.id)), pictures)
        done = asyncio.Event()
        started = time.monotonic()
        workers = [asyncio.create_task(t.play(done)) for t in tables]

        async def count() -> None:
            while sum(len(t.presses) for t in tables) < presses:
                await asyncio.sleep(0.05)
            done.set()

        await count()
        elapsed = time.monotonic() - started
        await asyncio.gather(*workers, return_exceptions=True)
        matches = len(await store.records())
        await front.stop()
        await store.close()
    await fake.close()
    times = sorted(1000 * (i.acknowledged_at - i.created) for t in tables for i in t.presses
                   if i.acknowledged_at is not None)
    total = len(times)
    boards = [m for m in fake.messages_by_id.values() if m.channel.guild is not None and m.embeds
              and not m.ephemeral and m.components]
    hands = [m for m in fake.messages_by_id.values() if m.ephemeral and m.embeds]
    print(f"{'pictures' if pictures else 'text'}: {channels} channels, {total} presses in {elapsed:.1f} s: "
          f"{total / elapsed:.0f} presses/s, {matches} matches finished; showing a picture: "
          f"{sum(1 for m in boards if m.attachments)} of {len(boards)} tables, "
          f"{sum(1 for m in hands if m.attachments)} of {len(hands)} hands")
    print(f"bot-side time per press: median {statistics.median(times):.1f} ms, "
          f"p95 {times[int(0.95 * (total - 1))]:.1f} ms, max {times[-1]:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=20)
    parser.add_argument("--presses", type=int, default=1000)
    parser.add_argument("--text", action="store_true", help="channels that chose text, not pictures")
    args = parser.parse_args()
    asyncio.run(run(args.channels, args.presses, not args.text))


if __name__ == "__main__":
    main()
