"""How much faster is find_sets than trying every triple?

find_sets looks at each pair of cards once and asks whether the one card that
completes the pair is on the table: about n^2 / 2 lookups. The obvious method
tries every triple with is_set: about n^3 / 6 checks. Both run here on the same
seeded random tables (12, 15 and 21 cards, and the whole deck of 81), in the
same process, and must find the same SETs. The table printed shows the time per
table and the ratio brute force / find_sets, which should grow roughly in
proportion to n (the ratio of n^3 to n^2).

Run it with ``python benchmarks/bench_find_sets.py`` (or ``python3 course.py bench``).
"""

from __future__ import annotations

import itertools
import random
import sys
import time
from collections.abc import Callable

from setwidgets import Card, find_sets, full_deck, is_set

SIZES = (12, 15, 21, 81)
SEED = 2024
TABLES_PER_SIZE = 20
# Each timed run lasts at least MIN_SECONDS / REPEATS, so that short timings are not noise.
MIN_SECONDS = 0.3
REPEATS = 3


def brute_force_sets(cards: list[Card]) -> list[tuple[Card, Card, Card]]:
    """Every SET among the cards, by trying all triples."""
    return [t for t in itertools.combinations(cards, 3) if is_set(*t)]


def seconds_per_call(func: Callable[[list[Card]], object], tables: list[list[Card]]) -> float:
    """Seconds for one call of ``func`` on one table: the best of a few timed runs over all the tables.

    Taking the best run, not the average, keeps other programs on a busy machine out of the result.
    """
    loops = 1
    while True:
        start = time.perf_counter()
        for _ in range(loops):
            for table in tables:
                func(table)
        if time.perf_counter() - start >= MIN_SECONDS / REPEATS or loops >= 1000:
            break
        loops *= 4
    best = float("inf")
    for _ in range(REPEATS):
        start = time.perf_counter()
        for _ in range(loops):
            for table in tables:
                func(table)
        best = min(best, time.perf_counter() - start)
    return best / (loops * len(tables))


def same_sets(a: list[tuple[Card, ...]], b: list[tuple[Card, ...]]) -> bool:
    return sorted(sorted(c.index for c in t) for t in a) == sorted(sorted(c.index for c in t) for t in b)


def main() -> int:
    rng = random.Random(SEED)
    deck = full_deck()
    print(f"find_sets (pairs and the missing third card) against all triples with is_set; seed {SEED}")
    print(f"{'cards':>5} {'tables':>6} {'SETs/table':>10} {'find_sets':>12} {'all triples':>12} {'ratio':>7}")
    ratios = []
    for size in SIZES:
        tables = [rng.sample(deck, size) for _ in range(1 if size == len(deck) else TABLES_PER_SIZE)]
        found = [find_sets(t) for t in tables]
        for table, sets in zip(tables, found):
            if not same_sets(sets, brute_force_sets(table)):
                print(f"find_sets and the brute force disagree on {[c.code for c in table]}", file=sys.stderr)
                return 1
        fast = seconds_per_call(find_sets, tables)
        slow = seconds_per_call(brute_force_sets, tables)
        ratios.append(slow / fast)
        mean_sets = sum(map(len, found)) / len(found)
        print(
            f"{size:>5} {len(tables):>6} {mean_sets:>10.1f} {fast * 1e6:>10.1f}us {slow * 1e6:>10.1f}us "
            f"{slow / fast:>6.1f}x"
        )
    assert len(find_sets(deck)) == 1080
    # The O(n^2) claim: the advantage of find_sets grows with the table. Timings vary from
    # machine to machine, so only the direction is checked, not the exact numbers.
    assert ratios[-1] > ratios[0], f"find_sets should gain more on bigger tables; ratios {ratios}"
    print("Both methods found the same SETs on every table.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
