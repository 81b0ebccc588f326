"""A hostile user against the real Telegram front-end: links to other groups' lobbies."""

from __future__ import annotations

from pathlib import Path

import pytest

from .fakes.telegram_server import FakeTelegramServer
from .telegram_helpers import answered, bot_messages, running_bot

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


async def test_a_start_link_seats_nobody_who_did_not_join_in_the_group(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, carla, mallory = tg.add_user("Alice"), tg.add_user("Carla"), tg.add_user("Mallory")
        group = tg.add_group("Secret Club", members=[alice, carla])
        tg.user_starts_bot(alice)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            tg.user_sends(group, alice, "/newgame")
            lobby = await tg.wait_for_message(group, contains="New game")
            record = await answered(tg, tg.tap(group, lobby, carla, "Join"))
            payload = (tg.start_payload(record.url or "") or ("", ""))[1]
            await tg.wait_for(lambda: "Carla ⏳" in (lobby.text or ""), what="Carla waiting")

            for forged in (payload, "j1", "j2", "j999"):
                tg.user_starts_bot(mallory, forged)
                refusal = await tg.wait_for_message(mallory, contains="tap Join",
                                                    after=(bot_messages(tg, mallory) or [0])[-1])
                assert "Secret Club" not in (refusal.text or "")
            view = await bot.sessions.lobby_of(1)
            assert [s.name for s in view.seats if s is not None] == ["Alice", "Carla"]
            assert "Mallory" not in (lobby.text or "")
            assert all("Secret Club" not in (m.text or "") for m in bot_messages(tg, mallory))

            tg.user_starts_bot(carla, payload)
            await tg.wait_for_message(carla, contains="You joined a game of Scopa in “Secret Club”")
            await tg.wait_for(lambda: "⏳" not in (lobby.text or ""), what="Carla ready")


async def test_a_huge_argument_is_refused_with_a_short_quote(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice = tg.add_user("Alice")
        group = tg.add_group("Friends", members=[alice])
        tg.user_starts_bot(alice)
        async with running_bot(tg, tmp_path / "bot.db"):
            tg.user_sends(group, alice, "/newgame " + "x" * 4080)
            refusal = await tg.wait_for_message(group, contains="not valid")
            assert len(refusal.text or "") < 200 and "xxx…" in (refusal.text or "")
            tg.user_sends(group, alice, "/rules " + "y" * 4080)
            refusal = await tg.wait_for_message(group, contains="not valid", after=refusal)
            assert len(refusal.text or "") < 200
