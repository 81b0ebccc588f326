"""The terminal game: bad input is explained, quitting keeps the match, running again resumes."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

from bot.adapters.terminal import TerminalGame

from .sessions_helpers import open_sessions


def feeder(lines: Iterator[str]) -> object:
    def read_line() -> str:
        return next(lines, "")

    return read_line


async def test_bad_input_then_quit_then_resume_to_the_end(tmp_path: Path) -> None:
    db = tmp_path / "terminal.db"
    sessions = await open_sessions(db)
    out = io.StringIO()
    script = iter(["abc", "99", "h", "1", "1", "1", "q"])
    game = TerminalGame(sessions, lang="en", out=out, read_line=feeder(script))  # type: ignore[arg-type]
    game_id = await game.setup("scopa", 2, "easy", False)
    finished = await game.run(game_id)
    text = out.getvalue()
    assert not finished
    assert "“abc” is not a move" in text and "“99” is not a move" in text
    assert "Type the number of a move" in text
    assert "Match saved" in text
    assert "Your moves:" in text and "1. " in text
    version = (await sessions.table(game_id)).version
    assert version >= 3
    await sessions.close()

    again = await open_sessions(db)
    out = io.StringIO()
    endless = iter(["1"] * 5000)
    resumed = TerminalGame(again, lang="it", out=out, read_line=feeder(endless))  # type: ignore[arg-type]
    assert await resumed.setup("scopa", 2, "easy", False) == game_id
    assert (await again.table(game_id)).version == version
    assert await resumed.run(game_id)
    text = out.getvalue()
    assert "Fine della smazzata" in text and "Partita finita" in text
    table = await again.table(game_id)
    assert table.finished and table.winner is not None
    await again.close()


async def test_a_four_player_game_with_rule_options_and_three_computers(tmp_path: Path) -> None:
    sessions = await open_sessions(tmp_path / "terminal.db")
    out = io.StringIO()
    game = TerminalGame(sessions, lang="en", out=out, read_line=feeder(iter(["q"])))  # type: ignore[arg-type]
    game_id = await game.setup("scopone", None, "medium", False, {"round_limit": "1", "re_bello": "on"})
    await game.run(game_id)
    table = await sessions.table(game_id)
    assert [seat.name for seat in table.seats][1:] == ["CPU 🤔 2", "CPU 🤔 3", "CPU 🤔 4"]
    assert "Scopone · round 1 of 1" in out.getvalue()
    rules = (await sessions.lobby_of(game_id)).rules
    assert rules.round_limit == 1 and rules.re_bello
    await sessions.close()


async def test_declaring_fuori_in_the_terminal(tmp_path: Path) -> None:
    sessions = await open_sessions(tmp_path / "terminal.db")
    out = io.StringIO()
    script = iter(["f 99", "f1", ""])
    game = TerminalGame(sessions, lang="en", out=out, read_line=feeder(script))  # type: ignore[arg-type]
    game_id = await game.setup("scopone", None, "easy", False, {"fuori": "on"})
    assert await game.run(game_id)
    text = out.getvalue()
    assert "f and the number of a move: play it and declare fuori." in text
    assert "“f 99” is not a move" in text
    assert "declared fuori, but" in text and "Match over" in text
    await sessions.close()
