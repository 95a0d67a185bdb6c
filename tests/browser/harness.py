"""Drive a real JupyterLab (or Notebook 7, or Voila) in Debian's Chromium and look at canvas pixels.

The browser tests and ``benchmarks/bench_browser.py`` share this module::

    with start_lab(root_dir, work_dir) as lab, sync_playwright() as p:
        browser = launch_chromium(p)
        nb = NotebookPage(browser.new_page(), lab)
        nb.open("board.ipynb")
        nb.run_all()
        canvas = nb.canvas(".setw-board canvas")
        nb.wait_painted(canvas)
        nb.click_canvas(canvas, 40, 60)

Everything here talks to the page through Playwright's synchronous API. Canvas
positions are canvas pixels (the numbers a painter uses), not CSS pixels: the
page may stretch a canvas, so clicks are scaled from the canvas size to its box
on screen.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ports import free_port, free_ports  # noqa: F401 - the browser tests' one home for ports

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = ROOT / ".venv" / "bin"
ARTIFACTS = ROOT / "test-artifacts"
# Debian's chromium-headless-shell: Chromium's own engine (Blink, V8, Skia) without the browser's
# window, tabs and their web-UI renderer, as Playwright itself runs headless pages. Pages,
# canvases and the accessibility tree are the same; test_board's six tests took 27.7 CPU-s
# instead of the full browser's 37.3 (its headless mode still runs the browser's UI).
CHROMIUM = Path("/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
# The news toast covers the bottom right of the page and can swallow clicks. course.py writes
# an environment-wide override against it; the harness also writes it as a user setting of
# its own, so a fresh clone whose .venv lacks the override behaves the same.
# A slow kernel-spec fetch under load can make JupyterLab ask which kernel to start; the test
# notebooks always want their own (python3), so it is started without asking.
USER_SETTINGS = {
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/notebook-extension/tracker": {"autoStartDefaultKernel": True},
}

WHITE = (255, 255, 255)

# JavaScript run in the page. `ink` counts the pixels of a rectangle that are neither
# transparent nor close to the background colour; `digest` condenses a rectangle into one
# number, so "the pixels changed" is one comparison.
_JS_INK = """(el, [x, y, w, h, bg, tol]) => {
    const d = el.getContext('2d').getImageData(x, y, w, h).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
        if (d[i + 3] === 0) continue;
        if (Math.abs(d[i] - bg[0]) + Math.abs(d[i + 1] - bg[1]) + Math.abs(d[i + 2] - bg[2]) > tol) n++;
    }
    return n;
}"""
_JS_COUNT_COLOR = """(el, [x, y, w, h, c]) => {
    const d = el.getContext('2d').getImageData(x, y, w, h).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
        if (d[i] === c[0] && d[i + 1] === c[1] && d[i + 2] === c[2] && d[i + 3] === 255) n++;
    }
    return n;
}"""
_JS_MASK = """(el, [x, y, w, h, c, tol, near]) => {
    const d = el.getContext('2d').getImageData(x, y, w, h).data, rows = [];
    for (let j = 0; j < h; j++) {
        let row = '';
        for (let i = 0; i < w; i++) {
            const k = 4 * (j * w + i);
            const dist = Math.abs(d[k] - c[0]) + Math.abs(d[k + 1] - c[1]) + Math.abs(d[k + 2] - c[2]);
            row += d[k + 3] > 0 && (dist <= tol) === near ? '#' : '.';
        }
        rows.push(row);
    }
    return rows;
}"""
_JS_DIGEST = """(el, [x, y, w, h]) => {
    const d = el.getContext('2d').getImageData(x, y, w, h).data;
    let a = 1, b = 0;
    for (let i = 0; i < d.length; i++) { a = (a + d[i]) % 65521; b = (b + a) % 65521; }
    return b * 65536 + a;
}"""

# The page's JupyterLab (exposed as window.jupyterapp, see start_lab) says whether the current
# notebook's kernel is connected and idle; the status bar can say "Idle" before the connection
# is made, and cells run then are silently dropped.
# Arms a stopwatch: the next `event` on `trigger` starts it, and it stops at the first poll
# (every millisecond or so, between the page's other tasks) that sees the pixels of the
# rectangle differ from what they were when armed. The result lands in window.__setwTiming.
_JS_ARM_TIMING = """([trigger, canvas, event, rect]) => {
    const digest = DIGEST;
    const before = digest(canvas, rect);
    const timing = window.__setwTiming = {start: null, end: null};
    trigger.addEventListener(event, () => {
        timing.start = performance.now();
        const poll = () => {
            if (digest(canvas, rect) !== before) timing.end = performance.now();
            else setTimeout(poll, 1);
        };
        poll();
    }, {capture: true, once: true});
}"""
_JS_KERNEL_IDLE = """() => {
    const app = window.jupyterapp, widget = app && app.shell.currentWidget;
    const kernel = widget && widget.sessionContext && widget.sessionContext.session
        && widget.sessionContext.session.kernel;
    return Boolean(kernel) && kernel.connectionStatus === 'connected' && kernel.status === 'idle';
}"""
_JS_PROMPTS = (
    "() => [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')].map(p => p.textContent)"
)

# textContent, not innerText: Lab does not lay out cells scrolled out of view, and innerText is empty there.
_JS_ERRORS = """() => [...document.querySelectorAll(
    ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")]
    .map(e => e.textContent).filter(t => t.includes('Traceback') || t.includes('Error'))"""

_JS_ARM_TIMING = _JS_ARM_TIMING.replace("DIGEST", _JS_DIGEST)

# Open a notebook in the JupyterLab the page already shows and make it the current tab; every
# other tab is closed, unsaved (a file is written by its test, and its kernel is shut down
# through the server).
_JS_OPEN_HERE = """async (path) => {
    const app = window.jupyterapp;
    const widget = await app.commands.execute('docmanager:open', {path, factory: 'Notebook'});
    await widget.context.ready;
    app.shell.activateById(widget.id);
    for (const other of [...app.shell.widgets('main')]) {
        if (other === widget) continue;
        if (other.context) other.context.model.dirty = false;
        other.dispose();
    }
}"""
_JS_CLOSE_ALL = """() => {
    for (const widget of [...window.jupyterapp.shell.widgets('main')]) {
        if (widget.context) widget.context.model.dirty = false;
        widget.dispose();
    }
    // A dialog still open (a kernel's question, say) is not handed to the next test.
    return [...window.jupyterapp.shell.widgets('main')].length === 0 && !document.querySelector('.jp-Dialog');
}"""


class HarnessError(RuntimeError):
    """Something the browser tests need is missing or did not start."""


def rgb(color: str | Sequence[int]) -> tuple[int, int, int]:
    """A colour as an (r, g, b) tuple, from '#e0201b', '#fff' or a tuple."""
    if not isinstance(color, str):
        r, g, b = color[:3]
        return int(r), int(g), int(b)
    text = color.strip().lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    if len(text) != 6:
        raise ValueError(f"expected a colour like '#e0201b'; got {color!r}")
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def require_chromium() -> Path:
    """Return Chromium's path, or raise HarnessError saying how to install it."""
    if not CHROMIUM.exists():
        raise HarnessError(
            f"The browser tests need Debian's headless Chromium at {CHROMIUM}, which is missing. "
            "Install it with 'apt-get install -y chromium-headless-shell' (or run 'python3 course.py test', "
            "which installs it). Never use 'playwright install' here."
        )
    return CHROMIUM


def launch_chromium(playwright: Any) -> Any:
    """Start headless Chromium through a ``sync_playwright()`` object."""
    path = require_chromium()
    return playwright.chromium.launch(executable_path=str(path), headless=True, args=CHROMIUM_ARGS)


def write_notebook(path: Path, cells: Sequence[str]) -> Path:
    """Write a notebook of code cells (no outputs) that runs on the ``python3`` kernel."""
    nb = {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": None,
                "id": f"cell{i}",
                "metadata": {},
                "outputs": [],
                "source": source,
            }
            for i, source in enumerate(cells)
        ],
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(nb, indent=1) + "\n")
    return path


class Server:
    """A Jupyter server process (JupyterLab, Notebook 7 or Voila) in its own process group.

    Use it as a context manager: the process group is killed on exit, so kernels
    started by the server go too. The server's output goes to ``log_path``, and
    a server that dies or never answers raises HarnessError quoting that log.
    """

    def __init__(
        self,
        argv: list[str],
        base_url: str,
        status_path: str,
        env: dict[str, str],
        cwd: Path,
        log_path: Path,
        token: str = "",
    ) -> None:
        self.argv = argv
        self.base_url = base_url
        self.status_path = status_path
        self.env = env
        self.cwd = cwd
        self.log_path = log_path
        self.token = token
        self.process: subprocess.Popen | None = None

    def url(self, path: str) -> str:
        """The full address of ``path`` on this server."""
        return self.base_url + path.lstrip("/")

    def log(self) -> str:
        """The server's output so far."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def start(self, timeout: float = 60.0) -> Server:
        """Start the process and wait until ``status_path`` answers 200."""
        log = self.log_path.open("wb")
        # A new session makes the server a process-group leader: stop() kills it and its kernels at once.
        self.process = subprocess.Popen(
            self.argv,
            cwd=self.cwd,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise HarnessError(
                    f"{self.argv[0]} exited with code {self.process.returncode}:\n{self.log()}"
                )
            if self.get(self.status_path) is not None:
                return self
            time.sleep(0.25)
        self.stop()
        raise HarnessError(
            f"{self.argv[0]} did not answer {self.status_path} within {timeout} s:\n{self.log()}"
        )

    def get(self, path: str) -> bytes | None:
        """GET a path with the token; None when the server does not answer (yet)."""
        request = urllib.request.Request(self.url(path))
        if self.token:
            request.add_header("Authorization", f"token {self.token}")
        try:
            with urllib.request.urlopen(request, timeout=2) as response:
                return response.read()
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return None

    def api(self, method: str, path: str) -> Any:
        """Call the Jupyter REST API (JupyterLab only) and decode the JSON answer."""
        request = urllib.request.Request(self.url(path), method=method)
        request.add_header("Authorization", f"token {self.token}")
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
        return json.loads(body) if body else None

    def shutdown_kernels(self) -> None:
        """Stop every running kernel, so finished tests leave the CPU to the next one."""
        for kernel in self.api("GET", "api/kernels"):
            try:
                self.api("DELETE", f"api/kernels/{kernel['id']}")
            except urllib.error.HTTPError:
                pass  # it stopped on its own meanwhile

    def stop(self) -> None:
        """Stop the kernels, then terminate the server's process group, politely first.

        jupyter_client starts each kernel in a session of its own, so killing the server's
        group does not reach them: a server that is terminated shuts its kernels down, and
        JupyterLab's are also asked to stop through the API first, in case it must be killed.
        """
        if self.process is None or self.process.poll() is not None:
            return
        if self.token:
            try:
                self.shutdown_kernels()
            except (OSError, ValueError):
                pass  # the server is not answering; the signals below still stop it
        pgid = self.process.pid
        for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
            try:
                os.killpg(pgid, sig)
            except ProcessLookupError:
                return
            try:
                self.process.wait(wait)
            except subprocess.TimeoutExpired:
                continue
            break
        # Anything else the server started in its own group (a terminal, say) goes too.
        try:
            os.killpg(pgid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _jupyter_env(work_dir: Path) -> dict[str, str]:
    """Environment variables that keep a server away from the user's own Jupyter files."""
    settings = work_dir / "user-settings"
    for plugin, values in USER_SETTINGS.items():
        target = settings / f"{plugin}.jupyterlab-settings"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(values) + "\n")
    for name in ("config", "runtime", "data"):
        (work_dir / name).mkdir(exist_ok=True)
    env = dict(os.environ)
    env.update(
        JUPYTER_CONFIG_DIR=str(work_dir / "config"),
        JUPYTER_RUNTIME_DIR=str(work_dir / "runtime"),
        JUPYTER_DATA_DIR=str(work_dir / "data"),
        JUPYTERLAB_SETTINGS_DIR=str(settings),
        JUPYTERLAB_WORKSPACES_DIR=str(work_dir / "workspaces"),
        PYTHONUNBUFFERED="1",
        # jupyter-lsp asks npm for its global prefix, and npm logs that under ~/.npm otherwise.
        npm_config_cache=str(work_dir / "npm"),
    )
    # The kernels must import this checkout's setwidgets even if the venv was installed elsewhere.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return env


def start_lab(root_dir: Path, work_dir: Path, timeout: float = 60.0) -> Server:
    """Start JupyterLab from .venv on a free loopback port, serving ``root_dir``."""
    return _start_jupyter("lab", "LabApp", root_dir, work_dir, timeout)


def start_notebook(root_dir: Path, work_dir: Path, timeout: float = 60.0) -> Server:
    """Start Notebook 7 (``jupyter notebook``) from .venv on a free loopback port, serving ``root_dir``.

    The same token, settings and environment as :func:`start_lab`; a notebook opens at
    ``/notebooks/<name>``, and ``window.jupyterapp`` is exposed the same way.
    """
    return _start_jupyter("notebook", "JupyterNotebookApp", root_dir, work_dir, timeout)


def _start_jupyter(command: str, app: str, root_dir: Path, work_dir: Path, timeout: float) -> Server:
    port, token = free_port(), secrets.token_hex(16)
    env = _jupyter_env(work_dir)
    argv = [
        str(VENV_BIN / "jupyter"), command, "--no-browser", "--ip=127.0.0.1", f"--port={port}",
        "--ServerApp.port_retries=0",  # a taken port stops the server: it never drifts to another
        f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root_dir}",
        f"--{app}.workspaces_dir={work_dir / 'workspaces'}",
        f"--{app}.user_settings_dir={env['JUPYTERLAB_SETTINGS_DIR']}",
        # window.jupyterapp tells the harness when the notebook's kernel is really connected.
        f"--{app}.expose_app_in_browser=True",
    ]  # fmt: skip
    if os.geteuid() == 0:
        argv.append("--allow-root")
    server = Server(
        argv, f"http://127.0.0.1:{port}/", "api/status", env, root_dir, work_dir / f"{command}.log", token
    )
    return server.start(timeout)


# What `python3 course.py lab` needs from the checkout; grading leftovers in exercises/ stay out.
COURSE_FILES = ("course.py", "pyproject.toml", "nbgrader_config.py", "README.md", "LICENSE")
COURSE_FOLDERS = ("lessons", "exercises")
GRADING_LEFTOVERS = (
    "gradebook.db", "exchange", "submitted", "autograded", "feedback", "downloaded", "*.csv",
    ".ipynb_checkpoints",
)  # fmt: skip


def copy_course(dest: Path) -> Path:
    """Copy what ``course.py lab`` serves into ``dest``, sharing the checkout's .venv, and return ``dest``.

    Lab started by the copy's course.py serves the copy, so a test may open the Formgrader
    (which creates exercises/gradebook.db) without touching a teacher's own gradebook. The
    copy's .venv is a link to the checkout's: with the same pyproject.toml, course.py finds it
    installed and starts Lab at once. A .venv that is not set up for this pyproject.toml is an
    error here, because course.py would otherwise reinstall it from the copy.
    """
    spec = importlib.util.spec_from_file_location("_course_of_checkout", ROOT / "course.py")
    course = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(course)
    if "course" not in course._installed():
        raise HarnessError(
            f"{ROOT / '.venv'} is not set up for this pyproject.toml: run 'python3 course.py test' first"
        )
    dest.mkdir(parents=True)
    for name in COURSE_FILES:
        shutil.copy2(ROOT / name, dest / name)
    for name in COURSE_FOLDERS:
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns(*GRADING_LEFTOVERS))
    (dest / ".venv").symlink_to(ROOT / ".venv", target_is_directory=True)
    return dest


# Starts the command after it as a user's shell would: no signal blocked, SIGINT's default action
# (a test worker's own signal state must not reach course.py). exec keeps the process id, so a
# signal sent to the Server's process reaches course.py itself.
AS_FROM_A_SHELL = [
    sys.executable, "-c",
    "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, set()); "
    "signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])",
]  # fmt: skip


def course_lab_argv(repo: Path, port: int, token: str | None = None) -> list[str]:
    """``python3 course.py lab`` for ``repo`` on a loopback port, as a user would type it."""
    argv = [sys.executable, str(repo / "course.py"), "lab", "--no-browser", "--ip=127.0.0.1"]
    argv += [f"--port={port}", "--ServerApp.port_retries=0"]
    return argv + ([f"--IdentityProvider.token={token}"] if token else [])


def start_course_lab(repo: Path, work_dir: Path, timeout: float = 60.0, **env: str) -> Server:
    """Start JupyterLab through ``repo``'s own ``course.py lab`` (see :func:`copy_course`).

    Everything else, the folder served and the notebook opened included, is what course.py
    decides. ``env`` adds environment variables (``HOME=...``, say).
    """
    port, token = free_port(), secrets.token_hex(16)
    work_dir.mkdir(parents=True, exist_ok=True)
    environment = dict(_jupyter_env(work_dir), **env)
    environment.pop("NBGRADER_EXECUTION", None)
    argv = [*AS_FROM_A_SHELL, *course_lab_argv(repo, port, token)]
    server = Server(
        argv, f"http://127.0.0.1:{port}/", "api/status", environment,
        work_dir, work_dir / "course-lab.log", token,
    )  # fmt: skip
    return server.start(timeout)


def start_voila(notebook: Path, work_dir: Path, timeout: float = 60.0) -> Server:
    """Start Voila from .venv on a free loopback port, serving one notebook."""
    port = free_port()
    argv = [
        str(VENV_BIN / "voila"), str(notebook), "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
        "--Voila.port_retries=0",
    ]  # fmt: skip
    env, url = _jupyter_env(work_dir), f"http://127.0.0.1:{port}/"
    # Asking for the page itself would run the notebook each time; a static file says the server is up.
    server = Server(argv, url, "voila/static/voila.js", env, notebook.parent, work_dir / "voila.log")
    return server.start(timeout)


def start_formgrader(course: Path, work_dir: Path, timeout: float = 60.0) -> Server:
    """Start a Jupyter server with nbgrader's extensions in ``course``, so that its Formgrader reads
    that course's nbgrader_config.py; it answers once the Formgrader is loaded."""
    port, token = free_port(), secrets.token_hex(16)
    work_dir.mkdir(parents=True, exist_ok=True)
    env = _jupyter_env(work_dir)
    env.pop("NBGRADER_EXECUTION", None)
    argv = [
        str(VENV_BIN / "jupyter"), "server", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={course}",
    ]  # fmt: skip
    if os.geteuid() == 0:
        argv.append("--allow-root")
    server = Server(
        argv,
        f"http://127.0.0.1:{port}/",
        "formgrader/api/status",
        env,
        course,
        work_dir / "server.log",
        token,
    )
    return server.start(timeout)


def screenshot_path(name: str) -> Path:
    """Where a screenshot called ``name`` goes (test-artifacts/<name>.png)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / f"{name}.png"


def node_failed(node: Any) -> bool:
    """Whether a test failed in its set-up or its call, or stopped between the two.

    Reads the reports conftest's ``pytest_runtest_makereport`` keeps on the test (``rep_setup``,
    ``rep_call``); a test skipped in its set-up has not failed.
    """
    setup, call = (getattr(node, f"rep_{when}", None) for when in ("setup", "call"))
    if setup is not None and setup.failed:
        return True
    if call is None:
        return setup is not None and setup.passed
    return call.failed


def save_failure_shot(page: Any, path: Path) -> None:
    """Save ``page`` as ``path``; a page that cannot be shot only prints why."""
    try:
        page.screenshot(path=str(path))
    except Exception as error:  # a crashed page must not hide the failure itself
        print(f"could not save a screenshot of the failed page ({path.name}): {error}")


class NotebookPage:
    """One browser page showing a notebook in JupyterLab (or a Voila page).

    The methods wait for what they need and raise Playwright's TimeoutError
    (with what was awaited in the message) when it never comes.
    """

    def __init__(self, page: Any, server: Server) -> None:
        self.page = page
        self.server = server
        self.console: list[str] = []
        page.on("console", lambda msg: self.console.append(f"{msg.type}: {msg.text}"))
        page.on("pageerror", lambda err: self.console.append(f"pageerror: {err}"))

    # -- JupyterLab ----------------------------------------------------------------------------

    def open(self, name: str, timeout: float = 60.0) -> None:
        """Open ``name`` in a fresh JupyterLab layout and wait for its kernel to be idle."""
        self.open_page(f"lab/tree/{name}?reset", timeout)
        # The file browser only takes room from the notebook (and the screenshots).
        self.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")

    def open_here(self, name: str, timeout: float = 60.0) -> None:
        """Open ``name`` in the JupyterLab this page already shows, in place of every tab open.

        As a double-click in the file browser does; the page is not loaded again. Waits for an
        idle kernel as :meth:`open` does.
        """
        self.page.evaluate(_JS_OPEN_HERE, name)
        self._wait_ready(timeout)

    def close_tabs(self) -> bool:
        """Close every tab of the JupyterLab this page shows, unsaved; True when none is left."""
        return self.page.evaluate(_JS_CLOSE_ALL)

    def open_page(self, path: str, timeout: float = 60.0) -> None:
        """Open a notebook page of the server (Lab's or Notebook 7's) and wait for an idle kernel."""
        sep = "&" if "?" in path else "?"
        url = self.server.url(f"{path}{sep}token={self.server.token}")
        self.page.goto(url, wait_until="domcontentloaded")
        self._wait_ready(timeout)

    def _wait_ready(self, timeout: float) -> None:
        self.page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=timeout * 1000)
        # JupyterLab may still ask which kernel to start (USER_SETTINGS asks it not to): accept
        # its suggestion, the notebook's own python3.
        found = self.page.wait_for_function(
            f"""() => {{
                if (document.querySelector('.jp-Dialog .jp-mod-accept')) return 'dialog';
                return ({_JS_KERNEL_IDLE})() ? 'idle' : false;
            }}""",
            timeout=timeout * 1000,
        ).json_value()
        if found == "dialog":
            self.page.click(".jp-Dialog .jp-mod-accept")
            self.wait_kernel_idle(timeout)

    def wait_kernel_idle(self, timeout: float = 60.0) -> None:
        """Wait until the notebook's kernel status says Idle."""
        self.page.wait_for_function(_JS_KERNEL_IDLE, timeout=timeout * 1000)

    def run_all(self, timeout: float = 60.0) -> None:
        """Run every cell through Run > Run All Cells and wait for the kernel to finish.

        Raises HarnessError quoting the traceback when a cell raised.
        """
        # A cell that runs shows [*] and then its execution count.
        started = f"() => ({_JS_PROMPTS})().some(t => /\\[(\\*|\\d+)\\]/.test(t))"
        for attempt in range(2):
            self.page.click("li.lm-MenuBar-item:has-text('Run')")
            self.page.click("li.lm-Menu-item[data-command='runmenu:run-all']")
            try:
                self.page.wait_for_function(started, timeout=10_000)
                break
            except Exception:
                # A page too busy to answer within the wait may have started the cells all the
                # same: a second Run All would queue them again, and the first run's error would
                # abort the second's cells after they cleared the error's output.
                if self.page.evaluate(started):
                    break
                if attempt:
                    raise HarnessError(f"Run All Cells did not start any cell: {self.prompts()}") from None
        all_done = "p => p.length > 0 && p.every(t => /\\[\\d+\\]/.test(t))"
        # Run All stops at a cell that raised, so the rest never get a count: stop waiting then too.
        self.page.wait_for_function(
            f"() => ({_JS_ERRORS})().length > 0 || ({all_done})(({_JS_PROMPTS})())", timeout=timeout * 1000
        )
        self.wait_kernel_idle(timeout)
        tracebacks = self.page.evaluate(_JS_ERRORS)
        if tracebacks:
            raise HarnessError("A notebook cell raised:\n" + "\n".join(tracebacks))

    def prompts(self) -> list[str]:
        """The input prompts of the code cells, such as '[1]:' or '[ ]:'."""
        return self.page.evaluate(_JS_PROMPTS)

    def cell_output(self, index: int) -> str:
        """The visible text output of code cell ``index`` (0-based)."""
        return self.page.locator(".jp-CodeCell").nth(index).locator(".jp-OutputArea").inner_text()

    # -- any page ------------------------------------------------------------------------------

    def visit(self, path: str = "", timeout: float = 60.0) -> None:
        """Go to a page of the server (for Voila, "" is the rendered notebook)."""
        self.page.goto(self.server.url(path), wait_until="domcontentloaded", timeout=timeout * 1000)

    def canvas(self, selector: str = "canvas", nth: int = 0) -> Any:
        """A locator for the ``nth`` canvas matching ``selector``, once it is in the page."""
        locator = self.page.locator(selector).nth(nth)
        locator.wait_for(state="attached", timeout=60_000)
        return locator

    def canvas_size(self, canvas: Any) -> tuple[int, int]:
        """The canvas's own size in canvas pixels (not its size on screen)."""
        return tuple(canvas.evaluate("el => [el.width, el.height]"))

    def ink(
        self,
        canvas: Any,
        rect: Sequence[float] | None = None,
        background: Sequence[int] = WHITE,
        tolerance: int = 30,
    ) -> int:
        """How many pixels inside ``rect`` (x, y, w, h; default the whole canvas) are painted.

        A pixel counts when it is not transparent and differs from ``background``
        by more than ``tolerance`` (sum of the three channel differences).
        """
        x, y, w, h = self._rect(canvas, rect)
        return canvas.evaluate(_JS_INK, [x, y, w, h, list(background), tolerance])

    def digest(self, canvas: Any, rect: Sequence[float] | None = None) -> int:
        """A checksum of the pixels inside ``rect``: equal digests mean (almost surely) equal pixels."""
        return canvas.evaluate(_JS_DIGEST, list(self._rect(canvas, rect)))

    def pixel(self, canvas: Any, x: int, y: int) -> tuple[int, int, int, int]:
        """The RGBA colour of one canvas pixel."""
        return tuple(
            canvas.evaluate(
                "(el, [x, y]) => [...el.getContext('2d').getImageData(x, y, 1, 1).data]", [int(x), int(y)]
            )
        )

    def colors(self, canvas: Any, rect: Sequence[float] | None = None) -> dict[tuple[int, int, int], int]:
        """How often each opaque RGB colour occurs inside ``rect``."""
        x, y, w, h = self._rect(canvas, rect)
        flat = canvas.evaluate(
            """(el, [x, y, w, h]) => {
                const d = el.getContext('2d').getImageData(x, y, w, h).data, seen = {};
                for (let i = 0; i < d.length; i += 4) {
                    if (d[i + 3] < 255) continue;
                    const k = d[i] + ',' + d[i + 1] + ',' + d[i + 2];
                    seen[k] = (seen[k] || 0) + 1;
                }
                return seen;
            }""",
            [x, y, w, h],
        )
        return {tuple(int(v) for v in k.split(",")): n for k, n in flat.items()}

    def count_color(
        self, canvas: Any, color: str | Sequence[int], rect: Sequence[float] | None = None
    ) -> int:
        """How many opaque pixels inside ``rect`` have exactly this colour ('#1f6feb' or (r, g, b))."""
        return canvas.evaluate(_JS_COUNT_COLOR, [*self._rect(canvas, rect), list(rgb(color))])

    def color_mask(
        self,
        canvas: Any,
        color: str | Sequence[int],
        rect: Sequence[float] | None = None,
        tolerance: int = 60,
        near: bool = True,
    ) -> list[str]:
        """Rows of ``rect`` as strings: '#' where a pixel is within ``tolerance`` of ``color``, else '.'.

        The distance is the sum of the three channel differences. With ``near=False`` the
        mask is reversed: '#' marks pixels farther than ``tolerance`` from ``color`` (pass the
        background color to see everything inked on it).
        """
        return canvas.evaluate(_JS_MASK, [*self._rect(canvas, rect), list(rgb(color)), tolerance, near])

    def wait_color(
        self,
        canvas: Any,
        color: str | Sequence[int],
        rect: Sequence[float] | None = None,
        min_pixels: int = 1,
        timeout: float = 15.0,
    ) -> int:
        """Wait until ``rect`` holds at least ``min_pixels`` pixels of exactly ``color``; return the count.

        With ``min_pixels=0`` it waits until the colour is gone instead.
        """
        handle = canvas.element_handle()
        test = "n >= min" if min_pixels > 0 else "n === 0"
        self.page.wait_for_function(
            f"([el, args, min]) => {{ const n = ({_JS_COUNT_COLOR})(el, args); return {test}; }}",
            arg=[handle, [*self._rect(canvas, rect), list(rgb(color))], min_pixels],
            timeout=timeout * 1000,
        )
        return self.count_color(canvas, color, rect)

    def wait_painted(
        self,
        canvas: Any,
        rect: Sequence[float] | None = None,
        min_pixels: int = 50,
        background: Sequence[int] = WHITE,
        timeout: float = 30.0,
    ) -> int:
        """Wait until at least ``min_pixels`` pixels of ``rect`` are painted; return the count."""
        x, y, w, h = self._rect(canvas, rect)
        handle = canvas.element_handle()
        self.page.wait_for_function(
            f"([el, args, min]) => ({_JS_INK})(el, args) >= min",
            arg=[handle, [x, y, w, h, list(background), 30], min_pixels],
            timeout=timeout * 1000,
        )
        return self.ink(canvas, rect, background)

    def wait_changed(
        self, canvas: Any, before: int, rect: Sequence[float] | None = None, timeout: float = 15.0
    ) -> int:
        """Wait until the digest of ``rect`` differs from ``before``; return the new digest."""
        x, y, w, h = self._rect(canvas, rect)
        handle = canvas.element_handle()
        self.page.wait_for_function(
            f"([el, args, before]) => ({_JS_DIGEST})(el, args) !== before",
            arg=[handle, [x, y, w, h], before],
            timeout=timeout * 1000,
        )
        return self.digest(canvas, rect)

    def time_to_change(
        self,
        canvas: Any,
        action: Any,
        rect: Sequence[float] | None = None,
        trigger: Any = None,
        event: str = "mousedown",
        timeout: float = 15.0,
    ) -> float:
        """Milliseconds from an input to the first changed pixels of ``rect``, timed inside the page.

        ``action()`` performs the input (a click); the clock starts when ``trigger`` (default:
        the canvas) receives ``event`` and stops when a poll sees the rectangle's pixels change,
        so Playwright's own round trips are not counted. The polling resolution is a few ms.
        """
        trigger_handle = (trigger or canvas).element_handle()
        self.page.evaluate(
            _JS_ARM_TIMING, [trigger_handle, canvas.element_handle(), event, self._rect(canvas, rect)]
        )
        action()
        self.page.wait_for_function(
            "() => window.__setwTiming && window.__setwTiming.end !== null", timeout=timeout * 1000
        )
        timing = self.page.evaluate("() => window.__setwTiming")
        return timing["end"] - timing["start"]

    def screen_point(self, canvas: Any, x: float, y: float) -> tuple[float, float]:
        """Where canvas pixel (x, y) is on the page, aiming at the pixel's centre.

        Chromium delivers mouse events at whole CSS pixels while a canvas may sit at
        a fractional offset, so the point is rounded to a whole CSS pixel that still
        falls inside the wanted canvas pixel (always possible unless the canvas is
        shown smaller than its own size).
        """
        canvas.scroll_into_view_if_needed()
        box = canvas.bounding_box()
        width, height = self.canvas_size(canvas)
        return (_aim(box["x"], box["width"] / width, int(x)), _aim(box["y"], box["height"] / height, int(y)))

    def click_canvas(self, canvas: Any, x: float, y: float) -> None:
        """Click canvas pixel (x, y), after scrolling the canvas into view."""
        canvas.scroll_into_view_if_needed()
        # Scrolling in JupyterLab's windowed notebook can shift the layout for a frame or two.
        self.page.wait_for_timeout(50)
        px, py = self.screen_point(canvas, x, y)
        self.page.mouse.click(px, py)

    def click_rect_centre(self, canvas: Any, rect: Sequence[float]) -> None:
        """Click the middle of a rectangle (x, y, w, h) given in canvas pixels."""
        x, y, w, h = rect
        self.click_canvas(canvas, x + w / 2, y + h / 2)

    def text(self, selector: str) -> str:
        """The visible text of the first element matching ``selector``."""
        return self.page.locator(selector).first.inner_text()

    def wait_text(
        self, selector: str, contains: str = "", differs_from: str | None = None, timeout: float = 15.0
    ) -> str:
        """Wait until the text of ``selector`` contains ``contains`` (and differs from ``differs_from``)."""
        self.page.wait_for_function(
            """([sel, part, old]) => {
                const el = document.querySelector(sel);
                if (!el) return false;
                const t = el.innerText;
                return t.includes(part) && (old === null || t !== old);
            }""",
            arg=[selector, contains, differs_from],
            timeout=timeout * 1000,
        )
        return self.text(selector)

    def button(self, label: str, within: str = "body") -> Any:
        """A locator for the first ipywidgets button labelled exactly ``label`` inside ``within``."""
        return self.page.locator(within).first.get_by_role("button", name=label, exact=True).first

    def click_button(self, label: str, within: str = "body") -> None:
        """Click the ipywidgets button labelled exactly ``label`` (scrolled into view first)."""
        button = self.button(label, within)
        button.scroll_into_view_if_needed()
        button.click()

    def screenshot(self, name: str, selector: str | None = None) -> Path:
        """Save a PNG of the page (or of one element) as test-artifacts/<name>.png."""
        path = screenshot_path(name)
        if selector:
            self.page.locator(selector).first.screenshot(path=str(path))
        else:
            self.page.screenshot(path=str(path))
        return path

    @staticmethod
    def _rect(canvas: Any, rect: Sequence[float] | None) -> list[int]:
        if rect is None:
            w, h = canvas.evaluate("el => [el.width, el.height]")
            return [0, 0, w, h]
        x, y, w, h = rect
        return [int(x), int(y), max(1, int(w)), max(1, int(h))]


class LabTabs:
    """A JupyterLab page kept loaded between tests: the next test's notebook opens in it.

    Loading JupyterLab's page costs Chromium about 5 CPU seconds (its scripts start up) and the
    server about 1; opening a notebook in a page that already shows Lab costs a fraction of that.
    ``open(name)`` gives a :class:`NotebookPage` showing ``name`` (its kernel idle): in the page
    kept, if there is one free, else in a new browser context loaded as :meth:`NotebookPage.open`
    does. ``give_back(nb)`` closes its tabs (unsaved) and keeps it for the next ``open``; a page a
    test failed on is closed instead (``give_back(nb, reuse=False)``), so no test inherits it.

    The page kept is frozen while it waits (the DevTools protocol's page lifecycle state: no
    timer or task of the page runs): JupyterLab's polls would otherwise cost 3-20 ms of CPU a
    second, for as long as the test process runs after its last browser test.
    """

    def __init__(self, chromium: Any, server: Server, viewport: dict[str, int]) -> None:
        self.chromium, self.server, self.viewport = chromium, server, viewport
        self.free: NotebookPage | None = None

    @staticmethod
    def _lifecycle(nb: NotebookPage, state: str) -> None:
        cdp = nb.page.context.new_cdp_session(nb.page)
        try:
            cdp.send("Page.setWebLifecycleState", {"state": state})
        finally:
            cdp.detach()

    def open(self, name: str, timeout: float = 60.0) -> NotebookPage:
        """A page showing the notebook ``name`` (a path on the server), its kernel idle.

        A page that could not show it is saved as test-artifacts/FAILED-open-<name>.png, then closed.
        """
        nb, self.free = self.free, None
        kept = nb is not None
        if nb is None:
            context = self.chromium.new_context(viewport=self.viewport)
            page = context.new_page()
            page.set_default_timeout(30_000)
            nb = NotebookPage(page, self.server)
        shot = screenshot_path("FAILED-open-" + re.sub(r"[^\w.-]", "_", name))
        shot.unlink(missing_ok=True)  # a picture of an earlier failure would mislead
        try:
            if kept:
                nb.console.clear()
                self._lifecycle(nb, "active")
                nb.open_here(name, timeout)
            else:
                nb.open(name, timeout)
            return nb
        except Exception:
            save_failure_shot(nb.page, shot)
            nb.page.context.close()
            raise

    def give_back(self, nb: NotebookPage, reuse: bool = True) -> None:
        """Close the page's tabs and keep it for the next ``open``; or close it (``reuse=False``)."""
        closed = False
        if reuse and self.free is None:
            try:
                closed = nb.close_tabs()
                if closed:
                    self._lifecycle(nb, "frozen")
            except Exception:  # a page that cannot close its tabs is not given to another test
                closed = False
        if closed:
            self.free = nb
        else:
            nb.page.context.close()

    def close(self) -> None:
        """Close the page kept, if any."""
        if self.free is not None:
            self.free.page.context.close()
            self.free = None


def _aim(start: float, scale: float, index: int) -> float:
    """A page coordinate inside canvas pixel ``index``, whole if possible, near its centre."""
    centre = start + (index + 0.5) * scale
    for candidate in sorted(
        {round(centre), math.floor(centre), math.ceil(centre)}, key=lambda c: abs(c - centre)
    ):
        if index <= (candidate - start) / scale < index + 1:
            return float(candidate)
    return centre


def python_cells(*sources: str) -> list[str]:
    """Strip the common indentation of each source, so tests can write cells inline."""
    import textwrap

    return [textwrap.dedent(s).strip() + "\n" for s in sources]


def percentile(values: Iterable[float], q: float) -> float:
    """The q-th percentile (0 to 100) of the values, linear between ranks."""
    data = sorted(values)
    if not data:
        raise ValueError("percentile() needs at least one value")
    k = (len(data) - 1) * q / 100
    lo = int(k)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (k - lo)


if __name__ == "__main__":  # pragma: no cover - a quick manual check: python tests/browser/harness.py
    print(require_chromium(), file=sys.stderr)
