"""How fast is the simulation engine? Ratios against a classic pure-Python program and plain C.

Three programs answer the same questions on this machine, in one run:

(a) the classic pure-Python approach, written below in the style of the well-known
    SET notebooks: cards as tuples, every triple tried with an is_set, the first SET
    found is taken, games played to the end;
(b) a small C program, benchmarks/sets_baseline.c, compiled with ``cc -O2`` when a C
    compiler is present (skipped, with a message, when not);
(c) the engine, setwidgets.sim: numpy deals a batch of tables or games, loops compiled
    by numba check the tables and play the games.

Printed: random 12-, 15- and 21-card tables checked per second, dealt and checked per second
(the engine deals in compiled code too: a partial Fisher-Yates shuffle from the run's numpy
Generator), whole games per second,
and Game itself driven in a tight loop (now, and before the engine's speed-ups when the
repository's history is at hand). The engine's compiled loops are compiled (or loaded
from numba's cache) before its rates are measured; the seconds that takes, in a fresh
process, are measured and printed apart: once with nothing cached, as on a new machine,
and once more with the compiled code on disk, as in every later session.

Each figure is a ratio measured in the same run, because these machines are noisy; times
are CPU times of the process doing the work (the C program reports its own), so other
programs on a shared machine disturb them less. The goals are printed beside the ratios,
not asserted.

Run it with ``python benchmarks/bench_sim.py`` (or ``python3 course.py bench``).
"""

from __future__ import annotations

import itertools
import os
import random
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from functools import partial
from pathlib import Path

import numpy as np

from setwidgets import Game, first_set, sim

ROOT = Path(__file__).resolve().parent.parent
C_SOURCE = ROOT / "benchmarks" / "sets_baseline.c"
SEED = 2024
# The commit before the engine and the core's speed-ups: Game as it was.
GAME_BEFORE = "654e7a1"


# -- (a) the classic pure-Python program --------------------------------------------------------


def classic_deck() -> list[tuple[int, int, int, int]]:
    return list(itertools.product(range(3), repeat=4))


def classic_is_set(a, b, c) -> bool:
    return all((x + y + z) % 3 == 0 for x, y, z in zip(a, b, c)) and len({a, b, c}) == 3


def classic_find_set(layout):
    for triple in itertools.combinations(layout, 3):
        if classic_is_set(*triple):
            return triple
    return None


def classic_game(rng: random.Random) -> int:
    """One game to the end: take the first SET found, replace up to 12, three more when none."""
    deck = classic_deck()
    rng.shuffle(deck)
    layout, deck = deck[:12], deck[12:]
    sets = 0
    while True:
        found = classic_find_set(layout)
        if found:
            sets += 1
            layout = [c for c in layout if c not in found]
            if len(layout) < 12 and deck:
                layout, deck = layout + deck[:3], deck[3:]
        elif deck:
            layout, deck = layout + deck[:3], deck[3:]
        else:
            return sets


def classic_games(rng: random.Random, count: int) -> None:
    for _ in range(count):
        classic_game(rng)


def engine_games_played(seed: int, count: int) -> None:
    sim.play(count, seed=seed, progress=False)


def classic_check(tables: list, count: int) -> None:
    for i in range(count):
        classic_find_set(tables[i % len(tables)])


def engine_dealt(seed: int, size: int, count: int, chunk: int = 250_000) -> None:
    """Deal ``count`` random tables of ``size`` cards and check each for a SET: both timed.

    In chunks, as a simulation of millions of tables would run: the C program deals and checks one
    table at a time, and tens of millions of tables at once would measure the memory instead.
    """
    rng = np.random.default_rng(seed)
    for start in range(0, count, chunk):
        sim.has_set_many(sim.deal_tables(min(chunk, count - start), size, seed=rng))


def engine_check(tables, rounds: int) -> int:
    """Check all the tables ``rounds`` times; returns how many tables were checked."""
    for _ in range(rounds):
        sim.has_set_many(tables)
    return rounds * len(tables)


# -- timing ---------------------------------------------------------------------------------------


def rate(work, count: int, min_seconds: float = 1.0) -> float:
    """Items per second: ``work(count)`` is run with a larger count until it takes min_seconds.

    ``work`` may return how many items it did (when that is not ``count``).
    """
    while True:
        start = time.process_time()
        done = work(count)
        seconds = time.process_time() - start
        if seconds >= min_seconds or count > 10**8:
            return (count if done is None else done) / seconds
        count = max(count * 2, int(count * min_seconds / max(seconds, 1e-6) * 1.2))


def c_baseline(folder: Path) -> Path | None:
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        return None
    program = folder / "sets_baseline"
    subprocess.run([compiler, "-O2", "-o", str(program), str(C_SOURCE)], check=True)
    return program


def c_rate(program: Path, *args: str) -> float:
    """Items per second from the C program, for at least about a second of its work."""
    count = 100_000
    while True:
        out = subprocess.run([str(program), args[0], str(count), *args[1:]], capture_output=True, text=True)
        seconds = float(out.stdout.split()[2])
        if seconds >= 1.0 or count > 10**9:
            return count / seconds
        count = int(count * 1.3 / max(seconds, 1e-3))


GAME_LOOP = """
import time
from setwidgets import Game
def play(seed):
    g = Game(seed=seed, clock=lambda: 0.0)
    while not g.over:
        found = g.sets_on_table()
        if found:
            g.claim(found[0])
        else:
            g.no_set()
games, start = 0, time.process_time()
while time.process_time() - start < {seconds}:
    play(games)
    games += 1
print(games / (time.process_time() - start))
"""


def game_rate(seconds: float = 1.5) -> float:
    """Games per second through Game, driven by first_set."""

    def play(seed: int) -> None:
        game = Game(seed=seed, clock=lambda: 0.0)
        while not game.over:
            found = first_set(game.table)
            if found is None:
                game.no_set()
            else:
                game.claim(found)

    games, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        play(games)
        games += 1
    return games / (time.process_time() - start)


def game_rate_before(folder: Path) -> float | None:
    """Games per second through Game as it was before the speed-ups, from the repository's history."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return None
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", GAME_BEFORE, "setwidgets"], capture_output=True, check=False
    )
    if archive.returncode:
        return None
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    # sets_on_table()[0] is the first SET in find_sets' order, as first_set is now.
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(GAME_LOOP.format(seconds=1.5))],
        cwd=folder,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.strip())


COMPILE = """
import time
start = time.perf_counter()
from setwidgets import sim
imported = time.perf_counter()
sim.has_set_many(sim.deal_tables(10, 12, seed=1))
sim.count_sets_many(sim.deal_tables(10, 12, seed=1))
checked = time.perf_counter()
for policy in ("first", "random"):
    for variant in ("standard", "competition"):
        sim.play(10, variant=variant, policy=policy, seed=1, progress=False)
print(imported - start, checked - imported, time.perf_counter() - checked)
"""


def first_call_seconds(cache: Path) -> tuple[float, float, float]:
    """Seconds to import sim, then to check the first tables, then to play the first games, in a fresh
    process whose compiled code is kept in ``cache`` (empty: everything is compiled)."""
    out = subprocess.run(
        [sys.executable, "-c", COMPILE],
        env={**os.environ, "NUMBA_CACHE_DIR": str(cache)},
        capture_output=True,
        text=True,
        check=True,
    )
    imported, checked, played = map(float, out.stdout.split())
    return imported, checked, played


# -- the run --------------------------------------------------------------------------------------


def main() -> int:
    print(f"setwidgets.sim against (a) classic pure Python (all triples) and (b) C (cc -O2); seed {SEED}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        program = c_baseline(folder)
        if program is None:
            print("(b) skipped: no C compiler (cc, gcc or clang) on this machine")
        cache = folder / "numba-cache"
        fresh, cached = first_call_seconds(cache), first_call_seconds(cache)
        print("\nThe engine's first calls in a fresh process (wall-clock seconds; not counted in the rates):")
        print(f"{'':>24} {'import':>8} {'tables':>8} {'games':>8}")
        print(f"{'nothing cached':>24} {fresh[0]:>8.2f} {fresh[1]:>8.2f} {fresh[2]:>8.2f}   (compiling)")
        print(f"{'compiled code on disk':>24} {cached[0]:>8.2f} {cached[1]:>8.2f} {cached[2]:>8.2f}")
        # This process compiles (or loads) the loops before any rate is measured.
        sim.play(10, seed=SEED, progress=False)
        sim.has_set_many(sim.deal_tables(10, 12, seed=SEED))

        print("\nRandom tables checked for a SET, per second (dealing not timed, in all three):")
        print(f"{'cards':>5} {'(a) Python':>12} {'(b) C':>12} {'engine':>12} {'vs (a)':>8} {'vs (b)':>8}")
        table_ratios = []
        for size in (12, 15, 21):
            rng = random.Random(SEED)
            deck = classic_deck()
            classic_tables = [rng.sample(deck, size) for _ in range(2000)]
            python = rate(partial(classic_check, classic_tables), 500)
            tables = sim.deal_tables(200_000, size, seed=SEED)
            engine = rate(partial(engine_check, tables), 1)
            c = c_rate(program, "tables", str(size)) if program else None
            table_ratios.append(None if c is None else engine / c)
            shown_c = f"{c:>12,.0f}" if c else f"{'-':>12}"
            versus_c = f"{engine / c:>7.2f}x" if c else f"{'-':>8}"
            print(
                f"{size:>5} {python:>12,.0f} {shown_c} {engine:>12,.0f} {engine / python:>7.0f}x {versus_c}"
            )
            # The engine and the classic program must agree on what they checked.
            sample = sim.deal_tables(300, size, seed=SEED + size)
            as_tuples = [[deck[i] for i in row] for row in sample.tolist()]
            if [classic_find_set(t) is not None for t in as_tuples] != sim.has_set_many(sample).tolist():
                print("the engine and the classic program disagree on a table", file=sys.stderr)
                return 1

        print("\nRandom tables dealt and checked for a SET, per second (both timed, end to end):")
        print(f"{'cards':>5} {'(b) C':>12} {'engine':>12} {'vs (b)':>8}")
        dealt_ratios = []
        for size in (12, 15, 21):
            engine = rate(partial(engine_dealt, SEED, size), 100_000)
            c = c_rate(program, "dealt", str(size)) if program else None
            dealt_ratios.append(None if c is None else engine / c)
            shown_c = f"{c:>12,.0f}" if c else f"{'-':>12}"
            versus_c = f"{engine / c:>7.2f}x" if c else f"{'-':>8}"
            print(f"{size:>5} {shown_c} {engine:>12,.0f} {versus_c}")

        print("\nWhole games played to the end (first SET found), per second:")
        rng = random.Random(SEED)
        python_games = rate(partial(classic_games, rng), 20)
        engine_games = rate(partial(engine_games_played, SEED), 20_000, min_seconds=2.0)
        c_games = c_rate(program, "games") if program else None
        game_now = game_rate()
        game_before = game_rate_before(folder)
        print(f"  (a) classic Python   {python_games:>12,.0f}")
        if c_games:
            print(f"  (b) C                {c_games:>12,.0f}")
        print(f"  engine               {engine_games:>12,.0f}")
        print(f"  Game, tight loop     {game_now:>12,.0f}")
        if game_before:
            print(f"  Game before          {game_before:>12,.0f}   (commit {GAME_BEFORE})")

        print("\nGoals (ratios from this run):")
        goals = [
            ("engine games/s >= 100 x (a)", engine_games / python_games, 100),
            ("Game games/s >= 3 x (a)", game_now / python_games, 3),
        ]
        if c_games:
            goals.append(("engine games/s >= 1/3 x (b)", engine_games / c_games, 1 / 3))
        for size, ratio in zip((12, 15, 21), table_ratios):
            if ratio is not None:
                goals.append((f"engine {size}-card tables/s >= 1/3 x (b)", ratio, 1 / 3))
        for size, ratio in zip((12, 15, 21), dealt_ratios):
            if ratio is not None:
                goals.append((f"engine {size}-card dealt+checked/s >= 1/3 x (b)", ratio, 1 / 3))
        for name, ratio, goal in goals:
            verdict = "met" if ratio >= goal else "NOT met"
            print(f"  {name:<44} {ratio:>9.2f}x  {verdict}")
        if game_before:
            print(f"  Game now against before: {game_now / game_before:.1f}x faster")
    return 0


if __name__ == "__main__":
    sys.exit(main())
