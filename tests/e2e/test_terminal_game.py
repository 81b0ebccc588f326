"""The terminal game: bad input is explained, quitting keeps the match, running again resumes."""

from __future__ import annotations

import dataclasses
import io
import re
from collections.abc import Iterator
from pathlib import Path

from bot.adapters.terminal import TerminalGame
from bot.engine import DECK, Card, Move, RoundResult, SideScore, SideTally
from bot.render.counts import round_counts_text
from bot.sessions import CardChoice, HandView, MovePlayed, RoundEnded, Sessions

from ..sessions_helpers import FakeClock, open_sessions


def feeder(lines: Iterator[str]) -> object:
    def read_line() -> str:
        return next(lines, "")

    return read_line


async def test_bad_input_then_quit_then_resume_to_the_end(tmp_path: Path) -> None:
    db = tmp_path / "terminal.db"
    sessions = await open_sessions(db)
    out = io.StringIO()
    script = iter(["abc", "99", "h", "1", "1", "1", "q"])
    game = TerminalGame(sessions, lang="en", out=out, read_line=feeder(script))  # type: ignore[arg-type]
    game_id = await game.setup("scopa", 2, "easy", False)
    finished = await game.run(game_id)
    text = out.getvalue()
    assert not finished
    assert "“abc” is not a move" in text and "“99” is not a move" in text
    assert "Type the number of a move" in text
    assert "Match saved" in text
    assert "Your moves:" in text and "1. " in text
    version = (await sessions.queries.table(game_id)).version
    assert version >= 3
    await sessions.close()

    again = await open_sessions(db)
    out = io.StringIO()
    endless = iter(["1"] * 5000)
    resumed = TerminalGame(again, lang="it", out=out, read_line=feeder(endless))  # type: ignore[arg-type]
    assert await resumed.setup("scopa", 2, "easy", False) == game_id
    assert (await again.queries.table(game_id)).version == version
    assert await resumed.run(game_id)
    text = out.getvalue()
    assert "Fine della smazzata" in text and "Partita finita" in text
    table = await again.queries.table(game_id)
    assert table.finished and table.winner is not None
    await again.close()


async def test_a_spanish_player_asks_for_help_and_quits_in_spanish(tmp_path: Path) -> None:
    sessions = await open_sessions(tmp_path / "terminal.db")
    out = io.StringIO()
    game = TerminalGame(sessions, lang="es", out=out,  # type: ignore[arg-type]
                        read_line=feeder(iter(["ayuda", "salir"])))
    assert not await game.run(await game.setup("escoba", 2, "easy", False))
    text = out.getvalue()
    assert "Escribe el número de una jugada" in text and "Partida guardada" in text
    assert "no es una jugada" not in text
    await sessions.close()


async def test_a_four_player_game_with_rule_options_and_three_computers(tmp_path: Path) -> None:
    sessions = await open_sessions(tmp_path / "terminal.db")
    out = io.StringIO()
    game = TerminalGame(sessions, lang="en", out=out, read_line=feeder(iter(["q"])))  # type: ignore[arg-type]
    game_id = await game.setup("scopone", None, "medium", False, {"round_limit": "1", "re_bello": "on"})
    await game.run(game_id)
    table = await sessions.queries.table(game_id)
    assert [seat.name for seat in table.seats][1:] == ["Bruna 🤔", "Ciro 🤔", "Dora 🤔"]
    assert "Scopone · round 1 of 1" in out.getvalue()
    rules = (await sessions.queries.lobby_of(game_id)).rules
    assert rules.round_limit == 1 and rules.re_bello
    await sessions.close()


async def test_declaring_fuori_in_the_terminal(tmp_path: Path) -> None:
    sessions = await open_sessions(tmp_path / "terminal.db")
    out = io.StringIO()
    script = iter(["h", "f 99", "f1", "y", ""])
    game = TerminalGame(sessions, lang="en", out=out, read_line=feeder(script))  # type: ignore[arg-type]
    game_id = await game.setup("scopone", None, "easy", False, {"fuori": "on"})
    assert await game.run(game_id)
    text = out.getvalue()
    assert "f and the number of a move (f 1): play it and declare fuori." in text
    assert "so you would LOSE" in text and "Declare fuori? y to confirm" in text
    assert "“f 99” is not a move" in text
    assert "declared fuori, but" in text and "Match over" in text
    await sessions.close()


def console_game(sessions: Sessions, script: list[str], lang: str = "en") -> tuple[TerminalGame, io.StringIO]:
    out = io.StringIO()
    game = TerminalGame(sessions, lang=lang, out=out, read_line=feeder(iter(script)))  # type: ignore[arg-type]
    return game, out


async def test_the_prompt_is_where_the_cursor_waits(tmp_path: Path) -> None:
    sessions = await open_sessions(tmp_path / "terminal.db")
    game, out = console_game(sessions, ["h", "q"])
    await game.run(await game.setup("scopa", 2, "easy", False))
    text = out.getvalue()
    prompt = "Your move (number), h help, q quit: "
    assert text.count(prompt) == 2
    assert text.index("Your moves:") < text.index(prompt) < text.index("Type the number of a move")
    assert "Your turn: type the number of a move." in text and "tap a card" not in text
    assert "F = fante (jack, 8)" in text and "🪙 coins" in text and "denari" not in text
    assert "fuori" not in text, "no fuori in a 2-player scopa's help"
    await sessions.close()


async def test_a_match_to_the_end_shows_each_rounds_counts(tmp_path: Path) -> None:
    sessions = await open_sessions(tmp_path / "terminal.db")
    game, out = console_game(sessions, ["1"] * 3000)
    assert await game.run(await game.setup("scopa", 2, "easy", False, {"round_limit": "1"}))
    text = out.getvalue()
    counts = text[text.index("Counts ("):].splitlines()[0]
    primiera = r"(\d+–\d+|none – \d+|\d+ – none)"
    assert re.search(rf"cards \d+–\d+ · coins \d+–\d+ · primiera {primiera} · settebello: \S+", counts)
    assert re.search(r"scope \d+–\d+", counts)
    await sessions.close()


def round_end(primiera: str) -> RoundEnded:
    points = [dict.fromkeys(("cards", "coins", "settebello", primiera, "scope"), 0) for _ in range(2)]
    points[0].update(cards=1, coins=1, settebello=1, scope=2)
    points[1][primiera] = 1
    tallies = (SideTally(22, 7, 1, 3, 73, 2, True), SideTally(18, 3, 3, 2, 78, 0, False))
    result = RoundResult(1, 0, tuple(SideScore(p, x) for p, x in zip(points, tallies, strict=True)),
                         (5, 1), None, tuple(points[0]))
    return RoundEnded(1, "terminal", "local", result, ("root", "CPU 🙂"))


async def test_the_cards_left_on_the_table_are_announced_before_the_round_summary(tmp_path: Path) -> None:
    sessions = await open_sessions(tmp_path / "terminal.db")
    game, out = console_game(sessions, [""])
    game.names = {0: "root", 1: "CPU 🙂"}
    last = MovePlayed(1, "terminal", "local", 40, 0, "root", card_of("5C"), (), False,
                      leftover=(card_of("3D"), card_of("10S")), leftover_seat=1, leftover_name="CPU 🙂")
    game._record(last, "napoletane")
    assert game.log[-1] == "CPU 🙂 takes what is left: 3🪙 R🗡️"
    assert sum("takes what is left" in line for line in game.log) == 1, "said once"
    assert not await game._drain(round_end("primiera"), "napoletane")
    text = out.getvalue()
    assert text.index("• CPU 🙂 takes what is left: 3🪙 R🗡️") < text.index("📊 End of round 1")
    assert text.count("takes what is left") == 1
    assert ("Counts (root – CPU 🙂): cards 22–18 · coins 7–3 · primiera 73–78 · settebello: root"
            " · scope 2–0") in text
    await sessions.close()


def test_round_counts_name_sevens_where_they_score_instead_of_the_primiera() -> None:
    text = round_counts_text(round_end("sevens"), "it")
    assert text == ("Conteggi (root – CPU 🙂): carte 22–18 · denari 7–3 · sette 1–3 · settebello: root"
                    " · scope 2–0")


def card_of(text: str) -> Card:
    return next(card for card in DECK if card.code == text)


def test_a_card_that_cannot_be_played_is_listed_with_the_reason() -> None:
    two, four, six = card_of("2D"), card_of("4D"), card_of("6C")
    takes_two, takes_six = Move(two, (card_of("2S"),)), Move(six, (card_of("6D"),))
    hand = HandView(1, 5, 0, "napoletane", (two, four, six), (card_of("2S"), card_of("6D")), True,
                    (CardChoice(two, (takes_two,)), CardChoice(six, (takes_six,))), False)
    game = TerminalGame.__new__(TerminalGame)
    game.lang = "en"
    assert game._blocked_lines(hand) == [
        "Not playable now:", "  4🪙: you must capture: 2🪙 takes 2🗡️"]
    game.lang = "it"
    assert game._blocked_lines(hand)[1] == "  4🪙: devi prendere: 2🪙 prende 2🗡️"


async def test_asking_for_another_variant_offers_to_resume_or_start_it(tmp_path: Path) -> None:
    sessions = await open_sessions(tmp_path / "terminal.db")
    game, _ = console_game(sessions, ["q"])
    scopa = await game.setup("scopa", 2, "easy", False)
    assert scopa is not None
    await game.run(scopa)

    game, out = console_game(sessions, ["1", "q"])
    assert await game.setup("escoba", None, "easy", False) == scopa
    assert ("A match of Scopa is open in this terminal (round 1, " in out.getvalue()
            and "you asked for Escoba" in out.getvalue())

    game, out = console_game(sessions, ["x", "2", "q"])
    escoba = await game.setup("escoba", None, "easy", False)
    assert escoba not in (None, scopa)
    assert "Type 1 or 2." in out.getvalue()
    await game.run(escoba)
    assert "Escoba · round 1" in out.getvalue()
    assert (await sessions.queries.table(scopa)).status == "running"

    for variant, expected in (("scopa", scopa), ("escoba", escoba), (None, scopa)):
        game, out = console_game(sessions, [])
        assert await game.setup(variant, None, "easy", False) == expected
        assert "is open in this terminal" not in out.getvalue()
    await sessions.close()


async def test_a_turn_that_timed_out_while_away_is_shown_and_no_internal_text(tmp_path: Path) -> None:
    clock = FakeClock()
    sessions = await open_sessions(tmp_path / "terminal.db", clock)
    game, _ = console_game(sessions, [])
    game_id = await game.setup("scopa", 2, "easy", False)
    assert game_id is not None
    while not (await sessions.queries.hand(game_id, game.user)).my_turn:
        clock.advance(1)
        await sessions.scheduler.run_due()
    clock.advance(3601)

    game, out = console_game(sessions, ["1", "1", "1", "q"])
    await game.run(game_id)
    text = out.getvalue()
    assert re.search(r"  ⏰ time is up for \S+: the computer played\n  \S+ plays ", text)
    assert "not in the hand" not in text and "not allowed" not in text
    await sessions.close()


async def test_a_match_shown_in_the_terminal_owes_nothing_afterwards(tmp_path: Path) -> None:
    sessions = await open_sessions(tmp_path / "terminal.db")
    game, _ = console_game(sessions, ["1"] * 400)
    game_id = await game.setup("scopa", 2, "easy", False, {"target": 1})
    assert game_id is not None and await game.run(game_id)
    assert await sessions.delivery.owed_notices("terminal") == []
    await sessions.close()


async def test_scopone_names_the_computers_the_teams_and_the_partner(tmp_path: Path) -> None:
    sessions = await open_sessions(tmp_path / "terminal.db")
    game, out = console_game(sessions, ["q"])
    game_id = await game.setup("scopone", None, "easy", False)
    assert game_id is not None
    await game.run(game_id)
    text, me = out.getvalue(), game.user.name
    assert f"Score: {me} & Ciro 🙂 0 · Bruna 🙂 & Dora 🙂 0 (to 11)" in text
    assert "Your partner: Ciro 🙂." in text
    await sessions.close()


async def test_a_round_end_names_the_teams_in_full(tmp_path: Path) -> None:
    sessions = await open_sessions(tmp_path / "terminal.db")
    game, out = console_game(sessions, [""])
    teams = ("Maria Luisa & Ciro 🙂", "Bruna 🙂 & Dora 🙂")
    assert not await game._drain(dataclasses.replace(round_end("primiera"), side_names=teams), "napoletane")
    breakdown = out.getvalue()
    header = next(line for line in breakdown.splitlines() if "Maria" in line)
    assert "Maria Luisa & Ciro 🙂" in header and "Bruna 🙂 & Dora 🙂" in header, "a column each"
    assert "…" not in header and "+" not in header, "a terminal is wide enough for the whole names"
    await sessions.close()


async def test_the_table_is_drawn_once_per_turn_and_a_bad_line_gets_only_its_error(tmp_path: Path) -> None:
    sessions = await open_sessions(tmp_path / "terminal.db")
    game, out = console_game(sessions, ["abc", "h", "1", "1", "q"])
    game_id = await game.setup("scopone", None, "easy", False)
    assert game_id is not None
    await game.run(game_id)
    text = out.getvalue()
    prompt = "Your move (number), h help, q quit: "
    after_bad = text[text.index("“abc” is not a move"):]
    assert "Score:" not in after_bad[:after_bad.index(prompt)], "no table again after a bad line"
    after_help = after_bad[after_bad.index("Type the number of a move"):]
    assert "Score:" not in after_help[:after_help.index(prompt)], "nor after the help"
    turns = text.count("Your moves:")
    assert turns == 3 and text.count("Score:") <= turns + 1, "one table at the start, then one per turn"
    assert "within" not in text, "the terminal has no time limit to show"
    assert "• " not in text and "Last moves:" in text, "the latest plays once, under Last moves"
    await sessions.close()


async def test_a_spanish_escoba_is_played_to_its_end_with_the_spanish_deck(tmp_path: Path) -> None:
    sessions = await open_sessions(tmp_path / "terminal.db")
    game, out = console_game(sessions, ["ayuda", "reglas", *["1"] * 3000], lang="es")
    game_id = await game.setup("escoba", 2, "easy", False, {"round_limit": "1"})
    assert (await sessions.queries.game(game_id)).deck_style == "spanish"
    assert await game.run(game_id)
    text = out.getvalue()
    assert "S = sota (la 10, vale 8)" in text and "🪙 oros, 🍷 copas, 🗡️ espadas, 🪵 bastos" in text
    assert "Los sietes (la setenta)" in text and "la sota (la 10) vale 8" in text
    labels = set(re.findall(r"\b([0-9]{1,2}|[ASCRF])(🪙|🍷|🗡️|🪵)", text))
    assert labels and not any(letter == "F" for letter, _ in labels), "sota, caballo, rey: S, C, R"
    assert "Fin de la ronda 1" in text and "Partida terminada" in text
    assert re.search(r"\n\S+ gana la partida \d+ a \d+\n", text), "the winner is the subject"
    for word in ("fuori", "Ganadas", "ganadas", "Bazas", "CPU", "denari", "Tocca"):
        assert word not in text, word
    await sessions.close()
