"""`scopa-bot telegram`: a group's duplicate event from /duplicate to its result, four players
tapping their private hands at two tables: both tables dealt the same cards (read back from the
match records), the seats turned at the second, and the result naming what the cards gave and
what the play made of them; the bot killed (SIGKILL) after the first table's match and started
again, losing nothing of the board."""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
from pathlib import Path

import pytest

from ..fakes.telegram_server import FakeTelegramServer
from ..telegram_helpers import answered, shown
from .test_telegram_restart import _launch, _polling
from .test_telegram_tournament import _champion, _finished_matches, _group, _play, _stop

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


def _records(db: Path) -> list[dict[str, object]]:
    with sqlite3.connect(db) as conn:
        lines = [row[0] for row in conn.execute("SELECT line FROM records ORDER BY game_id")]
    return [json.loads(line) for line in lines]


def _seats(db: Path) -> list[list[str]]:
    with sqlite3.connect(db) as conn:
        games = [row[0] for row in conn.execute("SELECT id FROM games ORDER BY id")]
        return [[row[0] for row in conn.execute(
            "SELECT p.display_name FROM seats s JOIN players p ON p.id = s.player_id WHERE s.game_id=? "
            "ORDER BY s.seat", (game,))] for game in games]


async def test_a_duplicate_event_deals_both_tables_the_same_cards(tmp_path: Path) -> None:
    db, log = tmp_path / "bot.db", tmp_path / "bot.log"
    async with FakeTelegramServer() as tg:
        group, users = await _group(tg, db, ["Alice", "Bob", "Carla", "Dino"])
        bot = _launch(tg, db, log)
        try:
            await _polling(tg, 0)
            tg.user_sends(group, users[0], "/duplicate deals=1 rounds=one")
            refused = await tg.wait_for_message(group, contains="rounds=one", timeout=20)
            assert "rounds=N" in shown(refused), "the word it does not know, and what it takes"
            tg.user_sends(group, users[0], "/duplicate deals=1")
            signup = await tg.wait_for_message(group, contains="duplicate, 1 round", timeout=20)
            assert "1 deal a match" in shown(signup)
            for user in users[1:]:
                assert not (await answered(tg, tg.tap(group, signup, user, "Join"))).show_alert
            await tg.wait_for(lambda: "(4/32)" in shown(signup), 20, what="everyone signed up")
            assert not (await answered(tg, tg.tap(group, signup, users[0], "Start"))).show_alert
            pressed: set[str] = set()
            await _play(tg, group, users, pressed, until=1, db=db)
            bot.kill()
            await asyncio.to_thread(bot.wait)
            assert bot.returncode == -signal.SIGKILL
            polls = tg.request_counts["getUpdates"]
            bot = _launch(tg, db, log)
            await _polling(tg, polls)
            await _play(tg, group, users, pressed)
            await tg.wait_for(lambda: _champion(tg, group), 60, what="the result")
        finally:
            await _stop(bot)
        assert _finished_matches(db) == 2, "two tables, none played twice through the kill"
        one, two = _records(db)
        assert one["seed"] == two["seed"], "one board for the round"
        first_deals = [r["deals"] for r in (one["rounds"][0], two["rounds"][0])]  # type: ignore[index]
        assert first_deals[0] == first_deals[1], "the same hands and table at both tables"
        with sqlite3.connect(db) as conn:
            (state,) = conn.execute("SELECT state FROM tournaments").fetchone()
        tables = json.loads(state)["rounds"][0]["pairings"]
        assert [t["hands"] for t in tables] == [[0, 1], [1, 0]], "the seats turned at the second table"
        names = {str(u.id): u.first_name for u in users}
        assert _seats(db) == [[names[tables[0]["first"]], names[tables[0]["second"]]],
                              [names[tables[1]["second"]], names[tables[1]["first"]]]]
        result = shown(_champion(tg, group)[0])
        assert "from the cards" in result and "from the play" in result
        for name in ("Alice", "Bob", "Carla", "Dino"):
            assert f"{name}:" in result, "each player's points split into cards and play"
        assert len(_champion(tg, group)) == 1
