"""What saving a room costs after 10 penalties and after 100,000: the store's own work, measured.

The room service saves a room whole after every change, in its one event loop, so every room
waits for each save (issue 34: 10,000 penalties made a 4.4 MB save of 314 ms). A room now
folds the calls that only cost points into counts (``setwidgets.classroom.rooms.HISTORY_LIMIT``),
so a save should cost about the same however long the game has run.

For each count of penalties: a room of two players (Ana calls SET and lets her time run out,
on a clock this script moves), saved with the real :class:`~setwidgets.classroom.store.Store`
in a SQLite file in a temporary folder (the machine's own disk, as the service uses); then
``--saves`` more penalties, each saved and timed (``Store.save``: the room written as JSON
and committed), so a row "10,000 penalties" times the saves from the 10,001st penalty to the
10,300th. Printed: the median, 95th percentile and largest save, the largest save's size,
and the time to load the room back (``Room.from_data``, as the service does at start). The
machine is shared: the 95th percentiles and the largest saves move with its load (recorded);
the medians and the sizes are the figures to compare.

The baseline, in the same run: the same game with folding switched off (the limit set out of
reach), as the service saved before, up to 10,000 penalties (more would take minutes).

Run it with ``python benchmarks/bench_classroom_save.py`` (some 3 minutes, most of them
in the baseline); ``--quick`` runs smaller counts in a few seconds; ``--json FILE`` writes
the figures, ``--record`` to benchmarks/bench_classroom_save.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from setwidgets.classroom import rooms  # noqa: E402
from setwidgets.classroom.rooms import Room  # noqa: E402
from setwidgets.classroom.store import Store  # noqa: E402

RESULT = ROOT / "benchmarks" / "bench_classroom_save.json"


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def penalties(room: Room, clock: Clock, count: int, n: int) -> int:
    """Ana calls and runs out of time ``count`` times; her next message number is returned."""
    for _ in range(count):
        room.play("Ana", {"n": n, "type": "call"})
        clock.t += 6
        room.expire()
        n += 1
    return n


def measure(counts: list[int], saves: int, folding: bool) -> list[dict[str, Any]]:
    limit = rooms.HISTORY_LIMIT
    if not folding:
        rooms.HISTORY_LIMIT = 10**12  # out of reach: every event stays, as before issue 34
    try:
        with tempfile.TemporaryDirectory() as folder:
            store = Store(f"sqlite:///{folder}/rooms.sqlite")
            clock = Clock()
            room = Room("BCDFG", seed=1, clock=clock, claim_seconds=5)
            room.join("Ana")
            room.join("Ben")
            n, done, rows = 1, 0, []
            for count in counts:
                n = penalties(room, clock, count - done, n)
                done = count
                times, sizes = [], []
                for _ in range(saves):
                    n = penalties(room, clock, 1, n)
                    done += 1
                    start = time.perf_counter()
                    store.save(room)
                    times.append(time.perf_counter() - start)
                    sizes.append(len(json.dumps(room.to_data())))
                data = json.loads(json.dumps(room.to_data()))
                start = time.perf_counter()
                again = Room.from_data(data, clock)
                load = time.perf_counter() - start
                assert again.view() == room.view()
                times.sort()
                rows.append(
                    {
                        "penalties": count,
                        "folding": folding,
                        "median_ms": round(1000 * statistics.median(times), 2),
                        "p95_ms": round(1000 * times[int(0.95 * (len(times) - 1))], 2),
                        "max_ms": round(1000 * times[-1], 2),
                        "largest_save_bytes": max(sizes),
                        "load_ms": round(1000 * load, 2),
                    }
                )
                row = rows[-1]
                print(
                    f"{'folded' if folding else 'every event'}: {count:>7,} penalties  save median "
                    f"{row['median_ms']:7.2f} ms  p95 {row['p95_ms']:7.2f} ms  max {row['max_ms']:7.2f} ms  "
                    f"size {row['largest_save_bytes'] / 1000:8.1f} KB  load {row['load_ms']:7.2f} ms",
                    flush=True,
                )
            store.close()
    finally:
        rooms.HISTORY_LIMIT = limit
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small counts, a few seconds")
    parser.add_argument("--saves", type=int, default=None, help="saves timed at each count (default 300)")
    parser.add_argument("--json", type=Path, default=None, help="write the figures to this file")
    parser.add_argument("--record", action="store_true", help=f"write the figures to {RESULT.name}")
    options = parser.parse_args(argv)
    saves = options.saves or (50 if options.quick else 300)
    folded = [10, 1_000] if options.quick else [10, 1_000, 10_000, 100_000]
    unfolded = [10, 1_000] if options.quick else [10, 1_000, 10_000]
    print(f"{saves} saves timed at each count; HISTORY_LIMIT = {rooms.HISTORY_LIMIT}")
    rows = measure(folded, saves, folding=True) + measure(unfolded, saves, folding=False)
    first, last = rows[0], max((r for r in rows if r["folding"]), key=lambda r: r["penalties"])
    ratio = last["median_ms"] / first["median_ms"]
    print(
        f"folded: the median save at {last['penalties']:,} penalties is {ratio:.2f} times the one at "
        f"{first['penalties']} (goal: about the same)"
    )
    figures = {
        "benchmark": "bench_classroom_save",
        "when": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
        "machine": {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "load_average": [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None,
        },
        "history_limit": rooms.HISTORY_LIMIT,
        "saves_per_count": saves,
        "rows": rows,
        "median_ratio_largest_to_smallest": round(ratio, 2),
    }
    target = RESULT if options.record else options.json
    if target is not None:
        target.write_text(json.dumps(figures, indent=1) + "\n")
        print(f"written to {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
