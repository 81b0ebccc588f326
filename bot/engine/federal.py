"""Drawing the teams of a friendly scopone match, as the federal rulebook (004) says.

Art. 3: "nelle partite amichevoli ciascun giocatore scopre una carta e formano
coppia i due che hanno scoperto le carte di valore numerico inferiore". Art. 4:
"Per primo è cartaro il giocatore che ha scoperto la carta inferiore; è terzo di
mano il giocatore della coppia avversaria che ha scoperto la carta inferiore."
The roles go primo, secondo, terzo di mano, cartaro in playing order (art. 3), so
the draw fixes every seat. The text does not say what happens when two cards have
the same value: the cards are drawn again until all four differ, so that the
pairs, the first dealer and the terzo di mano are all decided.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .deck import first_dealer, shuffled_deck

PLAYERS = 4


@dataclass(frozen=True, slots=True)
class TeamDraw:
    """The cards the four players drew and the seat each one takes.

    Players are numbered 0..3 in any order the caller keeps (e.g. the order they
    joined); `seat_of[player]` is the seat of that player in the game made with
    the same seed, whose first dealer (`Game.first_dealer`) is then the player who
    drew the lowest card.
    """

    cards: tuple[Card, ...]
    seat_of: tuple[int, ...]

    @property
    def player_at(self) -> tuple[int, ...]:
        """`player_at[seat]`: the player sitting at `seat`."""
        players = [0] * PLAYERS
        for player, seat in enumerate(self.seat_of):
            players[seat] = player
        return tuple(players)


def draw_teams(seed: int | str) -> TeamDraw:
    """The team draw of art. 3 and 4 for the match with `seed`: the same seed always gives
    the same draw, and it fits the first dealer of `Game.new(..., seed=seed)`."""
    attempt = 0
    while True:
        cards = tuple(shuffled_deck(f"{seed}/teams/{attempt}")[:PLAYERS])
        if len({card.rank for card in cards}) == PLAYERS:
            break
        attempt += 1
    lowest, partner, terzo, primo = sorted(range(PLAYERS), key=lambda player: cards[player].rank)
    dealer = first_dealer(seed, PLAYERS)
    seat_of = [0] * PLAYERS
    for offset, player in enumerate((lowest, primo, partner, terzo)):
        seat_of[player] = (dealer + offset) % PLAYERS
    return TeamDraw(cards, tuple(seat_of))
