"""The achievement of a tournament's champion, "tournament won".

It is granted as the champion is told (`Tournaments._deliver`), before the news goes out: kept
once per tournament won (its code names the tournament, `feats.tournament_code`), against the
last match the champion played there, so two processes that both come to tell the champion
store it once. The line announcing it travels with the champion's news, which one process posts.
"""

from __future__ import annotations

from .directory import Directory
from .feats import Feat, tournament_code
from .ports import GameStore
from .records import AchievementGrant
from .tournaments import TournamentView


def last_match(view: TournamentView, user: str) -> int | None:
    """The game of the last match `user` played in the tournament (a bye has none), else of its
    last match of all."""
    pairings = [p for r in reversed(view.played) for p in reversed(r.pairings)
                if p.match is not None and p.match.isdigit()]
    own = next((p for p in pairings if user in (p.first, p.second)), None)
    chosen = own or next(iter(pairings), None)
    return None if chosen is None or chosen.match is None else int(chosen.match)


async def crowned(store: GameStore, directory: Directory, view: TournamentView,
                  now: float) -> tuple[tuple[str, str], ...]:
    """Grant the champion of `view` their tournament won; (name, feat) to announce, or none when
    the tournament has no champion or the champion is not a known player."""
    if view.champion is None:
        return ()
    player = await directory.known_player(view.platform, view.champion)
    game = last_match(view, view.champion)
    if player is None or game is None:
        return ()
    async with store.unit() as uow:
        uow.add(AchievementGrant(player.id, tournament_code(view.id), game, now))
    return ((view.name_of(view.champion), Feat.TOURNAMENT_WON.value),)
