"""Set up exact positions through the saved-game format (so they are validated)."""

from __future__ import annotations

from bot.engine import DECK, Card, Game, dump_game, load_game
from bot.engine.cards import parse_cards


def arrange(variant: str = "scopa", players: int = 2, *, hands: list[list[str]],
            table: list[str], stock: list[str] | None = None, to_play: int = 0,
            teams: bool = False, rules: dict[str, object] | None = None,
            captured: list[list[str]] | None = None) -> Game:
    """A game whose hands and table are as given; unnamed cards go to the stock
    unless `stock` is given, in which case they go to seat 0's captures."""
    game = Game.new(variant, players, teams=teams, rules=rules, seed=0)
    state = dump_game(game)
    used: set[Card] = set()
    for group in [*hands, table, *(captured or []), stock or []]:
        used.update(parse_cards(group))
    rest = [c.code for c in DECK if c not in used]
    piles = [list(p) for p in (captured or [[] for _ in range(players)])]
    if stock is None:
        stock = rest
    else:
        piles[0] = piles[0] + rest
    state.update(hands=hands, table=table, stock=stock, captured=piles,
                 scope=[0] * players, to_play=to_play, last_capturer=None, plays=[])
    return load_game(state)


def moves_text(game: Game) -> set[str]:
    return {m.code for m in game.legal_moves()}
