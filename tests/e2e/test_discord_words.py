"""What players read on Discord: unknown games listed, the card legend once, and a barred card
that says why in the words Telegram uses too."""

from __future__ import annotations

from bot.render.words import blocked_text, card_legend, refusal_text
from bot.sessions import UserRef
from bot.sessions.interaction import blocked_cards

from ..discord_helpers import HAND, World, _chat, play_until, started_duel, table_message


def ref(user: object) -> UserRef:
    return UserRef("discord", str(user.id), user.name)  # type: ignore[attr-defined]


async def test_newgame_of_an_unknown_game_lists_the_games_one_can_start(world: World) -> None:
    w, fake = world, world.fake
    asked = await fake.slash(w.bob, w.channel, "newgame", forge=True, variant="poker")
    text = asked.reply.text
    assert "There is no game called “poker” here" in text, text
    assert "You can play: Scopa, Scopone, Scopone scientifico, Escoba." in text
    assert await w.sessions.queries.open_game_id(_chat(w)) is None


async def test_the_legend_is_shown_once_in_the_first_hand(world: World) -> None:
    w, fake = world, world.fake
    game_id = await started_duel(w)
    first = (await fake.press(w.alice, await table_message(w, game_id), prefix=f"{HAND}{game_id}")).reply
    embed = first.embeds[0]
    assert embed["footer"]["text"] == card_legend("napoletane", "it", buttons=True)
    assert "fante" not in embed.get("description", ""), "not in the text as well as the footer"


async def test_a_barred_card_says_why_in_the_shared_words(world: World) -> None:
    w, fake = world, world.fake
    game_id = await started_duel(w)
    to_move, version, barred = await play_until(w, game_id, blocked_cards, "card barred by a capture")
    hand = (await fake.press(to_move, await table_message(w, game_id), prefix=f"{HAND}{game_id}")).reply
    view = await w.sessions.queries.hand(game_id, ref(to_move))
    lang = "it" if to_move is w.alice else "en"
    assert blocked_text(view, lang) in hand.text, "the hand names the barred cards"
    button = hand.find(custom_id=f"scopa:i:{game_id}:{version}:{barred[0].card.code}")
    assert button["emoji"]["name"] == "🚫" and not button.get("disabled"), "a live button"
    await fake.press(to_move, hand, custom_id=button["custom_id"])
    assert hand.content == refusal_text(barred[0].refusal(), lang), "Telegram's alert says the same"
    assert (await w.sessions.queries.table(game_id)).version == version
