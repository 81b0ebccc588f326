"""Achievements and the figures of /stats: hand-built records that earn each achievement (and
near misses that do not), matches played through the sessions whose achievements are told
once and never in practice or a deal of the day, and /stats checked against those matches."""

from __future__ import annotations

import json
from typing import Any

from bot.render.boards import achievements_line, stats_text
from bot.sessions import AchievementsEarned, ChatRef
from bot.sessions.feats import Feat, Tally, earned, seat_facts, tally
from bot.sessions.records import MatchKind, PlayedMatch

from ..sessions_helpers import ALICE, BOB, CHAT, open_memory_sessions, play_to_end, recorded, start_duel


def _play(seat: int, card: str = "1C", captured: tuple[str, ...] = (), scopa: bool = False) -> dict[str, Any]:
    return {"seat": seat, "card": card, "captured": list(captured), "scopa": scopa}


def _round(plays: list[dict[str, Any]], *scores: dict[str, int], last: int | None = 0,
           fuori: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"plays": plays, "last_capture_seat": last,
                           "score": [{**score, "total": sum(score.values())} for score in scores]}
    if fuori is not None:
        out["fuori"] = fuori
    return out


def _record(*rounds: dict[str, Any], teams: tuple[tuple[int, ...], ...] = ((0,), (1,)),
            winner: int | None = 0) -> dict[str, Any]:
    totals = [sum(r["score"][side]["total"] for r in rounds) for side in range(len(teams))]
    return {"format": "scopa-record/1", "teams": [list(t) for t in teams], "rounds": list(rounds),
            "totals": totals, "winner": winner}


def _feats(record: dict[str, Any], seat: int, had: tuple[str, ...] = (),
           before: int | None = 0) -> list[Feat]:
    return earned(seat_facts(record, seat), had, before)


SCOPA = _play(0, "5C", ("5S",), scopa=True)


def test_a_first_scopa_is_earned_by_whoever_made_one_and_only_the_first_time() -> None:
    record = _record(_round([SCOPA, _play(1)], {"scope": 1, "cards": 10}, {"scope": 0, "cards": 1}))
    assert _feats(record, 0) == [Feat.FIRST_SCOPA]
    assert _feats(record, 1) == []
    assert _feats(record, 0, had=("first_scopa",)) == []


def test_four_scope_in_one_round_by_one_player_and_not_spread_over_rounds_or_partners() -> None:
    four = _record(_round([SCOPA] * 4, {"scope": 4, "cards": 7}, {"scope": 0, "cards": 4}))
    assert seat_facts(four, 0).round_scope == 4
    assert Feat.FOUR_SCOPE in _feats(four, 0)
    two = _round([SCOPA] * 2, {"scope": 2}, {"scope": 0})
    spread = _record(two, two)
    assert seat_facts(spread, 0).scope == 4 and Feat.FOUR_SCOPE not in _feats(spread, 0)
    by_both = [SCOPA, SCOPA, _play(2, scopa=True), _play(2, scopa=True)]
    partners = _record(_round(by_both, {"scope": 4}, {"scope": 0}), teams=((0, 2), (1, 3)))
    assert Feat.FOUR_SCOPE not in _feats(partners, 0) + _feats(partners, 2)


def test_a_match_won_with_the_other_side_at_nil_is_a_shutout_for_the_whole_winning_side() -> None:
    eleven = {"cards": 1, "coins": 1, "settebello": 1, "primiera": 1, "scope": 7}
    nil = _record(_round([], eleven, {"scope": 0}), teams=((0, 2), (1, 3)))
    assert [Feat.SHUTOUT in _feats(nil, seat) for seat in range(4)] == [True, False, True, False]
    one = _record(_round([], {"scope": 11}, {"cards": 1}))
    assert Feat.SHUTOUT not in _feats(one, 0)
    lost = _record(_round([], {"scope": 0}, {"scope": 11}), winner=1)
    assert Feat.SHUTOUT not in _feats(lost, 0), "the loser at nil earns nothing"


def test_a_napola_counts_where_the_variant_scores_it() -> None:
    napola = _record(_round([], {"napola": 3, "cards": 1}, {"scope": 0}), teams=((0, 2), (1, 3)))
    assert Feat.NAPOLA in _feats(napola, 0) and Feat.NAPOLA in _feats(napola, 2)
    assert Feat.NAPOLA not in _feats(napola, 1)
    plain = _record(_round([], {"cards": 1, "coins": 1}, {"scope": 0}))
    assert Feat.NAPOLA not in _feats(plain, 0)


def test_a_comeback_is_a_win_after_trailing_by_six_at_a_rounds_end() -> None:
    comeback = _record(_round([], {"cards": 0}, {"cards": 1, "coins": 1, "primiera": 1, "scope": 3}),
                       _round([], {"cards": 1, "coins": 1, "primiera": 1, "settebello": 1, "scope": 7},
                              {"scope": 0}))
    assert seat_facts(comeback, 0).comeback and Feat.COMEBACK in _feats(comeback, 0)
    assert Feat.COMEBACK not in _feats(comeback, 1)
    five = _record(_round([], {"cards": 0}, {"scope": 5}), _round([], {"scope": 11}, {"scope": 0}))
    assert Feat.COMEBACK not in _feats(five, 0), "five behind is not far enough"
    lost = _record(_round([], {"cards": 0}, {"scope": 6}), _round([], {"scope": 4}, {"scope": 5}), winner=1)
    assert Feat.COMEBACK not in _feats(lost, 0)


def test_the_settebello_goes_to_the_seat_that_took_it_and_ten_of_them_earn_once() -> None:
    taken = _round([_play(0, "7C"), _play(1, "7B", ("7D",))], {"cards": 0}, {"settebello": 1})
    played = _round([_play(0, "7D", ("4C", "3S")), _play(1, "1C")], {"settebello": 1}, {"cards": 0})
    left = _round([_play(0, "1C", ("1S",)), _play(1, "7B")], {"settebello": 1}, {"cards": 0}, last=0)
    fuori = _round([_play(0, "1C", ("1S",))], {"cards": 0}, {"cards": 0}, last=0, fuori=0)
    record = _record(taken, played, left, fuori)
    assert (seat_facts(record, 0).settebello, seat_facts(record, 1).settebello) == (2, 1)
    assert Feat.SETTEBELLO_TEN in _feats(record, 0, before=8)
    assert Feat.SETTEBELLO_TEN not in _feats(record, 0, before=7)
    assert Feat.SETTEBELLO_TEN not in _feats(record, 0, before=None), "not looked up: not earned here"
    assert Feat.SETTEBELLO_TEN not in _feats(record, 0, had=("settebello_ten",), before=20)


def _match(game_id: int, record: dict[str, Any], kind: MatchKind = MatchKind.COUNTED, seat: int = 0,
           variant: str = "scopa") -> PlayedMatch:
    return PlayedMatch(game_id, seat, variant, kind, record["winner"] == 0, float(game_id),
                       json.dumps(record))


def test_the_figures_count_only_matches_that_count_and_the_others_apart() -> None:
    won = _record(_round([SCOPA, SCOPA, _play(0, "7D", ("7C",))],
                         {"settebello": 1, "primiera": 1, "scope": 2}, {"cards": 1}))
    lost = _record(_round([SCOPA], {"scope": 1}, {"primiera": 1, "settebello": 1, "cards": 1}, last=1),
                   winner=1)
    big = _record(_round([SCOPA] * 5, {"scope": 5, "primiera": 1}, {"cards": 1}))
    figures = tally([
        _match(1, won), _match(2, won), _match(3, lost), _match(4, won, variant="scopone"),
        _match(5, won, variant="escoba"), _match(6, won), _match(7, lost),
        _match(8, big, MatchKind.PRACTICE), _match(9, lost, MatchKind.PRACTICE),
        _match(10, big, MatchKind.DAILY)])
    assert figures == Tally(games=7, scope_record=2, settebello=5, primiera=5, best_streak=3,
                            by_variant={"scopa": (3, 2), "scopone": (1, 0), "escoba": (1, 0)},
                            practice=(2, 1), dailies=(1, 1))


def test_the_achievements_line_and_the_stats_lines_in_each_language() -> None:
    line = achievements_line((("Alice", "first_scopa"), ("Bob", "comeback")), "en")
    assert line == "🏅 Alice: 🧹 First scopa · Bob: 🔄 Comeback"
    assert achievements_line((("Alice", "shutout"),), "it") == "🏅 Alice: 🥚 Cappotto"
    stats = {"games": 3, "wins": 2, "scope": 4, "points": 30, "ratings": {}, "scope_record": 1,
             "settebello": 2, "primiera": 1, "best_streak": 2, "by_variant": {"scopa": (2, 1)},
             "achievements": [("first_scopa", 86_400.0 * 365, 1)], "practice": 2, "practice_won": 1}
    said = stats_text("Alice", stats, "en")
    assert ("Most in one match: 1 scopa · settebello: 2 times · primiera: 1 round · "
            "best streak: 2 wins in a row") in said
    assert "By variant (won–lost): Scopa 2–1" in said
    assert "Achievements: 🧹 First scopa (1971-01-01)" in said
    assert "Not counted: 2 practice matches: 1 won (no rating or board)." in said
    assert "settebello: 2 volte · primiera: 1 smazzata · serie migliore: 2 vittorie di fila" in stats_text(
        "Alice", stats, "it")
    assert "Logros: 🧹 Primera scopa (1971-01-01)" in stats_text("Alice", stats, "es")
    stats["achievements"].append(("tournament_won", 86_400.0 * 366, 2))
    assert "🧹 First scopa (1971-01-01), 🏆 Tournament won 2 times (the last 1971-01-02)" in stats_text(
        "Alice", stats, "en")
    assert "🏆 Torneo vinto 2 volte (l’ultima il 1971-01-02)" in stats_text("Alice", stats, "it")
    assert "🏆 Torneo ganado 2 veces (la última el 1971-01-02)" in stats_text("Alice", stats, "es")


# ---- through the sessions ----------------------------------------------------------


async def test_a_rated_match_earns_what_its_record_shows_told_once_and_listed_in_stats() -> None:
    sessions = await open_memory_sessions()
    seen = recorded(sessions)
    for _ in range(6):
        game_id = await start_duel(sessions)
        await play_to_end(sessions, game_id, [ALICE, BOB])
        record = json.loads(await sessions.store.match_record(game_id))
        if any(seat_facts(record, seat).scope for seat in (0, 1)):
            break
    told = [e for e in seen if isinstance(e, AchievementsEarned)]
    expected = {(name, feat.value) for seat, name in ((0, "Alice"), (1, "Bob"))
                for feat in earned(seat_facts(record, seat), (), None)}
    assert expected and len(told) == 1 and set(told[0].earned) == expected
    owed = [e for e in await sessions.notices.owed("test") if isinstance(e, AchievementsEarned)]
    assert owed == told, "owed until posted"
    posts: list[str] = []

    async def post() -> bool:
        posts.append(achievements_line(told[0].earned, "en"))
        return True

    assert await sessions.delivery.announce(
            told[0], post) and not await sessions.delivery.announce(told[0], post)
    assert len(posts) == 1 and not [e for e in await sessions.notices.owed("test")
                                    if isinstance(e, AchievementsEarned)]
    stats = await sessions.queries.stats(ALICE)
    assert [code for code, *_ in stats["achievements"]] == sorted(
        (code for name, code in expected if name == "Alice"), key=[f.value for f in Feat].index)


async def test_practice_and_deals_of_the_day_earn_nothing_and_are_counted_apart() -> None:
    sessions = await open_memory_sessions()
    seen = recorded(sessions)
    scope = 0
    for _ in range(3):
        game_id = await start_duel(sessions, options={"practice": "on"})
        await play_to_end(sessions, game_id, [ALICE, BOB])
        scope += seat_facts(json.loads(await sessions.store.match_record(game_id)), 0).scope
    daily = (await sessions.daily.start(
            CHAT, ChatRef(ALICE.platform, ALICE.key, ALICE.name), ALICE)).table.game_id
    await play_to_end(sessions, daily, [ALICE])
    scope += seat_facts(json.loads(await sessions.store.match_record(daily)), 0).scope
    assert scope, "scope were made, which would earn a first scopa in a match that counts"
    assert not [e for e in seen if isinstance(e, AchievementsEarned)]
    stats = await sessions.queries.stats(ALICE)
    assert stats["achievements"] == [] and stats["games"] == 0 and stats["by_variant"] == {}
    assert (stats["practice"], stats["dailies"]) == (3, 1)
    practice_won = 0
    for game_id in (1, 2, 3):
        practice_won += next(r.won for r in await sessions.store.results(game_id) if r.seat == 0)
    assert stats["practice_won"] == practice_won
    assert stats["scope_record"] == stats["settebello"] == stats["best_streak"] == 0


async def test_stats_figures_match_the_matches_played() -> None:
    sessions = await open_memory_sessions()
    games = []
    for n in range(5):
        first, second = (ALICE, BOB) if n % 2 == 0 else (BOB, ALICE)
        game_id = await start_duel(sessions, first=first, second=second)
        await play_to_end(sessions, game_id, [ALICE, BOB])
        games.append(game_id)
    alice = (await sessions.store.find_player(ALICE.platform, ALICE.key)).id
    results = []
    settebello = primiera = 0
    for game_id in games:
        mine = next(r for r in await sessions.store.results(game_id) if r.player_id == alice)
        results.append(mine)
        for stored in json.loads(await sessions.store.match_record(game_id))["rounds"]:
            settebello += stored["score"][mine.side]["settebello"]
            primiera += stored["score"][mine.side]["primiera"]
    streak = best = 0
    for mine in results:
        streak = streak + 1 if mine.won else 0
        best = max(best, streak)
    stats = await sessions.queries.stats(ALICE)
    wins = sum(r.won for r in results)
    assert stats["scope_record"] == max(r.scope for r in results)
    assert (stats["settebello"], stats["primiera"], stats["best_streak"]) == (settebello, primiera, best)
    assert stats["by_variant"] == {"scopa": (wins, 5 - wins)} and stats["games"] == 5
