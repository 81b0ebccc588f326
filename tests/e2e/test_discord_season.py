"""/season on Discord: after a match in a channel, the month's standings for everyone there under
their picture, everyone's with `global`, a chosen player's past seasons; when the month turns
the channel is told its champion once, with the final standings."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

from bot.adapters.discord.identity import PLATFORM
from bot.adapters.discord.seasons import season_reply
from bot.sessions import ChatRef, UserRef

from ..discord_helpers import World, play_to_end, started_duel

DEC_1 = datetime(2026, 12, 1, 0, 5, tzinfo=UTC).timestamp()


async def test_season_on_discord_and_its_champion_told_once(world: World) -> None:
    w, fake = world, world.fake
    w.clock.now = datetime(2026, 11, 29, 18, 0, tzinfo=UTC).timestamp()
    game_id = await started_duel(w)
    await play_to_end(w, game_id, [w.alice, w.bob])
    asked = (await fake.slash(w.bob, w.channel, "season")).reply
    assert not asked.ephemeral
    embed = asked.embeds[0]
    assert embed["title"].startswith("🏆 Stagione novembre 2026"), embed
    assert "3 punti a vittoria" in embed.get("description", "")
    assert [a["filename"] for a in asked.attachments] == ["season.jpg"]
    everyone = (await fake.slash(w.alice, w.channel, "season", **{"global": True})).reply
    assert "tutti" in everyone.embeds[0]["title"]
    chosen = SimpleNamespace(id=w.alice.id, bot=False, display_name="Alice", name="Alice")
    history = await season_reply(w.sessions, w.front.painter, ChatRef(PLATFORM, str(w.channel.id)), "en",
                                 last=False, everyone=False, asker=UserRef(PLATFORM, str(w.bob.id), "Bob"),
                                 player=chosen)  # type: ignore[arg-type]
    assert history.embed is not None and history.embed.title == "📅 Seasons of Alice · scopa"
    assert "This month so far: place" in (history.embed.description or "")

    w.clock.now = DEC_1
    post = w.front.seasons.post
    assert await w.sessions.seasons.close_due(PLATFORM, None, post) == 1
    assert await w.sessions.seasons.close_due(PLATFORM, None, post) == 0
    told = [m for m in fake.messages(w.channel)
            if any("La stagione di novembre 2026 è finita!" in (e.get("title") or "") for e in m.embeds)]
    assert len(told) == 1 and told[0].attachments, "once, with the final standings"
    last = (await fake.slash(w.bob, w.channel, "season", last=True)).reply
    assert "Campione:" in last.embeds[0].get("description", "")
