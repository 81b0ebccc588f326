"""A scopone on Discord: the hand opened at each turn lists the three plays made since the
player's last one, the partner's among them."""

from __future__ import annotations

from bot.render.words import play_line_of

from ..discord_helpers import HAND, World, lobby_message, open_game, ready_to_play, table_message


async def test_each_turn_of_a_scopone_the_hand_shows_the_three_plays_since_the_last_one(world: World) -> None:
    w, fake = world, world.fake
    users = {str(u.id): u for u in (w.alice, w.bob, w.carla, w.dino)}
    await fake.slash(w.alice, w.channel, "newgame", variant="scopone")
    lobby = await lobby_message(w)
    for user in (w.bob, w.carla, w.dino):
        await fake.press(user, lobby, "Partecipa")
    await fake.wait_for(lambda: all(n in lobby.text for n in ("Bob", "Carla", "Dino")), what="a full lobby")
    await fake.press(w.alice, lobby, "▶️ Inizia")
    game_id = await open_game(w)
    checked = 0
    while checked < 8:
        table = await w.sessions.queries.table(game_id)
        row = await w.sessions.queries.game(game_id)
        player = next(s.player for s in row.seats if s.seat == table.to_play)
        assert player is not None
        user = users[player.user_key]
        hand = (await fake.press(user, await table_message(w, game_id), prefix=f"{HAND}{game_id}")).reply
        if len(table.last_plays) >= 3:
            lang = "it" if user in (w.alice, w.carla) else "en"
            heading = "Dal tuo ultimo turno:" if lang == "it" else "Since your last turn:"
            expected = [play_line_of(p, lang, table.deck_style, table.variant) for p in table.last_plays[-3:]]
            lines = hand.text.split("\n")
            assert heading in lines, lines
            assert [line.removeprefix("• ") for line in lines if line.startswith("• ")] == expected, lines
            partner = table.seats[(table.to_play + 2) % 4].name
            assert partner in [p.name for p in table.last_plays[-3:]]
            checked += 1
        hand, move = await ready_to_play(w, user, hand, game_id, table.version)
        await fake.press(user, hand, custom_id=move)
