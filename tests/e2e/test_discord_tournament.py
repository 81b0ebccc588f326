"""A Discord tournament from /tournament to its champion in a thread, the players playing its
matches with their usual buttons; buttons forged or left from another tournament, and a Start
pressed by someone who did not open it, refused to that person alone, changing nothing."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import pytest

from bot.adapters.discord.identity import PLATFORM
from bot.sessions import ChatRef
from bot.sessions.ports import StorageFailed
from bot.sessions.tournament_play import TournamentNews, TournamentUntold, view_of
from bot.sessions.tournaments import Status

from ..discord_helpers import World, play_to_end
from ..fakes.discord_fakes import ATTACH_FILES, Channel, Message

CHAMPION = "vince il torneo"


async def _signup(w: World, where: Channel, setup: str | None = None) -> Message:
    opened = await (w.fake.slash(w.alice, where, "tournament") if setup is None
                    else w.fake.slash(w.alice, where, "tournament", setup=setup))
    signup = opened.reply
    assert not signup.ephemeral and "Torneo" in signup.text, signup.text
    return signup


def _names(message: Message, name: str) -> bool:
    return name in message.text


def _button(signup: Message, action: str) -> str:
    return str(signup.find(prefix=f"trn:{action}:")["custom_id"])


async def _tournament_of(w: World, where: Channel) -> str:
    view = await w.sessions.tournaments.current(ChatRef(PLATFORM, str(where.id)))
    assert view is not None
    return view.id


def _champions(w: World, where: Channel) -> list[Message]:
    return [m for m in w.fake.messages(where) if CHAMPION in m.text]


async def test_a_knockout_of_four_in_a_thread_is_played_there_to_its_champion(world: World) -> None:
    w = world
    w.sessions.tournaments.pause = 0.0
    thread = w.fake.add_thread(w.channel, "torneo-serale", w.alice)
    in_thread = replace(w, channel=thread)
    signup = await _signup(w, thread, "target=1")

    stranger = await w.fake.press(w.bob, signup, custom_id=_button(signup, "start"))
    assert stranger.reply.ephemeral and "Only whoever opened the tournament" in stranger.reply.text
    assert (await w.sessions.tournaments.current(ChatRef(PLATFORM, str(thread.id)))).status is Status.SIGNUP  # type: ignore[union-attr]
    for user in (w.bob, w.carla, w.dino):
        joined = await w.fake.press(user, signup, custom_id=_button(signup, "join"))
        assert joined.reply is signup, "the sign-up itself shows who joined"
        await w.fake.wait_for(partial(_names, signup, user.name), what=f"{user.name} signed up")
    again = await w.fake.press(w.dino, signup, custom_id=_button(signup, "join"))
    assert again.reply.ephemeral and "already in the tournament" in again.reply.text
    await w.fake.press(w.alice, signup, custom_id=_button(signup, "start"))
    await w.fake.wait_for(lambda: not signup.buttons(), what="the sign-up closed once started")
    assert "Turno 1" in signup.text

    users = {u.id: u for u in (w.alice, w.bob, w.carla, w.dino)}
    played: list[int] = []
    while True:
        await w.sessions.tournaments.settled()
        game_id = await _next_match(w, thread, played)
        if game_id is None:
            break
        played.append(game_id)
        row = await w.sessions.queries.game(game_id)
        assert row.chat.key == str(thread.id), "the tournament's matches are played in its thread"
        seated = [users[int(s.player.user_key)] for s in row.seats if s.player is not None]
        await play_to_end(in_thread, game_id, seated)
    await w.fake.wait_for(lambda: _champions(w, thread), what="the champion")

    assert len(played) == 3, "two semi-finals and a final, none played twice"
    champions = _champions(w, thread)
    assert len(champions) == 1, "the champion announced once"
    assert "Turno 2" in champions[0].text and "Classifica" in champions[0].text
    won = sum(m.text.count("Torneo vinto") for m in w.fake.messages(thread))
    assert won == 1, "the achievement told once, with the champion"
    assert champions[0].picture() is not None, "the bracket as a picture under the words"
    rounds_told = [m for m in w.fake.messages(thread) if "Turno 1 concluso" in m.text]
    assert len(rounds_told) == 1 and rounds_told[0].picture() is not None
    assert not any(CHAMPION in m.text or "Turno 1 concluso" in m.text for m in w.fake.messages(w.channel))
    view = await w.sessions.tournaments.current(ChatRef(PLATFORM, str(thread.id)))
    assert view is None or view.status is Status.FINISHED


async def _next_match(w: World, where: Channel, played: list[int]) -> int | None:
    game_id = await w.sessions.queries.open_game_id(ChatRef(PLATFORM, str(where.id)))
    if game_id is None or game_id in played:
        return None
    row = await w.sessions.queries.game(game_id)
    return game_id if row.status.value == "running" else None


async def test_forged_and_stale_tournament_buttons_are_answered_as_out_of_date(world: World) -> None:
    w = world
    old = await _signup(w, w.channel)
    old_id = await _tournament_of(w, w.channel)
    cancelled = await w.fake.press(w.alice, old, custom_id=_button(old, "cancel"))
    assert not cancelled.reply.ephemeral
    await w.fake.wait_for(lambda: not old.buttons(), what="the cancelled sign-up without buttons")

    fresh = await _signup(w, w.channel, "swiss=2")
    fresh_id = await _tournament_of(w, w.channel)
    assert fresh_id != old_id
    stale = await w.fake.press(w.bob, fresh, custom_id=f"trn:join:{old_id}", forge=True)
    forged = await w.fake.press(w.bob, fresh, custom_id=f"trn:start:{fresh_id}x", forge=True)
    unshown = await w.fake.press(w.carla, old, custom_id=f"trn:join:{fresh_id}", forge=True)
    for refused, user in ((stale, w.bob), (forged, w.bob), (unshown, w.carla)):
        assert refused.reply.ephemeral, refused.reply.text
        assert refused.reply.visible_to is user
    assert "That button is from another tournament" in stale.reply.text
    assert "That button is from another tournament" in forged.reply.text
    assert "Quel pulsante è di un altro torneo" in unshown.reply.text
    view = await w.sessions.tournaments.current(ChatRef(PLATFORM, str(w.channel.id)))
    assert view is not None and [p.name for p in view.players] == ["Alice"], "nothing changed"
    assert "Bob" not in fresh.text and "Carla" not in fresh.text


async def test_tournament_and_duplicate_are_offered_with_their_setup_and_told_in_help(world: World) -> None:
    w = world
    command = next(c for c in w.fake.commands if c["name"] == "tournament")
    assert command["name_localizations"]["it"] == "torneo"
    assert [o["name"] for o in command.get("options", [])] == ["setup"]
    duplicate = next(c for c in w.fake.commands if c["name"] == "duplicate")
    assert duplicate["name_localizations"]["it"] == "duplicato"
    [setup] = duplicate["options"]
    assert "deals=3" in setup["description_localizations"]["it"], "its own words, not /tournament's"
    helped = await w.fake.slash(w.bob, w.channel, "help")
    assert "/tournament" in helped.reply.text and "/duplicate" in helped.reply.text


async def test_a_server_manager_starts_it_and_a_channel_of_text_is_told_in_words(world: World) -> None:
    w = world
    w.sessions.tournaments.pause = 0.0
    erin = w.fake.add_user("Erin", "it", admin=True)
    await w.fake.slash(erin, w.channel, "settings", pictures=False)
    signup = await _signup(w, w.channel, "target=1")
    tournament = await _tournament_of(w, w.channel)
    await w.fake.press(w.bob, signup, custom_id=_button(signup, "join"))
    await w.fake.wait_for(lambda: "Bob" in signup.text, what="Bob signed up")
    started = await w.fake.press(erin, signup, custom_id=_button(signup, "start"))
    assert started.reply is signup and not signup.buttons(), "a server manager may start it"

    await w.sessions.tournaments.settled()
    game_id = await _next_match(w, w.channel, [])
    assert game_id is not None
    await play_to_end(w, game_id, [w.alice, w.bob])
    await w.sessions.tournaments.settled()
    [told] = await w.fake.wait_for(lambda: _champions(w, w.channel), what="the champion")
    assert "Turno 1 concluso" in told.text and "Classifica" in told.text
    assert told.picture() is None and not told.attachments, "words alone where pictures are off"

    row = await w.sessions.tournaments.store.tournament(int(tournament))
    assert row is not None and row.status == Status.FINISHED
    news = TournamentNews(view_of(row), round_done=1, champion=view_of(row).champion)
    route = rf"channels/{w.channel.id}/messages"
    await w.front.lanes.idle()
    w.fake.fail_next("POST", route, 400, 50035, "Invalid Form Body")
    with pytest.raises(TournamentUntold):
        await w.front.tournaments.told(news)
    w.fake.fail_next("POST", route, 403, 50013, "Missing Permissions")
    await w.front.tournaments.told(news)
    assert len(_champions(w, w.channel)) == 1, "a failed post is owed again, a refused one dropped"


async def test_the_sign_up_buttons_work_after_a_restart(world: World) -> None:
    w = world
    signup = await _signup(w, w.channel, "swiss=2")
    await w.restart()
    joined = await w.fake.press(w.carla, signup, custom_id=_button(signup, "join"))
    assert joined.reply is signup
    await w.fake.wait_for(partial(_names, signup, "Carla"), what="Carla signed up after the restart")
    left = await w.fake.press(w.carla, signup, custom_id=_button(signup, "leave"))
    assert left.reply is signup
    await w.fake.wait_for(lambda: "Carla" not in signup.text, what="Carla gone from the sign-up")
    twice = await w.fake.press(w.carla, signup, custom_id=_button(signup, "leave"))
    assert twice.reply.ephemeral and "Non sei nel torneo" in twice.reply.text, twice.reply.text


async def test_a_duplicate_event_in_a_thread_ranks_its_players_by_their_play(world: World) -> None:
    w = world
    w.sessions.tournaments.pause = 0.0
    thread = w.fake.add_thread(w.channel, "duplicato", w.alice)
    in_thread = replace(w, channel=thread)
    opened = await w.fake.slash(w.alice, thread, "duplicate", setup="deals=1")
    signup = opened.reply
    assert "stesse carte" in signup.text and not signup.ephemeral, signup.text
    for user in (w.bob, w.carla, w.dino):
        await w.fake.press(user, signup, custom_id=_button(signup, "join"))
    await w.fake.press(w.alice, signup, custom_id=_button(signup, "start"))
    users = {u.id: u for u in (w.alice, w.bob, w.carla, w.dino)}
    played: list[int] = []
    while (game_id := await _settled_match(w, thread, played)) is not None:
        played.append(game_id)
        row = await w.sessions.queries.game(game_id)
        await play_to_end(in_thread, game_id, [users[int(s.player.user_key)] for s in row.seats if s.player])
    [told] = await w.fake.wait_for(lambda: _champions(w, thread), what="the event's winner")
    assert len(played) == 2, "two tables, one round"
    assert "Duplicato — quanto hanno dato le carte" in told.text and told.picture() is not None


async def _settled_match(w: World, where: Channel, played: list[int]) -> int | None:
    await w.sessions.tournaments.settled()
    return await _next_match(w, where, played)


async def test_a_thread_that_takes_no_files_is_told_its_champion_in_words(world: World) -> None:
    w = world
    w.sessions.tournaments.pause = 0.0
    thread = w.fake.add_thread(w.channel, "senza-file", w.alice)
    thread.bot_permissions &= ~ATTACH_FILES
    signup = await _signup(w, thread, "target=1")
    await w.fake.press(w.bob, signup, custom_id=_button(signup, "join"))
    await w.fake.press(w.alice, signup, custom_id=_button(signup, "start"))
    game_id = await _settled_match(w, thread, [])
    assert game_id is not None
    await play_to_end(replace(w, channel=thread), game_id, [w.alice, w.bob])
    await w.sessions.tournaments.settled()
    [told] = await w.fake.wait_for(lambda: _champions(w, thread), what="the champion")
    assert not told.attachments and "Classifica" in told.text


async def test_a_press_the_database_fails_is_answered_to_its_presser(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    w = world
    signup = await _signup(w, w.channel)

    async def failing(*args: object) -> None:
        raise StorageFailed("disk full")

    monkeypatch.setattr(w.sessions.tournaments, "join", failing)
    pressed = await w.fake.press(w.bob, signup, custom_id=_button(signup, "join"))
    assert pressed.reply.ephemeral and "trouble with its database" in pressed.reply.text
    assert "Bob" not in signup.text
