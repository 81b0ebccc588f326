"""After a match in the terminal: "replay? [y/N]", then the match stepped through with keys."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path

from bot.adapters.terminal import TerminalGame

from ..sessions_helpers import open_sessions

OFFER = "Step through the match play by play? [y/N] "
KEYS = "n (or Enter) next play · p previous · q quit: "
COUNT = re.compile(r"^Round 1 · .*'s \d+(?:st|nd|rd|th) play · (\d+) of (\d+)$", re.MULTILINE)


def player(out: io.StringIO, after: list[str]) -> Callable[[], str]:
    """Plays the first move listed until the replay is offered, then types `after` ("\n" is
    Enter alone) and then q."""
    keys = iter(after)

    def read_line() -> str:
        if OFFER not in out.getvalue():
            return "1"
        return next(keys, "q")

    return read_line


async def test_after_the_match_the_player_steps_from_the_first_play_to_the_last(tmp_path: Path) -> None:
    sessions = await open_sessions(tmp_path / "terminal.db")
    out = io.StringIO()
    keys = ["y", *["n"] * 34, "\n", "\n", "p", "q"]
    game = TerminalGame(sessions, lang="en", out=out, read_line=player(out, keys))
    game_id = await game.setup("scopa", 2, "easy", False, {"round_limit": "1"})
    assert game_id is not None and await game.run(game_id)
    text = out.getvalue()
    shown = [(int(step), int(steps)) for step, steps in COUNT.findall(text[text.index(OFFER):])]
    assert shown == [(n, 36) for n in range(1, 37)] + [(35, 36)], "each play once, then back one"
    assert "That was the match's last play" in text and "Looking for the better moves" in text
    user = game.user
    graded = [(await sessions.queries.replay_step(game_id, user, n)).better is not None for n in range(36)]
    assert any(graded) and text.count("Better: ") == sum(graded) + graded[34], "each graded play says so"
    first = text[text.index(OFFER) + len(OFFER):].split(KEYS)[0]
    assert "Table: " in first and "'s hand: " in first and first.count("\n") >= 3
    assert text.rstrip().endswith(KEYS.rstrip())
    await sessions.close()


async def test_no_replay_unless_asked(tmp_path: Path) -> None:
    sessions = await open_sessions(tmp_path / "terminal.db")
    out = io.StringIO()
    game = TerminalGame(sessions, lang="en", out=out, read_line=player(out, ["\n"]))
    assert await game.run(await game.setup("scopa", 2, "easy", False, {"round_limit": "1"}))
    text = out.getvalue()
    assert text.rstrip().endswith(OFFER.rstrip()) and not COUNT.search(text)
    await sessions.close()
