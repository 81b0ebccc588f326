"""The table, a hand, a round's end, a lobby's deck and a review's costly plays as pictures
attached to their embeds.

Drawing takes milliseconds of CPU, so it runs in a small thread pool and never
holds the event loop. A chat chooses pictures or text in /settings (pictures by
default). A channel that refused the file of its game's message (no Attach
Files permission, a failed upload) gets that message as text for a while, said
in one log line, and pictures are tried again later; private hands go on.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import discord
from PIL import Image

from ...pictures import (
    ReviewScene,
    RoundScene,
    Style,
    hand_picture,
    hand_scene,
    lobby_picture,
    lobby_scene,
    photo_bytes,
    review_picture,
    round_picture,
    table_picture,
    table_scene,
    warm_up,
)
from ...pictures.puzzle import PuzzleScene, puzzle_picture
from ...pictures.season import SeasonScene, season_picture
from ...render.tournament import tournament_picture, tournament_scene
from ...sessions import ChatRef, HandView, Sessions, TableView
from ...sessions.tournaments import TournamentView
from .identity import PLATFORM

log = logging.getLogger(__name__)

TABLE_FILE = "table.jpg"
HAND_FILE = "hand.jpg"
DECK_FILE = "deck.jpg"
ROUND_FILE = "round.jpg"
REVIEW_FILE = "review-{number}.jpg"
PUZZLE_FILE = "puzzle.jpg"
SEASON_FILE = "season.jpg"
TOURNAMENT_FILE = "tournament.jpg"
REFUSED_FOR = 10 * 60.0
"""How long a channel that refused a file gets text before pictures are tried again."""


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture to attach, and how an embed shows it."""

    filename: str
    data: bytes

    def file(self) -> discord.File:
        """A new file each time: discord.py reads (and closes) a file when it sends it."""
        return discord.File(io.BytesIO(self.data), filename=self.filename)

    def shown_in(self, embed: discord.Embed) -> discord.Embed:
        shown = embed.copy()
        shown.set_image(url=f"attachment://{self.filename}")
        return shown


class Painter:
    """Draws in `workers` threads; the chat settings say which channels want pictures."""

    def __init__(self, sessions: Sessions, workers: int = 2) -> None:
        self.sessions = sessions
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="discord-pictures")
        self._refused: dict[str, float] = {}
        self._samples: dict[tuple[Style, str], Picture] = {}
        self._warm: set[Style] = set()

    def warm(self, style: Style) -> None:
        """Draw the cards of `style` in the pool ahead of the first picture that needs them
        (about a second a style; a picture drawn cold waits for its cards one by one)."""
        if style not in self._warm:
            self._warm.add(style)
            self._pool.submit(warm_up, style)

    async def wanted(self, channel_key: str) -> bool:
        """Whether the channel chose pictures (its settings)."""
        return (await self.sessions.queries.chat(ChatRef(PLATFORM, channel_key))).pictures

    def refusing(self, channel_key: str) -> bool:
        """Whether the channel refused a picture of its own message lately."""
        refused = self._refused.get(channel_key)
        return refused is not None and self.sessions.clock() - refused < REFUSED_FOR

    def settings_changed(self, channel_key: str) -> None:
        """The channel's settings changed: pictures are tried again there, if it wants them."""
        self._refused.pop(channel_key, None)

    def refused(self, channel_key: str, error: discord.HTTPException) -> None:
        """A channel refused a picture: text there for a while, said once."""
        log.warning("channel %s refused a picture (%s %s); sending text for %.0f minutes", channel_key,
                    error.status, error.code, REFUSED_FOR / 60)
        self._refused[channel_key] = self.sessions.clock()

    async def _draw(self, filename: str, draw: Callable[[], Image.Image]) -> Picture | None:
        """The picture `draw` makes, drawn and encoded in the pool; None (and a log line) if
        drawing fails: the message goes as text."""
        try:
            data = await asyncio.get_running_loop().run_in_executor(self._pool, lambda: photo_bytes(draw()))
        except Exception:
            log.exception("drawing %s failed", filename)
            return None
        return Picture(filename, data)

    async def table(self, view: TableView, lang: str) -> Picture | None:
        scene = table_scene(view)
        return await self._draw(TABLE_FILE, lambda: table_picture(scene, lang))

    async def hand(self, view: HandView, lang: str) -> Picture | None:
        scene = hand_scene(view)
        return await self._draw(HAND_FILE, lambda: hand_picture(scene, lang))

    async def round_end(self, scene: RoundScene, lang: str) -> Picture | None:
        return await self._draw(ROUND_FILE, lambda: round_picture(scene, lang))

    async def review(self, scene: ReviewScene, lang: str, number: int) -> Picture | None:
        """A review's costly play; `number` tells its file from the others of one reply."""
        return await self._draw(REVIEW_FILE.format(number=number), lambda: review_picture(scene, lang))

    async def puzzle(self, scene: PuzzleScene, lang: str) -> Picture | None:
        """A puzzle's table and hand."""
        return await self._draw(PUZZLE_FILE, lambda: puzzle_picture(scene, lang))

    async def season(self, scene: SeasonScene, lang: str) -> Picture | None:
        """A season's standings."""
        return await self._draw(SEASON_FILE, lambda: season_picture(scene, lang))

    async def tournament(self, view: TournamentView, lang: str) -> Picture | None:
        """A tournament's bracket (knockout) or standings (Swiss); None in sign-up."""
        if tournament_scene(view, lang) is None:
            return None

        def draw() -> Image.Image:
            picture = tournament_picture(view, lang)
            assert picture is not None
            return picture

        return await self._draw(TOURNAMENT_FILE, draw)

    async def deck(self, style: str, lang: str) -> Picture | None:
        """A lobby's picture: a few cards of the deck chosen, under its name."""
        scene = lobby_scene(style)
        self.warm(scene.style)
        sample = self._samples.get((scene.style, lang))
        if sample is None:
            sample = await self._draw(DECK_FILE, lambda: lobby_picture(scene, lang))
            if sample is not None:
                self._samples[(scene.style, lang)] = sample
        return sample

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
