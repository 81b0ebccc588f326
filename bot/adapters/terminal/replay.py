"""After a match in the terminal: "replay? [y/N]", then the match stepped through play by
play with keys (n or Enter the next play, p the previous, q to stop). The match is reviewed
first, so that each play the review found a better move for says it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from ...i18n import t
from ...render.replay import step_text
from ...render.words import refusal_text
from ...sessions import Refused, Sessions, UserRef
from ...sessions.tap import Action, Asker, Tap

Ask = Callable[[str], Awaitable[str | None]]
"""A line typed after a prompt, stripped; None at the end of input."""
NEXT = ("", "n", "next", "avanti", "siguiente")
BACK = ("p", "prev", "previous", "indietro", "anterior")


async def offer_replay(sessions: Sessions, user: UserRef, game_id: int, lang: str, ask: Ask,
                       show: Callable[[str], None], yes: tuple[str, ...], stop: tuple[str, ...]) -> None:
    """Ask whether to step through finished match `game_id`, and do it while asked to."""
    answer = await ask(t(lang, "replay.terminal_offer"))
    if answer is None or answer.lower() not in yes:
        return
    show(t(lang, "replay.terminal_reviewing"))
    await sessions.handle(Asker(user), Tap(Action.REVIEW, game_id))  # refused: shown without grades
    number = 0
    while True:
        try:
            step = await sessions.queries.replay_step(game_id, user, number)
        except Refused as refused:
            show(refusal_text(refused, lang))
            return
        show("\n" + step_text(step, lang))
        while True:
            key = await ask(t(lang, "replay.terminal_keys"))
            if key is None or key.lower() in stop:
                return
            if key.lower() in BACK and not step.first:
                number -= 1
                break
            if key.lower() in NEXT and not step.last:
                number += 1
                break
            if key.lower() in NEXT:
                show(t(lang, "replay.terminal_last"))
