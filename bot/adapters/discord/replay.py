"""A finished match's replay on Discord: ▶️ Replay under a player's review opens an ephemeral
message, seen only by them, with the picture of the match's first play; ⏮ ◀ ▶ ⏭ edit that
message in place. The custom ids carry the match and the play (`Action.REPLAY_STEP`), so
nothing is kept between presses and a restart forgets nothing; the sessions check who asks
and which play (`sessions.queries.replay_step`)."""

from __future__ import annotations

import asyncio
import logging

from discord import ButtonStyle, ui

from ...i18n import t
from ...pictures import photo_bytes, replay_picture
from ...render.replay import step_buttons, step_caption, step_scene
from ...sessions import ReplayStep
from .components import button, layout
from .custom_ids import Action, Press
from .embeds import text_embed
from .pictures import Picture
from .replies import Reply

log = logging.getLogger(__name__)

REPLAY_FILE = "replay-{step}.jpg"
"""A new name at each step: Discord shows the new attachment rather than a cached one."""


def replay_button(game_id: int, lang: str) -> ui.Button[ui.View]:
    """▶️ Replay, under a player's review of match `game_id`."""
    return button(t(lang, "replay.button"), Press(Action.REPLAY, game_id), ButtonStyle.primary)


def replay_view(step: ReplayStep) -> ui.View | None:
    """The buttons `step_buttons` gives, each carrying the match and its play."""
    buttons = [button(label, Press(Action.REPLAY_STEP, step.game_id, arg=str(number)))
               for label, number in step_buttons(step)]
    return layout(buttons) if buttons else None


async def step_picture(step: ReplayStep, lang: str) -> Picture | None:
    """The step's picture, drawn in a thread; None (and a log line) if drawing fails."""
    scene = step_scene(step)
    try:
        data = await asyncio.to_thread(lambda: photo_bytes(replay_picture(scene, lang)))
    except Exception:
        log.exception("drawing step %d of game %d failed", step.step, step.game_id)
        return None
    return Picture(REPLAY_FILE.format(step=step.step + 1), data)


async def replay_reply(step: ReplayStep, lang: str, *, in_place: bool) -> Reply:
    """The step as an ephemeral message of its own (the replay opened), or `in_place` of the
    pressed replay message."""
    embed = text_embed(step_caption(step, lang))
    picture = await step_picture(step, lang)
    view = replay_view(step)
    if in_place:
        return Reply.update(embed=embed, view=view, picture=picture)
    return Reply.message(embed=embed, view=view, picture=picture)
