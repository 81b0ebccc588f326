"""Monthly seasons: each chat's standings over a UTC month of rated matches, the champion
announced in the chat when the month turns, a player's past seasons, and everyone's board.

The standings are worked out from the stored results whenever they are asked for, so nothing
of a season is kept but its close. A season counts every rated match (neither practice nor a
deal of the day) finished in the month, in the order they finished; for each person:

- a win is worth `WIN_POINTS`, a loss nothing (a match of Scopa always has a winner);
- a win that makes a run of `STREAK_FROM` or more wins in a row earns `STREAK_BONUS` more;
- of the matches with a computer seated, only the first `COMPUTER_CAP` a UTC day count; those
  after them count for nothing, and neither break nor extend a streak.

Ties are broken by more wins, then fewer matches, then whoever got there first. A chat's season
has the chat's matches; everyone's board (`/season global`) has every chat's, the private
chats' too. When the month turns, whichever process claims a chat's close first (a lease in the
store, as the owners' notices have) announces its champion there, and closes it for good once
posted; a season with fewer than two people in it has no champion to announce, and a past
season is announced only during the first `CLOSE_DAYS` days of the next month (a bot started
long after does not tell a chat about a month everybody has forgotten)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime

from .boards import EVERYONE_WORDS
from .directory import Directory
from .log_context import about
from .ports import GameStore, SeasonResult, Served
from .refs import ChatRef, UserRef

log = logging.getLogger(__name__)

WIN_POINTS = 3
STREAK_FROM = 3
STREAK_BONUS = 1
COMPUTER_CAP = 3
BOARD_LINES = 10
HISTORY_SEASONS = 12
"""Past seasons a player's history in a chat goes back over."""
EVERYONE_HISTORY_SEASONS = 3
"""Past seasons a player's history of everyone's seasons goes back over: each is every chat's
month of results, read whole to rank them."""
CLOSE_BATCH = 20
"""Chats a process claims at a time to close their season; it claims again while it gets as many."""
CLOSE_DAYS = 7
CLOSE_LEASE = 120.0
"""Seconds a process holds a chat's close while announcing its champion; another tries after."""
CLOSE_EVERY = 60.0
"""Seconds between two looks for a season to close."""
LAST_WORDS = frozenset({"last", "previous", "scorsa", "scorso", "precedente", "pasada", "anterior"})
"""What after /season asks for last month's season, in every language."""


def month_of(now: float) -> date:
    """The first day of the UTC month at `now`."""
    return datetime.fromtimestamp(now, UTC).date().replace(day=1)


def next_month(month: date) -> date:
    if month.month == 12:
        return month.replace(year=month.year + 1, month=1)
    return month.replace(month=month.month + 1)


def previous_month(month: date) -> date:
    if month.month == 1:
        return month.replace(year=month.year - 1, month=12)
    return month.replace(month=month.month - 1)


def month_start(month: date) -> float:
    return datetime(month.year, month.month, 1, tzinfo=UTC).timestamp()


def season_key(month: date) -> str:
    return f"{month.year:04d}-{month.month:02d}"


def _day(moment: float) -> date:
    return datetime.fromtimestamp(moment, UTC).date()


@dataclass(frozen=True, slots=True)
class Standing:
    """A person's season: points (the streak bonus among them), wins and matches counted, their
    longest run of wins, the matches against the computer left out by the day's cap, and when
    they last scored (a tie goes to whoever got there first)."""

    player_id: int
    name: str
    points: int = 0
    wins: int = 0
    matches: int = 0
    bonus: int = 0
    best_streak: int = 0
    left_out: int = 0
    reached: float = 0.0


@dataclass(slots=True)
class _Tally:
    name: str
    points: int = 0
    wins: int = 0
    matches: int = 0
    bonus: int = 0
    streak: int = 0
    best_streak: int = 0
    left_out: int = 0
    reached: float = 0.0
    computer_days: dict[date, int] = field(default_factory=dict)


def standings(results: Iterable[SeasonResult]) -> list[Standing]:
    """The season's standings from its results in the order they finished, best first."""
    tallies: dict[int, _Tally] = {}
    for result in sorted(results, key=lambda r: (r.finished_at, r.game_id, r.player_id)):
        tally = tallies.setdefault(result.player_id, _Tally(result.name))
        tally.name = result.name
        if result.computer:
            day = _day(result.finished_at)
            if tally.computer_days.get(day, 0) >= COMPUTER_CAP:
                tally.left_out += 1
                continue
            tally.computer_days[day] = tally.computer_days.get(day, 0) + 1
        tally.matches += 1
        if not result.won:
            tally.streak = 0
            continue
        tally.wins += 1
        tally.streak += 1
        tally.best_streak = max(tally.best_streak, tally.streak)
        bonus = STREAK_BONUS if tally.streak >= STREAK_FROM else 0
        tally.bonus += bonus
        tally.points += WIN_POINTS + bonus
        tally.reached = result.finished_at
    ranked = [Standing(pid, t.name, t.points, t.wins, t.matches, t.bonus, t.best_streak, t.left_out,
                       t.reached) for pid, t in tallies.items()]
    ranked.sort(key=lambda s: (-s.points, -s.wins, s.matches, s.reached, s.player_id))
    return ranked


def champion(ranked: Sequence[Standing]) -> Standing | None:
    """The season's winner: the first of at least two people, with points."""
    if len(ranked) < 2 or ranked[0].points <= 0:
        return None
    return ranked[0]


@dataclass(frozen=True, slots=True)
class SeasonAsk:
    """What /season's words ask for: everyone's board, last month's, or a player's history
    (by a name typed after it, an @ before it or not)."""

    everyone: bool = False
    last: bool = False
    player: str | None = None


def season_request(words: Sequence[str]) -> SeasonAsk:
    """/season's words read in any of the catalogue's languages: `global`, `last` (either order);
    any other words name a player."""
    everyone = last = False
    rest: list[str] = []
    for word in words:
        lowered = word.lower()
        if lowered in EVERYONE_WORDS:
            everyone = True
        elif lowered in LAST_WORDS:
            last = True
        else:
            rest.append(word)
    name = " ".join(rest).lstrip("@").strip()
    return SeasonAsk(everyone, last, name or None)


@dataclass(frozen=True, slots=True)
class SeasonBoard:
    """A season's standings as a front-end shows them: its month, whether it is running (then
    when it ends), its first `BOARD_LINES` lines and how many people it has, the asker's own
    line when it is below them, and its champion once it is over."""

    month: date
    everyone: bool
    chat: str | None
    running: bool
    ends: float
    lines: tuple[tuple[int, Standing], ...]
    people: int
    asker: tuple[int, Standing] | None = None
    champion: Standing | None = None


@dataclass(frozen=True, slots=True)
class PastSeason:
    month: date
    rank: int
    people: int
    standing: Standing


@dataclass(frozen=True, slots=True)
class SeasonHistory:
    """A player's seasons in a chat (or everyone's), the latest first: this month's so far
    (`current`) and their past ones over `HISTORY_SEASONS` months (`EVERYONE_HISTORY_SEASONS` of
    everyone's)."""

    name: str
    everyone: bool
    chat: str | None
    current: PastSeason | None
    past: tuple[PastSeason, ...]

    @property
    def titles(self) -> int:
        return sum(1 for season in self.past if season.rank == 1 and season.people >= 2
                   and season.standing.points > 0)


@dataclass(frozen=True, slots=True)
class SeasonClose:
    """A chat's season over, owed its champion's announcement: the chat, its language and the
    season's final board."""

    chat: ChatRef
    language: str
    board: SeasonBoard


def _board(month: date, results: list[SeasonResult], everyone: bool, chat: str | None, now: float,
           asker_id: int | None) -> SeasonBoard:
    ranked = standings(results)
    ends = month_start(next_month(month))
    lines = tuple(enumerate(ranked[:BOARD_LINES], 1))
    asker = next(((rank, s) for rank, s in enumerate(ranked, 1) if s.player_id == asker_id), None)
    running = now < ends
    return SeasonBoard(month, everyone, chat, running, ends, lines, len(ranked),
                       asker if asker is not None and asker[0] > BOARD_LINES else None,
                       None if running else champion(ranked))


class Seasons:
    def __init__(self, store: GameStore, directory: Directory, clock: Callable[[], float], process: str,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        self.store, self.directory, self.clock = store, directory, clock
        self.process, self.sleep = process, sleep

    async def _results(self, chat_id: int | None, first: date, until: date) -> list[SeasonResult]:
        return await self.store.season_results(month_start(first), month_start(until), chat_id)

    async def board(self, chat_ref: ChatRef | None, *, last: bool = False,
                    asker: UserRef | None = None) -> SeasonBoard:
        """This month's season (or last month's) in the chat, or everyone's (`chat_ref` None)."""
        now = self.clock()
        month = month_of(now)
        if last:
            month = previous_month(month)
        chat = await self.directory.chat(chat_ref) if chat_ref is not None else None
        known = await self.directory.known_player(asker.platform, asker.key) if asker is not None else None
        results = await self._results(chat.id if chat else None, month, next_month(month))
        return _board(month, results, chat is None, chat.title if chat else None, now,
                      known.id if known else None)

    async def history(self, chat_ref: ChatRef | None, who: UserRef | str) -> SeasonHistory | None:
        """A player's seasons in the chat (or everyone's): the player a front-end names (`UserRef`:
        a reply, a mention it knows) or a name as typed, matched against the people of those
        seasons (a whole name first, then its start); None when no such player played them."""
        now = self.clock()
        this = month_of(now)
        first = this
        for _ in range(HISTORY_SEASONS if chat_ref is not None else EVERYONE_HISTORY_SEASONS):
            first = previous_month(first)
        chat = await self.directory.chat(chat_ref) if chat_ref is not None else None
        results = await self._results(chat.id if chat else None, first, next_month(this))
        player_id = await self._whom(results, who)
        if player_id is None:
            return None
        by_month: dict[date, list[SeasonResult]] = {}
        for result in results:
            by_month.setdefault(month_of(result.finished_at), []).append(result)
        seasons: list[PastSeason] = []
        for month in sorted(by_month, reverse=True):
            ranked = standings(by_month[month])
            place = next(((rank, s) for rank, s in enumerate(ranked, 1) if s.player_id == player_id), None)
            if place is not None:
                seasons.append(PastSeason(month, place[0], len(ranked), place[1]))
        name = next(r.name for r in results if r.player_id == player_id)
        current = seasons[0] if seasons and seasons[0].month == this else None
        past = tuple(s for s in seasons if s.month != this)
        return SeasonHistory(name, chat is None, chat.title if chat else None, current, past)

    async def _whom(self, results: list[SeasonResult], who: UserRef | str) -> int | None:
        if isinstance(who, UserRef):
            known = await self.directory.known_player(who.platform, who.key)
            return known.id if known and any(r.player_id == known.id for r in results) else None
        wanted = who.lower()
        names = {r.player_id: r.name.lower() for r in results}
        found = [pid for pid, name in names.items() if name == wanted] or \
            [pid for pid, name in names.items() if name.startswith(wanted)]
        return found[-1] if found else None

    # ---- closing a season: the champion announced once --------------------------------

    async def close_due(self, platform: str, served: Served | None,
                        post: Callable[[SeasonClose], Awaitable[bool | None]]) -> int:
        """Announce last month's champion in each of `platform`'s chats this process serves whose
        season is not closed yet, each claimed first so that no other process announces it too.
        `post` answers True once the announcement is in the chat, None when the chat refuses the
        bot for good (closed all the same), False to try again later. How many were posted."""
        now = self.clock()
        this = month_of(now)
        if _day(now).day > CLOSE_DAYS:
            return 0
        month = previous_month(this)
        taken = Served(frozenset({platform}), served.shard_count, served.shards) if served is not None \
            else Served(frozenset({platform}))
        posted = 0
        key = season_key(month)
        while True:
            claimed = await self.store.claim_season_closes(key, month_start(month), month_start(this),
                                                           self.process, now, CLOSE_LEASE, taken, CLOSE_BATCH)
            failed = False
            for chat in claimed:
                ref = ChatRef(chat.platform, chat.chat_key, chat.title, chat.home)
                with about(chat=f"{chat.platform}:{chat.chat_key}", event="season.close"):
                    went = await self._announce(chat.id, ref, chat.language, month, now, post)
                await self.store.season_closed(chat.id, key, self.process, went is not False)
                posted += bool(went)
                failed = failed or went is False
            if len(claimed) < CLOSE_BATCH or failed:
                return posted
            now = self.clock()

    async def _announce(self, chat_id: int, ref: ChatRef, language: str, month: date, now: float,
                        post: Callable[[SeasonClose], Awaitable[bool | None]]) -> bool | None:
        """Post the chat's champion of `month`: what `post` answered, or None when the season has
        no champion (nothing to post, closed all the same)."""
        key = season_key(month)
        try:
            results = await self._results(chat_id, month, next_month(month))
            board = _board(month, results, False, ref.title, now, None)
            if board.champion is None:
                return None
            went = await post(SeasonClose(ref, language, board))
        except Exception:
            log.warning("could not announce season %s's champion in chat %s", key, ref.key, exc_info=True)
            return False
        if went:
            log.info("season %s: champion announced in chat %s", key, ref.key)
        return went

    async def keep_closing(self, platform: str, served: Callable[[], Served | None],
                           post: Callable[[SeasonClose], Awaitable[bool | None]]) -> None:
        """`close_due` every `CLOSE_EVERY` seconds until cancelled."""
        while True:
            try:
                await self.close_due(platform, served(), post)
            except Exception:
                log.warning("could not look for the seasons to close on %s", platform, exc_info=True)
            await self.sleep(CLOSE_EVERY)
