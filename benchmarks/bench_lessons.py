"""How long does a lesson take to run, against a kernel that only imports the package?

A lesson is run from top to bottom by nbclient in a fresh kernel, as Run All does. The
baseline, in the same run: a notebook of one cell, ``import setwidgets``, in a fresh kernel of
the same Python: the cost of starting the kernel and the package, which no lesson can avoid.
The ratio says what the lesson's own cells cost, whatever the machine's speed.

The course's goal: a unit-3 lesson (08 to 10) computes every count it states and still runs in
a sitting, well under 20 s on the project's two-core machine. The tests do not time lessons (a
loaded machine would fail them for nothing); this script does.

Run it with ``python benchmarks/bench_lessons.py [LESSON ...]`` (or ``python3 course.py bench``);
without names, the unit-3 lessons.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ROOT / "lessons"
UNIT_THREE = ["08_sets_are_lines", "09_planes_and_magic_squares", "10_symmetry"]
GOAL_SECONDS = 20


def run(notebook: nbformat.NotebookNode, folder: Path) -> float:
    """Seconds to run ``notebook`` from a fresh kernel started in ``folder``."""
    start = time.perf_counter()
    NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(folder)}}
    ).execute()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lessons", nargs="*", default=UNIT_THREE, help="lesson names, e.g. 08_sets_are_lines")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each (the median is shown)")
    args = parser.parse_args(argv)
    baseline_nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import setwidgets")])
    baseline = statistics.median(run(baseline_nb, LESSONS) for _ in range(args.repeat))
    print(f"baseline (a kernel that imports setwidgets): {baseline:.1f} s")
    print(f"{'lesson':32} {'seconds':>8} {'ratio':>6}  goal")
    missed = 0
    for name in args.lessons:
        path = LESSONS / f"{name.removesuffix('.ipynb')}.ipynb"
        if not path.is_file():
            print(f"bench_lessons: no lesson {path.name} in {LESSONS}", file=sys.stderr)
            return 2
        seconds = statistics.median(
            run(nbformat.read(path, as_version=4), LESSONS) for _ in range(args.repeat)
        )
        unit_three = path.stem in UNIT_THREE
        met = "" if not unit_three else ("met" if seconds < GOAL_SECONDS else "MISSED")
        missed += met == "MISSED"
        print(f"{path.stem:32} {seconds:8.1f} {seconds / baseline:6.1f}  {met or '-'}")
    if missed:
        print(f"{missed} unit-3 lesson(s) over {GOAL_SECONDS} s")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
