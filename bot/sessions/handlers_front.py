"""The commands of `sessions.commands` beyond a game's taps and its typed commands, taken from
`Taps.handle`: the terminal's match against the computer, /review, tournaments, the owners'
commands, /forgetme, and what the platform says of a user or a chat (reachable privately, a
chat's new id, a thread gone)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .commands import (
    ChatMoved,
    OpenTournament,
    OwnerCommand,
    PlayComputers,
    PressTournament,
    Reachable,
)
from .options import VARIANTS
from .refs import ChatRef
from .refusals import Reason, Refused
from .replies import Done, Erased, Note, OwnerAnswered, TournamentShown
from .tap import Asker, Reply, Say
from .tournament_play import TournamentRefused
from .tournaments import asks_cancel

if TYPE_CHECKING:
    from .service import Sessions


class FrontHandlers:
    """Each handler takes its command and the asker and returns what they see; a refusal is
    raised as `Refused` (`Taps.handle` makes it the reply)."""

    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions

    async def play_computers(self, asker: Asker, asked: PlayComputers) -> Reply:
        """A lobby with the asker seated and the computer at every other seat, started; its
        chat's moves wait `turn_limit` seconds."""
        chat, user = chat_of(asker), asker.user
        sessions = self.sessions
        await sessions.settings.set_turn_limit(chat, asked.turn_limit)
        lobby = await sessions.lobby.new_game(chat, user, asked.variant, dict(asked.options))
        for _ in range(lobby.players - 1):
            await sessions.lobby.add_computer(chat, user, asked.level)
        await sessions.lobby.start(chat, user)
        return Done(lobby.game_id)

    async def ask_review(self, asker: Asker) -> Reply:
        """The review of the chat's last finished match, or asked privately of the asker's own
        last one: delivered to their private chat where the platform mails it (`Asker.mailed`),
        else answered once made."""
        queries, user = self.sessions.queries, asker.user
        game_id = await (queries.last_finished(asker.chat) if asker.chat is not None
                         else queries.last_played(user))
        if asker.mailed:
            return await self.sessions.reviews.ask(game_id, user, asker.reachable)
        return await self.sessions.reviews.review(game_id, user)

    async def tournament(self, asker: Asker, asked: OpenTournament) -> Reply:
        """/tournament: `cancel` stops the chat's tournament (its creator or an admin); no words
        show the chat's tournament if it has one; else the sign-up opens. A refusal is a note
        (`tournament.refused.<code>`)."""
        tournaments, chat, user = self.sessions.tournaments, _in_chat(asker), asker.user
        words = list(asked.words)
        try:
            if asks_cancel(words):
                await tournaments.cancel(chat, user, admin=asker.admin)
                return Note(Say("tournament.cancelled"))
            current = await tournaments.current(chat)
            if current is None or words:
                current = await tournaments.open(chat, user, words, VARIANTS, asked.event)
        except TournamentRefused as refused:
            return _declined(refused)
        return TournamentShown(current)

    async def press_tournament(self, asker: Asker, asked: PressTournament) -> Reply:
        """A sign-up button (`Tournaments.press`); a stale or refused press is a note."""
        try:
            view = await self.sessions.tournaments.press(_in_chat(asker), asker.user, asked.tournament_id,
                                                         asked.action, asker.admin)
        except TournamentRefused as refused:
            return _declined(refused)
        return TournamentShown(view)

    async def owner_command(self, asker: Asker, asked: OwnerCommand) -> Reply:
        """An owner command, answered in the owner's private chat; for anyone else, or anywhere
        else, `Done` (the front-end says nothing, as for a command it does not know)."""
        answer = await self.sessions.owners.command(asker.user, asker.chat is None, asked.name, asked.words)
        return Done() if answer is None else OwnerAnswered(answer)

    async def forget(self, asker: Asker) -> Reply:
        """The asker's data erased (`Privacy.forget`), their private chat (`Asker.home`) with it."""
        user = asker.user
        return Erased(await self.sessions.privacy.forget(user.platform, user.key, asker.home))

    async def reachable(self, asker: Asker, asked: Reachable) -> Reply:
        await self.sessions.settings.set_can_dm(asker.user, asked.on)
        return Done()

    async def chat_moved(self, asker: Asker, asked: ChatMoved) -> Reply:
        """The chat's games, settings and leaderboard moved to its new key: `Done` with the game
        open there, if any; `Done()` also when nothing moved (told twice, or never seen)."""
        old = _in_chat(asker)
        if await self.sessions.settings.move_chat(old, asked.new_key) is None:
            return Done()
        return Done(await self.sessions.queries.open_game_id(ChatRef(old.platform, asked.new_key)))

    async def thread_lost(self, asker: Asker) -> Reply:
        """The thread's open game stopped (`Lobby.abandon`): `Done` with its id, if it had one."""
        return Done(await self.sessions.lobby.abandon(_in_chat(asker)))


def _declined(refused: TournamentRefused) -> Reply:
    return Note(Say(f"tournament.refused.{refused.code}", {"detail": refused.detail}), alert=True)


def _in_chat(asker: Asker) -> ChatRef:
    if asker.chat is None:
        raise Refused(Reason.BAD_INPUT)
    return asker.chat


def chat_of(asker: Asker) -> ChatRef:
    """The chat a command acts on: where it was asked, or the asker's private chat (`home`)."""
    chat = asker.chat or asker.home
    if chat is None:
        raise Refused(Reason.BAD_INPUT)
    return chat
