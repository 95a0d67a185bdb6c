"""The cheating student against the real ``nbgrader autograde``, on a temporary copy of the course.

One module-scoped fixture hands in, per exercise, an honest solver, an ordinary wrong answer
and one student per cheat, then runs ``autograde`` once per exercise (every student at
once), ``generate_feedback`` and ``export``. Each cheat must score nothing on what it cheats,
or be flagged for the teacher; the honest students score as before, and nothing is flagged
for them.

Exercise 1 (``01_magic_rule``):

- ``importer``: the package's own ``is_set`` and ``explain`` as the answers;
- ``patcher``: replaces ``setwidgets.is_set`` and ``setwidgets.explain`` with constants, and
  answers the same constants;
- ``transformer``: an answer cell that adds an IPython input transformer rewriting the later
  test cells to ``pass``;
- ``reader``: executes the solutions read from ``../../../source/``;
- ``scribbler``: writes ``gradebook.db`` (its own score 400, the others' 0) and forks a process
  that sleeps past the end of grading;
- ``bypass``: the transformer again, reached through the shell that IPython's ``exit`` holds and
  named by a string built at run time, so that the scan of the code sees nothing. Neither
  transformer gains anything: the graded tests are judged outside the kernel and never pass
  through it, so ``odd_one_out``'s wrong answers score nothing;
- ``killer``: ``os._exit`` in the ``odd_one_out`` cell; ``deaf``: a loop there that swallows
  KeyboardInterrupt; ``hog``: allocates 6 GiB there. Their ``is_set`` is right and must score.

Exercise 2 (``02_third_card``): ``importer`` (the package's ``third_card`` and ``count_sets``),
``equal`` (answers equal to everything), ``patcher`` (``setwidgets.third_card`` replaced,
constant answers).
"""

from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import nbformat
import pytest
from formgrader_api import generate_assignment
from test_nbgrader import (
    BIN,
    EXERCISES,
    IS_SET,
    ODD_ONE_OUT,
    ODD_ONE_OUT_GIVES_THE_VALUE,
    answers_of,
    cell,
    grades,
    hand_in,
    nbgrader,
    save,
)

from setwidgets.grading.report import report
from setwidgets.grading.sandbox import bubblewrap_problem

pytestmark = pytest.mark.nbgrader

ONE, TWO = "01_magic_rule", "02_third_card"
TIMEOUT = 5  # seconds per cell: every honest cell takes well under one
SURVIVOR = "31.4159"  # the forked process sleeps this long, so that it can be told apart

IMPORTED_IS_SET = "from setwidgets import is_set, explain"
ODD_BY_EXPLAIN = """
from setwidgets import explain


def odd_one_out(a, b, c):
    broken = explain(a, b, c).broken
    return broken[0].feature if broken else None
"""
PATCHED_ONE = """
import setwidgets
import setwidgets.rules


class Verdict:
    is_set = False
    broken = ()


# Whatever the hidden tests ask the package, it now agrees with this notebook.
setwidgets.is_set = setwidgets.rules.is_set = lambda *cards: False
setwidgets.explain = setwidgets.rules.explain = lambda *cards: Verdict()


def is_set(a, b, c):
    return False
"""
ODD_CONSTANT = """
def odd_one_out(a, b, c):
    return None
"""
TRANSFORMER = (
    IS_SET
    + '''

def _skip_tests(lines):
    """Every later test cell of odd_one_out becomes a cell that does nothing."""
    tests = any("odd_one_out" in line and ("Visible" in line or "Hidden" in line) for line in lines)
    return ["pass\\n"] if tests else lines


get_ipython().input_transformers_post.append(_skip_tests)
'''
)
BYPASS = (
    IS_SET
    + """

_shell = getattr(exit, "_" + "ip")
getattr(_shell, "input_transformers" + "_post").append(
    lambda lines: ["pass\\n"] if any("tests for odd_one_out" in line for line in lines) else lines
)
"""
)
READER = """
import json

for _cell in json.load(open("../../../source/01_magic_rule/magic_rule.ipynb"))["cells"]:
    if _cell["metadata"].get("nbgrader", {}).get("solution"):
        exec("".join(_cell["source"]))
"""
SCRIBBLER = (
    IS_SET
    + f'''

import os
import sqlite3
import time

try:
    _db = sqlite3.connect("../../../gradebook.db")
    _db.execute("UPDATE grade SET auto_score = CASE WHEN notebook_id IN "
                "(SELECT id FROM submitted_notebook) THEN 400 ELSE 0 END")
    _db.commit()
except Exception as error:
    print("no gradebook:", error)
if os.fork() == 0:
    # The child outlives the kernel, if it can, to rewrite the grades after grading.
    os.execvp("sleep", ["sleep", "{SURVIVOR}"])
'''
)
KILLER = ODD_ONE_OUT + "\n\nimport os\n\nos._exit(1)\n"
DEAF = """
import time

while True:
    try:
        time.sleep(0.1)
    except KeyboardInterrupt:
        pass
"""
HOG = ODD_ONE_OUT + "\n\n_big = bytearray(6 * 2**30)\n"

IMPORTED_THIRD_CARD = "from setwidgets import third_card"
MOD3_BY_THE_PACKAGE = """
import setwidgets


def third_card_mod3(a, b):
    return setwidgets.rules.third_card(a, b)
"""
IMPORTED_COUNT_SETS = "from setwidgets import count_sets"
EQUAL_THIRD = """
class Anything(Card):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = Card.__hash__


def third_card(a, b):
    if a == b:
        raise ValueError("the same card")
    return Anything(1, "red", "oval", "solid")


def third_card_mod3(a, b):
    return third_card(a, b)
"""
EQUAL_COUNT = """
class Count(int):
    def __eq__(self, other):
        return True


def count_sets(cards):
    return Count(0)
"""
PATCHED_TWO = """
import setwidgets
import setwidgets.rules

setwidgets.third_card = setwidgets.rules.third_card = lambda a, b: Card.parse("1RSO")
setwidgets.count_sets = setwidgets.rules.count_sets = lambda cards: 0


def third_card(a, b):
    if a == b:
        raise ValueError("the same card")
    return Card.parse("1RSO")


def third_card_mod3(a, b):
    return third_card(a, b)


def count_sets(cards):
    return 0
"""

STUDENTS = {
    ONE: {
        "solver": None,
        "wrong": {"is_set_answer": IS_SET, "odd_one_out_answer": ODD_ONE_OUT_GIVES_THE_VALUE},
        "importer": {"is_set_answer": IMPORTED_IS_SET, "odd_one_out_answer": ODD_BY_EXPLAIN},
        "patcher": {"is_set_answer": PATCHED_ONE, "odd_one_out_answer": ODD_CONSTANT},
        "transformer": {"is_set_answer": TRANSFORMER},
        "bypass": {"is_set_answer": BYPASS},
        "reader": {"is_set_answer": READER},
        "scribbler": {"is_set_answer": SCRIBBLER},
        "killer": {"is_set_answer": IS_SET, "odd_one_out_answer": KILLER},
        "deaf": {"is_set_answer": IS_SET, "odd_one_out_answer": DEAF},
        "hog": {"is_set_answer": IS_SET, "odd_one_out_answer": HOG},
    },
    TWO: {
        "solver": None,
        "importer": {
            "third_card_answer": IMPORTED_THIRD_CARD,
            "third_card_mod3_answer": MOD3_BY_THE_PACKAGE,
            "count_sets_answer": IMPORTED_COUNT_SETS,
        },
        "equal": {"third_card_answer": EQUAL_THIRD, "count_sets_answer": EQUAL_COUNT},
        "patcher": {"third_card_answer": PATCHED_TWO},
    },
}
IS_SET_POINTS = {"test_is_set_visible": 2, "test_is_set_hidden": 3}
FULL_ONE = {**IS_SET_POINTS, "test_odd_one_out_visible": 2, "test_odd_one_out_hidden": 3}
# What each student earns, cell by cell; a missing cell earns 0.
EXPECTED = {
    ONE: {
        "solver": FULL_ONE,
        "wrong": IS_SET_POINTS,
        "importer": {},
        "patcher": {},
        # They rewrite the test cells on their way to the kernel, but judged tests never go there:
        # the grader calls odd_one_out itself, and its wrong answers score nothing.
        "transformer": IS_SET_POINTS,
        "bypass": IS_SET_POINTS,
        "reader": {},
        "scribbler": IS_SET_POINTS,
        "killer": IS_SET_POINTS,
        "deaf": IS_SET_POINTS,
        "hog": FULL_ONE,  # odd_one_out is defined before the allocation fails
    },
    TWO: {
        "solver": {
            "test_third_card_visible": 2,
            "test_third_card_hidden": 2,
            "test_third_card_mod3_visible": 1,
            "test_third_card_mod3_hidden": 2,
            "test_count_sets_visible": 2,
            "test_count_sets_hidden": 3,
        },
        "importer": {},
        "equal": {},
        "patcher": {},
    },
}
# What the report says about each cheat: (cell, words of the reason).
FLAGS = {
    (ONE, "importer"): [("is_set_answer", "reference functions"), ("odd_one_out_answer", "explain")],
    (ONE, "patcher"): [("is_set_answer", "reference functions")],
    (ONE, "transformer"): [("is_set_answer", "input_transformers_post")],
    (ONE, "reader"): [("is_set_answer", "exec, open")],
    (ONE, "scribbler"): [("is_set_answer", "os, sqlite3")],
    (ONE, "killer"): [("odd_one_out_answer", "stopped the kernel")],
    (ONE, "deaf"): [("odd_one_out_answer", "stopped the kernel or ignored the interrupt")],
    (ONE, "hog"): [("odd_one_out_answer", "memory")],
    (TWO, "importer"): [("third_card_answer", "third_card"), ("count_sets_answer", "count_sets")],
    (TWO, "patcher"): [("third_card_answer", "reference functions")],
}

needs_bubblewrap = pytest.mark.skipif(
    bubblewrap_problem() is not None, reason=f"no sandbox here: {bubblewrap_problem()}"
)


def survivors() -> list[str]:
    """The processes still running the forked child's sleep."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if command[:2] == [b"sleep", SURVIVOR.encode()]:
            found.append(entry.name)
    return found


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    """Both exercises after ``nbgrader generate_assignment``, run once for this file: each course
    that grades here starts from a copy of it (each start of nbgrader costs CPU-seconds of its own)."""
    folder = tmp_path_factory.mktemp("cheats-generated")
    shutil.copy(EXERCISES / "nbgrader_config.py", folder)
    for assignment in (ONE, TWO):
        shutil.copytree(EXERCISES / "source" / assignment, folder / "source" / assignment)
    # Both exercises at once ("*" is every exercise in source/), generated in this process as the
    # Formgrader does (tests/formgrader_api.py): each start of the nbgrader command costs CPU-seconds.
    generate_assignment(folder, "*")
    return folder


@pytest.fixture(scope="module")
def course(generated, tmp_path_factory) -> Path:
    course = tmp_path_factory.mktemp("cheats")
    # The configuration finds the course (and its gradebook) beside itself: the copy is a course.
    shutil.copytree(generated, course, dirs_exist_ok=True)
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for student in {name for students in STUDENTS.values() for name in students}:
            gb.update_or_create_student(student, first_name=student.title(), last_name="Student")
    for assignment, students in STUDENTS.items():
        for student, answers in students.items():
            save(course, student, assignment, hand_in(course, assignment, answers, source=answers is None))
    result = nbgrader(course, "autograde", "*", f"--ExecutePreprocessor.timeout={TIMEOUT}")
    (course / "autograde.log").write_text(result.stderr)
    time.sleep(1)
    (course / "survivors.txt").write_text(" ".join(survivors()))
    nbgrader(course, "generate_feedback", "*")
    nbgrader(course, "export")
    return course


@needs_bubblewrap
@pytest.mark.parametrize(
    ("assignment", "student"), [(a, s) for a, students in EXPECTED.items() for s in students]
)
def test_each_student_earns_exactly_the_expected_points(course, assignment, student):
    got = {name: score for name, score in grades(course, assignment, student).items() if score}
    assert got == EXPECTED[assignment][student]


@needs_bubblewrap
@pytest.mark.parametrize(("assignment", "student"), list(FLAGS))
def test_each_cheat_is_flagged_for_the_teacher_with_its_reason(course, assignment, student):
    found = [f for f in report(course, [assignment]) if f.student == student]
    for grade_id, words in FLAGS[assignment, student]:
        reasons = " ".join(r for f in found if f.cell == grade_id for r in f.reasons)
        assert words in reasons, f"{student} {grade_id}: {found}"


@needs_bubblewrap
def test_honest_submissions_raise_no_flag(course):
    found = report(course)
    flagged = {(f.assignment, f.student) for f in found}
    assert (ONE, "solver") not in flagged and (TWO, "solver") not in flagged and (ONE, "wrong") not in flagged
    assert flagged == set(FLAGS)


def needs_manual_grade(gb, assignment: str, student: str) -> set[str]:
    """The grade cells of a submission that the gradebook marks for a manual grade."""
    return {
        g.name
        for nb in gb.find_submission(assignment, student).notebooks
        for g in nb.grades
        if g.needs_manual_grade
    }


@needs_bubblewrap
def test_the_transformer_is_marked_for_a_manual_grade_with_its_reason_as_a_comment(course):
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        marked = needs_manual_grade(gb, ONE, "transformer")
        comment = gb.find_comment("is_set_answer", "magic_rule", ONE, "transformer").comment
        honest = needs_manual_grade(gb, ONE, "solver")
    assert {"test_odd_one_out_visible", "test_odd_one_out_hidden"} <= marked
    assert "Flagged for the teacher" in comment and "input_transformers_post" in comment
    assert honest == set()


@needs_bubblewrap
def test_rewriting_test_cells_on_their_way_to_the_kernel_changes_no_judged_verdict(course):
    """The bypass hides its transformer from the scan; the judged tests never pass through it."""
    assert grades(course, ONE, "bypass")["test_odd_one_out_visible"] == 0
    assert grades(course, ONE, "bypass")["test_odd_one_out_hidden"] == 0
    nb = nbformat.read(course / "autograded" / "bypass" / ONE / "magic_rule.ipynb", as_version=4)
    for name in ("test_odd_one_out_visible", "test_odd_one_out_hidden"):
        (output,) = cell(nb, name).outputs
        assert output.ename == "TestFailed" and "odd_one_out(" in output.evalue


@needs_bubblewrap
def test_writing_the_gradebook_changes_no_score(course):
    assert grades(course, ONE, "solver") == {**dict.fromkeys(grades(course, ONE, "solver"), 0), **FULL_ONE}
    rows = list(csv.DictReader((course / "grades.csv").open()))
    scores = {(r["assignment"], r["student_id"]): float(r["raw_score"]) for r in rows}
    assert scores[ONE, "scribbler"] == 5 and scores[ONE, "solver"] == 10
    log = (course / "autograded" / "scribbler" / ONE / "magic_rule.ipynb").read_text()
    assert "no gradebook:" in log, "the sandbox showed the notebook an empty, read-only course folder"


@needs_bubblewrap
def test_reading_the_source_fails_in_the_sandbox(course):
    nb = nbformat.read(course / "autograded" / "reader" / ONE / "magic_rule.ipynb", as_version=4)
    errors = [o for o in cell(nb, "is_set_answer").outputs if o.output_type == "error"]
    assert errors and errors[0].ename == "FileNotFoundError"


@needs_bubblewrap
def test_a_forked_process_does_not_outlive_grading(course):
    assert (course / "survivors.txt").read_text() == ""


@needs_bubblewrap
def test_a_6_gib_allocation_is_stopped_with_a_clear_message_in_the_feedback(course):
    page = (course / "feedback" / "hog" / ONE / "magic_rule.html").read_text()
    assert "MemoryError" in page and "the grader gives a notebook 2 GiB of memory" in page


@needs_bubblewrap
def test_a_cell_that_stops_the_kernel_fails_alone(course):
    for student in ("killer", "deaf"):
        nb = nbformat.read(course / "autograded" / student / ONE / "magic_rule.ipynb", as_version=4)
        errors = [o for o in cell(nb, "odd_one_out_answer").outputs if o.output_type == "error"]
        assert errors and "stopped the kernel that graded it" in errors[-1].evalue, student
        visible = cell(nb, "test_is_set_visible").outputs
        assert any("is_set passed the visible tests." in o.get("text", "") for o in visible), student


def test_the_feedback_shows_each_hidden_verdict_and_message_but_not_the_code(course):
    page = (course / "feedback" / "wrong" / ONE / "magic_rule.html").read_text()
    assert "The hidden tests passed." in page  # is_set
    assert "The hidden tests failed: see the message below." in page  # odd_one_out gives the value
    assert "should be" in page and "Your function returned" in page
    for code in ["try_here", "_first_broken", "untouched", "SystemRandom", "_tally"]:
        assert code not in page


def test_the_teacher_can_hand_out_the_hidden_tests_code_in_the_feedback(course, tmp_path):
    copy = tmp_path / "course"
    shutil.copytree(course, copy, ignore=shutil.ignore_patterns("feedback"))
    nbgrader(copy, "generate_feedback", ONE, "--student=wrong", "--HideHiddenTests.enabled=False")
    page = (copy / "feedback" / "wrong" / ONE / "magic_rule.html").read_text()
    # The hidden part of a judged test cell is the call that runs it on the teacher's notebook; the
    # tests themselves live in source/01_magic_rule/hidden_tests.py, which the teacher may share.
    assert "try_here" in page and "test_is_set_hidden" in page
    assert "The hidden tests passed." not in page


# -- nbgrader validate, as a teacher runs it from the course folder ------------------------------

VALIDATE_CHEAT = """
import json
import sqlite3

try:
    _db = sqlite3.connect("../../../gradebook.db")
    _db.execute("UPDATE grade SET score = 400")
    _db.commit()
except Exception as error:
    print("no gradebook:", error)
for _cell in json.load(open("../../../source/01_magic_rule/magic_rule.ipynb"))["cells"]:
    if _cell["metadata"].get("nbgrader", {}).get("solution"):
        exec("".join(_cell["source"]))
"""


@pytest.fixture(scope="module")
def validating(tmp_path_factory) -> Path:
    """A course folder with a gradebook and three submissions of exercise 1 (honest, wrong, cheating),
    and the cheating notebook again at the course root."""
    import sqlite3

    course = tmp_path_factory.mktemp("validating")
    shutil.copy(EXERCISES / "nbgrader_config.py", course)
    for folder in ("source", "release"):
        shutil.copytree(EXERCISES / folder / ONE, course / folder / ONE)
    with sqlite3.connect(course / "gradebook.db") as db:
        db.execute("CREATE TABLE grade (score INTEGER)")
        db.execute("INSERT INTO grade VALUES (10)")
    answers = {
        "honest": answers_of(nbformat.read(EXERCISES / "source" / ONE / "magic_rule.ipynb", as_version=4)),
        "wrong": {"is_set_answer": IS_SET, "odd_one_out_answer": ODD_ONE_OUT_GIVES_THE_VALUE},
        # Only is_set comes from the source: with the sandbox it stays undefined, without it passes.
        "cheat": {"is_set_answer": VALIDATE_CHEAT, "odd_one_out_answer": ODD_ONE_OUT},
    }
    for student, given in answers.items():
        save(course, student, ONE, hand_in(course, ONE, given))
    shutil.copy(course / "submitted" / "cheat" / ONE / "magic_rule.ipynb", course / "cheat.ipynb")
    return course


def validate(folder: Path, notebook: str, *options: str) -> str:
    """What ``nbgrader validate`` says about ``notebook``, run in ``folder``: its output and log."""
    result = nbgrader(folder, "validate", notebook, *options)
    return result.stdout + result.stderr


# Where nbgrader validate begins what it prints about a notebook (nbgrader.validator.Validator): at the
# start of a line, one of these; what it quotes of a cell (the cell, the error) is indented.
VERDICT_STARTS = re.compile(
    r"^(?=Success! |VALIDATION FAILED ON |THE CONTENTS OF |THE TYPES OF |NOTEBOOK PASSED ON )", re.MULTILINE
)
VALIDATED = {  # the notebooks of ``validating``, as a teacher names them at the course root
    "cheat": f"submitted/cheat/{ONE}/magic_rule.ipynb",
    "honest": f"submitted/honest/{ONE}/magic_rule.ipynb",
    "wrong": f"submitted/wrong/{ONE}/magic_rule.ipynb",
    "at the root": "cheat.ipynb",
}


@pytest.fixture(scope="module")
def validated(validating) -> dict[str, str]:
    """What one ``nbgrader validate`` of the four notebooks of ``validating`` says about each, in the
    order named (one nbgrader start, not four: each costs CPU-seconds of its own); "log" is the run's
    log, "gradebook" the gradebook's bytes before the run."""
    gradebook = (validating / "gradebook.db").read_bytes()
    result = nbgrader(validating, "validate", *VALIDATED.values())
    said = [part for part in VERDICT_STARTS.split(result.stdout) if part.strip()]
    assert len(said) == len(VALIDATED), result.stdout
    return {**dict(zip(VALIDATED, said)), "log": result.stderr, "gradebook": gradebook}


@needs_bubblewrap
def test_validate_runs_in_the_sandbox_and_honest_notebooks_validate_as_before(validating, validated):
    said = validated["cheat"]
    assert "VALIDATION FAILED" in said and "name 'is_set' is not defined" in said, said
    assert (validating / "gradebook.db").read_bytes() == validated["gradebook"], (
        "the notebook wrote the gradebook"
    )
    assert "Success! Your notebook passes all the tests." in validated["honest"]
    said = validated["wrong"]
    assert "VALIDATION FAILED ON 1 CELL(S)" in said and "should be 'color'" in said, said
    assert "NOT SANDBOXED" not in said + validated["log"]


def test_without_bubblewrap_validate_refuses_in_one_sentence_and_runs_nothing(validating):
    """The same cheat, where no sandbox can be made: fail closed, and the teacher is told why."""
    gradebook = (validating / "gradebook.db").read_bytes()
    result = subprocess.run(
        [str(BIN / "nbgrader"), "validate", f"submitted/cheat/{ONE}/magic_rule.ipynb",
         "--SandboxedKernelManager.bwrap=no-such-bwrap"],
        cwd=validating, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    said = result.stdout + result.stderr
    assert "Grading refuses to start a kernel without its sandbox" in said and "'no-such-bwrap'" in said
    assert "Success!" not in said
    assert (validating / "gradebook.db").read_bytes() == gradebook, "nothing of the notebook ran"


@needs_bubblewrap
def test_a_notebook_validated_at_the_course_root_runs_without_the_course(validating, validated):
    said = validated["at the root"]
    assert "VALIDATION FAILED" in said and "name 'is_set' is not defined" in said, said
    assert (validating / "gradebook.db").read_bytes() == validated["gradebook"]


def test_a_student_validates_a_release_copy_with_nbgrader_alone(tmp_path):
    """A student's folder with their own nbgrader configuration: no course, no sandbox, as nbgrader does."""
    student_config = 'c = get_config()\nc.CourseDirectory.course_id = "setwidgets"\n'
    (tmp_path / "nbgrader_config.py").write_text(student_config)
    work = tmp_path / ONE
    shutil.copytree(EXERCISES / "release" / ONE, work)
    nb = nbformat.read(work / "magic_rule.ipynb", as_version=4)
    cell(nb, "is_set_answer").source = IS_SET.strip()
    cell(nb, "odd_one_out_answer").source = ODD_ONE_OUT_GIVES_THE_VALUE.strip()
    nbformat.write(nb, work / "magic_rule.ipynb")
    said = validate(tmp_path, f"{ONE}/magic_rule.ipynb")
    assert "VALIDATION FAILED ON 1 CELL(S)" in said and "should be 'color'" in said, said
    assert "SANDBOX" not in said


def test_without_bubblewrap_autograde_records_no_grade_and_says_why(generated, tmp_path):
    """Fail closed: no sandbox, no grade; one sentence says how to get one or how to go without."""
    from nbgrader.api import Gradebook, MissingEntry

    course = shutil.copytree(generated, tmp_path / "course")  # exercise 1 (and 2) generated
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        gb.update_or_create_student("ana")
    honest = answers_of(nbformat.read(EXERCISES / "source" / ONE / "magic_rule.ipynb", as_version=4))
    save(course, "ana", ONE, hand_in(course, ONE, honest))
    result = subprocess.run(
        [str(BIN / "nbgrader"), "autograde", ONE, "--SandboxedKernelManager.bwrap=no-such-bwrap"],
        cwd=course, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    said = result.stdout + result.stderr
    assert result.returncode != 0
    assert "Grading refuses to start a kernel without its sandbox: the command 'no-such-bwrap'" in said
    assert "c.SandboxedKernelManager.sandbox = False" in said
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb, pytest.raises(MissingEntry):
        gb.find_submission(ONE, "ana")
    assert not (course / "autograded").exists() or not any((course / "autograded").rglob("*.ipynb"))
    # The teacher's explicit setting grades without it, and the report marks every such grade.
    result = subprocess.run(
        [str(BIN / "nbgrader"), "autograde", ONE, "--SandboxedKernelManager.bwrap=no-such-bwrap",
         "--SandboxedKernelManager.sandbox=False"],
        cwd=course, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "GRADING IS NOT SANDBOXED" in result.stdout + result.stderr
    assert sum(grades(course, ONE, "ana").values()) == 10
    found = report(course, [ONE])
    assert [(f.student, f.cell) for f in found] == [("ana", "whole notebook")]
    assert found[0].reasons[0].startswith("graded without a sandbox")
    # A course whose grading parts cannot be imported (a missing dependency) grades nothing either:
    # nbgrader would go on with its defaults (no sandbox) if the configuration raised.
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        gb.update_or_create_student("ben")
    save(course, "ben", ONE, hand_in(course, ONE, honest))
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "sitecustomize.py").write_text("import sys\nsys.modules['nh3'] = None\n")
    result = subprocess.run(
        [str(BIN / "nbgrader"), "autograde", ONE],
        cwd=course, capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYTHONPATH": str(tmp_path / "broken")},
    )  # fmt: skip
    said = result.stdout + result.stderr
    assert result.returncode != 0
    assert "The course's grading setup (setwidgets.grading) could not be imported (MissingExtra" in said
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb, pytest.raises(MissingEntry):
        gb.find_submission(ONE, "ben")
