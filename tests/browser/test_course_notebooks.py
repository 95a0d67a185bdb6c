"""The course's own notebooks in a real JupyterLab: lessons and release copies run, and their widgets render.

Each test copies one notebook file, unchanged, into the folder JupyterLab serves
(at the same path as in the repository), opens it in JupyterLab (one page for the
module, loaded once: each test closes its notebook's tab and kernel) and runs its
cells one after another, as a student pressing Shift+Enter would. Then it checks

- every code cell ran, in order;
- the errors are exactly the expected ones: none in a lesson; in a release copy,
  where the student has not written the answers yet, a NotImplementedError in
  each cell that calls an answer, and nothing else (no ImportError, no warning);
- every SVG picture loaded, and the page shows as many card widgets of each kind
  as the notebook makes, each painted with the cards, frames and text the kernel
  says it holds (asked in the kernel itself, so the test follows the notebook);
- a few sentences a student must see;
- axe-core finds no accessibility violation in the outputs, and Chromium's accessibility
  tree names each widget's cards (:func:`test_accessibility.check_notebook_page`, on the
  same page, so no notebook runs twice).

Screenshots of each whole notebook, and of each cell with a widget, go to
test-artifacts/course-<name>*.png.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from .coursepages import STDERR, SVG, WIDGET_VIEW, CoursePage
from .harness import (
    ROOT,
    LabTabs,
    Server,
    copy_course,
    node_failed,
    save_failure_shot,
    screenshot_path,
    start_course_lab,
)
from .test_accessibility import check_notebook_page

pytestmark = pytest.mark.browser

NIE = "NotImplementedError"


@dataclass(frozen=True)
class CourseNotebook:
    """A notebook of the course and what a student sees after running it from the top."""

    path: str
    widgets: dict[str, int]
    errors: dict[int, str] = field(default_factory=dict)
    """Cell index (markdown cells counted) -> the exception that cell raises."""
    texts: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        stem = Path(self.path).stem
        return f"release-{stem}" if self.path.startswith("exercises/") else stem


NOTEBOOKS = [
    CourseNotebook(
        "lessons/00_start_here.ipynb",
        {"MagicRuleChecker": 1},
        texts=("two red striped ovals", "Not a SET: two are ovals and one is a diamond."),
    ),
    CourseNotebook("lessons/01_the_cards.ipynb", {}, texts=("27 cards", "cards in the full deck: 81")),
    CourseNotebook("lessons/02_the_magic_rule.ipynb", {"MagicRuleChecker": 1, "Board": 2}),
    CourseNotebook("lessons/03_two_cards_decide_the_third.ipynb", {"ThirdCardExplorer": 1}),
    CourseNotebook("lessons/04_playing_the_mini_deck.ipynb", {"Board": 4}),
    CourseNotebook(
        "lessons/05_the_full_deck.ipynb",
        {},
        texts=("find_sets finds 1080 SETs in the full deck", "= 1/79", "Blocks from top to bottom: color"),
    ),
    # The puzzle board is checked click by click in test_puzzle.py; here its lines must show.
    CourseNotebook(
        "lessons/06_finding_sets_fast.ipynb",
        {},
        texts=("all triples: 220 questions", "pairs and the third card: 66 questions", "SETs found: 0 of"),
    ),
    CourseNotebook(
        "lessons/07_the_real_game.ipynb",
        {"Board": 5},
        texts=("Rules: competition.", "Rules: online.", "20 cards; a SET among them: False"),
    ),
    # Unit 3: the geometry widgets are checked click by click in test_geometry.py.
    CourseNotebook(
        "lessons/08_sets_are_lines.ipynb",
        {"LinesExplorer": 2},
        texts=(
            "SETs among the nine cards: 12",
            "wrap-around diagonal  4",
            "4 lines pass through two red solid squiggles (2RSS)",
            "6480 ordered pairs; 6480 agree",
            "The line through 1RSO and 2GTS has the third card three purple open diamonds (3POD)",
        ),
    ),
    CourseNotebook(
        "lessons/09_planes_and_magic_squares.ipynb",
        {"PlaneBuilder": 1},
        texts=(
            "84 triples, of which 12 are SETs",
            "The plane of 1RSO, 2GTS and 1RSS holds 9 cards, and there are 12 SETs among them",
            "planes built through 2GTS: 130",
            "different planes among them: 1170",
        ),
    ),
    CourseNotebook(
        "lessons/10_symmetry.ipynb",
        {},
        texts=(
            "different relabelings made: 31104",
            "for each relabeling there are 63,180 affine maps",
            "listing all 17550 tables of 4 cards: 14742 without a SET",
        ),
    ),
    # The classroom unit; its Standings widget has browser tests of its own.
    CourseNotebook("lessons/15_running_a_class_tournament.ipynb", {}),
    # Unit 4: probability and caps; the simulations are seeded, so their printed figures are fixed.
    CourseNotebook(
        "lessons/11_how_many_sets.ipynb",
        {},
        texts=(
            "the exact value lies inside the interval for 19 of the 19 sizes",
            "the richest table found holds 14 SETs",
            "closed piece of the deck holding the table: 27 cards = 3 ** 3",
        ),
    ),
    CourseNotebook(
        "lessons/12_a_table_with_no_set.ipynb",
        {},
        texts=(
            "5 cards: 80730 tables listed, 50544 without a SET; count_set_free: 50544",
            "84240 x 2664 / C(5, 3) = 22441536",
            "a SET among these 12: False",
        ),
    ),
    CourseNotebook(
        "lessons/13_odds_in_a_real_game.ipynb",
        {},
        texts=("Tally: 100000 games of standard SET", "in play a table of 12 has no SET"),
    ),
    CourseNotebook(
        "lessons/14_caps.ipynb",
        {},
        texts=(
            "126 choices of 5 cards; SET-free: 0",
            "room for at most 13 x 13 = 169: impossible",
            "of the 61 other cards, 61 make a SET with the twenty",
        ),
    ),
    CourseNotebook(
        "exercises/release/01_magic_rule/magic_rule.ipynb",
        {"MagicRuleChecker": 1, "CardTable": 1},
        # The cells that call is_set or odd_one_out; the check cells catch it and give a hint.
        errors={9: NIE, 13: NIE, 17: NIE, 20: NIE},
        texts=(
            "is_set is not written yet",
            "odd_one_out is not written yet",
            "Write is_set above first; then this cell lists the SETs it finds on the board.",
            "Your functions say: Write is_set and odd_one_out above first.",
        ),
    ),
    CourseNotebook(
        "exercises/release/02_third_card/third_card.ipynb",
        {"ThirdCardExplorer": 1},
        errors={4: NIE, 7: NIE, 14: NIE, 19: NIE, 21: NIE},
        texts=(
            "third_card is not written yet",
            "third_card_mod3 is not written yet",
            "count_sets is not written yet",
            "Your third card for 1RSO and 2GTS: Write third_card above first.",
            "Your third_card says: Write third_card above first.",
        ),
    ),
    CourseNotebook(
        "exercises/release/03_finding_sets/finding_sets.ipynb",
        {},
        errors={6: NIE, 9: NIE, 13: NIE, 15: NIE},
        texts=("first_set is not written yet", "all_sets is not written yet"),
    ),
    CourseNotebook(
        "exercises/release/04_the_dealer/the_dealer.ipynb",
        {},
        errors={6: NIE, 8: NIE, 13: NIE, 18: NIE, 23: NIE, 27: NIE, 29: NIE},
        texts=(
            "take_set is not written yet",
            "game_over is not written yet",
            "play_solitaire is not written yet",
        ),
    ),
    CourseNotebook(
        "exercises/release/05_planes/planes.ipynb",
        {},
        errors={6: NIE, 9: NIE, 13: NIE, 15: NIE, 19: NIE, 21: NIE},
        texts=(
            "plane is not written yet",
            "magic_square is not written yet",
            "lines_through is not written yet",
        ),
    ),
    CourseNotebook(
        "exercises/release/06_probability/probability.ipynb",
        {},
        errors={6: NIE, 9: NIE, 13: NIE, 15: NIE, 19: NIE, 21: NIE, 25: NIE, 27: NIE},
        texts=("set_probability is not written yet", "confidence_interval is not written yet"),
    ),
    CourseNotebook(
        "exercises/release/07_caps/caps.ipynb",
        {},
        errors={6: NIE, 9: NIE, 13: NIE, 15: NIE, 19: NIE, 21: NIE},
        texts=("is_set_free is not written yet", "greedy_cap is not written yet"),
    ),
]


@pytest.fixture(scope="module")
def lab_tab(lab_tabs: LabTabs) -> Iterator[dict]:
    """One browser page holding JupyterLab for the module's notebooks, loaded once.

    Loading JupyterLab's page costs more CPU than most notebooks' checks; each test opens its
    notebook in this page's Lab instead, on a page no other notebook is open on (the previous
    one's tab closed, its kernel shut down). The page comes from ``lab_tabs`` (a Lab page kept
    loaded between modules) and goes back to it at the end. A test that fails takes the page
    with it: the next test loads a fresh one."""
    shared: dict = {}
    yield shared
    if "nb" in shared:
        lab_tabs.give_back(shared.pop("nb"))


@pytest.fixture
def open_course_notebook(
    lab: Server, lab_root: Path, lab_tabs: LabTabs, lab_tab: dict, request: pytest.FixtureRequest
) -> Iterator[Callable[[CourseNotebook], CoursePage]]:
    """Copy a course notebook into Lab's folder, open it and run it; its tab is closed and its
    kernel shut down after. On failure the page is saved as test-artifacts/FAILED-<test>.png."""
    failed_shot = screenshot_path(f"FAILED-{request.node.name}")
    failed_shot.unlink(missing_ok=True)  # a picture of an earlier failure would mislead

    def open_it(course: CourseNotebook) -> CoursePage:
        target = lab_root / course.path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / course.path, target)
        if "nb" not in lab_tab:
            nb = lab_tab["nb"] = lab_tabs.open(course.path, timeout=120)
        else:
            # As a student double-clicking it in the file browser; the last notebook's tab goes.
            nb = lab_tab["nb"]
            nb.open_here(course.path, timeout=120)
        page = CoursePage(nb)
        page.run_each_cell(timeout=240)
        return page

    yield open_it
    if "nb" in lab_tab and node_failed(request.node):
        save_failure_shot(lab_tab["nb"].page, failed_shot)
        lab_tabs.give_back(lab_tab.pop("nb"), reuse=False)
    elif "nb" in lab_tab:
        lab_tab["nb"].close_tabs()
    lab.shutdown_kernels()


def test_every_lesson_and_released_exercise_is_opened_here() -> None:
    notebooks = [*ROOT.glob("lessons/*.ipynb"), *ROOT.glob("exercises/release/*/*.ipynb")]
    every = sorted(str(path.relative_to(ROOT)) for path in notebooks)
    assert sorted(course.path for course in NOTEBOOKS) == every


@pytest.mark.parametrize("course", NOTEBOOKS, ids=[c.id for c in NOTEBOOKS])
def test_course_notebook_runs_and_shows_its_widgets(course: CourseNotebook, open_course_notebook) -> None:
    page = open_course_notebook(course)
    name = f"course-{course.id}"
    cells = page.code_cells()

    counts = [cell.execution_count for cell in cells]
    assert counts == list(range(1, len(cells) + 1)), f"code cells should run once each, in order: {counts}"

    raised = {cell.index: ", ".join(cell.errors) for cell in cells if cell.errors}
    details = {cell.index: cell.error_lines for cell in cells if cell.errors}
    assert raised == course.errors, (
        f"cells that raised (index: exception) are {raised}; expected {course.errors}. Errors: {details}"
    )
    noise = {cell.index: cell.stderr for cell in cells if cell.stderr}
    assert not noise, f"cells wrote to stderr: {noise}"
    # What the page renders agrees: one red traceback per error, and nothing else on stderr.
    assert page.rendered(STDERR).count() == len(course.errors)

    pictures = page.pictures()
    assert len(pictures) == sum(cell.count(SVG, without=WIDGET_VIEW) for cell in cells)
    broken = [i for i, (loaded, width, height) in enumerate(pictures) if not (loaded and width and height)]
    assert not broken, f"SVG pictures that did not load (in page order): {broken} of {pictures}"

    widgets = page.check_widgets()
    assert Counter(w.kind for w in widgets) == Counter(course.widgets), (
        f"the notebook made {Counter(w.kind for w in widgets)}; expected {course.widgets}"
    )
    assert sum(cell.count(WIDGET_VIEW) for cell in cells) >= min(1, len(widgets))

    text = page.page_text()
    missing = [t for t in course.texts if t not in text]
    assert not missing, f"the notebook should show {missing}"

    # Every key typed at every kind of control its widgets draw (test_widget_keys.py), while the
    # widgets are as the run left them (a class game's clock runs on).
    from .test_widget_keys import check_keys  # here: that module takes NOTEBOOKS from this one

    check_keys(page, course)
    # axe-core and Chromium's accessibility tree on this same page: each notebook runs once.
    check_notebook_page(page, course.id)
    page.screenshot_whole(name)
    page.screenshot_widget_cells(name)


def test_course_py_lab_opens_lesson_00_beside_the_whole_course_and_the_formgrader(tmp_path, new_page) -> None:
    """What a student and a teacher see after ``python3 course.py lab``, started through course.py."""
    repo = copy_course(tmp_path / "repo")
    with start_course_lab(repo, tmp_path / "work") as lab:
        page = new_page()
        page.goto(lab.url(f"?token={lab.token}"))  # the server's front page, as the printed address
        page.wait_for_url(re.compile(r"/lab/tree/lessons/00_start_here\.ipynb"), timeout=60_000)
        tab = page.locator(".lm-TabBar-tab.jp-mod-current .lm-TabBar-tabLabel")
        tab.filter(has_text="00_start_here.ipynb").wait_for(timeout=60_000)
        page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=60_000)

        # The course map's names are links: a click opens that lesson, or that exercise, in Lab.
        tabs = page.locator(".lm-TabBar-tab .lm-TabBar-tabLabel")
        for name, opened in (("01_the_cards", "01_the_cards.ipynb"), ("07_caps", "caps.ipynb")):
            page.locator(".jp-RenderedMarkdown a", has_text=re.compile(rf"^{name}$")).first.click()
            page.locator(".lm-TabBar-tab.jp-mod-current .lm-TabBar-tabLabel", has_text=opened).wait_for(
                timeout=60_000
            )
            page.locator(".jp-Notebook .jp-Cell:visible").first.wait_for(timeout=60_000)
            page.screenshot(path=str(screenshot_path(f"course-py-lab-map-{name}")))
            tabs.filter(has_text="00_start_here.ipynb").click()

        page.locator(".jp-BreadCrumbs-home").click()  # the top of the file browser
        listing = page.locator(".jp-DirListing-content .jp-DirListing-itemText")
        for folder in ("lessons", "exercises"):
            listing.filter(has_text=re.compile(rf"^{folder}$")).wait_for(timeout=30_000)
        page.screenshot(path=str(screenshot_path("course-py-lab")))

        grader = new_page()
        grader.goto(lab.url("formgrader"))
        for assignment in ("01_magic_rule", "02_third_card"):
            grader.get_by_role("link", name=assignment, exact=True).first.wait_for(timeout=60_000)
        assert "encountered an error" not in grader.inner_text("body")
        grader.screenshot(path=str(screenshot_path("course-py-lab-formgrader")))
