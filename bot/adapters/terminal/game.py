"""The terminal game: one human against computer players, through the same
sessions layer and SQLite file as the chat front-ends. Quitting (q or Ctrl-C)
keeps the match; running the command again resumes it.

Each variant the player asks for while another match is open gets its own
chat (`local-<variant>`), so starting an escoba never ends a saved scopa.
"""

from __future__ import annotations

import asyncio
import getpass
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO, assert_never

from ...engine import Move, Variant
from ...i18n import LANGUAGES, t, tn
from ...render.boards import achievements_line
from ...render.round import breakdown_text, match_text
from ...render.words import (
    card_label,
    card_legend,
    cards_text,
    hand_cards_text,
    move_label,
    move_text,
    refusal_text,
    rules_text,
    table_text,
)
from ...sessions import (
    AchievementsEarned,
    ChatRef,
    Event,
    GameCancelled,
    GameStatus,
    HandView,
    MatchEnded,
    MovePlayed,
    Refused,
    RoundEnded,
    SeatAutoplay,
    Sessions,
    TableView,
    UserRef,
    interaction,
)
from ...sessions.commands import PlayComputers
from ...sessions.daily import DailyOffer, DailyStart
from ...sessions.hints import PracticeHint
from ...sessions.interaction import blocked_cards, fuori_outcome
from ...sessions.puzzles import Puzzle, PuzzleAnswer
from ...sessions.refusals import Reason
from ...sessions.replay import ReplayStep
from ...sessions.replies import (
    ConfirmCancel,
    DailyDropped,
    Done,
    Erased,
    HandPrompted,
    HandRedrawn,
    HandShown,
    MenuShown,
    Note,
    OpenPrivate,
    OpenPrivateForDaily,
    OwnerAnswered,
    Played,
    Refusal,
    SeatReady,
    SettingsShown,
    TournamentShown,
)
from ...sessions.reviews import MatchReview, ReviewAsked
from ...sessions.tap import Action, Asker, Reply, Say, Tap
from .lines import CallableLines, LineSource, stdin_lines
from .replay import offer_replay

PLATFORM = "terminal"
_CLEAR = "\x1b[2J\x1b[H"
_QUIT = ("q", "quit", "esci", "salir")
_HELP = ("h", "help", "aiuto", "ayuda", "?")
_RULES = ("r", "rules", "regole", "reglas")
_YES = ("y", "yes", "s", "si", "sì", "sí")
_MOVED_ON = (Reason.STALE, Reason.ILLEGAL_MOVE, Reason.NOT_YOUR_TURN, Reason.GAME_OVER)
"""Refusals that only mean the game changed between the screen and the key press."""
_COLUMNS = 80
"""A terminal is wide: a round's breakdown names the sides in full."""


@dataclass(frozen=True, slots=True)
class Screen:
    """What the player was shown: the version of the game and the numbered moves."""

    version: int
    moves: tuple[Move, ...]
    finished: bool


def slot_key(base: str, variant: str) -> str:
    return f"{base}-{variant}"


class TerminalGame:
    def __init__(self, sessions: Sessions, *, lang: str = "it", out: TextIO = sys.stdout,
                 read_line: Callable[[], str] | None = None, lines: LineSource | None = None,
                 chat_key: str = "local") -> None:
        self.sessions = sessions
        self.lang = lang if lang in LANGUAGES else "en"
        self.out = out
        if lines is not None:
            self.lines: LineSource = lines
        elif read_line is not None:
            self.lines = CallableLines(read_line)
        else:
            self.lines = stdin_lines()
        self.base_key = chat_key
        self.chat = self._chat_ref(chat_key)
        self.user = UserRef(PLATFORM, chat_key, getpass.getuser() or "you", self.lang)
        self.log: list[str] = []
        self.unseen: list[str] = []
        """Lines of the log not on screen yet: shown before a round's or the match's end."""
        self.names: dict[int, str] = {}
        self.events: asyncio.Queue[Event] = asyncio.Queue()
        self._pending: asyncio.Future[str | None] | None = None
        sessions.bus.subscribe(self._on_event)

    def _say(self, key: str, **params: object) -> str:
        return t(self.lang, f"terminal.{key}", **params)

    @staticmethod
    def _chat_ref(key: str) -> ChatRef:
        return ChatRef(PLATFORM, key, "terminal")

    async def _on_event(self, event: Event) -> None:
        if event.platform == PLATFORM and event.chat_key == self.chat.key:
            await self.events.put(event)

    def _show(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def _prompt(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()

    def _line_task(self) -> asyncio.Future[str | None]:
        if self._pending is None:
            self._pending = asyncio.ensure_future(self.lines.next_line())
        return self._pending

    async def _read(self, prompt: str = "") -> str | None:
        """A line typed after `prompt`, stripped; None at the end of input."""
        self._prompt(prompt)
        line = await self._line_task()
        self._pending = None
        return None if line is None else line.strip()

    async def _line_or_event(self, prompt: str) -> str | Event | None:
        """The line typed after `prompt`, or the game's next event if it comes first (the
        line being typed then stays for the next call)."""
        self._prompt(prompt)
        line = self._line_task()
        event = asyncio.ensure_future(self.events.get())
        waiting: set[asyncio.Future[Any]] = {line, event}
        await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        if event.done():
            self._show("")
            return event.result()
        event.cancel()
        self._pending = None
        result = line.result()
        return None if result is None else result.strip()

    # ---- choosing the match ---------------------------------------------------

    async def _open_games(self) -> list[tuple[ChatRef, int, str]]:
        """The matches open in this terminal's chats: (chat, game id, variant)."""
        found = []
        for key in [self.base_key, *(slot_key(self.base_key, v.value) for v in Variant)]:
            ref = self._chat_ref(key)
            game_id = await self.sessions.queries.open_game_id(ref)
            if game_id is not None:
                found.append((ref, game_id, (await self.sessions.queries.game(game_id)).variant))
        return found

    async def _describe(self, game_id: int) -> tuple[int, str]:
        try:
            table = await self.sessions.queries.table(game_id)
        except Refused:
            return 1, "—"
        return table.round_number, " – ".join(
            f"{name} {total}" for name, total in zip(table.side_names, table.totals, strict=True))

    async def _choose_open(self, open_chat: ChatRef, game_id: int, open_variant: str,
                           asked: str) -> bool | None:
        """Whether to resume the open match rather than start `asked`; None at the end of input."""
        round_number, score = await self._describe(game_id)
        names = {"open": t(self.lang, f"variant.{open_variant}"), "asked": t(self.lang, f"variant.{asked}")}
        self._show(self._say("open_other", round=round_number, score=score, **names))
        while True:
            answer = await self._read(self._say("open_choice", **names))
            if answer is None or answer.lower() in _QUIT:
                return None
            if answer in ("1", "2"):
                return answer == "1"
            self._show(self._say("open_bad"))

    async def setup(self, variant: str | None, players: int | None, level: str, teams: bool,
                    rules: dict[str, str] | None = None) -> int | None:
        """The game to play: the open one of `variant` (of any variant when None), or a new one
        with computers (`players` None for the variant's usual number, `rules` as `--rule` gives
        them). When only a match of another variant is open, the player chooses between resuming
        it and starting `variant` beside it. None when the input ends before a choice."""
        await self.sessions.queries.chat(self.chat, self.lang)
        open_games = await self._open_games()
        mine = next((g for g in open_games if variant is None or g[2] == variant), None)
        if mine is None and open_games and variant is not None:
            chat, game_id, open_variant = open_games[0]
            resume = await self._choose_open(chat, game_id, open_variant, variant)
            if resume is None:
                return None
            if resume:
                mine = open_games[0]
        if mine is not None:
            self.chat, game_id, _ = mine
        else:
            busy = {chat.key for chat, _, _ in open_games}
            asked = variant or Variant.SCOPA.value
            key = self.base_key if self.base_key not in busy else slot_key(self.base_key, asked)
            self.chat = self._chat_ref(key)
            await self.sessions.queries.chat(self.chat, self.lang)
            options: dict[str, object] = dict(rules or {})
            if teams:
                options["teams"] = True
            if players is not None:
                options["players"] = players
            opened = _done(await self.sessions.handle(
                Asker(self.user, self.chat), PlayComputers(asked, options, level, turn_limit=3600)))
            assert opened.game_id is not None
            return opened.game_id
        row = await self.sessions.queries.game(game_id)
        if row.status is GameStatus.LOBBY:
            _done(await self.sessions.handle(Asker(self.user, self.chat), Tap(Action.START, game_id)))
        return game_id

    # ---- the screen -----------------------------------------------------------

    def _record(self, event: Event, style: str) -> str | None:
        if isinstance(event, MovePlayed):
            prefix = t(self.lang, "play.computer") + " " if event.by_computer and not event.timed_out else ""
            lines = (prefix + move_text(event, self.lang, style)).splitlines()
            if event.leftover and event.leftover_seat is None:
                lines.append(self._say("leftover_nobody"))
            self.log = [*self.log, *lines][-6:]
            self.unseen += lines
        elif isinstance(event, RoundEnded):
            return breakdown_text(event, self.lang, columns=_COLUMNS)
        elif isinstance(event, MatchEnded):
            return match_text(event, self.lang)
        elif isinstance(event, SeatAutoplay):
            key = "play.autoplay_on" if event.on else "play.autoplay_off"
            self.log.append(t(self.lang, key, name=event.name))
            self.unseen.append(self.log[-1])
        elif isinstance(event, GameCancelled):
            return t(self.lang, "match.cancelled")
        return None

    def _partner_lines(self, table: TableView, seat: int) -> list[str]:
        """Who plays on the player's side, when they play in a team."""
        side = next((side for side in table.sides if seat in side), ())
        partners = [self.names.get(other, "?") for other in side if other != seat]
        return [self._say("partner", name=" & ".join(partners))] if partners else []

    def _hand_lines(self, hand: HandView, variant: str) -> list[str]:
        lines = [t(self.lang, "hand.title", variant=t(self.lang, f"variant.{variant}"), game=hand.game_id),
                 hand_cards_text(hand, self.lang)]
        if hand.finished:
            lines.append(t(self.lang, "hand.over"))
        elif hand.my_turn:
            lines.append(self._say("your_turn"))
        else:
            lines.append(t(self.lang, "hand.wait"))
        return lines

    def _blocked_lines(self, hand: HandView) -> list[str]:
        """The cards of the hand that cannot be played now, each with the capture that forbids it."""
        blocked = blocked_cards(hand)
        if not blocked:
            return []
        style = hand.deck_style
        capture = blocked[0].example
        reason = self._say("takes", card=card_label(capture.card, style),
                           captured=cards_text(capture.captures, style))
        return [self._say("blocked_title"), *(
            "  " + self._say("blocked", card=card_label(b.card, style), move=reason) for b in blocked)]

    async def _draw(self, game_id: int) -> Screen:
        table = await self.sessions.queries.table(game_id)
        hand = await self.sessions.queries.hand(game_id, self.user)
        self.names = {seat.seat: seat.name for seat in table.seats}
        self.unseen = []
        screen = [_CLEAR if self.out.isatty() else "", table_text(table, self.lang, plays=False, timed=False),
                  *self._partner_lines(table, hand.seat), ""]
        if self.log:
            screen += [self._say("last"), *("  " + line for line in self.log), ""]
        screen += self._hand_lines(hand, table.variant)
        moves = [m for choice in hand.choices for m in choice.moves] if hand.my_turn else []
        if moves:
            screen.append(self._say("moves"))
            for number, move in enumerate(moves, 1):
                screen.append(f"  {number}. {move_label(move, hand.deck_style)}")
            screen += self._blocked_lines(hand)
            if hand.may_declare:
                screen.append(self._say("fuori_hint"))
        self._show("\n".join(screen))
        return Screen(hand.version, tuple(moves), table.finished)

    # ---- playing ----------------------------------------------------------------

    async def run(self, game_id: int) -> bool:
        """Play until the match ends (True) or the player quits (False); a match played to its
        end may then be stepped through play by play."""
        driver = asyncio.create_task(self.sessions.scheduler.run_forever())
        try:
            over = await self._loop(game_id)
            if over and (await self.sessions.queries.game(game_id)).status is GameStatus.FINISHED:
                await offer_replay(self.sessions, self.user, game_id, self.lang, self._read, self._show,
                                   _YES, _QUIT)
            return over
        finally:
            driver.cancel()
            if self._pending is not None:
                self._pending.cancel()
            await asyncio.gather(driver, return_exceptions=True)

    async def _loop(self, game_id: int) -> bool:
        """The table is drawn when the match is resumed and then once per turn of the player;
        while the others play, one line says so; a typed line gets only its answer."""
        style = (await self.sessions.queries.game(game_id)).deck_style
        screen: Screen | None = None
        waiting = False
        while True:
            while not self.events.empty():
                if await self._drain(self.events.get_nowait(), style):
                    return True
            hand = await self.sessions.queries.hand(game_id, self.user)
            if screen is None or hand.finished or (hand.my_turn and hand.version != screen.version):
                screen = await self._draw(game_id)
                waiting = False
                if screen.finished:
                    return True
            if not screen.moves or screen.version != hand.version:
                if not waiting:
                    self._show(self._say("waiting"))
                    waiting = True
                if await self._drain(await self.events.get(), style):
                    return True
                continue
            got = await self._line_or_event(self._say("prompt"))
            if isinstance(got, Event):
                if await self._drain(got, style):
                    return True
                continue
            line = got
            if line is None or line.lower() in _QUIT:
                self._show(self._say("saved"))
                return False
            notice = await self._command(game_id, line, screen, style)
            if notice:
                self._show(notice)

    async def _command(self, game_id: int, line: str, screen: Screen, style: str) -> str | None:
        """Act on one typed line: decoded into a tap, asked of the sessions, the reply drawn;
        the notice to show under the next screen, if any."""
        lowered = line.lower()
        if lowered in _HELP:
            _, rules = await interaction.rules_to_show(self.sessions, self.chat, None)
            fuori = [self._say("fuori_hint")] if rules.fuori else []
            return "\n".join([self._say("help"), *fuori, card_legend(style, self.lang)])
        if lowered in _RULES:
            variant, rules = await interaction.rules_to_show(self.sessions, self.chat, None)
            return rules_text(variant, rules, self.lang)
        chosen = _decode(line, game_id, screen)
        if chosen is None:
            return self._say("bad", text=line[:20], count=len(screen.moves))
        tap, move = chosen
        declaring = tap.action is Action.DECLARE
        if declaring and not await self._confirm_fuori(game_id, screen.version, move, style):
            return self._say("fuori_kept")
        return self._draw_reply(await self.sessions.handle(Asker(self.user, self.chat), tap))

    def _draw_reply(self, reply: Reply) -> str | None:
        """The line a play's reply adds: why it was refused, or what the sessions say of it (the
        table, drawn again after every line, shows the rest)."""
        match reply:
            case Refusal(refused) if refused.reason in _MOVED_ON:
                return self._say("moved_on")
            case Refusal(refused):
                return refusal_text(refused, self.lang)
            case Note(say) | Played(say=Say() as say):
                return t(self.lang, say.key, **say.params)
            case (Played() | Done() | HandPrompted() | HandShown() | HandRedrawn() | SeatReady() | MenuShown()
                  | OpenPrivate() | OpenPrivateForDaily() | ConfirmCancel() | DailyDropped() | SettingsShown()
                  | PracticeHint() | MatchReview() | ReviewAsked() | DailyOffer() | DailyStart() | Puzzle()
                  | PuzzleAnswer() | ReplayStep() | TournamentShown() | OwnerAnswered() | Erased()):
                return None
            case _:
                assert_never(reply)

    async def _confirm_fuori(self, game_id: int, version: int, move: Move, style: str) -> bool:
        """Say what declaring fuori with `move` would mean now, and ask to confirm."""
        try:
            outcome = await fuori_outcome(self.sessions, game_id, self.user, version, move)
        except Refused:
            outcome = None
        if outcome is not None:
            self._show(self._say("fuori_win" if outcome.wins else "fuori_lose",
                                 move=move_label(move, style),
                                 points=tn(self.lang, "count.sure_points", outcome.points),
                                 target=outcome.target))
        answer = await self._read(self._say("fuori_confirm"))
        return answer is not None and answer.lower() in _YES

    async def _drain(self, event: Event, style: str) -> bool:
        """Record one event; pause on round and match ends. True when the match is over."""
        text = self._record(event, style)
        if text is None:
            return False
        self._show("\n" + "\n".join([*("• " + line for line in self.unseen), text]))
        self.unseen = []
        await self.sessions.delivery.notice_delivered(event)
        if isinstance(event, MatchEnded | GameCancelled):
            await self._achievements()
            return True
        await self._read(self._say("continue"))
        return False


    async def _achievements(self) -> None:
        """The line of the achievements the match earned, published right after its end."""
        while not self.events.empty():
            event = self.events.get_nowait()
            if isinstance(event, AchievementsEarned):
                self._show(achievements_line(event.earned, self.lang))
                await self.sessions.delivery.notice_delivered(event)


def _decode(line: str, game_id: int, screen: Screen) -> tuple[Tap, Move] | None:
    """A typed move: its number on the screen, after `f` to declare fuori with it."""
    fuori = line[:1].lower() == "f"
    number = line[1:].strip() if fuori else line
    if not number.isdigit() or not 1 <= int(number) <= len(screen.moves):
        return None
    move = screen.moves[int(number) - 1]
    return Tap(Action.DECLARE if fuori else Action.PLAY, game_id, screen.version, move.code), move


def _done(reply: Reply) -> Done:
    """A command's reply at the terminal's setup: done, or its refusal raised (`Refused`), as the
    caller reports it."""
    if isinstance(reply, Refusal):
        raise reply.refused
    assert isinstance(reply, Done), reply
    return reply
