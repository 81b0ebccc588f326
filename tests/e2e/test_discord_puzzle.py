"""/puzzle on Discord: a position from the channel's own finished and reviewed match posted for
the channel, with its picture and a button per legal move; a press answered right or wrong
with the best play and why, seen only by the presser; a forged button refused; before any
reviewed match, the asker is told how to get one."""

from __future__ import annotations

import json

import pytest

from bot.adapters.discord.identity import PLATFORM
from bot.ai.review import Review
from bot.render.words import move_label
from bot.sessions import ChatRef, UserRef

from ..discord_helpers import World, play_to_end, started_duel

pytestmark = pytest.mark.usefixtures("seeded_deals")

REVIEW = "🔍 Revisione"


async def test_puzzle_answered_right_and_wrong_to_the_presser_alone(world: World) -> None:
    w = world
    empty = await w.fake.slash(w.bob, w.channel, "puzzle")
    assert empty.reply.ephemeral and "No puzzle yet: finish a match and review it" in empty.reply.text
    game_id = await started_duel(w)
    await play_to_end(w, game_id, [w.alice, w.bob])
    await w.front.lanes.idle()
    over = next(m for m in w.fake.messages(w.channel) if "Partita finita" in m.text and m.buttons())
    await w.fake.press(w.alice, over, REVIEW)
    stored = await w.sessions.puzzles.store.match_review(game_id)
    assert stored is not None
    review = Review.from_dict(json.loads(stored))

    asked = await w.fake.slash(w.carla, w.channel, "puzzle")
    shown = asked.reply
    assert not shown.ephemeral, "the puzzle is for the channel"
    assert "held this hand in round" not in shown.text and "aveva questa mano nella smazzata" in shown.text
    assert shown.picture() is not None, "the table and the hand as a picture"
    puzzle = await w.sessions.puzzles.puzzle(UserRef(PLATFORM, str(w.carla.id), "Carla"),
                                             ChatRef(PLATFORM, str(w.channel.id)))
    graded = next(p for p in review.plays if (p.round, p.play) == (puzzle.round, puzzle.play))
    assert shown.text.startswith(f"🧩 {('Alice', 'Bob')[graded.seat]} aveva questa mano nella smazzata "
                                 f"{graded.round + 1} della partita del ")
    answers = [b["custom_id"] for b in shown.buttons() if b["custom_id"].startswith("scopa:z:")]
    assert len(answers) == len(puzzle.moves) >= 2, "a button per legal move"
    assert move_label(graded.best) in shown.labels() and move_label(graded.played) in shown.labels()

    before = len(w.fake.messages(w.channel))
    right = await w.fake.press(w.bob, shown, custom_id=answers[puzzle.moves.index(graded.best)])
    assert right.reply.ephemeral and right.reply.visible_to is w.bob
    assert right.reply.text.startswith("✅ Right: "), "in the presser's language"
    wrong = await w.fake.press(w.alice, shown, custom_id=answers[puzzle.moves.index(graded.played)])
    assert wrong.reply.ephemeral and wrong.reply.visible_to is w.alice
    assert wrong.reply.text.startswith("❌ Sbagliato: la giocata migliore è")
    await w.front.lanes.idle()
    assert len(w.fake.messages(w.channel)) == before, "nothing posted for the channel"

    own = (await w.fake.slash(w.alice, w.fake.open_dm(w.alice), "puzzle")).reply
    assert own.text.split(":")[0] == shown.text.split(":")[0], "in a DM, from her own match"
    assert own.picture() is not None

    await w.restart()
    again = await w.fake.press(w.carla, shown, custom_id=answers[puzzle.moves.index(graded.best)])
    assert again.reply.text.startswith("✅ Giusto: "), "the button works after a restart"
    forged = await w.fake.press(w.bob, shown, custom_id=f"scopa:z:{game_id}:{puzzle.spot}:99", forge=True)
    assert forged.reply.ephemeral and "not one of this chat's puzzles" in forged.reply.text
