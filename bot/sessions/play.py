"""Moves: checking a player's move, storing it with all it changes, the events it
makes; the match's results and ratings when it ends; handing a seat to the computer."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from ..engine import Game, IllegalMoveError, InvalidInputError, Move, dump_game, record_line, to_record
from ..engine.record import record_text
from . import events as ev
from .achievements import earned_in
from .context import Context, UseCase
from .day import day_ends, utc_day
from .feats import Feat
from .games import base
from .notices import owed_refs
from .options import NO_CLOCK, REMIND_AFTER
from .ports import StaleVersion
from .ratings import display_rating, ladder_for, rate
from .records import (
    ChatRow,
    DeadlineKind,
    GameCancel,
    GameRow,
    GameStatus,
    MatchFinish,
    MoveCommit,
    ResultRow,
    SeatHandover,
    SeatRow,
)
from .refs import UserRef
from .refusals import Reason, Refused
from .views import TableView, seat_info, seat_name, side_names


class Play(UseCase):
    def __init__(self, context: Context, *, computer_pace: float, max_timeouts: int) -> None:
        super().__init__(context)
        self.computer_pace = computer_pace
        self.max_timeouts = max_timeouts

    async def day_over(self, row: GameRow) -> float | None:
        """When game `row`'s day ends if it is a deal of the day, played with no clock until then
        (None for any other game; `Games.is_daily`)."""
        return day_ends(utc_day(row.created_at)) if await self.games.is_daily(row.id) else None

    async def close_day(self, row: GameRow, game: Game) -> list[ev.Event]:
        """Close a deal of the day whose day ended before it did: cancelled as it stands, its
        record kept, on no board; the events that say so (none when the game moved on meanwhile).
        The caller holds the game's lock."""
        try:
            async with self.store.unit() as uow:
                uow.add(GameCancel(row.id, GameStatus.RUNNING, row.version, record_line(game)))
        except StaleVersion:
            self.games.forget(row.id)
            return []
        self.games.forget(row.id)
        chat = await self.directory.chat_row(row.chat_id)
        return [ev.GameCancelled(**base(row, chat), by="", day_over=_day_of(row))]

    async def play(self, game_id: int, user: UserRef, expected_version: int,
                   move: str | Move, fuori: bool = False) -> TableView:
        """Play a move for `user` in game `game_id`, as seen at `expected_version`;
        with `fuori`, declare fuori with it (docs/rules.md)."""
        if isinstance(expected_version, bool) or not isinstance(expected_version, int):
            raise Refused(Reason.BAD_INPUT)
        player = await self.directory.known_player(user.platform, user.key)
        async with self.games.lock(game_id):
            row, game = await self.games.load(game_id)
            if row.status == GameStatus.LOBBY:
                raise Refused(Reason.NOT_IN_LOBBY)
            if row.status != GameStatus.RUNNING or game is None:
                cancelled = row.status == GameStatus.CANCELLED
                raise Refused(Reason.GAME_CANCELLED if cancelled else Reason.GAME_OVER)
            seat = next((s for s in row.seats if player and s.player_id == player.id), None)
            if seat is None or player is None:
                raise Refused(Reason.NOT_IN_GAME)
            if expected_version != game.version:
                raise Refused(Reason.STALE)
            if seat.seat != game.to_play:
                raise Refused(Reason.NOT_YOUR_TURN)
            if fuori and not game.may_declare(seat.seat):
                raise Refused(Reason.NO_FUORI)
            try:
                parsed = move if isinstance(move, Move) else Move.parse(move)
            except InvalidInputError:
                raise Refused(Reason.BAD_INPUT) from None
            chat = await self.directory.chat_row(row.chat_id)
            events, row, game = await self.commit(chat, row, game, seat, parsed,
                                                  by_computer=False, timed_out=False, fuori=fuori)
        self.alarm.set(row.deadline, row.deadline_kind, row.warned)
        await self.bus.publish(events)
        return self.games.table(row, game)

    async def commit(self, chat: ChatRow, row: GameRow, game: Game, seat: SeatRow, move: Move,
                     *, by_computer: bool, timed_out: bool,
                     fuori: bool = False) -> tuple[list[ev.Event], GameRow, Game]:
        """Apply `move` to the game in memory, store it with all it changes, then update the
        cache; gives the events and the game's new row and state. Until the store has the
        move, readers of the game wait (`Games.changing`); if it is not stored, the game is
        dropped from memory and loaded again as stored, whichever way it went (a write lost
        on its way back, `StorageAway.maybe_stored`, may have landed).

        A running game's move is stored as the move alone: loading plays the moves
        again on the snapshot taken at the start. The state is stored again, with
        every round's breakdown and record, only when the match ends. Round ends
        thus cost no more than other moves, and they come in bursts: games started
        together end their rounds together.
        """
        before = game.version
        try:
            outcome = game.declare_fuori(move, seat.seat) if fuori else game.apply(move, seat=seat.seat)
        except IllegalMoveError as exc:
            raise Refused(Reason.ILLEGAL_MOVE, detail=str(exc), asked=move,
                          deck_style=row.deck_style) from None
        # Nothing awaits between applying the move and entering the block: no reader sees it.
        with self.games.changing(row.id):
            timeouts, autoplay = seat.timeouts, seat.autoplay
            if timed_out:
                timeouts += 1
                autoplay = autoplay or timeouts >= self.max_timeouts
            elif not by_computer:
                timeouts, autoplay = 0, False
            elif autoplay and timeouts and not seat.is_computer:
                timeouts += 1  # past max_timeouts: the seat's plays are the computer's (`played_for`)
            seats = row.seats
            if timeouts != seat.timeouts or autoplay != seat.autoplay:
                seats = tuple(dataclasses.replace(s, timeouts=timeouts, autoplay=autoplay)
                              if s.seat == seat.seat else s for s in seats)
            finished = game.winner is not None
            day_over = await self.day_over(row)
            deadline, kind = (None, None) if finished else self.deadline_for(chat, seats, game, day_over)
            result = outcome.round_result
            state = None
            rounds: tuple[tuple[int, dict[str, Any], dict[str, Any]], ...] = ()
            finish = None
            daily = False
            feats: list[tuple[SeatRow, Feat]] = []
            if finished:
                state = dump_game(game, rounds=False)
                del state["rounds"]
                record = to_record(game)
                rounds = tuple((r.number, r.to_dict(), stored)
                               for r, stored in zip(game.results, record["rounds"], strict=True))
                daily = day_over is not None
                rated = not (game.rules.practice or daily)
                feats = await earned_in(self.store, record, seats) if rated else []
                finish = await self._finish(game, seats, record, rated=rated, feats=feats)
            fields = base(row, chat)
            announced: list[ev.Event] = []
            if result is not None:
                names = side_names(game, tuple(seat_info(s, seats) for s in seats))
                declarer = None if result.fuori is None else next(
                    (s for s in seats if s.seat == result.fuori), None)
                announced.append(ev.RoundEnded(
                    **fields, result=result, side_names=names,
                    fuori_name=None if declarer is None else seat_name(declarer, seats),
                    fuori_side=None if result.fuori is None else game.side_of[result.fuori]))
                if finished:
                    changes = tuple((seat_name(s, seats), r.rating_before or 0.0, r.rating_after or 0.0)
                                    for s, r in zip(seats, finish.results if finish else (),
                                                    strict=False)
                                    if r.player_id is not None and r.rating_after is not None)
                    announced.append(ev.MatchEnded(**fields, winner=game.winner, totals=tuple(game.totals),
                                                   side_names=names, rating_changes=changes,
                                                   rematch=not daily, practice=game.rules.practice,
                                                   daily=_day_of(row) if daily else ""))
                    if feats:
                        announced.append(ev.AchievementsEarned(**fields, earned=tuple(
                            (seat_name(s, seats), feat.value) for s, feat in feats)))
            try:
                async with self.store.unit() as uow:
                    uow.add(MoveCommit(
                        game_id=row.id, expected_version=before, state=state, seat=seat.seat,
                        move=move.code, by_computer=by_computer, deadline=deadline, deadline_kind=kind,
                        seat_timeouts=timeouts if timeouts != seat.timeouts else None,
                        seat_autoplay=autoplay if autoplay != seat.autoplay else None,
                        rounds=rounds,
                        finish=finish,
                        refs=owed_refs(announced)))
            except StaleVersion:
                raise Refused(Reason.STALE) from None
        status = GameStatus.FINISHED if finished else GameStatus.RUNNING
        row = _moved(row, game.version, status, deadline, kind,
                     seats, state)
        if finished:
            self.games.forget(row.id)
        else:
            self.games.keep(row, game)
        play = outcome.play
        name = seat_name(seat, seats)
        out: list[ev.Event] = [ev.MovePlayed(
            **fields, version=game.version, seat=seat.seat, name=name, card=play.card,
            captured=play.captured, scopa=play.scopa, by_computer=by_computer, timed_out=timed_out,
            swept_by_ace=outcome.swept_by_ace, dealt=outcome.dealt, leftover=outcome.leftover,
            leftover_seat=outcome.leftover_seat, fuori=fuori, variant=row.variant,
            leftover_name=_name_at(seats, outcome.leftover_seat))]
        if autoplay and not seat.autoplay:
            out.append(ev.SeatAutoplay(**fields, seat=seat.seat, player_id=seat.player_id,
                                       name=name, on=True))
        out.extend(announced)
        if not finished:
            out.append(self.turn_event(chat, row, game))
        return _with_game_facts(out, row.variant, game), row, game

    async def _finish(self, game: Game, seats: Sequence[SeatRow], record: dict[str, Any], *,
                      rated: bool, feats: Sequence[tuple[SeatRow, Feat]] = ()) -> MatchFinish:
        """The match's record, every seat's result and the human players' new ratings (none
        after a practice match or a deal of the day, which leave every rating as it was: the
        day's cards are everyone's, and may be known before the match)."""
        sides = game.seating.sides
        humans = {s.seat: s.player_id for s in seats if not s.is_computer}
        ladder = ladder_for(sides)
        current = await self.store.ratings([pid for pid in humans.values() if pid], ladder) if rated else {}
        new_ratings = rate(ladder, [[humans.get(seat) for seat in side] for side in sides], game.totals,
                           game.winner, current) if rated else []
        by_player = {r.player_id: r for r in new_ratings}
        scope = [0] * game.seats
        for stored in record["rounds"]:
            for play in stored["plays"]:
                if play["scopa"]:
                    scope[play["seat"]] += 1
        results = []
        for seat in range(game.seats):
            side = game.side_of[seat]
            player_id = humans.get(seat)
            before = current.get(player_id) if player_id else None
            after = by_player.get(player_id) if player_id else None
            results.append(ResultRow(
                seat, player_id if player_id else None, side, game.totals[side],
                side == game.winner, scope[seat],
                display_rating(before.mu, before.sigma) if before else (
                    display_rating(25.0, 25.0 / 3) if after else None),
                display_rating(after.mu, after.sigma) if after else None))
        return MatchFinish(record_text(record), tuple(results), tuple(new_ratings),
                           tuple((s.player_id, feat.value) for s, feat in feats if s.player_id))

    def deadline_for(self, chat: ChatRow, seats: Sequence[SeatRow], game: Game,
                     day_over: float | None = None) -> tuple[float, DeadlineKind]:
        """The next deadline of `game`, whose next turn is a computer's or a person's (with the
        chat's clock, none, or in a deal of the day until its day ends: `day_over`)."""
        seat = next(s for s in seats if s.seat == game.to_play)
        if seat.is_computer or seat.autoplay:
            return self.clock() + self.computer_pace, DeadlineKind.COMPUTER
        if day_over is not None:
            return day_over, DeadlineKind.DAY_OVER
        if chat.turn_limit == NO_CLOCK:
            return self.clock() + REMIND_AFTER, DeadlineKind.REMIND
        return self.clock() + chat.turn_limit, DeadlineKind.TURN

    def turn_event(self, chat: ChatRow, row: GameRow, game: Game) -> ev.TurnStarted:
        seat = next(s for s in row.seats if s.seat == game.to_play)
        player_id = None if seat.is_computer else seat.player_id
        return ev.TurnStarted(**base(row, chat), version=game.version, seat=seat.seat,
                              player_id=player_id, name=seat_name(seat, row.seats),
                              deadline=row.deadline if row.deadline_kind == DeadlineKind.TURN else None)

    async def set_autoplay(self, game_id: int, user: UserRef, on: bool) -> None:
        """Hand one's seat to the computer, or take it back."""
        player = await self.directory.known_player(user.platform, user.key)

        async def mine(row: GameRow, game: Game) -> SeatRow:
            seat = next((s for s in row.seats if player and s.player_id == player.id), None)
            if seat is None:
                raise Refused(Reason.NOT_IN_GAME)
            return seat

        await self._autoplay(game_id, mine, on)

    async def hand_over(self, game_id: int, version: int) -> None:
        """Hand the seat to move at `version` to the computer, in a game with no clock (where no
        timer ever plays for a player who went away); who may ask is `Taps`' business."""
        async def to_move(row: GameRow, game: Game) -> SeatRow:
            if game.version != version:
                raise Refused(Reason.STALE)
            chat = await self.directory.chat_row(row.chat_id)
            if chat.turn_limit != NO_CLOCK:
                raise Refused(Reason.NO_CLOCK_ONLY)
            seat = next(s for s in row.seats if s.seat == game.to_play)
            if seat.is_computer or seat.autoplay:
                raise Refused(Reason.STALE)
            return seat

        await self._autoplay(game_id, to_move, True)

    async def _autoplay(self, game_id: int, pick: Callable[[GameRow, Game], Awaitable[SeatRow]],
                        on: bool) -> None:
        """Hand the seat `pick` names to the computer (`on`), or give it back to its player."""
        async with self.games.lock(game_id):
            row, game = await self.games.load(game_id)
            if row.status != GameStatus.RUNNING or game is None:
                raise Refused(Reason.GAME_OVER)
            seat = await pick(row, game)
            seats = tuple(dataclasses.replace(s, autoplay=on, timeouts=0) if s is seat else s
                          for s in row.seats)
            chat = await self.directory.chat_row(row.chat_id)
            deadline, kind, warned = row.deadline, row.deadline_kind, row.warned
            turn = game.to_play == seat.seat
            if turn:
                day_over = await self.day_over(row)
                (deadline, kind), warned = self.deadline_for(chat, seats, game, day_over), False
            try:
                async with self.store.unit() as uow:
                    uow.add(SeatHandover(game_id, game.version, seat.seat, on, deadline, kind, turn))
            except StaleVersion:
                self.games.forget(game_id)
                raise Refused(Reason.LOBBY_CHANGED) from None
            row = dataclasses.replace(row, seats=seats, deadline=deadline, deadline_kind=kind,
                                      warned=warned)
            self.games.keep(row, game)
        self.alarm.set(row.deadline, row.deadline_kind, row.warned)
        await self.bus.publish([ev.SeatAutoplay(**base(row, chat), seat=seat.seat,
                                                player_id=seat.player_id,
                                                name=seat_name(seat, row.seats), on=on)])


def _with_game_facts(events: list[ev.Event], variant: str, game: Game) -> list[ev.Event]:
    """`events` with what their texts need of the game: the variant of a round's end (an
    escoba's sweeps are escobas) and the kind of win of a federal match (004 art. 16)."""
    kind = None if game.win_kind is None else game.win_kind.value
    return [dataclasses.replace(e, variant=variant) if isinstance(e, ev.RoundEnded)
            else dataclasses.replace(e, win_kind=kind) if isinstance(e, ev.MatchEnded) else e
            for e in events]


def _day_of(row: GameRow) -> str:
    """The day (UTC, YYYY-MM-DD) a deal of the day was dealt on, whose deal it is."""
    return utc_day(row.created_at).isoformat()


def _name_at(seats: Sequence[SeatRow], seat: int | None) -> str:
    at = next((s for s in seats if s.seat == seat), None) if seat is not None else None
    return seat_name(at, seats) if at is not None else ""


def _moved(row: GameRow, version: int, status: GameStatus, deadline: float | None,
           kind: DeadlineKind | None,
           seats: tuple[SeatRow, ...], state: dict[str, Any] | None) -> GameRow:
    """`row` after a committed move (what `dataclasses.replace` gives, without its cost)."""
    return GameRow(row.id, row.chat_id, row.creator_id, row.variant, row.options, row.players,
                   row.teams, row.deck_style, status, row.state if state is None else state,
                   version, row.seed, deadline, kind, False, row.created_at, row.updated_at,
                   row.finished_at, seats, row.thread)
