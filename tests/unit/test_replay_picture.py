"""A replay step as a picture: the play ringed in its colour, the better card in gold."""

from __future__ import annotations

from PIL import Image, ImageColor

from bot.engine import Card, Move
from bot.pictures import ReplayScene, replay_picture, replay_scene
from bot.pictures.felt import GOLD
from bot.pictures.position import PAD, PLAYED, WIDTH, named
from bot.pictures.replay import _title
from bot.pictures.text import fit


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in text.split())


def _scene(better: str | None, name: str = "Marco", hand: str = "5D 7D 9C") -> ReplayScene:
    return replay_scene("napoletane", 2, name, 5, 16, 60, cards("2D 3C 4S 7B"), cards(hand),
                        Move.parse("7D:3C+4S"), None if better is None else Move.parse(better))


def _share(image: Image.Image, colour: str) -> float:
    """The part of the picture's pixels in `colour`."""
    wanted = ImageColor.getrgb(colour)
    counts = image.convert("RGB").getcolors(image.width * image.height) or []
    return sum(count for count, pixel in counts if pixel == wanted) / (image.width * image.height)


def test_a_graded_play_shows_the_better_card_in_gold_below_the_play() -> None:
    plain = replay_picture(_scene(None), "en")
    graded = replay_picture(_scene("7D:7B"), "en")
    assert plain.width == graded.width == WIDTH and graded.height > plain.height
    assert _share(plain, PLAYED) > 0.002 and _share(graded, GOLD) > _share(plain, GOLD) + 0.002


def test_the_count_of_plays_stays_in_the_title_beside_a_long_name() -> None:
    scene = _scene(None, name="Bartolomeo Annunziata-Ferraris di Montebello")
    title = _title(scene, "it")
    assert title.endswith("17 di 60") and "…" in title and title.startswith("Smazzata 2")


def test_a_full_scopone_hand_is_drawn_with_the_played_card_raised() -> None:
    picture = replay_picture(_scene(None, hand="1D 2C 3S 4B 5D 6C 7D 8B 9D 10C"), "es")
    assert picture.width == WIDTH and _share(picture, PLAYED) > 0.002


def test_a_long_name_is_cut_short_and_the_words_after_it_kept() -> None:
    name = "Bartolomeo Colleoni di Bergamo e di Malpaga"
    room = WIDTH - 2 * PAD - 28
    for lang, verb in (("it", "ha giocato"), ("en", "played"), ("es", "jugó")):
        said = named(lang, "replay.played", name, 21, room)
        assert said.endswith(f"… {verb}") and fit(said, 21, room, bold=True) == said, said
        hand = named(lang, "replay.hand", name, 22, room)
        assert "…" in hand and fit(hand, 22, room, bold=True) == hand, hand
