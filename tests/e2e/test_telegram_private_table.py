"""The private chat is a whole table: a player who never opens the group reads there every
round's breakdown and the match's result, rematches and asks for the review from there, and
at each turn sees every play made since their last one."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.render.words import play_line_of
from bot.sessions import ChatRef

from ..fakes.telegram_server import FakeTelegramServer, FakeUser
from ..telegram_helpers import (
    POST_TITLES,
    Taps,
    answered,
    bot_messages,
    card_to_play,
    duel,
    friends_group,
    joined_lobby,
    live_button,
    match_over,
    play_until_over,
    redrawn_after,
    running_bot,
    shown,
    start_bot,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


async def test_round_ends_and_the_match_end_reach_each_private_chat_quietly_with_rematch_and_review(
        tmp_path: Path) -> None:
    async with duel(tmp_path / "bot.db") as d:
        await play_until_over(d.tg, d.group, [d.alice, d.bob], timeout=30)
        await d.bot.front.outbox.drain(5)
        group_rounds = [shown(m) for m in bot_messages(d.tg, d.group) if "End of round" in shown(m)]
        assert len(group_rounds) >= 2, "the match had rounds"
        for user in (d.alice, d.bob):
            private = bot_messages(d.tg, user)
            rounds = [m for m in private if "End of round" in shown(m)]
            assert [shown(m) for m in rounds] == group_rounds, "every round's breakdown, as the group's"
            assert all(m.silent for m in rounds), "a breakdown rings nobody"
            ended = [m for m in private if "🏆" in shown(m) and m.callback_data]
            assert len(ended) == 1, "the match's result once"
            assert ended[0].silent
            assert shown(ended[0]) == shown(match_over(d.tg, d.group))
            assert {data[0] for data in ended[0].callback_data} == {"r", "R"}, "Rematch and Review"
            rang = [m for m in d.tg.rings(user, since=d.began) if m.chat.is_private]
            assert all("Your turn" in (m.history[0].text if m.history else shown(m)) or "" for m in rang)

        ended = next(m for m in bot_messages(d.tg, d.bob) if "🏆" in shown(m) and m.callback_data)
        review = await answered(d.tg, d.tg.tap(d.bob, ended, d.bob, "Review"))
        assert not review.show_alert, review.answer_text
        await d.tg.wait_for(lambda: any("Your review of the match" in shown(m)
                                        for m in bot_messages(d.tg, d.bob)),
                            timeout=30, what="Bob's review, in his private chat")
        lobbies = len([m for m in bot_messages(d.tg, d.group) if "New game" in shown(m)])
        rematch = await answered(d.tg, d.tg.tap(d.bob, ended, d.bob, "Rematch"))
        assert not rematch.show_alert, rematch.answer_text
        assert "“Friends”" in (rematch.answer_text or ""), "the answer says where the new game is"
        await d.tg.wait_for(lambda: len([m for m in bot_messages(d.tg, d.group)
                                         if "New game" in shown(m)]) == lobbies + 1,
                            what="the rematch's lobby in the group")
        assert not [m for m in bot_messages(d.tg, d.bob) if "New game" in shown(m)], \
            "the lobby opens in the group, not in the private chat"


async def test_a_private_round_end_is_a_photo_in_a_chat_of_pictures(tmp_path: Path) -> None:
    async with duel(tmp_path / "bot.db", pictures=True) as d:
        await play_until_over(d.tg, d.group, [d.alice, d.bob], timeout=30)
        await d.bot.front.outbox.drain(5)
        group_rounds = [shown(m) for m in bot_messages(d.tg, d.group)
                        if m.photo is not None and m.reply_to is None and "wins the round" in shown(m)]
        assert group_rounds
        for user in (d.alice, d.bob):
            rounds = [m for m in bot_messages(d.tg, user) if m.photo is not None and m.silent]
            assert [shown(m) for m in rounds] == group_rounds, "each round's picture, quietly"


@pytest.mark.parametrize("pictures", [False, True])
async def test_each_turn_of_a_scopone_shows_the_three_plays_since_the_players_last_turn(
        tmp_path: Path, pictures: bool) -> None:
    async with FakeTelegramServer() as tg:
        players = [tg.add_user(name) for name in ("Alice", "Bob", "Carla", "Dario")]
        group = friends_group(tg, *players)
        async with running_bot(tg, tmp_path / "bot.db", pictures=pictures) as bot:
            await bot.sessions.settings.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
            tg.user_sends(group, players[0], "/newgame scopone")
            lobby = await tg.wait_for_message(group, contains="Scopone")
            for user in players[1:]:
                assert not (await answered(tg, tg.tap(group, lobby, user, "Join"))).show_alert
            assert not (await answered(tg, tg.tap(group, lobby, players[0], "Start"))).show_alert
            taps, checked = Taps(), 0
            while checked < 12:
                user, message, data = await card_to_play(tg, players, taps)
                table = await bot.sessions.queries.table(1)
                lines = shown(message).split("\n")
                listed = [line.removeprefix("• ") for line in lines if line.startswith("• ")]
                if len(table.last_plays) >= 3:
                    expected = [play_line_of(p, "en", table.deck_style, table.variant)
                                for p in table.last_plays[-3:]]
                    assert "Since your last turn:" in lines and listed == expected, (lines, expected)
                    names = [p.name for p in table.last_plays[-3:]]
                    assert user.first_name not in names and len(set(names)) == 3, "the three others"
                    assert (message.photo is not None) is pictures, "a photo, its caption the same words"
                    checked += 1
                taps.pressed.add(data)
                record = await answered(tg, tg.press_button(user, message, user, data))
                assert not record.show_alert, record.answer_text
                await redrawn_after(tg, user, message, data)


class _GroupDown:
    """The announcements' outbox while the group takes nothing: its posts fail (not refused for
    good), the private chats' go through."""

    def __init__(self, outbox: Any, group_id: int) -> None:
        self._outbox, self._group = outbox, group_id

    def post(self, chat_id: int, *args: Any, **kwargs: Any) -> asyncio.Future[int | None]:
        if chat_id != self._group:
            return self._outbox.post(chat_id, *args, **kwargs)  # type: ignore[no-any-return]
        failed: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        failed.set_result(None)
        return failed

    def __getattr__(self, name: str) -> Any:
        return getattr(self._outbox, name)


async def test_private_copies_are_sent_once_though_the_groups_post_is_tried_again_after_a_restart(
        tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        bot = await start_bot(tg, db)
        cref = ChatRef(PLATFORM, str(group.id), "Friends")
        await bot.sessions.settings.set_chat_language(cref, "en")
        await bot.sessions.settings.set_chat_defaults(cref, {"target": 1})
        announcements = bot.front.presenter.announcements
        announcements.outbox = _GroupDown(announcements.outbox, group.id)  # type: ignore[assignment]
        lobby = await joined_lobby(tg, group, alice, bob)
        assert not (await answered(tg, tg.tap(group, lobby, alice, "Start"))).show_alert
        pressed: set[str] = set()
        while not (await bot.sessions.queries.table(1)).finished:
            found = await tg.wait_for(lambda: live_button(tg, [alice, bob], pressed), what="a card")
            user, message, data = found
            pressed.add(data)
            await answered(tg, tg.press_button(user, message, user, data))

        def copies(user: FakeUser) -> list[str]:
            return [shown(m) for m in bot_messages(tg, user) if shown(m).startswith(POST_TITLES)]

        await tg.wait_for(lambda: all(any("🏆" in c for c in copies(u)) for u in (alice, bob)),
                          what="the private copies, the group's posts failing")
        owed = len(await bot.sessions.delivery.owed_notices(PLATFORM))
        assert owed >= 2, "the group's round end and match end still owed"
        sent = {u.id: copies(u) for u in (alice, bob)}
        await bot.stop()
        assert not match_over(tg, group)

        restarted = await start_bot(tg, db)
        await tg.wait_for(lambda: match_over(tg, group), what="the end of the match, after the restart")
        await restarted.front.outbox.drain(5)
        await restarted.stop()
        group_rounds = [shown(m) for m in bot_messages(tg, group) if "End of round" in shown(m)]
        for user in (alice, bob):
            assert copies(user) == sent[user.id], "no copy sent twice"
            assert [c for c in copies(user) if "End of round" in c] == group_rounds
            assert sum("🏆" in c for c in copies(user)) == 1
