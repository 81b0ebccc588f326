"""The commands front-ends send beyond a game's taps, each through `Sessions.handle`: the
terminal's match against the computer, /review, a tournament's sign-up, an owner's command,
/forgetme, and what the platform says of a user or a chat. A refusal is a reply."""

from __future__ import annotations

import dataclasses

from bot.sessions import ChatRef, GameStatus, UserRef
from bot.sessions.commands import (
    AskReview,
    ChatMoved,
    ForgetMe,
    OpenTournament,
    OwnerCommand,
    PlayComputers,
    PressTournament,
    Reachable,
    ThreadLost,
    platform_asker,
)
from bot.sessions.owners import BotStatus, parse_owners
from bot.sessions.replies import Done, Erased, Note, OwnerAnswered, Refusal, TournamentShown
from bot.sessions.tap import Asker, Say
from bot.sessions.tournaments import Status

from ..sessions_helpers import ALICE, BOB, CHAT, open_memory_sessions
from .test_taps import Front


async def test_the_terminal_match_opens_with_computers_and_starts_at_once() -> None:
    sessions = await open_memory_sessions()
    reply = await sessions.handle(Asker(ALICE, CHAT), PlayComputers("scopa", {"players": 2}, "easy"))
    assert isinstance(reply, Done) and reply.game_id is not None
    game = await sessions.queries.game(reply.game_id)
    assert game.status is GameStatus.RUNNING
    assert (await sessions.queries.chat(CHAT)).turn_limit == 3600


async def test_review_with_no_finished_match_is_a_refusal() -> None:
    sessions = await open_memory_sessions()
    reply = await sessions.handle(Asker(ALICE, CHAT), AskReview())
    assert isinstance(reply, Refusal)


async def test_a_tournament_is_opened_shown_joined_and_cancelled_through_the_door() -> None:
    sessions = await open_memory_sessions()
    front = Front()
    opened = await sessions.handle(front.asker(ALICE), OpenTournament(("scopa",)))
    assert isinstance(opened, TournamentShown) and opened.view.status is Status.SIGNUP
    shown = await sessions.handle(front.asker(BOB), OpenTournament())
    assert isinstance(shown, TournamentShown) and shown.view.id == opened.view.id
    joined = await sessions.handle(front.asker(BOB), PressTournament(opened.view.id, "join"))
    assert isinstance(joined, TournamentShown)
    assert [p.name for p in joined.view.players] == ["Alice", "Bob"]
    refused = await sessions.handle(front.asker(BOB), OpenTournament(("cancel",)))
    assert refused == Note(Say("tournament.refused.not_allowed", {"detail": ""}), alert=True)
    cancelled = await sessions.handle(front.asker(ALICE), OpenTournament(("cancel",)))
    assert cancelled == Note(Say("tournament.cancelled"))


async def test_a_bad_tournament_word_and_a_stale_button_are_notes_for_the_asker() -> None:
    sessions = await open_memory_sessions()
    bad = await sessions.handle(Front().asker(ALICE), OpenTournament(("swiss=99",)))
    assert isinstance(bad, Note) and bad.alert and bad.say.key == "tournament.refused.bad_option"
    stale = await sessions.handle(Front().asker(ALICE), PressTournament("7", "join"))
    assert isinstance(stale, Note) and stale.say.key == "tournament.refused.stale"
    assert await sessions.queries.tournament(CHAT) is None


OWNER = UserRef("telegram", "1", "Olga", "en")
PIERO = UserRef("telegram", "2", "Piero", "it")


def _home(user: UserRef) -> Asker:
    return Asker(user, home=ChatRef(user.platform, user.key))


async def test_an_owner_command_is_answered_to_its_owner_in_private_alone() -> None:
    sessions = await open_memory_sessions()
    sessions.owners.name(parse_owners("telegram:1"))
    answered = await sessions.handle(_home(OWNER), OwnerCommand("botstatus"))
    assert isinstance(answered, OwnerAnswered) and isinstance(answered.answer, BotStatus)
    group = ChatRef("telegram", "-100", "Friends")
    assert await sessions.handle(Asker(OWNER, group), OwnerCommand("botstatus")) == Done()
    assert await sessions.handle(_home(PIERO), OwnerCommand("block", "1")) == Done()
    assert not await sessions.owners.blocked(OWNER)


async def test_a_blocked_user_may_still_erase_their_data_and_be_said_reachable() -> None:
    sessions = await open_memory_sessions()
    sessions.owners.name(parse_owners("telegram:1"))
    await sessions.queries.player(PIERO)
    await sessions.handle(_home(OWNER), OwnerCommand("block", "2"))
    assert await sessions.owners.blocked(PIERO)
    assert await sessions.handle(Asker(PIERO), Reachable(False)) == Done()
    assert not (await sessions.queries.player(PIERO)).can_dm
    erased = await sessions.handle(_home(PIERO), ForgetMe())
    assert isinstance(erased, Erased) and erased.forgotten is not None
    assert await sessions.handle(_home(PIERO), ForgetMe()) == Erased(None), "nothing kept the second time"


async def test_a_chat_moved_takes_its_open_game_along_once() -> None:
    sessions = await open_memory_sessions()
    opened = await sessions.lobby.new_game(CHAT, ALICE, "scopa")
    moved = await sessions.handle(platform_asker(CHAT), ChatMoved("group-2"))
    assert moved == Done(opened.game_id)
    assert await sessions.queries.open_game_id(ChatRef(CHAT.platform, "group-2")) == opened.game_id
    assert await sessions.handle(platform_asker(CHAT), ChatMoved("group-2")) == Done()


async def test_a_lost_thread_stops_its_open_game() -> None:
    sessions = await open_memory_sessions()
    topic = dataclasses.replace(CHAT, thread="7")
    opened = await sessions.lobby.new_game(topic, ALICE, "scopa")
    assert await sessions.handle(platform_asker(topic), ThreadLost()) == Done(opened.game_id)
    assert await sessions.queries.open_game_id(topic) is None
    assert await sessions.handle(platform_asker(topic), ThreadLost()) == Done()


async def test_the_platform_asker_is_nobody() -> None:
    asker = platform_asker(CHAT)
    assert asker.user == UserRef(CHAT.platform, "", CHAT.platform) and asker.chat == CHAT
