import pytest

from bot.adapters.discord import custom_ids
from bot.adapters.discord.tournament_ids import SignUp, SignUpPress, decode, encode


def test_every_sign_up_button_round_trips_within_discords_limit() -> None:
    for action in SignUp:
        press = SignUpPress(action, "123456789012345678")
        data = encode(press)
        assert len(data) <= custom_ids.MAX_LENGTH
        assert decode(data) == press


@pytest.mark.parametrize("data", [
    None, 7, "", "trn:join:", "trn:kick:12", "trn:join:12:extra", "trn:join:-1", "trn:join:1e3",
    "trn:JOIN:12", "trn:join:" + "1" * 19, "trn:join:" + "1" * 200, "scopa:join:12", " trn:join:12",
])
def test_forged_or_too_long_ids_decode_to_nothing(data: object) -> None:
    assert decode(data) is None


def test_a_sign_up_id_never_reads_as_a_games_press() -> None:
    assert custom_ids.decode(encode(SignUpPress(SignUp.START, "42"))) is None


def test_a_tournament_id_that_is_not_a_number_is_not_encoded() -> None:
    with pytest.raises(ValueError):
        encode(SignUpPress(SignUp.JOIN, "12:start"))
