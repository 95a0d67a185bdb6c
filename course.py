#!/usr/bin/env python3
"""Set up, open and test the setwidgets course with nothing but Python 3.11+.

    python3 course.py lab     # make .venv, install everything, open the course in JupyterLab
    python3 course.py test    # the same set-up, then the linter and the whole test suite
    python3 course.py bench   # the same set-up, then the benchmarks

The environment lives in ``.venv`` beside this file and is refreshed when
``pyproject.toml`` changes. The browser tests need Debian's Chromium; when it is
missing, ``test`` installs it with apt-get (as root, or through sudo).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / "python"
STAMP = VENV / ".setwidgets-installed"
CHROMIUM = "/usr/bin/chromium"
# JupyterLab's news toast covers the bottom right of the page (and a projected board).
LAB_OVERRIDES = {
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False}
}


def say(text: str) -> None:
    print(f"[course] {text}", flush=True)


def run(*cmd: str | Path, **kwargs) -> None:
    subprocess.run([str(c) for c in cmd], check=True, cwd=ROOT, **kwargs)


def ensure_venv() -> None:
    """Create .venv and install the package with its test extra, unless up to date."""
    if sys.version_info < (3, 11):  # noqa: UP036 - course.py may be started by an older python3
        sys.exit(f"setwidgets needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if PYTHON.exists() and STAMP.exists() and STAMP.read_text() == wanted:
        return
    if not PYTHON.exists():
        say(f"creating the environment in {VENV}")
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    say("installing setwidgets, JupyterLab, nbgrader and the test tools (a minute or two)")
    run(PYTHON, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    run(PYTHON, "-m", "pip", "install", "--quiet", "-e", ".[test]")
    settings = VENV / "share" / "jupyter" / "lab" / "settings"
    settings.mkdir(parents=True, exist_ok=True)
    (settings / "overrides.json").write_text(json.dumps(LAB_OVERRIDES, indent=2) + "\n")
    STAMP.write_text(wanted)


def ensure_chromium() -> None:
    """Install Debian's Chromium for the browser tests when it is missing."""
    if Path(CHROMIUM).exists():
        return
    prefix = [] if os.geteuid() == 0 else ["sudo"]
    if prefix and not shutil.which("sudo"):
        sys.exit("The browser tests need Debian's chromium: run 'apt-get install -y chromium' as root.")
    say("installing Debian's chromium for the browser tests")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run(*prefix, "apt-get", "update", "-qq", env=env)
    run(*prefix, "apt-get", "install", "-y", "-qq", "chromium", env=env)


def lab(args: list[str]) -> int:
    ensure_venv()
    cmd = [str(BIN / "jupyter"), "lab", "lessons/00_start_here.ipynb"]
    if os.geteuid() == 0:
        cmd.append("--allow-root")
    return subprocess.call(cmd + args, cwd=ROOT)


def test(args: list[str]) -> int:
    ensure_venv()
    ensure_chromium()
    say("ruff: lint and format check")
    checks = [
        [str(BIN / "ruff"), "check", "."],
        [str(BIN / "ruff"), "format", "--check", "."],
    ]
    for check in checks:
        if subprocess.call(check, cwd=ROOT) != 0:
            say("ruff found problems: 'ruff check --fix .' and 'ruff format .' mend most of them")
            return 1
    say("pytest: the whole suite, browser tests included")
    return subprocess.call([str(PYTHON), "-m", "pytest", *args], cwd=ROOT)


def bench(args: list[str]) -> int:
    ensure_venv()
    status = 0
    for script in sorted((ROOT / "benchmarks").glob("bench_*.py")):
        say(f"benchmark {script.name}")
        status |= subprocess.call([str(PYTHON), str(script), *args], cwd=ROOT)
    return status


COMMANDS = {"lab": lab, "test": test, "bench": bench}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(__doc__)
        return 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
