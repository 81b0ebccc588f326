"""Through the fake Bot API: a card tapped on a private hand redraws that hand from the tap's
reply (the hand and table the play left), reading neither the hand nor the game again, and
what it shows is what the bot draws from the stored game, in this process, in another
process on the same database and after a restart."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.adapters.telegram.outbox import Content, outbox_for
from bot.adapters.telegram.present import Presenter
from bot.sessions import Sessions, UserRef
from bot.storage import SqliteStore

from ..fakes.telegram_server import FakeMessage, FakeTelegramServer, FakeUser, parse_html
from ..telegram_helpers import (
    Bot,
    Taps,
    answered,
    card_to_play,
    duel,
    hand_message,
    redrawn_after,
    running_bot,
    table_message,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

GAME_READS = ("get_game", "moves", "round_records")
"""The store's reads of a game's state."""


class NoBot:
    """The other process sends nothing here: only what it would draw is compared."""

    async def do_api_request(self, method: str, api_kwargs: dict[str, Any]) -> Any:
        raise AssertionError(f"nothing is sent here ({method})")


def as_shown(content: Content | None) -> tuple[str, list[str]]:
    """A drawing as the chat shows it: its plain text and its buttons' data."""
    assert content is not None
    return parse_html(content.text)[0].strip(), [b.data for row in content.keyboard for b in row]


def on_screen(message: FakeMessage | None) -> tuple[str, list[str]]:
    assert message is not None
    return (message.text or "").strip(), message.callback_data


async def settled(bot: Bot) -> None:
    """Until every event so far is drawn and its messages are out."""
    await bot.front._events.join()
    await bot.front.outbox.drain(5.0)


async def test_a_card_tap_redraws_the_hand_from_its_reply_as_any_process_draws_it(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    async with FakeTelegramServer() as tg:
        async with duel(db, tg) as d:
            bot, users = d.bot, [d.alice, d.bob]
            game_id = 1
            user, hand, data = await card_to_play(tg, users, Taps())
            other = next(u for u in users if u is not user)
            await settled(bot)
            hands: list[str] = []
            reads: Counter[str] = Counter()
            read_hand, store = bot.sessions.queries.hand, bot.sessions.store

            async def hand_read(game: int, who: UserRef) -> Any:
                hands.append(who.key)
                return await read_hand(game, who)

            def counted(name: str) -> Any:
                method = getattr(store, name)

                async def call(*args: Any, **kwargs: Any) -> Any:
                    reads[name] += 1
                    return await method(*args, **kwargs)
                return call

            bot.sessions.queries.hand = hand_read  # type: ignore[method-assign]
            for name in GAME_READS:
                setattr(store, name, counted(name))
            tapped = await answered(tg, tg.press_button(user, hand, user, data))
            assert not tapped.show_alert
            await redrawn_after(tg, user, hand, data)
            await tg.wait_for(lambda: (m := hand_message(tg, other, game_id)) is not None
                              and any(d.startswith(("p|", "h|")) for d in m.callback_data),
                              what="the next player's hand at their turn")
            await settled(bot)
            assert str(user.id) not in hands, "the tapper's hand is drawn from the reply"
            assert str(other.id) in hands, "the next player's hand, drawn by the move's events"
            assert sum(reads.values()) == 0, f"the game is not read from the store: {dict(reads)}"
            shown = {u.id: on_screen(hand_message(tg, u, game_id)) for u in users}
            presenter = bot.front.presenter
            for u in users:
                assert as_shown(await presenter.draw_hand(game_id, str(u.id))) == shown[u.id], \
                    f"{u.first_name}'s hand as the game is stored"
            table = on_screen(table_message(tg, d.group))

            elsewhere = await SqliteStore.open(db, bot.clock)
            try:
                again = Sessions(elsewhere, clock=bot.clock)
                outbox = outbox_for(NoBot(), again.delivery, group_rate=None)  # type: ignore[arg-type]
                other_process = Presenter(again, outbox, lambda: tg.bot_username)
                for u in users:
                    assert as_shown(await other_process.draw_hand(game_id, str(u.id))) == shown[u.id], \
                        f"{u.first_name}'s hand drawn alike by another process"
                assert as_shown(await other_process.draw_table(game_id, d.group.id))[0] == table[0]
                await other_process.outbox.close()
            finally:
                await elsewhere.close()

        await restarted_draws_alike(tg, db, game_id, users, shown)


async def restarted_draws_alike(tg: FakeTelegramServer, db: Path, game_id: int, users: list[FakeUser],
                                shown: dict[int, tuple[str, list[str]]]) -> None:
    async with running_bot(tg, db) as bot:
        for u in users:
            assert as_shown(await bot.front.presenter.draw_hand(game_id, str(u.id))) == shown[u.id], \
                f"{u.first_name}'s hand drawn alike after a restart"
