"""The exercise notebooks: they run headless, they are committed clean, and their nbgrader
metadata says what their text says.

- every source notebook (solutions included) executes without an error, as a student
  would run it (live widgets included) and as nbgrader runs it (widgets skipped);
- every release copy executes without crashing anywhere but where an unwritten answer is
  called, and its widget cells still work;
- points, grade ids, solution and hidden-test markers, seeded deals and the instant checks
  are all where the text says they are;
- ``nbgrader_config.py`` describes a course that runs from ``exercises/`` as it is.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
EXERCISES = ROOT / "exercises"
SOURCES = sorted((EXERCISES / "source").glob("*/*.ipynb"))
RELEASES = sorted((EXERCISES / "release").glob("*/*.ipynb"))
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
# The cells that show a live widget, by notebook: they must never crash. (Exercises 3 and 4
# show their deals as pictures and have no live widget.)
WIDGET_CELLS = {"magic_rule.ipynb": "board", "third_card.ipynb": "explorer"}
# What each notebook asks the student to write, and the instant check for it.
ANSWERS = {
    "magic_rule.ipynb": {
        "is_set_answer": "check_is_set(is_set)",
        "odd_one_out_answer": "check_odd_one_out(odd_one_out)",
    },
    "third_card.ipynb": {
        "third_card_answer": "check_third_card(third_card)",
        "third_card_mod3_answer": "check_third_card(third_card_mod3)",
        "count_sets_answer": "check_count_sets(count_sets)",
    },
    "finding_sets.ipynb": {
        "first_set_answer": "check_first_set(first_set)",
        "all_sets_answer": "check_all_sets(all_sets)",
    },
    "the_dealer.ipynb": {
        "take_set_answer": "check_take_set(take_set)",
        "no_set_answer": "check_no_set(no_set)",
        "competition_no_set_answer": "check_competition_no_set(competition_no_set)",
        "game_over_answer": "check_game_over(game_over)",
        "play_solitaire_answer": "check_play_solitaire(play_solitaire)",
    },
    "planes.ipynb": {
        "plane_answer": "check_plane(plane)",
        "magic_square_answer": "check_magic_square(magic_square)",
        "lines_through_answer": "check_lines_through(lines_through)",
    },
    "probability.ipynb": {
        "set_probability_answer": "check_set_probability(set_probability)",
        "expected_sets_answer": "check_expected_sets(expected_sets)",
        "simulate_no_set_rate_answer": "check_simulate_no_set_rate(simulate_no_set_rate)",
        "confidence_interval_answer": "check_confidence_interval(confidence_interval)",
    },
    "caps.ipynb": {
        "is_set_free_answer": "check_is_set_free(is_set_free)",
        "greedy_cap_answer": "check_greedy_cap(greedy_cap)",
        "largest_mini_cap_answer": "check_largest_mini_cap(largest_mini_cap)",
    },
}
# The notebooks with written answers graded by hand, and how many.
WRITTEN = {
    "third_card.ipynb": 1,
    "finding_sets.ipynb": 1,
    "planes.ipynb": 2,
    "probability.ipynb": 1,
    "caps.ipynb": 1,
}


# Code run after a notebook, as if the student picked cards in its widget; and what it prints.
PROBES = {
    "magic_rule.ipynb": 'checker.set_cards("1RSO", "2RSO", "3PSO")\nprint(yours.value)',
    "third_card.ipynb": (
        'explorer.set_cards("1RSO", "1RSO")\nprint(yours.value)\n'
        'explorer.set_cards("1RSO", "2RSO")\nprint(yours.value)'
    ),
}
PROBED = {
    ("magic_rule.ipynb", "source"): "<b>Your functions say:</b> Not a SET: look at the color.\n",
    ("magic_rule.ipynb", "release"): "<b>Your functions say:</b> Write is_set and odd_one_out above first.\n",
    ("third_card.ipynb", "source"): (
        "<b>Your third_card says:</b> ValueError: third_card needs two different cards; got 1RSO twice\n"
        "<b>Your third_card says:</b> 3RSO (three red solid ovals)\n"
    ),
    ("third_card.ipynb", "release"): "<b>Your third_card says:</b> Write third_card above first.\n" * 2,
}


def ids(paths: list[Path]) -> list[str]:
    return [f"{p.parent.name}/{p.name}" for p in paths]


def nbgrader_meta(cell) -> dict:
    return cell.metadata.get("nbgrader", {})


def execute(path: Path, grading: bool) -> nbformat.NotebookNode:
    """Run a notebook in a fresh kernel, as a student (grading=False) or as nbgrader would.

    As a student, a last cell (id "probe") then picks cards in the notebook's widget.
    """
    nb = nbformat.read(path, as_version=4)
    if not grading and path.name in PROBES:
        probe = nbformat.v4.new_code_cell(PROBES[path.name])
        probe.id = "probe"
        nb.cells.append(probe)
    env = {k: v for k, v in os.environ.items() if k != "NBGRADER_EXECUTION"}
    if grading:
        env["NBGRADER_EXECUTION"] = "autograde"
    client = NotebookClient(
        nb,
        timeout=120,
        kernel_name="python3",
        allow_errors=True,
        resources={"metadata": {"path": str(path.parent)}},
        # Every output is in once the last cell has run: killing the kernel then spares the half
        # second a polite shutdown waits for it to exit.
        shutdown_kernel="immediate",
    )
    client.execute(env=env)
    return nb


def errors(nb: nbformat.NotebookNode) -> dict[str, list[str]]:
    return {
        cell.id: [f"{o.ename}: {o.evalue}" for o in cell.outputs if o.output_type == "error"]
        for cell in nb.cells
        if cell.cell_type == "code" and any(o.output_type == "error" for o in cell.outputs)
    }


def text_of(cell) -> str:
    parts = []
    for output in cell.outputs:
        if output.output_type == "stream":
            parts.append(output.text)
        elif "data" in output and "text/plain" in output.data:
            parts.append(output.data["text/plain"])
    return "".join(parts)


def by_id(nb: nbformat.NotebookNode, cell_id: str):
    return next(c for c in nb.cells if c.id == cell_id)


# -- executing the notebooks ---------------------------------------------------------------------


@pytest.mark.notebooks
@pytest.mark.parametrize("grading", [False, True], ids=["as-a-student", "as-nbgrader"])
@pytest.mark.parametrize("path", SOURCES, ids=ids(SOURCES))
def test_the_source_notebook_runs_without_error_and_passes_its_own_tests(path, grading):
    nb = execute(path, grading)
    assert errors(nb) == {}
    for cell in nb.cells:
        meta = nbgrader_meta(cell)
        if meta.get("grade") and cell.cell_type == "code" and "Visible tests" in cell.source:
            assert "passed the visible tests." in text_of(cell), cell.id
        if cell.cell_type == "code" and cell.source.startswith("check_"):
            assert text_of(cell).startswith("✓"), (cell.id, text_of(cell))
    if path.name not in WIDGET_CELLS:
        return
    widget = by_id(nb, WIDGET_CELLS[path.name])
    shown = [o for o in widget.outputs if o.output_type == "display_data" and WIDGET_VIEW in o.data]
    if grading:
        assert shown == [], "under nbgrader the live widget is skipped"
    else:
        assert len(shown) == 1, "the student sees one live widget"
        assert text_of(by_id(nb, "probe")) == PROBED[path.name, "source"], (
            "the widget shows the student's answer"
        )


@pytest.mark.notebooks
@pytest.mark.parametrize("path", RELEASES, ids=ids(RELEASES))
def test_the_release_copy_fails_only_where_an_unwritten_answer_is_called(path):
    nb = execute(path, grading=False)
    found = errors(nb)
    assert found, "the untouched release copy cannot pass its tests"
    for cell_id, messages in found.items():
        assert all(m.startswith("NotImplementedError") for m in messages), (cell_id, messages)
        meta = nbgrader_meta(by_id(nb, cell_id))
        read_only = meta.get("locked") and not meta.get("grade")
        assert not read_only, f"the read-only cell {cell_id} should not crash"
    if path.name in WIDGET_CELLS:
        widget = by_id(nb, WIDGET_CELLS[path.name])
        assert widget.id not in found
        assert "first" in text_of(widget), "the widget cell says what to write first"
        assert any(o.output_type == "display_data" and WIDGET_VIEW in o.data for o in widget.outputs)
        assert text_of(by_id(nb, "probe")) == PROBED[path.name, "release"]
    for check in ANSWERS[path.name].values():
        cell = next(c for c in nb.cells if c.source == check)
        assert "is not written yet" in text_of(cell), check


# -- what is committed -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", SOURCES + RELEASES, ids=ids(SOURCES) + ["release/" + i for i in ids(RELEASES)]
)
def test_notebooks_are_committed_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.id


def test_each_source_has_its_release_copy():
    assert [p.relative_to(EXERCISES / "source") for p in SOURCES] == [
        p.relative_to(EXERCISES / "release") for p in RELEASES
    ]
    assert [p.parent.name for p in SOURCES] == [
        "01_magic_rule",
        "02_third_card",
        "03_finding_sets",
        "04_the_dealer",
        "05_planes",
        "06_probability",
        "07_caps",
    ]


@pytest.mark.parametrize("path", SOURCES, ids=ids(SOURCES))
def test_nbgrader_metadata_is_complete(path):
    nb = nbformat.read(path, as_version=4)
    grade_ids = [nbgrader_meta(c)["grade_id"] for c in nb.cells if nbgrader_meta(c)]
    assert len(grade_ids) == len(set(grade_ids)), "grade ids must be unique"
    kinds = {"tests": 0, "answer": 0, "manual": 0}
    for cell in nb.cells:
        meta = nbgrader_meta(cell)
        if not meta:
            continue
        assert meta["schema_version"] == 3 and meta["grade_id"] == cell.id
        if meta["grade"]:
            assert meta.get("points", 0) > 0, f"{cell.id}: every graded cell has points"
        if meta["grade"] and not meta["solution"]:
            kinds["tests"] += 1
            assert cell.cell_type == "code" and meta["locked"], cell.id
            claimed = re.match(r"# (Visible|Hidden) tests for \w+ \((\d+) points?\)", cell.source)
            assert claimed, f"{cell.id} opens with a comment that says what it tests and its points"
            assert int(claimed[2]) == meta["points"], cell.id
            hidden = "### BEGIN HIDDEN TESTS" in cell.source
            assert hidden == (claimed[1] == "Hidden"), cell.id
            if hidden:
                assert cell.source.index("### END HIDDEN TESTS") > cell.source.index("### BEGIN HIDDEN TESTS")
        elif meta["solution"] and meta["grade"]:
            kinds["manual"] += 1
            assert cell.cell_type == "markdown" and not meta["locked"]
            assert "### BEGIN SOLUTION" in cell.source and "### END SOLUTION" in cell.source
        elif meta["solution"]:
            kinds["answer"] += 1
            assert cell.cell_type == "code" and not meta["locked"]
            assert "### BEGIN SOLUTION" in cell.source and "### END SOLUTION" in cell.source
            assert cell.source.lstrip().startswith("def "), "the answer cell gives the function's header"
        else:
            assert meta["locked"], cell.id
    assert kinds["answer"] == len(ANSWERS[path.name])
    assert kinds["tests"] == 2 * kinds["answer"], "one visible and one hidden test cell per answer"
    assert kinds["manual"] == WRITTEN.get(path.name, 0)


@pytest.mark.parametrize("path", SOURCES, ids=ids(SOURCES))
def test_the_points_in_the_text_match_the_graded_cells(path):
    nb = nbformat.read(path, as_version=4)
    parts: dict[str, int] = {}
    current = None
    for cell in nb.cells:
        heading = (
            re.match(r"## (Part \d+): .*\((\d+) points", cell.source)
            if cell.cell_type == "markdown"
            else None
        )
        if heading:
            current = heading[1]
            parts[current] = -int(heading[2])
        elif cell.source.startswith("## "):
            current = None
        if current and nbgrader_meta(cell).get("grade"):
            parts[current] += nbgrader_meta(cell)["points"]
    assert parts and all(balance == 0 for balance in parts.values()), parts
    intro = nb.cells[0].source
    stated = sum(int(n) for n in re.findall(r"\((\d+) points", intro))
    total = sum(nbgrader_meta(c).get("points", 0) for c in nb.cells if nbgrader_meta(c).get("grade"))
    assert stated == total, f"the introduction promises {stated} points; the cells give {total}"


@pytest.mark.parametrize(
    "path", SOURCES + RELEASES, ids=ids(SOURCES) + ["release/" + i for i in ids(RELEASES)]
)
def test_deals_are_seeded_and_the_instant_checks_are_offered(path):
    nb = nbformat.read(path, as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert not re.search(r"\brandom\.(random|randint|randrange|choice|choices|sample|shuffle|seed)\(", code)
    assert re.search(r"random\.Random\(\d+\)", code), "the deal the student sees comes from a fixed seed"
    cells = [c for c in nb.cells]
    for answer_id, check in ANSWERS[path.name].items():
        start = next(i for i, c in enumerate(cells) if c.id == answer_id)
        after = [c for c in cells[start + 1 :] if not nbgrader_meta(c).get("grade")]
        assert any(c.source == check for c in after), f"{check} follows {answer_id}"
        check_cell = next(c for c in cells if c.source == check)
        assert not nbgrader_meta(check_cell), "instant checks are not graded"


def test_the_magic_rule_notebook_asks_for_is_set_from_the_features():
    nb = nbformat.read(EXERCISES / "source" / "01_magic_rule" / "magic_rule.ipynb", as_version=4)
    note = by_id(nb, "is-set-intro").source
    assert "Write the rule yourself, from the features" in note
    assert "do not import or call it" in note
    answer = by_id(nb, "is_set_answer").source
    assert "setwidgets" not in answer and "explain" not in answer


# -- the course configuration ------------------------------------------------------------------


def load_config(exchange: str | None = None, folder: Path = EXERCISES):
    """The course's nbgrader configuration, loaded from ``folder`` (a copy is put there first)."""
    from traitlets.config.loader import PyFileConfigLoader

    if folder != EXERCISES:
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(EXERCISES / "nbgrader_config.py", folder / "nbgrader_config.py")
    saved = os.environ.pop("SETWIDGETS_EXCHANGE", None)
    try:
        if exchange is not None:
            os.environ["SETWIDGETS_EXCHANGE"] = exchange
        return PyFileConfigLoader("nbgrader_config.py", path=str(folder)).load_config()
    finally:
        os.environ.pop("SETWIDGETS_EXCHANGE", None)
        if saved is not None:
            os.environ["SETWIDGETS_EXCHANGE"] = saved


def test_the_course_runs_from_the_exercises_folder_as_it_is():
    config = load_config()
    assert config.CourseDirectory.course_id == "setwidgets"
    assert Path(config.CourseDirectory.root) == EXERCISES
    assert config.CourseDirectory.db_url == f"sqlite:///{EXERCISES / 'gradebook.db'}"
    assert Path(config.Exchange.root) == EXERCISES / "exchange"
    assert config.ExecutePreprocessor.timeout == 30
    ignored = (ROOT / ".gitignore").read_text().split()
    working_files = ["gradebook.db", "submitted/", "autograded/", "feedback/", "exchange/", "downloaded/"]
    for working in [*working_files, "students.csv", "grades.csv", "grades_by_student.csv"]:
        assert f"exercises/{working}" in ignored, (
            f"exercises/{working} is the teacher's, not the repository's"
        )


def test_a_shared_exchange_comes_from_the_environment():
    assert (
        load_config("/usr/local/share/nbgrader/exchange").Exchange.root
        == "/usr/local/share/nbgrader/exchange"
    )


def test_zip_collect_reads_the_student_and_notebook_from_the_file_name():
    pattern = load_config().FileNameCollectorPlugin.named_regexp
    match = re.match(pattern, "/course/downloaded/01_magic_rule/extracted/ana_magic_rule.ipynb")
    assert match and match["student_id"] == "ana" and match["file_id"] == "magic_rule.ipynb"
    assert re.match(pattern, "/course/downloaded/01_magic_rule/extracted/notes.txt") is None


def test_a_fresh_course_gets_its_own_exchange_open_to_all_with_the_sticky_bit(tmp_path):
    """The Formgrader offers Release and Collect only when the exchange folder exists."""
    old = os.umask(0o077)  # a strict umask must not leave the students out
    try:
        config = load_config(folder=tmp_path / "course")
    finally:
        os.umask(old)
    exchange = tmp_path / "course" / "exchange"
    assert config.Exchange.root == str(exchange) and exchange.is_dir()
    assert stat.S_IMODE(exchange.stat().st_mode) == 0o1777
    exchange.chmod(0o770)  # a folder a teacher set up is left as it is
    load_config(folder=tmp_path / "course")
    assert stat.S_IMODE(exchange.stat().st_mode) == 0o770


def test_a_shared_exchange_is_neither_made_nor_changed(tmp_path):
    shared = tmp_path / "shared"
    config = load_config(str(shared), tmp_path / "course")
    assert config.Exchange.root == str(shared)
    assert not shared.exists() and not (tmp_path / "course" / "exchange").exists()
    assert load_config("", tmp_path / "other").Exchange.root == str(tmp_path / "other" / "exchange")


# -- graded tests judged outside the student's kernel ----------------------------------------


@pytest.mark.parametrize("path", SOURCES, ids=ids(SOURCES))
def test_every_graded_test_cell_is_judged_outside_the_kernel_by_its_hidden_tests_file(path):
    from setwidgets.grading.judge import load

    nb = nbformat.read(path, as_version=4)
    graded = [
        nbgrader_meta(c)["grade_id"]
        for c in nb.cells
        if c.cell_type == "code" and nbgrader_meta(c).get("grade") and not nbgrader_meta(c).get("solution")
    ]
    judged = load(path.parent)
    assert sorted(judged) == sorted(graded), "hidden_tests.py judges exactly the graded test cells"
    for c in nb.cells:
        if "### BEGIN HIDDEN TESTS" in c.source:
            body = c.source.split("### BEGIN HIDDEN TESTS\n")[1].split("### END HIDDEN TESTS")[0]
            grade_id = nbgrader_meta(c)["grade_id"]
            # What the teacher's source notebook runs: the same judged test, on the notebook itself.
            assert body.rstrip().endswith(f'try_here("{grade_id}")'), f"{grade_id}: calls its judged test"


def test_hidden_tests_files_are_never_released():
    released = sorted(p.name for p in (EXERCISES / "release").rglob("*") if p.is_file())
    assert "hidden_tests.py" not in released
    assert "hidden_tests.py" in load_config().CourseDirectory.ignore
