"""A tournament's view in words and as the scenes of its pictures, for every front-end: the
bracket while a knockout runs or once won, the standings of a Swiss tournament after each round."""

from __future__ import annotations

from babel.numbers import format_decimal
from PIL import Image

from ..i18n import t, tn
from ..pictures.tournament import (
    BracketScene,
    Slot,
    StandingLine,
    StandingsScene,
    Table,
    bracket_picture,
    standings_picture,
)
from ..sessions.tournament_play import TournamentNews
from ..sessions.tournaments import Format, Pairing, StandingRow, Status, TournamentView
from .boards import achievements_line


def _title(view: TournamentView, lang: str) -> str:
    if view.format is Format.DUPLICATE:
        fmt = tn(lang, "tournament.format.duplicate", view.rounds)
    elif view.format is Format.SWISS:
        fmt = tn(lang, "tournament.format.swiss", view.rounds)
    else:
        fmt = t(lang, "tournament.format.knockout")
    return t(lang, "tournament.title", variant=view.variant, format=fmt)


def duplicate_text(view: TournamentView, lang: str) -> list[str]:
    """Each player's points on the duplicate boards split into the cards' part and the
    play's part, best play first; nothing before a board is compared."""
    if not view.duplicate_lines:
        return []
    lines = [t(lang, "tournament.duplicate_head")]
    for place, line in enumerate(view.duplicate_lines, 1):
        lines.append(t(lang, "tournament.duplicate_row", place=place, name=view.name_of(line.user),
                       score=line.score, cards=_number(line.cards, lang),
                       play=_number(line.play, lang, signed=True)))
    return lines


def _table(view: TournamentView, pairing: Pairing) -> Table:
    first, second = pairing.score if pairing.score is not None else (None, None)
    top = Slot(view.name_of(pairing.first), first, pairing.winner == pairing.first)
    if pairing.second is None:
        return Table(Slot(top.name, None, True), Slot(None))
    bottom = Slot(view.name_of(pairing.second), second, pairing.winner == pairing.second)
    return Table(top, bottom)


def tournament_text(view: TournamentView, lang: str) -> str:
    """The tournament in words: its title and players in sign-up, then each round's tables and
    the standings; the champion once won."""
    lines = [_title(view, lang)]
    if view.target:
        lines.append(tn(lang, "tournament.target", view.target))
    if view.duplicate:
        lines.append(tn(lang, "tournament.duplicate_deals", view.deals))
    if view.status is Status.SIGNUP:
        names = ", ".join(p.name for p in view.players)
        lines += [t(lang, "tournament.players", count=len(view.players), names=names),
                  t(lang, "tournament.signup_hint")]
        return "\n".join(lines)
    for round_ in view.played:
        lines += ["", t(lang, "tournament.round", number=round_.number)]
        for p in round_.pairings:
            if p.second is None:
                lines.append(t(lang, "tournament.bye", name=view.name_of(p.first)))
                continue
            pair = {"first": view.name_of(p.first), "second": view.name_of(p.second)}
            if p.winner is None:
                lines.append(t(lang, "tournament.pairing", **pair))
            elif p.forfeit:
                lines.append(t(lang, "tournament.pairing_forfeit", winner=view.name_of(p.winner), **pair))
            else:
                score = f"{p.score[0]}–{p.score[1]}" if p.score else ""
                lines.append(t(lang, "tournament.pairing_won", winner=view.name_of(p.winner),
                               score=score, **pair))
    if view.format is not Format.DUPLICATE:
        lines += ["", *_standings_text(view, lang)]
    if view.duplicate_lines:
        lines += ["", *duplicate_text(view, lang)]
    if view.champion:
        lines += ["", t(lang, "tournament.champion", name=view.name_of(view.champion))]
    return "\n".join(lines)


def _standings_text(view: TournamentView, lang: str) -> list[str]:
    lines = [t(lang, "tournament.standings")]
    for row in view.standings:
        if row.out:
            lines.append(t(lang, "tournament.row_out", place=row.place, name=row.name))
        else:
            lines.append(t(lang, "tournament.row", place=row.place, name=row.name, points=row.points,
                           wins=row.wins, losses=row.losses))
    return lines


def news_head(news: TournamentNews, lang: str) -> str:
    """The lines above a tournament's news: the round just complete, and the achievement the
    champion earned (told once, with the champion)."""
    lines = [t(lang, "tournament.round_done", number=news.round_done)] if news.round_done else []
    if news.earned:
        lines.append(achievements_line(news.earned, lang))
    return "\n".join(lines)


def bracket_scene(view: TournamentView, lang: str) -> BracketScene:
    rounds = tuple(tuple(_table(view, p) for p in sorted(r.pairings, key=lambda p: p.table))
                   for r in view.played)
    champion = view.name_of(view.champion) if view.champion else None
    return BracketScene(_title(view, lang), max(2, len(view.players)), rounds, champion)


def _number(value: float, lang: str, signed: bool = False) -> str:
    return format_decimal(value, "+0.#;−0.#" if signed else "0.#", locale=lang)


def _duplicate_line(view: TournamentView, row: StandingRow, lang: str) -> StandingLine:
    """A duplicate event's row: the play's part as its number, the score and the cards' part
    under the name."""
    line = next((d for d in view.duplicate_lines if d.user == row.user), None)
    if line is None:
        return StandingLine(row.place, row.name, row.points, row.wins, row.losses, row.byes, row.tiebreak)
    return StandingLine(
        row.place, row.name, row.points, row.wins, row.losses, row.byes, row.tiebreak,
        figure=_number(line.play, lang, signed=True),
        detail=t(lang, "pictures.tournament.duplicate", score=line.score, cards=_number(line.cards, lang)),
        short=t(lang, "pictures.tournament.duplicate_short", score=line.score))


def standings_scene(view: TournamentView, lang: str) -> StandingsScene:
    if view.format is Format.DUPLICATE:
        lines = tuple(_duplicate_line(view, r, lang) for r in view.standings)
    else:
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
