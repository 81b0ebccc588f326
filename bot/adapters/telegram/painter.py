"""Pictures for Telegram drawn off the event loop.

Drawing and encoding a table takes a few milliseconds of Pillow, which releases
the GIL while it works: a small thread pool keeps the bot answering taps while
pictures are made. The first picture in a deck style also starts drawing that
style's 40 cards ahead (`warm_up`, about a second), in the same pool.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from PIL import Image

from ...pictures import (
    HandScene,
    LobbyScene,
    ReplayScene,
    ReviewScene,
    RoundScene,
    SeatScene,
    Style,
    TableScene,
    hand_picture,
    lobby_picture,
    photo_bytes,
    replay_picture,
    review_picture,
    round_picture,
    seat_picture,
    table_picture,
    warm_up,
)
from ...pictures.puzzle import PuzzleScene, puzzle_picture
from ...pictures.season import SeasonScene, season_picture
from ...pictures.tournament import BracketScene, StandingsScene, bracket_picture, standings_picture
from .content import Picture

log = logging.getLogger(__name__)


def style_of_scene(scene: Hashable) -> Style | None:
    return getattr(scene, "style", None)


DRAWN: dict[type, Callable[[Any, str], Image.Image]] = {
    TableScene: table_picture, HandScene: hand_picture, RoundScene: round_picture,
    SeatScene: seat_picture, LobbyScene: lobby_picture, ReviewScene: review_picture,
    PuzzleScene: puzzle_picture, SeasonScene: season_picture, ReplayScene: replay_picture,
    BracketScene: bracket_picture, StandingsScene: standings_picture,
}
"""Each kind of scene and the function that draws it."""


def draw(scene: Hashable, lang: str) -> bytes:
    """The scene as a photo (JPEG bytes)."""
    drawn = DRAWN.get(type(scene))
    if drawn is None:
        raise TypeError(f"no picture for {type(scene).__name__}")
    return photo_bytes(drawn(scene, lang))


class Painter:
    def __init__(self, workers: int = 2) -> None:
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="pictures")
        self._warming: dict[Style, Future[None]] = {}

    def warm(self, style: Style) -> None:
        """Draw the cards of `style` ahead, once, without waiting for them."""
        if style not in self._warming:
            self._warming[style] = self._pool.submit(warm_up, style)
            self._warming[style].add_done_callback(_log_failure)

    async def __call__(self, picture: Picture) -> bytes:
        style = style_of_scene(picture.scene)
        if style is not None:
            self.warm(style)
        return await asyncio.get_running_loop().run_in_executor(self._pool, draw, picture.scene, picture.lang)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def _log_failure(future: Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("drawing a deck ahead failed", exc_info=future.exception())
