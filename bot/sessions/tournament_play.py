"""A chat's tournament as it is played: sign-up, start, each round's matches, advancing.

A chat's thread holds one open game at a time, so a round's tables are played one after the
other in the thread the tournament was opened in, each an ordinary match of the chat (private
hands, clocks and computer turns as in any match), opened and started by the bot.

Advancing is written over the tournament's stored version (`TournamentStore.save_tournament`):
of several processes seeing a match end, one records it and starts the next match; the others
find the version moved on and do nothing. A step a stopped process owed (a match ended but not
recorded, a next match not started) is done by `resume`, which every process runs at start and
at each look (`LOOK_EVERY`); a match opened but not yet recorded is recognised by its players.

A match still open `ROUND_DEADLINE` seconds after it started is stopped and decided: the player
who played (no seat handed to the computer) wins it; when both or neither played, the higher
seed. Absent players' turns are played by the computer meanwhile, as in every match.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from ..engine import InvalidInputError
from . import events as ev
from .crowns import crowned
from .directory import Directory
from .duplicate import TARGET as DUPLICATE_TARGET
from .duplicate import board_seed, turned
from .lobby import Lobby
from .options import variant_named
from .ports import GameStore, TournamentRow
from .ratings import ladder_for
from .records import GameRow, GameStatus
from .refs import ChatRef, UserRef
from .refusals import Refused
from .seats import seating
from .tournaments import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROUND_DEADLINE,
    Entrant,
    Format,
    OptionError,
    Options,
    Pairing,
    Round,
    Status,
    TournamentView,
    by_play,
    champion_of,
    duplicate_lines,
    knockout_first_round,
    knockout_next_round,
    knockout_rounds,
    parse_options,
    seeded,
    standings,
    swiss_round,
)


async def _no() -> bool:
    return False

log = logging.getLogger(__name__)

LOOK_EVERY = 60.0
OWED_LEASE = 120.0
NEXT_MATCH_PAUSE = 3.0
"""Seconds between a match's end and the tournament's next step: the players read the result
(and the front-end has shown it) before their next match deals them a hand."""


class TournamentUntold(Exception):
    """A front-end could not post a round's standings or the champion yet: still owed, posted
    again at a later look."""


class TournamentRefused(Exception):
    """A tournament request refused, changing nothing; `code` names why for the catalogue
    (`tournament.refused.<code>`), `detail` what the user typed where it helps."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(code)
        self.code = code
        self.detail = detail


@dataclass(frozen=True, slots=True)
class TournamentNews:
    """What the chat is told: a round complete (its standings), or the tournament won."""

    view: TournamentView
    round_done: int | None = None
    champion: str | None = None
    earned: tuple[tuple[str, str], ...] = ()
    """The achievements the champion's news announces: (name, feat code), as `AchievementsEarned`."""


Listener = Callable[[TournamentNews], Awaitable[None]]


def _load(row: TournamentRow) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(row.state)
    return data


def _rounds(state: dict[str, Any]) -> list[Round]:
    return [
        Round(r["number"], tuple(_pairing(p) for p in r["pairings"]), r.get("started_at", 0.0))
        for r in state["rounds"]
    ]


def _pair(value: Any) -> tuple[int, int] | None:
    return (int(value[0]), int(value[1])) if value else None


def _pairing(p: dict[str, Any]) -> Pairing:
    return Pairing(
        p["table"], p["first"], p.get("second"), p.get("match"), p.get("winner"),
        _pair(p.get("score")), bool(p.get("forfeit")), _pair(p.get("hands")), _pair(p.get("board")),
    )


def _players(state: dict[str, Any]) -> tuple[Entrant, ...]:
    return tuple(Entrant(**e) for e in state["players"])


def view_of(row: TournamentRow) -> TournamentView:
    state = _load(row)
    players = _players(state)
    played = _rounds(state)
    fmt = Format(state["format"])
    rows = standings(players, played, knockout=fmt is Format.KNOCKOUT) if players else ()
    lines = duplicate_lines(played) if state.get("duplicate") else ()
    if fmt is Format.DUPLICATE:
        rows = by_play(rows, lines)
    planned = state["swiss_rounds"] if fmt is not Format.KNOCKOUT else (
        knockout_rounds(len(players)) if row.status != Status.SIGNUP else 0)
    return TournamentView(
        id=str(row.id), chat=state["chat_key"], place=state["place"], variant=state["variant"],
        format=fmt, rounds=planned,
        status=Status.FINISHED if state.get("champion") else Status(row.status), creator=state["creator"],
        target=state.get("target"), duplicate=bool(state.get("duplicate")), players=players,
        played=tuple(played), standings=rows, champion=state.get("champion"),
        deals=int(state.get("deals", 0)), duplicate_lines=lines,
        platform=state["platform"],
    )


class Tournaments:
    def __init__(self, store: GameStore, directory: Directory, lobby: Lobby,
                 clock: Callable[[], float], pause: float = NEXT_MATCH_PAUSE) -> None:
        self.pause = pause
        self.owner = os.urandom(6).hex()
        """This process, as it holds an announcement owed while posting it (drawn apart from
        `secrets.token_hex`, which makes the games' seeds)."""
        self.store = store
        self.directory = directory
        self.lobby = lobby
        self.clock = clock
        self._listeners: list[Listener] = []
        self._pending: set[asyncio.Task[None]] = set()

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    async def _tell(self, news: TournamentNews) -> bool:
        told = True
        for listener in self._listeners:
            try:
                await listener(news)
            except Exception:
                log.exception("tournament listener failed")
                told = False
        return told

    # ---- sign-up -------------------------------------------------------------

    async def open(self, chat_ref: ChatRef, user: UserRef, words: Sequence[str],
                   variants: Sequence[str], event: bool = False) -> TournamentView:
        """Open the sign-up of a tournament, or of a duplicate event (`event`)."""
        try:
            options = parse_options(words, variants, event)
        except OptionError as exc:
            raise TournamentRefused("bad_event_option" if event else "bad_option", exc.word) from None
        chat = await self.directory.chat(chat_ref, user.language)
        variant = variant_named(options.variant or chat.defaults.get("variant") or "scopa")
        try:
            seating(variant, 2, 0)
        except InvalidInputError:
            raise TournamentRefused("one_to_one", variant) from None
        state = {
            "platform": chat.platform, "chat_key": chat.chat_key, "place": chat_ref.place,
            "title": chat_ref.title, "creator": user.key, "variant": variant,
            "format": options.format.value, "swiss_rounds": options.swiss_rounds,
            "target": options.target, "duplicate": options.duplicate, "deals": options.deals,
            "seed": secrets.randbits(32), "players": [_entrant(user)], "rounds": [],
            "champion": None,
        }
        made = await self.store.open_tournament(chat.id, json.dumps(state), self.clock())
        if made is None:
            raise TournamentRefused("already_open")
        row = await self.store.tournament(made)
        assert row is not None
        return view_of(row)

    async def playing_in(self, chat_ref: ChatRef) -> bool:
        """Whether a tournament of the chat is under way in `chat_ref`'s thread (its place)."""
        chat = await self.directory.chat(chat_ref)
        row = await self.store.chat_tournament(chat.id)
        return (row is not None and row.status == Status.RUNNING
                and _load(row)["place"] == chat_ref.place)

    async def current(self, chat_ref: ChatRef) -> TournamentView | None:
        chat = await self.directory.chat(chat_ref)
        row = await self.store.chat_tournament(chat.id)
        return None if row is None else view_of(row)

    async def join(self, chat_ref: ChatRef, user: UserRef) -> TournamentView:
        def change(state: dict[str, Any]) -> None:
            if any(e["user"] == user.key for e in state["players"]):
                raise TournamentRefused("already_joined")
            if len(state["players"]) >= MAX_PLAYERS:
                raise TournamentRefused("full", str(MAX_PLAYERS))
            state["players"].append(_entrant(user))

        return await self._signup_change(chat_ref, change)

    async def leave(self, chat_ref: ChatRef, user: UserRef) -> TournamentView:
        def change(state: dict[str, Any]) -> None:
            if not any(e["user"] == user.key for e in state["players"]):
                raise TournamentRefused("not_joined")
            state["players"] = [e for e in state["players"] if e["user"] != user.key]

        return await self._signup_change(chat_ref, change)

    async def _signup_change(self, chat_ref: ChatRef,
                             change: Callable[[dict[str, Any]], None]) -> TournamentView:
        row = await self._open_row(chat_ref)
        if row.status != Status.SIGNUP:
            raise TournamentRefused("started")
        state = _load(row)
        change(state)
        return await self._save(row, Status.SIGNUP, state)

    async def _open_row(self, chat_ref: ChatRef) -> TournamentRow:
        chat = await self.directory.chat(chat_ref)
        row = await self.store.chat_tournament(chat.id)
        if row is None:
            raise TournamentRefused("none")
        return row

    async def _save(self, row: TournamentRow, status: Status, state: dict[str, Any]) -> TournamentView:
        if not await self.store.save_tournament(row.id, row.version, status.value, json.dumps(state),
                                                self.clock()):
            raise TournamentRefused("changed")
        saved = await self.store.tournament(row.id)
        assert saved is not None
        return view_of(saved)

    async def start(self, chat_ref: ChatRef, user: UserRef,
                    admin: Callable[[], Awaitable[bool]] = _no) -> TournamentView:
        """Start the sign-up as its first round, for its creator or one of the chat's admins
        (`admin` is asked, of anyone else, whether they are one)."""
        row = await self._open_row(chat_ref)
        state = _load(row)
        if user.key != state["creator"] and not await admin():
            raise TournamentRefused("not_allowed")
        if row.status != Status.SIGNUP:
            raise TournamentRefused("started")
        if len(state["players"]) < MIN_PLAYERS:
            raise TournamentRefused("too_few", str(MIN_PLAYERS))
        players = await self._rated(state)
        state["players"] = [asdict(p) for p in seeded(players, int(state["seed"]))]
        entrants = _players(state)
        first = (knockout_first_round(entrants) if state["format"] == Format.KNOCKOUT.value
                 else swiss_round(entrants, []))
        if state.get("duplicate"):
            first = tuple(_held(p) for p in first)
        state["rounds"] = [_round_json(Round(1, first, self.clock()))]
        view = await self._save(row, Status.RUNNING, state)
        await self.advance(int(view.id))
        return await self._view(int(view.id))

    async def _rated(self, state: dict[str, Any]) -> list[Entrant]:
        out = []
        ids: dict[str, int] = {}
        for e in state["players"]:
            player = await self.directory.known_player(state["platform"], e["user"])
            if player is not None:
                ids[e["user"]] = player.id
        ratings = await self.store.ratings(ids.values(), ladder_for([[0], [1]]))
        for e in state["players"]:
            rating = ratings.get(ids.get(e["user"], -1))
            out.append(Entrant(e["user"], e["name"], rating=rating.mu if rating else 0.0))
        return out

    async def press(self, chat_ref: ChatRef, user: UserRef, tournament_id: str, action: str,
                    admin: Callable[[], Awaitable[bool]] = _no) -> TournamentView:
        """A button under the sign-up of tournament `tournament_id`: `join`, `leave`, `start` or
        `cancel` (those two for its creator or an admin, as `start`); refused as `stale` for a
        tournament that is no longer the chat's, or an action no button carries."""
        current = await self.current(chat_ref)
        if current is None or current.id != tournament_id:
            raise TournamentRefused("stale")
        if action == "join":
            return await self.join(chat_ref, user)
        if action == "leave":
            return await self.leave(chat_ref, user)
        if action == "start":
            return await self.start(chat_ref, user, admin)
        if action == "cancel":
            return await self.cancel(chat_ref, user, admin)
        raise TournamentRefused("stale")

    async def cancel(self, chat_ref: ChatRef, user: UserRef,
                     admin: Callable[[], Awaitable[bool]] = _no) -> TournamentView:
        """Stop the tournament, for its creator or one of the chat's admins (as `start`)."""
        row = await self._open_row(chat_ref)
        state = _load(row)
        if user.key != state["creator"] and not await admin():
            raise TournamentRefused("not_allowed")
        view = await self._save(row, Status.CANCELLED, state)
        match = self._playing(_rounds(state))
        if match is not None and match.match is not None:
            open_row = await self.store.get_game(int(match.match))
            if open_row is not None and open_row.status.open:
                await self.lobby.abandon(self._chat_ref(state))
        return view

    async def _view(self, tournament_id: int) -> TournamentView:
        row = await self.store.tournament(tournament_id)
        assert row is not None
        return view_of(row)

    # ---- advancing -----------------------------------------------------------

    async def on_event(self, event: ev.Event) -> None:
        """A match ended: its chat's tournament is advanced once every listener has had the
        match's end (the front-end shows it before the next match of the same players starts);
        a process stopped before then leaves the step to `resume`."""
        if not isinstance(event, ev.MatchEnded):
            return
        task = asyncio.create_task(self._ended(event), name=f"tournament-after-{event.game_id}")
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def stop(self) -> None:
        """Drop the steps started by matches' ends and not yet done: `resume` does them at the
        next start (or another process's next look)."""
        for task in list(self._pending):
            task.cancel()
        await asyncio.gather(*self._pending, return_exceptions=True)

    async def settled(self) -> None:
        """Returns when the steps started by matches' ends are done."""
        while self._pending:
            await asyncio.gather(*self._pending, return_exceptions=True)

    async def _ended(self, event: ev.MatchEnded) -> None:
        await asyncio.sleep(self.pause)
        try:
            chat = await self.directory.chat(ChatRef(event.platform, event.chat_key))
            row = await self.store.chat_tournament(chat.id)
            if row is not None and row.status == Status.RUNNING:
                await self.advance(row.id)
        except Exception:
            log.exception("advancing after match %s failed; the next look does it", event.game_id)

    async def look_forever(self, platform: str) -> None:
        """`resume` `platform`'s tournaments every `LOOK_EVERY` seconds, until cancelled: what
        each front-end runs beside its chats."""
        while True:
            try:
                await self.resume(platform)
            except Exception:
                log.exception("looking at the %s tournaments failed; trying again", platform)
            await asyncio.sleep(LOOK_EVERY)

    async def resume(self, platform: str | None = None) -> None:
        """Do every step the running tournaments are owed (after a restart, or a lost race); of
        `platform`'s chats alone when given: a process whose front-ends cannot show a chat
        neither starts its matches nor takes the announcements owed to it."""
        for row in await self.store.running_tournaments():
            if platform is not None and _load(row).get("platform") != platform:
                continue
            try:
                await self.advance(row.id)
            except Exception:
                log.exception("tournament %s: advancing failed; the next look tries again", row.id)

    async def advance(self, tournament_id: int) -> None:
        """Record ended matches, seat the next round when one is complete, start the next match;
        each step written over the version read, so done once of all processes. Then tell the
        chat what it is owed."""
        for _ in range(64):
            row = await self.store.tournament(tournament_id)
            if row is None or row.status != Status.RUNNING:
                return
            step = await self._step(row)
            if step is None:
                break
            status, state = step
            await self.store.save_tournament(row.id, row.version, status.value, json.dumps(state),
                                             self.clock())
        await self._deliver(tournament_id)

    async def _deliver(self, tournament_id: int) -> None:
        """Post each owed announcement (a round complete, the champion): held for this process
        `OWED_LEASE` seconds in the stored state before it is posted, dropped once posted; one a
        stopped process held is posted by another after its lease. The tournament is finished
        once its champion is told."""
        for _ in range(16):
            row = await self.store.tournament(tournament_id)
            if row is None or row.status != Status.RUNNING:
                return
            state = _load(row)
            now = self.clock()
            item = next((o for o in state.get("owed", []) if o["until"] <= now), None)
            if item is None:
                return
            item.update(owner=self.owner, until=now + OWED_LEASE)
            if not await self.store.save_tournament(row.id, row.version, row.status, json.dumps(state), now):
                continue
            held = await self.store.tournament(tournament_id)
            assert held is not None
            view = view_of(held)
            earned = await crowned(self.store, self.directory, view, now) if item["champion"] else ()
            news = TournamentNews(view, round_done=item["round"],
                                  champion=state["champion"] if item["champion"] else None, earned=earned)
            if await self._tell(news):
                await self._told(tournament_id, item)

    async def _told(self, tournament_id: int, item: dict[str, Any]) -> None:
        for _ in range(16):
            row = await self.store.tournament(tournament_id)
            if row is None:
                return
            state = _load(row)
            owed = state.get("owed", [])
            if not any(o["round"] == item["round"] and o["owner"] == self.owner for o in owed):
                return
            state["owed"] = [o for o in owed if o["round"] != item["round"]]
            status = Status.FINISHED if item["champion"] else Status(row.status)
            if await self.store.save_tournament(row.id, row.version, status.value, json.dumps(state),
                                                self.clock()):
                return

    async def _step(self, row: TournamentRow) -> tuple[Status, dict[str, Any]] | None:
        state = _load(row)
        if state.get("champion"):
            return None
        played = _rounds(state)
        current = played[-1]
        playing = self._playing(played)
        if playing is not None:
            decided = await self._decided(state, playing, current)
            if decided is not None:
                played[-1] = _with(current, decided)
                state["rounds"][-1] = _round_json(played[-1])
                return Status.RUNNING, state
            if playing.match is not None:
                return None
            game = await self._start_match(state, playing, current.number)
            if game is None:
                return None
            played[-1] = _with(current, replace(playing, match=str(game)))
            state["rounds"][-1] = _round_json(played[-1])
            return Status.RUNNING, state
        players = _players(state)
        fmt = Format(state["format"])
        done = current.number
        last = (len(current.pairings) == 1 if fmt is Format.KNOCKOUT
                else current.number >= int(state["swiss_rounds"]))
        state.setdefault("owed", []).append({"round": done, "champion": last, "owner": None, "until": 0.0})
        if last:
            rows = standings(players, played, knockout=fmt is Format.KNOCKOUT)
            state["champion"] = champion_of(fmt, rows, played)
            return Status.RUNNING, state
        following = (knockout_next_round(current) if fmt is Format.KNOCKOUT
                     else swiss_round(players, played))
        if state.get("duplicate"):
            following = tuple(_held(p) for p in following)
        state["rounds"].append(_round_json(Round(done + 1, following, self.clock())))
        return Status.RUNNING, state

    @staticmethod
    def _playing(played: Sequence[Round]) -> Pairing | None:
        if not played:
            return None
        return next((p for p in played[-1].pairings if not p.decided), None)

    async def _decided(self, state: dict[str, Any], pairing: Pairing, current: Round) -> Pairing | None:
        """The pairing with its winner once its match is over (or past the round's deadline)."""
        if pairing.match is None:
            return None
        game = await self.store.get_game(int(pairing.match))
        if game is None:
            return None
        if game.status == GameStatus.FINISHED:
            results = await self.store.results(game.id)
            won = next((r for r in results if r.won), None)
            keys = await self._keys(game)
            by_seat = {r.seat: r for r in results}
            if won is None or won.seat not in keys:
                return replace(pairing, winner=pairing.first, forfeit=True)
            first_seat = next(s for s, k in keys.items() if k == pairing.first)
            second_seat = next(s for s, k in keys.items() if k != pairing.first)
            score = (by_seat[first_seat].points if first_seat in by_seat else 0,
                     by_seat[second_seat].points if second_seat in by_seat else 0)
            decided = replace(pairing, winner=keys[won.seat], score=score)
            if state.get("duplicate"):
                board = await self._board(game.id, int(state.get("deals") or 1))
                if board is not None:
                    decided = replace(decided, hands=(first_seat, second_seat),
                                      board=(board[first_seat], board[second_seat]))
            return decided
        if game.status.open and self.clock() - game.created_at < ROUND_DEADLINE:
            return None
        if game.status.open:
            await self.lobby.abandon(self._chat_ref(state))
        return replace(pairing, winner=await self._present(game, pairing), forfeit=True)

    async def _board(self, game_id: int, deals: int) -> tuple[int, ...] | None:
        """Each seat's points over a duplicate match's first `deals` deals (the ones every
        table played), from the match's record."""
        _, game = await self.lobby.games.load(game_id)
        if game is None or not game.results:
            return None
        return tuple(game.results[min(deals, len(game.results)) - 1].totals)

    async def _present(self, game: GameRow, pairing: Pairing) -> str:
        keys = await self._keys(game)
        absent = {keys.get(s.seat) for s in game.seats if s.autoplay or s.timeouts > 0}
        if pairing.second is not None and pairing.first in absent and pairing.second not in absent:
            return pairing.second
        return pairing.first

    async def _keys(self, game: GameRow) -> dict[int, str]:
        keys: dict[int, str] = {}
        for seat in game.seats:
            player = seat.player
            if player is None and seat.player_id is not None:
                player = await self.store.get_player(seat.player_id)
            if player is not None:
                keys[seat.seat] = player.user_key
        return keys

    def _chat_ref(self, state: dict[str, Any]) -> ChatRef:
        return ChatRef(state["platform"], state["chat_key"], state.get("title"),
                       thread=state["place"] or None)

    async def _start_match(self, state: dict[str, Any], pairing: Pairing, round_number: int
                           ) -> int | None:
        """Open and start the pairing's match in the tournament's thread. The match already
        running there for this pairing (started by a process that stopped before recording it)
        is adopted; a lobby of the pairing left half made is closed and made again; another
        game open there is waited for (its end advances the tournament too), as is another
        process starting the match at the same moment (None)."""
        chat_ref = self._chat_ref(state)
        chat = await self.directory.chat(chat_ref)
        open_row = await self.store.open_game(chat.id, chat_ref.place)
        wanted = {pairing.first, pairing.second}
        if open_row is not None:
            keys = set((await self._keys(open_row)).values())
            if open_row.status == GameStatus.RUNNING and keys == wanted:
                return open_row.id
            if open_row.status != GameStatus.LOBBY or not keys <= wanted:
                return None
            await self.lobby.abandon(chat_ref)
        first, second = self._user(state, pairing.first), self._user(state, str(pairing.second))
        options: dict[str, Any] = {"players": 2}
        seed = None
        if state.get("duplicate"):
            options.update(target=DUPLICATE_TARGET, round_limit=int(state.get("deals") or 1))
            seed = board_seed(state["seed"], round_number)
            if pairing.hands is not None and pairing.hands[0] == 1:
                first, second = second, first
        elif state.get("target"):
            options["target"] = state["target"]
        try:
            lobby = await self.lobby.new_game(chat_ref, first, state["variant"], options, seed=seed)
            await self.lobby.join(chat_ref, second, ready=True)
            await self.lobby.start(chat_ref, first, is_admin=True)
        except Refused as refused:
            log.info("tournament match in %s not started now: %s", chat.chat_key, refused.reason)
            return None
        return int(lobby.game_id)

    @staticmethod
    def _user(state: dict[str, Any], key: str) -> UserRef:
        name = next((e["name"] for e in state["players"] if e["user"] == key), key)
        return UserRef(state["platform"], key, name)


def _entrant(user: UserRef) -> dict[str, Any]:
    return asdict(Entrant(user.key, user.name))


def _held(pairing: Pairing) -> Pairing:
    """A duplicate pairing with the hands it is to hold: turned at every other table."""
    if pairing.second is None:
        return pairing
    return replace(pairing, hands=(1, 0) if turned(pairing.table) else (0, 1))


def _with(current: Round, pairing: Pairing) -> Round:
    return Round(current.number,
                 tuple(pairing if p.table == pairing.table else p for p in current.pairings),
                 current.started_at)


def _round_json(round_: Round) -> dict[str, Any]:
    return {"number": round_.number, "started_at": round_.started_at,
            "pairings": [asdict(p) for p in round_.pairings]}


__all__ = ["Options", "TournamentNews", "TournamentRefused", "Tournaments", "view_of"]
