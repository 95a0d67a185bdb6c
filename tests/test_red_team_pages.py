"""A student's proof written to act in the teacher's pages acts nowhere: real nbgrader, pages and browser.

Issue 33 found that the Markdown sanitiser, a set of regexes over the source, let a ``javascript:``
link into the Formgrader and the feedback (a link by reference defined in a quote or a list item,
an escaped ``\\]`` or a two-line label, an address spelt with entities), that pictures reached the
teacher's browser (``![](/logout)`` with the teacher's login, a tracking picture elsewhere), and that
a proof with ``<`` reached the feedback as ``&amp;lt;``.

Here a temporary copy of exercise 2 is generated, handed in by ``mallory``, whose proof (the
Markdown answer ``proof_answer``) holds every one of those cheats and raw HTML besides, autograded
and given feedback with the real nbgrader command line and the course's configuration. Then:

- the autograded notebook, rendered by nbconvert with the Formgrader's own template, and the
  feedback page hold, in the student's proof, no link but to the web, mail or a relative address,
  no picture, no event handler and no element outside the allow-list; the proof reads ``a < b``;
- in Debian's Chromium, the teacher's manual-grading page of the Formgrader for that submission
  (logged in, as the teacher is) has no ``javascript:`` link and no picture in the student's cell,
  and the page asks for nothing at ``/logout`` or the student's server.

The control is the same course with ``InertOutputs`` taken out of autograde and generate_feedback:
there the same checks find the script links and the pictures, in the pages and in Chromium, so
they can fail. Screenshot: test-artifacts/formgrader-hostile-proof.png.
"""

from __future__ import annotations

import re
import shutil
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from urllib.parse import quote

import nbformat
import pytest
from formgrader_api import generate_assignment
from test_nbgrader import EXERCISES, NOTEBOOKS, hand_in, nbgrader, save
from test_sanitize import Shown

from setwidgets.grading.sandbox import bubblewrap_problem

pytestmark = [
    pytest.mark.nbgrader,
    pytest.mark.skipif(bubblewrap_problem() is not None, reason=f"no sandbox here: {bubblewrap_problem()}"),
]

TWO = "02_third_card"
NOTEBOOK = NOTEBOOKS[TWO]
STUDENT = "mallory"
# The proof's first and last words: everything the student's cell puts in a page lies between them.
START, END = "PROOF-START", "PROOF-END"
CHEATS = [
    "> [q]: javascript:alert('quote')",
    "- [l]: javascript:alert('list')",
    "[a\\]b]: javascript:alert('bracket')",
    "[two\nlines]: javascript:alert('twolines')",
    "Links: [by a quote][q], [by a list][l], [by a bracket][a\\]b], [on two lines][two lines],",
    "[by an entity](jav&#x61;script:alert('entity')) and [by two](jav&amp;#x61;script:alert('twice')).",
    "Pictures: ![](/logout) ![beacon](https://evil.example/beacon.png)",
    'Raw: <a href="javascript:alert(\'raw\')">raw link</a> <img src="x" onerror="alert(\'img\')">',
    '<svg onload="alert(\'svg\')"><circle r="9"/></svg> <iframe src="https://evil.example/"></iframe>',
    '<form action="/formgrader/api/grade/1" method=post><button>send</button></form>',
    "<meta http-equiv=refresh content=\"0;url=javascript:alert('meta')\"> <base href=https://evil.example/>",
    "<style>body { display: none }</style>",
    "Kept: [the web](https://example.org/set) and [a note](notes.ipynb#proof).",
]
PROOF = f"{START}\n\nFor any two cards, a < b in each feature's order, and $a < c$ when $c > b$.\n\n"
PROOF += "\n\n".join(CHEATS) + f"\n\n{END}"


def _handed_in(course: Path) -> Path:
    """Exercise 2 generated and handed in by mallory with the hostile proof."""
    from nbgrader.api import Gradebook

    course.mkdir(parents=True)
    shutil.copy(EXERCISES / "nbgrader_config.py", course)
    shutil.copytree(EXERCISES / "source" / TWO, course / "source" / TWO)
    generate_assignment(course, TWO)  # in this process, as the Formgrader does (tests/formgrader_api.py)
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        gb.update_or_create_student(STUDENT, first_name="Mallory", last_name="Student")
    save(course, STUDENT, TWO, hand_in(course, TWO, {"proof_answer": PROOF}))
    return course


def _graded(course: Path) -> None:
    nbgrader(course, "autograde", TWO)
    nbgrader(course, "generate_feedback", TWO)


@pytest.fixture(scope="module")
def courses(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The course as configured ("inert") and the control without InertOutputs ("raw"), both graded."""
    base = tmp_path_factory.mktemp("red-team-pages")
    inert = _handed_in(base / "inert")
    raw = shutil.copytree(inert, base / "raw")
    # The control differs from the course in this one step and nothing else.
    with (raw / "nbgrader_config.py").open("a") as config:
        config.write(
            "\nc.Autograde.autograde_preprocessors = [\n"
            "    step for step in c.Autograde.autograde_preprocessors if step is not InertOutputs\n"
            "]\n"
            "c.GenerateFeedback.preprocessors = [\n"
            "    step for step in c.GenerateFeedback.preprocessors if step is not InertOutputs\n"
            "]\n"
        )
    # Each autograde mostly waits for its kernel: both at once take little more than one.
    with ThreadPoolExecutor(2) as pool:
        for done in [pool.submit(_graded, course) for course in (inert, raw)]:
            done.result()
    return {"inert": inert, "raw": raw}


@pytest.fixture(scope="module")
def course(courses: dict[str, Path]) -> Path:
    return courses["inert"]


def the_proof(page: str) -> str:
    """The part of a page that the student's proof made: from its first word to its last."""
    assert page.count(START) == 1 and page.count(END) == 1, "the proof is in the page, once"
    return page[page.index(START) : page.index(END) + len(END)]


@cache  # the tests read the same page of the same graded course: rendered once (half a CPU-second each)
def formgrade_html(course: Path) -> str:
    """The autograded notebook as the Formgrader renders it: nbconvert with nbgrader's formgrade template."""
    from nbconvert import HTMLExporter
    from nbgrader.server_extensions.formgrader import handlers

    exporter = HTMLExporter(template_name="formgrade", extra_template_basedirs=[handlers.template_path])
    resources = {
        "assignment_id": TWO, "notebook_id": NOTEBOOK.removesuffix(".ipynb"), "submission_id": "x",
        "index": 0, "total": 1, "base_url": "", "student": STUDENT, "last_name": "Student",
        "first_name": "Mallory", "notebook_path": "",
    }  # fmt: skip
    autograded = course / "autograded" / STUDENT / TWO / NOTEBOOK
    html, _ = exporter.from_filename(str(autograded), resources=resources)
    return html


def feedback_html(course: Path) -> str:
    return (course / "feedback" / STUDENT / TWO / NOTEBOOK.replace(".ipynb", ".html")).read_text()


PAGES = {"formgrader": formgrade_html, "feedback": feedback_html}


@pytest.mark.parametrize("page", PAGES)
def test_the_proof_in_the_page_holds_no_script_link_picture_handler_or_foreign_element(course, page):
    proof = Shown(the_proof(PAGES[page](course)))
    assert proof.problems() == []
    assert not any(tag == "img" for tag, _ in proof.elements)
    assert proof.links() == ["https://example.org/set", "notes.ipynb#proof"]
    for words in (
        "by a quote",
        "by an entity",
        "raw link",
        "[picture not shown]",
        "[picture not shown: beacon]",
    ):
        assert words in proof.text, words
    assert proof.text.count("[link removed]") == 7, "each script link is words and a note, not a link"


@pytest.mark.parametrize("page", PAGES)
def test_control_without_inert_outputs_the_same_pages_hold_the_script_links_and_pictures(courses, page):
    proof = Shown(the_proof(PAGES[page](courses["raw"])))
    problems = proof.problems()
    # Markdown writes the quotes of an address as %27; the raw link keeps them.
    for cheat in ("quote", "list", "bracket", "twolines", "entity", "twice"):
        assert f"<a href='javascript:alert(%27{cheat}%27)'>" in problems, (cheat, problems)
    assert "<a href=\"javascript:alert('raw')\">" in problems, problems
    assert "<img src='/logout'>" in problems and "<img src='https://evil.example/beacon.png'>" in problems
    assert "<img onerror=\"alert('img')\">" in problems and "<svg onload=\"alert('svg')\">" in problems


@pytest.mark.parametrize("page", PAGES)
def test_nothing_in_the_whole_page_links_to_a_script_or_handles_an_event(course, page):
    whole = Shown(PAGES[page](course))
    for tag, attrs in whole.elements:
        # The page's own buttons have handlers; none is the student's (they all call alert).
        assert not any(name.startswith("on") and "alert" in value for name, value in attrs.items()), attrs
        for name in ("href", "src", "action"):
            assert "script:" not in attrs.get(name, "").lower().replace("\t", ""), (tag, attrs)
    assert "evil.example" not in PAGES[page](course), "the student's server is named nowhere in the page"


@pytest.mark.parametrize("page", PAGES)
def test_a_less_than_sign_in_the_proof_reads_as_written_and_the_maths_is_left_to_mathjax(course, page):
    html = PAGES[page](course)
    proof = Shown(the_proof(html))
    assert "a < b in each feature's order, and $a < c$ when $c > b$." in proof.text
    assert "&amp;lt;" not in html and "&amp;gt;" not in html
    # MathJax typesets what is between $ signs in the page; its Safe extension keeps \\href and
    # the like to safe addresses (the module's help relies on it).
    assert re.search(r"mathjax/[0-9.]+/[^\"']*config=[^\"']*\bSafe\b", html), (
        "MathJax with its Safe extension"
    )


def test_the_autograded_cell_holds_the_sanitised_html_and_the_teachers_cells_are_untouched(course):
    autograded = nbformat.read(course / "autograded" / STUDENT / TWO / NOTEBOOK, as_version=4)
    released = nbformat.read(course / "release" / TWO / NOTEBOOK, as_version=4)
    for mine, theirs in zip(autograded.cells, released.cells):
        meta = theirs.metadata.get("nbgrader", {})
        if meta.get("grade_id") == "proof_answer":
            assert mine.source.startswith("<div>") and "\n" not in mine.source
            assert START in mine.source and END in mine.source
        elif theirs.cell_type == "markdown" and meta.get("locked"):
            assert mine.source == theirs.source


# -- the teacher's Formgrader in Chromium ----------------------------------------------------------


def _submission_id(course: Path) -> str:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        return gb.find_submission_notebook(NOTEBOOK.removesuffix(".ipynb"), TWO, STUDENT).id


# In the page: the student's proof cell, and what in it could act, fetch or lead to a script.
_PROOF_CELL = f"""() => {{
  const cells = [...document.querySelectorAll('.text_cell_render')]
    .filter(c => c.textContent.includes('{START}'));
  if (cells.length !== 1) return {{cells: cells.length}};
  const cell = cells[0];
  const all = [...cell.querySelectorAll('*')];
  return {{
    cells: 1,
    scriptLinks: [...document.querySelectorAll('a[href^="javascript" i], [href*="script:" i]')].length,
    protocols: [...cell.querySelectorAll('[href]')].map(e => e.protocol || new URL(e.getAttribute('href'),
      location.href).protocol),
    pictures: cell.querySelectorAll('img, picture, svg, iframe, object, embed, video, audio, source').length,
    active: cell.querySelectorAll('form, input, button, meta, base, style, script, link').length,
    handlers: all.filter(e => [...e.attributes].some(a => a.name.toLowerCase().startsWith('on'))).length,
    text: cell.innerText,
  }};
}}"""


def _visit(course: Path, chromium: object, work: Path, shot: str, *, scores: bool) -> dict:
    """The teacher, logged in, opens mallory's submission in the Formgrader: what the page then holds
    in the proof's cell, what it asked for, the dialogs it opened, and whether it had the login."""
    from browser.harness import screenshot_path, start_formgrader

    requests: list[str] = []
    dialogs: list[str] = []
    context = chromium.new_context(viewport={"width": 1280, "height": 1000})
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.on("request", lambda r: requests.append(r.url))
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        with start_formgrader(course, work) as server:
            path = f"/formgrader/submissions/{_submission_id(course)}/"
            page.goto(server.url(f"login?next={quote(path)}"))
            page.fill("#password_input", server.token)
            with page.expect_navigation(wait_until="load"):
                page.press("#password_input", "Enter")
            assert page.url == server.url(path), page.url
            if scores:
                # The page fetches the grades after load and fills in the score boxes (its own
                # script works); the student's page, in the control, sets <base> and may not.
                page.wait_for_function(
                    "() => [...document.querySelectorAll('input.score')].some(i => i.placeholder !== '')"
                )
            # By then, and a moment later, anything of the student's that could run or fetch has.
            page.wait_for_timeout(2_000)
            found = page.evaluate(_PROOF_CELL)
            page.evaluate(
                f"() => [...document.querySelectorAll('.text_cell_render')]"
                f".find(c => c.textContent.includes('{START}'))?.scrollIntoView()"
            )
            page.screenshot(path=str(screenshot_path(shot)))
            found["logged_in"] = page.evaluate("() => document.cookie.includes('_xsrf')")
    finally:
        context.close()
    found["dialogs"] = dialogs
    found["fetched"] = [
        url for url in requests if "evil.example" in url or url.rstrip("/").endswith("/logout")
    ]
    return found


@pytest.mark.browser
def test_in_the_teachers_formgrader_the_proof_has_no_script_link_and_no_picture(course, chromium, tmp_path):
    found = _visit(course, chromium, tmp_path / "server", "formgrader-hostile-proof", scores=True)
    assert found["cells"] == 1, "the student's proof is on the page"
    assert found["logged_in"], "the page was the teacher's, with the login's XSRF cookie"
    assert found["scriptLinks"] == 0, "a javascript: link in the teacher's page"
    assert set(found["protocols"]) == {"https:", "http:"}, found["protocols"]  # the kept links
    assert found["pictures"] == 0 and found["active"] == 0 and found["handlers"] == 0, found
    assert "a < b in each feature's order" in found["text"] and "[picture not shown: beacon]" in found["text"]
    assert found["dialogs"] == []
    assert found["fetched"] == [], "the page asked the student's server or /logout for something"


@pytest.mark.browser
def test_control_without_inert_outputs_the_formgrader_shows_the_script_links_and_fetches(
    courses, chromium, tmp_path
):
    found = _visit(
        courses["raw"], chromium, tmp_path / "server", "formgrader-hostile-proof-unsafe", scores=False
    )
    assert found["cells"] == 1 and found["logged_in"]
    assert found["scriptLinks"] == 7 and found["protocols"].count("javascript:") == 7, found
    assert found["pictures"] >= 4 and found["handlers"] == 2, found
    assert any(url.endswith("/logout") for url in found["fetched"]), found["fetched"]
