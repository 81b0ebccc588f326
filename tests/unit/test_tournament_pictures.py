from typing import Any

from bot.pictures import tournament
from bot.pictures.tournament import (
    PHONE,
    BracketScene,
    Slot,
    StandingLine,
    StandingsScene,
    Table,
    bracket_layout,
    bracket_picture,
    bracket_plan,
    bracket_size,
    columns,
    standings_picture,
    standings_plan,
)
from bot.render.tournament import bracket_scene, standings_scene, tournament_picture
from bot.sessions.tournaments import Entrant, Format, Pairing, Round, StandingRow, Status, TournamentView

LONG = "Bartolomeo Giovannangeli di Castellammare"


def test_the_bracket_fills_the_field_up_to_a_power_of_two_with_a_column_a_round() -> None:
    assert [bracket_size(n) for n in (2, 3, 4, 5, 8, 9, 16, 17, 32)] == [2, 4, 4, 8, 8, 16, 16, 32, 32]
    assert [columns(n) for n in (2, 4, 5, 16, 32)] == [1, 2, 3, 4, 5]


def _seated(field: int, rounds: int, champion: str | None = None) -> BracketScene:
    tables = bracket_size(field) // 2
    played = tuple(tuple(Table(Slot(f"{LONG} {i}", 11, True), Slot(LONG, 4)) for i in range(tables >> r))
                   for r in range(rounds))
    return BracketScene(LONG, field, played, champion)


def test_every_field_from_2_to_32_gets_a_picture_of_its_planned_size_as_wide_as_any() -> None:
    for field in (2, 3, 5, 8, 13, 32):
        for rounds in range(1, columns(field) + 1):
            champion = LONG if rounds == columns(field) else None
            picture = bracket_picture(_seated(field, rounds, champion), "en")
            assert picture.size == bracket_layout(field, rounds, champion is not None)
            assert picture.width == 640
    assert bracket_layout(16)[1] > bracket_layout(8)[1]
    assert bracket_layout(4)[1] == bracket_layout(8)[1], "2 tables a row each (wide), 4 two abreast"


def test_on_a_phone_no_text_of_a_bracket_or_of_standings_is_under_11_pixels() -> None:
    for field in (4, 16, 32):
        plan = bracket_plan(_seated(field, 2))
        assert plan.smallest * PHONE / plan.width >= 11
    lines = tuple(StandingLine(i + 1, LONG, 3, 1, 0, 0, 2) for i in range(32))
    for count in (5, 16, 32):
        standings = standings_plan(StandingsScene("Swiss", 1, 3, lines[:count]))
        assert standings.smallest * PHONE / standings.width >= 11


def test_every_text_drawn_is_at_least_11_pixels_at_320_in_each_language(monkeypatch: Any) -> None:
    sizes: list[int] = []
    real = tournament.write

    def write(draw: Any, xy: Any, text: str, size: int, *args: Any, **kwargs: Any) -> None:
        sizes.append(size)
        real(draw, xy, text, size, *args, **kwargs)

    monkeypatch.setattr(tournament, "write", write)
    lines = tuple(StandingLine(i + 1, LONG, 3, 1, 0, i % 2, 2) for i in range(32))
    for lang in ("it", "en", "es"):
        for field in (4, 5, 16, 32):
            for rounds in range(1, columns(field) + 1):
                champion = LONG if rounds == columns(field) else None
                picture = bracket_picture(_seated(field, rounds, champion), lang)
                assert min(sizes) * PHONE / picture.width >= 11
        for count in (5, 32):
            picture = standings_picture(StandingsScene(LONG, 1, 3, lines[:count], LONG), lang)
            assert min(sizes) * PHONE / picture.width >= 11
    assert sizes


def test_a_bracket_of_16_or_32_draws_its_last_two_rounds_table_by_table_and_earlier_ones_as_a_line() -> None:
    assert bracket_plan(_seated(32, 1)).full == (0,)
    assert (bracket_plan(_seated(32, 2)).full, bracket_plan(_seated(32, 2)).compact) == ((0, 1), ())
    late = bracket_plan(_seated(32, 4))
    assert (late.full, late.compact) == ((2, 3), (0, 1))
    assert bracket_plan(_seated(16, 4, LONG)).full == (2, 3)


def test_32_players_stay_a_picture_at_most_about_twice_as_tall_as_wide() -> None:
    for field in (16, 32):
        for rounds in range(1, columns(field) + 1):
            width, height = bracket_layout(field, rounds, rounds == columns(field))
            assert height <= 2.2 * width
    lines = tuple(StandingLine(i + 1, LONG, 3, 1, 0, 0, 2) for i in range(32))
    plan = standings_plan(StandingsScene("Swiss", 1, 3, lines))
    assert not plan.roomy and plan.height <= 2.7 * plan.width
    assert standings_plan(StandingsScene("Swiss", 1, 3, lines[:8])).roomy


def test_the_standings_grow_a_row_a_player_and_one_for_the_champion() -> None:
    lines = tuple(StandingLine(i + 1, LONG, 3, 1, 0, 0, 2) for i in range(5))
    plain = standings_picture(StandingsScene("Swiss", 1, 3, lines), "it")
    crowned = standings_picture(StandingsScene("Swiss", 3, 3, lines, LONG), "it")
    shorter = standings_picture(StandingsScene("Swiss", 1, 3, lines[:4]), "it")
    assert plain.height - shorter.height == crowned.height - plain.height > 0


def _view(fmt: Format, status: Status, played: tuple[Round, ...],
          champion: str | None = None) -> TournamentView:
    players = tuple(Entrant(f"u{i}", f"{LONG} {i}", seed=i + 1) for i in range(5))
    standings = tuple(StandingRow(i + 1, p.user, p.name, 3 - i // 2, 1, 0, 0, 4)
                      for i, p in enumerate(players))
    return TournamentView("t1", "c", "", "scopa", fmt, 3, status, "u0", None, False, players,
                          played, standings, champion)


def test_a_knockout_view_becomes_its_bracket_with_byes_winners_and_champion() -> None:
    first = Round(1, (Pairing(1, "u0", None, winner="u0"), Pairing(2, "u3", "u4", "m", "u4", (5, 11))))
    view = _view(Format.KNOCKOUT, Status.FINISHED, (first,), "u4")
    scene = bracket_scene(view, "en")
    assert scene.field == 5 and scene.champion == f"{LONG} 4"
    bye, played = scene.rounds[0]
    assert bye.bottom.name is None and bye.top.won
    assert (played.top.score, played.bottom.score, played.bottom.won, played.top.won) == (5, 11, True, False)
    picture = tournament_picture(view, "en")
    plan = bracket_plan(scene)
    assert picture is not None and picture.size == (plan.width, plan.height)


def test_a_swiss_view_becomes_its_standings_and_a_signup_has_no_picture() -> None:
    done = Round(1, (Pairing(1, "u0", "u1", "m", "u0", (11, 3)),))
    scene = standings_scene(_view(Format.SWISS, Status.RUNNING, (done,)), "es")
    assert (scene.round, scene.rounds, len(scene.lines)) == (1, 3, 5)
    assert tournament_picture(_view(Format.SWISS, Status.SIGNUP, ()), "es") is None


def test_a_round_drawn_as_a_line_counts_its_matches_and_its_byes_apart(monkeypatch: Any) -> None:
    said: list[str] = []
    real = tournament.write

    def write(draw: Any, xy: Any, text: str, size: int, *args: Any, **kwargs: Any) -> None:
        said.append(text)
        real(draw, xy, text, size, *args, **kwargs)

    monkeypatch.setattr(tournament, "write", write)
    first = (Table(Slot("A", 11, True), Slot(None)), Table(Slot("B", 11, True), Slot(None)),
             Table(Slot("C", 11, True), Slot(None)), Table(Slot("D", 11, True), Slot("E", 4)))
    second = (Table(Slot("A", 11, True), Slot("D", 3)), Table(Slot("B", 11, True), Slot("C", 9)))
    final = (Table(Slot("A", 11, True), Slot("B", 7)),)
    bracket_picture(BracketScene("Torneo", 5, (first, second, final), "A"), "en")
    assert "Round 1 of 3: 1 table played, 3 byes" in said
    said.clear()
    bracket_picture(BracketScene("Torneo", 8, (second + second, second, final), "A"), "it")
    assert "Turno 1 di 3: 4 tavoli giocati" in said
