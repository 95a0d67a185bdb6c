"""What does grading one submission cost, with the sandbox and the judged tests?

For each exercise, a temporary copy of the course grades the source notebook handed in by
``--students`` students with the real ``nbgrader autograde`` (the course's configuration:
bubblewrap sandbox, memory cgroup as root, tests judged outside the kernel, the report, the
inert outputs). The cost of one submission is the difference between grading them all and
grading one, divided by the others: nbgrader's own start-up and the gradebook are paid once.

The baseline, in the same run: the same notebook executed from start to end by nbclient in a
plain kernel, as ``jupyter nbconvert --execute`` does, with nothing around it. The ratio is the
price of grades that hold against a determined student (a sandbox per kernel, a kernel restart
per notebook, the grader's questions to the kernel), whatever the machine's speed. The course's
goal is 3 s a submission on the project's two-core machine.

Run it with ``python benchmarks/bench_grading.py`` (or ``python3 course.py bench``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from jupyter_client import KernelManager
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
EXERCISES = ROOT / "exercises"
BIN = Path(sys.executable).parent


def nbgrader(course: Path, *args: str) -> float:
    """Seconds that ``nbgrader ARGS`` took in ``course``; fails loudly if it failed."""
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    start = time.perf_counter()
    command = [str(BIN / "nbgrader"), *args]
    result = subprocess.run(command, cwd=course, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"nbgrader {' '.join(args)} failed:\n{result.stderr[-3000:]}")
    return seconds


def grading_seconds(assignment: str, students: int, work: Path) -> float:
    """Seconds to autograde ``students`` copies of the source notebook of ``assignment``."""
    course = work / f"{assignment}-{students}"
    course.mkdir()
    shutil.copy(EXERCISES / "nbgrader_config.py", course)
    shutil.copytree(EXERCISES / "source" / assignment, course / "source" / assignment)
    nbgrader(course, "generate_assignment", assignment)
    notebook = next((EXERCISES / "source" / assignment).glob("*.ipynb"))
    for number in range(students):
        folder = course / "submitted" / f"student{number}" / assignment
        folder.mkdir(parents=True)
        shutil.copy(notebook, folder)
    return nbgrader(course, "autograde", assignment, "--create")


def plain_seconds(assignment: str) -> float:
    """Seconds to run the source notebook in a plain kernel, from its own folder."""
    folder = EXERCISES / "source" / assignment
    notebook = nbformat.read(next(folder.glob("*.ipynb")), as_version=4)
    with tempfile.TemporaryDirectory(prefix="bench-ipc-") as sockets:
        # ipc, as grading uses: over tcp, recent kernels print a warning on every start.
        manager = KernelManager(transport="ipc", ip=str(Path(sockets) / "kernel"))
        start = time.perf_counter()
        where = {"metadata": {"path": str(folder)}}
        try:
            NotebookClient(notebook, km=manager, timeout=600, resources=where).execute()
        finally:
            seconds = time.perf_counter() - start
            manager.shutdown_kernel(now=True)
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=4, help="submissions per exercise (at least 2)")
    parser.add_argument("assignments", nargs="*", help="exercise folders (default: all seven)")
    args = parser.parse_args()
    assignments = args.assignments or sorted(p.name for p in (EXERCISES / "source").iterdir() if p.is_dir())
    print(f"{'exercise':18} {'plain run':>9} {'graded':>9} {'ratio':>6}")
    costs = []
    with tempfile.TemporaryDirectory(prefix="bench-grading-") as folder:
        work = Path(folder)
        for assignment in assignments:
            plain = plain_seconds(assignment)
            one = grading_seconds(assignment, 1, work)
            many = grading_seconds(assignment, args.students, work)
            each = (many - one) / (args.students - 1)
            costs.append(each)
            print(f"{assignment:18} {plain:8.1f}s {each:8.1f}s {each / plain:6.2f}")
    print(f"mean cost of one graded submission: {sum(costs) / len(costs):.1f} s (goal: 3 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
