"""What every front-end shows, as players read it in Italian, English and Spanish: who took
the cards left on the table, the counts behind a round's points, teams and aligned tables,
scope and escobas by number, ratings, refusals in one language, and the card legend."""

from __future__ import annotations

from bot.engine import Card, Game, Move
from bot.pictures import last_play_of, table_scene
from bot.render.boards import leaderboard_text, stats_text
from bot.render.round import breakdown_text, match_text, monospace_table
from bot.render.words import (
    card_legend,
    display_width,
    hand_text,
    lobby_text,
    move_text,
    refusal_text,
    short_name,
    sweep_count,
    table_text,
)
from bot.sessions import LeaderboardLine, MatchEnded, MovePlayed, Reason, Refused, RoundEnded

from ..sessions_helpers import ALICE, BOB, CARLA, CHAT, DINO, open_memory_sessions, play_to_end, recorded

SEVEN = Card.parse("7D")
THREE = Card.parse("3C")


def _move(**changes: object) -> MovePlayed:
    fields: dict[str, object] = dict(game_id=1, platform="test", chat_key="c", version=5, seat=0,
                                     name="Anna", card=SEVEN, captured=(), scopa=False)
    fields.update(changes)
    return MovePlayed(**fields)  # type: ignore[arg-type]


def test_the_move_that_ends_a_round_says_who_took_the_cards_left_on_the_table() -> None:
    event = _move(leftover=(SEVEN, THREE), leftover_seat=1, leftover_name="Marco")
    assert move_text(event, "it", "napoletane").splitlines()[-1] == "Marco prende le carte rimaste: 7🪙 3🏆"
    assert move_text(event, "en", "napoletane").splitlines()[-1] == "Marco takes what is left: 7🪙 3🏆"
    assert "Marco" in move_text(event, "es", "napoletane").splitlines()[-1]
    assert "Marco" not in move_text(_move(), "it", "napoletane")


async def test_a_played_round_announces_the_leftovers_and_its_counts() -> None:
    sessions = await open_memory_sessions()
    seen = recorded(sessions)
    await sessions.lobby.new_game(CHAT, ALICE, "scopa")
    await sessions.lobby.join(CHAT, BOB)
    game_id = (await sessions.lobby.start(CHAT, ALICE)).game_id
    await play_to_end(sessions, game_id, [ALICE, BOB])
    last = [e for e in seen if isinstance(e, MovePlayed) and e.leftover]
    assert last, "some round ends with cards left on the table"
    assert last[0].leftover_name in ("Alice", "Bob")
    assert f"{last[0].leftover_name} prende le carte rimaste" in move_text(last[0], "it", "napoletane")
    ended = next(e for e in seen if isinstance(e, RoundEnded))
    for lang, words in (("it", ("Conteggi", "carte", "denari", "settebello", "scope")),
                        ("en", ("Counts", "cards", "coins", "settebello", "scope")),
                        ("es", ("Recuento", "cartas", "oros", "7 de oros", "scope"))):
        counts = breakdown_text(ended, lang).splitlines()[-1]
        assert all(word in counts for word in words), (lang, counts)
    await sessions.close()


async def test_teams_read_as_pairs_and_computers_are_told_apart() -> None:
    sessions = await open_memory_sessions()
    await sessions.lobby.new_game(CHAT, ALICE, "scopone")
    for user in (BOB, CARLA, DINO):
        await sessions.lobby.join(CHAT, user)
    table = await sessions.lobby.start(CHAT, ALICE)
    score = next(line for line in table_text(table, "en", now=0).splitlines() if line.startswith("Score"))
    assert "Alice & Carla 0 · Bob & Dino 0" in score
    await sessions.lobby.cancel(CHAT, ALICE)
    await sessions.lobby.new_game(CHAT, ALICE, "scopa", {"players": 3})
    await sessions.lobby.add_computer(CHAT, ALICE, "easy")
    lobby = await sessions.lobby.add_computer(CHAT, ALICE, "easy")
    names = [seat.name for seat in lobby.seats if seat is not None and seat.is_computer]
    assert len(set(names)) == 2
    text = lobby_text(lobby, "it")
    assert all(name in text for name in names)
    await sessions.close()


def test_table_columns_line_up_by_display_width_and_names_are_cut_at_a_word() -> None:
    assert display_width("CPU 🙂") == 6 and display_width("2🗡️") == 3 and display_width("Zoë") == 3
    assert short_name("Maria Luisa Rossi", 14) == "Maria Luisa…"
    assert short_name("Anna", 14) == "Anna"
    rows = [["Lato", "Carte", "Scope"], ["CPU 🙂 & CPU 😈", "22", "1"], ["Anna & Marco", "18", "0"]]
    lines = monospace_table(rows, max_name=16).splitlines()
    assert len({display_width(line) for line in lines}) == 1, lines
    assert lines[1].startswith("CPU 🙂 & CPU 😈  ")


def test_scope_are_counted_with_their_plural_and_escobas_are_escobas() -> None:
    assert [sweep_count(n, "it") for n in (0, 1, 2)] == ["0 scope", "1 scopa", "2 scope"]
    assert sweep_count(1, "es") == "1 scopa" and sweep_count(3, "en") == "3 scope"
    assert [sweep_count(n, "en", "escoba") for n in (1, 2)] == ["1 escoba", "2 escobas"]
    sweep = _move(captured=(SEVEN,), scopa=True)
    assert "Scopa!" in move_text(sweep, "it", "napoletane")
    assert "¡Scopa!" in move_text(sweep, "es", "napoletane")
    escoba = _move(captured=(SEVEN,), scopa=True, variant="escoba")
    assert "Escoba!" in move_text(escoba, "it", "napoletane")
    assert "Escoba!" in move_text(escoba, "en", "napoletane")
    assert "¡Escoba!" in move_text(escoba, "es", "napoletane")


def test_an_escoba_table_counts_escobas() -> None:
    from bot.sessions.views import table_view

    from .test_i18n_es import _row

    game = Game.new("escoba", 2, seed=7)
    text = table_text(table_view(_row(game, "escoba"), game), "it", now=0)
    assert "0 escobas" in text and "scope" not in text


def test_a_new_players_rating_is_positive_after_one_loss_and_is_not_called_a_score() -> None:
    ended = MatchEnded(1, "test", "c", 0, (11, 4), ("Anna", "Marco"),
                       rating_changes=(("Anna", 0.0, 1.9), ("Marco", 0.0, -1.4)))
    it = match_text(ended, "it")
    assert "Marco: valutazione 1000 → 944" in it and "punteggio" not in it
    assert "Marco: rating 1000 → 944" in match_text(ended, "en")
    assert "valoración 1000 → 944" in match_text(ended, "es")
    board = leaderboard_text([LeaderboardLine(1, "Marco", -1.4, 1, 0, 1)], "it", False)
    assert "valutazione 944" in board and "1 scopa" in board and "-" not in board.split("—", 1)[1]
    stats = stats_text("Marco", {"games": 1, "wins": 0, "scope": 2, "points": 4,
                                 "ratings": {"duel": {"rating": -1.4, "games": 1, "wins": 0}}}, "en")
    assert "2 scope" in stats and "rating 944" in stats


def test_refusals_are_in_the_users_language_alone() -> None:
    refused = Refused(Reason.BAD_OPTION, detail="unknown rule option 'colour'", asked="colour=red")
    assert refusal_text(refused, "it") == "Opzione non valida: colour=red"
    assert "colour=red" in refusal_text(refused, "es") and "unknown" not in refusal_text(refused, "es")
    assert "unknown rule option 'colour'" in refusal_text(refused, "en")


def test_the_card_legend_names_the_figures_and_suits_of_each_deck() -> None:
    it = card_legend("napoletane", "it")
    assert "F = fante (8)" in it and "C = cavallo (9)" in it and "R = re (10)" in it and "🪙 denari" in it
    es = card_legend("napoletane", "es")
    assert "sota" in es and "caballo" in es and "rey" in es and "🪙 oros" in es
    french = card_legend("french", "en")
    assert "J = jack" in french and "K = king" in french and "♦ coins" in french
    assert "denari" not in card_legend("napoletane", "en"), "one English word for each suit"


async def test_the_first_hand_explains_the_cards() -> None:
    sessions = await open_memory_sessions()
    await sessions.lobby.new_game(CHAT, ALICE, "scopa")
    await sessions.lobby.join(CHAT, BOB)
    game_id = (await sessions.lobby.start(CHAT, ALICE)).game_id
    table = await sessions.queries.table(game_id)
    user = ALICE if table.to_play == 0 else BOB
    hand = await sessions.queries.hand(game_id, user)
    assert hand.first_hand and hand.shows_legend
    assert "fante" not in hand_text(hand, "it", "scopa"), "a front-end adds the legend once, not the text"
    await sessions.play.play(game_id, user, hand.version, hand.choices[0].moves[0].code)
    after = await sessions.queries.hand(game_id, user)
    assert not after.first_hand and not after.shows_legend
    await sessions.close()


def test_stats_count_the_federal_wins_by_kind_when_there_are_any() -> None:
    stats = {"games": 3, "wins": 3, "scope": 1, "points": 27, "ratings": {},
             "win_kinds": {"semplice": 1, "doppia": 2, "tripla": 0}}
    assert "Vittorie federali: 1 semplice, 2 doppie, 0 triple" in stats_text("Anna", stats, "it")
    assert "Victorias federales: 1 sencilla, 2 dobles, 0 triples" in stats_text("Anna", stats, "es")
    assert "Federal wins: 1 single, 2 double, 0 triple" in stats_text("Anna", stats, "en")
    assert "Federal" not in stats_text("Anna", {**stats, "win_kinds": {}}, "en")


async def test_the_last_table_of_a_match_says_who_took_the_cards_left() -> None:
    sessions = await open_memory_sessions()
    seen = recorded(sessions)
    for _ in range(8):
        await sessions.settings.set_chat_defaults(CHAT, {"target": 1})
        await sessions.lobby.new_game(CHAT, ALICE, "scopa")
        await sessions.lobby.join(CHAT, BOB)
        game_id = (await sessions.lobby.start(CHAT, ALICE)).game_id
        await play_to_end(sessions, game_id, [ALICE, BOB])
        last = [e for e in seen if isinstance(e, MovePlayed) and e.game_id == game_id][-1]
        if last.leftover and last.leftover_seat is not None:
            break
    else:
        raise AssertionError("no match ended with cards left on the table")
    view = await sessions.queries.table(game_id)
    assert view.finished and not view.table
    swept = view.last_plays[-1]
    assert swept.leftover and swept.name == last.leftover_name and set(swept.captured) == set(last.leftover)
    assert view.last_plays[-2].card == last.card, "the round's last play comes just before"
    scene = table_scene(view)
    assert scene.last_play is not None and scene.last_play.leftover
    assert scene.last_play == last_play_of(last), "the same from the view and from the event"
    text = table_text(view, "en", now=0)
    assert text.count("takes what is left") == 1 and f"• {last.leftover_name} takes what is left" in text
    await sessions.close()


def test_every_deck_offered_is_drawn_and_written_with_its_own_signs() -> None:
    from bot.pictures import Style
    from bot.render.words import SUIT_SIGNS, card_label, refusal_text
    from bot.sessions.options import DECK_STYLES

    assert set(DECK_STYLES) == set(SUIT_SIGNS) == {style.value for style in Style}
    clubs = Card.parse("8B")
    assert {style: card_label(clubs, style) for style in DECK_STYLES} == {
        "napoletane": "F🪵", "piacentine": "F🪵", "siciliane": "F🪵", "trevisane": "F🪵",
        "bergamasche": "F🪵", "french": "J♣", "spanish": "S🪵"}
    coins = Card.parse("8D")
    refused = Refused(Reason.MUST_CAPTURE, card=coins, example=Move(coins, (clubs,)), deck_style="piacentine")
    assert refusal_text(refused, "it") == "Devi prendere: F🟡 → F🪵."
