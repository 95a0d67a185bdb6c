"""axe-core, the WCAG rule engine behind most accessibility audits, over what the course shows.

Every lesson and every release copy of an exercise runs once in the browser suite, in
:mod:`test_course_notebooks` (one JupyterLab, cell by cell); that test hands its page to
:func:`check_notebook_page`, which runs axe-core once over it, so no notebook runs twice for this.
Here: the class game's two views (the teacher's projector and a student's board, around one room
of a real classroom service), a feedback page made by nbgrader's ``generate_feedback`` with the
course's configuration, a saved notebook opened untrusted, and Voila's page showing each kind of
thing the package draws (a card, a row of cards, a chart, a board, a checker); Notebook 7's page
shows the same in :mod:`test_notebook7`, on that file's server.

One rule, written once in :data:`OUTPUTS`, leaves the chrome out: axe looks inside the cells'
outputs only (JupyterLab's toolbar, editors and cell list, and the feedback page's nbgrader
header, are not ours), which is what the notebooks and setwidgets put on the page. A check fails
on any violation there, of any kind and impact: the card pictures carry their names as ``alt``,
the card menus their labels, and the lessons' matplotlib charts the sentence that says what they
show (:func:`setwidgets.draw.chart`). Each page's violations go to test-artifacts/axe-<name>.json.

What a screen reader hears is read from Chromium's own accessibility tree (the DevTools
protocol's ``Accessibility.getFullAXTree``), for each card widget: saved as
test-artifacts/a11y-<name>.txt, and held to the kernel's cards and the checker's verdict.

axe-core comes from the ``axe-playwright-python`` package, which ships ``axe.min.js``; the
file is loaded into the page as it is, and nothing is fetched.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from setwidgets import Card

from .coursepages import CoursePage
from .harness import (
    ARTIFACTS,
    ROOT,
    NotebookPage,
    Server,
    python_cells,
    start_voila,
    write_notebook,
)
from .test_classroom import projector_cells, service, student_cells  # noqa: F401 (service: a fixture)

pytestmark = pytest.mark.browser

OUTPUTS = ".jp-OutputArea-output, .output_subarea"
"""The one rule that leaves the chrome out: axe looks inside the cells' outputs only, as JupyterLab
and Notebook 7 (``.jp-OutputArea-output``) and nbconvert's classic page, nbgrader's feedback
(``.output_subarea``), mark them."""

NOTEBOOKS = sorted(
    str(path.relative_to(ROOT))
    for path in [*ROOT.glob("lessons/*.ipynb"), *ROOT.glob("exercises/release/*/*.ipynb")]
)
"""Every lesson and every release copy of an exercise, as the course holds them."""

_JS_AXE = """async (include) => {
    const result = await axe.run({include: [[include]]}, {resultTypes: ['violations']});
    return result.violations.flatMap(v => v.nodes.map(n => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        target: n.target.join(' '),
        html: n.html.slice(0, 300),
    })));
}"""

# A widget's view is drawn after its output arrives: axe must wait for every one of them, or
# it would pass a menu that is not on the page yet.
_JS_WIDGETS_DRAWN = """() => [...document.querySelectorAll(
    ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.widget-view+json']")]
    .every(out => out.querySelector('.jupyter-widgets, .widget-box, .lm-Widget'))"""

# What the page offers in words: each card menu's accessible name, each picture's alt.
_JS_WORDS = """(outputs) => ({
    menus: [...document.querySelectorAll('.setw-picker select')].map(s =>
        s.getAttribute('aria-label') || [...s.labels].map(l => l.textContent.trim()).join(' ')),
    pictures: [...document.querySelectorAll(`:is(${outputs}) img`)].map(i => i.getAttribute('alt')),
    charts: document.querySelectorAll(`:is(${outputs}) img.setw-chart`).length,
    outputs: document.querySelectorAll(outputs).length,
})"""


def axe_source() -> str:
    """The text of axe.min.js as the ``axe-playwright-python`` package ships it."""
    try:
        import axe_playwright_python
    except ImportError:
        pytest.fail(
            "axe-core comes with the axe-playwright-python package (the test extra of pyproject.toml); "
            "install it with: .venv/bin/pip install -e '.[test]'",
            pytrace=False,
        )
    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")


def run_axe(page: object, name: str) -> list[dict]:
    """axe-core's violations inside the outputs of the page (see :data:`OUTPUTS`), one row per
    element, also written to test-artifacts/axe-<name>.json."""
    page.evaluate(axe_source())
    failing = page.evaluate(_JS_AXE, OUTPUTS)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"axe-{name}.json").write_text(json.dumps(failing, indent=1) + "\n")
    return failing


def page_words(page: object) -> dict:
    """The card menus' accessible names, the pictures' alt texts, the charts and outputs counted."""
    return page.evaluate(_JS_WORDS, OUTPUTS)


# -- Chromium's accessibility tree ------------------------------------------------------------------

# Roles that only hold other nodes: their children are shown in their place.
_PLAIN = {"generic", "none", "GenericContainer", "LayoutTable", "Section"}


def chromium_trees(page: object, selectors: Sequence[str]) -> dict[str, list[str]]:
    """Chromium's accessibility tree under each element matching each selector, as indented lines
    ``role "name"`` (what a screen reader is handed), read through the DevTools protocol.

    JupyterLab lays out no cell away from the view (``content-visibility: auto``), and Chromium's
    tree then holds nothing of that cell's contents. So the page is made as tall as the notebook,
    which brings every cell into view at once, and the tree is read once; an element still missing
    from it (a notebook taller than the limit) is scrolled into view and read again.
    """
    roots = page.evaluate(
        """sels => {
            const mark = 'data-setw-axroot';
            document.querySelectorAll(`[${mark}]`).forEach(el => el.removeAttribute(mark));
            return sels.map((sel, k) => [...document.querySelectorAll(sel)].map((el, i) => {
                el.setAttribute(mark, `${k}-${i}`);
                return `[${mark}='${k}-${i}']`;
            }));
        }""",
        list(selectors),
    )
    trees: dict[str, list[str]] = {selector: [] for selector in selectors}
    if not any(roots):
        return trees
    size = page.viewport_size
    height = page.evaluate(
        """() => {
            const s = document.querySelector('.jp-NotebookPanel .jp-WindowedPanel-outer');
            return s ? window.innerHeight - s.clientHeight + s.scrollHeight : document.body.scrollHeight;
        }"""
    )
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], min(16_000, height))})
    cdp = page.context.new_cdp_session(page)
    try:
        page.wait_for_timeout(300)  # the notebook lays out its cells again for the new height
        page.evaluate(_JS_TWO_FRAMES)
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
        for selector, found in zip(selectors, roots):
            for root in found:
                tree = _tree_text(nodes, _backend_id(cdp, root))
                if tree == _NOT_IN_TREE:
                    page.evaluate(
                        "sel => document.querySelector(sel).scrollIntoView({block: 'center'})", root
                    )
                    page.evaluate(_JS_TWO_FRAMES)
                    fresh = cdp.send("Accessibility.getFullAXTree")["nodes"]
                    tree = _tree_text(fresh, _backend_id(cdp, root))
                trees[selector].append(tree)
    finally:
        cdp.detach()
        page.set_viewport_size(size)
    return trees


_JS_TWO_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
_NOT_IN_TREE = "(not in the tree)"


def _backend_id(cdp: object, selector: str) -> int:
    """The DevTools protocol's id of the element matching ``selector``."""
    document = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node_id = cdp.send("DOM.querySelector", {"nodeId": document, "selector": selector})["nodeId"]
    return cdp.send("DOM.describeNode", {"nodeId": node_id})["node"]["backendNodeId"]


def _tree_text(nodes: list[dict], backend: int) -> str:
    """The accessibility tree under the DOM node ``backend``, one ``role "name"`` line per node."""
    by_id = {node["nodeId"]: node for node in nodes}
    by_dom = {node.get("backendDOMNodeId"): node for node in nodes}

    def lines(node: dict, depth: int) -> Iterator[str]:
        role = node.get("role", {}).get("value", "")
        name = str(node.get("name", {}).get("value", "")).strip()
        shown = not node.get("ignored") and role != "InlineTextBox" and bool(name or role not in _PLAIN)
        if shown:
            text = f"{'  ' * depth}{role}" + (f' "{name}"' if name else "")
            value = str(node.get("value", {}).get("value", "")).strip()
            if value and value != name:
                text += f": {value}"
            states = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
            if states.get("live") and states["live"] != "off":
                text += f" [live={states['live']}]"
            if "pressed" in states:  # a toggle button (aria-pressed): is it the chosen one
                text += f" [pressed={str(states['pressed']).lower()}]"
            yield text
        for child in node.get("childIds", []):
            if child in by_id:
                yield from lines(by_id[child], depth + shown)

    return "\n".join(lines(by_dom[backend], 0)) if backend in by_dom else _NOT_IN_TREE


def pressed(tree: str) -> dict[str, str]:
    """Each toggle button's name in a tree of :func:`chromium_trees`, with what a screen reader
    hears of its state: ``"true"`` or ``"false"`` (``aria-pressed``), ``"unsaid"`` when none."""
    found = {}
    for line in tree.splitlines():
        match = re.match(r'\s*button "(.*)"(.*)$', line)
        if match:
            state = re.search(r"\[pressed=(\w+)\]", match[2])
            found[match[1]] = state[1] if state else "unsaid"
    return found


def read_as_a_screen_reader(course: CoursePage, stem: str) -> str:
    """Save Chromium's tree of each card widget and picture as test-artifacts/a11y-<stem>.txt, and
    hold it to the kernel: a checker's tree names its menus, its cards and its verdict; a board's
    names every card on the table and says its status line."""
    page = course.page
    kinds = ("setw-checker", "setw-explorer", "setw-plane", "setw-board", "setw-table", "setw-lines")
    pictures = f":is({OUTPUTS}):has(img.setw-picture, img.setw-chart)"
    # A live game moves on by itself (lesson 07's players run out of time): the tree is read
    # between two readings of the kernel's widgets that agree, so both are of the same moment.
    for _ in range(3):
        before = course.kernel_widgets()
        page.wait_for_timeout(500)  # the page shows what the kernel said a moment ago
        read = chromium_trees(page, [*(f"div.{css}" for css in kinds), pictures])
        widgets = course.kernel_widgets()
        if widgets == before:
            break
    trees = {css: read[f"div.{css}"] for css in kinds}
    parts = [f"# {css} {nth + 1}\n{tree}" for css in kinds for nth, tree in enumerate(trees[css])]
    parts.extend(f"# picture output {nth + 1}\n{tree}" for nth, tree in enumerate(read[pictures]))
    text = "\n\n".join(parts) + "\n"
    (ARTIFACTS / f"a11y-{stem}.txt").write_text(text)

    if not (trees["setw-checker"] or trees["setw-board"]):
        return text
    kernel = {"MagicRuleChecker": [], "Board": []}
    for widget in widgets:
        kernel.get(widget.kind, []).append(widget)
    for kind, css in (("MagicRuleChecker", "setw-checker"), ("Board", "setw-board")):
        assert len(trees[css]) == len(kernel[kind]), (
            f"{kind}: {len(trees[css])} on the page, kernel: {kernel}"
        )
        for nth, (tree, widget) in enumerate(zip(trees[css], kernel[kind])):
            heard = [Card.parse(code).name for code in widget.cards]
            if kind == "MagicRuleChecker":
                heard += ['combobox "Card 1 number"', 'combobox "Card 3 shading"', 'list "cards"']
                heard.append(widget.texts["setw-verdict"])
            else:
                heard += ['list "cards"', widget.texts["setw-status"].strip().splitlines()[0]]
            missing = [words for words in heard if words not in tree]
            assert not missing, f"{kind} {nth + 1}: a screen reader does not hear {missing}:\n{tree}"
    return text


# -- the course's notebooks -------------------------------------------------------------------------


def check_notebook_page(course: CoursePage, name: str) -> None:
    """axe-core once over a course notebook's page that has run, then Chromium's tree of its card
    widgets (see the module's help). :mod:`test_course_notebooks` calls it on every lesson and
    release copy, after its own checks; ``name`` names the artifacts."""
    page = course.page
    start = time.monotonic()
    page.wait_for_function(_JS_WIDGETS_DRAWN, timeout=30_000)
    failing = run_axe(page, name)
    words = page_words(page)
    print(
        f"{name}: {len(failing)} axe violations in {words['outputs']} outputs; {len(words['menus'])} card"
        f" menus, {len(words['pictures'])} pictures ({words['charts']} charts); axe took"
        f" {time.monotonic() - start:.1f} s"
    )
    assert not failing, f"axe-core found in {name}'s outputs: " + json.dumps(failing, indent=1)[:4000]

    # The outputs were really checked (a selector that matched nothing would pass every rule),
    # and every picture and menu has its words.
    assert words["outputs"] > 0, f"{name} shows no output: axe checked nothing"
    assert all(menu and menu.strip() for menu in words["menus"]), words["menus"]
    assert all(alt and alt.strip() for alt in words["pictures"]), words["pictures"]
    read_as_a_screen_reader(course, name)
    print(f"{name}: axe and the accessibility trees took {time.monotonic() - start:.1f} s")


def test_every_lesson_and_release_copy_is_checked_where_it_runs() -> None:
    """The 16 lessons and 7 release copies are run by test_course_notebooks, which checks each page here."""
    from . import test_course_notebooks as course_notebooks

    lessons = [p for p in NOTEBOOKS if p.startswith("lessons/")]
    releases = [p for p in NOTEBOOKS if p.startswith("exercises/release/")]
    assert (len(lessons), len(releases)) == (16, 7), NOTEBOOKS
    assert sorted(c.path for c in course_notebooks.NOTEBOOKS) == NOTEBOOKS
    runs = course_notebooks.test_course_notebook_runs_and_shows_its_widgets
    assert "check_notebook_page" in runs.__code__.co_names, "the course notebooks' test no longer calls axe"


# -- the class game, a feedback page, a saved notebook ----------------------------------------------


def test_axe_finds_nothing_in_a_class_games_two_views(service, notebook_page) -> None:  # noqa: F811
    """The teacher's projector (ClassRoom) and a student's board (ClassBoard), around one room."""
    teacher = notebook_page("a11y_projector.ipynb", projector_cells(service))
    code = teacher.cell_output(2).strip()
    assert len(code) == 5 and code.isalpha(), code
    student = notebook_page("a11y_student.ipynb", student_cells(service, code, "Ada"))
    teacher.wait_text(".setw-class-players", "1 player: Ada")
    for nb, view, name in (
        (teacher, ".setw-classroom", "projector"),
        (student, ".setw-classboard", "student"),
    ):
        nb.page.locator(view).first.wait_for(timeout=60_000)
        failing = run_axe(nb.page, f"class-{name}")
        print(f"class game, {name}'s view: {len(failing)} violations")
        assert not failing, f"axe-core found in the {name}'s view: " + json.dumps(failing)[:4000]
        assert all(page_words(nb.page)["menus"])
        (tree,) = chromium_trees(nb.page, [view])[view]
        (ARTIFACTS / f"a11y-class-{name}.txt").write_text(tree + "\n")
        assert 'list "cards"' in tree, f"the {name}'s view does not name its cards:\n{tree}"


ONE, STUDENT = "01_magic_rule", "ada"

# nbgrader's own API in one process, with the course's nbgrader_config.py: the three commands a
# teacher runs (generate_assignment, autograde, generate_feedback) without three start-ups.
_NBGRADER_STEPS = """
import shutil, sys
from pathlib import Path
from nbgrader.api import Gradebook
from nbgrader.apps import NbGraderAPI
from nbgrader.apps.baseapp import NbGrader

assignment, student, notebook = sys.argv[1:4]
app = NbGrader()
app.config_file_paths.append(".")
app.load_config_file()
api = NbGraderAPI(config=app.config)

def step(name, result):
    if not result["success"]:
        sys.exit(f"nbgrader {name} failed:\\n{result.get('log', '')}\\n{result.get('error', '')}")

step("generate_assignment", api.generate_assignment(assignment))
with Gradebook(app.config.CourseDirectory.db_url) as gb:
    gb.update_or_create_student(student, first_name="Ada", last_name="Student")
handed_in = Path("submitted", student, assignment)
handed_in.mkdir(parents=True)
shutil.copy(Path("source", assignment, notebook), handed_in / notebook)
step("autograde", api.autograde(assignment, student))
step("generate_feedback", api.generate_feedback(assignment, student))
"""


@pytest.fixture(scope="module")
def feedback_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Exercise 1 handed in with its solutions by one student, autograded and given feedback by
    nbgrader with the course's configuration (its sandbox and sanitiser): the page a student gets."""
    from test_nbgrader import BIN, EXERCISES
    from test_nbgrader import NOTEBOOKS as EXERCISE_NOTEBOOKS

    course = tmp_path_factory.mktemp("a11y-feedback")
    shutil.copy(EXERCISES / "nbgrader_config.py", course)
    shutil.copytree(EXERCISES / "source" / ONE, course / "source" / ONE)
    notebook = EXERCISE_NOTEBOOKS[ONE]
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("NBGRADER_EXECUTION", None)
    done = subprocess.run(
        [str(BIN / "python"), "-c", _NBGRADER_STEPS, ONE, STUDENT, notebook],
        cwd=course, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"[-6000:]
    return course / "feedback" / STUDENT / ONE / notebook.replace(".ipynb", ".html")


def test_axe_finds_nothing_in_a_feedback_page(feedback_page: Path, new_page) -> None:
    page = new_page()
    # The page asks a CDN for MathJax; this machine has no network, and the test wants none.
    page.route(
        "**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort()
    )
    page.goto(feedback_page.as_uri(), wait_until="load")
    assert "Score:" in page.inner_text("body")
    failing = run_axe(page, "feedback")
    words = page_words(page)
    print(
        f"feedback page: {len(failing)} violations in {words['outputs']} outputs,"
        f" {len(words['pictures'])} pictures"
    )
    assert not failing, "axe-core found in the feedback page's outputs: " + json.dumps(failing)[:4000]
    # The feedback shows exercise 1's card and its board of nine as pictures, each named.
    assert "two red striped ovals" in words["pictures"], words["pictures"]
    assert any(alt.startswith("9 cards: a, ") for alt in words["pictures"]), words["pictures"]


def test_a_saved_notebook_opened_untrusted_still_shows_the_named_pictures(
    lab: Server, lab_root: Path, lab_notebook
):
    """A notebook opened from disk is not trusted: JupyterLab refuses its SVG outputs and sanitises
    its HTML. The <img> with alt text passes that sanitiser, so the cards and charts still show, named."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import nbformat

    from setwidgets.draw import chart, show

    row = show(["1RSO", "2GTS", "3POD"], letters="abc")
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.bar([0, 1, 2], [3, 1, 2])
    bars = chart(fig, "Bar chart of three bars: 3, 1 and 2")
    outputs = [
        nbformat.v4.new_output(
            "display_data",
            data={"text/plain": repr(obj), "image/svg+xml": obj._repr_svg_(), "text/html": obj._repr_html_()},
        )
        for obj in (Card.parse("2RTO"), row)
    ]
    png = nbformat.v4.new_output(
        "display_data",
        data={"text/plain": repr(bars), "image/png": _b64(bars.png), "text/html": bars._repr_html_()},
    )
    nb = nbformat.v4.new_notebook()
    nb.cells.append(nbformat.v4.new_code_cell("show(...)", outputs=[*outputs, png], execution_count=1))
    nbformat.write(nb, lab_root / "a11y_saved.ipynb")
    page = lab_notebook("a11y_saved.ipynb", timeout=120)
    pictures = page.page.locator(".jp-OutputArea-output img")
    pictures.nth(2).wait_for(timeout=30_000)
    shown = pictures.evaluate_all("els => els.map(e => [e.alt, e.complete && e.naturalWidth > 0])")
    assert shown == [["two red striped ovals", True], [row.alt, True], [bars.alt, True]], shown
    assert page.page.get_by_text("Cannot display an untrusted SVG").count() == 0
    failing = run_axe(page.page, "saved-untrusted")
    assert not failing, json.dumps(failing)[:2000]
    lab.shutdown_kernels()


# -- Notebook 7 and Voila: the same pictures and widgets on pages that are not JupyterLab's ----------

ELSEWHERE_SEED = 3
ELSEWHERE_CHART = "Bar chart of three bars: 3, 1 and 2"
ELSEWHERE_CELLS = python_cells(
    """
    import matplotlib.pyplot as plt
    from setwidgets import Card, Game
    from setwidgets.draw import chart, show
    from setwidgets.widgets import Board, MagicRuleChecker

    Card.parse("2RTO")
    """,
    'show(["1RSO", "2GTS", "3POD"], letters="abc")',
    f"""
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.bar([0, 1, 2], [3, 1, 2])
    chart(fig, {ELSEWHERE_CHART!r})
    """,
    f"Board(Game(seed={ELSEWHERE_SEED}))",
    'MagicRuleChecker(cards=["1RTD", "2RTD", "2RTS"])',
)
"""A card, a row of cards, a matplotlib chart, a board and a checker: each kind of thing the
package shows, for the pages other than JupyterLab's."""


def check_elsewhere(nb: NotebookPage, name: str) -> None:
    """axe-core over the outputs of a page showing :data:`ELSEWHERE_CELLS`, the pictures' alt
    texts, and Chromium's tree of the board and the checker (their cards and the verdict)."""
    from setwidgets import Game

    page = nb.page
    # The canvas is named by the package's front-end module once the board's view is drawn.
    page.locator("div.setw-board canvas[aria-label]").first.wait_for(state="attached", timeout=60_000)
    page.locator("div.setw-checker .setw-verdict").first.wait_for(state="attached", timeout=60_000)
    page.wait_for_function(_JS_WIDGETS_DRAWN, timeout=30_000)
    failing = run_axe(page, name)
    words = page_words(page)
    print(f"{name}: {len(failing)} axe violations in {words['outputs']} outputs; {words['pictures']}")
    assert not failing, f"axe-core found in {name}'s outputs: " + json.dumps(failing, indent=1)[:4000]
    row = "3 cards: a, one red solid oval; b, two green striped squiggles; c, three purple open diamonds"
    assert words["pictures"] == ["two red striped ovals", row, ELSEWHERE_CHART], words["pictures"]
    assert words["charts"] == 1 and len(words["menus"]) == 12 and all(words["menus"]), words

    read = chromium_trees(page, ["div.setw-board", "div.setw-checker"])
    (board,), (checker,) = read["div.setw-board"], read["div.setw-checker"]
    (ARTIFACTS / f"a11y-{name}.txt").write_text(f"# board\n{board}\n\n# checker\n{checker}\n")
    table = Game(seed=ELSEWHERE_SEED).table
    canvas = f'application "{len(table)} cards: Q: {table[0].name}; A: {table[1].name};'
    heard = [canvas, 'list "cards"', *(card.name for card in table), "status [live=polite]"]
    heard.append("12 cards on the table. Click three cards that form a SET.")
    missing = [words for words in heard if words not in board]
    assert not missing, f"{name}: the board's tree lacks {missing}:\n{board}"
    verdict = (
        "Not a SET: two have two symbols and one has one symbol; two are diamonds and one is a squiggle."
    )
    odd = "one red striped diamond (framed as the odd one out)"  # the checker frames each odd card
    heard = [f'image "3 cards: 1: {odd};', 'combobox "Card 3 shading": striped', verdict]
    missing = [words for words in heard if words not in checker]
    assert not missing, f"{name}: the checker's tree lacks {missing}:\n{checker}"
    # The verdict is the text of a polite live region: said again each time it changes.
    assert re.search(rf'status \[live=polite\]\n +StaticText "{re.escape(verdict)}"', checker), checker


def test_voila_shows_the_pictures_and_widgets_named(tmp_path_factory, chromium, new_page) -> None:
    """Voila's page, where the notebook runs before the page connects (the canvas is drawn later)."""
    root = tmp_path_factory.mktemp("a11y-voila")
    notebook = write_notebook(root / "a11y_voila.ipynb", ELSEWHERE_CELLS)
    with start_voila(notebook, tmp_path_factory.mktemp("a11y-voila-work")) as server:
        nb = NotebookPage(new_page(), server)
        nb.visit()
        assert nb.page.locator(".jp-InputArea").count() == 0  # Voila's page: outputs only
        check_elsewhere(nb, "voila")


def _b64(data: bytes) -> str:
    import base64

    return base64.b64encode(data).decode("ascii")
