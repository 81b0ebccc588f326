"""Who is tapping, as Telegram reports them: the facts `Sessions.handle` asks for, and no decision.

Whether the user is one of the group's admins, or outside it, costs a request
to Telegram: each is asked only when the sessions need it.
"""

from __future__ import annotations

import logging

from telegram import Bot, ChatMember, ChatMemberRestricted, User
from telegram.error import TelegramError

from ...sessions import ChatRef, PlayerProfile, UserRef
from ...sessions.tap import Asker
from .identity import PLATFORM
from .present import Presenter

log = logging.getLogger(__name__)


async def is_admin(bot: Bot, chat_id: int, user_id: int) -> bool:
    try:
        member = await bot.get_chat_member(chat_id, user_id)
    except TelegramError as exc:
        log.info("could not check admin status in %s: %s", chat_id, exc.message)
        return False
    return member.status in (ChatMember.OWNER, ChatMember.ADMINISTRATOR)


async def is_outsider(bot: Bot, chat_id: int, user_id: int) -> bool:
    """Whether the group says the user is not in it: anyone can open a public group, see
    its lobby and tap Join without joining. A group that cannot be asked (Telegram fails
    to answer) lets the user in: keeping a member out would be worse than letting in,
    now and then, someone who could see the game anyway."""
    try:
        member = await bot.get_chat_member(chat_id, user_id)
    except TelegramError as exc:
        log.info("could not check membership in %s: %s", chat_id, exc.message)
        return False
    if member.status in (ChatMember.LEFT, ChatMember.BANNED):
        return True
    return isinstance(member, ChatMemberRestricted) and not member.is_member


def asker(presenter: Presenter, bot: Bot, user: User, uref: UserRef, player: PlayerProfile,
          chat: ChatRef | None) -> Asker:
    """`user` tapping in `chat` (None: their private chat with the bot, their `home`, whose id
    is theirs)."""

    async def admin() -> bool:
        return chat is not None and await is_admin(bot, int(chat.key), user.id)

    async def outsider() -> bool:
        return chat is not None and await is_outsider(bot, int(chat.key), user.id)

    async def reach(game_id: int) -> bool:
        """Send the player's private hand; if it arrives, the bot can write to them."""
        if not await presenter.refresh_hand(game_id, uref.key):
            return False
        await presenter.set_reachable(uref, True)
        return True

    home = None if chat is not None else ChatRef(PLATFORM, uref.key, uref.name)
    return Asker(uref, chat, admin, outsider, presenter.reachable(player), reach, mailed=True, home=home)
