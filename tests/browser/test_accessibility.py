"""axe-core, the WCAG rule engine behind most accessibility audits, over what the lessons show.

Each test copies one lesson into the folder JupyterLab serves, runs its cells one after
another (as :mod:`test_course_notebooks` does), and runs axe-core over the page. One rule,
written once in :data:`OUTPUTS`, leaves JupyterLab's own toolbar, editors and cell list out:
only the cells' outputs are checked, which is what the lesson and setwidgets put on the page.

A test fails on any violation in those outputs, except in a PNG output: the lessons draw
their charts with matplotlib, which JupyterLab shows as an ``<img>`` that no code of the
kernel can give an ``alt`` (JupyterLab reads none from the output). Those are counted and
written to test-artifacts/axe-<lesson>.json with everything else axe found, and the test
checks that they are all of that one kind, so a new kind of violation there still fails.

axe-core comes from the ``axe-playwright-python`` package, which ships ``axe.min.js``; the
file is loaded into the page as it is, and nothing is fetched.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .coursepages import CoursePage
from .harness import ARTIFACTS, ROOT, NotebookPage, Server
from .test_classroom import projector_cells, service, student_cells  # noqa: F401 (service: a fixture)

pytestmark = pytest.mark.browser

OUTPUTS = ".jp-OutputArea-output"
"""The one rule that leaves JupyterLab's chrome out: axe looks inside the cells' outputs only."""

PNG = "image/png"
"""Outputs of this kind are matplotlib's charts, reported but not failed on (see the module's help)."""

LESSONS = [
    "lessons/00_start_here.ipynb",
    "lessons/01_the_cards.ipynb",
    "lessons/02_the_magic_rule.ipynb",
    "lessons/03_two_cards_decide_the_third.ipynb",
    "lessons/06_finding_sets_fast.ipynb",
    "lessons/09_planes_and_magic_squares.ipynb",
    "exercises/release/01_magic_rule/magic_rule.ipynb",
]
"""Notebooks with every kind of picture and menu setwidgets draws: card pictures and rows, boards,
the checker's, the explorer's and the plane builder's card menus, a card table, and (lesson 06)
matplotlib charts. Every lesson and release copy was run through this test once (23 notebooks,
10 minutes on a loaded machine): none had a violation outside a chart; the list is kept to these
so the test takes about three minutes."""

# Each violation's nodes with the kind of output that holds them (the mime type JupyterLab
# writes on the output), so the PNG exception is decided by what the page shows, not guessed.
_JS_AXE = """async (include) => {
    const result = await axe.run({include: [[include]]}, {resultTypes: ['violations']});
    return result.violations.map(v => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map(n => {
            const el = document.querySelector(n.target[0]);
            const output = el && el.closest('.jp-OutputArea-output');
            return {
                target: n.target.join(' '),
                html: n.html.slice(0, 300),
                mime: output ? output.dataset.mimeType || '' : '',
            };
        }),
    }));
}"""

# The accessible name Chromium gives each card menu: what a screen reader announces on it.
_JS_MENU_NAMES = """() => [...document.querySelectorAll('.setw-picker select')].map(s => {
    const labels = [...s.labels].map(l => l.textContent.trim()).filter(Boolean);
    return s.getAttribute('aria-label') || labels.join(' ');
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


def run_axe(page: object) -> list[dict]:
    """axe-core's violations inside the outputs of the page (see :data:`OUTPUTS`)."""
    page.evaluate(axe_source())
    return page.evaluate(_JS_AXE, OUTPUTS)


def split_violations(violations: list[dict]) -> tuple[list[dict], list[dict]]:
    """The nodes of each violation, as (outside PNG outputs, inside PNG outputs)."""
    failing, charts = [], []
    for violation in violations:
        for node in violation["nodes"]:
            row = {"id": violation["id"], "impact": violation["impact"], **node}
            (charts if node["mime"] == PNG else failing).append(row)
    return failing, charts


@pytest.fixture
def run_lesson(lab: Server, lab_root: Path, new_page) -> Iterator[Callable[[str], CoursePage]]:
    """Copy a lesson into Lab's folder, open it and run its cells; its kernel is shut down after."""

    def open_it(path: str) -> CoursePage:
        target = lab_root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / path, target)
        nb = NotebookPage(new_page(), lab)
        nb.open(path, timeout=120)
        page = CoursePage(nb)
        page.run_each_cell(timeout=240)
        return page

    yield open_it
    lab.shutdown_kernels()


@pytest.mark.parametrize("path", LESSONS, ids=[Path(p).stem for p in LESSONS])
def test_axe_finds_nothing_in_what_a_lesson_shows(path: str, run_lesson) -> None:
    course = run_lesson(path)
    page = course.page
    # Every widget's card menus are on the page before axe looks (a widget view renders late).
    page.wait_for_timeout(1500)
    violations = run_axe(page)
    failing, charts = split_violations(violations)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"axe-{Path(path).stem}.json").write_text(
        json.dumps({"failing": failing, "png_outputs": charts}, indent=1) + "\n"
    )
    print(f"{path}: {len(failing)} violations in what the lesson shows; {len(charts)} in matplotlib charts")
    assert not failing, f"axe-core found in {path}'s outputs: " + json.dumps(failing, indent=1)[:4000]
    # A chart's only violation is its missing alt; anything else in a PNG output fails too.
    assert {row["id"] for row in charts} <= {"image-alt"}, json.dumps(charts, indent=1)[:2000]

    # The outputs were really checked: they are on the page, and axe saw the card menus and
    # pictures (a selector that matched nothing would pass every rule).
    assert page.locator(OUTPUTS).count() > 0
    names = page.evaluate(_JS_MENU_NAMES)
    assert all(names), f"card menus without a name: {names}"
    pictures = page.locator(f"{OUTPUTS} img.setw-picture")
    alts = pictures.evaluate_all("els => els.map(e => e.alt)")
    assert all(alt.strip() for alt in alts), alts
    assert names or alts, f"{path} showed no card menu and no card picture: nothing of setwidgets was checked"
    read_as_a_screen_reader(page, Path(path).stem)


def read_as_a_screen_reader(page: object, stem: str) -> None:
    """Save what Chromium's accessibility tree holds for each card widget and picture, and check
    that a checker's tree names its menus, its cards and its verdict (what a screen reader reads)."""
    parts = []
    for css in ("setw-checker", "setw-explorer", "setw-plane", "setw-board"):
        widgets = page.locator(f"div.{css}")
        for nth in range(widgets.count()):
            parts.append(f"# {css} {nth + 1}\n{widgets.nth(nth).aria_snapshot()}")
    pictures = page.locator(f"{OUTPUTS}:has(img.setw-picture)")
    for nth in range(pictures.count()):
        parts.append(f"# picture {nth + 1}\n{pictures.nth(nth).aria_snapshot()}")
    (ARTIFACTS / f"a11y-{stem}.txt").write_text("\n\n".join(parts) + "\n")

    checkers = page.locator("div.setw-checker")
    for nth in range(checkers.count()):
        checker = checkers.nth(nth)
        tree = checker.aria_snapshot()
        verdict = checker.locator(".setw-verdict").first.evaluate("el => el.textContent.trim()")
        for heard in ('combobox "Card 1 number"', 'combobox "Card 3 shading"', 'list "cards"', verdict):
            assert heard in tree, f"checker {nth + 1}: a screen reader does not hear {heard!r}:\n{tree}"


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
        failing, charts = split_violations(run_axe(nb.page))
        print(f"class game, {name}'s view: {len(failing)} violations")
        assert not failing and not charts, (
            f"axe-core found in the {name}'s view: " + json.dumps(failing)[:4000]
        )
        tree = nb.page.locator(view).first.aria_snapshot()
        (ARTIFACTS / f"a11y-class-{name}.txt").write_text(tree + "\n")
        assert 'list "cards"' in tree, f"the {name}'s view does not name its cards:\n{tree}"


def test_a_saved_notebook_opened_untrusted_still_shows_the_named_pictures(
    lab: Server, lab_root: Path, new_page
):
    """A notebook opened from disk is not trusted: JupyterLab refuses its SVG outputs and sanitises
    its HTML. The <img> with alt text passes that sanitiser, so the cards still show, named."""
    import nbformat

    from setwidgets import Card
    from setwidgets.draw import show

    row = show(["1RSO", "2GTS", "3POD"], letters="abc")
    outputs = [
        nbformat.v4.new_output(
            "display_data",
            data={"text/plain": repr(obj), "image/svg+xml": obj._repr_svg_(), "text/html": obj._repr_html_()},
        )
        for obj in (Card.parse("2RTO"), row)
    ]
    nb = nbformat.v4.new_notebook()
    nb.cells.append(nbformat.v4.new_code_cell("show(...)", outputs=outputs, execution_count=1))
    nbformat.write(nb, lab_root / "a11y_saved.ipynb")
    page = NotebookPage(new_page(), lab)
    page.open("a11y_saved.ipynb", timeout=120)
    pictures = page.page.locator(f"{OUTPUTS} img.setw-picture")
    pictures.nth(1).wait_for(timeout=30_000)
    shown = pictures.evaluate_all("els => els.map(e => [e.alt, e.complete && e.naturalWidth > 0])")
    assert shown == [["two red striped ovals", True], [row.alt, True]], shown
    assert page.page.get_by_text("Cannot display an untrusted SVG").count() == 0
    failing, charts = split_violations(run_axe(page.page))
    assert not failing and not charts, json.dumps(failing + charts)[:2000]
    lab.shutdown_kernels()
