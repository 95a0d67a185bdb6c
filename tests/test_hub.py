"""A whole class on one JupyterHub, end to end: real Linux users, the real hub, the real exchange.

The module starts the hub the way a teacher does, with ``python3 course.py hub``
(deploy/jupyterhub_config.py), for a roster of one teacher and three students whom it creates
as Linux users with passwords. Everyone logs in through the hub's login form (PAM) and works
through their own single-user server, as they would in the browser:

- the teacher generates and releases exercise 1 through the Formgrader's API;
- each student fetches it through the Assignment List's API, writes answers through the
  contents API (one right, one partly right, one blank) and submits;
- the teacher collects, autogrades (in the course's sandbox, as the teacher), generates and
  releases feedback, and exports the grades with ``nbgrader export``;
- each student fetches their own feedback, and cannot read another student's;
- a live class game on the hub's room service (the ``classroom`` service): the teacher opens
  a room from a notebook's kernel, three students join it from kernels on their own servers
  (each with the token their server has) and play; whatever a student tries as another student
  or as the teacher is refused, the scores add up, and when the service is killed the hub starts
  it again and the game goes on where it was.

Run it on its own with ``pytest -m hub``. It needs root (to create users and start servers
as them) and npm (for the hub's proxy); elsewhere it is skipped, and says why.
Every failure names the step and the user.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import pwd
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
import warnings
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import nbformat
import pytest
from browser.harness import free_ports

from setwidgets.hub import RUNTIME_FOLDER
from setwidgets.hub.preflight import unreachable

requests = pytest.importorskip(
    "requests", reason="the hub's tests talk HTTP with requests (a JupyterHub dependency)"
)

pytestmark = [
    pytest.mark.hub,
    pytest.mark.skipif(
        not hasattr(os, "geteuid") or os.geteuid() != 0,
        reason="a hub with real users needs root: it creates Linux users and starts servers as them",
    ),
    pytest.mark.skipif(
        shutil.which("npm") is None, reason="the hub's proxy comes from npm, which is missing"
    ),
    pytest.mark.skipif(shutil.which("useradd") is None, reason="creating the class's users needs useradd"),
]

ROOT = Path(__file__).resolve().parents[1]
# The hub's environment (course.py makes it with a Python every user can run); the users'
# commands come from it, as in a terminal of their server.
BIN = ROOT / ".venv-hub" / "bin"
ASSIGNMENT = "01_magic_rule"
NOTEBOOK = "magic_rule.ipynb"
COURSE_ID = "setwidgets"
TEACHER = "swh-teacher"
# What the teacher's grading kernel could read but for the sandbox and the hub: the course's
# solutions, three folders up from autograded/<student>/<assignment>/, or in the repository.
# Unsandboxed, this answer gets full marks.
FROM_THE_SOURCE = f"""
import json, pathlib
cells = []
for place in ["../../..", "{ROOT / "exercises"}"]:
    try:
        cells += json.loads(pathlib.Path(place, "source/01_magic_rule/magic_rule.ipynb").read_text())["cells"]
    except OSError:
        pass
for cell in cells:
    if "BEGIN SOLUTION" in "".join(cell["source"]):
        exec("".join(cell["source"]))
"""
# The students and their answers: a grade id takes the source's solution, or the code given.
ANSWERS = {
    "swh-ana": {"is_set_answer": None, "odd_one_out_answer": None},  # right
    "swh-ben": {"is_set_answer": None},  # partly right
    "swh-cleo": {},  # blank
    "swh-dan": {"is_set_answer": FROM_THE_SOURCE, "odd_one_out_answer": FROM_THE_SOURCE},  # cheats
}
# Points out of 10, fixed here: exercise 1 gives 5 for is_set and 5 for odd_one_out.
EXPECTED = {"swh-ana": 10.0, "swh-ben": 5.0, "swh-cleo": 0.0, "swh-dan": 0.0}
STUDENTS = list(ANSWERS)
# A student who has not opened the hub yet: the browser test logs her in and she finds the assignment.
NEWCOMER = "swh-eve"
USERS = [TEACHER, *STUDENTS, NEWCOMER]


class Step(AssertionError):
    """A step of the class's day failed, for one user."""


@contextlib.contextmanager
def step(what: str, user: str):
    """Name the step and the user in any failure inside."""
    try:
        yield
    except Step:
        raise
    except Exception as error:  # noqa: BLE001 - every failure is reported with its step and user
        raise Step(f"step {what!r} failed for user {user!r}: {type(error).__name__}: {error}") from error


def _create_user(name: str, password: str) -> None:
    """Create ``name`` afresh. A user left by an interrupted run is removed first: the swh- names
    are this test's own, so no one else's account is touched."""
    with contextlib.suppress(KeyError):
        pwd.getpwnam(name)
        subprocess.run(["userdel", "--remove", name], capture_output=True)
    subprocess.run(
        ["useradd", "--create-home", "--shell", "/bin/bash", name], check=True, capture_output=True
    )
    subprocess.run(["chpasswd"], input=f"{name}:{password}\n", text=True, check=True, capture_output=True)


def _kill_processes_of(name: str) -> None:
    subprocess.run(["pkill", "-KILL", "-u", name], capture_output=True)


def _running_processes_of(uid: int) -> list[int]:
    """The processes whose effective user is ``uid``, zombies left out: a killed process whose
    parent was killed too waits for whoever adopts it to reap it, and userdel does not count it."""
    running = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = dict(line.split(":", 1) for line in (entry / "status").read_text().splitlines())
                if int(fields["Uid"].split()[1]) == uid and not fields["State"].strip().startswith("Z"):
                    running.append(int(entry.name))
    return running


def _remove_user(name: str) -> None:
    _kill_processes_of(name)
    # userdel refuses a user whose processes still run: wait until the killed ones are gone
    # (read from /proc here, rather than a pgrep started every 50 ms).
    with contextlib.suppress(KeyError):
        uid = pwd.getpwnam(name).pw_uid
        deadline = time.monotonic() + 10
        while _running_processes_of(uid) and time.monotonic() < deadline:
            time.sleep(0.1)
    subprocess.run(["userdel", "--remove", name], capture_output=True)


class Hub:
    """The running hub: its address, log, exchange and the users' passwords."""

    def __init__(
        self, url: str, process: subprocess.Popen, log: Path, exchange: Path, passwords: dict[str, str]
    ):
        self.url = url
        self.process = process
        self.log = log
        self.exchange = exchange
        self.passwords = passwords

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    def home(self, user: str) -> Path:
        return Path(pwd.getpwnam(user).pw_dir)

    def course(self) -> Path:
        return self.home(TEACHER) / "setwidgets-course"

    def as_user(self, user: str, *cmd: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
        """Run ``cmd`` as ``user``, in their home (or ``cwd``), with the environment their server has."""
        env = {
            "HOME": str(self.home(user)),
            "USER": user,
            "PATH": f"{BIN}:/usr/bin:/bin",
            "SETWIDGETS_EXCHANGE": str(self.exchange),
            "SETWIDGETS_COURSE": str(self.course()),
            "JUPYTER_CONFIG_PATH": str(
                ROOT / "deploy" / "jupyter" / ("teacher" if user == TEACHER else "student")
            ),
        }
        return subprocess.run(
            ["runuser", "-u", user, "--", "env", "-i", *(f"{k}={v}" for k, v in env.items()), *cmd],
            cwd=cwd or self.home(user),
            capture_output=True,
            text=True,
            timeout=300,
        )


class Person:
    """One user in the hub: logged in through the login form, with an API token and a server."""

    def __init__(self, hub: Hub, name: str):
        self.hub = hub
        self.name = name
        self.session = requests.Session()
        self.token = ""

    @property
    def server(self) -> str:
        return f"{self.hub.url}/user/{self.name}"

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"token {self.token}"}

    def log_in(self) -> None:
        with step("log in through the hub's login form (PAM)", self.name):
            self.session.get(f"{self.hub.url}/hub/login", timeout=30)
            answer = self.session.post(
                f"{self.hub.url}/hub/login",
                data={
                    "username": self.name,
                    "password": self.hub.passwords[self.name],
                    "_xsrf": self.session.cookies.get("_xsrf"),
                },
                allow_redirects=False,
                timeout=60,
            )
            assert answer.status_code == 302, (
                f"the login form answered {answer.status_code}: {answer.text[:300]}"
            )
            assert "/hub/login" not in answer.headers.get("location", ""), "the hub refused the password"
        with step("get an API token for the session", self.name):
            answer = self.session.post(
                f"{self.hub.url}/hub/api/users/{self.name}/tokens",
                json={"note": "end-to-end test", "expires_in": 3600},
                headers={"X-XSRFToken": self.session.cookies.get("_xsrf")},
                timeout=30,
            )
            assert answer.status_code == 201, f"{answer.status_code}: {answer.text[:300]}"
            self.token = answer.json()["token"]

    def start_server(self) -> None:
        """Ask the hub to start the server; :meth:`wait_server` waits until it is ready."""
        with step("start the single-user server", self.name):
            answer = requests.post(
                f"{self.hub.url}/hub/api/users/{self.name}/server", headers=self.headers(), timeout=60
            )
            assert answer.status_code in (201, 202, 400), f"{answer.status_code}: {answer.text[:300]}"

    def log_in_and_start(self) -> None:
        self.log_in()
        self.start_server()

    def wait_server(self, timeout: float = 180) -> None:
        """Wait until the hub says the server is ready, reading the hub's progress events (the
        stream the spawn page shows) instead of asking for the user's model again and again."""
        with step("start the single-user server", self.name):
            deadline = time.monotonic() + timeout
            with requests.get(
                f"{self.hub.url}/hub/api/users/{self.name}/server/progress",
                headers=self.headers(),
                stream=True,
                timeout=60,  # between two events: the hub sends a keep-alive line every 8 s
            ) as events:
                assert events.status_code == 200, f"{events.status_code}: {events.text[:300]}"
                for line in events.iter_lines(decode_unicode=True):
                    if line.startswith("data:"):
                        event = json.loads(line.removeprefix("data:"))
                        if event.get("ready"):
                            return
                        if event.get("failed"):
                            raise AssertionError(
                                f"the hub says: {event.get('message')}; "
                                f"its log ends:\n{self.hub.log_text()[-3000:]}"
                            )
                    if time.monotonic() > deadline:
                        break
            raise AssertionError(
                f"the server was not ready after {timeout} s; "
                f"the hub's log ends:\n{self.hub.log_text()[-3000:]}"
            )

    def get(self, path: str, **kw):
        answer = requests.get(f"{self.server}/{path}", headers=self.headers(), timeout=120, **kw)
        assert answer.status_code == 200, f"GET {path}: {answer.status_code}: {answer.text[:300]}"
        return answer

    def post(self, path: str, **kw):
        answer = requests.post(f"{self.server}/{path}", headers=self.headers(), timeout=300, **kw)
        assert answer.status_code == 200, f"POST {path}: {answer.status_code}: {answer.text[:300]}"
        result = answer.json() if answer.text else {}
        if isinstance(result, dict) and result.get("success") is False:
            said = str(result.get("log") or result.get("error") or result)
            raise AssertionError(f"POST {path} did not succeed; nbgrader said, at the end:\n{said[-3000:]}")
        return result


@pytest.fixture(scope="module")
def hub():
    blocked = unreachable(ROOT)
    if blocked:
        pytest.fail(f"the users cannot reach the repository: {blocked} is closed to them")
    # Not pytest's temporary folder: it is closed to other users, and the exchange must be open.
    work = Path(tempfile.mkdtemp(prefix="setwidgets-hub-"))
    work.chmod(0o755)
    passwords = {user: secrets.token_urlsafe(12) for user in USERS}
    roster = work / "roster.csv"
    roster.write_text(f"{TEACHER},teacher\n" + "".join(f"{s},student\n" for s in [*STUDENTS, NEWCOMER]))
    exchange = work / "exchange"
    port = free_ports(4)  # the hub's public port, its proxy's API, the hub itself and the classroom
    url = f"http://127.0.0.1:{port}"
    log = work / "hub.log"
    # The hub closes the repository's exercises/ to other users; the rest of the suite gets it back as it was.
    exercises_mode = (ROOT / "exercises").stat().st_mode & 0o7777
    for user in USERS:
        with step("create the Linux user", user):
            _create_user(user, passwords[user])
    env = dict(
        os.environ,
        SETWIDGETS_HUB_ROSTER=str(roster),
        SETWIDGETS_HUB_URL=url,
        SETWIDGETS_HUB_STATE=str(work / "state"),
        SETWIDGETS_EXCHANGE=str(exchange),
    )
    with open(log, "w") as out:
        process = subprocess.Popen(
            [sys.executable, str(ROOT / "course.py"), "hub"],
            cwd=work,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    the_hub = Hub(url, process, log, exchange, passwords)
    try:
        with step("start the hub with python3 course.py hub", "root"):
            # A first start makes .venv-hub (pip) and installs the proxy (npm): minutes, not seconds.
            deadline = time.monotonic() + 1200
            while True:
                if process.poll() is not None:
                    raise AssertionError(
                        f"course.py hub exited with {process.returncode}:\n{the_hub.log_text()[-3000:]}"
                    )
                with contextlib.suppress(requests.ConnectionError):
                    if requests.get(f"{url}/hub/api/", timeout=5).status_code == 200:
                        break
                if time.monotonic() > deadline:
                    raise AssertionError(f"the hub did not answer in time:\n{the_hub.log_text()[-3000:]}")
                time.sleep(0.5)
        yield the_hub
    finally:
        # The users' servers and kernels and the classroom service are killed first: the hub then
        # finds them gone and stops at once, instead of asking each to stop and waiting on them.
        for user in USERS:
            _kill_processes_of(user)
        with contextlib.suppress(AssertionError, ProcessLookupError):
            os.kill(_service_pid(the_hub), signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        for user in USERS:
            _remove_user(user)
        shutil.rmtree(work, ignore_errors=True)
        (ROOT / "exercises").chmod(exercises_mode)


def _answered(release: dict, source: nbformat.NotebookNode, cells: dict[str, str | None]) -> dict:
    """The fetched notebook (a contents-API model) with the named answer cells written in."""
    solutions = {
        c.metadata["nbgrader"]["grade_id"]: c.source
        for c in source.cells
        if c.metadata.get("nbgrader", {}).get("solution")
    }
    for cell in release["cells"]:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if grade_id in cells:
            cell["source"] = cells[grade_id] or solutions[grade_id]
    return release


@pytest.fixture(scope="module")
def people(hub):
    """The teacher and the students, each logged in with their own server running."""
    people = {user: Person(hub, user) for user in [TEACHER, *STUDENTS]}
    # As in a class: everyone logs in and starts their server, and the servers start side by side.
    # Each in a thread of its own: the hub answers a start only when the server is up or after
    # 10 s (its slow_spawn_timeout), so asking in turn would start them about 10 s apart.
    with ThreadPoolExecutor(len(people)) as pool:
        list(pool.map(Person.log_in_and_start, people.values()))
    for person in people.values():
        person.wait_server()
    return people


@pytest.fixture(scope="module")
def day(hub, people):
    """The class's day, run once: every step in order. The tests then read what it left."""
    teacher = people[TEACHER]
    course = hub.course()

    with step("the course copied into the teacher's home", TEACHER):
        assert (course / "source" / ASSIGNMENT / NOTEBOOK).is_file(), sorted(p.name for p in course.iterdir())
        assert not (course / "gradebook.db").exists()
    with step("generate exercise 1 in the Formgrader", TEACHER):
        teacher.post(f"formgrader/api/assignment/{ASSIGNMENT}/assign")
        assert (course / "release" / ASSIGNMENT / NOTEBOOK).is_file()
    with step("release exercise 1 in the Formgrader", TEACHER):
        teacher.post(f"formgrader/api/assignment/{ASSIGNMENT}/release")

    source = nbformat.read(ROOT / "exercises" / "source" / ASSIGNMENT / NOTEBOOK, as_version=4)
    listed, validated = {}, {}
    for student, cells in ANSWERS.items():
        person = people[student]
        with step("see the released assignment in the Assignments list", student):
            offered = person.get("assignments", params={"course_id": COURSE_ID}).json()["value"]
            listed[student] = [(a["assignment_id"], a["status"]) for a in offered]
            assert (ASSIGNMENT, "released") in listed[student], listed[student]
        with step("fetch the assignment", student):
            person.post("assignments/fetch", data={"course_id": COURSE_ID, "assignment_id": ASSIGNMENT})
        with step("answer in the notebook (contents API)", student):
            path = f"api/contents/{ASSIGNMENT}/{NOTEBOOK}"
            model = person.get(path).json()
            answered = _answered(model["content"], source, cells)
            saved = requests.put(
                f"{person.server}/{path}",
                json={"type": "notebook", "format": "json", "content": answered},
                headers=person.headers(),
                timeout=60,
            )
            assert saved.status_code == 200, f"{saved.status_code}: {saved.text[:300]}"
        if student in ("swh-ana", "swh-cleo"):  # right and blank: Validate's kernel is not the server's
            with step("validate (the Assignments tab's Validate button)", student):
                path = {"path": f"{ASSIGNMENT}/{NOTEBOOK}"}
                validated[student] = person.post("assignments/validate", data=path)
        with step("submit", student):
            person.post("assignments/submit", data={"course_id": COURSE_ID, "assignment_id": ASSIGNMENT})

    with step("collect in the Formgrader", TEACHER):
        teacher.post(f"formgrader/api/assignment/{ASSIGNMENT}/collect")
    for student in STUDENTS:
        with step(f"autograde {student}'s submission in the Formgrader", TEACHER):
            teacher.post(f"formgrader/api/submission/{ASSIGNMENT}/{student}/autograde")
    with step("generate feedback in the Formgrader", TEACHER):
        teacher.post(f"formgrader/api/assignment/{ASSIGNMENT}/generate_feedback")
    with step("release feedback in the Formgrader", TEACHER):
        teacher.post(f"formgrader/api/assignment/{ASSIGNMENT}/release_feedback")
    with step("export the grades (nbgrader export, in a terminal of the teacher's)", TEACHER):
        exported = hub.as_user(TEACHER, str(BIN / "nbgrader"), "export", cwd=course)
        assert exported.returncode == 0, exported.stderr[-2000:]

    for student in STUDENTS:
        with step("fetch feedback", student):
            people[student].post(
                "assignments/fetch_feedback", data={"course_id": COURSE_ID, "assignment_id": ASSIGNMENT}
            )
    return {"people": people, "listed": listed, "validated": validated}


def _scores(course: Path) -> dict[str, tuple[float, float]]:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        return {
            student: (
                gb.find_submission(ASSIGNMENT, student).score,
                gb.find_submission(ASSIGNMENT, student).max_score,
            )
            for student in STUDENTS
        }


def test_the_gradebook_holds_the_expected_scores(hub, day):
    with step("read the gradebook", TEACHER):
        scores = _scores(hub.course())
    assert scores == {student: (points, 10.0) for student, points in EXPECTED.items()}


def test_the_exported_csv_holds_the_expected_scores(hub, day):
    with step("read the exported grades.csv", TEACHER):
        rows = list(csv.DictReader((hub.course() / "grades.csv").open()))
    got = {
        row["student_id"]: (float(row["score"]), float(row["max_score"]))
        for row in rows
        if row["assignment"] == ASSIGNMENT
    }
    assert got == {student: (points, 10.0) for student, points in EXPECTED.items()}


def test_grading_on_the_hub_ran_in_the_sandbox(hub, day):
    log = hub.log_text()
    assert "GRADING IS NOT SANDBOXED" not in log, re.findall(r".*NOT SANDBOXED.*", log)[:1]
    # The cheat that reads the solutions from source/ found nothing there: the sandbox hid it.
    assert _scores(hub.course())["swh-dan"] == (0.0, 10.0)


def test_each_student_has_their_own_feedback(hub, day):
    for student, points in EXPECTED.items():
        with step("read the fetched feedback", student):
            person = day["people"][student]
            listing = person.get(f"api/contents/{ASSIGNMENT}/feedback").json()["content"]
            assert len(listing) == 1, listing
            stamp = listing[0]["name"]
            html = person.get(f"api/contents/{ASSIGNMENT}/feedback/{stamp}/magic_rule.html").json()["content"]
            assert f"Score: {points:.1f} / 10.0" in html or f"{points:.1f} / 10.0" in html, html[:500]


def test_a_student_validates_her_answers_on_her_server(day):
    """nbgrader's Validate starts its kernel through setwidgets.hub.kernels (socket files in her own
    runtime folder, deploy/jupyter/student/nbgrader_config.py), and her right answers pass."""
    right, blank = day["validated"]["swh-ana"], day["validated"]["swh-cleo"]
    assert right["success"] is True and not right["value"].get("failed"), right
    assert blank["success"] is True and blank["value"].get("failed"), f"her blank answers passed: {blank}"


def test_a_student_cannot_read_another_students_work_or_feedback(hub, day):
    ana, ben = STUDENTS[0], STUDENTS[1]
    with step("try to read another student's home", ben):
        tried = hub.as_user(ben, "ls", str(hub.home(ana)))
        assert tried.returncode != 0 and "Permission denied" in tried.stderr, tried
    with step("try to list the exchange's feedback and submissions", ben):
        for folder in ["feedback", "inbound"]:
            tried = hub.as_user(ben, "ls", str(hub.exchange / COURSE_ID / folder))
            assert tried.returncode != 0 and "Permission denied" in tried.stderr, (folder, tried)
    with step("try to read the solutions in the repository", ben):
        tried = hub.as_user(ben, "cat", str(ROOT / "exercises" / "source" / ASSIGNMENT / NOTEBOOK))
        assert tried.returncode != 0 and "Permission denied" in tried.stderr, tried
    with step("try to read the teacher's course and gradebook", ben):
        tried = hub.as_user(ben, "cat", str(hub.course() / "gradebook.db"))
        assert tried.returncode != 0 and "Permission denied" in tried.stderr, tried
    with step("fetch feedback again: only their own arrives", ben):
        day["people"][ben].post(
            "assignments/fetch_feedback", data={"course_id": COURSE_ID, "assignment_id": ASSIGNMENT}
        )
        fetched = list((hub.home(ben) / ASSIGNMENT / "feedback").rglob("*.html"))
        assert [f.name for f in fetched] == ["magic_rule.html"], fetched


def test_only_the_teacher_has_the_formgrader(hub, day):
    for user, person in day["people"].items():
        with step("open the Formgrader", user):
            answer = requests.get(
                f"{person.server}/formgrader/api/assignments", headers=person.headers(), timeout=60
            )
            if user == TEACHER:
                assert answer.status_code == 200 and ASSIGNMENT in answer.text, answer.text[:300]
            else:
                assert answer.status_code == 404, answer.status_code


def test_the_students_saw_the_released_assignment(day):
    for student in STUDENTS:
        assert (ASSIGNMENT, "released") in day["listed"][student]


# -- a live class game on the hub's room service ------------------------------------------------------

# The three players of the class game, and the student who stays out of the room.
PLAYERS = STUDENTS[:3]
OUTSIDER = STUDENTS[3]
# A fixed deal, and time enough to claim between a kernel's round trips.
GAME = {"seed": 2026, "claim_seconds": 60}
# What every kernel of the game runs first: a notebook's imports and two helpers.
IN_THE_KERNEL = """
import itertools, json, os, time
from setwidgets.classroom import ClassroomError, Desk, Seat
from setwidgets.rules import first_set, is_set

def wait_for(connection, version, seconds=30):
    deadline = time.monotonic() + seconds
    while connection.view.get("version", 0) < version and time.monotonic() < deadline:
        time.sleep(0.02)
    return board(connection)

def board(connection):
    view = connection.view
    keep = ("version", "status", "table", "deck_left", "sets_found", "callers", "players", "you")
    return {key: view.get(key) for key in keep}

def tried(action):
    try:
        return {"ok": True, "value": action()}
    except ClassroomError as refused:
        return {"ok": False, "message": str(refused)}
"""


# A student's attempt to read other users' kernels: a ZMQ subscriber connected, for 6 s, to every
# TCP port on the loopback that another user listens on and to every socket file of another user's
# kernel that /proc/net/unix names. What it found, and what it heard, stay in the kernel's names.
# Root's ports (the hub, its proxy, the room service) are left alone: no kernel runs as root, and
# junk sent to the room service would count against the budgets the other tests read.
EAVESDROP = """
import threading, zmq
me = os.getuid()
tcp = set()
for table in ("/proc/net/tcp", "/proc/net/tcp6"):
    with open(table) as rows:
        for row in list(rows)[1:]:
            fields = row.split()
            if fields[3] == "0A" and int(fields[7]) not in (me, 0):  # 0A: listening; 0: the hub's own
                tcp.add(int(fields[1].rsplit(":", 1)[1], 16))
with open("/proc/net/unix") as rows:
    files = {row.split()[-1] for row in list(rows)[1:] if "kernel-" in row.split()[-1]}
files = {f for f in files if not os.access(os.path.dirname(f), os.W_OK)}  # not her own
heard = []
context = zmq.Context()
listener = context.socket(zmq.SUB)
listener.setsockopt(zmq.SUBSCRIBE, b"")
listener.setsockopt(zmq.RCVTIMEO, 200)
for port in tcp:
    listener.connect(f"tcp://127.0.0.1:{port}")
for path in files:
    listener.connect(f"ipc://{path}")
found = {"tcp_ports": len(tcp), "socket_files": len(files)}

def listen():
    deadline = time.monotonic() + 6
    while time.monotonic() < deadline:
        try:
            heard.extend(listener.recv_multipart())
        except zmq.Again:
            pass
    listener.close(linger=0)

listening = threading.Thread(target=listen)
listening.start()
print(json.dumps(found))
"""


class Kernel:
    """A Python kernel on a user's own server, started and driven as JupyterLab does it: the
    server's REST API and the kernel's WebSocket. It runs as that user, with their server's
    environment: their server's token (JUPYTERHUB_API_TOKEN) and the classroom's address."""

    reconnected: list[str] = []  # the users whose kernel socket had to be opened again

    def __init__(self, person: Person):
        import websocket

        self.person = person
        answer = requests.post(
            f"{person.server}/api/kernels", json={"name": "python3"}, headers=person.headers(), timeout=120
        )
        assert answer.status_code == 201, f"POST api/kernels: {answer.status_code}: {answer.text[:300]}"
        self.id = answer.json()["id"]
        self.session = uuid.uuid4().hex
        self.connect()
        try:
            self.run(IN_THE_KERNEL)
        except websocket.WebSocketConnectionClosedException as lost:
            # The server closed the kernel's socket before its first answer (seen once in CI, on
            # a loaded machine). JupyterLab opens it again when that happens, and so does this,
            # once in the whole module; the first cell only defines names, so running it again
            # changes nothing. The warning quotes the hub's log, which holds the servers'.
            Kernel.reconnected.append(person.name)
            assert len(Kernel.reconnected) == 1, f"sockets closed before an answer: {Kernel.reconnected}"
            warnings.warn(
                f"{person.name}'s kernel socket closed before its first answer ({lost}); reconnected. "
                f"The hub's log ends:\n{person.hub.log_text()[-2000:]}",
                stacklevel=2,
            )
            with contextlib.suppress(Exception):
                self.socket.close()
            self.connect()
            self.run(IN_THE_KERNEL)

    def connect(self) -> None:
        """Open the kernel's WebSocket, as JupyterLab does, with this session's id."""
        import websocket

        address = self.person.server.replace("http", "ws", 1) + f"/api/kernels/{self.id}/channels"
        self.socket = websocket.create_connection(
            f"{address}?session_id={self.session}",
            header=[f"Authorization: token {self.person.token}"],
            timeout=120,
        )

    def run(self, code: str, timeout: float = 120) -> Any:
        """Run ``code`` in the kernel; the JSON of the last line it prints, or None."""
        msg_id = uuid.uuid4().hex
        header = {
            "msg_id": msg_id,
            "msg_type": "execute_request",
            "username": self.person.name,
            "session": self.session,
            "date": datetime.now(UTC).isoformat(),
            "version": "5.3",
        }
        content = {"code": code, "silent": False, "store_history": True, "user_expressions": {}}
        content.update(allow_stdin=False, stop_on_error=True)
        message = {"header": header, "parent_header": {}, "metadata": {}, "content": content}
        self.socket.send(json.dumps({**message, "channel": "shell", "buffers": []}))
        printed, error, replied, idle = [], None, False, False
        deadline = time.monotonic() + timeout
        while not (replied and idle):
            assert time.monotonic() < deadline, f"the kernel gave no answer in {timeout} s to:\n{code}"
            answer = json.loads(self.socket.recv())
            if answer.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind, body = answer["header"]["msg_type"], answer["content"]
            if kind == "stream":
                printed.append(body["text"])
            elif kind == "error":
                error = f"{body['ename']}: {body['evalue']}\n" + re.sub(
                    r"\x1b\[[0-9;]*m", "", "\n".join(body["traceback"])
                )
            elif kind == "execute_reply":
                replied = True
            elif kind == "status" and body["execution_state"] == "idle":
                idle = True
        if error:
            raise AssertionError(f"the kernel raised {error}\nwhile running:\n{code}")
        lines = "".join(printed).strip().splitlines()
        return json.loads(lines[-1]) if lines else None

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.socket.close()
        with contextlib.suppress(Exception):
            requests.delete(
                f"{self.person.server}/api/kernels/{self.id}", headers=self.person.headers(), timeout=30
            )


def _service(hub: Hub, path: str = "") -> str:
    return f"{hub.url}/services/classroom/{path}"


def _socket_refused(hub: Hub, code: str, token: str | None) -> int:
    """The status with which the service refuses a WebSocket to room ``code`` with ``token`` (past
    the proxy, as ``_past_the_proxy``: a 503 there is the proxy's, not the service's)."""
    import websocket

    address = _service(hub, f"api/rooms/{code}/socket").replace("http", "ws", 1)
    header = [f"Authorization: token {token}"] if token else []

    def refused() -> int:
        try:
            websocket.create_connection(address, header=header, timeout=30).close()
        except websocket.WebSocketBadStatusException as refusal:
            return refusal.status_code
        raise AssertionError("the service let the WebSocket in")

    return _past_the_proxy(hub, refused)


def _service_pid(hub: Hub) -> int:
    """The process of this hub's classroom service (its database lies in this hub's state folder)."""
    database = str(hub.exchange.parent / "state" / "classroom" / "rooms.sqlite")
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError):
            command = (entry / "cmdline").read_bytes().split(b"\0")
            if b"setwidgets.classroom" in command and any(database.encode() in part for part in command):
                return int(entry.name)
    raise AssertionError("the classroom service is not running")


def _start_kernel(person: Person) -> Kernel:
    with step("start a kernel on their own server", person.name):
        try:
            return Kernel(person)
        except Exception as error:
            # The servers write into the hub's log: what they said about this kernel is there.
            raise AssertionError(f"{error}\nthe hub's log ends:\n{person.hub.log_text()[-4000:]}") from error


@pytest.fixture(scope="module")
def class_game(hub, people):
    """The class game, played once from the users' own kernels; the tests read what it left."""
    kernels: dict[str, Kernel] = {}
    said: dict[str, Any] = {}
    try:
        # The four kernels start side by side, as four people open their notebooks.
        with ThreadPoolExecutor(1 + len(PLAYERS)) as pool:
            started = {user: pool.submit(_start_kernel, people[user]) for user in [TEACHER, *PLAYERS]}
        for user, future in started.items():
            if future.exception() is None:
                kernels[user] = future.result()  # closed at the end even if another failed
        for future in started.values():
            future.result()
        teacher, ben, cleo = kernels[TEACHER], kernels[PLAYERS[1]], kernels[PLAYERS[2]]

        with step("open a room from a notebook (Desk.open, with the server's token)", TEACHER):
            opened = teacher.run(
                f"desk = Desk.open(**{GAME!r})\n"
                "print(json.dumps({'code': desk.code, 'url': os.environ.get('SETWIDGETS_CLASSROOM_URL'), "
                "**board(desk)}))"
            )
            assert opened["url"] == _service(hub), opened
            assert opened["status"] == "waiting", opened
            code = said["code"] = opened["code"]

        said["joined"] = {}
        for user in PLAYERS:
            with step("join the room from a notebook (Seat, with the server's token)", user):
                joined = kernels[user].run(
                    f"seat = Seat({code!r})\n"
                    "print(json.dumps({'name': seat.name, 'welcome': seat.welcome, "
                    "'token': bool(os.environ.get('JUPYTERHUB_API_TOKEN')), **board(seat)}))"
                )
                assert joined["token"], "the kernel has no JUPYTERHUB_API_TOKEN"
                said["joined"][user] = joined

        moves = said["moves"] = []

        def move(user: str, code_: str) -> dict:
            """One move from ``user``'s kernel: its answer, and the version it leaves."""
            with step(f"play: {code_}", user):
                answer = kernels[user].run(
                    f"answer = {code_}\nprint(json.dumps({{**answer, **board(seat)}}))"
                )
                moves.append((user, code_, answer))
                return answer

        said["first_call"] = move(PLAYERS[0], "seat.call()")
        said["second_call"] = move(PLAYERS[1], "seat.call()")
        said["claim_out_of_turn"] = move(
            PLAYERS[1], "seat.claim([c.code for c in first_set(seat.view['table'])])"
        )
        said["first_claim"] = move(PLAYERS[0], "seat.claim([c.code for c in first_set(seat.view['table'])])")
        # Ben now holds the call: he claims from the table the service pushed him after Ana's SET.
        with step("see the new table pushed after another's SET", PLAYERS[1]):
            said["pushed"] = ben.run(f"print(json.dumps(wait_for(seat, {said['first_claim']['version']})))")
        said["second_claim"] = move(PLAYERS[1], "seat.claim([c.code for c in first_set(seat.view['table'])])")
        # Cleo claims three cards that are no SET, without calling first: the claim is the call.
        said["wrong_claim"] = move(
            PLAYERS[2],
            "seat.claim(next([a, b, c] for a, b, c in itertools.combinations(seat.view['table'], 3) "
            "if not is_set(a, b, c)))",
        )

        # -- a student acting as another, or as the teacher ---------------------------------------
        with step("claim in another student's name", PLAYERS[2]):
            said["as_another"] = cleo.run(
                f"wait_for(seat, {said['wrong_claim']['version']})\n"
                "cards = [c.code for c in first_set(seat.view['table'])]\n"
                f"answers = [seat.send({{'type': 'claim', 'cards': cards, 'player': {PLAYERS[0]!r}}}), "
                f"seat.send({{'type': 'call', 'name': {PLAYERS[0]!r}}})]\n"
                "print(json.dumps({'answers': answers, **board(seat)}))"
            )
        with step("join again under another student's name", PLAYERS[1]):
            said["other_name"] = ben.run(
                f"again = Seat({code!r}, name={PLAYERS[0]!r})\n"
                "print(json.dumps({'name': again.name, 'welcome': again.welcome}))\n"
            )
        with step("open a room, and list the rooms, as the teacher would", PLAYERS[1]):
            said["student_opens"] = ben.run("print(json.dumps(tried(lambda: Desk.open(seed=1).code)))")
        with step("take the teacher's desk of the room: pause, end, remove, new game", PLAYERS[1]):
            said["student_desk"] = ben.run(
                f"desk = Desk({code!r})\n"
                "answers = {'pause': desk.pause(), 'end': desk.end(), "
                f"'remove': desk.remove({PLAYERS[0]!r}), 'new_game': desk.new_game(), "
                "'scores': desk.scores(False)}\n"
                "print(json.dumps({'answers': answers, **board(desk)}))"
            )

        # -- a student listening to the teacher's kernel ------------------------------------------
        # Every kernel publishes what it runs and prints (its IOPub channel) to any subscriber that
        # can reach its socket; messages are signed, not hidden. Over TCP on 127.0.0.1 any user of
        # the machine can subscribe (/proc/net/tcp lists the listening ports and their owners). On
        # the hub the kernels' sockets are files in each user's private runtime folder.
        with step("subscribe to every kernel socket of other users she can find", PLAYERS[2]):
            said["eavesdrop_ready"] = cleo.run(EAVESDROP)
        with step("print a secret while a student may be listening", TEACHER):
            secret = secrets.token_hex(8)
            teacher.run(f"for _ in range(15):\n    print(json.dumps({secret!r}))\n    time.sleep(0.1)")
        with step("see what the subscriptions heard", PLAYERS[2]):
            said["eavesdrop"] = cleo.run(
                "listening.join()\n"
                f"print(json.dumps({{**found, 'heard': {secret.encode()!r} in b''.join(heard)}}))"
            )

        # -- the teacher's hold on the room --------------------------------------------------------
        said["pause"] = teacher.run("print(json.dumps({**desk.pause(), **board(desk)}))")
        said["call_while_paused"] = move(PLAYERS[2], "seat.call()")
        said["resume"] = teacher.run("print(json.dumps({**desk.resume(), **board(desk)}))")
        said["remove"] = teacher.run(f"print(json.dumps({{**desk.remove({PLAYERS[2]!r}), **board(desk)}}))")
        said["call_when_removed"] = move(PLAYERS[2], "seat.call()")

        # -- the service killed: the hub starts it again, and the game goes on where it was --------
        with step("kill the classroom service", "root"):
            os.kill(_service_pid(hub), signal.SIGKILL)
        with step("call again once the hub has started the service again", PLAYERS[0]):
            said["after_the_kill"] = kernels[PLAYERS[0]].run(
                "deadline = time.monotonic() + 120\n"
                "while True:\n"
                "    answer = seat.call()\n"
                "    if answer['ok'] or time.monotonic() > deadline:\n"
                "        break\n"
                "    time.sleep(0.5)\n"
                "print(json.dumps({**answer, **board(seat)}))",
                timeout=180,
            )

        # -- every board after the last move -------------------------------------------------------
        last = said["after_the_kill"]["version"]
        said["boards"] = {}
        for user in [TEACHER, *PLAYERS]:
            with step("see the room after the last move", user):
                connection = "desk" if user == TEACHER else "seat"
                said["boards"][user] = kernels[user].run(f"print(json.dumps(wait_for({connection}, {last})))")

        said["end"] = teacher.run("print(json.dumps({**desk.end(), **board(desk)}))")
        said["call_after_the_end"] = move(PLAYERS[0], "seat.call()")

        # -- tokens the hub does not vouch for, from outside any kernel ----------------------------
        with step("try the service with tokens that are not one's own", PLAYERS[1]):
            narrow = requests.post(
                f"{hub.url}/hub/api/users/{PLAYERS[1]}/tokens",
                json={
                    "note": "a token without the classroom",
                    "scopes": [f"read:users:name!user={PLAYERS[1]}"],
                },
                headers=people[PLAYERS[1]].headers(),
                timeout=30,
            )
            assert narrow.status_code == 201, f"{narrow.status_code}: {narrow.text[:300]}"
            guessed = secrets.token_hex(16)  # a JupyterHub token's form
            tokens = {"none": None, "guessed": guessed, "narrow": narrow.json()["token"]}
            said["outside"] = {}
            for what, token in tokens.items():
                headers = {"Authorization": f"token {token}"} if token else {}
                room_url = _service(hub, f"api/rooms/{code}")
                said["outside"][what] = {
                    "join": _past_the_proxy(hub, _request("post", f"{room_url}/join", headers, json={})),
                    "room": _past_the_proxy(hub, _request("get", room_url, headers)),
                    "open": _past_the_proxy(
                        hub, _request("post", _service(hub, "api/rooms"), headers, json={})
                    ),
                    "socket": _socket_refused(hub, code, token),
                }
        with step("reach a room they have not joined", OUTSIDER):
            outsider = people[OUTSIDER].headers()
            said["outsider"] = {
                "room": requests.get(
                    _service(hub, f"api/rooms/{code}"), headers=outsider, timeout=30
                ).status_code,
                "socket": _socket_refused(hub, code, people[OUTSIDER].token),
                "rooms": requests.get(_service(hub, "api/rooms"), headers=outsider, timeout=30).status_code,
            }
        with step("list the rooms", TEACHER):
            listed = requests.get(_service(hub, "api/rooms"), headers=people[TEACHER].headers(), timeout=30)
            assert listed.status_code == 200, f"{listed.status_code}: {listed.text[:300]}"
            said["rooms"] = listed.json()["rooms"]
        yield said
    finally:
        # Side by side: each kernel's shutdown waits on its server for a second or so.
        with ThreadPoolExecutor(max(len(kernels), 1)) as pool:
            list(pool.map(Kernel.close, kernels.values()))


def test_the_class_game_runs_as_a_service_of_the_hub(hub, class_game):
    log = hub.log_text()
    assert "Starting service 'classroom'" in log, log[-3000:]
    assert class_game["code"] in {room["code"] for room in class_game["rooms"]}
    # Its rooms are kept in the hub's state folder (SETWIDGETS_HUB_STATE), closed to the users.
    state = hub.exchange.parent / "state"
    assert (state / "classroom" / "rooms.sqlite").is_file(), sorted(p.name for p in state.rglob("*"))
    assert state.stat().st_mode & 0o777 == 0o700


def test_a_killed_service_is_started_again_and_the_game_goes_on(hub, class_game):
    assert re.search(r"Service classroom exited with status", hub.log_text())
    ana = PLAYERS[0]
    again = class_game["after_the_kill"]
    assert again["ok"] and again["message"] == f"{ana} called SET!", again
    # Nothing was lost: the call is the first change after the teacher's last one, and every score stands.
    assert again["version"] == class_game["remove"]["version"] + 1
    assert again["callers"] == [ana] and again["status"] == "open"
    assert again["players"][:2] == class_game["remove"]["players"][:2]


def test_the_teacher_opens_a_room_and_each_student_joins_as_themselves(class_game):
    for user, joined in class_game["joined"].items():
        assert joined["name"] == user, joined  # the hub user, never a name of their choosing
        assert joined["welcome"].startswith(f"Welcome, {user}"), joined
        assert joined["status"] == "open" and joined["you"]["score"] == 0, joined
    assert [p["name"] for p in class_game["boards"][TEACHER]["players"]] == PLAYERS


def test_calls_are_served_in_order_and_claims_are_judged(class_game):
    ana, ben, cleo = PLAYERS
    game = class_game
    assert game["first_call"]["ok"] and game["first_call"]["message"] == f"{ana} called SET!", game[
        "first_call"
    ]
    assert game["second_call"]["ok"] and "number 2 in line" in game["second_call"]["message"]
    assert game["second_call"]["callers"] == [ana, ben]
    assert not game["claim_out_of_turn"]["ok"], game["claim_out_of_turn"]
    assert "holds the call" in game["claim_out_of_turn"]["message"], game["claim_out_of_turn"]
    assert game["first_claim"]["ok"] and "keeps a SET" in game["first_claim"]["message"], game["first_claim"]
    # Ana's SET left the table for everyone, and the call passed to Ben, next in line.
    assert game["pushed"]["version"] >= game["first_claim"]["version"]
    assert game["pushed"]["table"] == game["first_claim"]["table"]
    assert game["pushed"]["callers"] == [ben]
    assert game["second_claim"]["ok"] and "keeps a SET" in game["second_claim"]["message"], game[
        "second_claim"
    ]
    assert not game["wrong_claim"]["ok"] and "loses a point" in game["wrong_claim"]["message"]


def test_every_board_shows_the_same_table_and_the_scores_add_up(class_game):
    boards = class_game["boards"]
    ana, ben, cleo = PLAYERS
    first = boards[TEACHER]
    for user, board in boards.items():
        assert (board["version"], board["table"], board["players"]) == (
            first["version"],
            first["table"],
            first["players"],
        ), user
    scores = {p["name"]: (p["sets"], p["penalties"], p["score"]) for p in first["players"]}
    assert scores == {ana: (1, 0, 1), ben: (1, 0, 1), cleo: (0, 1, -1)}
    for user in PLAYERS:
        assert boards[user]["you"]["score"] == scores[user][2], (user, boards[user]["you"])
    assert first["sets_found"] == 2 == sum(sets for sets, _, _ in scores.values())
    # Every card of the deck is on the table, still in the deck, or in a SET someone kept.
    assert len(first["table"]) + first["deck_left"] + 3 * first["sets_found"] == 81


def test_a_student_cannot_listen_to_the_teachers_kernel(hub, class_game):
    """The kernels' channels are files in each user's private runtime folder (KernelManager.transport
    "ipc", deploy/jupyter/*/jupyter_server_config.json), not TCP ports every user can reach: the
    student finds the teacher's socket files and can open none, and hears nothing the teacher printed."""
    found, said = class_game["eavesdrop_ready"], class_game["eavesdrop"]
    assert found["tcp_ports"] + found["socket_files"] > 0, f"the student found nothing to listen to: {found}"
    assert not said["heard"], f"a student read what the teacher's kernel printed: {said}"
    # The teacher's kernel's channels are in the runtime folder the hub gave her (hub.runtime_folder).
    runtime = hub.home(TEACHER) / RUNTIME_FOLDER
    assert list(runtime.glob("kernel-*-ipc-1")), f"no kernel socket file in {runtime}"


def test_a_student_cannot_play_as_another_student(class_game):
    ana, ben, cleo = PLAYERS
    for answer in class_game["as_another"]["answers"]:
        assert not answer["ok"] and "you always play as yourself" in answer["message"], answer
    # Nothing changed: the version is the one Cleo's own wrong claim left.
    assert class_game["as_another"]["version"] == class_game["wrong_claim"]["version"]
    assert class_game["other_name"]["name"] == ben, class_game["other_name"]
    assert class_game["other_name"]["welcome"] == f"Welcome back, {ben}.", class_game["other_name"]


def _past_the_proxy(hub: Hub, send: Any, tries: int = 3) -> int:
    """The status of the service's own answer to ``send()``: a 502, 503 or 504 is the hub's proxy
    saying it did not reach the service (CI10, at the end of a loaded run, had one on a request,
    and stop 47's CI one on a WebSocket), so it is sent again, at most ``tries`` times in all.
    When the proxy never gets through, the failure quotes what the proxy logged."""
    for attempt in range(tries):
        if attempt:
            time.sleep(1)
        status = send()
        if status not in (502, 503, 504):
            return status
    said = [line for line in hub.log_text().splitlines() if "ConfigProxy" in line and "error" in line]
    raise AssertionError(f"the proxy answered {status} {tries} times; it logged:\n" + "\n".join(said[-10:]))


def _request(method: str, url: str, headers: dict, **kw: Any) -> Any:
    """``send`` for ``_past_the_proxy``: one HTTP request's status."""
    return lambda: requests.request(method, url, headers=headers, timeout=30, **kw).status_code


def test_a_student_cannot_act_as_the_teacher(class_game):
    opened = class_game["student_opens"]
    assert not opened["ok"] and "only the teacher" in opened["message"], opened
    desk = class_game["student_desk"]
    for action, answer in desk["answers"].items():
        assert not answer["ok"] and '"type" must be one of' in answer["message"], (action, answer)
    assert desk["status"] == "open" and desk["version"] == class_game["wrong_claim"]["version"], desk
    assert class_game["outsider"]["rooms"] == 403


def test_the_teachers_pause_remove_and_end_hold(class_game):
    assert class_game["pause"]["ok"] and class_game["pause"]["status"] == "paused"
    assert not class_game["call_while_paused"]["ok"], class_game["call_while_paused"]
    assert "paused" in class_game["call_while_paused"]["message"]
    assert class_game["resume"]["ok"] and class_game["resume"]["status"] == "open"
    assert class_game["remove"]["ok"]
    assert not class_game["call_when_removed"]["ok"] and "took" in class_game["call_when_removed"]["message"]
    assert class_game["end"]["ok"] and class_game["end"]["status"] == "ended"
    assert (
        not class_game["call_after_the_end"]["ok"] and "ended" in class_game["call_after_the_end"]["message"]
    )


def test_tokens_the_hub_does_not_vouch_for_are_refused(class_game):
    # No token, a guessed one, and a student's own token made without the classroom's scope.
    for what, statuses in class_game["outside"].items():
        assert statuses == {"join": 401, "room": 401, "open": 401, "socket": 401}, what
    # A student of the hub who has not joined the room sees nothing of it.
    assert class_game["outsider"]["room"] == 403 and class_game["outsider"]["socket"] == 403


# -- in the browser ------------------------------------------------------------------------------------


def _browser_log_in(page, hub: Hub, user: str) -> None:
    """Log in through the hub's login page, as a person types it."""
    page.goto(f"{hub.url}/hub/login")
    page.fill("input[name=username]", user)
    page.fill("input[name=password]", hub.passwords[user])
    page.click("input[type=submit], button[type=submit]")


@pytest.mark.browser
def test_in_the_browser_a_student_sees_the_released_assignment_and_the_teacher_the_submissions(
    hub, day, chromium
):
    from browser.harness import screenshot_path

    student = NEWCOMER  # her server starts from the browser's first visit
    # Each person in a browser context of their own: their own hub cookie, as on their own computer.
    contexts = [chromium.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
    try:
        page = contexts[0].new_page()
        with step("log in in the browser and reach JupyterLab", student):
            _browser_log_in(page, hub, student)
            page.wait_for_url(f"**/user/{student}/lab**", timeout=120_000)
            page.wait_for_selector("#jp-main-dock-panel", timeout=120_000)
        with step("find the lessons in the file browser", student):
            page.locator(".jp-DirListing-content >> text=setwidgets-lessons").wait_for(timeout=60_000)
        with step("open the Assignments tab (Nbgrader > Assignment List)", student):
            page.click("#jp-menu-panel >> text=Nbgrader", timeout=60_000)
            page.click("li.lm-Menu-item >> text=Assignment List", timeout=30_000)
            released = page.locator(
                "#released_assignments_list, .panel:has-text('Released assignments')"
            ).first
            released.locator(f"text={ASSIGNMENT}").wait_for(timeout=60_000)
            page.screenshot(path=str(screenshot_path("hub-student-assignments")))
            assert "Fetch" in released.inner_text(), released.inner_text()

        teacher = contexts[1].new_page()
        with step("log in in the browser and open the Formgrader's submissions", TEACHER):
            _browser_log_in(teacher, hub, TEACHER)
            # The login lands on the teacher's JupyterLab (the address is checked); the Formgrader
            # is opened at once, without waiting for Lab's page to load: the student's page above
            # is the one that checks Lab.
            teacher.wait_for_url(f"**/user/{TEACHER}/lab**", timeout=120_000, wait_until="commit")
            teacher.goto(f"{hub.url}/user/{TEACHER}/formgrader/manage_submissions/{ASSIGNMENT}")
            for name in STUDENTS:
                teacher.wait_for_selector(f"text={name}", timeout=60_000)
            teacher.screenshot(path=str(screenshot_path("hub-teacher-formgrader")))
    finally:
        for context in contexts:
            context.close()
