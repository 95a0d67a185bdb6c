#!/usr/bin/env python3
"""Set up, open and test the setwidgets course with nothing but Python 3.11+.

usage: python3 course.py COMMAND [ARGUMENTS]

commands:
  lab      make .venv, install the course and open it in JupyterLab: the server
           serves this folder (lessons/ and exercises/) and opens
           lessons/00_start_here.ipynb; Ctrl-C stops the whole server.
           Further arguments go to 'jupyter lab' (for example --no-browser, --port=8889).
  test     the same set-up with the test tools, then ruff and the whole test suite
           (browser tests included). Further arguments go to pytest.
  bench    the same set-up, then the benchmarks in benchmarks/.
  mutate   mutation testing of the core with mutmut (not part of 'test'): prints the
           kill rate and the surviving mutants. Further arguments are mutant names or
           patterns, e.g. 'setwidgets.cards.*'.
  report   after 'nbgrader autograde' in exercises/: the submissions and cells a teacher
           should look at, and why (code that changes how cells run, the package's
           reference functions, files and processes, cells that stopped the kernel),
           and notebooks autograde could not grade (not JSON, say). What students wrote
           is printed with control characters and terminal escapes shown as escapes.
           Further arguments are assignment names, e.g. 01_magic_rule.
  autograde  'nbgrader autograde ASSIGNMENT' in exercises/ with a progress bar (notebooks
           done, time left); the whole log goes to exercises/class_insight/. Further
           arguments go to nbgrader.
  insight  after autograde: what the class gets wrong, for each assignment named (e.g.
           01_magic_rule): the misconceptions ranked by how many students show them, with
           the cards, the magic rule's sentence and the lesson to revisit, a heatmap of
           students by tests and each test's scores. Writes an HTML page and a CSV in
           exercises/class_insight/, the teacher's (names students) and an anonymous copy
           to project.
  hub      a whole class on this machine (as root): install JupyterHub and its proxy,
           then start the hub of deploy/jupyterhub_config.py for the Linux users in
           the roster (deploy/roster.csv, or SETWIDGETS_HUB_ROSTER). deploy/README.md
           is the guide. Further arguments go to 'jupyterhub'.
  classroom  the room service of a live class game on this machine (or a local network):
           every student plays one shared table from their own notebook. It prints
           where the teacher's token is kept; students need only the room's code.
           Further arguments go to the service (--port, default 8765; --ip 0.0.0.0
           for a network; --db; --keep-ended, --idle, --max-connections).
  site     the lessons as a read-only web site in site/: each lesson run top to bottom,
           written as HTML with its outputs and the boards as pictures (no server needed
           to read it; open site/index.html). Further arguments: --only LESSON...
  help     this text (also -h and --help).

The environment lives in .venv beside this file and is refreshed when pyproject.toml
changes; the first run takes a few minutes. The browser tests need Debian's Chromium and
the printables' tests its poppler-utils and a CJK font (fonts-wqy-microhei), and grading in
a sandbox bubblewrap; when they are missing, 'test' installs them with apt-get (as root, or
through sudo). 'lab' installs the font too when it runs as root.
Without a command, or with an unknown one, course.py prints this text and exits with 2.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import venv as venv_module
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / "python"
STAMP = VENV / ".setwidgets-installed"
DEPLOY = ROOT / "deploy"
# The hub's own environment, made by a Python every user can run (see hub_python).
HUB_VENV = ROOT / ".venv-hub"
# The browser tests' Chromium (tests/browser/harness.py says why the headless shell).
CHROMIUM = "/usr/bin/chromium-headless-shell"
# The notebook JupyterLab opens first; the server itself serves ROOT, so exercises/ is reachable
# and nbgrader finds the course (the top-level nbgrader_config.py points it at exercises/).
FIRST_NOTEBOOK = "lessons/00_start_here.ipynb"
# JupyterLab's news toast covers the bottom right of the page (and a projected board).
LAB_OVERRIDES = {
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False}
}


def say(text: str) -> None:
    print(f"[course] {text}", flush=True)


def run(*cmd: str | Path, **kwargs) -> None:
    subprocess.run([str(c) for c in cmd], check=True, cwd=ROOT, **kwargs)


def _extras_within(extras: set[str]) -> set[str]:
    """The extras and those they include (pyproject's test extra names ``setwidgets[course]``)."""
    import tomllib  # here, so an older python3 reaches the version check in ensure_venv

    optional = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    found, todo = set(), list(extras)
    while todo:
        extra = todo.pop()
        if extra not in found:
            found.add(extra)
            for requirement in optional.get(extra, []):
                if requirement.startswith("setwidgets["):
                    todo += requirement[len("setwidgets[") :].rstrip("]").split(",")
    return found


def _installed(venv: Path = VENV) -> set[str]:
    """The extras installed in ``venv`` for the current pyproject.toml, or an empty set when out of date."""
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    try:
        stamp = json.loads((venv / STAMP.name).read_text())
    except (OSError, ValueError):
        return set()
    python = venv / PYTHON.relative_to(VENV)
    if not python.exists() or not isinstance(stamp, dict) or stamp.get("pyproject") != wanted:
        return set()
    return _extras_within(set(stamp.get("extras", [])))


def no_ensurepip(python: str) -> str | None:
    """None when ``python`` can make a virtual environment with pip; else a sentence: what to install."""
    found = subprocess.run([python, "-c", "import ensurepip, venv"], capture_output=True).returncode == 0
    if found:
        return None
    version = subprocess.run(
        [python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], capture_output=True, text=True
    ).stdout.strip()
    return (
        f"course.py needs Python's venv and ensurepip modules, which {python} lacks: on Debian or Ubuntu, "
        f"install them with 'sudo apt-get install python3-venv' (or python{version}-venv), then run "
        "course.py again."
    )


def venv_problem(venv: Path, python: str) -> str | None:
    """Why ``venv`` cannot serve as it is (missing, without pip, made by another Python), or None."""
    interpreter = venv / PYTHON.relative_to(VENV)
    if not interpreter.exists():
        return "it does not exist" if not venv.exists() else "it has no Python"
    probe = "import sys, pip; print('%d.%d' % sys.version_info[:2])"
    try:
        inside = subprocess.run([interpreter, "-c", probe], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return "its Python does not start"
    if inside.returncode != 0:
        return "its Python does not start or has no pip (a venv made without python3-venv, say)"
    wanted = subprocess.run(
        [python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], capture_output=True, text=True
    ).stdout.strip()
    if inside.stdout.strip() != wanted:
        return f"it was made by Python {inside.stdout.strip()}, and course.py runs Python {wanted}"
    return None


def install(interpreter: Path, *requirements: str) -> None:
    """Install ``requirements`` (pip's arguments) into the environment of ``interpreter``.

    With uv (from PyPI, put in the environment by its pip) when it installs: the same
    packages from the same index in less than half pip's CPU time (38 CPU-s for the test
    tools instead of 94), compiled to bytecode as pip does. Else with pip, upgraded first.
    """
    uv = interpreter.parent / ("uv.exe" if os.name == "nt" else "uv")
    quiet = ["--quiet", "--disable-pip-version-check"]
    if subprocess.call([interpreter, "-m", "pip", "install", *quiet, "uv"], cwd=ROOT) == 0 and uv.exists():
        run(uv, "pip", "install", "--quiet", "--compile-bytecode", "--python", interpreter, *requirements)
        return
    say("uv did not install: pip installs instead (slower)")
    run(interpreter, "-m", "pip", "install", *quiet, "--upgrade", "pip")
    run(interpreter, "-m", "pip", "install", *quiet, *requirements)


def ensure_venv(*extras: str, venv: Path = VENV, python: str | None = None) -> None:
    """Create ``venv`` (.venv) and install the package with the given extras, unless already done.

    The stamp records the hash of pyproject.toml and the extras installed, so a changed
    pyproject.toml reinstalls, and an extra asked for the first time is added. ``python`` is
    the interpreter that makes a new environment (the one running course.py by default).
    """
    if sys.version_info < (3, 11):  # noqa: UP036 - course.py may be started by an older python3
        sys.exit(f"setwidgets needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    have = _installed(venv)
    if set(extras) <= have:
        return
    interpreter = venv / PYTHON.relative_to(VENV)
    problem = venv_problem(venv, python or sys.executable)
    if problem is not None:
        if venv.exists():
            say(f"making {venv} again: {problem}")
        else:
            say(f"creating the environment in {venv}")
        missing = no_ensurepip(python or sys.executable)
        if missing:
            sys.exit(missing)
        if python is None:
            venv_module.EnvBuilder(with_pip=True, clear=True).create(venv)
        else:
            run(python, "-m", "venv", "--clear", venv)
    wanted = sorted(have | set(extras))
    say(f"installing setwidgets with {', '.join(wanted)} (the first time takes a few minutes)")
    install(interpreter, "-e", f".[{','.join(wanted)}]")
    settings = venv / "share" / "jupyter" / "lab" / "settings"
    settings.mkdir(parents=True, exist_ok=True)
    (settings / "overrides.json").write_text(json.dumps(LAB_OVERRIDES, indent=2) + "\n")
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    (venv / STAMP.name).write_text(json.dumps({"pyproject": digest, "extras": wanted}) + "\n")


def _apt_install(package: str, purpose: str) -> None:
    """Install one Debian package with apt-get, as root or through sudo, saying why."""
    prefix = [] if os.geteuid() == 0 else ["sudo"]
    if prefix and not shutil.which("sudo"):
        sys.exit(f"{purpose} need Debian's {package}: run 'apt-get install -y {package}' as root.")
    say(f"installing Debian's {package} for {purpose[0].lower()}{purpose[1:]}")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run(*prefix, "apt-get", "update", "-qq", env=env)
    run(*prefix, "apt-get", "install", "-y", "-qq", package, env=env)


def ensure_chromium() -> None:
    """Install Debian's headless Chromium for the browser tests when it is missing."""
    if not Path(CHROMIUM).exists():
        _apt_install("chromium-headless-shell", "The browser tests")


def ensure_poppler() -> None:
    """Install Debian's poppler-utils (pdftoppm, pdftotext) for the printables' tests when missing."""
    if not (shutil.which("pdftoppm") and shutil.which("pdftotext")):
        _apt_install("poppler-utils", "The printables' tests")


# The PDFs embed a CJK TrueType font for names in Chinese, Japanese and Korean (Adobe's CID
# fonts, the fallback, show as empty boxes without Adobe's font packs). WenQuanYi Micro Hei has
# all three scripts and Latin letters in one file (Apache 2.0 or GPL 3 with the font exception;
# 1.6 MB to download, 5 MB installed); fonts-droid-fallback has no Hangul syllables.
# setwidgets.printables.lettering is the one home of the font's choice: this asks it.
CJK_FONT_PACKAGE = "fonts-wqy-microhei"
CJK_FONT_FOUND = (
    "from setwidgets.printables.lettering import cjk_fonts, font_for\n"
    "raise SystemExit(font_for('\\u674e\\u3055\\uae40') not in cjk_fonts())"  # Chinese, kana, Hangul
)


def ensure_cjk_font(purpose: str, *, only_as_root: bool = False) -> None:
    """Install Debian's fonts-wqy-microhei when no embeddable font has Chinese, Japanese and Korean."""
    if subprocess.call([str(PYTHON), "-c", CJK_FONT_FOUND], cwd=ROOT) == 0:
        return
    if not shutil.which("apt-get") or (only_as_root and os.geteuid() != 0):
        say(
            "names in Chinese, Japanese and Korean print in fonts the PDFs do not embed: "
            f"install Debian's {CJK_FONT_PACKAGE} (apt-get)"
        )
        return
    _apt_install(CJK_FONT_PACKAGE, purpose)


# Names in Devanagari, Tamil, Thai, Ethiopic and the other scripts print in the Noto font of
# their script (fonts-noto-core: SIL Open Font License, 12 MB to download, 43 MB installed);
# without it they print as a Latin reading. setwidgets.printables.scripts finds the fonts.
SCRIPT_FONT_PACKAGE = "fonts-noto-core"
SCRIPT_FONT_FOUND = (
    "from setwidgets.printables.scripts import font_for_char\n"
    # Devanagari ka, Tamil ka, Thai ko kai, Ethiopic ha.
    "raise SystemExit(any(font_for_char(c) is None for c in '\u0915\u0b95\u0e01\u1200'))"
)


def ensure_script_fonts(purpose: str, *, only_as_root: bool = False) -> None:
    """Install Debian's fonts-noto-core when no font is found for Devanagari, Tamil, Thai and Ethiopic."""
    if subprocess.call([str(PYTHON), "-c", SCRIPT_FONT_FOUND], cwd=ROOT) == 0:
        return
    if not shutil.which("apt-get") or (only_as_root and os.geteuid() != 0):
        say(
            "names in Devanagari, Tamil, Thai, Ethiopic... print as a Latin reading: "
            f"install Debian's {SCRIPT_FONT_PACKAGE} (apt-get) to print them in their own script"
        )
        return
    _apt_install(SCRIPT_FONT_PACKAGE, purpose)


def ensure_bubblewrap(*, only_as_root: bool = False) -> None:
    """Install Debian's bubblewrap (bwrap), the sandbox of the grading kernels, when missing.

    With ``only_as_root``, someone else only hears how to install it: grading refuses to run
    without it, and says so too.
    """
    if not sys.platform.startswith("linux") or shutil.which("bwrap"):
        return
    if only_as_root and (os.geteuid() != 0 or not shutil.which("apt-get")):
        say("grading (autograde, the Formgrader) needs Debian's bubblewrap: 'apt-get install bubblewrap'")
        return
    _apt_install("bubblewrap", "Grading in a sandbox")


def lab_command(args: list[str]) -> list[str]:
    """``course.py lab``'s command: the package's own ``setwidgets lab`` on the folder it runs in.

    One function, ``setwidgets.__main__.lab``, starts JupyterLab for both routes (a clone and
    pip): it serves this folder (lessons/ and exercises/, so the Formgrader finds the course),
    opens lessons/00_start_here.ipynb, runs as root with --allow-root, and stops on one Ctrl-C.
    start() runs it in ROOT, which already holds the lessons, so nothing is copied.
    """
    return [str(PYTHON), "-m", "setwidgets", "lab", ".", *args]


def start(cmd: list[str], venv: Path = VENV) -> int:
    """Run ``cmd`` in ROOT as this very process, so Ctrl-C and SIGTERM reach it directly.

    A child process would outlive a killed course.py and keep the port busy. On systems
    without exec (Windows), the child runs in the foreground instead: the console sends
    Ctrl-C to both, and course.py waits for the child to finish shutting down.
    """
    os.chdir(ROOT)
    # As if .venv were activated: nbgrader's gradebook runs the 'alembic' command found on PATH
    # (the Formgrader answers 500 without it), and a notebook's '!pip' should reach .venv.
    os.environ["PATH"] = os.pathsep.join([str(venv / BIN.name), os.environ.get("PATH", "")])
    os.environ["VIRTUAL_ENV"] = str(venv)
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "posix":
        os.execv(cmd[0], cmd)
    with subprocess.Popen(cmd) as child:
        while True:
            try:
                return child.wait()
            except KeyboardInterrupt:
                continue


def ensure_proxy() -> Path:
    """Install JupyterHub's proxy (configurable-http-proxy, from npm) into deploy/ when missing."""
    proxy = DEPLOY / "node_modules" / ".bin" / "configurable-http-proxy"
    if not proxy.exists():
        if not shutil.which("npm"):
            _apt_install("npm", "JupyterHub's proxy")
        node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
        if int(node.lstrip("v").split(".")[0] or 0) < 20:
            sys.exit(
                f"JupyterHub's proxy (configurable-http-proxy 5) needs Node.js 20 or newer, and this is "
                f"{node or 'unknown'}: install a newer Node.js (deploy/README.md says how), then try again."
            )
        say("installing configurable-http-proxy from npm into deploy/node_modules")
        run("npm", "ci", "--prefix", DEPLOY, "--no-audit", "--no-fund")
    return proxy


def hub(args: list[str]) -> int:
    # The checks run with this Python, before any environment exists: they use the stdlib only.
    sys.path.insert(0, str(ROOT))
    from setwidgets.hub import preflight

    refused = preflight.problem(ROOT)
    if refused:
        print(refused, file=sys.stderr)
        return 2
    try:
        python = preflight.hub_python()
    except preflight.PreflightError as error:
        sys.exit(str(error))
    ensure_venv("hub", venv=HUB_VENV, python=python)
    ensure_bubblewrap()
    ensure_proxy()
    say(f"starting JupyterHub with {DEPLOY / 'jupyterhub_config.py'}; Ctrl-C stops it and every server.")
    return start(
        [str(HUB_VENV / "bin" / "jupyterhub"), "-f", str(DEPLOY / "jupyterhub_config.py"), *args], HUB_VENV
    )


def lab(args: list[str]) -> int:
    ensure_venv("course")
    # Cheap (a 1.6 MB package, once) and the printables made in Lab print every name; as root
    # only, so that Lab never stops to ask for a password.
    ensure_cjk_font("Names in Chinese, Japanese and Korean on the printables", only_as_root=True)
    ensure_script_fonts("Names in Devanagari, Tamil, Thai... on the printables", only_as_root=True)
    # The Formgrader grades here, and grading refuses to run without its sandbox.
    ensure_bubblewrap(only_as_root=True)
    say(f"starting JupyterLab in {ROOT}; it opens {FIRST_NOTEBOOK}. Ctrl-C stops it.")
    return start(lab_command(args))


def classroom(args: list[str]) -> int:
    ensure_venv("course")
    say("starting the classroom service (docs/classroom.md); Ctrl-C stops it.")
    return start([str(PYTHON), "-m", "setwidgets.classroom", *args])


def test(args: list[str]) -> int:
    ensure_venv("test")
    ensure_chromium()
    ensure_poppler()
    ensure_cjk_font("The printables' tests")
    ensure_script_fonts("The printables' tests")
    ensure_bubblewrap()
    say("ruff: lint and format check")
    checks = [
        [str(BIN / "ruff"), "check", "."],
        [str(BIN / "ruff"), "format", "--check", "."],
    ]
    for check in checks:
        if subprocess.call(check, cwd=ROOT) != 0:
            say("ruff found problems: 'ruff check --fix .' and 'ruff format .' mend most of them")
            return 1
    # The package's bytecode, written once: the suite's kernels, nbgrader runs and sandboxes import
    # it hundreds of times, and where PYTHONDONTWRITEBYTECODE is set (as on CI's machines) each
    # compiled its modules again: an autograde of one notebook took 5.2 CPU-s instead of 4.3.
    subprocess.call([str(PYTHON), "-m", "compileall", "-q", "setwidgets"], cwd=ROOT)
    # The tests' own, with pytest's assertion rewriting done once (tests/write_bytecode.py): each
    # xdist worker would otherwise rewrite and compile every test module again, 10 CPU-s a worker.
    subprocess.call([str(PYTHON), str(ROOT / "tests" / "write_bytecode.py")], cwd=ROOT)
    say("pytest: the whole suite, browser tests included")
    return subprocess.call([str(PYTHON), "-m", "pytest", *parallel(args), *args], cwd=ROOT)


def parallel(args: list[str]) -> list[str]:
    """pytest-xdist's options that spread the suite's files over the machine's cores.

    A file's tests stay in one worker (``--dist loadfile``): its module fixtures, such as a
    graded course, are built once. One worker more than the cores: a worker waits on a page, a
    kernel or a limit for about a third of its time, and one core per worker left the cores idle
    for two fifths of a run. At most four workers: each may start its own JupyterLab and
    Chromium. None when the caller chose (``-n``, ``-p no:xdist``) or there is one core.
    """
    cores = os.cpu_count() or 1
    workers = min(cores + 1, 4)
    chosen = any(a == "-n" or a.startswith(("-n", "--numprocesses")) or "xdist" in a for a in args)
    if cores < 2 or chosen:
        return []
    return ["-n", str(workers), "--dist", "loadfile"]


def bench(args: list[str]) -> int:
    ensure_venv("test")  # the browser benchmark drives Lab through the test harness
    status = 0
    for script in sorted((ROOT / "benchmarks").glob("bench_*.py")):
        say(f"benchmark {script.name}")
        status |= subprocess.call([str(PYTHON), str(script), *args], cwd=ROOT)
    return status


def mutate(args: list[str]) -> int:
    ensure_venv("test", "mutation")
    return subprocess.call([str(PYTHON), "-m", "setwidgets.mutation", *args], cwd=ROOT)


def report(args: list[str]) -> int:
    ensure_venv("course")
    return subprocess.call([str(PYTHON), "-m", "setwidgets.grading.report", str(ROOT / "exercises"), *args])


def autograde(args: list[str]) -> int:
    ensure_venv("course")
    if not args:
        print("course.py autograde: name the assignment, e.g. 01_magic_rule", file=sys.stderr)
        return 2
    os.environ["PATH"] = os.pathsep.join([str(BIN), os.environ.get("PATH", "")])  # nbgrader runs alembic
    module = "setwidgets.grading.insight.progress"
    return subprocess.call([str(PYTHON), "-m", module, str(ROOT / "exercises"), *args], cwd=ROOT)


def insight(args: list[str]) -> int:
    ensure_venv("course")
    if not args:  # the module's own usage names its COURSE argument, which course.py gives
        print("course.py insight: name the assignment, e.g. 01_magic_rule", file=sys.stderr)
        return 2
    return subprocess.call([str(PYTHON), "-m", "setwidgets.grading.insight", str(ROOT / "exercises"), *args])


def site(args: list[str]) -> int:
    ensure_venv("course")
    say(f"building the lessons' read-only site in {ROOT / 'site'} (every lesson runs once: minutes)")
    picture = ["--picture", str(ROOT / "docs" / "board.png")]
    return subprocess.call(
        [str(PYTHON), "-m", "setwidgets.site", str(ROOT / "lessons"), str(ROOT / "site"), *picture, *args]
    )


COMMANDS = {
    "lab": lab,
    "test": test,
    "bench": bench,
    "mutate": mutate,
    "report": report,
    "autograde": autograde,
    "insight": insight,
    "hub": hub,
    "classroom": classroom,
    "site": site,
}
HELP = ("help", "-h", "--help")


def main(argv: list[str]) -> int:
    if argv and argv[0] in HELP:
        print(__doc__)
        return 0
    if not argv or argv[0] not in COMMANDS:
        if argv:
            print(f"course.py: unknown command {argv[0]!r}\n", file=sys.stderr)
        print(__doc__, file=sys.stderr)
        return 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
