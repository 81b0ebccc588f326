"""/settings: a group's settings for its admins, or in private the asker's own language.

Each button carries a typed setting (`sessions.tap.Setting`) and one of its allowed
values (`sessions.taps.SETTING_VALUES`); what a tap on it does is decided by the sessions.
"""

from __future__ import annotations

from ...i18n import t
from ...render.words import turn_limit_text
from ...sessions import ChatSettings
from ...sessions.tap import Setting
from .keyboards import Keyboard, settings_keyboard
from .markup import escape


def settings_answer(chat: ChatSettings | None, lang: str, rings: bool = True) -> tuple[str, Keyboard]:
    """The settings' text and buttons: a group's (`chat`), or in private the asker's own (their
    language, and whether their turn rings: `rings`)."""
    if chat is None:
        text = "\n".join([t(lang, "settings.title"),
                          t(lang, "settings.language", language=t(lang, f"telegram.language.{lang}")),
                          t(lang, "telegram.settings.ring_on" if rings else "telegram.settings.ring_off")])
        return escape(text), settings_keyboard(lang, False, {Setting.MY_LANGUAGE: lang,
                                                             Setting.MY_RING: "on" if rings else "off"})
    variant = str(chat.defaults.get("variant", "scopa"))
    text = "\n".join([
        t(lang, "settings.title"),
        t(lang, "settings.language", language=t(lang, f"telegram.language.{chat.language}")),
        turn_limit_text("settings", chat.turn_limit, lang),
        t(lang, "telegram.settings.pictures",
          mode=t(lang, f"telegram.pictures.{'on' if chat.pictures else 'off'}")),
        t(lang, "telegram.settings.variant", variant=t(lang, f"variant.{variant}")),
        t(lang, "telegram.settings.admins"),
    ])
    current = {Setting.CHAT_LANGUAGE: chat.language, Setting.CHAT_TURN_LIMIT: str(chat.turn_limit),
               Setting.CHAT_VARIANT: variant, Setting.CHAT_PICTURES: "on" if chat.pictures else "off"}
    return escape(text), settings_keyboard(lang, True, current)
