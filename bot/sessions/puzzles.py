"""Puzzles from a chat's own finished matches: a position where the best move was clearly
better than the one played, and the answer to a guess at it.

Which position: the plays of the chat's latest `MATCHES` finished and reviewed matches (in a
private chat, of the matches the player sat in, wherever played) that the review found
cost at least `CLEARLY` points, the costliest first (between equal losses, the later match,
then the earlier play); `/puzzle` shows the first and each "next" the one after, round
again after the last. Nothing about who saw what is stored: the same stored matches give
the same list, so a button carrying a place in it, or a puzzle's game and play, works after
a restart. A deal of the day and a match in play never give a puzzle.

Where the position is one of full information (the hidden cards can lie in one way only: two
players and the stock empty) the moves are valued exactly (`bot.ai.puzzle`), and a play is
a puzzle only when it gave up at least `CLEARLY` points by that count; every move as good as
the best is then a right answer. Elsewhere the review's better move is right and the move
played wrong; any other move is valued as the review valued the play (its seed and searches,
so the same guesses of the hidden cards, `bot.ai.puzzle.as_good_as_best`, in the computers'
workers) and is right when it gives up nothing against the best, within the search's noise.

An answer names the game, the play (round and play, as in the record) and the move by its
place among the legal moves (`canonical_moves`, an order fixed by the cards): all of it is
checked again, and a button naming a match of another chat, a match in play or a play that
is no puzzle is refused (`Reason.NOT_A_PUZZLE`) and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, replace

from ..ai.puzzle import as_good_as_best, best_moves, exact_values
from ..ai.reading import canonical_moves
from ..ai.review import Fault, GradedPlay, Review
from ..ai.review.facts import reason
from ..ai.review.replay import Turn, match_key, turns
from ..engine import Card, Move, SeatView
from ..engine.record import RecordError, parse_records
from .directory import Directory
from .games import Games
from .ports import GameStore
from .records import GameRow, GameStatus
from .refs import ChatRef, UserRef
from .refusals import Reason, Refused
from .thinking import ComputerPool
from .views import seat_name

CLEARLY = 0.5
"""The least a play must have given up, in points, against the best move to make a puzzle:
well above the review's noise, so that the answer is not a matter of taste."""
MATCHES = 10
"""How many of the latest reviewed matches the puzzles are drawn from."""
MOST_ANSWERS = 20
"""The most legal moves a puzzle's position may have: one button each, and Next, must fit in
one Discord message (25 buttons at most) and stay readable on a phone."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A position to guess the best move of, as its player saw it."""

    game_id: int
    round: int
    """Index into the record's rounds, from 0."""
    play: int
    """Index into that round's plays, from 0."""
    rank: int
    """Its place among the chat's puzzles (0: the costliest)."""
    count: int
    """How many puzzles the chat has."""
    name: str
    """Whose hand it was."""
    finished_at: float
    variant: str
    deck_style: str
    table: tuple[Card, ...]
    hand: tuple[Card, ...]
    moves: tuple[Move, ...]
    """The legal moves, one answer each, in the order of the buttons."""
    exact: bool
    """The moves were valued exactly (full information)."""

    @property
    def spot(self) -> str:
        """`round.play`, what an answer's button names the play by."""
        return f"{self.round}.{self.play}"


@dataclass(frozen=True, slots=True)
class PuzzleAnswer:
    """A guess at a puzzle, judged."""

    puzzle: Puzzle
    chosen: Move
    right: bool
    graded: GradedPlay
    """The play as graded: what was played, the best move (the exact best where the moves were
    valued exactly) and the reason the played move was worse."""


def parse_spot(spot: str) -> tuple[int, int] | None:
    """(round, play) of a button's `round.play`; None for anything else."""
    head, dot, tail = spot.partition(".")
    if not dot or not head.isdigit() or not tail.isdigit():
        return None
    return int(head), int(tail)


@dataclass(frozen=True, slots=True)
class _Found:
    """A play of a match that may make a puzzle, and the match."""

    row: GameRow
    graded: GradedPlay
    order: int
    """The match's place among the latest (0: the latest)."""


class Puzzles:
    """Chooses puzzles from the stored matches and judges answers; keeps nothing."""

    def __init__(self, store: GameStore, directory: Directory, games: Games,
                 pool: ComputerPool | None = None) -> None:
        self.store = store
        self.directory = directory
        self.games = games
        self.pool = pool
        """Where a third move is valued (`as_good_as_best`); a thread without it."""

    async def puzzle(self, user: UserRef, chat: ChatRef | None, rank: int = 0) -> Puzzle:
        """The chat's puzzle at `rank` (from 0, round again past the last) for `user`, asking
        in group `chat` or privately (None); Refused `NO_PUZZLE` before there is any."""
        chat_id, player_id = await self._scope(user, chat)
        if chat_id is None and player_id is None:
            raise Refused(Reason.NO_PUZZLE)
        found: list[_Found] = []
        for order, game_id in enumerate(await self.store.reviewed_matches(chat_id, player_id, MATCHES)):
            review = await self._review(game_id)
            if review is None:
                continue
            row = await self.games.row(game_id)
            found += [_Found(row, play, order) for play in review.plays if _costly(play)]
        found.sort(key=lambda f: (-f.graded.loss, f.order, f.graded.round, f.graded.play))
        records: dict[int, list[Turn] | None] = {}
        puzzles: list[tuple[_Found, Turn, GradedPlay, bool]] = []
        for each in found:
            if each.row.id not in records:
                records[each.row.id] = (await self._turns(each.row.id))[0]
            made = _judged(records[each.row.id], each.graded)
            if made is not None:
                puzzles.append((each, *made))
        if not puzzles:
            raise Refused(Reason.NO_PUZZLE)
        rank %= len(puzzles)
        each, turn, _, exact = puzzles[rank]
        return _puzzle(each.row, turn, rank, len(puzzles), exact)

    async def answer(self, user: UserRef, chat: ChatRef | None, game_id: int, spot: str,
                     choice: int) -> PuzzleAnswer:
        """`user`'s guess, the move at `choice` of the puzzle of match `game_id` at `spot`, in
        group `chat` or privately (None): right or wrong, and why; Refused `NOT_A_PUZZLE` for a
        button this chat could not have been shown."""
        place = parse_spot(spot)
        row = await self.store.get_game(game_id)
        if place is None or row is None or row.status != GameStatus.FINISHED \
                or await self.store.is_daily(game_id):
            raise Refused(Reason.NOT_A_PUZZLE)
        chat_id, player_id = await self._scope(user, chat)
        if (chat_id is None and player_id is None) or (chat_id is not None and row.chat_id != chat_id) or (
                player_id is not None and not any(s.player_id == player_id for s in row.seats)):
            raise Refused(Reason.NOT_A_PUZZLE)
        review = await self._review(game_id)
        graded = None if review is None else next(
            (p for p in review.plays if (p.round, p.play) == place and _costly(p)), None)
        played, key = await self._turns(game_id)
        made = None if graded is None or review is None else _judged(played, graded)
        if made is None or review is None:
            raise Refused(Reason.NOT_A_PUZZLE)
        turn, judged, exact = made
        puzzle = _puzzle(row, turn, 0, 1, exact)
        if not 0 <= choice < len(puzzle.moves):
            raise Refused(Reason.NOT_A_PUZZLE)
        chosen = puzzle.moves[choice]
        values = exact_values(turn.view) if exact else None
        if values is not None:
            right = chosen in best_moves(values)
        elif chosen in (judged.best, judged.played):
            right = chosen == judged.best
        else:
            seed = f"{key}/{turn.round}/{turn.play}"
            right = await self._as_good((turn.view, chosen, seed, review.searches))
        return PuzzleAnswer(puzzle, chosen, right, judged)

    async def _as_good(self, task: tuple[SeatView, Move, str, int]) -> bool:
        """A move neither the best nor the one played, valued as the review valued the play."""
        if self.pool is None:
            return await asyncio.to_thread(as_good_as_best, task)
        return await self.pool.run(as_good_as_best, task)

    async def _scope(self, user: UserRef, chat: ChatRef | None) -> tuple[int | None, int | None]:
        """Whose matches: the group's (its id), or privately the player's (theirs; both None for
        someone the bot has never seen, who has none)."""
        if chat is not None:
            return (await self.directory.chat(chat)).id, None
        player = await self.directory.known_player(user.platform, user.key)
        return None, None if player is None else player.id

    async def _review(self, game_id: int) -> Review | None:
        stored = await self.store.match_review(game_id)
        if stored is None:
            return None
        try:
            return Review.from_dict(json.loads(stored))
        except (ValueError, KeyError, TypeError):
            return None

    async def _turns(self, game_id: int) -> tuple[list[Turn] | None, str]:
        """The match's plays as its players saw them, and the key its review was seeded by."""
        line = await self.store.match_record(game_id)
        if line is None:
            return None, ""
        try:
            record = parse_records(line)[0]
            return list(turns(record)), match_key(record)
        except (RecordError, IndexError):
            return None, ""


def _costly(play: GradedPlay) -> bool:
    """Whether the review found the play clearly worse than another."""
    return (not play.forced and play.loss >= CLEARLY and play.best != play.played
            and (play.reason is None or play.reason.fault is not Fault.EQUIVALENT))


def _judged(played: list[Turn] | None, graded: GradedPlay) -> tuple[Turn, GradedPlay, bool] | None:
    """The turn of `graded`, the play graded again where its position is one of full information
    (its best the exact best, its loss the exact loss), and whether it was; None when the record
    does not hold the play or the exact count finds the played move not clearly worse."""
    turn = next((t for t in played or () if (t.round, t.play) == (graded.round, graded.play)), None)
    if turn is None or turn.played != graded.played or len(canonical_moves(turn.view)) > MOST_ANSWERS:
        return None
    values = exact_values(turn.view)
    if values is None:
        return turn, graded, False
    bests = best_moves(values)
    best = graded.best if graded.best in bests else bests[0]
    loss = values[best] - values[turn.played]
    if loss < CLEARLY:
        return None
    why = graded.reason if best == graded.best else reason(turn.view, turn.played, best)
    return turn, replace(graded, best=best, loss=round(loss, 3), reason=why), True


def _puzzle(row: GameRow, turn: Turn, rank: int, count: int, exact: bool) -> Puzzle:
    seat = next((s for s in row.seats if s.seat == turn.seat), None)
    view = turn.view
    return Puzzle(row.id, turn.round, turn.play, rank, count, seat_name(seat, row.seats),
                  row.finished_at or row.updated_at, row.variant, row.deck_style, tuple(view.table),
                  tuple(view.hand), tuple(canonical_moves(view)), exact)
