"""Duplicate play: the same deals at every table of a round (checked from the match records),
seats turned at every other table, and each player's points split into the cards' part and the
play's part against the others who held the same hand."""

from __future__ import annotations

from typing import Any

import pytest
from babel.numbers import format_decimal

from bot.engine.record import parse_records
from bot.pictures.tournament import StandingsScene
from bot.render.tournament import tournament_picture, tournament_scene, tournament_text
from bot.sessions import Sessions
from bot.sessions.duplicate import Holding, board_seed, compare, turned
from bot.sessions.tournament_play import TournamentRefused, view_of
from bot.sessions.tournaments import Format, Status, TournamentView, parse_options

from ..sessions_helpers import ALICE, BOB, CARLA, CHAT, DINO, open_memory_sessions
from .test_tournament_play import VARIANTS, _play_out, _signed_up


def test_the_cards_part_is_what_the_others_made_of_the_same_hand() -> None:
    lines = compare([
        Holding("alice", 1, 0, 9), Holding("bob", 1, 1, 3),
        Holding("carla", 1, 0, 5), Holding("dino", 1, 1, 6),
    ])
    by_user = {line.user: line for line in lines}
    assert (by_user["alice"].cards, by_user["alice"].play) == (5, 4)
    assert (by_user["carla"].cards, by_user["carla"].play) == (9, -4)
    assert (by_user["bob"].cards, by_user["bob"].play) == (6, -3)
    assert (by_user["dino"].cards, by_user["dino"].play) == (3, 3)
    assert [line.user for line in lines] == ["alice", "dino", "bob", "carla"], "best play first"
    assert all(line.cards + line.play == line.score for line in lines)


def test_three_holders_of_a_hand_are_each_compared_with_the_two_others() -> None:
    lines = {line.user: line for line in compare(
        [Holding("a", 1, 0, 6), Holding("b", 1, 0, 3), Holding("c", 1, 0, 0)])}
    assert (lines["a"].cards, lines["a"].play) == (1.5, 4.5)
    assert (lines["c"].cards, lines["c"].play) == (4.5, -4.5)


def test_a_hand_nobody_else_held_is_all_the_cards() -> None:
    (line,) = compare([Holding("a", 1, 0, 7)])
    assert (line.score, line.cards, line.play) == (7, 7, 0)


def test_a_board_is_secret_to_the_tournament_and_new_each_round() -> None:
    assert board_seed(12345, 1) == board_seed(12345, 1)
    assert board_seed(12345, 1) != board_seed(12345, 2) != board_seed(54321, 2)
    assert [turned(table) for table in (1, 2, 3, 4)] == [False, True, False, True]


def test_a_duplicate_event_takes_rounds_and_deals_and_nothing_else() -> None:
    options = parse_options(["rounds=2", "deals=3", "scopa"], VARIANTS, event=True)
    assert (options.format, options.swiss_rounds, options.deals, options.duplicate) == (
        Format.DUPLICATE, 2, 3, True)
    for wrong in (["swiss=2"], ["deals=9"], ["rounds=0"], ["target=11"]):
        with pytest.raises(ValueError):
            parse_options(wrong, VARIANTS, event=True)


async def _records(sessions: Sessions, game_id: str | None) -> dict[str, Any]:
    assert game_id is not None
    line = await sessions.store.match_record(int(game_id))
    assert line is not None
    record: dict[str, Any] = parse_records(line)[0]
    return record


async def test_a_duplicate_event_deals_both_tables_the_same_cards_and_splits_cards_from_play() -> None:
    sessions = await open_memory_sessions()
    users = [ALICE, BOB, CARLA, DINO]
    view = await sessions.tournaments.open(CHAT, ALICE, ["deals=2"], VARIANTS, event=True)
    assert view.format is Format.DUPLICATE and view.duplicate and view.deals == 2
    for user in users[1:]:
        await sessions.tournaments.join(CHAT, user)
    await sessions.tournaments.start(CHAT, ALICE)
    await _play_out(sessions, users)
    (tournament,) = await _finished(sessions)
    first, second = tournament.played[0].pairings
    assert first.hands == (0, 1) and second.hands == (1, 0), "seats turned at the second table"
    one, two = await _records(sessions, first.match), await _records(sessions, second.match)
    assert one["seed"] == two["seed"]
    compared = min(len(one["rounds"]), len(two["rounds"]))
    assert compared >= 2, "each table played the duplicate deals"
    for r in range(2):
        assert one["rounds"][r]["deals"] == two["rounds"][r]["deals"], f"deal {r + 1} the same"
    hand_zero = {first.first, str(second.second)}
    assert {line.user for line in tournament.duplicate_lines} == {u.key for u in users}
    by_user = {line.user: line for line in tournament.duplicate_lines}
    a, b = (by_user[u] for u in hand_zero)
    assert (a.cards, b.cards) == (b.score, a.score), "each compared with the other holder of hand 0"
    assert a.play == -b.play
    assert tournament.champion == tournament.duplicate_lines[0].user
    assert tournament.standings[0].user == tournament.champion, "ranked by the play"
    text = tournament_text(tournament, "en")
    assert "from the cards" in text and "from the play" in text
    assert "every table of a round is dealt the same cards" in text


async def _finished(sessions: Sessions) -> list[TournamentView]:
    """Every tournament of the store, as the front-ends see them."""
    store: Any = sessions.store
    return [view_of(row) for row in store._tournaments().values()]


async def test_a_duplicate_knockout_deals_each_round_its_own_board_and_keeps_its_winners() -> None:
    sessions = await open_memory_sessions()
    users = [ALICE, BOB, CARLA, DINO]
    await _signed_up(sessions, ["duplicate", "deals=1"], users)
    await sessions.tournaments.start(CHAT, ALICE)
    await _play_out(sessions, users)
    (view,) = await _finished(sessions)
    assert view.status is Status.FINISHED and view.format is Format.KNOCKOUT
    semi, final = view.played
    seeds = [(await _records(sessions, p.match))["seed"] for p in (*semi.pairings, *final.pairings)]
    assert seeds[0] == seeds[1] != seeds[2], "one board a round"
    assert view.champion == final.pairings[0].winner, "a knockout is still won by its matches"


async def test_an_unknown_word_for_a_duplicate_event_is_refused_and_opens_nothing() -> None:
    sessions = await open_memory_sessions()
    with pytest.raises(TournamentRefused) as refused:
        await sessions.tournaments.open(CHAT, ALICE, ["swiss=3"], VARIANTS, event=True)
    assert (refused.value.code, refused.value.detail) == ("bad_event_option", "swiss=3")
    assert await sessions.tournaments.current(CHAT) is None
    await _signed_up(sessions, ["duplicate"], [ALICE, BOB])
    current = await sessions.tournaments.current(CHAT)
    assert current is not None and current.duplicate and current.format is Format.KNOCKOUT


async def test_a_duplicate_events_picture_ranks_by_the_play_and_shows_the_cards_under_each_name() -> None:
    sessions = await open_memory_sessions()
    users = [ALICE, BOB, CARLA, DINO]
    await sessions.tournaments.open(CHAT, ALICE, ["deals=1"], VARIANTS, event=True)
    for user in users[1:]:
        await sessions.tournaments.join(CHAT, user)
    await sessions.tournaments.start(CHAT, ALICE)
    await _play_out(sessions, users)
    (view,) = await _finished(sessions)
    scene = tournament_scene(view, "it")
    assert isinstance(scene, StandingsScene)
    by_name = {line.name: line for line in scene.lines}
    for line in view.duplicate_lines:
        drawn = by_name[view.name_of(line.user)]
        assert drawn.figure == format_decimal(line.play, "+0.#;−0.#", locale="it"), "the play's part"
        assert drawn.detail.startswith(f"{line.score} pt · carte ")
    assert [line.name for line in scene.lines] == [view.name_of(d.user) for d in view.duplicate_lines]
    assert tournament_picture(view, "it") is not None
