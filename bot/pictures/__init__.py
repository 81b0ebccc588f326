"""Cards, the table, a hand and a round's score drawn as pictures by the project itself
(Pillow polygons, no artwork from elsewhere), from small platform-neutral scenes."""

from .cards import card_image
from .encode import photo_bytes, png_bytes
from .hand import hand_picture
from .lobby import lobby_picture
from .replay import ReplayScene, replay_picture, replay_scene
from .review import ReviewScene, review_picture, review_scene
from .scenes import (
    HandScene,
    LastPlay,
    LobbyScene,
    RoundScene,
    SeatScene,
    SideLine,
    TableScene,
    hand_scene,
    last_play_of,
    lobby_scene,
    round_scene,
    round_scene_of,
    seat_scene,
    table_scene,
)
from .score import round_picture
from .seat import seat_picture
from .sheet import deck_sheet
from .styles import Style, parse_style
from .table import table_picture
from .warm import warm_up

__all__ = [
    "HandScene",
    "LastPlay",
    "LobbyScene",
    "ReplayScene",
    "ReviewScene",
    "RoundScene",
    "SeatScene",
    "SideLine",
    "Style",
    "TableScene",
    "card_image",
    "deck_sheet",
    "hand_picture",
    "hand_scene",
    "last_play_of",
    "lobby_picture",
    "lobby_scene",
    "parse_style",
    "photo_bytes",
    "png_bytes",
    "replay_picture",
    "replay_scene",
    "review_picture",
    "review_scene",
    "round_picture",
    "round_scene",
    "round_scene_of",
    "seat_picture",
    "seat_scene",
    "table_picture",
    "table_scene",
    "warm_up",
]
