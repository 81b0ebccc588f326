"""Inline keyboards as plain values: easy to compare (an unchanged message is
not edited again), easy to test, turned into the Bot API's JSON when sent."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ...engine import Move
from ...i18n import t
from ...render.words import (
    card_label,
    house_rule_label,
    may_choose_partners,
    move_label,
    round_limit_label,
    teams_label,
)
from ...sessions import HandView, LobbyView, options
from ...sessions.interaction import PLAIN, CardUse, HandMode, HandPrompt, hand_cards
from ...sessions.options import (
    HOUSE_OPTIONS,
    LEVELS,
    NO_CLOCK,
    TEAMS_VALUES,
    Option,
    current_values,
    options_for,
)
from ...sessions.tap import Setting
from ...sessions.taps import SETTING_VALUES
from .callbacks import Action, Tap, TooLong, encode

MENU_OPTIONS: dict[str, str] = {"variant": "variant", "players": "players", "target": "target",
                                "rounds": "round_limit", "teams": "teams", "capture": "capture_choice",
                                "deck": "deck_style", "turn": "turn_limit", "practice": "practice"}
"""The menus that each pick one option's value (`house` switches the house rules)."""
_TEAM_COUNTS = {value: count for count, value in TEAMS_VALUES.items()}


@dataclass(frozen=True, slots=True)
class Button:
    label: str
    data: str | None = None
    url: str | None = None


Keyboard = tuple[tuple[Button, ...], ...]
BLOCKED = "🚫 "
"""Before a card that cannot be played now (a capture must be made instead)."""


def markup_dict(keyboard: Keyboard) -> dict[str, Any]:
    """The keyboard as the Bot API's InlineKeyboardMarkup JSON object."""
    return {"inline_keyboard": [[{"text": b.label, "url": b.url} if b.url else
                                 {"text": b.label, "callback_data": b.data} for b in row]
                                for row in keyboard]}


def tap(label: str, action: Action, game_id: int = 0, version: int | None = None,
        arg: str = "", index: int | None = None) -> Button:
    return Button(label, data=encode(Tap(action, game_id, version, arg, index)))


def play(label: str, view: HandView, move: Move, declare: bool = False) -> Button:
    """A button playing `move`: by its text, or, when that is too long for a button (the ace
    taking a crowded table), by its place among its card's captures."""
    try:
        return tap(label, Action.DECLARE if declare else Action.PLAY, view.game_id, view.version,
                   move.code)
    except TooLong:
        index = view.moves_for(move.card).index(move)
        return tap(label, Action.DECLARE_CAPTURE if declare else Action.CAPTURE, view.game_id,
                   view.version, move.card.code, index)


def rows_of(buttons: Sequence[Button], width: int = 3, max_chars: int = 30) -> Keyboard:
    """Buttons laid out in rows of at most `width`, fewer when their labels are long."""
    rows: list[tuple[Button, ...]] = []
    row: list[Button] = []
    for button in buttons:
        if row and (len(row) == width or sum(len(b.label) for b in row) + len(button.label) > max_chars):
            rows.append(tuple(row))
            row = []
        row.append(button)
    if row:
        rows.append(tuple(row))
    return tuple(rows)


def _checked(label: str, on: bool) -> str:
    return f"✅ {label}" if on else label


# ---- lobby ----------------------------------------------------------------------

def lobby_keyboard(view: LobbyView, lang: str, menu: str = "main",
                   private_link: str | None = None) -> Keyboard:
    gid = view.game_id
    if menu != "main":
        return _option_menu(view, lang, menu)
    rows: list[tuple[Button, ...]] = [(tap(t(lang, "button.join"), Action.JOIN, gid),
                                       tap(t(lang, "button.leave"), Action.LEAVE, gid))]
    if not view.full:
        rows.append(tuple(tap(t(lang, "telegram.button.computer", level=t(lang, f"level.{level}")),
                              Action.ADD_COMPUTER, gid, arg=level) for level in LEVELS))
    if any(seat is not None and seat.is_computer for seat in view.seats):
        rows.append((tap(t(lang, "telegram.button.remove_computers"), Action.REMOVE_COMPUTERS, gid),))
    if may_choose_partners(view):
        rows.extend(rows_of([tap(t(lang, "button.sit_with", name=seat.name), Action.SIT, gid, view.version,
                                 index=seat.seat)
                             for seat in view.seats if seat is not None], width=2, max_chars=40))
    rows.append((tap("⚙️ " + t(lang, "button.options"), Action.MENU, gid, arg="options"),
                 tap("▶️ " + t(lang, "button.start"), Action.START, gid),
                 tap("✖️ " + t(lang, "button.cancel"), Action.CANCEL, gid)))
    if private_link:
        rows.append((Button("🔒 " + t(lang, "button.open_private"), url=private_link),))
    return tuple(rows)


def _option(view: LobbyView, key: str, value: str, label: str, current: bool) -> Button:
    return tap(_checked(label, current), Action.OPTION, view.game_id, arg=f"{key}={value}")


def _option_menu(view: LobbyView, lang: str, menu: str) -> Keyboard:
    gid = view.game_id
    back_to = "main" if menu == "options" else "options"
    back = (tap("↩️ " + t(lang, "button.back"), Action.MENU, gid, arg=back_to),)
    offered = {option.key: option for option in options_for(view.variant, view.players)}
    if menu == "options":
        buttons = [tap(t(lang, offered[key].label), Action.MENU, gid, arg=name)
                   for name, key in MENU_OPTIONS.items()]
        buttons.append(tap(t(lang, "button.house_rules"), Action.MENU, gid, arg="house"))
        return (*rows_of(buttons, width=3), back)
    if menu == "house":
        buttons = list(_house_buttons(view, lang))
    elif menu in MENU_OPTIONS:
        buttons = list(_option_buttons(view, lang, offered[MENU_OPTIONS[menu]]))
    else:
        buttons = []
    width = 1 if menu == "house" else 2 if menu in ("variant", "deck", "capture", "rounds") else 3
    return (*rows_of(buttons, width=width), back)


def value_label(option: Option, value: str, lang: str) -> str:
    """How a lobby option's value reads on its button."""
    key = option.value_key(value)
    if key:
        return t(lang, key)
    if option.key == "round_limit":
        return round_limit_label(int(value), lang)
    if option.key == "teams":
        return teams_label(_TEAM_COUNTS[value], lang)
    if option.key == "turn_limit":
        return t(lang, "option.no_clock") if value == str(NO_CLOCK) else t(lang, "telegram.seconds",
                                                                             seconds=value)
    return value


def _option_buttons(view: LobbyView, lang: str, option: Option) -> Iterable[Button]:
    current = current_values(view)[option.key]
    for value in option.values:
        yield _option(view, option.key, value, value_label(option, value, lang), value == current)


def _house_buttons(view: LobbyView, lang: str) -> Iterable[Button]:
    for option in options_for(view.variant, view.players):
        if option.key in HOUSE_OPTIONS:
            on, switch = options.house_rule_switch(view.rules, option.key)
            yield _option(view, option.key, switch, house_rule_label(option.key, lang, view.variant), on)


# ---- the table and the end of a match -------------------------------------------------

def table_keyboard(game_id: int, lang: str, show_hand: bool, take_back: bool) -> Keyboard:
    row: list[Button] = []
    if show_hand:
        row.append(tap("🃏 " + t(lang, "button.show_hand"), Action.SHOW_HAND, game_id))
    if take_back:
        row.append(tap("👋 " + t(lang, "button.take_back"), Action.TAKE_BACK, game_id))
    return (tuple(row),) if row else ()


def confirm_keyboard(action: Action, game_id: int, lang: str) -> Keyboard:
    """The one button that confirms cancelling a match in play (its creator or an admin)."""
    return ((tap("✖️ " + t(lang, "button.confirm_cancel"), action, game_id),),)


def hand_over_keyboard(game_id: int, version: int, name: str, lang: str) -> Keyboard:
    """Under a turn that waited long with no clock: the computer plays it (creator or admin)."""
    return ((tap(t(lang, "button.hand_over", name=name), Action.HAND_OVER, game_id, version),),)


def match_keyboard(game_id: int, lang: str, rematch: bool = True) -> Keyboard:
    """Under "match over": Rematch (not after a deal of the day) and Review."""
    rematch_button = (tap("🔁 " + t(lang, "button.rematch"), Action.REMATCH, game_id),) if rematch else ()
    return ((*rematch_button, tap(t(lang, "review.button"), Action.REVIEW, game_id)),)


# ---- a player's hand --------------------------------------------------------------

def hand_keyboard(view: HandView, lang: str, prompt: HandPrompt = PLAIN, autoplay: bool = False,
                  fuori_wins: bool = False) -> Keyboard:
    """One button per card; live on the player's turn (🚫 on a card a capture forbids), the
    captures of the card being chosen; while declaring fuori, the cards, then the plays of
    one card to confirm. `fuori_wins`: declaring now would win (the 🏁 hint)."""
    gid, style = view.game_id, view.deck_style
    rows: list[tuple[Button, ...]] = []
    if view.finished:
        return ()
    live = view.my_turn and not autoplay
    back = (tap("↩️ " + t(lang, "button.back"), Action.BACK, gid, view.version),)
    picked = next((c for c in view.choices if c.card.code == prompt.card), None)
    declaring = prompt.mode is HandMode.DECLARING and view.may_declare
    if live and declaring and picked is not None:
        for move in picked.moves:
            rows.append((play(t(lang, "telegram.button.declare", move=move_label(move, style)), view, move,
                              declare=True),))
        rows.append(back)
    elif live and declaring:
        rows.extend(rows_of([tap("🏁 " + (move_label(c.moves[0], style) if len(c.moves) == 1
                                         else card_label(c.card, style) + " …"),
                                 Action.FUORI_CHOOSE, gid, view.version, c.card.code)
                             for c in view.choices], width=2, max_chars=30))
        rows.append(back)
    elif live and prompt.mode is HandMode.CHOOSING and picked is not None and len(picked.moves) > 1:
        for move in picked.moves:
            rows.append((play(move_label(move, style), view, move),))
        rows.append(back)
    elif live:
        buttons = []
        for shown in hand_cards(view):
            card = shown.card
            if shown.use is CardUse.PLAY:
                buttons.append(play(move_label(shown.moves[0], style), view, shown.moves[0]))
            elif shown.use is CardUse.CHOOSE:
                buttons.append(tap(card_label(card, style) + " …", Action.CHOOSE, gid, view.version,
                                   card.code))
            elif shown.use is CardUse.BLOCKED:
                buttons.append(tap(BLOCKED + card_label(card, style), Action.IDLE, gid, view.version,
                                   card.code))
            else:
                buttons.append(tap(card_label(card, style), Action.WAIT, gid))
        rows.extend(rows_of(buttons, width=3, max_chars=24))
        if view.offers_hint:
            rows.append((tap(t(lang, "button.hint"), Action.HINT, gid, view.version),))
        if view.may_declare:
            label = ("🏁 " if fuori_wins else "") + t(lang, "button.fuori")
            rows.append((tap(label, Action.FUORI, gid, view.version),))
    else:
        rows.extend(rows_of([tap(card_label(card, style), Action.WAIT, gid) for card in view.hand],
                            width=5))
    if autoplay:
        rows.append((tap("👋 " + t(lang, "button.take_back"), Action.TAKE_BACK, gid),))
    return tuple(rows)


# ---- settings and links -------------------------------------------------------------

def settings_keyboard(lang: str, group: bool, current: dict[Setting, str]) -> Keyboard:
    def setting(which: Setting, value: str, label: str) -> Button:
        return tap(_checked(label, current.get(which) == value), Action.SETTING, arg=f"{which.value}={value}")

    language = Setting.CHAT_LANGUAGE if group else Setting.MY_LANGUAGE
    rows = [tuple(setting(language, code, t(lang, f"telegram.language.{code}"))
                  for code in SETTING_VALUES[language])]
    if not group:
        rows.append(tuple(setting(Setting.MY_RING, value, t(lang, f"telegram.button.ring_{value}"))
                          for value in SETTING_VALUES[Setting.MY_RING]))
    if group:
        limit = options.TURN_LIMIT
        rows.extend(rows_of([setting(Setting.CHAT_TURN_LIMIT, value, value_label(limit, value, lang))
                             for value in SETTING_VALUES[Setting.CHAT_TURN_LIMIT]], width=4))
        rows.append(tuple(setting(Setting.CHAT_PICTURES, value, t(lang, f"telegram.pictures.{value}"))
                          for value in SETTING_VALUES[Setting.CHAT_PICTURES]))
        rows.extend(rows_of([setting(Setting.CHAT_VARIANT, value, t(lang, f"variant.{value}"))
                             for value in SETTING_VALUES[Setting.CHAT_VARIANT]], width=2))
    return tuple(rows)


def link_keyboard(label: str, url: str) -> Keyboard:
    return ((Button(label, url=url),),)
