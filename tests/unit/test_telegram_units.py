"""The Telegram adapter's pure parts: callback data, keyboards, HTML, log masking."""

from __future__ import annotations

import dataclasses
import logging

import pytest

from bot.adapters.common.codec import OPTION_CODES, SETTINGS
from bot.adapters.telegram.callbacks import MAX_BYTES, Action, Tap, TooLong, decode, encode
from bot.adapters.telegram.front_end import file_base, parse_listen
from bot.adapters.telegram.identity import message_link, parse_join_payload, private_link
from bot.adapters.telegram.keyboards import hand_keyboard, lobby_keyboard, settings_keyboard
from bot.adapters.telegram.markup import escape, hand_alert, hand_html, lobby_html
from bot.engine import Card, Game, Move, Rules
from bot.i18n import catalogue
from bot.redact import mask_secret
from bot.sessions.interaction import HandMode, HandPrompt
from bot.sessions.views import CardChoice, HandView, LobbyView, SeatInfo

LONGEST_MOVE = "10D:" + "+".join(["10C"] * 16)


def test_every_button_fits_in_64_bytes_and_decodes_to_itself() -> None:
    big = 999_999_999
    taps = [
        Tap(Action.PLAY, big, big, Move.parse("1D:1C+1S+1B+2D+2C+2S+2B+3D").code),
        Tap(Action.PLAY, 1, 0, "10D"),
        Tap(Action.CHOOSE, big, 5, "10B"),
        Tap(Action.CAPTURE, big, big, "10B", 999),
        Tap(Action.BACK, 3, 7),
        Tap(Action.MENU, big, arg="capture"),
        Tap(Action.ADD_COMPUTER, big, arg="medium"),
        Tap(Action.OPTION, big, arg="capture_choice=fewest"),
        *(Tap(Action.SETTING, arg=f"{key}={value}") for key, values in SETTINGS.items()
          for value in values),
        *(Tap(action, big) for action in (Action.JOIN, Action.LEAVE, Action.START, Action.CANCEL,
                                          Action.SHOW_HAND, Action.TAKE_BACK, Action.REMATCH,
                                          Action.WAIT, Action.REMOVE_COMPUTERS)),
    ]
    for tap in taps:
        data = encode(tap)
        assert len(data.encode()) <= MAX_BYTES, data
        assert decode(data) == tap


def test_buttons_posted_before_the_shared_codec_still_work() -> None:
    assert decode("p|12|34|7D:3C+4S") == Tap(Action.PLAY, 12, 34, "7D:3C+4S")
    assert decode("h|12|34|10B") == Tap(Action.CHOOSE, 12, 34, "10B")
    assert decode("o|12|v=escoba") == Tap(Action.OPTION, 12, arg="variant=escoba")
    assert decode("o|12|p=sevens") == Tap(Action.OPTION, 12, arg="primiera=sevens")
    assert decode("o|12|l=300") == Tap(Action.OPTION, 12, arg="turn_limit=300")
    assert decode("g|0|ct=120") == Tap(Action.SETTING, 0, arg="ct=120")
    assert decode("F|3|9|1D") == Tap(Action.DECLARE, 3, 9, "1D")
    assert decode("b|3|9") == Tap(Action.BACK, 3, 9) and decode("w|3") == Tap(Action.WAIT, 3)


@pytest.mark.parametrize("data", [
    "", "p", "p|1|2", "p|1|2|7D:", "p|01|2|7D", "p|1|2|11D", "p|1|2|7X", "p|1|2|7D:3C+",
    "p|-1|2|7D", "j|1|", "j|1|2", "j|", "c|1|god", "o|1|t=12", "o|1|v=poker", "m|1|admin",
    "g|0|cl=de", "g|0|xx=it", "s|1 ", " s|1", "s|１", "Z|1", "p|1|2|7D\n", "j|1234567890123",
    "p|1|2|" + "7D:" + "+".join(["1C"] * 30), None, 42, "o|1|variant=scopa", "C|1|2|7D",
    "C|1|2|7D|1000", "scopa:j:1",
])
def test_malformed_or_forged_data_is_refused(data: object) -> None:
    assert decode(data) is None


def test_a_tap_that_cannot_be_encoded_raises() -> None:
    with pytest.raises(ValueError):
        encode(Tap(Action.PLAY, 1, None, "7D"))
    with pytest.raises(ValueError):
        encode(Tap(Action.OPTION, 1, arg="target=12"))
    with pytest.raises(TooLong):
        encode(Tap(Action.PLAY, 1, 1, LONGEST_MOVE))


def test_a_capture_too_long_for_a_button_is_sent_by_its_place() -> None:
    table = [Card.parse(code) for code in ("2D", "3C", "4S", "5B", "6D", "7C", "1C", "1S", "1B", "2C",
                                           "3S", "4B", "5D", "6C", "7S", "10D")]
    ace = Card.parse("1D")
    everything = Move(ace, tuple(table))
    alone = Move(ace, (Card.parse("1C"),))
    game, version = 123_456_789, 4_321
    hand = HandView(game, version, 0, "napoletane", (ace,), tuple(table), True,
                    (CardChoice(ace, (alone, everything)),), False)
    picker = hand_keyboard(hand, "en", HandPrompt(HandMode.CHOOSING, ace.code))
    taps = [decode(row[0].data) for row in picker[:-1]]
    assert taps == [Tap(Action.PLAY, game, version, alone.code),
                    Tap(Action.CAPTURE, game, version, ace.code, 1)]


def _hand(game: Game, seat: int) -> HandView:
    view = game.view(seat)
    grouped: dict[Card, list[Move]] = {}
    for move in view.legal_moves:
        grouped.setdefault(move.card, []).append(move)
    return HandView(7, game.version, seat, "napoletane", view.hand, view.table, view.my_turn,
                    tuple(CardChoice(c, tuple(grouped[c])) for c in view.hand if c in grouped),
                    False)


def _hand_with_a_choice() -> HandView:
    for seed in range(500):
        game = Game.new("scopa", 2, seed=seed)
        for _ in range(30):
            if game.finished:
                break
            hand = _hand(game, game.to_play)
            if any(len(c.moves) > 1 for c in hand.choices):
                return hand
            game.apply(game.legal_moves()[0])
    raise AssertionError("no position with a choice of captures")


def test_hand_buttons_play_at_once_or_ask_which_capture() -> None:
    hand = _hand_with_a_choice()
    keyboard = hand_keyboard(hand, "en")
    taps = [decode(b.data) for row in keyboard for b in row]
    labels = [b.label for row in keyboard for b in row]
    assert len(taps) == len(hand.hand)
    for card, tap, label in zip(hand.hand, taps, labels, strict=True):
        assert tap is not None
        moves = hand.moves_for(card)
        if not moves:
            assert tap == Tap(Action.IDLE, 7, hand.version, card.code), "a capture must be made instead"
            assert label.startswith("🚫 ")
        elif len(moves) == 1:
            assert tap.action is Action.PLAY and tap.arg == moves[0].code
            assert tap.version == hand.version
        else:
            assert tap.action is Action.CHOOSE and tap.arg == card.code
            assert tap.version == hand.version
    several = next(c for c in hand.choices if len(c.moves) > 1)
    picker = hand_keyboard(hand, "it", HandPrompt(HandMode.CHOOSING, several.card.code))
    codes = [decode(row[0].data) for row in picker]
    assert [c.arg for c in codes[:-1] if c] == [m.code for m in several.moves]
    assert codes[-1] is not None and codes[-1].action is Action.BACK
    assert "→" in picker[0][0].label
    text = hand_html(hand, "en", "scopa", prompt=HandPrompt(HandMode.CHOOSING, several.card.code))
    assert "choose one" in text


def test_off_turn_hand_buttons_do_not_carry_the_version() -> None:
    game = Game.new("scopa", 2, seed=3)
    waiting = _hand(game, 1 - game.to_play)
    assert not waiting.my_turn
    taps = {decode(b.data) for row in hand_keyboard(waiting, "en") for b in row}
    assert taps == {Tap(Action.WAIT, 7)}
    assert "Table" not in hand_html(waiting, "en", "scopa")
    assert len(hand_alert(waiting, "it")) <= 200


def test_names_are_escaped_and_the_lobby_offers_the_private_chat() -> None:
    seats = (SeatInfo(0, "<b>Eve</b> & co", 1, False, None, True, False),
             SeatInfo(1, "Bob", 2, False, None, False, False))
    view = LobbyView(5, "lobby", "scopa", Rules(), {}, 2, False, "napoletane", 1, seats, 90)
    html = lobby_html(view, "en")
    assert "&lt;b&gt;Eve&lt;/b&gt; &amp; co" in html and "<b>Eve" not in html
    link = private_link("scopa_bot", 5)
    keyboard = lobby_keyboard(view, "en", private_link=link)
    assert any(b.url == link for row in keyboard for b in row)
    assert parse_join_payload(link.rsplit("=", 1)[1]) == 5
    for menu in ("options", "variant", "players", "target", "rounds", "teams", "capture", "deck",
                 "turn", "house"):
        for row in lobby_keyboard(view, "it", menu=menu):
            for button in row:
                assert button.data is not None and decode(button.data) is not None
    assert escape("a<b") == "a&lt;b"


def test_every_house_rule_has_a_switch_on_every_variant() -> None:
    from bot.engine.rules import HOUSE_RULES

    for variant, names in HOUSE_RULES.items():
        assert set(names) <= set(OPTION_CODES)
        players = 4 if variant.value.startswith("scopone") else 2
        view = LobbyView(5, "lobby", variant.value, Rules.default(variant), {}, players,
                         2 if players == 4 else 0, "napoletane", 1, (None,) * players, 90)
        switches = [b for row in lobby_keyboard(view, "en", menu="house") for b in row][:-1]
        assert len(switches) == len(names) and all(decode(b.data or "") for b in switches)


def test_six_players_may_sit_as_three_teams() -> None:
    six = LobbyView(5, "lobby", "escoba", Rules.default("escoba"), {}, 6, 3, "napoletane", 1,
                    (None,) * 6, 90)
    labels = [b.label for row in lobby_keyboard(six, "en", menu="teams") for b in row]
    assert labels == ["Teams", "✅ Three teams of two", "Every player for themselves", "↩️ Back"]
    assert "Three teams of two" in lobby_html(six, "en") and "team C" in lobby_html(six, "en")
    four = LobbyView(5, "lobby", "escoba", Rules.default("escoba"), {}, 4, 2, "napoletane", 1,
                     (None,) * 4, 90)
    assert "Three teams of two" not in str(lobby_keyboard(four, "en", menu="teams"))


def test_join_payloads_are_strict() -> None:
    for bad in ("", "j", "j0", "j01", "x5", "j5 ", "j" + "9" * 13, "j-1"):
        assert parse_join_payload(bad) is None


def test_settings_keyboards_and_links() -> None:
    group = settings_keyboard("en", True, {"cl": "it", "ct": "90", "cv": "scopa"})
    assert any(b.label.startswith("✅") for row in group for b in row)
    assert all(decode(b.data) for row in group for b in row)
    private = settings_keyboard("it", False, {"ul": "it", "ur": "off"})
    assert len(private) == 2
    assert [b.label for b in private[1]] == ["🔔 Suona al mio turno", "✅ 🔕 Senza suono"]
    assert message_link(-1001234567890, 42) == "https://t.me/c/1234567890/42"
    assert message_link(-123, 42) is None
    assert message_link(-123, 42, "friends") == "https://t.me/friends/42"
    assert file_base("http://127.0.0.1:8081/bot") == "http://127.0.0.1:8081/file/bot"
    assert parse_listen("127.0.0.1:8443") == ("127.0.0.1", 8443)
    assert parse_listen(":9000") == ("0.0.0.0", 9000)
    assert parse_listen(None) == ("0.0.0.0", 8443)
    with pytest.raises(ValueError):
        parse_listen("host:port")


def test_catalogue_has_every_telegram_key_in_both_languages() -> None:
    it = {k for k in catalogue("it") if k.startswith("telegram.")}
    en = {k for k in catalogue("en") if k.startswith("telegram.")}
    assert it == en and len(it) > 20


def test_the_token_never_reaches_a_log_record(caplog: pytest.LogCaptureFixture) -> None:
    token = "123456:ABC-secret-token_xyz"
    mask_secret(token)
    logger = logging.getLogger("httpx")
    with caplog.at_level(logging.DEBUG):
        logger.info("HTTP Request: POST %s", f"http://127.0.0.1/bot{token}/getMe")
        try:
            raise RuntimeError(f"failed https://api.telegram.org/bot{token}/sendMessage")
        except RuntimeError:
            logging.getLogger("telegram.ext").exception("request failed")
    text = caplog.text
    assert token not in text and "<token>" in text
    assert all(token not in r.getMessage() for r in caplog.records)


def test_the_fuori_hint_only_when_declaring_would_win() -> None:
    hand = dataclasses.replace(_hand_with_a_choice(), may_declare=True)
    losing = [b.label for row in hand_keyboard(hand, "en") for b in row]
    winning = [b.label for row in hand_keyboard(hand, "en", fuori_wins=True) for b in row]
    assert "Declare fuori…" in losing and "🏁 Declare fuori…" not in losing
    assert "🏁 Declare fuori…" in winning
    assert "would win" in hand_html(hand, "en", "scopa", fuori_wins=True)
    assert "would win" not in hand_html(hand, "en", "scopa")
