"""The one door into the sessions: every command a front-end can send goes through
`Sessions.handle`, each handled by its own handler, a refusal answered as a reply (nothing
changed), and a blocked user turned away from all of them alike."""

from __future__ import annotations

import dataclasses
from typing import get_args

import pytest

from bot.sessions import ChatRef, Reason, Sessions, UserRef
from bot.sessions.commands import (
    UNBLOCKED,
    AnswerDaily,
    AskDaily,
    AskReview,
    CancelGame,
    ChangeSettings,
    ChatMoved,
    Command,
    ConfirmSeat,
    ForgetMe,
    JoinGame,
    LeaveGame,
    NewGame,
    OpenTournament,
    OwnerCommand,
    PlayComputers,
    PressTournament,
    Reachable,
    ShowPuzzle,
    ThreadLost,
)
from bot.sessions.owners import parse_owners
from bot.sessions.replies import Done, HandRedrawn, Refusal, SettingsShown
from bot.sessions.tap import Action, Setting, Tap

from ..sessions_helpers import ALICE, BOB, CHAT, open_memory_sessions
from .test_taps import Front

EVERY_COMMAND: list[Command] = [
    Tap(Action.JOIN, 1), NewGame(), JoinGame(), LeaveGame(), CancelGame(), ConfirmSeat(1), AskDaily(),
    AnswerDaily(Tap.daily_offer(Action.DAILY_DROP, "2026-11-25", ALICE.key), ChatRef("test", ALICE.key)),
    ShowPuzzle(), ChangeSettings(((Setting.MY_LANGUAGE, "es"),)), PlayComputers("scopa"), AskReview(),
    OpenTournament(), PressTournament("1", "join"), OwnerCommand("botstatus"), ForgetMe(), Reachable(False),
    ChatMoved("-200"), ThreadLost(),
]


def test_the_list_below_names_every_kind_of_command() -> None:
    assert {type(c) for c in EVERY_COMMAND} == set(get_args(Command))


async def test_a_lobby_is_opened_joined_left_and_cancelled_through_the_door() -> None:
    sessions = await open_memory_sessions()
    front = Front()
    opened = await sessions.handle(front.asker(ALICE), NewGame(line="scopa target=11"))
    assert isinstance(opened, Done) and opened.game_id is not None
    assert isinstance(await sessions.handle(front.asker(BOB), JoinGame()), Done)
    lobby = await sessions.queries.lobby(CHAT)
    assert [seat.name for seat in lobby.seats if seat is not None] == ["Alice", "Bob"]
    left = await sessions.handle(front.asker(BOB), LeaveGame())
    assert isinstance(left, HandRedrawn), "Bob's private message drawn again without his seat"
    assert [seat.name for seat in (await sessions.queries.lobby(CHAT)).seats if seat is not None] == ["Alice"]
    assert isinstance(await sessions.handle(front.asker(ALICE), CancelGame()), Done)
    assert await sessions.queries.open_game_id(CHAT) is None


@pytest.mark.parametrize("command", [JoinGame(), LeaveGame(), CancelGame()], ids=type)
async def test_a_command_refused_is_a_reply_and_changes_nothing(command: Command) -> None:
    sessions = await open_memory_sessions()
    reply = await sessions.handle(Front().asker(ALICE), command)
    assert isinstance(reply, Refusal) and reply.refused.reason is Reason.NO_GAME
    assert await sessions.queries.open_game_id(CHAT) is None


async def test_a_second_new_game_is_refused_with_the_game_open() -> None:
    sessions = await open_memory_sessions()
    first = await sessions.handle(Front().asker(ALICE), NewGame())
    assert isinstance(first, Done)
    again = await sessions.handle(Front().asker(BOB), NewGame(variant="escoba"))
    assert isinstance(again, Refusal) and again.refused.reason is Reason.GAME_OPEN
    assert again.refused.params["game_id"] == first.game_id


async def test_a_player_changes_their_own_language_through_the_door() -> None:
    sessions = await open_memory_sessions()
    reply = await sessions.handle(Front().asker(ALICE), ChangeSettings(((Setting.MY_LANGUAGE, "es"),)))
    assert isinstance(reply, SettingsShown) and reply.language == "es" and reply.saved


OWNER = UserRef("telegram", "1", "Olga", "en")
BLOCKED = UserRef("telegram", "2", "Piero", "it")
GROUP = ChatRef("telegram", "-100", "Friends")


async def _blocked(sessions: Sessions) -> None:
    sessions.owners.name(parse_owners("telegram:1"))
    await sessions.owners.command(OWNER, True, "block", "2")


@pytest.mark.parametrize("command", [c for c in EVERY_COMMAND if not isinstance(c, UNBLOCKED)],
                         ids=lambda c: type(c).__name__)
async def test_a_blocked_user_is_turned_away_by_every_command(command: Command) -> None:
    sessions = await open_memory_sessions()
    await _blocked(sessions)
    asker = dataclasses.replace(Front().asker(BLOCKED), chat=GROUP)
    reply = await sessions.handle(asker, command)
    assert isinstance(reply, Refusal) and reply.refused.reason is Reason.BLOCKED
    assert await sessions.queries.open_game_id(GROUP) is None
