"""Buttons and select menus, laid out as discord.py views.

The views here are only layouts: each is stopped before it is sent, so
discord.py never holds them in memory, and every press reaches the single
dynamic item registered at start-up (`client.Component`) with the custom id,
which says everything needed. That is what keeps them working after a restart.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord import ui

from ...i18n import t
from ...render.words import (
    card_label,
    house_rule_label,
    may_choose_partners,
    move_label,
    round_limit_label,
    teams_label,
)
from ...sessions import HandView, LobbyView
from ...sessions.interaction import PLAIN, CardUse, HandMode, HandPrompt, hand_cards
from ...sessions.options import (
    HOUSE_OPTIONS,
    LEVELS,
    TEAMS_VALUES,
    Option,
    current_values,
    house_rule_switch,
    options_for,
)
from .custom_ids import MENU_KEYS, Action, Menu, Press, encode, option_value

LABEL_MAX = 80
PER_ROW = 5
ROWS = 5

Style = discord.ButtonStyle


def layout(*rows: Sequence[ui.Item[ui.View]]) -> ui.View:
    """A view with one row per argument (up to five), never dispatched by discord.py itself."""
    view = ui.View(timeout=None)
    for index, row in enumerate(rows[:ROWS]):
        for item in row[:PER_ROW]:
            item.row = index
            view.add_item(item)
    view.stop()
    return view


def button(label: str, press: Press, style: Style = Style.secondary, disabled: bool = False,
           emoji: str | None = None) -> ui.Button[ui.View]:
    return ui.Button(label=label[:LABEL_MAX], custom_id=encode(press), style=style, disabled=disabled,
                     emoji=emoji)


def link(label: str, url: str) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(ui.Button(label=label[:LABEL_MAX], url=url))
    view.stop()
    return view


Choice = tuple[str, str] | discord.SelectOption
"""A select menu's entry: (label, value), or an option with more to show."""


def _select(menu: Menu, game_id: int, placeholder: str, options: Sequence[Choice],
            current: str | None = None) -> ui.Select[ui.View]:
    return ui.Select(custom_id=encode(Press(Action.SELECT, game_id, arg=menu.value)),
                     placeholder=placeholder[:150], min_values=1, max_values=1,
                     options=[choice if isinstance(choice, discord.SelectOption) else
                              discord.SelectOption(label=choice[0][:100], value=choice[1],
                                                   default=choice[1] == current)
                              for choice in options[:25]])


# ---- the lobby --------------------------------------------------------------------

def lobby_components(view: LobbyView, lang: str) -> ui.View:
    gid = view.game_id
    rows: list[list[ui.Item[ui.View]]] = [[
        button(t(lang, "button.join"), Press(Action.JOIN, gid), Style.success),
        button(t(lang, "button.leave"), Press(Action.LEAVE, gid)),
        button(t(lang, "button.start"), Press(Action.START, gid), Style.primary, emoji="▶️"),
        button(t(lang, "button.cancel"), Press(Action.CANCEL, gid), Style.danger, emoji="✖️"),
    ]]
    partners = may_choose_partners(view)
    computers: list[ui.Item[ui.View]] = [] if partners else [
        button(t(lang, "discord.button.computer", level=t(lang, f"level.{level}")),
               Press(Action.ADD_COMPUTER, gid, arg=level), disabled=view.full)
        for level in LEVELS]
    if any(seat is not None and seat.is_computer for seat in view.seats):
        computers.append(button(t(lang, "discord.button.remove_computers"),
                                Press(Action.REMOVE_COMPUTERS, gid)))
    if partners:
        # a full table has no seat for a computer: its row offers partners instead
        computers[:0] = [button(t(lang, "button.sit_with", name=seat.name),
                                Press(Action.SIT, gid, view.version, index=seat.seat))
                         for seat in view.seats if seat is not None][:PER_ROW - len(computers)]
    rows.append(computers)
    offered = {option.key: option for option in options_for(view.variant, view.players)}
    current = current_values(view)
    rows.append([_select(Menu.VARIANT, gid, t(lang, offered["variant"].label),
                         _menu_options(view, offered, Menu.VARIANT, lang, current),
                         option_value("variant", view.variant))])
    rows.append([_select(Menu.TARGET, gid, t(lang, offered["target"].label),
                         _menu_options(view, offered, Menu.TARGET, lang, current),
                         option_value("target", current["target"]))])
    rows.append([_select(Menu.TABLE, gid, t(lang, "button.options"),
                         _menu_options(view, offered, Menu.TABLE, lang, current))])
    return layout(*rows)


_TEAM_COUNTS = {value: count for count, value in TEAMS_VALUES.items()}


def value_label(option: Option, value: str, lang: str) -> str:
    """How a lobby option's value reads in a select menu."""
    if option.key == "target":
        return t(lang, "option.target", value=value)
    if option.key == "round_limit":
        return round_limit_label(int(value), lang)
    if option.key == "players":
        return t(lang, "discord.players", count=value)
    if option.key == "teams":
        return teams_label(_TEAM_COUNTS[value], lang)
    if option.key == "deck_style":
        return t(lang, "lobby.deck", deck=t(lang, f"deck.{value}"))
    key = option.value_key(value)
    return t(lang, key) if key else value


def _menu_options(view: LobbyView, offered: dict[str, Option], menu: Menu, lang: str,
                  current: dict[str, str]) -> list[Choice]:
    """A select menu's entries, from the options the lobby offers. The target menu leaves out
    the round limit in effect (it shows the target); in the table menu (the lobby text shows
    the current values) choosing a house rule switches it over, and the deck in effect is left
    out, which keeps the menu within Discord's 25 entries."""
    choices: list[Choice] = []
    for key in MENU_KEYS[menu]:
        option = offered.get(key)
        if option is None:
            continue
        if key in HOUSE_OPTIONS:
            on, switch = house_rule_switch(view.rules, key)
            choices.append(discord.SelectOption(
                label=house_rule_label(key, lang, view.variant)[:100], value=option_value(key, switch),
                emoji="✅" if on else "⬜",
                description=t(lang, "discord.option.switch_off" if on else "discord.option.switch_on")))
            continue
        choices += [(value_label(option, value, lang), option_value(key, value)) for value in option.values
                    if not (key in ("round_limit", "deck_style") and value == current[key])]
    return choices


# ---- the table, the end of a match, pings ------------------------------------------

def table_components(game_id: int, lang: str, take_back: bool) -> ui.View:
    row: list[ui.Item[ui.View]] = [
        button(t(lang, "button.my_hand"), Press(Action.SHOW_HAND, game_id), Style.primary, emoji="🃏")]
    if take_back:
        row.append(button(t(lang, "button.take_back"), Press(Action.TAKE_BACK, game_id), emoji="👋"))
    row.append(button(t(lang, "button.cancel"), Press(Action.CANCEL, game_id), Style.danger, emoji="✖️"))
    return layout(row)


def hand_button(game_id: int, lang: str) -> ui.View:
    return layout([button(t(lang, "button.my_hand"), Press(Action.SHOW_HAND, game_id), Style.primary,
                          emoji="🃏")])


def match_components(game_id: int, lang: str, rematch: bool = True) -> ui.View:
    """Under "match over": Rematch (not after a deal of the day) and Review."""
    rematch_button = [button(t(lang, "button.rematch"), Press(Action.REMATCH, game_id), Style.success,
                             emoji="🔁")] if rematch else []
    return layout([*rematch_button, button(t(lang, "review.button"), Press(Action.REVIEW, game_id))])


def hand_over_button(game_id: int, version: int, name: str, lang: str) -> ui.View:
    """Under a turn that waited long with no clock: the computer plays it (creator or admin)."""
    return layout([button(t(lang, "button.hand_over", name=name), Press(Action.HAND_OVER, game_id, version))])


def confirm_cancel(game_id: int, lang: str) -> ui.View:
    return layout([button(t(lang, "button.confirm_cancel"), Press(Action.CONFIRM_CANCEL, game_id),
                          Style.danger)])


# ---- a player's hand ------------------------------------------------------------------

BLOCKED = "🚫"
"""The mark of a card that cannot be played now because a capture is compulsory."""


def hand_components(view: HandView, lang: str, prompt: HandPrompt = PLAIN, *,
                    autoplay: bool = False, fuori_wins: bool = False) -> ui.View:
    """One button per card: live on the player's turn, marked 🚫 when a compulsory capture
    bars it (pressing it says why); the captures of the prompt's card to choose from. While
    declaring fuori, a card shows its plays, each one confirming the declaration; the
    button that starts declaring is there only when `fuori_wins` (some play would win now).
    Each button carries all a later press needs (the card, the capture), so a restart
    forgets nothing."""
    gid, version, style = view.game_id, view.version, view.deck_style
    if view.finished:
        return layout()
    extra: list[ui.Item[ui.View]] = []
    if autoplay:
        extra.append(button(t(lang, "button.take_back"), Press(Action.TAKE_BACK, gid), emoji="👋"))
    picked = next((c for c in view.choices if c.card.code == prompt.card), None)
    live = view.my_turn and not autoplay
    declaring = prompt.mode is HandMode.DECLARING and live and view.may_declare
    play, pick = (Action.DECLARE, Action.FUORI_CHOOSE) if declaring else (Action.PLAY, Action.CHOOSE)
    kind, mark = (Style.danger, "🏁") if declaring else (Style.primary, None)
    back = button(t(lang, "button.back"), Press(Action.BACK, gid, version), emoji="↩️")
    if live and picked is not None and (len(picked.moves) > 1 or declaring):
        buttons = [button(move_label(move, style), Press(play, gid, version, move.code), kind, emoji=mark)
                   for move in picked.moves[: PER_ROW * (ROWS - 1)]]
        return layout(*_rows(buttons), [back])
    buttons = []
    for shown in hand_cards(view, live):
        card, moves = shown.card, shown.moves
        if declaring and moves:
            buttons.append(button(card_label(card, style) + " …", Press(pick, gid, version, card.code),
                                  kind, emoji=mark))
        elif shown.use is CardUse.PLAY:
            buttons.append(button(move_label(moves[0], style), Press(play, gid, version, moves[0].code),
                                  kind, emoji=mark))
        elif shown.use is CardUse.CHOOSE:
            buttons.append(button(card_label(card, style) + " …", Press(pick, gid, version, card.code),
                                  kind, emoji=mark))
        elif shown.use is CardUse.BLOCKED:
            buttons.append(button(card_label(card, style), Press(Action.IDLE, gid, version, card.code),
                                  emoji=BLOCKED))
        else:
            buttons.append(button(card_label(card, style), Press(Action.IDLE, gid, version, card.code),
                                  disabled=True))
    rows = _rows(buttons)
    if declaring:
        rows.append([back])
    elif live and view.may_declare and fuori_wins:
        extra.append(button(t(lang, "button.fuori"), Press(Action.FUORI, gid, version), emoji="🏁"))
    if live and view.offers_hint and not declaring:
        extra.append(button(t(lang, "button.hint"), Press(Action.HINT, gid, version)))
    if extra:
        rows.append(extra)
    return layout(*rows)


def _rows(items: Sequence[ui.Item[ui.View]]) -> list[list[ui.Item[ui.View]]]:
    return [list(items[i:i + PER_ROW]) for i in range(0, len(items), PER_ROW)]
