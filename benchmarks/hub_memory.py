"""How much memory does one student's Jupyter server take, with a lesson and a live board open?

The answer sizes a class's server (deploy/README.md, "How many students fit"). One
student is measured the way a student works: a real Jupyter server started by
``python3 course.py lab`` from a copy of the course (the same JupyterLab, extensions and
kernel that a hub's single-user server runs from .venv), lesson 04 opened in Debian's
Chromium, every cell run, and its four boards painted in the page. Then, for the server
process and everything it started (the lesson's kernel above all):

- PSS, the proportional set size: private memory plus a fair share of the pages shared
  with other processes (Python's libraries, mapped once for all students). Summed over
  one student it is what that student costs while alone; it is the figure the sizing
  rule uses, because it errs on the safe side.
- USS, the unique set size (private pages only): what one more student adds once the
  shared pages are paid for.
- RSS, the resident set size, which counts every shared page in full for each process;
  and the peak RSS of each process (VmHWM), reached while the lesson's cells ran.

The browser runs on the student's own computer, so its memory is not counted.

Run it with ``python benchmarks/hub_memory.py`` (``--runs`` sets how many servers are
measured one after the other). With ``--record`` the figures are written to
benchmarks/hub_memory.json, which the deployment guide quotes and
tests/test_deploy_guide.py checks against the guide.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import platform
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULT = ROOT / "benchmarks" / "hub_memory.json"
LESSON = "lessons/04_playing_the_mini_deck.ipynb"
BOARDS = 4  # the lesson's Board widgets, each painted in the page before memory is read
OPEN_TIMEOUT = 180.0
SETTLE = 5.0  # seconds left for the server and kernel to settle after the last cell

# The sizing rule of deploy/README.md: one machine's memory, less what is not a student's.
MACHINE_GIB = 24
RESERVED_MIB = {
    "system and JupyterHub (hub and proxy)": 1024,
    "the teacher's server, with the Formgrader": 1024,
    "one grading kernel (the sandbox's limit)": 2048,
}
# Per-student figures are rounded up to this step, so that the rule is quoted as a round number.
ROUND_MIB = 10

MIB = 1024 * 1024


@dataclass
class Usage:
    """Memory of a group of processes, in MiB (smaps_rollup), summed."""

    processes: int
    pss: float
    uss: float
    rss: float
    peak_rss: float

    @classmethod
    def of(cls, pids: list[int]) -> Usage:
        totals = {"pss": 0.0, "uss": 0.0, "rss": 0.0, "peak_rss": 0.0}
        counted = 0
        for pid in pids:
            try:
                rollup = _fields(Path(f"/proc/{pid}/smaps_rollup").read_text())
                status = _fields(Path(f"/proc/{pid}/status").read_text())
            except (FileNotFoundError, ProcessLookupError):
                continue  # it ended meanwhile
            counted += 1
            totals["pss"] += rollup["Pss"]
            totals["uss"] += rollup["Private_Clean"] + rollup["Private_Dirty"]
            totals["rss"] += rollup["Rss"]
            totals["peak_rss"] += status["VmHWM"]
        return cls(counted, **{k: round(v / 1024, 1) for k, v in totals.items()})


def _fields(text: str) -> dict[str, int]:
    """The 'Name:   1234 kB' lines of a /proc file, as kB."""
    fields = {}
    for line in text.splitlines():
        name, _, rest = line.partition(":")
        parts = rest.split()
        if len(parts) == 2 and parts[1] == "kB":
            fields[name] = int(parts[0])
    return fields


def process_tree(pid: int) -> list[int]:
    """``pid`` and all its descendants (kernels keep their parent though they get a session of their own)."""
    import psutil

    root = psutil.Process(pid)
    return [root.pid] + [child.pid for child in root.children(recursive=True)]


def per_student_mib(pss_runs: list[float]) -> int:
    """The figure the guide quotes: the largest PSS measured, rounded up to ROUND_MIB."""
    return math.ceil(max(pss_runs) / ROUND_MIB) * ROUND_MIB


def students_that_fit(per_student: float, machine_gib: float = MACHINE_GIB) -> int:
    """How many students' servers fit in ``machine_gib`` once RESERVED_MIB is set aside.

    >>> students_that_fit(200, machine_gib=24)
    102
    """
    free = machine_gib * 1024 - sum(RESERVED_MIB.values())
    return int(free // per_student)


def course_module():
    """course.py of this checkout, imported for its ``lab_command`` (importing it starts nothing)."""
    spec = importlib.util.spec_from_file_location("_course", ROOT / "course.py")
    course = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(course)
    return course


def measure_once(run: int) -> tuple[Usage, Usage]:
    """Start one course server, open lesson 04 in Chromium, run it, and read the server's memory.

    The server is JupyterLab started with ``course.py``'s own command line (``lab_command``),
    serving a folder that holds a copy of lessons/, as a hub's server serves a student's home.
    It is started directly rather than through ``course.py lab``, which would first bring .venv
    up to date with pyproject.toml: a benchmark measures, it installs nothing.
    """
    sys.path.insert(0, str(ROOT / "tests"))
    from browser.harness import NotebookPage, Server, _jupyter_env, free_port, launch_chromium
    from playwright.sync_api import sync_playwright

    course = course_module()
    with tempfile.TemporaryDirectory(prefix="hub-memory-") as tmp:
        home, work = Path(tmp, "home"), Path(tmp, "work")
        skip = shutil.ignore_patterns(".ipynb_checkpoints")
        shutil.copytree(ROOT / "lessons", home / "lessons", ignore=skip)
        work.mkdir()
        port, token = free_port(), secrets.token_hex(16)
        env = dict(_jupyter_env(work), HOME=str(home))
        env["PATH"] = os.pathsep.join([str(course.BIN), env.get("PATH", "")])  # as course.py's start() does
        env.pop("NBGRADER_EXECUTION", None)
        # window.jupyterapp lets the harness see when the notebook's kernel is really connected.
        options = ["--no-browser", "--ip=127.0.0.1", f"--port={port}", f"--IdentityProvider.token={token}"]
        argv = course.lab_command([*options, "--LabApp.expose_app_in_browser=True"])
        server = Server(argv, f"http://127.0.0.1:{port}/", "api/status", env, home, work / "lab.log", token)
        with server.start(timeout=120) as lab, sync_playwright() as pw:
            browser = launch_chromium(pw)
            try:
                nb = NotebookPage(browser.new_page(viewport={"width": 1280, "height": 1000}), lab)
                started = time.monotonic()
                nb.open(LESSON, timeout=OPEN_TIMEOUT)
                nb.run_all(timeout=300)
                for nth in range(BOARDS):
                    board = nb.canvas(".setw-board canvas", nth=nth)
                    board.scroll_into_view_if_needed()
                    nb.wait_painted(board, min_pixels=5_000)
                ran = time.monotonic() - started
                time.sleep(SETTLE)
                pids = process_tree(lab.process.pid)
                usage, kernels = Usage.of(pids), Usage.of(pids[1:])
                print(
                    f"run {run}: {usage.processes} processes, PSS {usage.pss:.1f} MiB"
                    f" (the kernel {kernels.pss:.1f}), USS {usage.uss:.1f} MiB, RSS {usage.rss:.1f} MiB,"
                    f" peak RSS {usage.peak_rss:.1f} MiB (lesson opened and run in {ran:.0f} s)",
                    flush=True,
                )
                return usage, kernels
            except Exception:
                shot = Path(tempfile.gettempdir(), f"hub-memory-run{run}.png")
                nb.page.screenshot(path=str(shot))
                print(f"run {run} failed; the page is in {shot}; the server's log ends:\n{lab.log()[-3000:]}")
                raise
            finally:
                browser.close()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="servers measured, one after the other")
    parser.add_argument("--record", action="store_true", help=f"write the figures to {RESULT.name}")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    sys.path.insert(0, str(ROOT / "tests"))
    from browser.harness import HarnessError

    runs, kernels = [], []
    for run in range(1, args.runs + 1):
        try:
            usage, kernel = measure_once(run)
        except HarnessError as error:
            print(f"run {run} failed: {error}", file=sys.stderr)
            return 1
        runs.append(usage)
        kernels.append(kernel)
    pss = [u.pss for u in runs]
    per_student = per_student_mib(pss)
    fit = students_that_fit(per_student)
    print(
        f"one student's server with {Path(LESSON).name} run and its boards live:"
        f" PSS median {statistics.median(pss):.0f} MiB (max {max(pss):.0f};"
        f" the kernel alone {statistics.median(k.pss for k in kernels):.0f}),"
        f" USS median {statistics.median(u.uss for u in runs):.0f} MiB,"
        f" RSS median {statistics.median(u.rss for u in runs):.0f} MiB"
    )
    print(
        f"sizing: {per_student} MiB per student; {MACHINE_GIB} GiB less"
        f" {sum(RESERVED_MIB.values())} MiB reserved holds {fit} students"
    )
    if args.record:
        record = {
            "lesson": LESSON,
            "server": "python3 course.py lab (JupyterLab from .venv), lesson run in Chromium",
            "machine": f"{platform.system()} {platform.release()}, Python {platform.python_version()}",
            "date": time.strftime("%Y-%m-%d"),
            "runs": [asdict(u) for u in runs],
            "kernels": [asdict(k) for k in kernels],
            "per_student_mib": per_student,
            "machine_gib": MACHINE_GIB,
            "reserved_mib": RESERVED_MIB,
            "students_that_fit": fit,
        }
        RESULT.write_text(json.dumps(record, indent=1) + "\n")
        print(f"written to {RESULT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
