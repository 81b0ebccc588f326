"""Discord's /newgame: its free-text `options` field read as Telegram's typed line, checked the same."""

from __future__ import annotations

from bot.sessions.names import FSI, PDI

from ..discord_helpers import World, _chat, lobby_message, open_game

RLO = "\u202e"


async def test_the_options_field_sets_the_lobby_and_a_wrong_one_opens_nothing(world: World) -> None:
    w, fake = world, world.fake
    command = next(c for c in fake.commands if c["name"] == "newgame")
    field = next(o for o in command["options"] if o["name"] == "options")
    assert field["type"] == 3 and field["name_localizations"]["it"] == "opzioni"

    refused = await fake.slash(w.bob, w.channel, "newgame", variant="scopa", options="target=1000")
    assert refused.reply.ephemeral
    assert "“target=1000” cannot be: target takes 8, 11, 15, 16, 21, 31" in refused.reply.text
    unknown = await fake.slash(w.alice, w.channel, "newgame", options="scopa colour=red")
    assert "Questo gioco non ha l'opzione «colour»" in unknown.reply.text
    forged = await fake.slash(w.alice, w.channel, "newgame", forge=True, target=1000)
    assert "può essere 8, 11, 15, 16, 21, 31" in forged.reply.text, "a field's value is checked the same"
    assert await w.sessions.queries.open_game_id(_chat(w)) is None

    await fake.slash(w.alice, w.channel, "newgame", variant="scopone", target=16,
                     options="target=21 carte=piacentine napola=sì")
    lobby = await lobby_message(w)
    assert "Si gioca a 21" in lobby.text and "Piacentine" in lobby.text and "Napola" in lobby.text
    view = await w.sessions.queries.lobby_of(await open_game(w))
    assert (view.variant, view.rules.target, view.deck_style, view.rules.napola) == (
        "scopone", 21, "piacentine", True)

    helped = await fake.slash(w.bob, w.channel, "help")
    assert "/newgame's options field" in helped.reply.text and "round_limit" in helped.reply.text


async def test_a_name_with_an_override_shows_in_order(world: World) -> None:
    w, fake = world, world.fake
    eve = fake.add_user(f"Eve{RLO}", "en-US")
    adi = fake.add_user("עדי", "en-US")
    await fake.slash(eve, w.channel, "newgame", variant="scopa")
    lobby = await lobby_message(w)
    await fake.press(adi, lobby, "Partecipa")
    await fake.wait_for(lambda: f"{FSI}עדי{PDI}" in lobby.text, what="the seat taken")
    assert RLO not in lobby.text and "Eve" in lobby.text
