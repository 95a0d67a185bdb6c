"""The search behind :func:`~setwidgets.competition.schedules.schedule`: swap players until few meet twice.

Where no geometry gives a schedule (a plane, AG(3, 3), Kirkman's schoolgirls), the rounds come
from a seeded tabu search: the first round seats the players in order, later rounds at random,
then players in trouble (a repeat at their table, or too many rounds at the odd table) swap
seats until the repeats reach the lower bound of
:func:`~setwidgets.competition.schedules.fewest_repeats`.

>>> for game in search_rounds(9, 3, (3, 3, 3), target=0, rng=random.Random(0)):
...     print(game)
((1, 2, 3), (4, 5, 6), (7, 8, 9))
((1, 4, 7), (2, 6, 8), (3, 5, 9))
((1, 5, 8), (2, 4, 9), (3, 6, 7))
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence

__all__ = ["STEPS", "WEIGHT", "search_rounds"]

Table = tuple[int, ...]
Round = tuple[Table, ...]

STEPS = 60_000
# A repeat costs as much as this many extra seats at the odd table: fewest repeats come first.
WEIGHT = 8


def search_rounds(
    players: int, rounds: int, sizes: Sequence[int], target: int, rng: random.Random
) -> list[Round]:
    """Swap players between tables until the repeats reach ``target``; the odd table moves round.

    The first round seats the players in order, later rounds at random; then a tabu
    search swaps players within a round (see the comment in the loop). The odd table
    counts too, after the repeats: a seat there beyond a player's fair share costs an
    eighth of a repeat.
    """
    people = list(range(1, players + 1))
    common = Counter(sizes).most_common(1)[0][0]
    odd_table = next((t for t, size in enumerate(sizes) if size != common), None)
    share = math.ceil(rounds * sizes[odd_table] / players) if odd_table is not None else rounds
    if len(sizes) == 1 or rounds == 1:
        return [tuple(_cut(people, sizes))] * rounds

    seat = [[0] * (players + 1) for _ in range(rounds)]  # seat[r][p] = table index
    tables_of = []
    for r in range(rounds):
        order = people[:] if r == 0 else rng.sample(people, players)
        game = [list(t) for t in _cut(order, sizes)]
        tables_of.append(game)
        for t, table in enumerate(game):
            for p in table:
                seat[r][p] = t
    met = [[0] * (players + 1) for _ in range(players + 1)]
    odd = [0] * (players + 1)
    for r in range(rounds):
        for t, table in enumerate(tables_of[r]):
            for a, b in itertools.combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
            if t == odd_table:
                for p in table:
                    odd[p] += 1

    def cost_now() -> int:
        rep = sum(max(0, met[a][b] - 1) for a in people for b in people if a < b)
        return WEIGHT * rep + sum(max(0, odd[p] - share) for p in people)

    cost = cost_now()
    best, best_tables = cost, [[t[:] for t in g] for g in tables_of]

    def delta_of(r: int, a: int, b: int) -> int:
        game, ta, tb = tables_of[r], seat[r][a], seat[r][b]
        delta = 0
        for q in game[ta]:
            if q != a:
                delta += WEIGHT * ((met[b][q] >= 1) - (met[a][q] >= 2))
        for q in game[tb]:
            if q != b:
                delta += WEIGHT * ((met[a][q] >= 1) - (met[b][q] >= 2))
        if ta == odd_table or tb == odd_table:
            into, out = (b, a) if ta == odd_table else (a, b)
            delta += (odd[into] + 1 > share) - (odd[out] > share)
        return delta

    def swap(r: int, a: int, b: int) -> None:
        game, ta, tb = tables_of[r], seat[r][a], seat[r][b]
        for q in game[ta]:
            if q != a:
                met[a][q] -= 1
                met[q][a] -= 1
                met[b][q] += 1
                met[q][b] += 1
        for q in game[tb]:
            if q != b:
                met[b][q] -= 1
                met[q][b] -= 1
                met[a][q] += 1
                met[q][a] += 1
        game[ta][game[ta].index(a)] = b
        game[tb][game[tb].index(b)] = a
        seat[r][a], seat[r][b] = tb, ta
        if ta == odd_table or tb == odd_table:
            into, out = (b, a) if ta == odd_table else (a, b)
            odd[into] += 1
            odd[out] -= 1

    def troubled(r: int, a: int) -> bool:
        table = tables_of[r][seat[r][a]]
        if seat[r][a] == odd_table and odd[a] > share:
            return True
        return any(met[a][q] >= 2 for q in table if q != a)

    # Tabu search: take a player in trouble (a repeat at their table, or too often at the odd
    # table), make the best swap for them that was not undone lately, even if it costs a little.
    tabu: dict[tuple[int, int], int] = {}
    tenure = 7
    step = 0
    target *= WEIGHT
    while cost > target and step < STEPS:
        step += 1
        r = rng.randrange(1, rounds)
        a = rng.choice(people)
        if not troubled(r, a):
            continue
        moves = []
        for b in people:
            if seat[r][b] == seat[r][a]:
                continue
            delta = delta_of(r, a, b)
            # A player swapped lately stays put (the tabu), unless the swap beats the best so far.
            if tabu.get((r, b), 0) > step and cost + delta >= best:
                continue
            moves.append((delta, rng.random(), b))
        if not moves:
            continue
        delta, _, b = min(moves)
        swap(r, a, b)
        tabu[r, a] = tabu[r, b] = step + tenure + rng.randrange(3)
        cost += delta
        if cost < best:
            best, best_tables = cost, [[t[:] for t in g] for g in tables_of]
    return [_tidy(game) for game in best_tables]


def _cut(order: Sequence[int], sizes: Sequence[int]) -> list[Table]:
    out, i = [], 0
    for size in sizes:
        out.append(tuple(order[i : i + size]))
        i += size
    return out


def _tidy(game: Sequence[Sequence[int]]) -> Round:
    """A round as the coordinator reads it: tables in order of their lowest player, the odd one last."""
    tables = [tuple(sorted(t)) for t in game]
    common = Counter(len(t) for t in tables).most_common(1)[0][0]
    return tuple(sorted(tables, key=lambda t: (len(t) != common, t)))
