"""What a tap or a command means, decided once for every front-end (`sessions.taps`)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from bot.sessions import ChatRef, DailyOffer, DailyStart, GameStatus, Reason, Refused, Sessions, UserRef
from bot.sessions.daily import daily_request
from bot.sessions.interaction import HandMode, HandPrompt
from bot.sessions.replies import (
    ConfirmCancel,
    DailyDropped,
    Done,
    HandPrompted,
    HandShown,
    MenuShown,
    Note,
    OpenPrivate,
    OpenPrivateForDaily,
    Played,
    Refusal,
    SeatReady,
    SettingsShown,
)
from bot.sessions.tap import Action, Asker, Redraw, Setting, Tap

from ..sessions_helpers import ALICE, BOB, CARLA, CHAT, open_memory_sessions, start_duel


@dataclass
class Front:
    """What a front-end reports about one user, counting how often it was asked."""

    admin: bool = False
    outsider: bool = False
    reachable: bool = True
    arrives: bool = True
    asked: list[str] = field(default_factory=list)

    def asker(self, user: UserRef) -> Asker:
        async def admin() -> bool:
            self.asked.append("admin")
            return self.admin

        async def outsider() -> bool:
            self.asked.append("outsider")
            return self.outsider

        async def reach(game_id: int) -> bool:
            self.asked.append(f"reach {game_id}")
            return self.arrives

        return Asker(user, CHAT, admin, outsider, self.reachable, reach)


async def lobby_of_alice() -> tuple[Sessions, int]:
    sessions = await open_memory_sessions()
    return sessions, (await sessions.lobby.new_game(CHAT, ALICE, "scopa")).game_id


async def test_the_creator_manages_others_only_as_admins_and_the_admin_question_waits_for_a_refusal() -> None:
    sessions, game_id = await lobby_of_alice()
    creator, stranger, admin = Front(), Front(), Front(admin=True)
    await sessions.lobby.join(CHAT, BOB)
    menu = await sessions.taps.handle(creator.asker(ALICE), Tap(Action.MENU, game_id, arg="options"))
    assert menu == MenuShown("options") and creator.asked == []
    refused = await sessions.taps.handle(stranger.asker(BOB), Tap(Action.OPTION, game_id, arg="target=21"))
    assert isinstance(refused, Refusal) and refused.refused.reason is Reason.NOT_ALLOWED
    assert stranger.asked == ["admin"]
    assert (await sessions.queries.lobby(CHAT)).rules.target != 21
    changed = await sessions.taps.handle(admin.asker(CARLA), Tap(Action.OPTION, game_id, arg="target=21"))
    assert changed == MenuShown("options")
    assert (await sessions.queries.lobby(CHAT)).rules.target == 21
    assert isinstance(await sessions.taps.handle(stranger.asker(BOB), Tap(Action.START, game_id)), Refusal)
    assert (await sessions.queries.game(game_id)).status is GameStatus.LOBBY


async def test_a_running_match_is_cancelled_only_once_confirmed_and_a_stale_button_changes_nothing() -> None:
    sessions = await open_memory_sessions()
    game_id = await start_duel(sessions)
    front = Front()
    asked = await sessions.taps.handle(front.asker(ALICE), Tap(Action.CANCEL, game_id))
    assert asked == ConfirmCancel(game_id)
    assert (await sessions.queries.game(game_id)).status is GameStatus.RUNNING
    stale = await sessions.taps.handle(front.asker(ALICE), Tap(Action.CONFIRM_CANCEL, game_id + 1))
    assert isinstance(stale, Refusal) and stale.refused.reason is Reason.STALE
    done = await sessions.taps.handle(front.asker(ALICE), Tap(Action.CONFIRM_CANCEL, game_id))
    assert isinstance(done, Note) and done.say.key == "cancel.done"
    assert (await sessions.queries.game(game_id)).status is GameStatus.CANCELLED


async def test_joining_waits_for_the_private_chat_and_takes_the_seat_once_the_hand_arrives() -> None:
    sessions, game_id = await lobby_of_alice()
    away = Front(reachable=False, arrives=False)
    waiting = await sessions.taps.join(away.asker(BOB), game_id)
    assert waiting == OpenPrivate(game_id)
    assert [seat.name for seat in (await sessions.queries.lobby(CHAT)).waiting] == ["Bob"]
    back = Front(reachable=False, arrives=True)
    ready = await sessions.taps.join(back.asker(BOB), game_id)
    assert ready == Done(game_id) and back.asked == ["outsider", f"reach {game_id}"]
    assert (await sessions.queries.lobby(CHAT)).waiting == ()
    outsider = Front(outsider=True)
    refused = await sessions.taps.handle(outsider.asker(CARLA), Tap(Action.JOIN, game_id))
    assert isinstance(refused, Refusal) and refused.refused.reason is Reason.NOT_MEMBER


async def test_settings_are_for_the_chat_admins_checked_before_saving_and_say_what_to_draw_again() -> None:
    sessions = await open_memory_sessions()
    await sessions.queries.chat(CHAT, "it")
    member, admin = Front(), Front(admin=True)
    refused = await sessions.taps.change_settings(member.asker(BOB), [(Setting.CHAT_LANGUAGE, "en")])
    assert isinstance(refused, Note) and refused.say.key == "test.settings.admins" and refused.alert
    assert (await sessions.queries.chat(CHAT)).language == "it"
    bad = await sessions.taps.handle(admin.asker(BOB), Tap(Action.SETTING, arg="ct=7"))
    assert isinstance(bad, Refusal) and bad.refused.reason is Reason.BAD_OPTION
    saved = await sessions.taps.handle(admin.asker(BOB), Tap(Action.SETTING, arg="cl=en"))
    assert saved == SettingsShown("en", saved=True, redraw=Redraw.GAME)
    assert (await sessions.queries.chat(CHAT)).language == "en"
    mine = await sessions.taps.handle(Asker(BOB), Tap(Action.SETTING, arg="ul=es"))
    assert mine == SettingsShown("es", saved=True, redraw=Redraw.MY_HANDS)
    in_group = await sessions.taps.handle(admin.asker(BOB), Tap(Action.SETTING, arg="ul=es"))
    assert isinstance(in_group, Refusal) and in_group.refused.reason is Reason.BAD_INPUT


async def test_a_tap_on_a_hand_says_what_the_hand_shows_next() -> None:
    sessions = await open_memory_sessions()
    game_id = await start_duel(sessions)
    table = await sessions.queries.table(game_id)
    user = ALICE if table.to_play == 0 else BOB
    hand = await sessions.queries.hand(game_id, user)
    choice = hand.choices[0]
    reply = await sessions.taps.handle(
            Asker(user), Tap(Action.CHOOSE, game_id, hand.version, choice.card.code))
    if len(choice.moves) == 1:
        assert reply == Played(hand=await sessions.queries.hand(game_id, user),
                               table=await sessions.queries.table(game_id))
        assert (await sessions.queries.table(game_id)).version == hand.version + 1
    else:
        assert reply == HandPrompted(HandPrompt(HandMode.CHOOSING, choice.card.code), hand)
    stale = await sessions.taps.handle(Asker(user), Tap(Action.BACK, game_id, hand.version - 1))
    assert isinstance(stale, Refusal) and stale.refused.reason is Reason.STALE
    shown = await sessions.taps.handle(Asker(user), Tap(Action.SHOW_HAND, game_id))
    assert isinstance(shown, HandShown) and shown.hand.game_id == game_id


async def test_the_private_chat_link_readies_only_a_seat_taken_in_the_chat() -> None:
    sessions, game_id = await lobby_of_alice()
    await sessions.taps.join(Front(reachable=False, arrives=False).asker(BOB), game_id)
    confirmed = await sessions.taps.seat_confirmed(BOB, game_id)
    assert confirmed == SeatReady(game_id)
    assert (await sessions.queries.lobby(CHAT)).waiting == ()
    stranger = await sessions.taps.seat_confirmed(CARLA, game_id)
    assert isinstance(stranger, Note) and stranger.say.key == "dm.join_in_group"
    assert [seat.name for seat in (
            await sessions.queries.lobby(CHAT)).seats if seat is not None] == ["Alice", "Bob"]


async def test_the_deal_of_the_day_is_offered_then_dealt_by_its_players_tap_alone() -> None:
    sessions = await open_memory_sessions()
    home = UserRef(ALICE.platform, ALICE.key, ALICE.name)
    private = ChatRef(ALICE.platform, ALICE.key, ALICE.name)
    unreached = await sessions.taps.daily(Front(reachable=False).asker(home))
    assert unreached == OpenPrivateForDaily()
    offered = await sessions.taps.daily(Front().asker(home))
    assert isinstance(offered, DailyOffer) and offered.name == "Alice"
    assert await sessions.queries.open_game_id(private) is None, "an offer deals nothing"

    deal = Tap.daily_offer(Action.DAILY_DEAL, offered.day, ALICE.key)
    bob_private = ChatRef(BOB.platform, BOB.key, BOB.name)
    by_bob = await sessions.taps.daily_deal(Front().asker(BOB), deal, bob_private)
    assert isinstance(by_bob, Refusal) and by_bob.refused.reason is Reason.DAILY_NOT_YOURS
    old = Tap.daily_offer(Action.DAILY_DEAL, "2026-01-01", ALICE.key)
    stale = await sessions.taps.daily_deal(Front().asker(home), old, private)
    assert isinstance(stale, Refusal) and stale.refused.reason is Reason.DAILY_OLD_OFFER
    forged = await sessions.taps.daily_deal(Front().asker(home), Tap(Action.DAILY_DEAL, arg="x"), private)
    assert isinstance(forged, Refusal) and forged.refused.reason is Reason.BAD_INPUT
    assert await sessions.queries.open_game_id(
            private) is None and await sessions.queries.open_game_id(bob_private) is None

    dropped = await sessions.taps.daily_deal(
        Front().asker(home), Tap.daily_offer(Action.DAILY_DROP, offered.day, ALICE.key), private)
    assert dropped == DailyDropped()
    assert await sessions.queries.open_game_id(private) is None

    started = await sessions.taps.daily_deal(Front().asker(home), deal, private)
    assert isinstance(started, DailyStart) and not started.resumed
    again = await sessions.taps.daily_deal(Front().asker(home), deal, private)
    assert isinstance(again, DailyStart) and again.resumed, "tapped again: the same deal"
    assert again.table.game_id == started.table.game_id
    asked = await sessions.taps.daily(Front().asker(home))
    assert isinstance(asked, DailyStart) and asked.resumed, "under way: nothing to confirm"


async def test_the_daily_board_is_the_chats_in_a_group_and_everyones_in_private() -> None:
    sessions = await open_memory_sessions()
    in_group = await sessions.taps.daily_board(Front().asker(ALICE))
    assert not in_group.everyone
    assert (await sessions.taps.daily_board(Front().asker(ALICE), everyone=True)).everyone
    private = Asker(ALICE)
    assert (await sessions.taps.daily_board(private)).everyone
    assert daily_request(["Classifica", "tutti"]) == (True, True)
    assert daily_request(["board"]) == (True, False)
    assert daily_request([]) == (False, False)
    for words in (["tutti"], ["bord"], ["2026-01-01"], ["board", "bord"], ["board", "global", "now"]):
        with pytest.raises(Refused) as unknown:
            daily_request(words)
        assert unknown.value.reason is Reason.DAILY_WORDS and unknown.value.params["asked"] == " ".join(words)
