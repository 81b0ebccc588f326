"""The Discord sign-up's buttons: one per action, each id naming its tournament, labelled in the
channel's language; a refusal in the presser's words."""

from __future__ import annotations

import pytest

from bot.adapters.discord.tournament import refusal, signup_view
from bot.adapters.discord.tournament_ids import SignUp, decode
from bot.sessions.tournament_play import TournamentRefused
from bot.sessions.tournaments import Entrant, Format, Status, TournamentView


def _view() -> TournamentView:
    return TournamentView("42", "100", "", "scopa", Format.KNOCKOUT, 0, Status.SIGNUP, "u1", None, False,
                          (Entrant("u1", "Alice"),), platform="discord")


@pytest.mark.parametrize(("lang", "join"),
                         [("it", "✋ Partecipa"), ("en", "✋ Join"), ("es", "✋ Apuntarme")])
def test_the_sign_up_offers_join_leave_start_and_cancel_for_its_tournament(lang: str, join: str) -> None:
    buttons = signup_view(_view(), lang).children
    presses = [decode(getattr(b, "custom_id", None)) for b in buttons]
    assert [p.action for p in presses if p] == [SignUp.JOIN, SignUp.LEAVE, SignUp.START, SignUp.CANCEL]
    assert {p.tournament for p in presses if p} == {"42"}
    assert getattr(buttons[0], "label", None) == join
    assert [getattr(b, "row", None) for b in buttons] == [0, 0, 1, 1]


def test_a_refusal_says_why_with_what_was_typed() -> None:
    assert "“swiss=99”" in refusal(TournamentRefused("bad_option", "swiss=99"), "en")
    assert refusal(TournamentRefused("stale"), "it") == "Quel pulsante è di un altro torneo."
