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
- each student fetches their own feedback, and cannot read another student's.

Run it on its own with ``pytest -m hub``. It needs root (to create users and start servers
as them) and npm (for the hub's proxy); elsewhere it is skipped, and says why.
Every failure names the step and the user.
"""

from __future__ import annotations

import contextlib
import csv
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
from pathlib import Path

import nbformat
import pytest
from browser.harness import free_ports

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


def _remove_user(name: str) -> None:
    subprocess.run(["pkill", "-KILL", "-u", name], capture_output=True)
    time.sleep(0.2)
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

    def start_server(self, timeout: float = 180) -> None:
        with step("start the single-user server", self.name):
            answer = requests.post(
                f"{self.hub.url}/hub/api/users/{self.name}/server", headers=self.headers(), timeout=60
            )
            assert answer.status_code in (201, 202, 400), f"{answer.status_code}: {answer.text[:300]}"
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                model = requests.get(
                    f"{self.hub.url}/hub/api/users/{self.name}", headers=self.headers(), timeout=30
                ).json()
                if (model.get("servers") or {}).get("", {}).get("ready"):
                    return
                time.sleep(1)
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
    port = free_ports(3)  # the hub's public port, its proxy's API and the hub itself
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
def day(hub):
    """The class's day, run once: every step in order. The tests then read what it left."""
    people = {user: Person(hub, user) for user in [TEACHER, *STUDENTS]}
    for person in people.values():
        person.log_in()
        person.start_server()
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
    listed = {}
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
    return {"people": people, "listed": listed}


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
            teacher.wait_for_url(f"**/user/{TEACHER}/lab**", timeout=120_000)
            teacher.goto(f"{hub.url}/user/{TEACHER}/formgrader/manage_submissions/{ASSIGNMENT}")
            for name in STUDENTS:
                teacher.wait_for_selector(f"text={name}", timeout=60_000)
            teacher.screenshot(path=str(screenshot_path("hub-teacher-formgrader")))
    finally:
        for context in contexts:
            context.close()
