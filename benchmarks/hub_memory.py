"""How much memory does one student's Jupyter server take, with a lesson and a live board open?

The answer sizes a class's server (deploy/README.md, "How many students fit"). One
student is measured the way a student works: a real Jupyter server (by default JupyterLab
from .venv, started with ``course.py``'s own ``lab_command`` and serving a copy of
lessons/), lesson 04 opened in Debian's Chromium, every cell run, and its four boards
painted in the page. Then, for the server process and everything it started (the lesson's
kernel above all):

- PSS, the proportional set size: private memory plus a fair share of the pages shared
  with other processes (Python's libraries, mapped once for all students). Summed over
  one student it is what that student costs while alone; it is the figure the sizing
  rule uses, because it errs on the safe side.
- USS, the unique set size (private pages only): what one more student adds once the
  shared pages are paid for.
- RSS, the resident set size, which counts every shared page in full for each process;
  and the peak RSS of each process (VmHWM), reached while the lesson's cells ran.

The browser runs on the student's own computer, so its memory is not counted.

With ``--hub`` (as root) the server is the real thing: ``python3 course.py hub`` starts the
class's JupyterHub for a roster of two Linux users made for the run (a teacher and one
student, removed afterwards), the student logs in through the hub's login page, and the
student's own ``jupyterhub-singleuser`` (run as that user, from .venv-hub) serves
``~/setwidgets-lessons`` where the lesson is opened.

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
SERVERS = {
    "lab": "JupyterLab from .venv, started with course.py's lab_command; lesson run in Chromium",
    "hub": "a student's jupyterhub-singleuser on the hub of python3 course.py hub; lesson run in Chromium",
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


def run_with_live_boards(nb, path: str) -> float:
    """Open the lesson at ``path``, run every cell, wait until its boards are drawn; give the seconds."""
    started = time.monotonic()
    nb.open(path, timeout=OPEN_TIMEOUT)
    nb.run_all(timeout=300)
    for nth in range(BOARDS):
        board = nb.canvas(".setw-board canvas", nth=nth)
        board.scroll_into_view_if_needed()
        nb.wait_painted(board, min_pixels=5_000)
    return time.monotonic() - started


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


def measure_once(run: int) -> tuple[Usage, Usage, Usage | None]:
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
        options = ["--no-browser", "--ip=127.0.0.1", f"--port={port}", "--ServerApp.port_retries=0"]
        options.append(f"--IdentityProvider.token={token}")
        argv = course.lab_command([*options, "--LabApp.expose_app_in_browser=True"])
        server = Server(argv, f"http://127.0.0.1:{port}/", "api/status", env, home, work / "lab.log", token)
        with server.start(timeout=120) as lab, sync_playwright() as pw:
            browser = launch_chromium(pw)
            try:
                nb = NotebookPage(browser.new_page(viewport={"width": 1280, "height": 1000}), lab)
                ran = run_with_live_boards(nb, LESSON)
                time.sleep(SETTLE)
                pids = process_tree(lab.process.pid)
                usage, kernels = Usage.of(pids), Usage.of(pids[1:])
                print(
                    f"run {run}: {usage.processes} processes, PSS {usage.pss:.1f} MiB"
                    f" (the kernel {kernels.pss:.1f}), USS {usage.uss:.1f} MiB, RSS {usage.rss:.1f} MiB,"
                    f" peak RSS {usage.peak_rss:.1f} MiB (lesson opened and run in {ran:.0f} s)",
                    flush=True,
                )
                return usage, kernels, None
            except Exception:
                shot = Path(tempfile.gettempdir(), f"hub-memory-run{run}.png")
                nb.page.screenshot(path=str(shot))
                print(f"run {run} failed; the page is in {shot}; the server's log ends:\n{lab.log()[-3000:]}")
                raise
            finally:
                browser.close()


HUB_TEACHER, HUB_STUDENT = "swmem-teacher", "swmem-student"


class HubServer:
    """A user's server behind the hub, as the harness's NotebookPage expects a server (no token:
    the browser holds the hub's login cookie)."""

    token = ""

    def __init__(self, hub_url: str, user: str) -> None:
        self.base_url = f"{hub_url}/user/{user}/"

    def url(self, path: str) -> str:
        return self.base_url + path.lstrip("/")


def _user_server(user: str) -> int:
    """The pid of ``user``'s jupyterhub-singleuser."""
    import psutil

    for proc in psutil.process_iter(["username", "cmdline"]):
        cmdline = " ".join(proc.info["cmdline"] or [])
        if proc.info["username"] == user and "jupyterhub-singleuser" in cmdline:
            return proc.pid
    raise RuntimeError(f"no jupyterhub-singleuser runs as {user}")


def _end_processes_of(users: tuple[str, ...]) -> None:
    """Kill, by pid, what still runs as the run's own users (they exist only for this run)."""
    import psutil

    for proc in psutil.process_iter(["username"]):
        if proc.info["username"] in users:
            try:
                proc.kill()
            except psutil.NoSuchProcess:
                pass


def measure_hub_once(run: int) -> tuple[Usage, Usage, Usage | None]:
    """Start the class's hub, log a student in in Chromium, run lesson 04 in their server, measure it."""
    import pwd
    import signal
    import subprocess
    import urllib.request

    sys.path.insert(0, str(ROOT / "tests"))
    from browser.harness import NotebookPage, free_ports, launch_chromium
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="hub-memory-"))
    work.chmod(0o755)  # the exchange inside must be reachable by the users
    password = secrets.token_urlsafe(12)
    users = (HUB_TEACHER, HUB_STUDENT)
    for user in users:
        try:
            pwd.getpwnam(user)
        except KeyError:
            subprocess.run(["useradd", "--create-home", "--shell", "/bin/bash", user], check=True)
        subprocess.run(["chpasswd"], input=f"{user}:{password}\n", text=True, check=True)
    (work / "roster.csv").write_text(f"{HUB_TEACHER},teacher\n{HUB_STUDENT},student\n")
    url = f"http://127.0.0.1:{free_ports(4)}"
    env = dict(
        os.environ,
        SETWIDGETS_HUB_ROSTER=str(work / "roster.csv"),
        SETWIDGETS_HUB_URL=url,
        SETWIDGETS_HUB_STATE=str(work / "state"),
        SETWIDGETS_EXCHANGE=str(work / "exchange"),
    )
    # window.jupyterapp lets the harness see when the notebook's kernel is really connected.
    argv = [
        sys.executable,
        str(ROOT / "course.py"),
        "hub",
        "--Spawner.args=--LabApp.expose_app_in_browser=True",
    ]
    log = work / "hub.log"
    with log.open("w") as out:
        hub = subprocess.Popen(
            argv, cwd=work, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + 300
        while True:
            if hub.poll() is not None:
                raise RuntimeError(f"course.py hub exited with {hub.returncode}:\n{log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{url}/hub/api/", timeout=5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the hub did not answer:\n{log.read_text()[-3000:]}") from None
                time.sleep(0.5)
        with sync_playwright() as pw:
            browser = launch_chromium(pw)
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            try:
                page.goto(f"{url}/hub/login")
                page.fill("input[name=username]", HUB_STUDENT)
                page.fill("input[name=password]", password)
                page.click("input[type=submit], button[type=submit]")
                page.wait_for_url(f"**/user/{HUB_STUDENT}/lab**", timeout=180_000)
                nb = NotebookPage(page, HubServer(url, HUB_STUDENT))
                ran = run_with_live_boards(nb, f"setwidgets-lessons/{Path(LESSON).name}")
                time.sleep(SETTLE)
                pids = process_tree(_user_server(HUB_STUDENT))
                usage, kernels = Usage.of(pids), Usage.of(pids[1:])
                # The hub, its proxy and its classroom service: course.py became jupyterhub; the users'
                # servers are its children too, and are counted apart.
                hub_own = Usage.of([pid for pid in process_tree(hub.pid) if pid not in pids])
                print(
                    f"hub run {run}: {usage.processes} processes, PSS {usage.pss:.1f} MiB"
                    f" (the kernel {kernels.pss:.1f}), USS {usage.uss:.1f} MiB, RSS {usage.rss:.1f} MiB,"
                    f" peak RSS {usage.peak_rss:.1f} MiB (lesson opened and run in {ran:.0f} s);"
                    f" the hub and its proxy: PSS {hub_own.pss:.1f} MiB",
                    flush=True,
                )
                return usage, kernels, hub_own
            except Exception:
                shot = work.parent / f"hub-memory-hub-run{run}.png"
                page.screenshot(path=str(shot))
                tail = log.read_text()[-3000:]
                print(f"hub run {run} failed; the page is in {shot}; the hub's log ends:\n{tail}")
                raise
            finally:
                browser.close()
    finally:
        for sig, wait in ((signal.SIGTERM, 60), (signal.SIGKILL, 10)):
            try:
                os.killpg(hub.pid, sig)
                hub.wait(wait)
                break
            except ProcessLookupError:
                break
            except subprocess.TimeoutExpired:
                continue
        _end_processes_of(users)  # a server the hub did not stop would keep its user from being removed
        for user in users:
            subprocess.run(["userdel", "--remove", user], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="servers measured, one after the other")
    parser.add_argument("--record", action="store_true", help=f"write the figures to {RESULT.name}")
    parser.add_argument("--hub", action="store_true", help="measure a real hub's server (root only)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.hub and os.geteuid() != 0:
        parser.error("--hub starts the class's hub and makes Linux users: run it as root")
    measure = measure_hub_once if args.hub else measure_once

    sys.path.insert(0, str(ROOT / "tests"))
    from browser.harness import HarnessError

    runs, kernels, hubs = [], [], []
    for run in range(1, args.runs + 1):
        try:
            usage, kernel, hub_own = measure(run)
        except (HarnessError, RuntimeError) as error:
            print(f"run {run} failed: {error}", file=sys.stderr)
            return 1
        runs.append(usage)
        kernels.append(kernel)
        if hub_own is not None:
            hubs.append(hub_own)
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
            "server": SERVERS["hub" if args.hub else "lab"],
            "machine": f"{platform.system()} {platform.release()}, Python {platform.python_version()}",
            "date": time.strftime("%Y-%m-%d"),
            "runs": [asdict(u) for u in runs],
            "kernels": [asdict(k) for k in kernels],
            **({"hub_and_proxy": [asdict(h) for h in hubs]} if hubs else {}),
            "per_student_mib": per_student,
            "machine_gib": MACHINE_GIB,
            "reserved_mib": RESERVED_MIB,
            "students_that_fit": fit,
        }
        # The last record of the other kind of server stays beside it, for comparison.
        try:
            previous = json.loads(RESULT.read_text())
        except (OSError, ValueError):
            previous = {}
        if previous.get("server") not in (None, record["server"]):
            record["comparison"] = {k: v for k, v in previous.items() if k != "comparison"}
        elif "comparison" in previous:
            record["comparison"] = previous["comparison"]
        RESULT.write_text(json.dumps(record, indent=1) + "\n")
        print(f"written to {RESULT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
