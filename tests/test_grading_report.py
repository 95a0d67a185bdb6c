"""The report on its own, fast: what the scan flags and says, word for word; which grades and comments
an autograded submission's flags leave in the gradebook; ``course.py report``'s listing.

The gradebooks here are SQLite files written through nbgrader's API, as ``nbgrader autograde``
leaves them: every test passed, none waiting for a manual grade, no comment yet.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import nbformat
import nbgrader.api
import pytest
from nbformat import NotebookNode
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output
from nbgrader.api import Gradebook

from setwidgets.grading.inert import InertLogFormatter, inert
from setwidgets.grading.notes import GraderNote, MalformedNote, grader_note
from setwidgets.grading.preprocessors import STOPPED, WATCHED
from setwidgets.grading.report import (
    MALFORMED_NOTE,
    TEACHER_NOTE,
    UNSCANNED,
    UNSCANNED_NOTEBOOK,
    WHOLE,
    DropTeacherNotes,
    Finding,
    FlagSuspiciousCells,
    code_reasons,
    findings,
    handed_out,
    main,
    mark,
    output_reasons,
    report,
    student_cells,
    watch_reasons,
)
from setwidgets.grading.submissions import GRADER_NOTE, RestoreMetadata

ASSIGNMENT, STUDENT, NOTEBOOK = "01_magic_rule", "ana", "magic_rule"

HOOKS = "changes how cells run or touches the grader"
REFERENCES = "uses the package's reference functions"
BEYOND = "uses the package beyond what the exercise hands out"
SYSTEM = "reaches files, processes or the system"
DYNAMIC = "runs or opens code and files itself"
STOPPED_REASON = "stopped the kernel or ignored the interrupt"
MEMORY_REASON = "ran out of the grader's memory"
TAIL = ". The autograded tests after this cell need your look (python3 course.py report lists every flag)."


@pytest.fixture(autouse=True)
def _no_alembic(monkeypatch):
    """A new gradebook asks nbgrader's alembic for its schema version, in a process of its own (seconds):
    no test here migrates a gradebook, so any version does."""
    monkeypatch.setattr(nbgrader.api, "get_alembic_version", lambda: "e43177bfe90b")


# -- notebooks as autograde leaves them --------------------------------------------------------------


def setup_cell(
    source: str = "from setwidgets.cards import Card\nfrom setwidgets.checks import check",
) -> NotebookNode:
    meta = {"grade_id": "setup", "grade": False, "solution": False, "locked": True, "schema_version": 3}
    return new_code_cell(source, metadata={"nbgrader": meta})


def answer(
    grade_id: str, source: str = "def is_set(a, b, c):\n    return len({a, b, c}) != 2"
) -> NotebookNode:
    meta = {"grade_id": grade_id, "grade": False, "solution": True, "locked": False, "schema_version": 3}
    return new_code_cell(source, metadata={"nbgrader": meta})


def graded_test(grade_id: str, points: int = 2, source: str = "check(is_set)") -> NotebookNode:
    meta = {"grade_id": grade_id, "grade": True, "solution": False, "locked": True, "points": points}
    return new_code_cell(source, metadata={"nbgrader": {**meta, "schema_version": 3}})


def unwatched(cell: NotebookNode, names: list | None = None) -> NotebookNode:
    """The test cell, noted by the grader's watch as passed with none of the student's code running."""
    cell.metadata["setwidgets"] = {"student_code_ran": False, "names": names or ["is_set"]}
    return cell


def error(ename: str) -> NotebookNode:
    return new_output("error", ename=ename, evalue="", traceback=[])


def exercise(*extra: tuple[int, NotebookNode]) -> NotebookNode:
    """The exercise: intro, setup, two answers each with its tests after it; ``extra``: (index, cell)."""
    cells = [
        new_markdown_cell("# The magic rule"),
        setup_cell(),
        answer("is_set_answer"),
        graded_test("is_set_test", 2),
        answer("third_answer", "def third(a, b):\n    return a"),
        graded_test("third_test", 3, "check(third)"),
        graded_test("third_hidden", 1, "check(third)"),
    ]
    for index, cell in extra:
        cells.insert(index, cell)
    return new_notebook(cells=cells)


def gradebook_for(tmp_path: Path, nb: NotebookNode, unknown: tuple[str, ...] = ()) -> str:
    """A gradebook with the notebook's graded and answer cells (not ``unknown``), one submission graded."""
    url = f"sqlite:///{tmp_path / 'gradebook.db'}"
    with Gradebook(url) as gradebook:
        gradebook.add_assignment(ASSIGNMENT)
        gradebook.add_notebook(NOTEBOOK, ASSIGNMENT)
        gradebook.add_student(STUDENT)
        for cell in nb.cells:
            meta = cell.get("metadata", {}).get("nbgrader", {})
            if meta.get("grade_id") in unknown:
                continue
            if meta.get("grade"):
                gradebook.add_grade_cell(
                    meta["grade_id"], NOTEBOOK, ASSIGNMENT, max_score=meta["points"], cell_type=cell.cell_type
                )
            if meta.get("solution"):
                gradebook.add_solution_cell(meta["grade_id"], NOTEBOOK, ASSIGNMENT)
        gradebook.add_submission(ASSIGNMENT, STUDENT)
        for grade in gradebook.find_submission_notebook(NOTEBOOK, ASSIGNMENT, STUDENT).grades:
            grade.auto_score = grade.max_score
            grade.needs_manual_grade = False
        gradebook.db.commit()
    return url


def graded(url: str) -> dict[str, tuple[bool, float]]:
    """Each test's (needs a manual grade, score), read back from the gradebook."""
    with Gradebook(url) as gradebook:
        grades = gradebook.find_submission_notebook(NOTEBOOK, ASSIGNMENT, STUDENT).grades
        return {grade.name: (grade.needs_manual_grade, grade.score) for grade in grades}


def commented(url: str) -> dict[str, str | None]:
    """Each answer cell's automatic comment, read back from the gradebook."""
    with Gradebook(url) as gradebook:
        comments = gradebook.find_submission_notebook(NOTEBOOK, ASSIGNMENT, STUDENT).comments
        return {comment.name: comment.auto_comment for comment in comments}


def flag_and_mark(tmp_path: Path, nb: NotebookNode, unknown: tuple[str, ...] = ()) -> str:
    url = gradebook_for(tmp_path, nb, unknown)
    with Gradebook(url) as gradebook:
        mark(gradebook, nb, findings(nb, ASSIGNMENT, STUDENT, NOTEBOOK))
    return url


UNTOUCHED = {"is_set_test": (False, 2.0), "third_test": (False, 3.0), "third_hidden": (False, 1.0)}


# -- code_reasons: the scan of a student's code ------------------------------------------------------


def test_each_kind_of_reason_has_its_sentence_and_they_come_in_a_fixed_order():
    code = (
        "import os, subprocess\n"
        "exec('x = 1')\n"
        "from setwidgets.geometry import line\n"
        "from setwidgets.rules import is_set\n"
        "get_ipython()"
    )
    assert code_reasons(code, frozenset({"Card"})) == [
        f"{HOOKS} (get_ipython)",
        f"{REFERENCES} (from setwidgets.rules import is_set)",
        f"{BEYOND} (from setwidgets.geometry import line)",
        f"{SYSTEM} (os, subprocess)",
        f"{DYNAMIC} (exec)",
    ]


def test_the_names_behind_one_reason_are_sorted_and_joined_by_commas():
    assert code_reasons("_R.x = 1\n__builtins__.len = f\nReferee()\n_referee.y = 2") == [
        f"{HOOKS} (Referee, _R, __builtins__, _referee)"
    ]


@pytest.mark.parametrize(
    "name", ["modules", "meta_path", "path_hooks", "settrace", "setprofile", "excepthook"]
)
def test_sys_patched_where_imports_traces_and_errors_go_is_flagged(name):
    assert code_reasons(f"sys.{name}(None)") == [f"{HOOKS} (sys.{name})"]


def test_other_sys_attributes_and_those_names_on_other_objects_raise_no_flag():
    assert code_reasons("sys.path.append('lib')\noptions.modules = []\nx.settrace = 1") == []


def test_globals_whose_names_start_with_an_underscore_are_flagged_others_not():
    assert code_reasons("def f():\n    global _seen, _count\n    _seen = _count = 1") == [
        f"{HOOKS} (global _seen, _count)"
    ]
    assert code_reasons("def f():\n    global counter\n    counter = 1") == []


@pytest.mark.parametrize(
    ("code", "named"),
    [
        ("import setwidgets", "import setwidgets"),
        ("import setwidgets as sw", "import setwidgets"),
        ("import setwidgets.rules", "import setwidgets.rules"),
        ("from setwidgets.checks import check", "from setwidgets.checks import check"),
        ("from setwidgets.grading.referee import x", "from setwidgets.grading.referee import x"),
        ("from setwidgets.cards import *", "from setwidgets.cards import *"),
        ("from setwidgets.cards import third_card", "from setwidgets.cards import third_card"),
    ],
)
def test_the_package_imported_whole_its_checks_grading_references_or_star_is_flagged(code, named):
    assert code_reasons(code) == [f"{REFERENCES} ({named})"]


def test_an_import_of_the_package_beyond_what_is_handed_out_is_flagged_only_given_the_handed_out_names():
    code = "from setwidgets.cards import Card\nfrom setwidgets.geometry import line"
    assert code_reasons(code) == [], "without the names the exercise hands out, nothing is beyond them"
    assert code_reasons(code, frozenset({"Card"})) == [f"{BEYOND} (from setwidgets.geometry import line)"]
    assert code_reasons(code, frozenset({"Card", "line"})) == []


@pytest.mark.parametrize(
    ("code", "named"),
    [
        ("import os.path", "os.path"),
        ("from os.path import join", "os.path"),
        ("from pathlib import Path", "pathlib"),
        ("import numpy, json", "json"),
    ],
)
def test_a_system_module_or_one_of_its_submodules_is_named_as_imported(code, named):
    assert code_reasons(code) == [f"{SYSTEM} ({named})"]


def test_numpy_pathlib_and_pandas_file_methods_are_flagged_by_their_attribute():
    assert code_reasons("a = np.fromfile('x')\np.write_text('y')") == [f"{DYNAMIC} (.fromfile, .write_text)"]


def test_a_shell_or_magic_line_is_reported_whitespace_squeezed_and_the_code_around_it_still_scanned():
    assert code_reasons("!ls   -la\t/tmp\n%who\nimport os") == [
        "runs shell or magic lines (!ls -la /tmp)",
        f"{SYSTEM} (os)",
    ]


def test_only_the_first_shell_line_is_quoted_even_indented_in_a_block():
    assert code_reasons("if True:\n    %env X=1\n    !ls") == ["runs shell or magic lines (%env X=1)"]


def test_a_shell_line_inside_a_block_hides_none_of_the_other_reasons():
    """The block still parses with the shell line in it: what else the cell does is reported too."""
    assert code_reasons("import os\nif True:\n    !ls") == [
        "runs shell or magic lines (!ls)",
        "reaches files, processes or the system (os)",
    ]
    cell = 'from setwidgets.rules import is_set\nget_ipython().events.register("pre_run_cell", f)\n'
    assert code_reasons(cell + "for _ in [0]:\n    %who") == [
        "runs shell or magic lines (%who)",
        "changes how cells run or touches the grader (events, get_ipython)",
        "uses the package's reference functions (from setwidgets.rules import is_set)",
    ]


def test_a_shell_line_indented_where_python_wants_none_leaves_the_cell_unparsed():
    """As IPython would refuse it too: only the shell line is reported."""
    assert code_reasons("import os\n !ls") == ["runs shell or magic lines (!ls)"]


def test_a_magic_line_counts_as_a_statement_so_inside_brackets_the_code_does_not_parse():
    """The shell line is reported; the rest, no longer Python, is not scanned."""
    assert code_reasons("open(\n%who\n)") == ["runs shell or magic lines (%who)"]


@pytest.mark.parametrize(
    ("length", "quoted"),
    [
        (59, "!" + "a" * 58),
        (60, "!" + "a" * 59),
        (61, "!" + "a" * 56 + "..."),
        (62, "!" + "a" * 56 + "..."),
    ],
)
def test_a_shell_line_is_quoted_whole_up_to_60_characters_then_cut_to_57_and_dots(length, quoted):
    assert code_reasons("!" + "a" * (length - 1)) == [f"runs shell or magic lines ({quoted})"]


def test_code_that_does_not_parse_has_no_reason_but_its_shell_lines():
    assert code_reasons("import os\ndef (") == []
    assert code_reasons("!rm x\ndef (") == ["runs shell or magic lines (!rm x)"]


# -- handed_out: what the exercise's own cells import -------------------------------------------------


def test_handed_out_names_come_from_the_locked_code_cells_only():
    forged = new_code_cell("from setwidgets.rules import is_set")
    forged.metadata["nbgrader"] = {"locked": True, "solution": True, "grade_id": "forged"}
    locked_markdown = new_markdown_cell("from setwidgets.draw import card_svg")
    locked_markdown.metadata["nbgrader"] = {"grade_id": "intro", "locked": True, "solution": False}
    nb = new_notebook(
        cells=[
            locked_markdown,
            answer("a", "from setwidgets.game import Game"),
            forged,
            setup_cell("import setwidgets.sim\nfrom os import path\nfrom . import local"),
            setup_cell("%time from setwidgets.cards import Card, random_cards as deal"),
            setup_cell("def broken(:"),
            setup_cell("x = 1\nfrom setwidgets.geometry import (\n    line,\n)"),
        ]
    )
    assert handed_out(nb) == frozenset({"Card", "random_cards", "line"})


def test_a_notebook_without_locked_cells_hands_out_nothing():
    assert handed_out(new_notebook(cells=[answer("a", "from setwidgets.cards import Card")])) == frozenset()


# -- output_reasons and watch_reasons ----------------------------------------------------------------


def test_a_cell_that_stopped_the_kernel_or_ran_out_of_memory_is_flagged_for_each_error():
    cell = new_code_cell("x", outputs=[new_output("stream", name="stdout", text="hi"), error(STOPPED)])
    cell.outputs.append(error("MemoryError"))
    assert output_reasons(cell) == [STOPPED_REASON, MEMORY_REASON]
    assert output_reasons(new_code_cell("x", outputs=[error("MemoryError")])) == [MEMORY_REASON]


def test_other_errors_and_cells_without_outputs_raise_no_output_flag():
    assert output_reasons(new_code_cell("x", outputs=[error("AssertionError")])) == []
    assert output_reasons(NotebookNode(cell_type="code", source="x", metadata={})) == []


def test_a_watched_test_that_passed_without_the_students_code_names_the_functions_it_expected():
    cell = unwatched(graded_test("t"), ["is_set", "third", "explain"])
    assert watch_reasons(cell) == [
        "passed without any of the student's code running (is_set, third and explain never called)"
    ]


def test_a_watch_note_without_names_or_outputs_speaks_of_the_students_functions():
    cell = NotebookNode(cell_type="code", source="x", metadata={"setwidgets": {"student_code_ran": False}})
    assert watch_reasons(cell) == [
        "passed without any of the student's code running (the student's functions never called)"
    ]


def test_a_cell_with_no_metadata_or_no_watch_note_raises_no_watch_flag():
    assert watch_reasons(NotebookNode(cell_type="code", source="x")) == []
    assert watch_reasons(graded_test("t")) == []


MALFORMED_NOTES = [
    "not a note",
    None,
    ["student_code_ran", True],
    {},
    {"student_code_ran": "yes"},
    {"student_code_ran": 1},
    {"student_code_ran": True, "names": "is_set"},
    {"student_code_ran": True, "names": ["is_set", 3]},
    {"student_code_ran": True, "names": ["x"] * 65},
    {"student_code_ran": True, "names": ["x" * 1001]},
    {"student_code_ran": True, "extra": 1},
    {"student_code_ran": True, "judged": "passed"},
    {"student_code_ran": True, "judged": {"passed": True, "flags": 5}},
    {"student_code_ran": True, "judged": {"passed": True, "flags": None}},
    {"student_code_ran": True, "judged": {"passed": True, "flags": [{"x": 1}]}},
    {"student_code_ran": True, "judged": {"passed": "yes"}},
    {"student_code_ran": True, "judged": {"passed": True, "seed": "7"}},
    {"student_code_ran": True, "judged": {"passed": True, "seed": True}},
    {"student_code_ran": True, "judged": {"passed": True, "more": 1}},
]


@pytest.mark.parametrize("note", MALFORMED_NOTES)
def test_a_note_off_the_schema_is_a_reason_to_look_never_an_error_nor_a_pass(note):
    cell = graded_test("t")
    cell.metadata["setwidgets"] = note
    with pytest.raises(MalformedNote, match=r"^grader_note\(\) expects the cell's 'setwidgets' metadata"):
        grader_note(cell)
    assert watch_reasons(cell) == [MALFORMED_NOTE]


def test_notes_on_the_schema_are_read_whole():
    cell = graded_test("t")
    assert grader_note(cell) is None
    cell.metadata["setwidgets"] = {"student_code_ran": False, "names": ["x"] * 64}
    assert grader_note(cell) == GraderNote(False, ("x",) * 64, False, ())
    judged = {"passed": True, "seed": 3, "flags": ["f" * 1000]}
    cell.metadata["setwidgets"] = {"student_code_ran": True, "judged": judged}
    assert grader_note(cell) == GraderNote(True, (), True, ("f" * 1000,))
    cell.metadata["setwidgets"] = {"student_code_ran": True, "judged": {"passed": False}}
    assert grader_note(cell) == GraderNote(True, (), True, ())


def test_the_grader_writes_its_notes_under_the_key_that_restore_metadata_drops():
    assert WATCHED == GRADER_NOTE == "setwidgets"


def test_a_judged_test_gives_the_judges_flags_and_says_whose_answers_it_passed_with():
    cell = graded_test("t")
    judged = {"passed": True, "seed": 7, "flags": ["answered before being asked"]}
    cell.metadata["setwidgets"] = {"student_code_ran": False, "names": ["helper"], "judged": judged}
    assert watch_reasons(cell) == [
        "answered before being asked",
        "passed with answers from helper, which no answer cell defines with def",
    ]
    cell.metadata["setwidgets"]["student_code_ran"] = True
    assert watch_reasons(cell) == ["answered before being asked"]
    cell.metadata["setwidgets"] = {"student_code_ran": False, "judged": {"passed": False}}
    cell.outputs = [error("TestFailed")]
    assert watch_reasons(cell) == [], "a failed test scores nothing: no flag without the judge's"


# -- student_cells and findings -----------------------------------------------------------------------


def test_the_students_cells_are_the_code_cells_not_locked():
    mine = new_code_cell("x = 1")
    nb = exercise((5, mine))
    assert [(index, cell.source) for index, cell in student_cells(nb)] == [
        (2, nb.cells[2].source),
        (4, nb.cells[4].source),
        (5, "x = 1"),
    ]
    assert list(student_cells(nb))[2][1] is mine


def test_findings_name_each_flagged_cell_by_grade_id_or_number_with_code_then_output_then_watch_reasons():
    imports = "from setwidgets.cards import Card\nfrom setwidgets.geometry import line"
    is_set_answer = answer("is_set_answer", imports)
    judged = {"passed": True, "flags": ["asked twice"]}
    is_set_test = graded_test("is_set_test", source="import os")  # the grader's: its code is not scanned
    is_set_test.metadata["setwidgets"] = {"student_code_ran": False, "judged": judged}
    is_set_test.outputs = [error(STOPPED)]
    mine = new_code_cell("x = 1\n!ls", outputs=[error("MemoryError")])
    nb = new_notebook(
        cells=[
            new_markdown_cell("    import os"),
            setup_cell("import os\nfrom setwidgets.cards import Card"),
            is_set_answer,
            is_set_test,
            mine,
            answer("third_answer", "def third(a, b):\n    return a"),
        ]
    )
    nb.cells.append(NotebookNode(cell_type="code", source="import sys", outputs=[]))  # no metadata at all
    where = (ASSIGNMENT, STUDENT, NOTEBOOK)
    assert findings(nb, *where) == [
        (2, Finding(*where, "is_set_answer", (f"{BEYOND} (from setwidgets.geometry import line)",))),
        (3, Finding(*where, "is_set_test", (STOPPED_REASON, "asked twice"))),
        (4, Finding(*where, "cell 5", ("runs shell or magic lines (!ls)", MEMORY_REASON))),
        (6, Finding(*where, "cell 7", (f"{SYSTEM} (sys)",))),
    ]


def test_the_untouched_exercise_has_no_findings():
    assert findings(exercise(), ASSIGNMENT, STUDENT, NOTEBOOK) == []


def test_a_finding_reads_as_one_line_of_the_report():
    finding = Finding("01_magic_rule", "ana", "magic_rule", "cell 3", ("first reason", "second reason"))
    assert str(finding) == "01_magic_rule  ana  magic_rule  cell 3  first reason; second reason"


# -- mark: the gradebook after the flags ---------------------------------------------------------------


def test_a_flagged_answer_puts_the_tests_after_it_up_for_a_manual_grade_and_its_comment_says_why(tmp_path):
    nb = exercise()
    nb.cells[4].source = "import os\ndef third(a, b):\n    return a"
    url = flag_and_mark(tmp_path, nb)
    assert graded(url) == {**UNTOUCHED, "third_test": (True, 3.0), "third_hidden": (True, 1.0)}
    assert commented(url) == {
        "is_set_answer": None,
        "third_answer": f"Flagged for the teacher: {SYSTEM} (os){TAIL}",
    }


def test_a_flagged_test_cell_and_every_test_after_it_need_a_manual_grade(tmp_path):
    """The comment goes to the answer before the test, prefixed with the test's grade id."""
    nb = exercise()
    unwatched(nb.cells[3])
    url = flag_and_mark(tmp_path, nb)
    assert graded(url) == {"is_set_test": (True, 2.0), "third_test": (True, 3.0), "third_hidden": (True, 1.0)}
    reason = "passed without any of the student's code running (is_set never called)"
    assert commented(url) == {
        "is_set_answer": f"Flagged for the teacher: is_set_test: {reason}{TAIL}",
        "third_answer": None,
    }


def test_several_flags_for_one_answer_make_one_comment_added_to_the_one_autograde_left(tmp_path):
    nb = exercise((3, new_code_cell("import subprocess\neval('1')")))
    nb.cells[2].source = "exec('1')"
    unwatched(nb.cells[4])
    url = gradebook_for(tmp_path, nb)
    with Gradebook(url) as gradebook:
        gradebook.find_comment("is_set_answer", NOTEBOOK, ASSIGNMENT, STUDENT).auto_comment = "No response."
        gradebook.db.commit()
        mark(gradebook, nb, findings(nb, ASSIGNMENT, STUDENT, NOTEBOOK))
    lines = [
        f"{DYNAMIC} (exec)",
        f"cell 4: {SYSTEM} (subprocess); {DYNAMIC} (eval)",
        "is_set_test: passed without any of the student's code running (is_set never called)",
    ]
    note = f"Flagged for the teacher: {' / '.join(lines)}{TAIL}"
    assert commented(url)["is_set_answer"] == f"No response.\n{note}"
    assert graded(url) == {"is_set_test": (True, 2.0), "third_test": (True, 3.0), "third_hidden": (True, 1.0)}


def test_a_flagged_cell_before_any_answer_is_commented_on_the_first_answer_after_it(tmp_path):
    nb = exercise((2, new_code_cell("import os")))
    url = flag_and_mark(tmp_path, nb)
    note = f"Flagged for the teacher: cell 3: {SYSTEM} (os){TAIL}"
    assert commented(url) == {"is_set_answer": note, "third_answer": None}
    assert graded(url) == {"is_set_test": (True, 2.0), "third_test": (True, 3.0), "third_hidden": (True, 1.0)}


def test_a_notebook_without_answer_cells_gets_its_tests_marked_and_no_comment(tmp_path):
    nb = new_notebook(cells=[setup_cell(), graded_test("first", 1), unwatched(graded_test("second", 4))])
    url = flag_and_mark(tmp_path, nb)
    assert graded(url) == {"first": (False, 1.0), "second": (True, 4.0)}
    assert commented(url) == {}


def test_cells_the_gradebook_does_not_know_are_passed_over(tmp_path):
    """A forged answer's flag finds no comment to write, a forged test no grade; the real ones get theirs."""
    forged_answer = answer("forged_answer", "import os")
    forged_test = graded_test("forged_test", 5)
    nb = exercise((5, forged_test), (3, forged_answer))
    nb.cells[5].source = "import glob"
    url = flag_and_mark(tmp_path, nb, unknown=("forged_answer", "forged_test"))
    assert graded(url) == {"is_set_test": (True, 2.0), "third_test": (True, 3.0), "third_hidden": (True, 1.0)}
    note = f"Flagged for the teacher: {SYSTEM} (glob){TAIL}"
    assert commented(url) == {"is_set_answer": None, "third_answer": note}


def test_no_findings_leave_the_gradebook_as_it_was(tmp_path):
    nb = exercise()
    url = gradebook_for(tmp_path, nb)
    with Gradebook(url) as gradebook:
        mark(gradebook, nb, [])
    assert graded(url) == UNTOUCHED
    assert commented(url) == {"is_set_answer": None, "third_answer": None}


# -- the autograde step --------------------------------------------------------------------------------


def resources_for(url: str) -> dict:
    return {"nbgrader": {"db_url": url, "assignment": ASSIGNMENT, "student": STUDENT, "notebook": NOTEBOOK}}


def test_the_autograde_step_logs_each_flag_and_marks_the_gradebook(tmp_path, caplog):
    nb = exercise()
    nb.cells[4].source = "import os"
    url = gradebook_for(tmp_path, nb)
    resources = resources_for(url)
    step = FlagSuspiciousCells(log=logging.getLogger("flag-test"))
    with caplog.at_level(logging.WARNING, logger="flag-test"):
        assert step.preprocess(nb, resources) == (nb, resources)
    assert [record.getMessage() for record in caplog.records] == [
        f"Flagged for the teacher: {ASSIGNMENT}  {STUDENT}  {NOTEBOOK}  third_answer  {SYSTEM} (os)"
    ]
    assert graded(url) == {**UNTOUCHED, "third_test": (True, 3.0), "third_hidden": (True, 1.0)}
    assert commented(url)["third_answer"] == f"Flagged for the teacher: {SYSTEM} (os){TAIL}"


def test_the_autograde_step_switched_off_does_nothing(tmp_path):
    nb = exercise()
    nb.cells[4].source = "import os"
    url = gradebook_for(tmp_path, nb)
    resources = resources_for(url)
    assert FlagSuspiciousCells(enabled=False).preprocess(nb, resources) == (nb, resources)
    assert graded(url) == UNTOUCHED
    assert commented(url) == {"is_set_answer": None, "third_answer": None}


# -- report and main: every autograded submission --------------------------------------------------------


def course_with_submissions(tmp_path: Path) -> Path:
    """autograded/<student>/<assignment>/<notebook>.ipynb, some flagged."""
    course = tmp_path / "course"

    def hand_in(student: str, assignment: str, notebook: str, *sources: str) -> None:
        nb = exercise()
        for index, source in zip((2, 4), sources, strict=False):
            nb.cells[index].source = source
        folder = course / "autograded" / student / assignment
        folder.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, folder / f"{notebook}.ipynb")

    hand_in("ana", "01_magic_rule", "magic_rule", "import os")
    hand_in("ana", "02_third", "third", "import sys", "exec('1')")
    hand_in("bob", "01_magic_rule", "magic_rule")
    hand_in("bob", "02_third", "extra", "", "!ls")
    (course / "autograded" / "bob" / "02_third" / "notes.txt").write_text("import os")
    return course


def test_the_report_lists_the_findings_of_every_autograded_notebook_in_order(tmp_path):
    assert report(course_with_submissions(tmp_path)) == [
        Finding("01_magic_rule", "ana", "magic_rule", "is_set_answer", (f"{SYSTEM} (os)",)),
        Finding("02_third", "ana", "third", "is_set_answer", (f"{SYSTEM} (sys)",)),
        Finding("02_third", "ana", "third", "third_answer", (f"{DYNAMIC} (exec)",)),
        Finding("02_third", "bob", "extra", "third_answer", ("runs shell or magic lines (!ls)",)),
    ]


def test_the_report_of_named_assignments_leaves_the_others_out(tmp_path):
    course = course_with_submissions(tmp_path)
    assert [(f.assignment, f.student, f.cell) for f in report(course, ["02_third"])] == [
        ("02_third", "ana", "is_set_answer"),
        ("02_third", "ana", "third_answer"),
        ("02_third", "bob", "third_answer"),
    ]
    assert report(course, ["03_none"]) == []


def test_main_prints_each_finding_then_how_many_submissions_and_cells(tmp_path, capsys):
    course = course_with_submissions(tmp_path)
    assert main([str(course)]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        f"01_magic_rule  ana  magic_rule  is_set_answer  {SYSTEM} (os)",
        f"02_third  ana  third  is_set_answer  {SYSTEM} (sys)",
        f"02_third  ana  third  third_answer  {DYNAMIC} (exec)",
        "02_third  bob  extra  third_answer  runs shell or magic lines (!ls)",
        "3 submissions to look at, 4 cells flagged.",
    ]
    assert err == ""


def test_main_of_one_assignment_counts_in_the_singular_and_in_none(tmp_path, capsys):
    course = course_with_submissions(tmp_path)
    assert main([str(course), "01_magic_rule"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1 submission to look at, 1 cell flagged."
    assert main([str(course), "03_none", "04_none"]) == 0
    assert capsys.readouterr().out == "0 submissions to look at, 0 cells flagged.\n"


def test_main_without_a_course_folder_prints_its_usage_and_fails(capsys):
    assert main([]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", "usage: python -m setwidgets.grading.report COURSE_FOLDER [ASSIGNMENT ...]\n")


def test_main_of_a_course_not_autograded_says_what_to_run_and_fails(tmp_path, capsys):
    (tmp_path / "autograded").write_text("a file, not the folder")
    assert main([str(tmp_path), "01_magic_rule"]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"{tmp_path}/autograded does not exist: run 'nbgrader autograde' first.\n")


# -- fail closed: a scan that fails flags, never passes --------------------------------------------------

DEEP = "x = " + "-" * 200_000 + "1"  # deeper than Python's parser goes: MemoryError or RecursionError
CALLS = "f" + "(a)" * 50_000  # RecursionError while the tree is built


@pytest.mark.parametrize("source", [DEEP, CALLS])
def test_code_the_parser_cannot_hold_is_flagged_instead_of_stopping_the_scan(source):
    nb = exercise()
    nb.cells[4].source = source
    [(index, finding)] = findings(nb, ASSIGNMENT, STUDENT, NOTEBOOK)
    assert index == 4 and finding.cell == "third_answer"
    assert finding.reasons[0] in {f"{UNSCANNED} (RecursionError)", f"{UNSCANNED} (MemoryError)"}


def _broken_nbgrader_metadata() -> NotebookNode:
    """A cell the student added whose nbgrader metadata is a list: the scan's lock test stops on it."""
    nb = exercise()
    nb.cells.insert(5, new_code_cell("x = 1", metadata={"nbgrader": ["locked"]}))
    return nb


def test_when_the_scan_of_a_notebook_fails_the_whole_submission_is_flagged(tmp_path, caplog):
    url = gradebook_for(tmp_path, exercise())
    nb = _broken_nbgrader_metadata()
    step = FlagSuspiciousCells(log=logging.getLogger("flag-fail"))
    with caplog.at_level(logging.WARNING, logger="flag-fail"):
        step.preprocess(nb, resources_for(url))
    assert graded(url) == {"is_set_test": (True, 2.0), "third_test": (True, 3.0), "third_hidden": (True, 1.0)}
    note = f"{TEACHER_NOTE}{WHOLE}: {UNSCANNED_NOTEBOOK} (AttributeError){TAIL}"
    assert commented(url) == {"is_set_answer": note, "third_answer": None}
    assert [record.levelname for record in caplog.records] == ["ERROR", "WARNING"]
    assert (
        caplog.records[0]
        .getMessage()
        .startswith(f"The scan of ('{ASSIGNMENT}', '{STUDENT}', '{NOTEBOOK}') failed (AttributeError: ")
    )


def test_a_failure_the_scan_does_not_know_flags_the_submission_too(tmp_path, monkeypatch):
    import setwidgets.grading.report as module

    def broken(*args):
        raise KeyError("a bug not yet found")

    monkeypatch.setattr(module, "findings", broken)
    nb = exercise()
    url = gradebook_for(tmp_path, nb)
    FlagSuspiciousCells().preprocess(nb, resources_for(url))
    assert graded(url) == {"is_set_test": (True, 2.0), "third_test": (True, 3.0), "third_hidden": (True, 1.0)}
    assert commented(url)["is_set_answer"] == f"{TEACHER_NOTE}{WHOLE}: {UNSCANNED_NOTEBOOK} (KeyError){TAIL}"


def test_the_report_lists_a_notebook_whose_scan_fails_as_a_whole(tmp_path):
    folder = tmp_path / "autograded" / STUDENT / ASSIGNMENT
    folder.mkdir(parents=True)
    nbformat.write(_broken_nbgrader_metadata(), folder / f"{NOTEBOOK}.ipynb")
    reason = f"{UNSCANNED_NOTEBOOK} (AttributeError)"
    assert report(tmp_path) == [Finding(ASSIGNMENT, STUDENT, NOTEBOOK, WHOLE, (reason,))]


# -- the student's copy of the grader's notes -------------------------------------------------------------


def test_restore_metadata_drops_every_cells_setwidgets_metadata_with_a_line_each(tmp_path, caplog):
    nb = exercise((5, new_code_cell("x = 1", metadata={"setwidgets": {"judged": {"flags": 5}}})))
    unwatched(nb.cells[3])
    nb.cells[2].metadata["setwidgets"] = "\x1b[2J"
    nb.cells[0].metadata["setwidgets"] = None  # a markdown cell's, too
    url = gradebook_for(tmp_path, nb)
    with caplog.at_level(logging.WARNING, logger="restore-test"):
        RestoreMetadata(log=logging.getLogger("restore-test")).preprocess(nb, resources_for(url))
    assert [cell.metadata.get("setwidgets", "gone") for cell in nb.cells] == ["gone"] * len(nb.cells)
    assert [record.getMessage() for record in caplog.records if "setwidgets" in record.getMessage()] == [
        f"{STUDENT}: cell {n} carries the grader's 'setwidgets' metadata; the student's copy of it is dropped"
        for n in (1, 3, 4, 6)
    ]
    assert [watch_reasons(cell) for cell in nb.cells] == [[]] * len(nb.cells), "no note left to read"


# -- terminal escapes ----------------------------------------------------------------------------------

PAYLOADS = {
    "\x1b[2J\x1b[H": r"\x1b[2J\x1b[H",  # clear the screen, cursor home
    "\x1b]0;owned\x07": r"\x1b]0;owned\x07",  # set the terminal's title
    "\x9b2J": r"\x9b2J",  # the one-byte CSI of C1 controls
    "ok\rALL CLEAR": r"ok\rALL CLEAR",  # overwrite the line from its start
    "a\nb": r"a\nb",
    "\x08\x08\x7f\x00": r"\x08\x08\x7f\x00",
    "\u202eevil\u202c": r"\u202eevil\u202c",  # right-to-left override ... pop
    "\u2066x\u2069\u200f": r"\u2066x\u2069\u200f",  # isolates and a right-to-left mark
    "\u2028\ufeff\ue000": r"\u2028\ufeff\ue000",  # line separator, zero-width no-break space, private use
    "tab\there": r"tab\there",
    "a\\x1b": r"a\\x1b",  # a backslash is doubled: text never passes for an escape
}


@pytest.mark.parametrize(("text", "shown"), PAYLOADS.items())
def test_inert_shows_every_character_a_terminal_would_obey_as_its_escape(text, shown):
    assert inert(text) == shown


def test_inert_keeps_the_printable_characters_of_every_script():
    names = "Chloé Nguyễn Müller Ærøskøbing Ὀδυσσεύς 李小龍 कृष्ण é 😀 <tag> 'q' \"dq\" ~!@#$%^&*()"
    assert inert(names) == names


def test_inert_refuses_what_is_not_text():
    with pytest.raises(TypeError, match=r"^inert\(\) expects a str, not bytes$"):
        inert(b"\x1b[2J")


def test_every_part_of_a_report_line_is_made_inert():
    finding = Finding("01\x1b[2J", "eve\r", "nb\u202e", "cell 3\x07", ("one\x1b[8m", "two\n"))
    assert str(finding) == r"01\x1b[2J  eve\r  nb\u202e  cell 3\x07  one\x1b[8m; two\n"


def test_the_report_of_a_hostile_course_prints_one_line_per_finding_and_no_escape(tmp_path, capsys):
    """A student folder, a notebook name and a shell line that each try to clear the screen."""
    nb = exercise((5, new_code_cell("!echo '\x1b[2J\x1b[H0 submissions to look at, 0 cells flagged.'")))
    for student in ("ana", "eve\x1b[2J\x1b[3J\x1bc"):
        folder = tmp_path / "autograded" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / f"{NOTEBOOK}\u202e.ipynb")
    assert main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    shell = r"runs shell or magic lines (!echo '\x1b[2J\x1b[H0 submissions to look at, 0 cells flagged.')"
    assert out.splitlines() == [
        rf"{ASSIGNMENT}  ana  magic_rule\u202e  cell 6  {shell}",
        rf"{ASSIGNMENT}  eve\x1b[2J\x1b[3J\x1bc  magic_rule\u202e  cell 6  {shell}",
        "2 submissions to look at, 2 cells flagged.",
    ]


# -- unreadable and ungraded notebooks in the report -----------------------------------------------------


def test_the_report_lists_unreadable_and_ungraded_notebooks_as_a_whole(tmp_path, capsys):
    course = course_with_submissions(tmp_path)
    submitted = course / "submitted"
    (course / "autograded" / "cleo" / "01_magic_rule").mkdir(parents=True)
    (course / "autograded" / "cleo" / "01_magic_rule" / "magic_rule.ipynb").write_text("{ not json")
    for student, text in (("dan", '{"cells": ['), ("eli", nbformat.writes(exercise()))):
        (submitted / student / "01_magic_rule").mkdir(parents=True)
        (submitted / student / "01_magic_rule" / "magic_rule.ipynb").write_text(text)
    (submitted / "dan" / "09_never_graded").mkdir(parents=True)
    (submitted / "dan" / "09_never_graded" / "x.ipynb").write_text("{")  # not autograded yet: not listed
    whole = [(f.assignment, f.student, f.notebook, f.reasons) for f in report(course) if f.cell == WHOLE]
    assert whole == [
        ("01_magic_rule", "cleo", "magic_rule", ("not a notebook that can be read (not JSON)",)),
        ("01_magic_rule", "dan", "magic_rule", ("not graded: not a notebook that can be read (not JSON)",)),
        (
            "01_magic_rule",
            "eli",
            "magic_rule",
            ("not graded: no graded copy (autograde failed on it, see its log, or has not graded it yet)",),
        ),
    ]
    assert main([str(course), "01_magic_rule"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "4 submissions to look at, 1 cell flagged, 3 notebooks flagged as a whole."
    )


# -- the student's feedback ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("comment", "kept"),
    [
        (f"{TEACHER_NOTE}{SYSTEM} (os){TAIL}", None),
        (f"No response.\n{TEACHER_NOTE}{SYSTEM} (os){TAIL}", "No response."),
        (f"Good work.\n{TEACHER_NOTE}x\nanything after the note", "Good work."),
        ("Well argued, but see part 2.", "Well argued, but see part 2."),
        (
            f"Mentions {TEACHER_NOTE.strip()} inside a line.",
            f"Mentions {TEACHER_NOTE.strip()} inside a line.",
        ),
        (None, None),
    ],
)
def test_the_feedback_leaves_the_teachers_note_out_of_each_comment(comment, kept):
    cell = answer("is_set_answer")
    cell.metadata["nbgrader"]["comment"] = comment
    DropTeacherNotes().preprocess_cell(cell, {}, 0)
    assert cell.metadata["nbgrader"]["comment"] == kept


def test_dropping_the_notes_leaves_cells_without_nbgrader_metadata_alone():
    cell = new_code_cell("x = 1")
    assert DropTeacherNotes().preprocess_cell(cell, {}, 0) == (cell, {})
    assert cell.metadata == {}


def test_the_log_format_prints_messages_and_tracebacks_inert_and_report_lines_as_they_are():
    formatter = InertLogFormatter(fmt="[%(levelname)s] %(message)s")
    name = ("x\x1b[2J\u202e.ipynb",)
    record = logging.LogRecord("t", logging.WARNING, __file__, 1, "Skipping %s", name, None)
    assert formatter.format(record) == r"[WARNING] Skipping x\x1b[2J\u202e.ipynb"
    line = str(Finding("a", "b", "c", "d", ("!echo \x1b[2J",)))
    record = logging.LogRecord("t", logging.WARNING, __file__, 1, "Flagged: %s", (line,), None)
    assert formatter.format(record) == r"[WARNING] Flagged: a  b  c  d  !echo \x1b[2J", "not escaped twice"
    try:
        raise ValueError("bad\x1b]0;title\x07")
    except ValueError:
        record = logging.LogRecord("t", logging.ERROR, __file__, 1, "one\ntwo\r", (), sys.exc_info())
    lines = formatter.format(record).splitlines()
    assert lines[:2] == ["[ERROR] one", r"    two\r"]
    assert lines[-1] == r"    ValueError: bad\x1b]0;title\x07"
