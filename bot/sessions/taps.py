"""What every tap and command means, decided once for every front-end (`Sessions.taps`).

A front-end decodes a tap into a `Tap` (or builds a command of `sessions.commands`), says
who is asking (`Asker`), sends it through the door (`Sessions.handle`, which hands it to
`Taps.handle`) and draws the `Reply`. Who may manage a game (its
creator, or one of the chat's admins: asked of the front-end only when the creator
rule refuses), the settings and their allowed values, joining (and reaching the
player privately), the hand's prompts: all of it is here, so the platforms agree.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar, assert_never

from ..i18n import LANGUAGES
from . import interaction
from .commands import (
    AnswerDaily,
    AskDaily,
    AskReview,
    CancelGame,
    ChangeSettings,
    ChatMoved,
    Command,
    ConfirmSeat,
    ForgetMe,
    JoinGame,
    LeaveGame,
    NewGame,
    OpenTournament,
    OwnerCommand,
    PlayComputers,
    PressTournament,
    Reachable,
    ShowPuzzle,
    ThreadLost,
)
from .daily import DailyOffer
from .handlers_front import FrontHandlers, chat_of
from .interaction import PLAIN, HandMode, HandPrompt
from .newgame_line import checked_options, read_newgame_line, solo_level
from .options import HOUSE_OPTIONS, NO_CLOCK, TURN_LIMIT, VARIANTS, variant_named
from .records import GameStatus
from .refs import ChatRef, UserRef
from .refusals import Reason, Refused
from .replies import (
    ConfirmCancel,
    DailyDropped,
    Done,
    HandPrompted,
    HandRedrawn,
    HandShown,
    MenuShown,
    Note,
    OpenPrivate,
    OpenPrivateForDaily,
    Played,
    Refusal,
    SeatReady,
    SettingsShown,
)
from .tap import Action, Asker, Redraw, Reply, Say, Setting, Tap
from .views import player_language

if TYPE_CHECKING:
    from .daily import DailyBoard
    from .service import Sessions

_T = TypeVar("_T")

ON_OFF = ("on", "off")
SETTING_VALUES: dict[Setting, tuple[str, ...]] = {
    Setting.CHAT_LANGUAGE: LANGUAGES,
    Setting.CHAT_PICTURES: ON_OFF,
    Setting.CHAT_TURN_LIMIT: TURN_LIMIT.values,
    Setting.CHAT_VARIANT: VARIANTS,
    Setting.MY_LANGUAGE: LANGUAGES,
    Setting.MY_PINGS: ON_OFF,
    Setting.MY_RING: ON_OFF,
}
"""Each setting's allowed values, as buttons carry them."""

HAND_ACTIONS = frozenset({Action.PLAY, Action.DECLARE, Action.CAPTURE, Action.DECLARE_CAPTURE,
                          Action.CHOOSE, Action.IDLE, Action.FUORI_CHOOSE, Action.BACK, Action.FUORI})
"""Taps on a hand: their reply shows the hand again."""
_PLAYS = {Action.PLAY: False, Action.DECLARE: True}
_CAPTURES = {Action.CAPTURE: False, Action.DECLARE_CAPTURE: True}
_CARDS = {Action.CHOOSE: PLAIN, Action.IDLE: PLAIN, Action.FUORI_CHOOSE: HandPrompt(HandMode.DECLARING)}


class Taps:
    """The use cases behind taps and commands, on the sessions' public methods alone."""

    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions
        self.front = FrontHandlers(sessions)
        self._lobby: dict[Action, Callable[[Asker, ChatRef, Tap], Awaitable[Reply]]] = {
            Action.JOIN: lambda asker, chat, tap: self.join(asker, tap.game_id),
            Action.LEAVE: lambda asker, chat, tap: self.leave(asker, from_lobby=True),
            Action.ADD_COMPUTER: self._add_computer,
            Action.REMOVE_COMPUTERS: self._remove_computers,
            Action.START: self._start,
            Action.CANCEL: self._cancel_tap,
            Action.CONFIRM_CANCEL: self._confirmed_cancel,
            Action.MENU: self._menu,
            Action.OPTION: self._option,
            Action.SIT: self._sit,
            Action.HAND_OVER: self._hand_over,
        }

    async def handle(self, asker: Asker, command: Command) -> Reply:
        """The one door: what `command` does for `asker`, each kind by its handler; a refusal is
        a reply too (nothing changed)."""
        try:
            match command:
                case Tap():
                    return await self._tap(asker, command)
                case NewGame(variant, options, line):
                    return await self.new_game(asker, variant, options, line)
                case JoinGame(game_id):
                    return await self.join(asker, game_id)
                case LeaveGame():
                    return await self.leave(asker)
                case CancelGame():
                    return await self.cancel_command(asker)
                case ConfirmSeat(game_id):
                    return await self.seat_confirmed(asker.user, game_id)
                case AskDaily():
                    return await self.daily(asker)
                case AnswerDaily(tap, plays_in):
                    return await self.daily_deal(asker, tap, plays_in)
                case ShowPuzzle(rank):
                    return await self.puzzle(asker, rank)
                case ChangeSettings(changes):
                    return await self.change_settings(asker, changes)
                case PlayComputers():
                    return await self.front.play_computers(asker, command)
                case AskReview():
                    return await self.front.ask_review(asker)
                case OpenTournament():
                    return await self.front.tournament(asker, command)
                case PressTournament():
                    return await self.front.press_tournament(asker, command)
                case OwnerCommand():
                    return await self.front.owner_command(asker, command)
                case ForgetMe():
                    return await self.front.forget(asker)
                case Reachable():
                    return await self.front.reachable(asker, command)
                case ChatMoved():
                    return await self.front.chat_moved(asker, command)
                case ThreadLost():
                    return await self.front.thread_lost(asker)
                case _:
                    assert_never(command)
        except Refused as refused:
            return Refusal(refused)

    async def _tap(self, asker: Asker, tap: Tap) -> Reply:
        action, game_id, user = tap.action, tap.game_id, asker.user
        if action in HAND_ACTIONS:
            return await self._on_hand(asker, tap)
        if action is Action.WAIT:
            hand = await self.sessions.queries.hand(game_id, user)
            if not hand.my_turn:
                return Refusal(Refused(Reason.NOT_YOUR_TURN))
            return Note(Say(f"{user.platform}.card_not_playable"), alert=True)
        if action is Action.SHOW_HAND:
            return HandShown(await self.sessions.queries.hand(game_id, user))
        if action is Action.TAKE_BACK:
            await self.sessions.play.set_autoplay(game_id, user, False)
            player = await self.sessions.queries.player(user)
            return Played(Say("play.autoplay_off", {"name": player.display_name}))
        if action is Action.REMATCH:
            await self._no_tournament_in((await self.sessions.queries.game(game_id)).chat)
            await self.sessions.lobby.rematch(game_id, user)
            if asker.chat is None:
                chat = (await self.sessions.queries.game(game_id)).chat
                if not _is_home(asker, chat):
                    return Note(Say("rematch.opened_in", {"chat": chat.title or "—"}))
            return Done()
        if action is Action.REVIEW:
            if asker.mailed:
                return await self.sessions.reviews.ask(game_id, user, asker.reachable)
            return await self.sessions.reviews.review(game_id, user)
        if action in (Action.REPLAY, Action.REPLAY_STEP):
            return await self.sessions.queries.replay_step(game_id, user, tap.step)
        if action is Action.HINT:
            version = _version(tap)
            return await interaction.hint(self.sessions, game_id, user, version)
        if action is Action.SETTING:
            return await self._setting(asker, tap)
        if action is Action.PUZZLE:
            return await self.sessions.puzzles.answer(user, asker.chat, game_id, tap.arg,
                                                      -1 if tap.index is None else tap.index)
        if action is Action.PUZZLE_NEXT:
            return await self.puzzle(asker, tap.index or 0)
        handler = self._lobby.get(action)
        if handler is None:
            raise Refused(Reason.BAD_INPUT)
        where = chat_of(asker)
        if action is not Action.JOIN:
            await interaction.require_open_game(self.sessions, where, game_id)
        return await handler(asker, where, tap)

    # ---- hands ------------------------------------------------------------------------

    async def _on_hand(self, asker: Asker, tap: Tap) -> Reply:
        """A tap on a hand: a play (the game's events draw every hand again), or the prompt
        the hand shows now (the captures of a card, the plays to declare fuori with)."""
        sessions, game_id, user, version = self.sessions, tap.game_id, asker.user, _version(tap)
        action = tap.action
        if action in _PLAYS:
            return _hand_reply(await interaction.play(sessions, game_id, user, version, tap.arg,
                                                      declaring=_PLAYS[action]))
        if action in _CAPTURES:
            return _hand_reply(await interaction.play_capture(sessions, game_id, user, version, tap.arg,
                                                              tap.index, declaring=_CAPTURES[action]))
        if action is Action.BACK:
            return _hand_reply(await interaction.back(sessions, game_id, user, version))
        if action is Action.FUORI:
            return _hand_reply(await interaction.open_fuori(sessions, game_id, user, version))
        return _hand_reply(await interaction.tap_card(sessions, game_id, user, version, tap.arg,
                                                      _CARDS[action]))

    # ---- who may manage ------------------------------------------------------------------

    async def _managed(self, asker: Asker, call: Callable[[bool], Awaitable[_T]]) -> _T:
        """`call` as a plain player first; refused, again as a chat admin if the front-end says
        they are one (asked only then: on Telegram it costs a request)."""
        try:
            return await call(False)
        except Refused as refused:
            if refused.reason is not Reason.NOT_ALLOWED or not await asker.admin():
                raise
        return await call(True)

    async def _may_manage(self, asker: Asker, game_id: int) -> None:
        if not await self.sessions.queries.may_manage(game_id, asker.user) and not await asker.admin():
            raise Refused(Reason.NOT_ALLOWED)

    # ---- the lobby ----------------------------------------------------------------------

    async def _add_computer(self, asker: Asker, chat: ChatRef, tap: Tap) -> Reply:
        await self._managed(asker, lambda admin: self.sessions.lobby.add_computer(
            chat, asker.user, tap.arg, is_admin=admin))
        return Done()

    async def _remove_computers(self, asker: Asker, chat: ChatRef, tap: Tap) -> Reply:
        await self._managed(asker, lambda admin: self.sessions.lobby.remove_computers(
            chat, asker.user, is_admin=admin))
        return Done()

    async def _sit(self, asker: Asker, chat: ChatRef, tap: Tap) -> Reply:
        """Sit with a partner in a team lobby: a seated player moves themselves alone."""
        if tap.index is None:
            raise Refused(Reason.BAD_INPUT)
        await self.sessions.lobby.sit_with(chat, asker.user, tap.index, _version(tap), tap.game_id)
        return Done()

    async def _hand_over(self, asker: Asker, chat: ChatRef, tap: Tap) -> Reply:
        """With no clock, the game's creator or a chat admin hands the seat to move to the computer."""
        await self._may_manage(asker, tap.game_id)
        await self.sessions.play.hand_over(tap.game_id, _version(tap))
        return Note(Say("clock.handed_over"))

    async def _start(self, asker: Asker, chat: ChatRef, tap: Tap) -> Reply:
        await self._managed(asker, lambda admin: self.sessions.lobby.start(chat, asker.user, is_admin=admin))
        return Done()

    async def _cancel_tap(self, asker: Asker, chat: ChatRef, tap: Tap) -> Reply:
        """A lobby is cancelled at once; a match in play only once confirmed (it will not count)."""
        if (await self.sessions.queries.game(tap.game_id)).status is GameStatus.LOBBY:
            return await self.cancel(asker)
        await self._may_manage(asker, tap.game_id)
        return ConfirmCancel(tap.game_id)

    async def _confirmed_cancel(self, asker: Asker, chat: ChatRef, tap: Tap) -> Reply:
        await self.cancel(asker)
        return Note(Say("cancel.done"))

    async def _menu(self, asker: Asker, chat: ChatRef, tap: Tap) -> Reply:
        await self._may_manage(asker, tap.game_id)
        return MenuShown(tap.arg)

    async def _option(self, asker: Asker, chat: ChatRef, tap: Tap) -> Reply:
        key, value = tap.option
        if key == TURN_LIMIT.key:
            await self._may_manage(asker, tap.game_id)
            await self.sessions.settings.set_turn_limit(chat, value)
        else:
            await self._managed(asker, lambda admin: self.sessions.lobby.set_option(
                chat, asker.user, key, value, is_admin=admin))
        return MenuShown("house" if key in HOUSE_OPTIONS else "options")

    # ---- commands -----------------------------------------------------------------------

    async def new_game(self, asker: Asker, variant: str | None = None,
                       options: Mapping[str, object] | None = None, line: str | None = None) -> Reply:
        """/newgame: a lobby with the asker seated (ready once the bot can reach them privately).
        The game and its options come from the command's fields (`variant`, `options`) and its
        typed words (`line`: `[variant] [name=value ...]`, which win), checked against the
        lobby's options table before anything opens. Refused with `Reason.GAME_OPEN` (its
        `game_id`) while the chat has a game open.

        Asked in the asker's private chat (`Asker.home`), the lobby is theirs alone, its other
        seats taken by the computer at the level the line names (`level=`), with no move clock
        (nobody waits for them; the lobby's menu may set one): one tap on Start begins the
        match."""
        chat = chat_of(asker)
        solo = asker.chat is None
        if not solo:
            await self._no_tournament_in(chat)
        typed = read_newgame_line(line)
        name = variant_named(variant) if variant else typed.variant
        asked = {key: value for key, value in (options or {}).items() if value is not None}
        asked.update(typed.options)
        level = solo_level(asked) if solo else None
        if solo:
            player = await self.sessions.queries.player(asker.user)
            await self.sessions.queries.chat(chat, player_language(player))
            await self.sessions.settings.set_turn_limit(chat, NO_CLOCK)
        chosen: dict[str, Any] | None = None
        if asked:
            game = name or str((await self.sessions.queries.chat(chat)).defaults.get("variant") or "scopa")
            chosen = checked_options(variant_named(game), asked)
        lobby = await self.sessions.lobby.new_game(
                chat, asker.user, name, chosen, ready=asker.reachable or solo)
        if level is not None:
            for _ in range(sum(seat is None for seat in lobby.seats)):
                await self.sessions.lobby.add_computer(chat, asker.user, level)
            return Done(lobby.game_id)
        return await self._reach(asker, lobby.game_id)

    async def _no_tournament_in(self, chat: ChatRef) -> None:
        """Refuse a game of the users' own where a tournament plays its matches: opened between
        two of them, it would hold up the next."""
        if await self.sessions.tournaments.playing_in(chat):
            raise Refused(Reason.TOURNAMENT_PLAYING)

    async def join(self, asker: Asker, game_id: int | None = None) -> Reply:
        """Take a seat in the chat's lobby (/join, or Join on lobby `game_id`), or re-check a seat
        waiting for the bot to reach its player privately."""
        chat, user = chat_of(asker), asker.user
        if await asker.outsider():
            raise Refused(Reason.NOT_MEMBER)
        try:
            lobby = await self.sessions.lobby.join(chat, user, ready=asker.reachable, game_id=game_id or None)
        except Refused as refused:
            if refused.reason is not Reason.ALREADY_JOINED:
                raise
            lobby = await self.sessions.queries.lobby(chat)
            player = await self.sessions.queries.player(user)
            if not any(seat.player_id == player.id for seat in lobby.waiting):
                raise
        return await self._reach(asker, lobby.game_id)

    async def _reach(self, asker: Asker, game_id: int) -> Reply:
        """A seat is ready once the bot can write to its player: sent their hand privately, it
        is; otherwise the reply shows the way to the private chat."""
        if asker.reachable:
            return Done(game_id)
        if await asker.reach(game_id):
            try:
                await self.sessions.lobby.join(chat_of(asker), asker.user, ready=True, game_id=game_id)
            except Refused as refused:
                if refused.reason is not Reason.ALREADY_JOINED:
                    raise
            return Done(game_id)
        return OpenPrivate(game_id)

    async def seat_confirmed(self, user: UserRef, game_id: int) -> Reply:
        """`user` opened the private chat from lobby `game_id`'s link: the seat they took in the
        chat is ready, and their hand is shown (`SeatReady`) also when it was ready or the
        match has begun. The link seats no one, and a refusal names no chat: game numbers are
        sequential, so anyone can make such a link."""
        try:
            await self.sessions.lobby.confirm_seat(game_id, user)
        except Refused as refused:
            if refused.reason is Reason.NOT_IN_LOBBY:
                try:
                    await self.sessions.queries.hand(game_id, user)
                except Refused as no_hand:
                    return Refusal(no_hand)
            elif refused.reason is not Reason.ALREADY_JOINED:
                return Note(Say("dm.join_in_group"))
        return SeatReady(game_id)

    async def leave(self, asker: Asker, *, from_lobby: bool = False) -> Reply:
        """Leave the chat's open game (`from_lobby`: only a lobby, never a match)."""
        chat = chat_of(asker)
        game_id = await self.sessions.queries.open_game_id(chat)
        view = await self.sessions.lobby.leave(chat, asker.user, from_lobby=from_lobby)
        if game_id is not None and view.status is not GameStatus.RUNNING and asker.reachable:
            return HandRedrawn(game_id)
        return Done(game_id)

    async def daily_board(self, asker: Asker, everyone: bool = False) -> DailyBoard:
        """/daily board: today's board of the chat it was asked in, or everyone's (`everyone`,
        or asked privately)."""
        return await self.sessions.queries.daily_board(None if everyone or asker.chat is None else asker.chat)

    async def daily(self, asker: Asker) -> Reply:
        """/daily: the asker's deal of the day offered (`DailyOffer`: the front-end asks them to
        confirm with `Action.DAILY_DEAL`, and nothing is dealt until they do), or their deal
        under way given back (`DailyStart.resumed`). Asked in a chat by someone the bot cannot
        write to, the way to their private chat first."""
        if asker.chat is not None and not asker.reachable:
            return OpenPrivateForDaily()
        return await self.sessions.daily.offer(asker.user)

    async def daily_deal(self, asker: Asker, tap: Tap, plays_in: ChatRef) -> Reply:
        """A button under the offer of /daily: `DAILY_DEAL` deals the asker's deal of the day in
        `plays_in` (where the front-end shows it to them alone), counted on the board of the
        chat it was asked in; safe to tap again (the deal under way comes back). `DAILY_DROP`
        leaves it undealt. Only the player it was offered to, on its day, may answer it."""
        try:
            try:
                day, key = tap.daily
            except ValueError:
                raise Refused(Reason.BAD_INPUT) from None
            if tap.action not in (Action.DAILY_DEAL, Action.DAILY_DROP):
                raise Refused(Reason.BAD_INPUT)
            if key != asker.user.key:
                raise Refused(Reason.DAILY_NOT_YOURS)
            if day != self.sessions.queries.daily_today():
                raise Refused(Reason.DAILY_OLD_OFFER, day=day)
            if asker.chat is not None and not asker.reachable:
                return OpenPrivateForDaily()
            if tap.action is Action.DAILY_DROP:
                offered = await self.sessions.daily.offer(asker.user)
                return DailyDropped() if isinstance(offered, DailyOffer) else offered
            return await self.sessions.daily.start(asker.chat or plays_in, plays_in, asker.user)
        except Refused as refused:
            return Refusal(refused)

    async def puzzle(self, asker: Asker, rank: int = 0) -> Reply:
        """/puzzle: the chat's puzzle at `rank` (privately, from the asker's own matches)."""
        try:
            return await self.sessions.puzzles.puzzle(asker.user, asker.chat, rank)
        except Refused as refused:
            return Refusal(refused)

    async def cancel_command(self, asker: Asker) -> Reply:
        """/cancel: as the lobby's Cancel button, a lobby at once, a match in play only once its
        creator or an admin confirms (`ConfirmCancel`)."""
        chat = chat_of(asker)
        game_id = await self.sessions.queries.open_game_id(chat)
        if game_id is None:
            raise Refused(Reason.NO_GAME)
        return await self._cancel_tap(asker, chat, Tap(Action.CANCEL, game_id))

    async def cancel(self, asker: Asker) -> Reply:
        """Cancel the chat's open game: its creator, or one of the chat's admins."""
        chat = chat_of(asker)
        await self._managed(asker, lambda admin: self.sessions.lobby.cancel(chat, asker.user, is_admin=admin))
        return Done()

    # ---- settings ---------------------------------------------------------------------------

    async def _setting(self, asker: Asker, tap: Tap) -> Reply:
        """A settings button: a chat's settings message carries only the chat's settings, a
        private one only the player's own."""
        try:
            setting, value = tap.setting
        except ValueError:
            raise Refused(Reason.BAD_INPUT) from None
        if setting.for_chat != (asker.chat is not None):
            raise Refused(Reason.BAD_INPUT)
        return await self.change_settings(asker, ((setting, value),))

    async def change_settings(self, asker: Asker, changes: Iterable[tuple[Setting, str]]) -> Reply:
        """Save `changes`: a chat's settings for its admins alone, a player's own for them.
        Everything is checked before anything is saved, so a refusal changes nothing."""
        changes = tuple(changes)
        user, chat = asker.user, asker.chat
        for setting, value in changes:
            if value not in SETTING_VALUES[setting]:
                raise Refused(Reason.BAD_OPTION, detail=value[:40])
        for_chat = [(setting, value) for setting, value in changes if setting.for_chat]
        if for_chat and chat is None:
            return Note(Say(f"{user.platform}.guild_only"), alert=True)
        if for_chat and not await asker.admin():
            return Note(Say(f"{user.platform}.settings.admins"), alert=True)
        redraw = Redraw.NONE
        for setting, value in changes:
            redraw |= await self._save(asker, setting, value)
        if chat is not None and for_chat:
            language = (await self.sessions.queries.chat(chat)).language
        else:
            language = player_language(await self.sessions.queries.player(user))
        return SettingsShown(language, saved=bool(changes), redraw=redraw)

    async def _save(self, asker: Asker, setting: Setting, value: str) -> Redraw:
        sessions, chat, user = self.sessions, asker.chat, asker.user
        if setting is Setting.MY_LANGUAGE:
            await sessions.settings.set_player_language(user, value)
            return Redraw.MY_HANDS
        if setting is Setting.MY_PINGS:
            await sessions.settings.set_dm_pings(user, value == "on")
            return Redraw.NONE
        if setting is Setting.MY_RING:
            await sessions.settings.set_turn_rings(user, value == "on")
            return Redraw.NONE
        assert chat is not None
        if setting is Setting.CHAT_LANGUAGE:
            await sessions.settings.set_chat_language(chat, value)
        elif setting is Setting.CHAT_TURN_LIMIT:
            await sessions.settings.set_turn_limit(chat, value)
        elif setting is Setting.CHAT_PICTURES:
            await sessions.settings.set_pictures(chat, value == "on")
        else:
            await sessions.settings.change_chat_defaults(chat, {"variant": value})
            return Redraw.NONE
        return Redraw.GAME


def _hand_reply(step: interaction.Moved | interaction.Prompted) -> Reply:
    """A tap on a hand answered with the hand it leaves: played (the hand and table the move
    left), or showing a prompt (the hand as the tap found it)."""
    if isinstance(step, interaction.Moved):
        return Played(hand=step.hand, table=step.table)
    return HandPrompted(step.prompt, step.hand)


def _version(tap: Tap) -> int:
    if tap.version is None:
        raise Refused(Reason.BAD_INPUT)
    return tap.version


def _is_home(asker: Asker, chat: ChatRef) -> bool:
    """Whether `chat` is the asker's private chat, where they play alone."""
    home = asker.home
    return home is not None and (home.platform, home.key) == (chat.platform, chat.key)
