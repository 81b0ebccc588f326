"""A tournament's view as the scenes of its pictures, for every front-end: the bracket while a
knockout runs or once won, the standings of a Swiss tournament after each round."""

from __future__ import annotations

from PIL import Image

from .i18n import t
from .pictures.tournament import (
    BracketScene,
    Slot,
    StandingLine,
    StandingsScene,
    Table,
    bracket_picture,
    standings_picture,
)
from .sessions.tournaments import Format, Pairing, Status, TournamentView


def _title(view: TournamentView, lang: str) -> str:
    fmt = (t(lang, "tournament.format.swiss", rounds=view.rounds) if view.format is Format.SWISS
           else t(lang, "tournament.format.knockout"))
    return t(lang, "tournament.title", variant=view.variant, format=fmt)


def _table(view: TournamentView, pairing: Pairing) -> Table:
    first, second = pairing.score if pairing.score is not None else (None, None)
    top = Slot(view.name_of(pairing.first), first, pairing.winner == pairing.first)
    if pairing.second is None:
        return Table(Slot(top.name, None, True), Slot(None))
    bottom = Slot(view.name_of(pairing.second), second, pairing.winner == pairing.second)
    return Table(top, bottom)


def bracket_scene(view: TournamentView, lang: str) -> BracketScene:
    rounds = tuple(tuple(_table(view, p) for p in sorted(r.pairings, key=lambda p: p.table))
                   for r in view.played)
    champion = view.name_of(view.champion) if view.champion else None
    return BracketScene(_title(view, lang), max(2, len(view.players)), rounds, champion)


def standings_scene(view: TournamentView, lang: str) -> StandingsScene:
    lines = tuple(StandingLine(r.place, r.name, r.points, r.wins, r.losses, r.byes, r.tiebreak, r.out)
                  for r in view.standings)
    champion = view.name_of(view.champion) if view.champion else None
    played = sum(1 for r in view.played if r.complete)
    return StandingsScene(_title(view, lang), played, max(view.rounds, played), lines, champion)


def tournament_scene(view: TournamentView, lang: str) -> BracketScene | StandingsScene | None:
    """The scene of the bracket of a knockout, of the standings of a Swiss; None in sign-up or
    once cancelled, when the words say all there is."""
    if view.status in (Status.SIGNUP, Status.CANCELLED) or not view.played:
        return None
    if view.format is Format.KNOCKOUT:
        return bracket_scene(view, lang)
    return standings_scene(view, lang)


def tournament_picture(view: TournamentView, lang: str) -> Image.Image | None:
    """`tournament_scene` drawn."""
    scene = tournament_scene(view, lang)
    if scene is None:
        return None
    if isinstance(scene, BracketScene):
        return bracket_picture(scene, lang)
    return standings_picture(scene, lang)
