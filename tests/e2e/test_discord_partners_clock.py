"""On the fake Discord: partners chosen in a scopone lobby are the match's teams; a channel with
no move clock never has a player played for, reminds the player to move once after the hour
(across a restart) and lets the game's creator alone hand that seat to the computer."""

from __future__ import annotations

from bot.sessions.options import REMIND_AFTER

from ..discord_helpers import World, lobby_message, open_game, started_duel, table_message


async def test_partners_chosen_in_a_scopone_lobby_are_the_teams_of_the_match(world: World) -> None:
    w, fake = world, world.fake
    await fake.slash(w.alice, w.channel, "newgame", variant="scopone")
    lobby = await lobby_message(w)
    for user in (w.bob, w.carla, w.dino):
        await fake.press(user, lobby, "Partecipa")
    await fake.wait_for(lambda: all(n in lobby.text for n in ("Bob", "Carla", "Dino")), what="a full lobby")
    await fake.wait_for(lambda: any("Con Alice" in str(c.get("label")) for c in lobby.components_flat()),
                        what="the partner buttons of a full table")
    await fake.press(w.bob, lobby, "🤝 Con Alice")
    game_id = await open_game(w)
    await fake.wait_for(lambda: lobby.text.index("Carla") < lobby.text.index("Bob"), what="Bob moved")
    lobby_view = await w.sessions.queries.lobby_of(game_id)
    assert [s.name if s else None for s in lobby_view.seats] == ["Alice", "Carla", "Bob", "Dino"]
    same = await fake.press(w.carla, lobby, "🤝 Con Dino")
    assert "Dino" in same.reply.text
    await fake.press(w.alice, lobby, "▶️ Inizia")
    await table_message(w, game_id)
    table = await w.sessions.queries.table(game_id)
    assert set(table.side_names) == {"Alice & Bob", "Carla & Dino"}


async def test_with_no_clock_the_player_is_reminded_after_the_hour_and_only_the_creator_hands_the_seat_over(
        world: World) -> None:
    w, fake = world, world.fake
    erin = fake.add_user("Erin", "it", admin=True)
    await fake.slash(erin, w.channel, "settings", turn_limit=0)
    game_id = await started_duel(w)
    table = await w.sessions.queries.table(game_id)
    w.clock.advance(REMIND_AFTER - 1)
    assert await w.sessions.scheduler.run_due() == 0
    await w.restart()
    w.clock.advance(1)
    assert await w.sessions.scheduler.run_due() == 1
    waiting = await fake.wait_for(
        lambda: next((m for m in fake.messages(w.channel) if "aspetta da 1 ora" in m.text
                      and any(str(c.get("custom_id", "")).startswith(f"scopa:O:{game_id}:")
                              for c in m.components_flat())), None),
        what="the channel told, with the hand-over button")
    w.clock.advance(3 * REMIND_AFTER)
    assert await w.sessions.scheduler.run_due() == 0
    assert (await w.sessions.queries.table(game_id)).version == table.version
    refused = await fake.press(w.bob, waiting, prefix=f"scopa:O:{game_id}:")
    assert "Only the player who created" in refused.reply.text
    await fake.press(w.alice, waiting, prefix=f"scopa:O:{game_id}:")
    row = await w.sessions.queries.game(game_id)
    assert next(s for s in row.seats if s.seat == table.to_play).autoplay
    assert await w.sessions.scheduler.run_due() >= 1
    assert (await w.sessions.queries.table(game_id)).version > table.version
