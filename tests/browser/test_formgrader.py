"""A student's hostile output, shown to the teacher in the real Formgrader in Chromium, runs nothing.

The Formgrader renders an autograded notebook as HTML straight into the teacher's logged-in page,
on the same origin as its grading API. A student who makes a cell display HTML, JavaScript, SVG
or Markdown with a script in it would, without ``InertOutputs``, run that script in the teacher's
page: it could read the page's XSRF cookie and rewrite every grade of the class.

Two copies of exercise 1 are autograded with the real nbgrader command line (each in the
sandbox) for two students: ``honest`` hands in the solutions; ``attacker`` hands in right answers
whose ``is_set`` cell also displays four outputs with a payload each: HTML (an ``<img onerror>``
and an inline ``<svg onload>``), JavaScript, an SVG picture with ``onload``, and Markdown with raw
HTML. Each payload, if it runs, marks the page (title "PWNED", ``window.__pwned``) and, through
the Formgrader's API with the teacher's login and XSRF cookies, gives the attacker 99 points on
each of its cells and every other student 0.

- The course as configured (``exercises/nbgrader_config.py``, ``InertOutputs`` last in
  autograde): the attacker's submission page loads, says which outputs were dropped, and no
  payload runs: no mark, no dialog, no write to the API, every grade in the gradebook as it was.
- The control, the same course with ``InertOutputs`` taken out of autograde: the same page runs
  the HTML, JavaScript and Markdown payloads, which change every grade. So the payloads do reach
  the teacher's page when nothing stops them, and the first test proves something. (nbconvert
  shows an SVG picture as an ``<img>``, where no script runs; InertOutputs drops it all the same.)

Screenshots: test-artifacts/formgrader-attacker.png (safe) and
test-artifacts/formgrader-attacker-unsafe.png (the control).
"""

from __future__ import annotations

import html
import shutil
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote

import pytest
from test_nbgrader import EXERCISES, answers_of, hand_in, nbgrader, save

from setwidgets.grading.sandbox import bubblewrap_problem

from .harness import Server, screenshot_path, start_formgrader

pytestmark = [pytest.mark.browser, pytest.mark.nbgrader]

needs_bubblewrap = pytest.mark.skipif(
    bubblewrap_problem() is not None, reason=f"no sandbox here: {bubblewrap_problem()}"
)

ONE, NOTEBOOK = "01_magic_rule", "magic_rule"
STUDENTS = ("honest", "attacker")
TITLE_MARK = "PWNED"

# What a student's script would do in the teacher's page: mark it, then use the page's own
# login cookie and XSRF cookie to rewrite grades through the Formgrader's API, finding every
# submission from the student list and its own from the page's address.
PAYLOAD = """(function (how) {
  window.__pwned = (window.__pwned || []).concat([how]);
  document.title = "PWNED";
  var xsrf = decodeURIComponent((document.cookie.match(/(?:^|; )_xsrf=([^;]*)/) || ["", ""])[1]);
  var api = location.pathname.split("/formgrader/")[0] + "/formgrader/api/";
  var mine = location.pathname.split("/").filter(Boolean).pop();
  var call = function (path, body) {
    return fetch(api + path, {
      method: body ? "PUT" : "GET",
      headers: {"X-XSRFToken": xsrf, "Content-Type": "application/json"},
      body: body ? JSON.stringify(body) : undefined
    }).then(function (r) { return r.json(); });
  };
  var regrade = function (notebook, score) {
    return call("grades?submission_id=" + notebook).then(function (grades) {
      return Promise.all(grades.map(function (g) {
        return call("grade/" + g.id, {manual_score: score, extra_credit: 0});
      }));
    });
  };
  call("students").then(function (students) {
    return Promise.all(students.map(function (s) {
      return call("student_notebook_submissions/" + s.id + "/01_magic_rule").then(function (nbs) {
        return Promise.all(nbs.map(function (nb) { return regrade(nb.id, nb.id === mine ? 99 : 0); }));
      });
    }));
  }).then(function () { window.__regraded = (window.__regraded || 0) + 1; });
})"""


def _attribute(how: str) -> str:
    """The payload as the value of an HTML event attribute, for the vector called ``how``."""
    return html.escape(f"{PAYLOAD}({how!r})", quote=True)


HOSTILE = {
    "text/html": (
        f'<b>my notes</b><img src="x" onerror="{_attribute("html")}">'
        f'<svg width="9" height="9" onload="{_attribute("html svg")}"></svg>'
    ),
    "application/javascript": f"{PAYLOAD}('javascript');",
    "image/svg+xml": (
        '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20" '
        f'onload="{_attribute("svg")}"><rect width="20" height="20" fill="red"/></svg>'
    ),
    "text/markdown": f'**Done!** <img src="y" onerror="{_attribute("markdown")}">',
}
# Shown in the Formgrader for the outputs InertOutputs dropped (setwidgets/grading/sanitize.py).
DROPPED = [f"[output not shown to the teacher: {kind}]" for kind in HOSTILE]


def attacker_is_set(solution: str) -> str:
    """The source's right ``is_set``, then one display call per payload, each a bundle of one kind."""
    shows = "\n".join(f"display({{{kind!r}: {value!r}}}, raw=True)" for kind, value in HOSTILE.items())
    return f"{solution}\n\n\nfrom IPython.display import display\n\n{shows}\n"


def handed_in_course(folder: Path) -> Path:
    """A copy of exercise 1, generated, with both students' notebooks handed in."""
    from nbgrader.api import Gradebook

    folder.mkdir(parents=True)
    shutil.copy(EXERCISES / "nbgrader_config.py", folder)
    shutil.copytree(EXERCISES / "source" / ONE, folder / "source" / ONE)
    nbgrader(folder, "generate_assignment", ONE)
    with Gradebook(f"sqlite:///{folder / 'gradebook.db'}") as gb:
        for student in STUDENTS:
            gb.update_or_create_student(student, first_name=student.title(), last_name="Student")
    solved = answers_of(hand_in(folder, ONE, source=True))
    save(folder, "honest", ONE, hand_in(folder, ONE, source=True))
    hostile = dict(solved, is_set_answer=attacker_is_set(solved["is_set_answer"]))
    save(folder, "attacker", ONE, hand_in(folder, ONE, hostile))
    return folder


@pytest.fixture(scope="module")
def courses(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The course as configured ("inert") and the control without InertOutputs ("raw"), both autograded."""
    base = tmp_path_factory.mktemp("formgrader")
    inert = handed_in_course(base / "inert")
    raw = shutil.copytree(inert, base / "raw")
    # The control differs from the course in this one step and nothing else.
    with (raw / "nbgrader_config.py").open("a") as config:
        config.write(
            "\nc.Autograde.autograde_preprocessors = [\n"
            "    step for step in c.Autograde.autograde_preprocessors if step is not InertOutputs\n"
            "]\n"
        )
    # Each autograde mostly waits for its kernels: both at once take little more than one.
    with ThreadPoolExecutor(2) as pool:
        for done in [pool.submit(nbgrader, course, "autograde", ONE) for course in (inert, raw)]:
            done.result()
    return {"inert": inert, "raw": raw}


def gradebook_scores(course: Path) -> dict[tuple[str, str], tuple]:
    """Every grade of every student: (auto score, manual score, extra credit, needs a manual grade)."""
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        return {
            (student, g.name): (g.auto_score, g.manual_score, g.extra_credit, g.needs_manual_grade)
            for student in STUDENTS
            for nb in gb.find_submission(ONE, student).notebooks
            for g in nb.grades
        }


def submission_id(course: Path, student: str) -> str:
    """The id of a student's notebook in the gradebook: its page is /formgrader/submissions/<id>/."""
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        return gb.find_submission_notebook(NOTEBOOK, ONE, student).id


class Visit:
    """The attacker's submission open in the Formgrader, with what the page did meanwhile."""

    def __init__(self, page: object, server: Server, course: Path) -> None:
        self.page = page
        self.dialogs: list[str] = []
        self.writes: list[str] = []
        page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        page.on("request", self._request)
        # The teacher logs in with the token, as on Jupyter's login page: the page's own calls
        # to the API, and a payload's, then go with the login cookie and the XSRF cookie.
        path = f"/formgrader/submissions/{submission_id(course, 'attacker')}/"
        page.goto(server.url(f"login?next={quote(path)}"))
        page.fill("#password_input", server.token)
        with page.expect_navigation(wait_until="load"):
            page.press("#password_input", "Enter")
        assert page.url == server.url(path), page.url
        # The page fetches the grades after load and shows each autograded score in its box; a
        # payload has had every chance to run once they are shown and a while has passed.
        page.wait_for_function(
            "() => [...document.querySelectorAll('input.score')].some(i => i.placeholder !== '')",
            timeout=30_000,
        )
        page.wait_for_timeout(2_000)

    def _request(self, request: object) -> None:
        if request.method != "GET" and "/formgrader/" in request.url:
            self.writes.append(f"{request.method} {request.url}")

    def canary(self) -> dict:
        return self.page.evaluate(
            "() => ({pwned: window.__pwned || null, regraded: window.__regraded || 0, title: document.title})"
        )

    def live_elements(self) -> int:
        """Elements with an event handler attribute, and scripts that mention the payload's mark."""
        return self.page.evaluate(
            """() => document.querySelectorAll('[onerror], [onload]').length
                + [...document.scripts].filter(s => s.textContent.includes('__pwned')).length"""
        )

    def text(self) -> str:
        return self.page.locator("body").inner_text()

    def screenshot(self, name: str) -> Path:
        """The attacker's answer cell and what it displayed, as test-artifacts/<name>.png."""
        answer = self.page.locator("pre", has_text="from IPython.display import display").first
        answer.evaluate("el => window.scrollTo(0, window.scrollY + el.getBoundingClientRect().bottom - 500)")
        path = screenshot_path(name)
        self.page.screenshot(path=str(path))
        return path


@needs_bubblewrap
def test_the_attackers_output_runs_nothing_in_the_teachers_formgrader(courses, new_page: Callable, tmp_path):
    course = courses["inert"]
    before = gradebook_scores(course)
    assert before[("honest", "test_is_set_hidden")][0] == 3, "the honest student's answers scored"
    assert before[("attacker", "test_is_set_hidden")][0] == 3, "the attacker's cell ran and scored"

    with start_formgrader(course, tmp_path / "server") as server:
        visit = Visit(new_page(), server, course)
        shot = visit.screenshot("formgrader-attacker")
        canary, text = visit.canary(), visit.text()

    assert canary["pwned"] is None and canary["regraded"] == 0, f"a payload ran: {canary}"
    assert canary["title"] == NOTEBOOK, "the page's own title, untouched"
    assert visit.dialogs == []
    assert visit.writes == [], "the page wrote to the server"
    assert gradebook_scores(course) == before
    for line in DROPPED:
        assert line in text, f"the teacher is told what was dropped: {line}"
    assert "def is_set(a, b, c)" in text, "the attacker's code is there to read"
    assert visit.live_elements() == 0, "an element of the page holds a handler or script of the payload"
    assert shot.stat().st_size > 10_000


@needs_bubblewrap
def test_control_without_inert_outputs_the_same_page_runs_the_payloads(courses, new_page: Callable, tmp_path):
    course = courses["raw"]
    before = gradebook_scores(course)

    with start_formgrader(course, tmp_path / "server") as server:
        visit = Visit(new_page(), server, course)
        visit.page.wait_for_function(
            "() => window.__pwned && window.__regraded === window.__pwned.length", timeout=30_000
        )
        visit.screenshot("formgrader-attacker-unsafe")
        canary = visit.canary()
    after = gradebook_scores(course)

    # nbconvert shows an SVG output as an <img> of a data: address, where no script runs; the
    # same SVG inside HTML runs its onload.
    assert sorted(canary["pwned"]) == ["html", "html svg", "javascript", "markdown"]
    assert canary["title"] == TITLE_MARK
    assert visit.live_elements() == 4
    assert any("/formgrader/api/grade/" in write for write in visit.writes)
    assert after != before
    for (student, name), (_auto, manual, _extra, _needs) in after.items():
        assert manual == (99 if student == "attacker" else 0), (student, name, before[student, name])
