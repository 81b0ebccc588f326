"""The coach's reasons: facts that hold of the played move and not of the better one, as data."""

from __future__ import annotations

from dataclasses import replace

from bot.ai.review import Fault, Reason, review_tasks, review_turn
from bot.ai.review.facts import reason
from bot.ai.review.grade import NOISE, Grade
from bot.ai.review.replay import Turn
from bot.engine import Card
from bot.render.review import reason_text

from .test_review import cards, move, position, records


def codes(text: str) -> tuple[Card, ...]:
    return tuple(cards(text))


def test_more_denari_counts_the_table_never_the_denaro_played() -> None:
    # 9D takes 9B, 2B takes 2S: the only denaro either move touches is the one in the hand.
    view = position("9D 2B", "10S 10C", "9B 2S 4C", fill=0)
    assert reason(view, move("2B:2S"), move("9D:9B")).fault is not Fault.DENARI
    view = position("9B 2B", "10S 10C", "9D 2S 4C", fill=0)
    found = reason(view, move("2B:2S"), move("9B:9D"))
    assert found.fault is Fault.DENARI and found.cards == codes("9D")
    assert reason(view, move("9B:9D"), move("2B:2S")).fault is not Fault.DENARI


def test_sevens_settebello_and_cards_name_the_cards_only_the_better_move_takes() -> None:
    view = position("7B 4B", "10S 10C", "7S 4C 1C", fill=0)
    found = reason(view, move("4B:4C"), move("7B:7S"))
    assert found.fault is Fault.SEVENS and found.cards == codes("7S")
    assert reason(view, move("7B:7S"), move("4B:4C")).fault is not Fault.SEVENS
    view = position("7B 4B", "10S 10C", "7D 4C 1C", fill=0)
    found = reason(view, move("4B:4C"), move("7B:7D"))
    assert found.fault is Fault.SETTEBELLO and found.cards == codes("7D")
    assert reason(view, move("7B:7D"), move("4B:4C")).fault is not Fault.SETTEBELLO
    view = position("5B 3B", "10D 10S 10C", "2S 3C 6C", fill=0)
    found = reason(view, move("3B:3C"), move("5B:2S+3C"))
    assert found.fault is Fault.PRIMIERA and found.cards == codes("2S"), "the player's first spade"
    assert reason(view, move("5B:2S+3C"), move("3B:3C")).fault is not Fault.PRIMIERA


def test_a_missed_scopa_names_the_table_and_a_left_sweep_the_cards_left() -> None:
    view = position("5D 2B 9B", "1S 8C 10D", "2S 3C", fill=24)
    found = reason(view, move("2B:2S"), move("5D:2S+3C"))
    assert found.fault is Fault.MISSED_SCOPA and set(found.cards) == set(codes("2S 3C"))
    assert reason(view, move("5D:2S+3C"), move("2B:2S")).fault is not Fault.MISSED_SCOPA
    view = position("1B 8S", "3C 9D", "2B")
    found = reason(view, move("1B"), move("8S"))
    assert found.fault is Fault.LEFT_SWEEP and found.cards == codes("1B 2B") and found.ranks == (3,)
    assert reason(view, move("8S"), move("1B")).fault is not Fault.LEFT_SWEEP


def test_a_reason_is_data_with_a_code_and_the_cards_it_names() -> None:
    found = Reason(Fault.LEFT_SWEEP, codes("1B 2B"), (3,), 0.75, codes("1B 2B"))
    assert found.data() == {"code": "left_sweep", "cards": ["1B", "2B"], "ranks": [3], "chance": 0.75}
    assert Reason(Fault.DENARI, cards=codes("9D")).data() == {"code": "denari", "cards": ["9D"]}


def test_equivalent_moves_get_no_grade_and_the_word_equivalent(monkeypatch: object) -> None:
    import bot.ai.review as review
    view = position("8C 8S 2B", "10D 10S 10C", "4B", fill=0)
    played, other = move("8C"), move("8S")

    def even(view_: object, played_: object, seed: str, searches: int) -> Grade:
        return Grade(played, 0.0, 3, 8 * searches, other)

    setattr(review, "grade", even)  # noqa: B010
    try:
        graded = review_turn((Turn(0, 0, view, played), "s", 8))
    finally:
        from bot.ai.review.grade import grade
        setattr(review, "grade", grade)  # noqa: B010
    assert graded.loss == 0 and graded.best == played
    assert graded.reason is not None and graded.reason.fault is Fault.EQUIVALENT
    assert graded.reason.cards == codes("8S")
    for lang, word in (("en", "equivalent"), ("it", "equivalente"), ("es", "equivalente")):
        said = reason_text(graded, lang, "scopa") or ""
        assert word in said and "F🏆" not in said, "never equivalent to the move played itself"
    assert NOISE >= 2


def test_two_moves_the_search_finds_worth_the_same_are_called_equivalent_and_neither_is_graded() -> None:
    # Laying 8🏆 or 8🗡️ with no denaro, sweep or seven at stake: the search's own valuation, not a stub.
    view = position("8C 8S", "1S 9C 10D", "1B 5D", fill=20)
    graded = [review_turn((Turn(0, 0, view, move(code)), "same", 128)) for code in ("8C", "8S")]
    assert [play.loss for play in graded] == [0, 0] and all(play.best == play.played for play in graded)
    assert any(play.reason is not None and play.reason.fault is Fault.EQUIVALENT for play in graded)
    for play in graded:
        if play.reason is not None:
            assert "equivalent" in (reason_text(play, "en", "scopa") or "")


def test_every_costly_play_of_simulated_matches_has_a_fact_that_tells_the_moves_apart() -> None:
    costly = 0
    for variant, players, count in (("scopa", 2, 20), ("scopone_scientifico", 4, 5)):
        for record in records(variant, players, count, "reasons", round_limit="1"):
            for turn, seed, searches in review_tasks(record, 4):
                play = review_turn((turn, seed, searches))
                if play.loss < 0.3:
                    continue
                costly += 1
                assert play.reason is not None and play.reason.fault is not Fault.BETTER, play
                assert play.line()["reason"]["code"] == play.reason.fault.value
                reverse = reason(turn.view, play.best, play.played)
                swapped = replace(play, played=play.best, best=play.played, reason=reverse)
                said = reason_text(play, "en", variant)
                assert said and said != reason_text(swapped, "en", variant), (play, reverse)
    assert costly >= 10


def test_a_card_laid_where_the_next_player_takes_it_is_named_with_the_rank_that_takes_it() -> None:
    view = position("10S 4C", "10B 6D", "2S 5S", fill=0)
    found = reason(view, move("10S"), move("4C"))
    assert found.fault is Fault.LEFT_TAKE and found.cards == codes("10S") and found.ranks == (10,)
    assert found.data() == {"code": "left_take", "cards": ["10S"], "ranks": [10], "chance": 1.0}
    assert reason(view, move("4C"), move("10S")).fault is not Fault.LEFT_TAKE
    best = review_turn((Turn(0, 0, view, move("4C")), "t", 8))
    graded = replace(best, played=move("10S"), best=move("4C"), reason=found, loss=1.0)
    for lang in ("it", "en", "es"):
        said = reason_text(graded, lang, "scopa") or ""
        assert said and "{" not in said and "4" in said, said


def test_a_hint_between_two_moves_worth_the_same_says_either_will_do() -> None:
    from bot.ai.review import hint
    from bot.render.review import hint_text

    view = position("8C 8S", "1S 9C 10D", "1B 5D", fill=20)
    given = hint((view, "same", 24))
    assert {given.move, given.other} == {move("8C"), move("8S")}
    assert given.reason is not None and given.reason.fault is Fault.EQUIVALENT
    words = {"en": "either", "it": "indifferente", "es": "da igual"}
    for lang, word in words.items():
        assert word in hint_text(given, lang, "scopa", "napoletane")
