"""CPU seconds and idle seconds by test file, for ``SETWIDGETS_CPU_PROFILE=1`` (tests/conftest.py).

The machine is shared, so wall times say little about what a file costs. Per file (its fixtures'
set-up and tear-down included) this counts:

- the CPU seconds of the test process, of its children once reaped (nbgrader, kernels, Lab) and
  of its descendants still alive (Chromium, a session's Lab);
- the idle seconds: a thread looks at the process tree 4 times a second and counts the times
  when nothing in it runs or waits for a CPU (sleeps, timeouts, waits on a page or a socket).

On a quiet machine a file that runs one thing at a time takes about CPU + idle seconds, whatever
the load was when it was measured. Each process writes ``test-artifacts/cpu-by-file-<worker>.tsv``.
Off by default: the walks through /proc cost a few ms per test and about 2 % of a CPU.
"""

from __future__ import annotations

import os
import resource
import threading
import time
from pathlib import Path

STEP = 0.25  # seconds between two looks at the process tree
FOLDER = Path(__file__).resolve().parents[1] / "test-artifacts"
BY_FILE: dict[str, list[float]] = {}  # file: [own CPU, others' CPU, wall, idle, tests]
_current: list[str] = []  # the file whose test runs now
_sampler: list[threading.Thread] = []
_sampler_cpu = [0.0]  # CPU seconds the sampling thread has used


def _tree() -> tuple[dict[int, list[int]], dict[int, list[str]]]:
    """Each process's children, and each process's ``stat`` fields after its name."""
    children: dict[int, list[int]] = {}
    stats: dict[int, list[str]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        stats[int(entry.name)] = fields
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    return children, stats


def _descendants(children: dict[int, list[int]]) -> list[int]:
    found, todo = [], list(children.get(os.getpid(), []))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def _live_descendants_cpu() -> float:
    """CPU seconds of this process's live descendants, their reaped children included."""
    tick = os.sysconf("SC_CLK_TCK")
    children, stats = _tree()
    # After the name: state (0), ppid (1), ... utime (11), stime (12), cutime (13), cstime (14).
    return (
        sum(sum(int(f) for f in stats[pid][11:15]) for pid in _descendants(children) if pid in stats) / tick
    )


def _cpu_now() -> tuple[float, float]:
    me = resource.getrusage(resource.RUSAGE_SELF)
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = me.ru_utime + me.ru_stime - _sampler_cpu[0]  # the sampler's own looks are not the test's
    return own, reaped.ru_utime + reaped.ru_stime + _live_descendants_cpu()


def _busy(sampler_thread: int) -> bool:
    """Whether a thread of this process (but the sampler) or a descendant runs or waits to run."""
    children, stats = _tree()
    with os.scandir(f"/proc/{os.getpid()}/task") as tasks:  # closed on the early return too
        for task in tasks:
            if int(task.name) == sampler_thread:
                continue
            try:
                with open(f"/proc/{os.getpid()}/task/{task.name}/stat") as stat:
                    if stat.read().rsplit(")", 1)[1].split()[0] in ("R", "D"):
                        return True
            except OSError:
                continue
    # A process's state is its main thread's; a descendant busy in another thread is rare enough.
    return any(stats[pid][0] in ("R", "D") for pid in _descendants(children) if pid in stats)


def _sample() -> None:
    me, last = threading.get_native_id(), time.monotonic()
    while True:
        time.sleep(STEP)
        now = time.monotonic()
        if _current and not _busy(me):
            BY_FILE[_current[0]][3] += now - last  # a look takes a while on a loaded machine
        last = now
        _sampler_cpu[0] = time.thread_time()


def start(nodeid: str) -> tuple[float, float, float]:
    """Before a test: note its file and what was spent so far."""
    name = nodeid.split("::")[0]
    if _current and _current[0] != name:
        write(FOLDER)  # after each file: a run stopped half-way still says what it measured
    BY_FILE.setdefault(name, [0.0, 0.0, 0.0, 0.0, 0])
    _current[:] = [name]
    if not _sampler:
        _sampler.append(threading.Thread(target=_sample, daemon=True, name="cpu-profile"))
        _sampler[0].start()
    return (*_cpu_now(), time.perf_counter())


def stop(nodeid: str, before: tuple[float, float, float]) -> None:
    """After a test: add what it spent to its file."""
    own, others = _cpu_now()
    row = BY_FILE[nodeid.split("::")[0]]
    row[0] += own - before[0]
    row[1] += others - before[1]
    row[2] += time.perf_counter() - before[2]
    row[4] += 1


def write(folder: Path) -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER", f"main-{os.getpid()}")
    folder.mkdir(exist_ok=True)
    lines = ["file\ttests\tcpu_pytest_s\tcpu_children_s\tcpu_total_s\tidle_s\twall_s"]
    for name, (own, others, wall, idle, count) in sorted(
        BY_FILE.items(), key=lambda kv: -kv[1][0] - kv[1][1]
    ):
        lines.append(f"{name}\t{count}\t{own:.1f}\t{others:.1f}\t{own + others:.1f}\t{idle:.1f}\t{wall:.1f}")
    (folder / f"cpu-by-file-{worker}.tsv").write_text("\n".join(lines) + "\n")
