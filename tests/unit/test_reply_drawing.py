"""Every kind of reply a tap or a command gets is drawn by Telegram and by Discord, and the
same kind shows the asker the same thing on both (`sessions.replies`, each front-end's
`drawing`). The strict type check proves that no kind is left out of either `match`; these
tests show what each kind puts in front of the user."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any, get_args

import pytest

from bot.adapters.discord.drawing import Asked as DiscordAsked
from bot.adapters.discord.front_end import DiscordFrontEnd
from bot.adapters.discord.replies import Kind
from bot.adapters.discord.replies import Reply as DiscordAnswer
from bot.adapters.telegram.drawing import Asked as TelegramAsked
from bot.adapters.telegram.drawing import Drawn, ReplyDrawer
from bot.adapters.telegram.identity import private_link
from bot.adapters.telegram.markup import hand_alert
from bot.ai.review import Fault, GradedPlay
from bot.ai.review import Reason as Fact
from bot.ai.review.hint import Hint
from bot.engine import Card, Move
from bot.i18n import t
from bot.render.daily import daily_started_text
from bot.render.owners import owner_text
from bot.render.review import hint_text
from bot.render.tournament import tournament_text
from bot.render.words import refusal_text
from bot.sessions import ChatRef, Reason, Refused, Sessions, UserRef
from bot.sessions.daily import DailyOffer, DailyStart
from bot.sessions.hints import PracticeHint
from bot.sessions.interaction import PLAIN
from bot.sessions.options import VARIANTS
from bot.sessions.puzzles import Puzzle, PuzzleAnswer
from bot.sessions.replay import ReplayStep
from bot.sessions.replies import (
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
    Reply,
    SeatReady,
    SettingsShown,
    TournamentShown,
)
from bot.sessions.reviews import MatchReview, ReviewAsked
from bot.sessions.tap import Action, Asker, Say, Tap

from ..sessions_helpers import open_memory_sessions, play_to_end, start_duel

LANG = "en"
ALICE, BOB = UserRef("discord", "101", "Alice", "it"), UserRef("discord", "102", "Bob", "en")
CHAT = ChatRef("discord", "500", "scopa")
LAY, TAKE = Move.parse("2B"), Move.parse("7D:7C")


@dataclass
class Outbox:
    posted: list[tuple[int, Any]] = field(default_factory=list)
    updated: list[Any] = field(default_factory=list)

    def post(self, chat_id: int, content: Any, *args: object, **kwargs: object) -> None:
        self.posted.append((chat_id, content))

    def update(self, target: Any, render: Any, *args: object, **kwargs: object) -> None:
        self.updated.append(target)


@dataclass
class Lines:
    shown: list[str] = field(default_factory=list)

    def show(self, chat_id: int, message_id: int, html: str) -> None:
        self.shown.append(html)

    async def keep(self, *args: object) -> None:
        return None


@dataclass
class TelegramPresenter:
    """What Telegram's drawing asks of its presenter, recorded."""

    outbox: Outbox = field(default_factory=Outbox)
    daily_lines: Lines = field(default_factory=Lines)
    menus: dict[int, str] = field(default_factory=dict)
    done: list[tuple[str, int]] = field(default_factory=list)

    async def set_prompt(self, game_id: int, user_key: str, version: int, prompt: object) -> None:
        self.done.append(("prompt", game_id))

    def refresh_hand(self, game_id: int, user_key: str, fresh: bool = False) -> None:
        self.done.append(("hand", game_id))

    def repost_hand(self, game_id: int, user_key: str) -> None:
        self.done.append(("new hand", game_id))

    def refresh_table(self, game_id: int, chat_id: int, delay: float = 0.0, thread: object = None) -> None:
        self.done.append(("table", game_id))

    async def refresh_hands(self, game_id: int) -> None:
        self.done.append(("hands", game_id))

    async def draws_pictures(self, chat_id: int) -> bool:
        return False

    async def chat_language(self, chat_id: int) -> str:
        return LANG

    def language(self, player: object) -> str:
        return LANG


@dataclass
class World:
    sessions: Sessions
    game_id: int
    version: int
    samples: list[Reply]


@pytest.fixture
async def world() -> AsyncIterator[World]:
    sessions = await open_memory_sessions()
    finished = await start_duel(sessions, CHAT, ALICE, BOB, options={"target": 1})
    await play_to_end(sessions, finished, [ALICE, BOB])
    review = await sessions.reviews.review(finished, ALICE)
    await sessions.queries.chat(CHAT, LANG)
    game_id = await start_duel(sessions, CHAT, ALICE, BOB)
    table = await sessions.queries.table(game_id)
    player = ALICE if table.to_play == 0 else BOB
    hand = await sessions.queries.hand(game_id, player)
    puzzle = Puzzle(finished, 1, 7, 0, 3, "Alice", datetime(2026, 11, 27, tzinfo=UTC).timestamp(), "scopa",
                    "napoletane", (Card.parse("7C"), Card.parse("4S")), (Card.parse("7D"), Card.parse("2B")),
                    (LAY, TAKE), False)
    graded = GradedPlay(1, 7, 0, LAY, TAKE, 1.2, 2, puzzle.table, puzzle.hand, Fact(Fault.SETTEBELLO))
    step = ReplayStep(finished, 0, 36, 2, 0, "Alice", 5, tuple(Card.parse(c) for c in ("3C", "4S", "7B")),
                      tuple(Card.parse(c) for c in ("7D", "9C")), Move.parse("7D:3C+4S"), None, 0.0)
    cup = await sessions.tournaments.open(ChatRef("discord", "501", "cup"), ALICE, [], VARIANTS)
    samples: list[Reply] = [
        Done(game_id), Refusal(Refused(Reason.NOT_YOUR_TURN)), Note(Say("cancel.done")),
        Played(Say("play.autoplay_off", {"name": "Alice"})), HandPrompted(PLAIN), HandShown(hand),
        HandRedrawn(game_id), SeatReady(game_id), MenuShown("options"), OpenPrivate(game_id),
        OpenPrivateForDaily(), ConfirmCancel(game_id), DailyDropped(), SettingsShown("it"),
        PracticeHint(Hint(TAKE, LAY, None, 2), "scopa", "napoletane"), review,
        ReviewAsked(finished, ready=True), DailyOffer("2026-11-29", "Alice", None),
        DailyStart("2026-11-29", table, None), puzzle, PuzzleAnswer(puzzle, TAKE, True, graded), step,
        TournamentShown(cup), OwnerAnswered(await sessions.owners.status()), Erased(None),
    ]
    assert isinstance(review, MatchReview)
    yield World(sessions, game_id, hand.version, samples)
    await sessions.close()


def test_the_samples_are_one_of_every_kind_of_reply(world: World) -> None:
    kinds = [type(sample) for sample in world.samples]
    assert sorted(kind.__name__ for kind in kinds) == sorted(kind.__name__ for kind in get_args(Reply))


def _said(key: str, **params: object) -> str:
    return t(LANG, key, **params)


async def _telegram(world: World, reply: Reply) -> tuple[Drawn, TelegramPresenter]:
    presenter = TelegramPresenter()
    drawer = ReplyDrawer(world.sessions, presenter)
    query = SimpleNamespace(from_user=SimpleNamespace(id=7), message=None, data="")
    action = Action.REPLAY if isinstance(reply, ReplayStep) else Action.CHOOSE
    tapped = Tap(action, world.game_id, world.version)
    asker = Asker(UserRef("telegram", "7", "Alice", "it"), home=ChatRef("telegram", "7", "Alice"))
    at = TelegramAsked(asker, LANG, "scopabot", tapped, query)
    return await drawer.draw(reply, at), presenter


async def _discord(front: DiscordFrontEnd, world: World, reply: Reply) -> DiscordAnswer:
    interaction = SimpleNamespace(message=None, guild_id=1,
                                  permissions=SimpleNamespace(manage_guild=True, manage_channels=True))
    tapped = Tap(Action.CHOOSE, world.game_id, world.version)
    at = DiscordAsked(interaction, Asker(ALICE), LANG, tapped)
    return await front.presses.drawer.draw(reply, at)


def _words(drawn: Drawn) -> str | None:
    return None if drawn.words is None else drawn.words(LANG)


def _discord_text(answer: DiscordAnswer) -> str:
    embed = "" if answer.embed is None else str(answer.embed.description or "")
    return f"{answer.content or ''}\n{embed}"


Check = Callable[[Drawn, TelegramPresenter, DiscordAnswer], None]


def _same_words(text: Callable[[Reply], str], *, alert: bool = False) -> Callable[[Reply], Check]:
    """Telegram answers with the words, Discord shows them to the asker alone."""
    def check(reply: Reply) -> Check:
        def seen(drawn: Drawn, presenter: TelegramPresenter, answer: DiscordAnswer) -> None:
            assert _words(drawn) == text(reply) and drawn.alert is alert
            assert answer.kind is not Kind.NOTHING and text(reply) in _discord_text(answer)
        return seen
    return check


def _private_hand(done: str) -> Callable[[Reply], Check]:
    """A private hand message of Telegram's; Discord's hands are the presser's own answers."""
    def check(reply: Reply) -> Check:
        def seen(drawn: Drawn, presenter: TelegramPresenter, answer: DiscordAnswer) -> None:
            assert presenter.done == [(done, reply.game_id)] and _words(drawn) is None
            assert answer.kind is Kind.NOTHING
        return seen
    return check


def _nothing(reply: Reply) -> Check:
    def seen(drawn: Drawn, presenter: TelegramPresenter, answer: DiscordAnswer) -> None:
        assert drawn == Drawn() and presenter.done == [] and answer.kind is Kind.NOTHING
    return seen


def _menu(reply: Reply) -> Check:
    def seen(drawn: Drawn, presenter: TelegramPresenter, answer: DiscordAnswer) -> None:
        assert list(presenter.menus.values()) == ["options"]
        assert [what for what, _ in presenter.done] == ["table"]
        assert answer.kind is Kind.NOTHING, "Discord's lobby shows its menus always"
    return seen


def _private_chat(link: str) -> Callable[[Reply], Check]:
    def check(reply: Reply) -> Check:
        def seen(drawn: Drawn, presenter: TelegramPresenter, answer: DiscordAnswer) -> None:
            assert _words(drawn) == _said("dm.start_first")
            assert drawn.link is not None and drawn.link.endswith(link)
            assert answer.content == _said("dm.start_first")
        return seen
    return check


def _confirm(reply: Reply) -> Check:
    def seen(drawn: Drawn, presenter: TelegramPresenter, answer: DiscordAnswer) -> None:
        assert drawn.message is not None
        html, keyboard = drawn.message(LANG)
        assert _words(drawn) == _said("cancel.confirm") and html == _said("cancel.confirm")
        assert [button.label for row in keyboard for button in row] == ["✖️ " + _said("button.confirm_cancel")]
        assert answer.content == _said("cancel.confirm") and answer.view is not None
        assert [item.label for item in answer.view.children] == [_said("button.confirm_cancel")]
    return seen


def _settings(reply: Reply) -> Check:
    def seen(drawn: Drawn, presenter: TelegramPresenter, answer: DiscordAnswer) -> None:
        saved = t("it", "settings.saved")
        assert _words(drawn) == saved, "in the language the settings are now in"
        assert answer.embed is not None and saved in str(answer.embed.description)
    return seen


def _shown_apart(posted: bool) -> Callable[[Reply], Check]:
    """A message of its own: Telegram posts it (or a command's reply is it), Discord answers with it."""
    def check(reply: Reply) -> Check:
        def seen(drawn: Drawn, presenter: TelegramPresenter, answer: DiscordAnswer) -> None:
            assert bool(presenter.outbox.posted) is posted and (posted or drawn.message is not None)
            assert answer.kind is Kind.MESSAGE and (answer.embed is not None or answer.view is not None)
        return seen
    return check


def _step(reply: Reply) -> Check:
    def seen(drawn: Drawn, presenter: TelegramPresenter, answer: DiscordAnswer) -> None:
        assert [chat for chat, _ in presenter.outbox.posted] == [7], "the replay, to the asker's private chat"
        assert drawn == Drawn() and answer.kind is Kind.MESSAGE and answer.embed is not None
    return seen


def _expected(reply: Reply) -> Check:
    match reply:
        case Done():
            return _nothing(reply)
        case Refusal(refused):
            return _same_words(lambda _: refusal_text(refused, LANG), alert=True)(reply)
        case Note(say):
            return _same_words(lambda _: _said(say.key))(reply)
        case Played(say):
            def seen(drawn: Drawn, presenter: TelegramPresenter, answer: DiscordAnswer) -> None:
                assert say is not None and _words(drawn) == _said(say.key, **say.params)
                assert answer.content == _words(drawn) and answer.embed is not None, "the hand, below"
            return seen
        case HandPrompted():
            def prompted(drawn: Drawn, presenter: TelegramPresenter, answer: DiscordAnswer) -> None:
                assert [what for what, _ in presenter.done] == ["prompt", "hand"], "the private hand message"
                assert _words(drawn) is None and answer.embed is not None and answer.view is not None
            return prompted
        case HandShown(hand):
            def shown(drawn: Drawn, presenter: TelegramPresenter, answer: DiscordAnswer) -> None:
                assert drawn.alert and _words(drawn) == hand_alert(hand, LANG)
                assert answer.kind is Kind.MESSAGE and answer.embed is not None and answer.view is not None
            return shown
        case HandRedrawn():
            return _private_hand("hand")(reply)
        case SeatReady():
            return _private_hand("new hand")(reply)
        case MenuShown():
            return _menu(reply)
        case OpenPrivate(game_id):
            return _private_chat(private_link("scopabot", game_id))(reply)
        case OpenPrivateForDaily():
            return _private_chat("?start=daily")(reply)
        case ConfirmCancel():
            return _confirm(reply)
        case DailyDropped():
            return _same_words(lambda _: _said("daily.dropped"))(reply)
        case SettingsShown():
            return _settings(reply)
        case PracticeHint(hint=hint):
            return _same_words(lambda _: hint_text(hint, LANG, "scopa"), alert=True)(reply)
        case MatchReview():
            return _shown_apart(True)(reply)
        case ReviewAsked():
            return _same_words(lambda _: _said("review.sent"))(reply)
        case DailyOffer():
            return _shown_apart(False)(reply)
        case DailyStart():
            return _same_words(lambda _: daily_started_text(reply, LANG))(reply)
        case Puzzle():
            return _shown_apart(True)(reply)
        case PuzzleAnswer():
            def answered(drawn: Drawn, presenter: TelegramPresenter, answer: DiscordAnswer) -> None:
                assert drawn.alert and _words(drawn) and answer.content
                assert ("✅" in str(_words(drawn))) and "✅" in str(answer.content), "right, on both"
            return answered
        case ReplayStep():
            return _step(reply)
        case TournamentShown(view):
            return _same_words(lambda _: tournament_text(view, LANG))(reply)
        case OwnerAnswered(owned):
            return _same_words(lambda _: owner_text(owned, LANG))(reply)
        case Erased():
            return _same_words(lambda _: _said("privacy.nothing_kept"))(reply)
    raise AssertionError(reply)


async def test_every_kind_of_reply_shows_the_same_on_telegram_and_discord(world: World) -> None:
    front = DiscordFrontEnd(world.sessions, "token")
    for reply in world.samples:
        drawn, presenter = await _telegram(world, reply)
        answer = await _discord(front, world, reply)
        _expected(reply)(drawn, presenter, answer)
