"""The terminal game: one human against computer players, through the same
sessions layer and SQLite file as the chat front-ends. Quitting keeps the
match; running the command again resumes it."""

from __future__ import annotations

import asyncio
import getpass
import sys
from collections.abc import Callable
from typing import TextIO

from ..i18n import t
from ..render import breakdown_text, hand_text, match_text, move_label, move_text, refusal_text, table_text
from ..sessions import (
    ChatRef,
    Event,
    GameCancelled,
    GameStatus,
    MatchEnded,
    MovePlayed,
    Refused,
    RoundEnded,
    SeatAutoplay,
    Sessions,
    UserRef,
)

PLATFORM = "terminal"
_CLEAR = "\x1b[2J\x1b[H"
_TEXT = {
    "it": {
        "prompt": "La tua mossa (numero), h aiuto, q esci: ",
        "help": "Scrivi il numero della mossa e premi Invio. q salva ed esce: la partita riprende "
                "la prossima volta. r mostra le regole.",
        "bad": "«{text}» non è una mossa: scrivi un numero da 1 a {count}, oppure h per l'aiuto.",
        "moves": "Mosse possibili:",
        "saved": "Partita salvata: riprendi con lo stesso comando.",
        "continue": "Premi Invio per continuare…",
        "waiting": "Aspetto le altre mosse…",
        "last": "Ultime mosse:",
        "fuori": "f e il numero di una mossa: la giochi e ti dichiari fuori.",
    },
    "en": {
        "prompt": "Your move (number), h help, q quit: ",
        "help": "Type the number of a move and press Enter. q saves and quits: the match resumes "
                "next time. r shows the rules.",
        "bad": "“{text}” is not a move: type a number from 1 to {count}, or h for help.",
        "moves": "Your moves:",
        "saved": "Match saved: run the same command to resume it.",
        "continue": "Press Enter to continue…",
        "waiting": "Waiting for the other players…",
        "last": "Last moves:",
        "fuori": "f and the number of a move: play it and declare fuori.",
    },
}


class TerminalGame:
    def __init__(self, sessions: Sessions, *, lang: str = "it", out: TextIO = sys.stdout,
                 read_line: Callable[[], str] | None = None, chat_key: str = "local") -> None:
        self.sessions = sessions
        self.lang = lang if lang in _TEXT else "en"
        self.out = out
        self.read_line = read_line or sys.stdin.readline
        self.chat = ChatRef(PLATFORM, chat_key, "terminal")
        self.user = UserRef(PLATFORM, chat_key, getpass.getuser() or "you", self.lang)
        self.log: list[str] = []
        self.events: asyncio.Queue[Event] = asyncio.Queue()
        sessions.subscribe(self._on_event)

    def _say(self, key: str, **params: object) -> str:
        return _TEXT[self.lang][key].format(**params)

    async def _on_event(self, event: Event) -> None:
        if event.platform == PLATFORM and event.chat_key == self.chat.key:
            await self.events.put(event)

    async def _read(self) -> str | None:
        line = await asyncio.to_thread(self.read_line)
        if line == "":
            return None
        return line.strip()

    def _show(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    async def setup(self, variant: str, players: int | None, level: str, teams: bool,
                    rules: dict[str, str] | None = None) -> int:
        """The game to play: the open one in this terminal, or a new one with computers
        (`players` None for the variant's usual number, `rules` as `--rule` gives them)."""
        await self.sessions.chat(self.chat, self.lang)
        await self.sessions.set_turn_limit(self.chat, 3600)
        game_id = await self.sessions.open_game_id(self.chat)
        if game_id is None:
            options: dict[str, object] = dict(rules or {})
            if teams:
                options["teams"] = True
            if players is not None:
                options["players"] = players
            lobby = await self.sessions.new_game(self.chat, self.user, variant, options)
            for _ in range(lobby.players - 1):
                await self.sessions.add_computer(self.chat, self.user, level)
            game_id = lobby.game_id
        row = await self.sessions.game_row(game_id)
        if row.status is GameStatus.LOBBY:
            await self.sessions.start(self.chat, self.user)
        return game_id

    def _record(self, event: Event, style: str) -> str | None:
        if isinstance(event, MovePlayed):
            prefix = t(self.lang, "play.computer") + " " if event.by_computer else ""
            self.log = [*self.log[-5:], prefix + move_text(event, self.lang, style)]
        elif isinstance(event, RoundEnded):
            return breakdown_text(event, self.lang)
        elif isinstance(event, MatchEnded):
            return match_text(event, self.lang)
        elif isinstance(event, SeatAutoplay):
            key = "play.autoplay_on" if event.on else "play.autoplay_off"
            self.log.append(t(self.lang, key, name=event.name))
        elif isinstance(event, GameCancelled):
            return t(self.lang, "match.cancelled")
        return None

    async def _draw(self, game_id: int) -> list[str]:
        table = await self.sessions.table(game_id)
        hand = await self.sessions.hand(game_id, self.user)
        screen = [_CLEAR if self.out.isatty() else "", table_text(table, self.lang), ""]
        if self.log:
            screen += [self._say("last"), *("  " + line for line in self.log), ""]
        screen.append(hand_text(hand, self.lang, table.variant))
        moves = [m for choice in hand.choices for m in choice.moves] if hand.my_turn else []
        if moves:
            screen.append(self._say("moves"))
            for number, move in enumerate(moves, 1):
                screen.append(f"  {number}. {move_label(move, hand.deck_style)}")
            if hand.may_declare:
                screen.append(self._say("fuori"))
        self._show("\n".join(screen))
        return [m.code for m in moves]

    async def run(self, game_id: int) -> bool:
        """Play until the match ends (True) or the player quits (False)."""
        driver = asyncio.create_task(self.sessions.run_forever())
        try:
            return await self._loop(game_id)
        finally:
            driver.cancel()
            await asyncio.gather(driver, return_exceptions=True)

    async def _loop(self, game_id: int) -> bool:
        style = (await self.sessions.game_row(game_id)).deck_style
        while True:
            while not self.events.empty():
                if await self._drain(self.events.get_nowait(), style):
                    return True
            moves = await self._draw(game_id)
            if (await self.sessions.table(game_id)).finished:
                return True
            if not moves:
                self._show(self._say("waiting"))
                if await self._drain(await self.events.get(), style):
                    return True
                continue
            line = await self._read()
            if line is None or line.lower() in ("q", "quit", "esci"):
                self._show(self._say("saved"))
                return False
            if line.lower() in ("h", "help", "aiuto", "?"):
                self._show(self._say("help"))
                continue
            if line.lower() in ("r", "rules", "regole"):
                from ..engine import Rules
                from ..render import rules_text

                row = await self.sessions.game_row(game_id)
                self._show(rules_text(row.variant, Rules.from_options(row.variant, row.options),
                                      self.lang))
                continue
            fuori = line[:1].lower() == "f"
            number = line[1:].strip() if fuori else line
            if not number.isdigit() or not 1 <= int(number) <= len(moves):
                self._show(self._say("bad", text=line[:20], count=len(moves)))
                continue
            version = (await self.sessions.table(game_id)).version
            try:
                await self.sessions.play(game_id, self.user, version, moves[int(number) - 1],
                                         fuori=fuori)
            except Refused as exc:
                self._show(refusal_text(exc, self.lang))

    async def _drain(self, event: Event, style: str) -> bool:
        """Record one event; pause on round and match ends. True when the match is over."""
        text = self._record(event, style)
        if text is None:
            return False
        self._show("\n" + text)
        if isinstance(event, MatchEnded | GameCancelled):
            return True
        self._show(self._say("continue"))
        await self._read()
        return False
