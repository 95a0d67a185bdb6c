"""axe-core, the WCAG rule engine behind most accessibility audits, over what the course shows.

Every lesson and every release copy of an exercise is copied into the folder the session's one
JupyterLab serves, run once, cell by cell (as :mod:`test_course_notebooks` does), and axe-core
runs once over the page. Then the class game's two views (the teacher's projector and a
student's board, around one room of a real classroom service), a feedback page made by the real
``nbgrader generate_feedback``, and a saved notebook opened untrusted.

One rule, written once in :data:`OUTPUTS`, leaves the chrome out: axe looks inside the cells'
outputs only (JupyterLab's toolbar, editors and cell list, and the feedback page's nbgrader
header, are not ours), which is what the notebooks and setwidgets put on the page. A test fails
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
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from setwidgets import Card

from .coursepages import CoursePage
from .harness import ARTIFACTS, ROOT, NotebookPage, Server
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


def chromium_trees(page: object, selector: str) -> list[str]:
    """Chromium's accessibility tree under each element matching ``selector``, as indented lines
    ``role "name"`` (what a screen reader is handed), read through the DevTools protocol.

    Each element is scrolled into view first, as a reader moving to it would: JupyterLab lays out
    no cell away from the view (``content-visibility: auto``), and Chromium's tree then holds
    nothing of that cell's contents.
    """
    count = page.evaluate(
        "sel => { const mark = 'data-setw-axroot';"
        " document.querySelectorAll(`[${mark}]`).forEach(el => el.removeAttribute(mark));"
        " const els = document.querySelectorAll(sel);"
        " els.forEach((el, i) => el.setAttribute(mark, i)); return els.length; }",
        selector,
    )
    trees = []
    cdp = page.context.new_cdp_session(page)
    try:
        for nth in range(count):
            root = f"[data-setw-axroot='{nth}']"
            page.evaluate(
                "sel => new Promise(done => { document.querySelector(sel).scrollIntoView({block: 'center'});"
                " requestAnimationFrame(() => requestAnimationFrame(done)); })",
                root,
            )
            document = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
            node_id = cdp.send("DOM.querySelector", {"nodeId": document, "selector": root})["nodeId"]
            backend = cdp.send("DOM.describeNode", {"nodeId": node_id})["node"]["backendNodeId"]
            trees.append(_tree_text(cdp.send("Accessibility.getFullAXTree")["nodes"], backend))
    finally:
        cdp.detach()
    return trees


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
            live = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}.get("live")
            if live and live != "off":
                text += f" [live={live}]"
            yield text
        for child in node.get("childIds", []):
            if child in by_id:
                yield from lines(by_id[child], depth + shown)

    return "\n".join(lines(by_dom[backend], 0)) if backend in by_dom else "(not in the tree)"


def read_as_a_screen_reader(course: CoursePage, stem: str) -> str:
    """Save Chromium's tree of each card widget and picture as test-artifacts/a11y-<stem>.txt, and
    hold it to the kernel: a checker's tree names its menus, its cards and its verdict; a board's
    names every card on the table and says its status line."""
    page = course.page
    parts, trees = [], {}
    for css in ("setw-checker", "setw-explorer", "setw-plane", "setw-board", "setw-table", "setw-lines"):
        trees[css] = chromium_trees(page, f"div.{css}")
        parts.extend(f"# {css} {nth + 1}\n{tree}" for nth, tree in enumerate(trees[css]))
    pictures = chromium_trees(page, f":is({OUTPUTS}):has(img.setw-picture, img.setw-chart)")
    parts.extend(f"# picture output {nth + 1}\n{tree}" for nth, tree in enumerate(pictures))
    text = "\n\n".join(parts) + "\n"
    (ARTIFACTS / f"a11y-{stem}.txt").write_text(text)

    if not (trees["setw-checker"] or trees["setw-board"]):
        return text
    kernel = {"MagicRuleChecker": [], "Board": []}
    for widget in course.kernel_widgets():
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


@pytest.fixture
def run_notebook(lab: Server, lab_root: Path, new_page) -> Iterator[Callable[[str], CoursePage]]:
    """Copy a course notebook into Lab's folder, open it and run its cells; its kernel is shut down after."""

    def open_it(path: str) -> CoursePage:
        target = lab_root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / path, target)
        nb = NotebookPage(new_page(), lab)
        nb.open(path, timeout=120)
        page = CoursePage(nb)
        page.run_each_cell(timeout=300)
        return page

    yield open_it
    lab.shutdown_kernels()


def test_every_lesson_and_release_copy_is_checked() -> None:
    lessons = [p for p in NOTEBOOKS if p.startswith("lessons/")]
    releases = [p for p in NOTEBOOKS if p.startswith("exercises/release/")]
    assert (len(lessons), len(releases)) == (16, 7), NOTEBOOKS


def _name(path: str) -> str:
    stem = Path(path).stem
    return f"release-{stem}" if path.startswith("exercises/") else stem


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[_name(p) for p in NOTEBOOKS])
def test_axe_finds_nothing_in_what_a_notebook_shows(path: str, run_notebook) -> None:
    course = run_notebook(path)
    page = course.page
    page.wait_for_function(_JS_WIDGETS_DRAWN, timeout=30_000)
    failing = run_axe(page, _name(path))
    words = page_words(page)
    print(
        f"{path}: {len(failing)} violations in {words['outputs']} outputs; {len(words['menus'])} card menus,"
        f" {len(words['pictures'])} pictures ({words['charts']} charts)"
    )
    assert not failing, f"axe-core found in {path}'s outputs: " + json.dumps(failing, indent=1)[:4000]

    # The outputs were really checked (a selector that matched nothing would pass every rule),
    # and every picture and menu has its words.
    assert words["outputs"] > 0, f"{path} shows no output: axe checked nothing"
    assert all(name and name.strip() for name in words["menus"]), words["menus"]
    assert all(alt and alt.strip() for alt in words["pictures"]), words["pictures"]
    read_as_a_screen_reader(course, _name(path))


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
        (tree,) = chromium_trees(nb.page, view)
        (ARTIFACTS / f"a11y-class-{name}.txt").write_text(tree + "\n")
        assert 'list "cards"' in tree, f"the {name}'s view does not name its cards:\n{tree}"


ONE, STUDENT = "01_magic_rule", "ada"


@pytest.fixture(scope="module")
def feedback_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Exercise 1 handed in with its solutions by one student, then autograded and given feedback by
    the real nbgrader command line with the course's configuration: the page a student gets."""
    from nbgrader.api import Gradebook
    from test_nbgrader import EXERCISES, hand_in, nbgrader, save
    from test_nbgrader import NOTEBOOKS as EXERCISE_NOTEBOOKS

    course = tmp_path_factory.mktemp("a11y-feedback")
    shutil.copy(EXERCISES / "nbgrader_config.py", course)
    shutil.copytree(EXERCISES / "source" / ONE, course / "source" / ONE)
    nbgrader(course, "generate_assignment", ONE)
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        gb.update_or_create_student(STUDENT, first_name="Ada", last_name="Student")
    save(course, STUDENT, ONE, hand_in(course, ONE, source=True))
    nbgrader(course, "autograde", ONE)
    nbgrader(course, "generate_feedback", ONE)
    return course / "feedback" / STUDENT / ONE / EXERCISE_NOTEBOOKS[ONE].replace(".ipynb", ".html")


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
    lab: Server, lab_root: Path, new_page
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
    page = NotebookPage(new_page(), lab)
    page.open("a11y_saved.ipynb", timeout=120)
    pictures = page.page.locator(".jp-OutputArea-output img")
    pictures.nth(2).wait_for(timeout=30_000)
    shown = pictures.evaluate_all("els => els.map(e => [e.alt, e.complete && e.naturalWidth > 0])")
    assert shown == [["two red striped ovals", True], [row.alt, True], [bars.alt, True]], shown
    assert page.page.get_by_text("Cannot display an untrusted SVG").count() == 0
    failing = run_axe(page.page, "saved-untrusted")
    assert not failing, json.dumps(failing)[:2000]
    lab.shutdown_kernels()


def _b64(data: bytes) -> str:
    import base64

    return base64.b64encode(data).decode("ascii")
