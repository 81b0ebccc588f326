"""The rules of a player's data on the in-memory store: who may confirm /forgetme and for how
long, what an erasure does to each kind of open game, and that erasing twice changes nothing."""

from __future__ import annotations

from bot.render.boards import leaderboard_text
from bot.render.daily import yesterday_text
from bot.sessions import ChatRef, LeaderboardLine, UserRef
from bot.sessions.daily import DailyLine
from bot.sessions.ports import ERASED_NAME
from bot.sessions.privacy import CONFIRM_FOR, ConfirmCheck, Outcome, check_confirm, confirm_token

from ..sessions_helpers import FakeClock, open_memory_sessions, play_to_end, start_duel

ANNA = UserRef("test", "9100001", "Anna", "it")
BRUNO = UserRef("test", "9100002", "Bruno", "en")
CLARA = UserRef("test", "9100003", "Clara", "it")
GROUP = ChatRef("test", "-7001", "Amici")
LOUNGE = ChatRef("test", "-7002", "Salotto")


def test_only_its_owner_confirms_and_only_for_a_while() -> None:
    token = confirm_token("9100001", 1_000.0)
    assert check_confirm(token, "9100001", 1_000.0 + CONFIRM_FOR) is ConfirmCheck.GOOD
    assert check_confirm(token, "9100002", 1_001.0) is ConfirmCheck.NOT_YOURS
    assert check_confirm(token, "9100001", 1_000.0 + CONFIRM_FOR + 1) is ConfirmCheck.EXPIRED
    assert check_confirm(token, "9100001", 999.0) is ConfirmCheck.EXPIRED, "a time to come is forged"
    for forged in ("", "9100001", "9100001.", "9100001.x1", ".1000"):
        assert check_confirm(forged, "9100001", 1_000.0) is ConfirmCheck.NOT_YOURS


async def test_an_erasure_settles_every_open_game_and_is_done_once() -> None:
    clock = FakeClock()
    sessions = await open_memory_sessions(clock)
    finished = await start_duel(sessions, GROUP, ANNA, BRUNO, {"target": 1})
    await play_to_end(sessions, finished, [ANNA, BRUNO])
    playing = await start_duel(sessions, GROUP, ANNA, BRUNO)
    await sessions.lobby.new_game(LOUNGE, ANNA, "scopa")
    await sessions.lobby.join(LOUNGE, CLARA)
    data = await sessions.privacy.my_data(ANNA)
    assert data is not None and data["profile"]["display_name"] == "Anna"

    forgotten = await sessions.privacy.forget("test", "9100001")

    assert forgotten is not None
    fates = {s.game_id: s.outcome for s in forgotten.games}
    assert fates[playing] is Outcome.HANDED_OVER
    assert Outcome.LEFT_LOBBY in fates.values()
    assert await sessions.queries.find_player("test", "9100001") is None
    assert [s.name for s in (await sessions.queries.lobby(LOUNGE)).seats if s is not None] == ["Clara"]
    table = await sessions.queries.table(playing)
    assert all(s.name != "Anna" for s in table.seats)
    assert ERASED_NAME in [line.display_name for line in await sessions.queries.leaderboard(None)]
    await play_to_end(sessions, playing, [BRUNO])
    assert (await sessions.queries.table(playing)).finished
    assert await sessions.privacy.forget("test", "9100001") is None
    assert await sessions.privacy.my_data(ANNA) is None


async def test_erasures_asked_for_are_made_once_by_the_bot() -> None:
    sessions = await open_memory_sessions(FakeClock())
    await sessions.queries.player(ANNA)
    await sessions.privacy.ask("test", "9100001")
    await sessions.privacy.ask("test", "9100009")
    assert await sessions.privacy.asked("test", "9100001")
    done = await sessions.privacy.serve_asked("test")
    assert len(done) == 1, "a player never seen has nothing to erase"
    assert not await sessions.privacy.asked("test", "9100001")
    assert not await sessions.privacy.asked("test", "9100009")
    assert await sessions.privacy.serve_asked("test") == []


def test_boards_name_an_erased_player_a_former_player() -> None:
    rows = [LeaderboardLine(1, "Bruno", 20.0, 3, 2, 1), LeaderboardLine(2, ERASED_NAME, 18.0, 3, 1, 0)]
    board = leaderboard_text(rows, "en", True)
    assert "2. a former player — rating" in board and f"2. {ERASED_NAME} " not in board
    assert "un ex giocatore" in leaderboard_text(rows, "it", True)
    assert "un antiguo jugador" in leaderboard_text(rows, "es", True)
    assert "a former player" in (yesterday_text(DailyLine(1, ERASED_NAME, 5, 30), "en") or "")
