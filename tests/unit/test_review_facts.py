"""The coach's newer reasons on hand-built positions: each holds of the played move against the
better one and not the other way round, is data for `review --json`, and is worded in it, en, es."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace

import pytest

from bot.ai.review import Fault, GradedPlay, Reason, Review
from bot.ai.review.facts import reason
from bot.engine import DECK, Card, Game, Move, Play, Rules, Seating, SeatView, Variant
from bot.render.review import reason_text

from .test_review import move
from .test_review_hints import scopone

SEED = "t"


def duel(mine: str, theirs: str, table: str, fill: int = 0, taken: str = "") -> SeatView:
    """A 2-player scopa position with seat 0 to play: its hand, the other hand, the table, a stock
    of `fill` cards; seat 0 took the cards `taken` (in pairs) this round, seat 1 every other card."""
    hands = [[Card.parse(c) for c in mine.split()], [Card.parse(c) for c in theirs.split()]]
    on_table = [Card.parse(c) for c in table.split()]
    own = [Card.parse(c) for c in taken.split()]
    placed = set(hands[0]) | set(hands[1]) | set(on_table) | set(own)
    rest = [card for card in DECK if card not in placed]
    random.Random(7).shuffle(rest)
    stock, gone = rest[:fill], rest[fill:]
    odd = len(gone) % 2
    plays = [Play(1, gone[0], (gone[1], gone[2]), False)] if odd else []
    plays += [Play(1, gone[i], (gone[i + 1],), False) for i in range(3 * odd, len(gone), 2)]
    plays += [Play(0, own[i], (own[i + 1],), False) for i in range(0, len(own) - 1, 2)]
    game = Game.restore(
        Variant.SCOPA, Rules.default(Variant.SCOPA), Seating.make("scopa", 2), 0, version=len(plays),
        round_number=1, first_dealer=1, dealer=1, totals=[0, 0], results=[], rounds=[], winner=None,
        to_play=0, hands=hands, table=on_table, stock=stock, captured=[list(own), list(gone)], scope=[0, 0],
        last_capturer=plays[-1].seat if plays else None, deals=[{"hands": [], "table": []}], plays=plays)
    return game.view(0)


def told_apart(view: SeatView, played: Move, best: Move, fault: Fault) -> Reason:
    """The reason of `played` against `best`, checked to be `fault` and not the swapped pair's."""
    found = reason(view, played, best, SEED)
    assert found.fault is fault, found
    assert reason(view, best, played, SEED).fault is not fault
    return found


def worded(view: SeatView, played: Move, best: Move, found: Reason, variant: str = "scopa") -> dict[str, str]:
    """The reason in it, en and es; each differs from the swapped pair's words."""
    play = GradedPlay(0, 0, 0, played, best, 1.0, 2, view.table, view.hand, found)
    swapped = replace(play, played=best, best=played, reason=reason(view, best, played, SEED))
    said = {}
    for lang in ("it", "en", "es"):
        text = reason_text(play, lang, variant) or ""
        assert text and "{" not in text and text != reason_text(swapped, lang, variant), text
        said[lang] = text
    return said


def test_more_cards_from_the_table_where_no_suit_of_the_primiera_is_raised() -> None:
    # Seat 0 has a five of coppe and a seven of bastoni already: 5🪵 and 2🏆 raise no suit.
    view = duel("2D 7S", "10C 4B", "5B 4D 2C", taken="5C 4S 7B 3S 8B 9D")
    found = told_apart(view, move("2D:2C"), move("7S:2C+5B"), Fault.CARDS)
    assert found.data() == {"code": "cards", "cards": ["5B"]}


def test_the_primiera_names_the_card_that_raises_a_suit() -> None:
    view = duel("5B 3B", "10D 10S 10C", "2S 3C 6C", taken="7C 1C")
    found = told_apart(view, move("3B:3C"), move("5B:2S+3C"), Fault.PRIMIERA)
    assert found.cards == (Card.parse("2S"),), "the first spade; coppe already have their seven"
    assert "2🗡️" in worded(view, move("3B:3C"), move("5B:2S+3C"), found)["en"]


def test_a_card_is_safe_to_lay_where_every_other_of_its_rank_is_seen() -> None:
    # Every other eight is gone or in the hand; a two is still unseen.
    view = duel("2D 8D", "9S", "4B 6D 10D", fill=10)
    found = told_apart(view, move("2D"), move("8D"), Fault.SAFE_LAY)
    assert found.data() == {"code": "safe_lay", "cards": ["8D"], "ranks": [8]}
    assert "every other jack" in worded(view, move("2D"), move("8D"), found)["en"]


def test_the_last_capture_when_the_stock_is_out() -> None:
    view = duel("3D 8C 1B", "5S 9D 1C", "8B 1D 4D")
    found = told_apart(view, move("1B:1D"), move("8C:8B"), Fault.LAST_CAPTURE)
    assert found.odds == (1.0, 0.0), "every card is known: the search's line is exact"
    assert found.data() == {"code": "last_capture", "cards": [], "odds": [1.0, 0.0]}
    said = worded(view, move("1B:1D"), move("8C:8B"), found)
    assert "100%" in said["en"] and "0%" in said["en"] and "F🏆" in said["en"]


def test_the_scoring_part_the_better_move_wins_more_often_with_both_chances() -> None:
    # Taking with 7🏆 puts two sevens in the pile; 9🪙 takes 2🏆+7🗡️, one seven.
    view = duel("9D 7C", "9C 3S", "10D 2C 1D 7S", fill=10, taken="7B 10S")
    found = told_apart(view, move("9D:2C+7S"), move("7C:7S"), Fault.OUTLOOK)
    assert found.part == "primiera" and found.odds[0] > found.odds[1] + 0.2
    data = found.data()
    assert data["code"] == "outlook" and data["part"] == "primiera" and len(data["odds"]) == 2  # type: ignore[arg-type]
    said = worded(view, move("9D:2C+7S"), move("7C:7S"), found)
    assert "primiera" in said["en"] and said["en"].count("%") == 2 and said["en"].startswith("after 7🏆")


def test_the_part_the_other_side_wins_less_often_and_the_scope() -> None:
    view = duel("4S 3D", "6D 4B", "1S 9D 7D 3C", fill=10)
    found = told_apart(view, move("4S:1S+3C"), move("3D:3C"), Fault.OUTLOOK_AGAINST)
    assert found.part == "settebello" and found.odds[0] < found.odds[1]
    assert "other side" in worded(view, move("4S:1S+3C"), move("3D:3C"), found)["en"]
    view = duel("4S 3D", "2C", "2D 8B", fill=10, taken="3B 6D")
    found = told_apart(view, move("3D"), move("4S"), Fault.OUTLOOK)
    assert found.part == "scope" and found.odds[0] > found.odds[1]
    assert "scope" in worded(view, move("3D"), move("4S"), found)["en"]


def test_the_partners_settebello_in_scopone() -> None:
    # 5🪵 laid: the opponent takes it with 5🪙, and the partner's 8🪵 takes 7🪙+A🪵.
    view = scopone(("5B 2C", "5D", "8B", "5S"), "7D 9C 1B")
    found = told_apart(view, move("2C"), move("5B"), Fault.PARTNER_SETTEBELLO)
    assert found.odds[0] > found.odds[1] == 0
    said = worded(view, move("2C"), move("5B"), found, "scopone_scientifico")
    assert "partner" in said["en"] and "compagno" in said["it"] and "compañero" in said["es"]


@pytest.mark.parametrize("fault", [Fault.PRIMIERA, Fault.SAFE_LAY, Fault.PARTNER_SWEEP,
                                   Fault.PARTNER_SETTEBELLO, Fault.LAST_CAPTURE, Fault.OUTLOOK,
                                   Fault.OUTLOOK_AGAINST])
def test_a_stored_review_keeps_the_new_reasons_and_json_says_code_and_cards(fault: Fault) -> None:
    found = Reason(fault, cards=(Card.parse("8D"),), ranks=(8,), part="coins", odds=(0.62, 0.41))
    play = GradedPlay(0, 3, 0, move("2D"), move("8D"), 0.5, 2, (Card.parse("4B"),), (Card.parse("2D"),
                      Card.parse("8D")), found)
    review = Review("scopa", 2, 128, (play,))
    again = Review.from_dict(json.loads(json.dumps(review.to_dict())))
    assert again == review
    line = again.plays[0].line()
    assert line["reason"]["code"] == fault.value and line["reason"]["cards"] == ["8D"]


def test_a_review_stored_before_the_new_reasons_still_loads() -> None:
    old = {"format": "scopa-review/1", "variant": "scopa", "seats": 2, "searches": 128, "plays": [
        {"round": 0, "play": 0, "seat": 0, "played": {"card": "2D", "captured": []},
         "best": {"card": "8D", "captured": []}, "loss": 0.5, "choices": 2, "table": ["4B"],
         "hand": ["2D", "8D"], "reason": {"fault": "better", "table": [], "ranks": [], "chance": 0.0}}]}
    review = Review.from_dict(old)
    found = review.plays[0].reason
    assert found is not None and found.fault is Fault.BETTER and found.part == "" and found.odds == ()


def test_the_scope_part_is_worded_as_escobas_in_an_escoba() -> None:
    view = duel("4S 3D", "2C", "2D 8B", fill=10, taken="3B 6D")
    found = Reason(Fault.OUTLOOK, part="scope", odds=(0.2, -0.1))
    play = GradedPlay(0, 0, 0, move("3D"), move("4S"), 1.0, 2, view.table, view.hand, found)
    assert "escobas" in (reason_text(play, "en", "escoba") or "")
    said = reason_text(play, "en", "scopa") or ""
    assert "+0.2" in said and "scope" in said
    assert "−0,1" in (reason_text(play, "it", "scopa") or "")


def test_italian_puts_no_fixed_article_before_a_chance_that_reads_lo_0_or_l_80() -> None:
    from bot.i18n import catalogue

    chances = {key: text for key, text in catalogue("it").items()
               if isinstance(text, str) and "{after}" in text}
    assert len(chances) >= 10
    for key, text in chances.items():
        assert not re.search(r"\b(il|nel|del) \{(after|before)\}", text), (key, text)
    view = duel("3D 8C 1B", "5S 9D 1C", "8B 1D 4D")
    found = Reason(Fault.LAST_CAPTURE, odds=(0.8, 0.0))
    play = GradedPlay(0, 0, 0, move("1B:1D"), move("8C:8B"), 1.0, 2, view.table, view.hand, found)
    said = reason_text(play, "it", "scopa") or ""
    assert "80%" in said and "0%" in said and not re.search(r"\bil (0|8)", said), said
