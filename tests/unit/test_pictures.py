"""The cards, the table, a hand and a round's score as pictures.

Golden images (tests/unit/golden/cards-<style>.png) catch an accidental change in how a
deck is drawn. After changing the drawing on purpose, look at the new pictures and
write them again with:

    SCOPA_GOLDEN=write .venv/bin/python -m pytest tests/unit/test_pictures.py -k golden
"""

from __future__ import annotations

import io
import json
import os
import random
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.ai.review import GradedPlay, Review
from bot.cli import main as cli_main
from bot.engine import DECK, Card, Game, Move, RoundResult, record_line
from bot.i18n import catalogue
from bot.pictures import (
    HandScene,
    LastPlay,
    ReviewScene,
    SeatScene,
    SideLine,
    Style,
    TableScene,
    card_image,
    hand_picture,
    hand_scene,
    last_play_of,
    lobby_picture,
    lobby_scene,
    photo_bytes,
    review_picture,
    review_scene,
    round_picture,
    round_scene,
    seat_picture,
    seat_scene,
    table_picture,
    table_scene,
)
from bot.pictures import hand as hand_module
from bot.pictures import seat as seat_module
from bot.pictures.fan import CORNER_SHOWN, Row
from bot.pictures.felt import dimmed
from bot.pictures.record import Position, RecordError, read_records, record_scene
from bot.pictures.scenes import RoundScene
from bot.pictures.text import printable
from bot.sessions import CardChoice, HandView, PlayLine, SeatInfo, TableView

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_CARD = 36
"""Golden sheets are kept as palette PNGs: the palette alone changes each pixel a little,
a change in the drawing moves many pixels a lot."""
MAX_PHOTO = 120 * 1024


def cards(codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes.split())


# ---- the deck --------------------------------------------------------------------------------------


@pytest.mark.parametrize("style", list(Style))
def test_every_card_of_a_style_draws_and_no_two_look_alike(style: Style) -> None:
    faces = [card_image(card, style, 76) for card in DECK]
    assert all(face.size == faces[0].size and face.mode == "RGBA" for face in faces)
    assert len({face.tobytes() for face in faces}) == 40


def test_the_styles_draw_the_same_card_differently() -> None:
    seven = Card.parse("7S")
    assert len({card_image(seven, style, 76).tobytes() for style in Style}) == len(Style)


def _golden_sheet(style: Style) -> Image.Image:
    height = card_image(DECK[0], style, GOLDEN_CARD).height
    sheet = Image.new("RGB", (10 * GOLDEN_CARD, 4 * height), "#1d6a3c")
    for i, card in enumerate(DECK):
        face = card_image(card, style, GOLDEN_CARD)
        sheet.paste(face, ((i % 10) * GOLDEN_CARD, (i // 10) * height), face)
    return sheet


@pytest.mark.parametrize("style", list(Style))
def test_golden_deck(style: Style) -> None:
    path = GOLDEN / f"cards-{style.value}.png"
    drawn = _golden_sheet(style)
    if os.environ.get("SCOPA_GOLDEN") == "write":
        paletted = drawn.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        paletted.save(path, optimize=True)
    assert path.exists(), f"no golden image {path.name}: see this module's docstring to write it"
    golden = Image.open(path).convert("RGB")
    assert golden.size == drawn.size
    difference = ImageChops.difference(golden, drawn)
    mean = sum(ImageStat.Stat(difference).mean) / 3
    changed = sum(difference.convert("L").histogram()[49:])
    assert mean < 4 and changed < 0.002 * drawn.width * drawn.height, (
        f"the {style.value} cards look different from {path.name} (mean difference {mean:.2f}, "
        f"{changed} pixels changed); if meant, write the golden images again (module docstring)"
    )


# ---- scenes from the sessions' views -----------------------------------------------------------


def _seats(names: list[str]) -> tuple[SeatInfo, ...]:
    return tuple(SeatInfo(i, name, i + 1, False, None, True, False) for i, name in enumerate(names))


def _table_view(**changes: object) -> TableView:
    values: dict[str, object] = dict(
        game_id=1, status="running", version=12, variant="scopone", deck_style="piacentine", target=11,
        round_number=2, round_limit=0, dealer=0, to_play=1,
        seats=_seats(["Anna", "Bruno", "Carla", "Dario"]), sides=((0, 2), (1, 3)),
        side_names=("Anna & Carla", "Bruno & Dario"), table=cards("1D 4C 7S 10B"), stock_count=0,
        hand_counts=(5, 5, 4, 4), captured_counts=(3, 2, 4, 0), scope=(1, 0, 1, 0), totals=(6, 9),
        last_plays=(PlayLine(0, "Anna", Card.parse("5C"), cards("2B 3S"), False),),
        last_result=None, winner=None, deadline=None,
    )
    values.update(changes)
    return TableView(**values)  # type: ignore[arg-type]


def test_a_table_scene_adds_up_each_side_and_names_whose_turn_it_is() -> None:
    scene = table_scene(_table_view())
    assert scene.style is Style.PIACENTINE
    assert [(s.name, s.total, s.scope, s.taken) for s in scene.sides] == [
        ("Anna & Carla", 6, 2, 7), ("Bruno & Dario", 9, 0, 2)]
    assert scene.to_play == "Bruno" and scene.turn_side == 1
    assert scene.last_play == LastPlay("Anna", Card.parse("5C"), cards("2B 3S"), False)


def test_taken_cards_can_be_hidden_and_an_unknown_deck_falls_back() -> None:
    scene = table_scene(_table_view(deck_style="no-such-deck"), show_taken=False)
    assert all(side.taken is None for side in scene.sides)
    assert scene.style is Style.NAPOLETANE


def test_the_last_play_can_come_from_an_event() -> None:
    class Event:
        name, card, captured, scopa = "Carla", Card.parse("7D"), cards("7C"), True

    last = last_play_of(Event())
    scene = table_scene(_table_view(), last=last)
    assert scene.last_play == LastPlay("Carla", Card.parse("7D"), cards("7C"), True)


def test_a_finished_match_names_the_winner_and_nobody_to_play() -> None:
    scene = table_scene(_table_view(status="finished", winner=1, totals=(8, 12)))
    assert scene.to_play is None and scene.winner == "Bruno & Dario" and scene.turn_side is None


def test_a_hand_scene_marks_only_the_cards_playable_now() -> None:
    hand = cards("1D 5C 9S")
    choices = (CardChoice(hand[0], ()), CardChoice(hand[2], ()))
    view = HandView(1, 3, 0, "french", hand, cards("1C"), True, choices, False)
    scene = hand_scene(view)
    assert scene.style is Style.FRENCH and scene.playable == {hand[0], hand[2]}
    waiting = hand_scene(HandView(1, 3, 0, "french", hand, cards("1C"), False, choices, False))
    assert waiting.playable == frozenset() and not waiting.my_turn


# ---- pictures ------------------------------------------------------------------------------------


def _crowded_table(style: Style) -> TableScene:
    sides = tuple(SideLine(f"Giocatrice con un nome lunghissimo 🙂 {i}", 10 + i, 3, 14) for i in range(3))
    last = LastPlay("Giocatrice 🙂", Card.parse("7D"), cards("1S 2S 3S 4S 5B 6B"), True)
    return TableScene(style, "escoba", 7, 21, 9, cards("1D 2D 3D 4D 5D 6D 1C 2C 3C 4C 5C 6C"), 18, sides,
                      "Giocatrice 🙂", last, None, 2)


def _full_round(style: Style) -> RoundScene:
    game = Game.new("scopa", 2, rules={"re_bello": "on", "napola": "on", "asso_bello": "on"}, seed=5)
    rng = random.Random(5)
    while not game.results:
        game.apply(rng.choice(game.legal_moves()))
    return round_scene(game.results[0], ["Anna 🙂", "Bruno"], style.value, "scopa", 11)


@pytest.mark.parametrize("style", list(Style))
@pytest.mark.parametrize("lang", ["it", "en"])
def test_pictures_fit_a_phone_and_the_photo_limit(style: Style, lang: str) -> None:
    hand = cards("1D 2D 3D 4D 5D 6D 7D 8D 9D 10D")
    pictures = [
        table_picture(_crowded_table(style), lang),
        table_picture(TableScene(style, "scopa", 1, 11, 0, (), 30, (), None), lang),
        table_picture(TableScene(style, "escoba", 1, 15, 0, (), 27, (), "Anna",
                                 LastPlay("Bruno", None, cards("1D 2C 5S 7B"), True)), lang),
        hand_picture(HandScene(style, hand, frozenset(hand[:4]), True), lang),
        hand_picture(HandScene(style, (), frozenset(), False), lang),
        round_picture(_full_round(style), lang),
        lobby_picture(lobby_scene(style.value), lang),
        review_picture(_costly(style.value), lang),
    ]
    for picture in pictures:
        assert picture.width <= 1280
        data = photo_bytes(picture)
        assert len(data) <= MAX_PHOTO
        assert Image.open(io.BytesIO(data)).size == picture.size


def _costly(deck: str = "napoletane", best: str = "10D:2S+8B") -> ReviewScene:
    play = GradedPlay(0, 24, 0, Move.parse("6D:6B"), Move.parse(best), 1.0, 3, cards("2S 5D 6B 7B 8B"),
                      cards("6D 8S 10D"))
    return review_scene(deck, Review("scopa", 2, 1, (play,)), play)


def test_a_costly_play_shows_the_position_then_the_move_played_and_the_better_one() -> None:
    picture = review_picture(_costly(), "en")
    assert picture.width == 640
    other = review_picture(_costly(best="8S:8B"), "en")
    assert picture.size == other.size
    title = (0, 0, picture.width, 52)
    assert ImageChops.difference(picture.crop(title), other.crop(title)).getbbox() is None, "the same play"
    assert ImageChops.difference(picture, other).getbbox() is not None, "another better move"
    assert ImageChops.difference(picture, review_picture(_costly(), "es")).getbbox() is not None


def test_a_hand_dims_the_cards_that_cannot_be_played() -> None:
    hand = cards("1D 5C")
    both = hand_picture(HandScene(Style.NAPOLETANE, hand, frozenset(hand), True))
    one = hand_picture(HandScene(Style.NAPOLETANE, hand, frozenset(hand[:1]), True))
    half = both.width // 2
    left = (0, 0, half, both.height)
    right = (half, 0, both.width, both.height)
    assert ImageChops.difference(both.crop(left), one.crop(left)).getbbox() is None
    darker = ImageStat.Stat(one.crop(right).convert("L")).mean[0]
    assert darker < ImageStat.Stat(both.crop(right).convert("L")).mean[0] - 10


def test_names_lose_only_the_characters_the_font_lacks() -> None:
    assert printable("CPU 🙂 2") == "CPU 2"
    assert printable("Nicolò Ñuñez") in ("Nicolò Ñuñez", "Nicolo Nunez")


def test_without_a_system_font_accents_are_folded_not_boxed(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.pictures import text

    missing = {False: Path("/nonexistent/a.ttf"), True: Path("/nonexistent/b.ttf")}
    monkeypatch.setattr(text, "_FACES", missing)
    for cached in (text.font, text._drawable, text._missing_mask):
        cached.cache_clear()
    try:
        assert text.printable("Il tavolo è vuoto 🙂") == "Il tavolo e vuoto"
        assert text.stroke_for(26, True) == 1
        assert table_picture(_crowded_table(Style.FRENCH), "it").width <= 1280
    finally:
        monkeypatch.undo()
        for cached in (text.font, text._drawable, text._missing_mask):
            cached.cache_clear()


ALLOWED_SESSIONS_IMPORT = "from ..sessions import HandView, MovePlayed, PlayLine, RoundEnded, TableView"


def test_pictures_depend_on_the_engine_catalogue_and_session_views_only() -> None:
    for path in Path("bot/pictures").glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "storage" not in source and "adapters" not in source, path
        for line in source.splitlines():
            if line.startswith("from ..sessions"):
                assert line == ALLOWED_SESSIONS_IMPORT, path


def test_picture_words_exist_in_every_language() -> None:
    for lang in ("it", "en", "es"):
        words = json.loads((Path("bot/i18n") / f"{lang}.pictures.json").read_text(encoding="utf-8"))
        assert all(f"deck.{style.value}" in catalogue(lang) for style in Style)
        assert set(words) <= set(catalogue("it")) & set(catalogue("en")) & set(catalogue("es"))


# ---- stored matches ----------------------------------------------------------------------------


def _played(variant: str, players: int, seed: int) -> tuple[Game, list[list[tuple[Card, ...]]]]:
    """A whole match, and the table after each play of each round."""
    game = Game.new(variant, players, teams=players == 4, seed=seed)
    rng = random.Random(seed)
    tables: list[list[tuple[Card, ...]]] = [[tuple(game.table)]]
    while not game.finished:
        number = game.round_number
        game.apply(rng.choice(game.legal_moves()))
        if game.round_number == number and not game.finished:
            tables[-1].append(tuple(game.table))
        elif not game.finished:
            tables.append([tuple(game.table)])
    return game, tables


@pytest.mark.parametrize(("variant", "players"), [("scopa", 2), ("scopone_scientifico", 4), ("escoba", 3)])
def test_a_record_replays_to_the_tables_of_the_match(variant: str, players: int) -> None:
    game, tables = _played(variant, players, 11)
    record = json.loads(record_line(game))
    for number, seen in enumerate(tables, 1):
        starting = sum(1 for play in record["rounds"][number - 1]["plays"] if play["card"] is None)
        for play, table in enumerate(seen[:6]):
            scene = record_scene(record, Position(number, play + starting), Style.NAPOLETANE, "en")
            assert isinstance(scene, TableScene)
            assert scene.table == table and scene.round_number == number
        end = record_scene(record, Position(number), Style.NAPOLETANE)
        assert isinstance(end, RoundScene) and end.result == game.results[number - 1]


def test_the_last_play_of_a_round_shows_the_table_it_left() -> None:
    game, _ = _played("scopa", 2, 3)
    record = json.loads(record_line(game))
    plays = record["rounds"][0]["plays"]
    scene = record_scene(record, Position(1, len(plays)), Style.TREVISANE, "en")
    assert isinstance(scene, TableScene)
    assert scene.stock == 0 and scene.to_play is None
    assert scene.last_play is not None and scene.last_play.card == Card.parse(plays[-1]["card"])
    assert sum(side.taken or 0 for side in scene.sides) + len(scene.table) == 40


def test_a_record_refuses_what_it_does_not_have(tmp_path: Path) -> None:
    game, _ = _played("scopa", 2, 4)
    record = json.loads(record_line(game))
    with pytest.raises(RecordError, match="no round 99"):
        record_scene(record, Position(99), Style.FRENCH)
    with pytest.raises(RecordError, match="no play 500"):
        record_scene(record, Position(1, 500), Style.FRENCH)
    tampered = json.loads(record_line(game))
    tampered["rounds"][0]["plays"][0]["card"] = tampered["rounds"][0]["plays"][1]["card"]
    with pytest.raises(RecordError, match="not a legal play"):
        record_scene(tampered, Position(1, 3), Style.FRENCH)
    no_seed = {key: value for key, value in record.items() if key != "seed"}
    with pytest.raises(RecordError, match="no seed"):
        record_scene(no_seed, Position(1), Style.FRENCH)
    junk = tmp_path / "junk.jsonl"
    junk.write_text("{not json\n")
    with pytest.raises(RecordError, match="line 1: not JSON"):
        read_records(junk)


# ---- the command -----------------------------------------------------------------------------------


@pytest.fixture
def records(tmp_path: Path) -> Path:
    path = tmp_path / "matches.jsonl"
    games = [_played("scopa", 2, seed)[0] for seed in (1, 2)]
    path.write_text("".join(record_line(game) + "\n" for game in games), encoding="utf-8")
    return path


def _is_png(path: Path, width_at_most: int = 1280) -> bool:
    data = path.read_bytes()
    image = Image.open(io.BytesIO(data))
    return data.startswith(b"\x89PNG") and image.width <= width_at_most and len(data) <= MAX_PHOTO


def test_the_command_draws_a_deck_and_a_stored_table(records: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "deck.png"
    assert cli_main(["picture", "--deck", "bergamasche", "--out", str(out)]) == 0
    assert _is_png(out)
    table = tmp_path / "table.png"
    assert cli_main(["picture", "--record", str(records), "--match", "2", "--round", "1", "--play", "5",
                     "--style", "siciliane", "--lang", "en", "--out", str(table)]) == 0
    assert _is_png(table)
    end = tmp_path / "end.png"
    assert cli_main(["picture", "--record", str(records), "--round", "1", "--out", str(end)]) == 0
    assert _is_png(end)
    assert Image.open(end).size != Image.open(table).size
    seat = tmp_path / "seat.png"
    assert cli_main(["picture", "--record", str(records), "--round", "1", "--play", "2", "--seat", "1",
                     "--lang", "es", "--out", str(seat)]) == 0
    assert _is_png(seat) and Image.open(seat).width == 640


@pytest.mark.parametrize("args", [
    ["--record", "{missing}", "--out", "{out}"],
    ["--record", "{records}", "--round", "0", "--out", "{out}"],
    ["--record", "{records}", "--round", "1", "--play", "-1", "--out", "{out}"],
    ["--record", "{records}", "--match", "3", "--out", "{out}"],
    ["--record", "{records}", "--round", "one", "--out", "{out}"],
    ["--record", "{records}", "--style", "tarocchi", "--out", "{out}"],
    ["--deck", "tarocchi", "--out", "{out}"],
    ["--record", "{records}", "--play", "1", "--seat", "3", "--out", "{out}"],
    ["--record", "{records}", "--seat", "1", "--out", "{out}"],
    ["--deck", "french"],
    ["--out", "{out}"],
    ["--deck", "french", "--record", "{records}", "--out", "{out}"],
])
def test_the_command_refuses_bad_input_in_one_line(args: list[str], records: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.png"
    filled = [a.format(missing=tmp_path / "none.jsonl", records=records, out=out) for a in args]
    assert cli_main(["picture", *filled]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("scopa-bot picture: ")
    assert not out.exists()


def test_a_round_ended_by_fuori_says_who_declared_it() -> None:
    game, _ = _played("scopa", 2, 9)
    plain = round_picture(round_scene(game.results[0], ["A", "B"]), "en")
    fuori = round_picture(round_scene(game.results[0], ["A", "B"], fuori_name="Anna"), "en")
    assert fuori.height > plain.height


def test_round_results_from_storage_draw_as_well() -> None:
    game, _ = _played("scopa", 2, 9)
    stored = RoundResult.from_dict(json.loads(json.dumps(game.results[0].to_dict())))
    picture = round_picture(round_scene(stored, ["A", "B"], "napoletane"), "it")
    assert picture.width <= 1280


# ---- a player's own picture, and hands on a phone ------------------------------------------------

PHONE = 320
"""A photo in a chat on a phone is about 320 pixels wide."""
LEGIBLE_CARD = 54
"""A card's corner value is set at 19% of its width: at 54 pixels wide (at phone size) that is a
10-pixel figure, as large as the smallest words Telegram writes under a photo."""


def _corner_in_sight(picture: Image.Image, scene: HandScene, laid: Row, index: int, top: int) -> bool:
    """Whether the corner index (value and suit) of the card at `index` shows unchanged."""
    card, style = scene.cards[index], scene.style
    faded = scene.my_turn and card not in scene.playable
    face = dimmed(card, style, laid.width) if faded else card_image(card, style, laid.width)
    w, h = laid.width, face.height
    box = (round(w * 0.04), round(h * 0.04), round(w * 0.2), round(h * 0.25))
    x = round(laid.xs(index + 1)[index])
    drawn = picture.convert("RGB").crop((x + box[0], top + box[1], x + box[2], top + box[3]))
    return ImageChops.difference(drawn, face.convert("RGB").crop(box)).getbbox() is None


def _readable_at_phone_size(picture: Image.Image, scene: HandScene, laid: Row, top: int) -> None:
    scale = PHONE / picture.width
    assert laid.width * scale >= LEGIBLE_CARD
    assert min(laid.step, laid.width) >= CORNER_SHOWN * laid.width
    for index, card in enumerate(scene.cards):
        assert _corner_in_sight(picture, scene, laid, index, top), card


@pytest.mark.parametrize("count", [3, 5, 9, 10])
def test_every_card_of_a_long_hand_reads_on_a_phone(count: int) -> None:
    hand = cards("1D 3C 5S 7B 8D 9C 10S 2B 6D 4C")[:count]
    scene = HandScene(Style.NAPOLETANE, hand, frozenset(hand[:2]), True)
    picture = hand_picture(scene, "it")
    _readable_at_phone_size(picture, scene, hand_module.card_row(scene), hand_module.TOP)
    assert len(photo_bytes(picture)) <= MAX_PHOTO


def test_a_hand_waiting_for_its_turn_is_shown_plainly_and_says_who_plays() -> None:
    hand = cards("1D 5C 9S")
    waiting = hand_picture(HandScene(Style.NAPOLETANE, hand, frozenset(), False, "Bruno"), "en")
    playing = hand_picture(HandScene(Style.NAPOLETANE, hand, frozenset(hand), True), "en")
    cards_area = (0, hand_module.TOP, waiting.width, waiting.height)
    assert ImageChops.difference(waiting.crop(cards_area), playing.crop(cards_area)).getbbox() is None
    plain = hand_picture(HandScene(Style.NAPOLETANE, hand, frozenset(), False), "en")
    assert ImageChops.difference(waiting.crop((0, 0, waiting.width, hand_module.TOP)),
                                 plain.crop((0, 0, plain.width, hand_module.TOP))).getbbox() is not None


def test_a_hand_scene_names_who_is_to_play_only_while_waiting() -> None:
    hand = cards("1D 5C 9S")
    mine = hand_scene(HandView(1, 3, 0, "napoletane", hand, (), True, (), False), "Anna")
    theirs = hand_scene(HandView(1, 3, 0, "napoletane", hand, (), False, (), False), "Bruno")
    assert mine.waiting_for is None and theirs.waiting_for == "Bruno"


def _hand_view(seat: int, hand: tuple[Card, ...], my_turn: bool, **changes: object) -> HandView:
    choices = tuple(CardChoice(card, ()) for card in hand[:2]) if my_turn else ()
    values: dict[str, object] = dict(game_id=1, version=12, seat=seat, deck_style="piacentine", hand=hand,
                                     table=cards("1D 4C 7S 10B"), my_turn=my_turn, choices=choices,
                                     finished=False)
    values.update(changes)
    return HandView(**values)  # type: ignore[arg-type]


def _two_players(**changes: object) -> TableView:
    values: dict[str, object] = dict(
        variant="scopa", seats=_seats(["Anna", "Bruno"]), sides=((0,), (1,)), side_names=("Anna", "Bruno"),
        hand_counts=(3, 3), captured_counts=(6, 4), scope=(1, 0), totals=(3, 5), to_play=0)
    values.update(changes)
    return _table_view(**values)


def test_a_seat_scene_holds_the_table_and_the_hand_and_whose_turn_it_is() -> None:
    hand = cards("2D 6C 9B")
    mine = seat_scene(_two_players(), _hand_view(0, hand, True))
    assert mine.table == table_scene(_two_players()) and mine.style is Style.PIACENTINE
    assert mine.hand.cards == hand and mine.hand.my_turn and mine.hand.playable == set(hand[:2])
    theirs = seat_scene(_table_view(), _hand_view(0, hand, False))
    assert theirs.hand.waiting_for == "Bruno" and theirs.table.to_play == "Bruno"
    timed_out = LastPlay("Bruno", Card.parse("7C"), (), False, timed_out=True)
    assert seat_scene(_table_view(), _hand_view(0, hand, False), last=timed_out).table.last_play == timed_out
    assert hash(mine) == hash(seat_scene(_two_players(), _hand_view(0, hand, True)))


def _seat_pictures(style: Style) -> list[tuple[SeatScene, Image.Image]]:
    long_hand = cards("1D 2D 3D 4D 5D 6D 7D 8D 9D 10D")
    scopone = cards("1C 3S 5B 7D 8C 9S 10B 2D 6C")
    crowded = _crowded_table(style)
    last = LastPlay("Giocatrice 🙂", Card.parse("7D"), cards("1S 2S 3S 4S 5B 6B"), True, timed_out=True)
    scenes = [
        seat_scene(_two_players(deck_style=style.value), _hand_view(0, cards("2D 6C 9B"), True)),
        seat_scene(_two_players(deck_style=style.value, table=(), last_plays=()),
                   _hand_view(1, cards("2D 6C"), False)),
        seat_scene(_table_view(deck_style=style.value), _hand_view(0, scopone, True)),
        seat_scene(_table_view(deck_style=style.value), _hand_view(2, scopone, False)),
        SeatScene(TableScene(style, "scopone", 3, 11, 0, crowded.table, 0, crowded.sides[:2], "Anna", last,
                             None, 0), HandScene(style, long_hand, frozenset(long_hand[::2]), True)),
        seat_scene(_table_view(deck_style=style.value, status="finished", winner=1),
                   _hand_view(0, (), False, finished=True)),
    ]
    return [(scene, seat_picture(scene, lang)) for scene in scenes for lang in ("it", "en")]


@pytest.mark.parametrize("style", list(Style))
def test_a_seat_picture_draws_every_game_within_the_photo_limit(style: Style) -> None:
    for scene, picture in _seat_pictures(style):
        assert picture.width == 640
        assert len(photo_bytes(picture)) <= MAX_PHOTO
        if scene.hand.cards:
            _readable_at_phone_size(picture, scene.hand, seat_module.hand_row(scene),
                                    seat_module.hand_top(scene))
        assert seat_module.TABLE_CARD * PHONE / picture.width >= LEGIBLE_CARD


def test_a_seat_picture_dims_only_on_the_players_turn() -> None:
    hand = cards("2D 6C 9B")
    view = _table_view()
    playing = seat_picture(SeatScene(table_scene(view), HandScene(Style.PIACENTINE, hand, frozenset(hand[:1]),
                                                                  True)))
    waiting = seat_picture(SeatScene(table_scene(view), HandScene(Style.PIACENTINE, hand, frozenset(), False,
                                                                  "Bruno")))
    scene = SeatScene(table_scene(view), HandScene(Style.PIACENTINE, hand, frozenset(), False, "Bruno"))
    laid, top = seat_module.hand_row(scene), seat_module.hand_top(scene)
    last = round(laid.xs(3)[2])
    area = (last + 30, top + 40, last + 100, top + 140)
    darker = ImageStat.Stat(playing.crop(area).convert("L")).mean[0]
    assert darker < ImageStat.Stat(waiting.crop(area).convert("L")).mean[0] - 10


def test_a_play_made_when_time_ran_out_says_so() -> None:
    play = LastPlay("Luca", Card.parse("7C"), cards("7D"), False)
    plain = table_scene(_table_view(), last=play)
    timed_out = table_scene(_table_view(), last=LastPlay("Luca", Card.parse("7C"), cards("7D"), False, True))
    assert table_picture(timed_out, "en").height > table_picture(plain, "en").height
    hand = HandScene(Style.PIACENTINE, cards("2D"), frozenset(), False, "Bruno")
    drawn = seat_picture(SeatScene(timed_out, hand), "en")
    assert drawn.size == seat_picture(SeatScene(plain, hand), "en").size
    assert ImageChops.difference(drawn, seat_picture(SeatScene(plain, hand), "en")).getbbox() is not None
    assert "Luca" in catalogue("en")["pictures.timed_out"].format(name="Luca")


def test_a_lobby_shows_the_deck_chosen_and_no_hand() -> None:
    scene = lobby_scene("bergamasche")
    assert scene.style is Style.BERGAMASCHE and lobby_scene("no-such-deck").style is Style.NAPOLETANE
    assert not hasattr(scene, "cards") and not hasattr(scene, "my_turn")
    pictures = {style: photo_bytes(lobby_picture(lobby_scene(style.value), "en")) for style in Style}
    assert len(set(pictures.values())) == len(Style)
    assert lobby_picture(scene, "it").tobytes() != lobby_picture(scene, "en").tobytes(), "the deck's name"


def test_a_deck_drawn_ahead_has_every_size_the_pictures_use() -> None:
    from bot.pictures import cards as card_faces
    from bot.pictures import lobby, seat, table, warm_up

    warm_up(Style.SICILIANE)
    kept = card_faces._faces[(Card.parse("7D"), Style.SICILIANE)]
    assert {table.CARD, table.SMALL, hand_module.CARD, seat.TABLE_CARD, seat.PLAY_CARD, seat.HAND_CARD,
            lobby.CARD} <= kept.keys()
