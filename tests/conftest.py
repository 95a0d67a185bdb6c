"""Fixtures shared by the whole suite: a clock moved by hand, and a home that stays clean.

Every ``JUPYTER_*`` folder (config, data, runtime, Lab settings and workspaces, and npm's cache)
points into one temporary folder for the whole run, before any test starts a
kernel, nbgrader or Lab. nbgrader's cache of submissions
(``$JUPYTER_DATA_DIR/nbgrader_cache``) and Lab's settings therefore never land in the
user's home directory. Subprocesses inherit these variables.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

# mutmut runs this suite from its copy in mutants/, once per mutant.
MUTATING = Path(__file__).resolve().parents[1].name == "mutants"


def examples(n: int) -> int:
    """How many examples a property test tries: ``n``, or a few under mutation testing.

    Each of thousands of mutants reruns the property tests; 25 examples keep the whole run
    near an hour and still reach the branches a mutant can change.
    """
    return min(n, 25) if MUTATING else n


# No deadline: Hypothesis's 200 ms per example is a wall-clock assertion, and wall clocks are
# not asserted in this suite (a loaded CI machine failed an example at 262 ms that took 10 ms
# when tried again); benchmarks/ holds the speed goals.
settings.register_profile("suite", deadline=None)
settings.register_profile("mutation", max_examples=examples(100), deadline=None)
settings.load_profile("mutation" if MUTATING else "suite")

_JUPYTER_HOME = Path(tempfile.mkdtemp(prefix="setwidgets-test-jupyter-"))
JUPYTER_DIRS = {
    "JUPYTER_CONFIG_DIR": _JUPYTER_HOME / "config",
    "JUPYTER_DATA_DIR": _JUPYTER_HOME / "data",
    "JUPYTER_RUNTIME_DIR": _JUPYTER_HOME / "runtime",
    "JUPYTERLAB_SETTINGS_DIR": _JUPYTER_HOME / "lab-settings",
    "JUPYTERLAB_WORKSPACES_DIR": _JUPYTER_HOME / "lab-workspaces",
    "IPYTHONDIR": _JUPYTER_HOME / "ipython",
    # JupyterLab's language-server extension asks npm for its prefix, and npm logs to its cache.
    "npm_config_cache": _JUPYTER_HOME / "npm",
}


def variants_named_in(path: Path) -> list[str]:
    """The variants' names that a module's code (not its docstrings) gives as strings.

    The tests of each module that must name no variant (their rules live in the variants'
    classes) read its code with this.
    """
    import ast

    from setwidgets.game import VARIANTS

    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and id(node) not in docstrings and node.value in VARIANTS
    ]


def _isolate_jupyter() -> None:
    for name, path in JUPYTER_DIRS.items():
        path.mkdir(parents=True, exist_ok=True)
        os.environ[name] = str(path)


# At import time, not in a fixture: collection already imports modules that read these.
_isolate_jupyter()


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_JUPYTER_HOME, ignore_errors=True)
    if _CPU_PROFILE:
        import cpu_profile

        cpu_profile.write(cpu_profile.FOLDER)


# -- files that share a session's work run in one pytest-xdist worker ----------------------------
# course.py runs the suite with --dist loadfile: each file goes whole to one worker. A cache kept
# for the session (the lessons' runs, conftest.run_lesson) lives in one worker's process, so
# files reading it from two workers would pay for it twice: such files are one work unit.
SAME_WORKER = {
    # Every lesson run once, in a kernel (a few minutes of CPU): test_lessons runs them all.
    "test_lessons.py": "lessons run once",
    "test_lesson_claims.py": "lessons run once",
    "test_unit4_figures.py": "lessons run once",
}


# A file whose tests share nothing but the session's JupyterLab and Chromium (which every worker
# starts anyway) and that is long enough to hold up the end of a run alone: each of its tests is a
# work unit of its own, so the workers share it. The course's notebooks take a quarter of the
# suite's CPU. Such units go out last (below), so a worker that takes one takes no other file's
# test after it: a module-scoped fixture of the file is built once per worker, not once per test.
SPREAD = {"test_course_notebooks.py"}


# The work units go out in the order the workers collected them (the scheduler below turns off
# pytest-xdist's own order, by number of tests, which put the few-test files that start a Lab,
# a hub or nbgrader last, where one of them alone held up the end of a run): first the files with
# a test that starts servers, kernels or nbgrader, then the rest, and the spread files' tests last,
# small units that fill in the end.
HEAVY = {"browser", "nbgrader", "hub", "notebooks"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return  # one process: the files' own order
    heavy = {item.path for item in items if HEAVY & {mark.name for mark in item.iter_markers()}}
    items.sort(key=lambda item: 2 if item.path.name in SPREAD else 0 if item.path in heavy else 1)


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: unknown under -p no:xdist
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """pytest-xdist's file by file scheduling, with the files of ``SAME_WORKER`` kept together
    and the tests of the files in ``SPREAD`` sent one by one."""
    if config.getvalue("dist") != "loadfile":
        return None  # pytest-xdist's own choice
    from xdist.scheduler import LoadFileScheduling

    class SharedWorkScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = super()._split_scope(nodeid)
            name = Path(path).name
            if name in SPREAD:
                return nodeid
            return SAME_WORKER.get(name, path)

    config.option.loadscopereorder = False  # the collection's order (pytest_collection_modifyitems)

    return SharedWorkScheduling(config, log)


# -- CPU and idle seconds by test file (SETWIDGETS_CPU_PROFILE=1, tests/cpu_profile.py) ----------
_CPU_PROFILE = os.environ.get("SETWIDGETS_CPU_PROFILE") == "1"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    if not _CPU_PROFILE:
        yield
        return
    import cpu_profile

    before = cpu_profile.start(item.nodeid)
    yield
    cpu_profile.stop(item.nodeid, before)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The fuzz tests' outcomes by module (tests/fuzzing.py), when any ran."""
    import fuzzing

    lines = fuzzing.report(Path(__file__).resolve().parents[1] / "test-artifacts")
    if lines:
        terminalreporter.section("fuzzing: outcomes of odd inputs by module")
        for line in lines:
            terminalreporter.write_line(line)


class Clock:
    """A clock the test moves by hand: ``clock()`` is the time, ``clock.advance(s)`` moves it."""

    def __init__(self, t: float = 100.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


class Handle:
    """A timer set on a :class:`HandLoop`."""

    def __init__(self, when, callback):
        self.when, self.callback, self.cancelled = when, callback, False

    def cancel(self):
        self.cancelled = True


class HandLoop:
    """An event loop whose time is the test's clock: ``run(seconds)`` fires what falls due, in order.

    What another thread hands over (``call_soon_threadsafe``) waits in ``soon``.
    """

    def __init__(self, clock):
        self.clock, self.handles, self.soon = clock, [], []
        self.closed = False

    def call_soon_threadsafe(self, callback):
        self.soon.append(callback)

    def call_later(self, delay, callback):
        self.handles.append(Handle(self.clock() + delay, callback))
        return self.handles[-1]

    def is_closed(self):
        return self.closed

    @property
    def waiting(self):
        return [h for h in self.handles if not h.cancelled]

    def run(self, seconds):
        end = self.clock() + seconds
        while due := [h for h in self.waiting if h.when <= end]:
            handle = min(due, key=lambda h: h.when)
            self.handles.remove(handle)
            self.clock.t = max(self.clock.t, handle.when)
            handle.callback()
        self.clock.t = end


@pytest.fixture
def loop(clock: Clock) -> HandLoop:
    """An event loop on the test's clock (a widget's timers, fired by hand)."""
    return HandLoop(clock)


@pytest.fixture
def not_in_nbgrader(monkeypatch: pytest.MonkeyPatch) -> None:
    """Widgets' timers run only outside nbgrader: the test is not inside it, whatever runs it."""
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)


@pytest.fixture
def registry() -> Iterator[dict]:
    """The registry of variants; variants defined in a test are forgotten after it."""
    from setwidgets.game import variants

    saved = dict(variants._REGISTRY)
    yield variants._REGISTRY
    variants._REGISTRY.clear()
    variants._REGISTRY.update(saved)


@pytest.fixture
def clock() -> Clock:
    """A fresh hand-moved clock at t = 100 s."""
    return Clock()


# -- lessons, run once per test session ----------------------------------------------------------

# A lesson's slowest cell simulates millions of deals; on a busy two-core machine it stays well under this.
LESSON_CELL_TIMEOUT = 120
_LESSON_RUNS: dict[Path, tuple[object, float]] = {}


def run_lesson(path: Path) -> tuple[object, float]:
    """Run a copy of a lesson in a fresh kernel, from its folder, like a student; give it and its seconds.

    A last cell prints the kernel's Python, so a test can check that the lesson ran on .venv.
    Each lesson runs once per session: the tests that read what it printed share that run.
    Raises nbclient's CellExecutionError, naming the cell, when any cell fails.
    """
    path = Path(path).resolve()
    if path not in _LESSON_RUNS:
        import time

        import nbformat
        from nbclient import NotebookClient

        nb = nbformat.read(path, as_version=4)
        nb.cells.append(nbformat.v4.new_code_cell("import sys\nprint(sys.executable)"))
        client = NotebookClient(
            nb,
            timeout=LESSON_CELL_TIMEOUT,
            kernel_name="python3",  # the kernel spec's "python" is this interpreter, the project's .venv
            resources={"metadata": {"path": str(path.parent)}},
            # The outputs are all in once the last cell has run: a kernel killed then (with its
            # process group, a lesson's own service too) spares the half second a polite shutdown
            # waits for it to exit.
            shutdown_kernel="immediate",
        )
        start = time.perf_counter()
        client.execute()
        _LESSON_RUNS[path] = (nb, time.perf_counter() - start)
    return _LESSON_RUNS[path]


# One Playwright driver and one Chromium for the whole session, for the browser tests and for any
# other test that drives a page (the hub's): a second synchronous driver inside the first's event
# loop is refused by Playwright.
@pytest.fixture(scope="session")
def playwright_session() -> Iterator[object]:
    """Playwright's synchronous driver, started once."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def chromium(playwright_session: object) -> Iterator[object]:
    """Headless Debian Chromium; a missing Chromium fails the browser tests with a clear message."""
    from browser.harness import HarnessError, launch_chromium

    problem = None
    try:
        browser = launch_chromium(playwright_session)
    except HarnessError as error:
        problem = str(error)
    if problem:  # failed outside the except block, so the report shows the message once
        pytest.fail(problem, pytrace=False)
    yield browser
    browser.close()
