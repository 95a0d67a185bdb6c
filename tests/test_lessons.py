"""The lesson notebooks: each one runs from top to bottom in a fresh kernel, without errors
or warnings, is committed without outputs, and keeps the promises of a lesson (what you will
be able to do first, a recap and a pointer to an existing exercise last)."""

import re
import sys
from pathlib import Path

import nbformat
import pytest
from conftest import run_lesson

ROOT = Path(__file__).resolve().parents[1]
LESSON_DIR = ROOT / "lessons"
LESSONS = sorted(LESSON_DIR.glob("*.ipynb"))

pytestmark = pytest.mark.notebooks


def _ids(path: Path) -> str:
    return path.stem


def _code_cells(nb) -> list:
    return [cell for cell in nb.cells if cell.cell_type == "code"]


def test_unit_one_lessons_are_all_there():
    names = [path.name for path in LESSONS]
    # course.py opens 00_start_here.ipynb by name.
    assert names[:5] == [
        "00_start_here.ipynb",
        "01_the_cards.ipynb",
        "02_the_magic_rule.ipynb",
        "03_two_cards_decide_the_third.ipynb",
        "04_playing_the_mini_deck.ipynb",
    ], names


def test_unit_two_lessons_follow_and_point_to_their_exercises():
    names = [path.name for path in LESSONS]
    assert names[5:8] == [
        "05_the_full_deck.ipynb",
        "06_finding_sets_fast.ipynb",
        "07_the_real_game.ipynb",
    ], names
    exercises = {
        "05_the_full_deck.ipynb": "exercises/release/03_finding_sets/finding_sets.ipynb",
        "06_finding_sets_fast.ipynb": "exercises/release/03_finding_sets/finding_sets.ipynb",
        "07_the_real_game.ipynb": "exercises/release/04_the_dealer/the_dealer.ipynb",
    }
    for name, exercise in exercises.items():
        last = nbformat.read(LESSON_DIR / name, as_version=4).cells[-1].source
        assert f"`{exercise}`" in last, f"{name} ends by pointing to {exercise}"


def test_lessons_00_and_04_and_the_readme_point_to_unit_two():
    def text(name):
        nb = nbformat.read(LESSON_DIR / name, as_version=4)
        return "\n".join(cell.source for cell in nb.cells if cell.cell_type == "markdown")

    course_map = text("00_start_here.ipynb")
    readme = (LESSON_DIR / "README.md").read_text()
    for lesson in (
        "05_the_full_deck",
        "06_finding_sets_fast",
        "07_the_real_game",
        "15_running_a_class_tournament",
    ):
        assert f"[{lesson}]({lesson}.ipynb)" in course_map, f"the course map in lesson 00 links {lesson}"
        assert f"`{lesson}.ipynb`" in readme, f"lessons/README.md lists {lesson}"
    assert "`05_the_full_deck.ipynb`" in text("04_playing_the_mini_deck.ipynb")


UNIT_THREE = ["08_sets_are_lines.ipynb", "09_planes_and_magic_squares.ipynb", "10_symmetry.ipynb"]
EXERCISE_FIVE = "exercises/release/05_planes/planes.ipynb"
# A unit-3 lesson computes every count it states, yet runs in a sitting: benchmarks/bench_lessons.py
# times it (against a kernel that only imports the package), not the tests.


def _markdown(name):
    nb = nbformat.read(LESSON_DIR / name, as_version=4)
    return "\n".join(cell.source for cell in nb.cells if cell.cell_type == "markdown")


def test_unit_three_lessons_follow_and_point_to_exercise_five():
    names = [path.name for path in LESSONS]
    assert names[8:11] == UNIT_THREE, names
    for name in UNIT_THREE:
        last = nbformat.read(LESSON_DIR / name, as_version=4).cells[-1].source
        assert f"`{EXERCISE_FIVE}`" in last, f"{name} ends by pointing to exercise 5, {EXERCISE_FIVE}"
    assert "`08_sets_are_lines.ipynb`" in _markdown("07_the_real_game.ipynb"), (
        "lesson 07 points on to lesson 08"
    )
    readme = (LESSON_DIR / "README.md").read_text()
    for name in UNIT_THREE:
        assert f"[{Path(name).stem}]({name})" in _markdown("00_start_here.ipynb"), (
            f"the course map in lesson 00 lists {name}"
        )
        assert f"`{name}`" in readme, f"lessons/README.md lists {name}"


UNIT_FOUR = {
    "11_how_many_sets.ipynb": "exercises/release/06_probability/probability.ipynb",
    "12_a_table_with_no_set.ipynb": "exercises/release/06_probability/probability.ipynb",
    "13_odds_in_a_real_game.ipynb": "exercises/release/06_probability/probability.ipynb",
    "14_caps.ipynb": "exercises/release/07_caps/caps.ipynb",
}


def test_unit_four_lessons_follow_point_to_their_exercises_and_are_on_the_map():
    names = [path.name for path in LESSONS]
    assert names[11:15] == list(UNIT_FOUR), names
    readme = (LESSON_DIR / "README.md").read_text()
    for name, exercise in UNIT_FOUR.items():
        last = nbformat.read(LESSON_DIR / name, as_version=4).cells[-1].source
        assert f"`{exercise}`" in last, f"{name} ends by pointing to {exercise}"
        assert f"[{Path(name).stem}]({name})" in _markdown("00_start_here.ipynb"), (
            f"the course map links {name}"
        )
        assert f"`{name}`" in readme, f"lessons/README.md lists {name}"
    assert "`11_how_many_sets.ipynb`" in _markdown("10_symmetry.ipynb"), "lesson 10 points on to lesson 11"
    assert "being written" not in readme + _markdown("00_start_here.ipynb"), "every unit is written"


@pytest.mark.parametrize("path", LESSONS, ids=_ids)
def test_lesson_is_committed_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    dirty = [
        index
        for index, cell in enumerate(nb.cells)
        if cell.cell_type == "code" and (cell.outputs or cell.execution_count is not None)
    ]
    assert not dirty, f"{path.name}: cells {dirty} hold outputs or execution counts; strip them first"


@pytest.mark.parametrize("path", LESSONS, ids=_ids)
def test_lesson_opens_with_goals_and_ends_with_recap_and_exercise(path):
    nb = nbformat.read(path, as_version=4)
    first, last = nb.cells[0], nb.cells[-1]
    assert first.cell_type == "markdown" and first.source.startswith("# "), "a lesson opens with its title"
    assert "you will be able to" in first.source, "the first cell says what you will be able to do"
    assert last.cell_type == "markdown" and "## Recap" in last.source, "a lesson ends with a recap"
    text = "\n".join(cell.source for cell in nb.cells if cell.cell_type == "markdown")
    for pointer in re.findall(r"`(exercises/release/[^`]+)`", text):
        assert (ROOT / pointer).exists(), f"{path.name} points to {pointer}, which does not exist"
    if path.name != "00_start_here.ipynb":
        assert "exercises/release/" in last.source, "the recap points to the matching exercise"


@pytest.mark.parametrize("path", LESSONS, ids=_ids)
def test_lesson_runs_headless_without_errors_or_warnings(path):
    nb, _ = run_lesson(path)
    *cells, probe = _code_cells(nb)
    kernel_python = probe.outputs[0]["text"].strip()
    assert Path(kernel_python).resolve() == Path(sys.executable).resolve()
    for index, cell in enumerate(cells):
        assert cell.execution_count is not None, f"cell {index} of {path.name} did not run"
        for output in cell.outputs:
            assert output.output_type != "error", f"cell {index} of {path.name}: {output}"
            # A warning in a lesson confuses a student as much as an error does.
            stderr = output.get("name") == "stderr"
            assert not stderr, f"cell {index} of {path.name} wrote to stderr:\n{output.text}"


PACKAGE_HELPERS = ("show", "cards_svg", "card_svg", "cards_html")


@pytest.mark.parametrize("path", LESSONS, ids=_ids)
def test_lesson_takes_its_helpers_from_the_package(path):
    """A lesson does not define again what the package offers (one home for each helper)."""
    nb = nbformat.read(path, as_version=4)
    code = "\n".join(cell.source for cell in _code_cells(nb))
    defined = set(re.findall(r"^def (\w+)\(", code, re.MULTILINE))
    assert not defined & set(PACKAGE_HELPERS), f"{path.name} defines {defined & set(PACKAGE_HELPERS)}"
    if re.search(r"^\s*show\(", code, re.MULTILINE):
        assert re.search(r"^from setwidgets(\.draw)? import .*\bshow\b", code, re.MULTILINE), (
            f"{path.name} uses show() without importing it from setwidgets.draw"
        )


LINK = re.compile(r"\]\(([^)#\s]+\.ipynb)\)")


@pytest.mark.parametrize("path", LESSONS, ids=_ids)
def test_every_link_to_a_notebook_opens_one_that_exists(path):
    links = [link for cell in nbformat.read(path, as_version=4).cells for link in LINK.findall(cell.source)]
    missing = [link for link in links if not (path.parent / link).resolve().is_file()]
    assert not missing, f"{path.name} links to notebooks that are not there: {missing}"


def test_the_map_links_every_lesson_and_exercise():
    nb = nbformat.read(LESSON_DIR / "00_start_here.ipynb", as_version=4)
    linked = {(LESSON_DIR / link).resolve() for cell in nb.cells for link in LINK.findall(cell.source)}
    exercises = set((ROOT / "exercises" / "release").glob("*/*.ipynb"))
    assert set(LESSONS) | exercises <= linked
