"""A yardstick for the engine's speed: 2-player scopa written as simply as possible.

Random play with the standard rules (a card of the same rank is taken before any sum, a
sweep is a scopa except on the last play, the last capturer takes what is left) and the
standard count (cards, denari, settebello, primiera, scope), in plain Python with no care
for speed. The machine this runs on is shared and its speed swings from run to run; the
engine's rounds per second over this loop's, measured in the same run, swings far less.
"""

from __future__ import annotations

import itertools
import random
import time

PRIMIERA = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}
DECK = [(rank, suit) for suit in "DCSB" for rank in range(1, 11)]


def captures(card: tuple[int, str], table: list[tuple[int, str]]) -> list[list[tuple[int, str]]]:
    same = [[other] for other in table if other[0] == card[0]]
    if same:
        return same
    found = []
    for size in range(2, len(table) + 1):
        for group in itertools.combinations(table, size):
            if sum(other[0] for other in group) == card[0]:
                found.append(list(group))
    return found


def primiera(taken: list[tuple[int, str]]) -> int:
    best = {}
    for rank, suit in taken:
        best[suit] = max(best.get(suit, 0), PRIMIERA[rank])
    return sum(best.values()) if len(best) == 4 else 0


def play_round(rng: random.Random) -> list[int]:
    deck = DECK[:]
    rng.shuffle(deck)
    table = deck[:4]
    stock = deck[4:]
    taken: list[list[tuple[int, str]]] = [[], []]
    scope = [0, 0]
    last = None
    player = 0
    while stock:
        hands = [stock[:3], stock[3:6]]
        stock = stock[6:]
        for _ in range(6):
            hand = hands[player]
            card = hand.pop(rng.randrange(len(hand)))
            options = captures(card, table)
            if options:
                group = rng.choice(options)
                table = [other for other in table if other not in group]
                taken[player] += [card, *group]
                last = player
                if not table and (stock or hands[0] or hands[1]):
                    scope[player] += 1
            else:
                table.append(card)
            player = 1 - player
    if last is not None:
        taken[last] += table
    points = scope[:]
    for category in (len, lambda cards: sum(suit == "D" for _, suit in cards), primiera):
        counts = [category(cards) for cards in taken]
        if counts[0] != counts[1]:
            points[counts.index(max(counts))] += 1
    for side in (0, 1):
        points[side] += (7, "D") in taken[side]
    return points


def rounds_per_second(seconds: float, seed: int) -> float:
    rng = random.Random(seed)
    rounds = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        play_round(rng)
        rounds += 1
    return rounds / (time.process_time() - start)


if __name__ == "__main__":
    print(f"yardstick: {rounds_per_second(3.0, 1):,.0f} rounds per CPU second")
