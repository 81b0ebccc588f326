"""Practice matches on Discord: the option in the lobby's menu, the 💡 button on the hand view
answered only to the player with the move the computer would play and why, and its refusal
in other matches."""

from __future__ import annotations

import pytest

from bot.adapters.discord.identity import PLATFORM
from bot.render.review import move_phrase
from bot.render.words import refusal_text
from bot.sessions import Reason, Refused, UserRef

from ..discord_helpers import World, lobby_message, mover, open_game, play_until, started_duel, table_message
from ..fakes.discord_fakes import Message, User

pytestmark = pytest.mark.usefixtures("seeded_deals")


def _lang(w: World, user: User) -> str:
    return "it" if user is w.alice else "en"


async def _hand(w: World, user: User, game_id: int) -> Message:
    opened = await w.fake.press(user, await table_message(w, game_id), prefix=f"scopa:H:{game_id}")
    return opened.reply


async def test_the_hint_button_of_a_practice_match_shows_a_legal_move_and_why(world: World) -> None:
    w = world
    await w.fake.slash(w.alice, w.channel, "newgame")
    lobby = await lobby_message(w)
    game_id = await open_game(w)
    menu = lobby.find(custom_id=f"scopa:e:{game_id}:table")
    assert {"practice=on", "practice=off"} <= {o["value"] for o in menu["options"]}
    await w.fake.press(w.bob, lobby, "Partecipa")
    await w.fake.wait_for(lambda: "Bob" in lobby.text, what="Bob in the lobby")
    await w.fake.press(w.alice, lobby, custom_id=f"scopa:e:{game_id}:table", values=["practice=on"])
    await w.fake.wait_for(lambda: "Allenamento" in lobby.text, what="practice in the lobby's rules")
    await w.fake.press(w.alice, lobby, "▶️ Inizia")
    to_move, version, _ = await play_until(
        w, game_id, lambda view: view if view.offers_hint else None, "a hand with a choice")
    other = w.bob if to_move is w.alice else w.alice
    hand = await _hand(w, to_move, game_id)
    hint = hand.find(prefix=f"scopa:I:{game_id}:{version}")
    assert "💡" in hint["label"]
    pressed = await w.fake.press(to_move, hand, custom_id=hint["custom_id"])
    answer = pressed.reply
    assert answer.ephemeral and answer.visible_to is to_move and answer is not hand
    view = await w.sessions.queries.hand(game_id, UserRef(PLATFORM, str(to_move.id), to_move.name))
    legal = [move_phrase(m, _lang(w, to_move)) for c in view.choices for m in c.moves]
    assert any(answer.text.startswith(f"💡 {phrase}: ") for phrase in legal), (answer.text, legal)
    assert len(answer.text.split(": ", 1)[1]) > 5, "a reason follows the move"
    assert (await w.sessions.queries.table(game_id)).version == version, "a hint plays nothing"

    waiting = await w.fake.press(other, hand, custom_id=hint["custom_id"], forge=True)
    assert waiting.reply.ephemeral
    assert waiting.reply.text == refusal_text(Refused(Reason.NOT_YOUR_TURN), _lang(w, other))
    other_hand = await _hand(w, other, game_id)
    assert not any(c.get("custom_id", "").startswith("scopa:I:") for c in other_hand.components_flat()), \
        "no 💡 out of turn"


async def test_a_hand_with_one_legal_move_offers_no_hint(world: World) -> None:
    w = world
    await w.fake.slash(w.alice, w.channel, "newgame")
    lobby = await lobby_message(w)
    game_id = await open_game(w)
    await w.fake.press(w.bob, lobby, "Partecipa")
    await w.fake.wait_for(lambda: "Bob" in lobby.text, what="Bob in the lobby")
    await w.fake.press(w.alice, lobby, custom_id=f"scopa:e:{game_id}:table", values=["practice=on"])
    await w.fake.wait_for(lambda: "Allenamento" in lobby.text, what="practice in the lobby's rules")
    await w.fake.press(w.alice, lobby, "▶️ Inizia")
    forced = lambda view: view if sum(len(c.moves) for c in view.choices) == 1 else None  # noqa: E731
    to_move, _, view = await play_until(w, game_id, forced, "a hand with one legal move")
    assert view.practice and not view.offers_hint
    hand = await _hand(w, to_move, game_id)
    assert not any(c.get("custom_id", "").startswith("scopa:I:") for c in hand.components_flat()), \
        "no 💡 on a forced move"


async def test_a_hint_outside_a_practice_match_is_refused_in_clear_words(world: World) -> None:
    w = world
    game_id = await started_duel(w)
    to_move, _, version = await mover(w, game_id)
    hand = await _hand(w, to_move, game_id)
    assert not any(c.get("custom_id", "").startswith("scopa:I:") for c in hand.components_flat())
    pressed = await w.fake.press(to_move, hand, custom_id=f"scopa:I:{game_id}:{version}", forge=True)
    words = {"it": "partite di allenamento", "en": "practice matches only"}[_lang(w, to_move)]
    assert pressed.reply.ephemeral and words in pressed.reply.text
