"""The search behind :func:`~setwidgets.competition.schedules.schedule`: swap players until few meet twice.

Where no geometry gives a schedule (a plane, AG(3, 3), Kirkman's schoolgirls), the rounds come
from a seeded tabu search: the first round seats the players in order, later rounds at random,
then players in trouble (a repeat at their table, or too many rounds at the odd table) swap
seats until the repeats reach the lower bound of
:func:`~setwidgets.competition.schedules.fewest_repeats` and nobody sits at the odd table more
often than :func:`~setwidgets.competition.schedules.odd_share` allows. A search that stalls
starts again from new random rounds, drawn from the same generator, so one seed always gives
the same schedule.

>>> for game in search_rounds(9, 3, (3, 3, 3), target=0, rng=random.Random(0)):
...     print(game)
((1, 2, 3), (4, 5, 6), (7, 8, 9))
((1, 5, 9), (2, 6, 8), (3, 4, 7))
((1, 4, 8), (2, 5, 7), (3, 6, 9))
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from functools import cache

__all__ = ["PATIENCE", "WORK", "all_rounds", "round_patterns", "search_rounds"]

Table = tuple[int, ...]
Round = tuple[Table, ...]

WORK = 1_500_000
"""The most work of one call, counted in swaps looked at: a few seconds where the bound is out of reach.

Competitions of more than 7,500 player-rounds (players times rounds) get 200 for each.
"""
PATIENCE = 600
"""A search that finds nothing better in this many swaps starts again from new random rounds."""
# How many swaps one step looks at, about: every player in trouble for small competitions,
# a few of them in a large hall (where each has hundreds of partners to swap with).
_LOOKS = 1500


def search_rounds(
    players: int,
    rounds: int,
    sizes: Sequence[int],
    target: int,
    rng: random.Random,
    *,
    table_size: int = 3,
    share: int | None = None,
) -> list[Round]:
    """Rounds for ``players`` at tables of ``sizes``, swapped until the repeats reach ``target``.

    Tables of another size than ``table_size`` are the odd tables: nobody should sit at
    them more than ``share`` times (no limit unless told). Fewer repeats come first: a
    schedule with one repeat more is worse than any number of extra seats at the odd
    table. The search stops at ``target`` repeats with nobody over ``share``, or after
    :data:`WORK` (then the best schedule seen is returned).
    """
    people = list(range(1, players + 1))
    if len(sizes) == 1 or rounds == 1:
        return [_tidy(_cut(people, sizes), table_size)] * rounds
    odd = frozenset(t for t, size in enumerate(sizes) if size != table_size)
    if share is None or not odd:
        share, odd = rounds, frozenset()
    # One repeat outweighs every extra seat at the odd table (there are fewer than this).
    weight = players * rounds + 1
    best_cost, best_games, work = math.inf, [], 0
    budget = max(WORK, 200 * players * rounds)
    while work < budget and best_cost > target * weight:
        state = _Search(players, rounds, sizes, odd, share, weight, rng)
        used = state.run(target * weight, budget - work)
        work += used
        if state.best < best_cost:
            best_cost, best_games = state.best, state.best_games
    return [_tidy(game, table_size) for game in best_games]


class _Search:
    """One tabu search from random rounds: who sits where, who met whom, who sat at the odd table."""

    def __init__(self, players, rounds, sizes, odd, share, weight, rng) -> None:
        self.players, self.rounds, self.odd, self.share, self.weight, self.rng = (
            players, rounds, odd, share, weight, rng)  # fmt: skip
        people = list(range(1, players + 1))
        self.seat = [[0] * (players + 1) for _ in range(rounds)]  # seat[r][p] = table index
        self.tables = []
        for r in range(rounds):
            order = people[:] if r == 0 else rng.sample(people, players)
            game = [list(t) for t in _cut(order, sizes)]
            self.tables.append(game)
            for t, table in enumerate(game):
                for p in table:
                    self.seat[r][p] = t
        self.met = [[0] * (players + 1) for _ in range(players + 1)]
        # The same counts as bits, for the swaps looked at: bit q of once[p] is set when p met q
        # at least once, of again[p] when at least twice; seated[r][t]: the players at table t.
        self.once, self.again = [0] * (players + 1), [0] * (players + 1)
        self.seated = [[sum(1 << p for p in table) for table in game] for game in self.tables]
        self.at_odd = [0] * (players + 1)
        for game in self.tables:
            for t, table in enumerate(game):
                for a, b in itertools.combinations(table, 2):
                    self.met[a][b] += 1
                    self.met[b][a] += 1
                    self._note(a, b)
                if t in odd:
                    for p in table:
                        self.at_odd[p] += 1
        # The pairs that met more than once and the players over their share: where trouble is.
        self.twice = {(a, b) for a in people for b in range(a + 1, players + 1) if self.met[a][b] >= 2}
        self.over = {p for p in people if self.at_odd[p] > share}
        repeats = sum(self.met[a][b] - 1 for a, b in self.twice)
        self.cost = weight * repeats + sum(self.at_odd[p] - share for p in self.over)
        self.best, self.best_games = self.cost, self._copy()

    def _note(self, a: int, b: int) -> None:
        """Set the bits of ``once`` and ``again`` from ``met`` for the pair ``a``, ``b``."""
        m, bit_a, bit_b = self.met[a][b], 1 << a, 1 << b
        for p, bit in ((a, bit_b), (b, bit_a)):
            self.once[p] = self.once[p] | bit if m >= 1 else self.once[p] & ~bit
            self.again[p] = self.again[p] | bit if m >= 2 else self.again[p] & ~bit

    def _copy(self) -> list[list[list[int]]]:
        return [[t[:] for t in game] for game in self.tables]

    def troubled(self, wanted: int) -> tuple[list[tuple[int, int]], int]:
        """Up to ``wanted`` (round, player) in trouble: a repeat at their table, or the odd table too often.

        Also returns the work it took. Where trouble is everywhere (many rounds, many repeats),
        players picked at random are checked instead of every pair that met twice.
        """
        seat, found, rng = self.seat, set(), self.rng
        scan = (len(self.twice) + len(self.over)) * self.rounds
        if scan > 40 * wanted * self.rounds:
            tries = 0
            while len(found) < wanted and tries < 40 * wanted:
                tries += 1
                r, a = rng.randrange(1, self.rounds), rng.randrange(1, self.players + 1)
                table = self.tables[r][seat[r][a]]
                if any(self.met[a][q] >= 2 for q in table if q != a) or (
                    a in self.over and seat[r][a] in self.odd
                ):
                    found.add((r, a))
            return sorted(found), tries * len(table)
        for a, b in self.twice:
            for r in range(1, self.rounds):
                if seat[r][a] == seat[r][b]:
                    found.update(((r, a), (r, b)))
        for p in self.over:
            found.update((r, p) for r in range(1, self.rounds) if seat[r][p] in self.odd)
        trouble = sorted(found)
        if len(trouble) > wanted:
            trouble = rng.sample(trouble, wanted)
        return trouble, scan // 8 + len(found)

    def run(self, goal: int, budget: int) -> int:
        """Swap until the cost reaches ``goal``, nothing improves for a while, or ``budget`` is spent."""
        rng, once, again, at_odd, share, odd, weight = (
            self.rng,
            self.once,
            self.again,
            self.at_odd,
            self.share,
            self.odd,
            self.weight,
        )
        tabu = [[0] * (self.players + 1) for _ in range(self.rounds)]
        # Setting up counts too: the table of who met whom is players x players.
        work = self.players * self.players // 4
        step = calm = 0
        while self.cost > goal and work < budget and calm < PATIENCE:
            step += 1
            calm += 1
            trouble, looked = self.troubled(max(1, _LOOKS // self.players))
            work += looked
            # Tabu search: the best swap for a player in trouble, even if it costs a little,
            # except swaps of players moved lately in that round, unless it beats the best so far.
            top, moves = math.inf, []
            for r, a in trouble:
                game, lately, seated = self.tables[r], tabu[r], self.seated[r]
                ta = self.seat[r][a]
                # Counted with bits (see __init__): p never meets p, so a's own bit never counts.
                mates, once_a = seated[ta] & ~(1 << a), once[a]
                leaves = (again[a] & mates).bit_count()
                a_odd, a_lately = ta in odd, lately[a] > step
                for tb, table in enumerate(game):
                    if tb == ta:
                        continue
                    at_tb = seated[tb]
                    joins = (once_a & at_tb).bit_count()
                    b_odd = tb in odd
                    for b in table:
                        # a leaves its mates and joins table tb without b; b does the opposite.
                        d = joins - (once_a >> b & 1) - leaves + (once[b] & mates).bit_count()
                        d = weight * (d - (again[b] & at_tb).bit_count())
                        if a_odd != b_odd:
                            into, out = (b, a) if a_odd else (a, b)
                            d += (at_odd[into] + 1 > share) - (at_odd[out] > share)
                        if (a_lately or lately[b] > step) and self.cost + d >= self.best:
                            continue
                        if d < top:
                            top, moves = d, [(r, a, b)]
                        elif d == top:
                            moves.append((r, a, b))
                work += self.players * len(game[ta]) // 3  # a swap looked at reads both tables
            if not moves:
                continue
            r, a, b = rng.choice(moves)
            self._swap(r, a, b)
            self.cost += top
            tabu[r][a] = tabu[r][b] = step + rng.randint(2, 10)
            if self.cost < self.best:
                self.best, self.best_games, calm = self.cost, self._copy(), 0
        return work

    def _swap(self, r: int, a: int, b: int) -> None:
        game, seat, met = self.tables[r], self.seat[r], self.met
        ta, tb = seat[a], seat[b]
        for leaver, joiner, table in ((a, b, game[ta]), (b, a, game[tb])):
            for q in table:
                if q == leaver:
                    continue
                met[leaver][q] -= 1
                met[q][leaver] -= 1
                if met[leaver][q] == 1:
                    self.twice.discard((min(leaver, q), max(leaver, q)))
                met[joiner][q] += 1
                met[q][joiner] += 1
                if met[joiner][q] == 2:
                    self.twice.add((min(joiner, q), max(joiner, q)))
                self._note(leaver, q)
                self._note(joiner, q)
        game[ta][game[ta].index(a)] = b
        game[tb][game[tb].index(b)] = a
        moved = (1 << a) | (1 << b)
        self.seated[r][ta] ^= moved
        self.seated[r][tb] ^= moved
        seat[a], seat[b] = tb, ta
        if (ta in self.odd) != (tb in self.odd):
            into, out = (b, a) if ta in self.odd else (a, b)
            self.at_odd[into] += 1
            self.at_odd[out] -= 1
            if self.at_odd[into] > self.share:
                self.over.add(into)
            if self.at_odd[out] <= self.share:
                self.over.discard(out)


def round_patterns(first: Sequence[Sequence[int]]):
    """A function giving a round's pattern against ``first``, the same for rounds equal up to renaming.

    The pattern says how many players each table takes from each table of ``first``;
    used by :func:`~setwidgets.competition.schedules.exhaustive_fewest`.

    >>> pattern = round_patterns([(1, 2, 3), (4, 5, 6)])
    >>> pattern([(1, 2, 4), (3, 5, 6)]) == pattern([(4, 5, 1), (6, 2, 3)])
    True
    """
    group = {p: g for g, table in enumerate(first) for p in table}
    sizes = [len(table) for table in first]
    orders = [
        order
        for order in itertools.permutations(range(len(first)))
        if all(sizes[i] == sizes[j] for i, j in zip(order, range(len(first))))
    ]

    @cache
    def canonical(rows: tuple) -> tuple:
        return min(tuple(sorted((row[0], *(row[1 + g] for g in order)) for row in rows)) for order in orders)

    # A table's row: its size and how many players it takes from each table of ``first``. A
    # table comes back in many rounds (13 players: 1001 tables in 200200 rounds): counted once.
    @cache
    def row(table: tuple) -> tuple:
        counts = [0] * len(first)
        for p in table:
            counts[group[p]] += 1
        return (len(table), *counts)

    def pattern(game) -> tuple:
        # Many rounds share one table of counts; the renaming is tried once for each.
        return canonical(tuple(sorted(row(tuple(table)) for table in game)))

    return pattern


def all_rounds(people: list[int], sizes: Sequence[int]):
    """Every way to seat ``people`` at tables of ``sizes``, each seating once (as sorted tables).

    >>> list(all_rounds([1, 2, 3, 4], (2, 2)))
    [((1, 2), (3, 4)), ((1, 3), (2, 4)), ((1, 4), (2, 3))]
    """
    if not people:
        yield ()
        return
    first, others = people[0], people[1:]
    # The first player's table decides one size; try each different size once.
    for size in sorted(set(sizes)):
        rest_sizes = list(sizes)
        rest_sizes.remove(size)
        for mates in itertools.combinations(others, size - 1):
            left = [p for p in others if p not in mates]
            for rest in all_rounds(left, rest_sizes):
                yield tuple(sorted(((first, *mates), *rest)))


def _cut(order: Sequence[int], sizes: Sequence[int]) -> list[Table]:
    out, i = [], 0
    for size in sizes:
        out.append(tuple(order[i : i + size]))
        i += size
    return out


def _tidy(game: Sequence[Sequence[int]], table_size: int) -> Round:
    """A round as the coordinator reads it: tables in order of their lowest player, the odd one last."""
    tables = [tuple(sorted(t)) for t in game]
    return tuple(sorted(tables, key=lambda t: (len(t) != table_size, t)))
