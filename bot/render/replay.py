"""A replay step in words (its caption) and as the scene of its picture, for every front-end."""

from __future__ import annotations

from ..i18n import t
from ..pictures import ReplayScene, replay_scene
from ..pictures.replay import replay_title
from ..sessions import ReplayStep
from .review import loss_text, move_phrase
from .words import cards_text


def step_scene(step: ReplayStep) -> ReplayScene:
    return replay_scene(step.deck_style, step.round, step.name, step.nth, step.step, step.steps, step.table,
                        step.hand, step.played, step.better)


def step_title(step: ReplayStep, lang: str) -> str:
    """"Round 2 · Marco's 5th play · 17 of 60"."""
    return replay_title(lang, step.round, step.name, step.nth, step.step + 1, step.steps)


def step_lines(step: ReplayStep, lang: str) -> list[str]:
    """The play, and the better one with what the play cost where the review graded it (or that
    another move was as good, where the review found one)."""
    played = move_phrase(step.played, lang, step.deck_style)
    lines = [t(lang, "replay.played_line", name=step.name, move=played)]
    if step.better is not None:
        better = move_phrase(step.better, lang, step.deck_style)
        lines.append(t(lang, "replay.better_line", move=better, loss=loss_text(step.loss, lang)))
    elif step.equivalent:
        lines.append(t(lang, "replay.equivalent_line"))
    return lines


def step_buttons(step: ReplayStep) -> list[tuple[str, int]]:
    """The replay's buttons at `step` (label, the play each shows): ⏮ ◀ before the first play's,
    ▶ ⏭ before the last's, ⏮ and ⏭ only where they lead further than ◀ and ▶. No button leads
    outside the match, and no two lead to the same play."""
    buttons = []
    if step.step > 1:
        buttons.append(("⏮", 0))
    if not step.first:
        buttons.append(("◀", step.step - 1))
    if not step.last:
        buttons.append(("▶", step.step + 1))
    if step.step < step.steps - 2:
        buttons.append(("⏭", step.steps - 1))
    return buttons


def step_caption(step: ReplayStep, lang: str) -> str:
    """The title and the lines, as a photo's caption or a text message."""
    return "\n".join([step_title(step, lang), *step_lines(step, lang)])


def step_text(step: ReplayStep, lang: str) -> str:
    """The step as the terminal shows it: the title, the table and the mover's hand as the
    terminal's table shows cards, then the play and the better one."""
    style = step.deck_style
    table = t(lang, "table.table", cards=cards_text(step.table, style)) if step.table \
        else t(lang, "table.empty")
    hand = t(lang, "replay.hand_line", name=step.name, cards=cards_text(step.hand, style))
    return "\n".join([step_title(step, lang), table, hand, *step_lines(step, lang)])
