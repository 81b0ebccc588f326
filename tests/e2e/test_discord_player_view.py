"""What a player sees on Discord: cards a compulsory capture bars, the card legend, and
fuori offered only when it wins, with a confirmation that says what it would mean."""

from __future__ import annotations

from bot.sessions import UserRef
from bot.sessions.interaction import blocked_cards, fuori_outcome

from ..discord_helpers import (
    HAND,
    World,
    lobby_message,
    open_game,
    play_turn,
    play_until,
    started_duel,
    table_message,
)


def ref(user: object) -> UserRef:
    return UserRef("discord", str(user.id), user.name)  # type: ignore[attr-defined]


async def test_a_barred_card_is_marked_and_says_why_when_pressed(world: World) -> None:
    w, fake = world, world.fake
    game_id = await started_duel(w)
    to_move, version, barred = await play_until(w, game_id, blocked_cards,
                                                "card barred by a compulsory capture")
    hand = (await fake.press(to_move, await table_message(w, game_id), prefix=f"{HAND}{game_id}")).reply
    button = hand.find(custom_id=f"scopa:i:{game_id}:{version}:{barred[0].card.code}")
    assert button["emoji"]["name"] == "🚫" and not button.get("disabled")
    assert "la presa è obbligatoria" in hand.text or "capture is compulsory" in hand.text
    pressed = await fake.press(to_move, hand, custom_id=button["custom_id"])
    assert pressed.response_type == 7
    assert hand.content.startswith(("Devi prendere:", "You must capture:")), hand.content
    assert "→" in hand.content, "with a capture that can be made instead"
    assert (await w.sessions.queries.table(game_id)).version == version, "nothing is played"
    assert hand.buttons(), "the hand stays, with the reason above it"


async def test_the_card_legend_comes_with_the_first_hand_and_in_help(world: World) -> None:
    w, fake = world, world.fake
    game_id = await started_duel(w)
    table = await table_message(w, game_id)
    first = (await fake.press(w.alice, table, prefix=f"{HAND}{game_id}")).reply
    legend = first.embeds[0]["footer"]["text"]
    assert "F = fante (8)" in legend and "🪙 denari" in legend
    bob = (await fake.press(w.bob, table, prefix=f"{HAND}{game_id}")).reply
    assert "F = fante (jack, 8)" in bob.embeds[0]["footer"]["text"], "each player in their language"
    again = (await fake.press(w.alice, table, prefix=f"{HAND}{game_id}")).reply
    assert "F = fante (8)" in again.embeds[0]["footer"]["text"], "until the player's first play"
    users = {str(u.id): u for u in (w.alice, w.bob)}
    for _ in range(2):
        assert await play_turn(w, game_id, users, {})
    await w.restart()
    after = (await fake.press(w.alice, await table_message(w, game_id), prefix=f"{HAND}{game_id}")).reply
    assert "footer" not in after.embeds[0], "not once the player has played, restart or not"
    helped = await fake.slash(w.dino, w.channel, "help")
    assert "/newgame" in helped.reply.text and "F = fante (jack, 8)" in helped.reply.text


async def test_fuori_is_offered_only_when_it_wins_and_asks_first(world: World) -> None:
    w, fake = world, world.fake
    await fake.slash(w.alice, w.channel, "newgame", variant="scopone", target=11)
    lobby = await lobby_message(w)
    game_id = await open_game(w)
    await fake.press(w.alice, lobby, custom_id=f"scopa:e:{game_id}:table", values=["fuori=on"])
    await fake.wait_for(lambda: "«fuori»" in lobby.text, what="fuori on")
    for level in ("facile", "difficile", "facile"):
        await fake.press(w.alice, lobby, f"🤖 {level}")
    await fake.wait_for(lambda: "🤝 Con Alice" in lobby.labels(), what="a full table, partners to choose")
    await fake.press(w.alice, lobby, "▶️ Inizia")
    alice = ref(w.alice)
    while (await w.sessions.queries.table(game_id)).to_play != 0:
        assert await w.sessions.scheduler.run_due() == 1
    table = await table_message(w, game_id)
    hand = (await fake.press(w.alice, table, prefix=f"{HAND}{game_id}")).reply
    assert "🏁 Dichiaro fuori…" not in hand.labels(), "nothing is sure yet: declaring would lose"

    while True:
        state = await w.sessions.queries.table(game_id)
        assert not state.finished, "the match ended before fuori could win"
        if state.to_play != 0:
            assert await w.sessions.scheduler.run_due() == 1
            continue
        view = await w.sessions.queries.hand(game_id, alice)
        moves = [m for c in view.choices for m in c.moves]
        if not view.may_declare:
            await w.sessions.play.play(game_id, alice, view.version, moves[0])
            continue
        outcomes = [(await fuori_outcome(w.sessions, game_id, alice, view.version, m), m) for m in moves]
        wins = [m for outcome, m in outcomes if outcome.wins]
        if wins:
            break
        best = max(outcomes, key=lambda found: found[0].points)[1]
        await w.sessions.play.play(game_id, alice, view.version, best)
    version = view.version
    hand = (await fake.press(w.alice, table, prefix=f"{HAND}{game_id}")).reply
    await fake.press(w.alice, hand, "🏁 Dichiaro fuori…")
    await fake.wait_for(lambda: "giocata con cui ti dichiari fuori" in hand.text, what="the cards")
    await fake.press(w.alice, hand, custom_id=f"scopa:P:{game_id}:{version}:{wins[0].card.code}")
    await fake.wait_for(lambda: "VINCERESTI" in hand.text, what="what declaring would mean")
    assert "non si può ritirare" in hand.text and "↩️ Indietro" in hand.labels()
    assert (await w.sessions.queries.table(game_id)).version == version, "asking declares nothing"
    await fake.press(w.alice, hand, custom_id=f"scopa:F:{game_id}:{version}:{wins[0].code}")
    final = await w.sessions.queries.table(game_id)
    assert final.finished and final.winner == 0, "Alice's side wins by declaring"
    breakdown = await fake.wait_for(
        lambda: next((m for m in fake.messages(w.channel)
                      if m.embeds and "dichiarato fuori" in m.embeds[0].get("description", "")), None),
        what="the breakdown")
    assert breakdown is not None
