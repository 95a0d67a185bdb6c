"""course.py, the command a student, a teacher and CI start from: its help, and the JupyterLab it opens.

The Lab tests start ``python3 course.py lab`` itself, in a copy of the course that shares
this checkout's .venv (``harness.copy_course``), and look at what a user gets: the whole
course served, lesson 00 opened, a working Formgrader, and a server that one Ctrl-C stops
with nothing left running.
"""

from __future__ import annotations

import http.client
import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from browser.harness import copy_course, course_lab_argv, free_port, start_course_lab
from test_nbgrader import wait_for_formgrader

from setwidgets import __main__ as setwidgets_main
from setwidgets import mutation

ROOT = Path(__file__).resolve().parents[1]
COURSE = ROOT / "course.py"
FIRST = "lessons/00_start_here.ipynb"
ASSIGNMENTS = {path.name for path in (ROOT / "exercises" / "source").iterdir() if path.is_dir()}


def course_py(*args: str) -> subprocess.CompletedProcess:
    # None of these commands gets as far as setting up .venv, so they are quick.
    return subprocess.run(
        [sys.executable, str(COURSE), *args], capture_output=True, text=True, cwd=ROOT, timeout=60
    )


def load_course():
    spec = importlib.util.spec_from_file_location("course_under_test", COURSE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- the environment ------------------------------------------------------------------------------


def test_a_python_without_ensurepip_gets_one_sentence_naming_the_package_to_install(tmp_path):
    # Debian's python3 without python3-venv: ensurepip cannot be imported.
    (tmp_path / "ensurepip.py").write_text("raise ImportError('No module named ensurepip')\n")
    fake = tmp_path / "python3"
    fake.write_text(f'#!/bin/sh\nPYTHONPATH={tmp_path} exec {sys.executable} "$@"\n')
    fake.chmod(0o755)
    message = load_course().no_ensurepip(str(fake))
    assert "sudo apt-get install python3-venv" in message and str(fake) in message
    assert load_course().no_ensurepip(sys.executable) is None


def test_a_venv_without_pip_or_from_another_python_is_made_again_not_used(tmp_path):
    course = load_course()
    assert course.venv_problem(tmp_path / "none", sys.executable) == "it does not exist"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "bare")], check=True)
    assert "no pip" in course.venv_problem(tmp_path / "bare", sys.executable)
    assert course.venv_problem(ROOT / ".venv", sys.executable) is None
    other = another_python()
    if other is not None:
        version = subprocess.run(
            [other, "-c", "import sys; print(sys.version_info[1])"], capture_output=True, text=True
        )
        said = course.venv_problem(ROOT / ".venv", other)
        assert said == f"it was made by Python 3.11, and course.py runs Python 3.{version.stdout.strip()}"


@pytest.mark.parametrize("uv_installs", [True, False], ids=["with uv", "uv missing: pip"])
def test_the_package_is_installed_with_uv_and_with_pip_when_uv_does_not_install(
    tmp_path, monkeypatch, capsys, uv_installs
):
    course = load_course()
    python = tmp_path / "venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    asked, ran = [], []

    def pip_call(cmd, **kwargs):  # the venv's pip, asked for uv
        asked.append([str(c) for c in cmd])
        if uv_installs:
            (python.parent / "uv").write_text("")
        return 0 if uv_installs else 1

    monkeypatch.setattr(course.subprocess, "call", pip_call)
    monkeypatch.setattr(course, "run", lambda *cmd, **kwargs: ran.append([str(c) for c in cmd]))
    course.install(python, "-e", ".[test]")

    assert asked == [[str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "uv"]]
    if uv_installs:
        uv = str(python.parent / "uv")
        assert ran == [
            [uv, "pip", "install", "--quiet", "--compile-bytecode", "--python", str(python), "-e", ".[test]"]
        ]
        assert capsys.readouterr().out == ""
    else:
        pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        assert ran == [[*pip, "--upgrade", "pip"], [*pip, "-e", ".[test]"]]
        assert "pip installs instead" in capsys.readouterr().out


def another_python() -> str | None:
    """A Python 3.12 or 3.13 that runs (pyenv's shims name versions that are not active)."""
    home = Path.home() / ".pyenv" / "versions"
    candidates = [
        shutil.which("python3.12"),
        shutil.which("python3.13"),
        *map(str, home.glob("3.1[23]*/bin/python3")),
    ]
    for candidate in filter(None, candidates):
        if subprocess.run([candidate, "-c", "pass"], capture_output=True).returncode == 0:
            return candidate
    return None


def test_the_cjk_font_is_asked_of_the_printables_and_installed_only_when_missing(
    tmp_path, monkeypatch, capsys
):
    from setwidgets.printables.lettering import cjk_fonts, font_for

    course = load_course()
    # The check course.py runs in .venv is the printables' own choice of font.
    found = subprocess.call([sys.executable, "-c", course.CJK_FONT_FOUND], cwd=ROOT) == 0
    assert found == (font_for("\u674e\u3055\uae40") in cjk_fonts())
    installed = []
    monkeypatch.setattr(course, "_apt_install", lambda package, purpose: installed.append((package, purpose)))
    for status, which, root, only_as_root in [
        (0, True, True, False),
        (1, True, False, True),
        (1, False, True, False),
    ]:
        fake = tmp_path / "python"
        fake.write_text(f"#!/bin/sh\nexit {status}\n")
        fake.chmod(0o755)
        monkeypatch.setattr(course, "PYTHON", fake)
        monkeypatch.setattr(
            course.shutil, "which", lambda name, which=which: "/usr/bin/apt-get" if which else None
        )
        monkeypatch.setattr(course.os, "geteuid", lambda root=root: 0 if root else 1000)
        course.ensure_cjk_font("The printables' tests", only_as_root=only_as_root)
    assert installed == [], "found, or not root for lab, or no apt-get: nothing is installed"
    assert capsys.readouterr().out.count("install Debian's fonts-wqy-microhei (apt-get)") == 2
    monkeypatch.setattr(course.shutil, "which", lambda name: "/usr/bin/apt-get")
    course.ensure_cjk_font("The printables' tests")  # missing, apt-get there: installed
    assert installed == [("fonts-wqy-microhei", "The printables' tests")]


def test_the_scripts_noto_fonts_are_asked_of_the_printables_and_installed_only_when_missing(
    tmp_path, monkeypatch, capsys
):
    from setwidgets.printables.scripts import font_for_char

    course = load_course()
    found = subprocess.call([sys.executable, "-c", course.SCRIPT_FONT_FOUND], cwd=ROOT) == 0
    assert found == all(font_for_char(c) for c in "\u0915\u0b95\u0e01\u1200")
    installed = []
    monkeypatch.setattr(course, "_apt_install", lambda package, purpose: installed.append((package, purpose)))
    fake = tmp_path / "python"
    fake.write_text("#!/bin/sh\nexit 1\n")  # no font found
    fake.chmod(0o755)
    monkeypatch.setattr(course, "PYTHON", fake)
    monkeypatch.setattr(course.shutil, "which", lambda name: "/usr/bin/apt-get")
    monkeypatch.setattr(course.os, "geteuid", lambda: 1000)
    course.ensure_script_fonts("Names on the printables", only_as_root=True)  # lab, not root: told
    assert installed == [] and "install Debian's fonts-noto-core (apt-get)" in capsys.readouterr().out
    course.ensure_script_fonts("The printables' tests")
    assert installed == [("fonts-noto-core", "The printables' tests")]


# -- the help ------------------------------------------------------------------------------------


@pytest.mark.parametrize("flag", ["--help", "-h", "help"])
def test_help_lists_every_command_and_exits_0(flag):
    result = course_py(flag)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == load_course().__doc__.strip()
    assert "usage: python3 course.py COMMAND" in result.stdout
    assert result.stderr == ""


def test_the_help_describes_exactly_the_commands_course_py_runs():
    course = load_course()
    described = re.findall(r"^  ([a-z]+) ", course.__doc__, re.MULTILINE)
    assert described == [*course.COMMANDS, "help"]


def test_an_unknown_command_names_it_prints_the_help_on_stderr_and_exits_2():
    result = course_py("serve", "--now")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("course.py: unknown command 'serve'")
    assert "usage: python3 course.py COMMAND" in result.stderr


def test_no_command_prints_the_help_on_stderr_and_exits_2():
    result = course_py()
    assert result.returncode == 2
    assert result.stdout == ""
    assert "usage: python3 course.py COMMAND" in result.stderr
    assert "unknown command" not in result.stderr


# -- the summary of `mutate` -------------------------------------------------------------------------


def test_the_mutation_summary_counts_kills_over_the_mutants_that_ran():
    results = "\n".join(
        [
            "    setwidgets.cards.x_parse__mutmut_1: killed",
            "    setwidgets.cards.x_parse__mutmut_2: survived",
            "    setwidgets.cards.x_parse__mutmut_3: timeout",
            "    setwidgets.cards.x_parse__mutmut_4: not checked",
            "    setwidgets.cards.x_parse__mutmut_5: no tests",
            "    setwidgets.cards.x_parse__mutmut_6: segfault",
            "    setwidgets.rules.x_is_set__mutmut_1: survived",
        ]
    )
    killed, tested, survivors = mutation.summary(results, ["setwidgets.cards.*"])
    assert (killed, tested) == (3, 5), "timeouts and crashes are kills; unrun mutants count neither way"
    assert survivors == [
        ("setwidgets.cards.x_parse__mutmut_2", "survived"),
        ("setwidgets.cards.x_parse__mutmut_5", "no tests"),
    ]
    assert mutation.summary(results, [])[1] == 6, "no pattern: every mutant that ran"


def test_the_mutation_summary_groups_the_mutants_by_module():
    results = "\n".join(
        [
            "    setwidgets.cards.x_parse__mutmut_1: killed",
            "    setwidgets.cards.xǁCardǁ__str____mutmut_2: survived",
            "    setwidgets.game.state.xǁStateǁsend_back__mutmut_1: timeout",
            "    setwidgets.game.state.x_deal__mutmut_4: not checked",
            "    setwidgets.sim.x_play__mutmut_1: killed",
            "    setwidgets.sim.tally.x_wilson__mutmut_3: no tests",
        ]
    )
    assert mutation.per_module(results, []) == {
        "setwidgets.cards": (1, 2),
        "setwidgets.game.state": (1, 1),
        "setwidgets.sim": (1, 1),
        "setwidgets.sim.tally": (0, 1),
    }, "a package's __init__.py is the package; unrun mutants count neither way"
    assert mutation.per_module(results, ["setwidgets.sim.*"]) == {
        "setwidgets.sim": (1, 1),
        "setwidgets.sim.tally": (0, 1),
    }
    assert mutation.table({"setwidgets.sim": (9, 10), "setwidgets.sim.tally": (8, 9)}) == [
        "module                killed  tested    rate  goal 90%",
        "setwidgets.sim             9      10   90.0%  met",
        "setwidgets.sim.tally       8       9   88.9%  NOT MET",
    ]


def test_mutate_runs_one_mutant_at_a_time_when_told_to(tmp_path, monkeypatch, capfd):
    mutmut = tmp_path / "mutmut"
    mutmut.write_text('#!/bin/sh\nif [ "$1" = run ]; then echo "mutmut $*"; fi\n')
    mutmut.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    monkeypatch.chdir(tmp_path)
    assert mutation.main(["--max-children", "1", "setwidgets.caps.*"]) == 1, "no mutant was run"
    out = capfd.readouterr().out.splitlines()
    assert out[0].startswith("[course] mutmut: mutating the core in mutants/ (1 at a time;")
    assert out[1] == "mutmut run --max-children 1 setwidgets.caps.*"


def test_mutate_runs_mutmut_then_prints_the_survivors_and_the_kill_rate(tmp_path, monkeypatch, capfd):
    """course.py mutate hands over to setwidgets.mutation in .venv, which runs the mutmut beside it."""
    mutmut = tmp_path / "mutmut"
    mutmut.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = run ]; then echo "mutmut run $*"; exit 0; fi\n'
        'printf "    setwidgets.cards.x_a__mutmut_1: killed\\n    setwidgets.cards.x_a__mutmut_2: survived\\n'
        '    setwidgets.rules.x_b__mutmut_1: not checked\\n"\n'
    )
    mutmut.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    monkeypatch.chdir(tmp_path)
    assert mutation.main(["--debug", "setwidgets.*"]) == 0
    out = capfd.readouterr().out.splitlines()
    assert out[0].startswith("[course] mutmut: mutating the core in mutants/ (")
    assert out[1].startswith("mutmut run run --max-children ") and out[1].endswith(" --debug setwidgets.*")
    assert out[2:] == [
        "  survivor setwidgets.cards.x_a__mutmut_2: survived   "
        "(see: .venv/bin/mutmut show setwidgets.cards.x_a__mutmut_2)",
        "[course] kill rate per module (goal 90%):",
        "  module            killed  tested    rate  goal 90%",
        "  setwidgets.cards       1       2   50.0%  NOT MET",
        "[course] kill rate 50.0%: 1 of 2 mutants killed, 1 survived",
    ]
    course = Path(load_course().__file__).read_text()
    assert '"-m", "setwidgets.mutation"' in course, "course.py runs the package's module in .venv"


# -- the command line of `lab` ---------------------------------------------------------------------


def test_course_py_lab_is_the_packages_setwidgets_lab_on_the_clone_itself():
    course = load_course()
    cmd = course.lab_command(["--port=9999"])
    # One function starts Lab for both routes: the package's, run by .venv's Python in ROOT.
    assert cmd == [str(course.PYTHON), "-m", "setwidgets", "lab", ".", "--port=9999"]
    assert (ROOT / FIRST).is_file(), "the clone holds lesson 00, so setwidgets lab copies nothing into it"


@pytest.mark.parametrize("uid", [0, 1000])
def test_lab_serves_the_top_opens_lesson_00_stops_on_one_ctrl_c_and_runs_as_root(monkeypatch, tmp_path, uid):
    monkeypatch.setattr(os, "geteuid", lambda: uid)
    cmd = setwidgets_main.lab_argv(tmp_path, ["--port=9999"], python="/venv/bin/python")
    assert cmd[:3] == ["/venv/bin/python", "-m", "setwidgets._lab"]  # JupyterLab, SIGINT always stopping it
    assert f"--ServerApp.root_dir={tmp_path}" in cmd
    assert f"--LabApp.default_url=/lab/tree/{FIRST}" in cmd
    assert "--ServerApp.answer_yes=True" in cmd, "one Ctrl-C stops the server, with no question asked"
    assert ("--allow-root" in cmd) is (uid == 0)
    positional = [arg for arg in cmd[3:] if not arg.startswith("--")]
    assert positional == [], "a notebook's path would make its folder the server's root"
    assert cmd[-1] == "--port=9999", "the user's own arguments come last and win"


# -- JupyterLab started by course.py ------------------------------------------------------------------


def processes_mentioning(text: str) -> list[str]:
    """Command lines of running processes that contain ``text`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue  # it ended meanwhile
            if text in cmdline:
                found.append(f"{entry.name}: {cmdline}")
    return found


def kill_what_is_left(repo: Path) -> list[str]:
    """Processes still running from ``repo``, killed so an orphan does not outlive the test."""
    left = processes_mentioning(str(repo))
    for line in left:
        try:
            os.kill(int(line.split(":", 1)[0]), signal.SIGKILL)
        except ProcessLookupError:
            pass
    return left


def redirect_of(port: int, token: str, path: str) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path, headers={"Authorization": f"token {token}"})
        response = connection.getresponse()
        return response.status, response.getheader("Location", "")
    finally:
        connection.close()


def names(listing: dict) -> set[str]:
    return {item["name"] for item in listing["content"]}


def test_course_py_lab_serves_the_whole_course_and_sigterm_stops_it_with_nothing_left(tmp_path):
    repo = copy_course(tmp_path / "repo")
    home = tmp_path / "home"
    home.mkdir()
    lab = start_course_lab(repo, tmp_path / "work", HOME=str(home))
    with lab:
        port = int(lab.base_url.rsplit(":", 1)[1].strip("/"))
        # The file browser shows the top of the course, the exercises included.
        assert {"lessons", "exercises", "course.py"} <= names(lab.api("GET", "api/contents"))
        assert names(lab.api("GET", "api/contents/exercises/release")) >= ASSIGNMENTS
        assert lab.api("GET", f"api/contents/{FIRST}")["type"] == "notebook"
        # Lesson 00 is what opens: the address Lab prints, and where its front page leads.
        assert f"http://127.0.0.1:{port}/lab/tree/{FIRST}?token=" in lab.log()
        assert redirect_of(port, lab.token, "/") == (302, f"/lab/tree/{FIRST}?")
        # The Formgrader manages the course in exercises/, not an error page. Its first answer
        # waits for the gradebook to be made, which can take a while on a busy machine.
        assignments = wait_for_formgrader(lab.process, port, lab.token, lab.log_path)
        page = lab.get("formgrader/manage_assignments").decode()
        assert "Manage Assignments" in page and 'var url_prefix = "exercises";' in page, page[:2000]
        assert "Sorry, the formgrader encountered an error" not in page
        # Release and Collect work in a fresh clone: the exchange folder exists (the course's
        # configuration makes it), so the page shows neither the warning nor a missing button.
        assert 'id="warning-exchange"' not in page and "Unwritable directory" not in lab.log()
        assert (repo / "exercises" / "exchange").is_dir()
        assert len(ASSIGNMENTS) == 7
        assert {a["name"] for a in assignments} == ASSIGNMENTS
        assert {a["source_path"] for a in assignments} == {f"source/{name}" for name in ASSIGNMENTS}
        assert (repo / "exercises" / "gradebook.db").is_file(), "the gradebook is the course's own"
        assert not (repo / "gradebook.db").exists()
        assert "is not a subdirectory of the notebook server root" not in lab.log()

        stop_and_check_nothing_is_left(lab, repo, signal.SIGTERM)
    assert sorted(p.relative_to(home) for p in home.rglob("*")) == [], "Lab wrote into the home directory"


def stop_and_check_nothing_is_left(lab, repo: Path, sig: signal.Signals) -> None:
    """Send ``sig`` to the process course.py started as; the server and all it started must end."""
    os.kill(lab.process.pid, sig)
    try:
        lab.process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        status = Path(f"/proc/{lab.process.pid}/status").read_text()
        signals = " ".join(
            line for line in status.splitlines() if line.startswith(("SigBlk", "SigIgn", "SigCgt"))
        )
        pytest.fail(f"course.py lab did not stop on {sig.name} ({signals}):\n{lab.log()[-3000:]}")
    left = kill_what_is_left(repo)
    assert not left, f"still running after course.py stopped: {left}"
    with pytest.raises(OSError):
        urllib.request.urlopen(lab.url("api/status"), timeout=5)


def test_sigint_to_course_py_stops_jupyterlab_too(tmp_path):
    """Without a terminal (a script, an IDE's stop button), SIGINT alone stops the whole server."""
    repo = copy_course(tmp_path / "repo")
    with start_course_lab(repo, tmp_path / "work") as lab:
        stop_and_check_nothing_is_left(lab, repo, signal.SIGINT)


def _take_the_terminal() -> None:
    """In the child: make the pty on stdin its controlling terminal, as a login shell has."""
    import fcntl
    import termios

    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """What a pseudo-terminal shows, read in a thread so the program never blocks on output."""

    def __init__(self, fd: int) -> None:
        self.fd, self.text = fd, ""
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.fd, 4096)
            except OSError:  # EIO: the other side is closed
                return
            if not chunk:
                return
            self.text += chunk.decode(errors="replace")

    def wait_for(self, pattern: str, process: subprocess.Popen, timeout: float = 60) -> re.Match:
        deadline = time.monotonic() + timeout
        while not (found := re.search(pattern, self.text)):
            assert process.poll() is None, f"course.py lab exited:\n{self.text}"
            assert time.monotonic() < deadline, f"no {pattern!r} within {timeout} s:\n{self.text}"
            time.sleep(0.2)
        return found


def serve_in_a_terminal_then_ctrl_c(argv: list[str], cwd: Path, env: dict, port: int, leftovers: Path) -> str:
    """Start ``argv`` in a pseudo-terminal as a user's shell does; open the printed address; type Ctrl-C.

    The address must serve lesson 00; one Ctrl-C must stop the server within a few seconds, with
    no question asked and nothing under ``leftovers`` still running. Returns what the terminal showed.
    """
    import pty

    primary, secondary = pty.openpty()
    env = {k: v for k, v in env.items() if k != "NBGRADER_EXECUTION"}
    env["npm_config_cache"] = str(cwd / "npm")  # jupyter-lsp's npm call logs there, not in ~/.npm
    process = subprocess.Popen(
        argv,
        stdin=secondary,
        stdout=secondary,
        stderr=secondary,
        cwd=cwd,
        env=env,
        start_new_session=True,
        preexec_fn=_take_the_terminal,
    )
    os.close(secondary)
    terminal = Terminal(primary)
    try:
        address = rf"http://127\.0\.0\.1:{port}/lab/tree/{FIRST}\?token=([0-9a-f]+)"
        printed = terminal.wait_for(address, process)
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/contents/{FIRST}", headers={"Authorization": f"token {printed[1]}"}
        )
        # Jupyter prints its address before the IOLoop binds the port, so the first tries may be refused.
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    assert response.status == 200
                break
            except urllib.error.URLError as error:
                if not isinstance(error.reason, ConnectionRefusedError) or time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

        os.write(primary, b"\x03")  # Ctrl-C, typed once
        typed = time.monotonic()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail(f"one Ctrl-C did not stop the server:\n{terminal.text[-3000:]}")
        took = time.monotonic() - typed
        # About 1 s on an idle machine; 4 to 5 s measured with 13 processes waiting for 2 cores.
        assert took < 10, f"one Ctrl-C took {took:.1f} s to stop the server:\n{terminal.text[-3000:]}"
        assert "Shut down this Jupyter server" not in terminal.text
        left = kill_what_is_left(leftovers)
        assert not left, f"still running after Ctrl-C: {left}"
        return terminal.text
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        os.close(primary)


@pytest.mark.skipif(sys.platform != "linux", reason="a pseudo-terminal with a controlling tty is Linux here")
def test_the_printed_address_opens_the_course_and_one_ctrl_c_in_the_terminal_stops_it(tmp_path):
    """What the README promises: copy the printed address; Ctrl-C once stops the whole server."""
    repo = copy_course(tmp_path / "repo")
    port = free_port()
    # No token given: Lab makes one and prints it, as for a student.
    serve_in_a_terminal_then_ctrl_c(course_lab_argv(repo, port), tmp_path, dict(os.environ), port, repo)


@pytest.mark.skipif(sys.platform != "linux", reason="a pseudo-terminal with a controlling tty is Linux here")
def test_setwidgets_lab_the_pip_route_copies_the_course_serves_it_and_one_ctrl_c_stops_it(tmp_path):
    """``setwidgets lab DEST``, the command pip installs, behaves as course.py lab (as root too)."""
    command = ROOT / ".venv" / "bin" / "setwidgets"
    port = free_port()
    dest = tmp_path / "my course"
    argv = [str(command), "lab", str(dest), "--no-browser", "--ip=127.0.0.1", f"--port={port}"]
    argv.append("--ServerApp.port_retries=0")
    shown = serve_in_a_terminal_then_ctrl_c(argv, tmp_path, dict(os.environ), port, dest)
    assert "notebooks copied into" in shown
    assert (dest / "exercises" / "release" / "01_magic_rule" / "magic_rule.ipynb").is_file()
    assert "Running as root is not recommended" not in shown


# -- CI on the other supported Pythons (.ci/pythons) ----------------------------------------------


def test_ci_fails_when_a_supported_python_is_missing_unless_it_is_named_as_skipped_on_purpose():
    script = ROOT / ".ci" / "pythons"

    def pythons(**env: str) -> subprocess.CompletedProcess:
        environment = {**os.environ, "SETWIDGETS_PYTHONS": "3.99", **env}
        return subprocess.run(["bash", script], capture_output=True, text=True, env=environment, timeout=60)

    missing = pythons()
    assert missing.returncode == 1, missing.stdout + missing.stderr
    assert "Python 3.99: not installed on this machine, NOT TESTED: this fails the run." in missing.stdout
    skipped = pythons(SETWIDGETS_SKIP_PYTHONS="3.98, 3.99")
    assert skipped.returncode == 0, skipped.stdout + skipped.stderr
    assert "Python 3.99: SKIPPED ON PURPOSE (named in SETWIDGETS_SKIP_PYTHONS)" in skipped.stdout


def test_the_suite_is_spread_over_the_cores_unless_the_caller_chose(monkeypatch):
    course = load_course()
    monkeypatch.setattr(course.os, "cpu_count", lambda: 2)
    assert course.parallel([]) == ["-n", "3", "--dist", "loadfile"]
    assert course.parallel(["tests/test_cards.py"]) == ["-n", "3", "--dist", "loadfile"]
    for chosen in (["-n", "0"], ["-n4"], ["--numprocesses=3"], ["-p", "no:xdist"]):
        assert course.parallel(chosen) == [], chosen
    monkeypatch.setattr(course.os, "cpu_count", lambda: 64)
    assert course.parallel([])[:2] == ["-n", "4"], "at most four workers, each may start a Lab"
    monkeypatch.setattr(course.os, "cpu_count", lambda: 1)
    assert course.parallel([]) == []
