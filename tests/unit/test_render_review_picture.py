"""The review's picture: the hand as it was, nothing greyed (grey means "cannot be played"),
the card played outlined in red and the better one in green, each labelled, and the table as it
lay."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from bot.ai.review import GradedPlay, Review
from bot.engine import Card, Move
from bot.pictures import review_picture, review_scene
from bot.pictures.cards import card_height, card_image
from bot.pictures.fan import row
from bot.pictures.position import GAP, HAND_CARD, LINE, PAD, PLAYED, TABLE_CARD, WIDTH, named
from bot.pictures.review import (
    BETTER,
    Mark,
    ReviewScene,
    hand_marks,
    hand_row,
    layout,
)
from bot.pictures.text import fit

FRAME = 16
"""The wooden frame and the felt's border, left and right."""


def _cards(codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes.split())


def _scene(table: str, hand: str, played: str, best: str, name: str | None = None,
           deck: str = "napoletane") -> ReviewScene:
    play = GradedPlay(0, 0, 0, Move.parse(played), Move.parse(best), 1.0, 3, _cards(table), _cards(hand))
    return review_scene(deck, Review("scopa", 2, 128, (play,)), play, name)


def test_the_card_played_and_the_better_one_are_marked_and_the_others_left_as_they_were() -> None:
    scene = _scene("2S 5D 6B", "6D 8S 10D", "6D:6B", "10D:2S")
    assert hand_marks(scene) == (Mark.PLAYED, Mark.NONE, Mark.BETTER)
    same = _scene("2S 4D 6B", "6D 8S 10D", "6D:6B", "6D:2S+4D")
    assert hand_marks(same) == (Mark.PLAYED | Mark.BETTER, Mark.NONE, Mark.NONE), "one card, another capture"


def _face(card: Card, scene: ReviewScene, width: int) -> Image.Image:
    return card_image(card, scene.style, width).convert("RGB")


def _unchanged(picture: Image.Image, face: Image.Image, left: float, top: int) -> bool:
    """The card's face is in the picture at (left, top) as drawn alone (its rounded corners aside)."""
    inset = 10
    box = (inset, inset, face.width - inset, face.height - inset)
    shown = picture.crop((round(left) + inset, top + inset, round(left) + face.width - inset,
                          top + face.height - inset))
    return ImageChops.difference(shown, face.crop(box)).getbbox() is None


@pytest.mark.parametrize("lang", ["it", "en", "es"])
def test_no_card_of_the_hand_or_the_table_is_greyed_and_the_marks_are_red_and_green(lang: str) -> None:
    scene = _scene("", "1D 3C 5S 7B 8D", "3C", "7B")
    picture = review_picture(scene, lang)
    place = layout(scene)
    top = place.hand + LINE
    xs = hand_row(scene).xs(len(scene.hand))
    for x, card in zip(xs, scene.hand, strict=True):
        assert _unchanged(picture, _face(card, scene, HAND_CARD), x, top), f"{card} drawn as it was"
    middle = top + card_height(HAND_CARD) // 2
    assert picture.getpixel((round(xs[1]) - 3, middle)) == Image.new("RGB", (1, 1), PLAYED).getpixel((0, 0))
    assert picture.getpixel((round(xs[3]) - 3, middle)) == Image.new("RGB", (1, 1), BETTER).getpixel((0, 0))
    assert picture.getpixel((round(xs[0]) - 3, middle)) != picture.getpixel((round(xs[1]) - 3, middle))

    table = _scene("2S 5D 6B 7B 8B 9C 1S", "6D 8S 10D", "6D:6B", "10D:2S+8B")
    picture = review_picture(table, lang)
    first = table.table[:6]
    for x, card in zip(row(6, TABLE_CARD, GAP, PAD, WIDTH - 2 * PAD).xs(6), first, strict=True):
        face = _face(card, table, TABLE_CARD)
        assert _unchanged(picture, face, x, layout(table).table), f"{card} as it lay"


def test_the_labels_played_and_better_stand_under_the_hand_inside_the_picture() -> None:
    for scene in (_scene("3S", "1D 2D 3D 4D 5D 6D 7D 8D 9D 10D", "10D", "9D"),
                  _scene("3S", "1D 2D 3D 4D 5D 6D 7D 8D 9D 10D", "1D", "2D:2S"),
                  _scene("2S 4D 6B", "6D 8S 10D", "6D:6B", "6D:2S+4D")):
        picture = review_picture(scene, "en")
        tags = picture.crop((0, layout(scene).tags, WIDTH, layout(scene).tags + 30))
        colours = {colour for _, colour in tags.getcolors(maxcolors=100_000) or []}
        red = Image.new("RGB", (1, 1), PLAYED).getpixel((0, 0))
        green = Image.new("RGB", (1, 1), BETTER).getpixel((0, 0))
        assert red in colours and green in colours
        for edge in ((0, FRAME), (WIDTH - FRAME, WIDTH)):
            margin = picture.crop((edge[0], layout(scene).tags, edge[1], layout(scene).tags + 30))
            shown = {colour for _, colour in margin.getcolors() or []}
            assert not {red, green} & shown, "nothing reaches the frame"


def test_a_picture_for_another_player_names_them_and_keeps_the_words_after_a_long_name() -> None:
    scene = _scene("2S 4D 6B", "6D 8S 10D", "6D:6B", "6D:2S+4D", name="Bartolomeo Colleoni di Bergamo")
    mine = _scene("2S 4D 6B", "6D 8S 10D", "6D:6B", "6D:2S+4D")
    title = (0, 0, WIDTH, 56)
    picture = review_picture(scene, "en")
    assert ImageChops.difference(picture.crop(title), review_picture(mine, "en").crop(title)).getbbox()
    assert picture.size == review_picture(mine, "en").size
    label = (0, layout(scene).hand, WIDTH, layout(scene).hand + LINE)
    assert ImageChops.difference(picture.crop(label), review_picture(mine, "en").crop(label)).getbbox(), (
        "their hand, not 'Your cards'")
    room, longer = WIDTH - 2 * PAD - 28, "Bartolomeo Colleoni di Bergamo e di Malpaga"
    for lang, verb in (("it", "ha giocato"), ("en", "played"), ("es", "jugó")):
        said = named(lang, "pictures.review.played_by", longer, 21, room)
        assert said.endswith(f"… {verb}") and fit(said, 21, room, bold=True) == said, said
