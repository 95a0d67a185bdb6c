"""What the teacher and the student see, against the real ``nbgrader`` command line.

One temporary course grades, in one ``autograde`` run per exercise, a few students whose names need
more than ASCII (Chloé, Nguyễn, Müller), and students who attack what the teacher reads:

- ``forged_note`` hands in a flagged answer (it imports ``os``) and cells carrying ``setwidgets``
  metadata of its own, malformed (flags that are a number, a note that is a string): before, the
  flagging step raised after nbgrader had saved the scores (10/10, no flag, absent from the report);
- ``escapes`` writes terminal escapes (clear the screen, cursor home, a right-to-left override) in a
  ``!`` line, in its metadata and in the name of a notebook it adds, to hide the other flags from
  ``course.py report``;
- ``deep`` adds a cell nested deeper than Python's parser goes (50,000 calls in a row), which stops
  any scan that parses it;
- ``not_json`` hands in a notebook that is not JSON; ``blank`` the release copy untouched;
- in exercise 2, ``solver``'s written proof waits for a manual grade (4 points).

The tests read the gradebook, the report (as ``course.py report`` prints it), the feedback pages and
both files of ``nbgrader export``.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from formgrader_api import generate_assignment
from test_nbgrader import EXERCISES, IS_SET, NOTEBOOKS, ODD_ONE_OUT, THIRD_CARD, cell, grades, hand_in
from test_red_team import run_nbgrader

from setwidgets.grading.report import TEACHER_NOTE, WHOLE, report
from setwidgets.grading.sandbox import bubblewrap_problem

pytestmark = [
    pytest.mark.nbgrader,
    pytest.mark.skipif(bubblewrap_problem() is not None, reason=f"no sandbox here: {bubblewrap_problem()}"),
]

ONE, TWO = "01_magic_rule", "02_third_card"
ESC = "\x1b"
CLEAR = f"{ESC}[2J{ESC}[H"  # clear the screen, cursor to the top left
RLO = "\u202e"  # right-to-left override: reorders what follows on the line
FAKE_SUMMARY = f"{CLEAR}0 submissions to look at, 0 cells flagged.{ESC}[8m"  # and hide the rest
NAMES = {  # student id: (first name, last name)
    "solver": ("Chloé", "Dupont"),
    "blank": ("Văn", "Nguyễn"),
    "not_json": ("Jürgen", "Müller"),
    "forged_note": ("Zoë", "O'Brien, Jr."),
    "escapes": ('=HYPERLINK("http://example.org/x")', f"Evil{CLEAR}"),
    "deep": ("Ngọc", "Trần"),
}
HONEST_ONE = {"is_set_answer": IS_SET, "odd_one_out_answer": ODD_ONE_OUT}
ESCAPED_NOTEBOOK = f"x{CLEAR}{RLO}.ipynb"  # a file name the escapes student adds


def _forge_notes(nb: nbformat.NotebookNode) -> None:
    """Cells with the grader's metadata key, malformed; the answer imports os (a flag to hide)."""
    answer = cell(nb, "is_set_answer")
    answer.source = "import os\n" + answer.source
    answer.metadata["setwidgets"] = {"judged": {"flags": 5}, "student_code_ran": "yes"}
    cell(nb, "test_is_set_visible").metadata["setwidgets"] = {"student_code_ran": True, "judged": "passed"}
    added = nbformat.v4.new_code_cell("x = 1", metadata={"setwidgets": "not a note"})
    nb.cells.insert(nb.cells.index(answer) + 1, added)
    nb.cells.append(nbformat.v4.new_code_cell("y = 2", metadata={"setwidgets": {"names": None}}))


def _too_deep(nb: nbformat.NotebookNode) -> None:
    """A cell nested deeper than Python's parser goes: a scan that stops on it must not pass it."""
    nb.cells.insert(len(nb.cells) - 1, nbformat.v4.new_code_cell("f" + "(a)" * 50_000))


def _escape(nb: nbformat.NotebookNode) -> None:
    """A shell line and metadata that carry terminal escapes."""
    payload = nbformat.v4.new_code_cell(f"!echo '{FAKE_SUMMARY}{RLO}'")
    payload.metadata["setwidgets"] = {"student_code_ran": False, "names": [FAKE_SUMMARY]}
    nb.cells.insert(len(nb.cells) - 1, payload)


STUDENTS = {
    ONE: {
        "solver": ({}, None),
        "blank": (None, None),
        "not_json": (None, None),
        "forged_note": (HONEST_ONE, _forge_notes),
        "escapes": (HONEST_ONE, _escape),
        "deep": (HONEST_ONE, _too_deep),
    },
    TWO: {
        "solver": ({}, None),
        "blank": (None, None),
        "not_json": (None, None),
    },
}
STAMPED = {("solver", ONE): "2026-11-20 10:15:30.000000 UTC"}  # written by the exchange; others have none


def _hand_in(course: Path, assignment: str, student: str) -> None:
    answers, edit = STUDENTS[assignment][student]
    folder = course / "submitted" / student / assignment
    folder.mkdir(parents=True)
    target = folder / NOTEBOOKS[assignment]
    if (student, assignment) in STAMPED:
        (folder / "timestamp.txt").write_text(STAMPED[student, assignment])
    if student == "not_json":
        target.write_text('{"cells": [ {"cell_type": "code", "source": "is_set = lambda *a: True"')
        return
    nb = hand_in(course, assignment, answers or {}, source=student == "solver")
    if assignment == TWO and student == "solver":
        nb = hand_in(course, assignment, {"third_card_answer": THIRD_CARD}, source=True)
    if edit is not None:
        edit(nb)
    target.write_text(json.dumps(nb, indent=1))
    if student == "escapes":
        shutil.copy(target, folder / ESCAPED_NOTEBOOK)


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    course = tmp_path_factory.mktemp("red-team-report")
    shutil.copy(EXERCISES / "nbgrader_config.py", course)
    for assignment in STUDENTS:
        shutil.copytree(EXERCISES / "source" / assignment, course / "source" / assignment)
    # Both exercises at once ("*" is every exercise in source/), generated in this process as the
    # Formgrader does (tests/formgrader_api.py): each start of the nbgrader command costs CPU-seconds.
    generate_assignment(course, "*")
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for student, (first, last) in NAMES.items():
            gb.update_or_create_student(student, first_name=first, last_name=last)
    for assignment, students in STUDENTS.items():
        for student in students:
            _hand_in(course, assignment, student)
    result = run_nbgrader(course, "autograde", "*", "--ExecutePreprocessor.timeout=10")
    (course / "autograde.log").write_text(f"{result.stdout}\n{result.stderr}")
    result = run_nbgrader(course, "generate_feedback", ONE)
    (course / "feedback.log").write_text(result.stderr)
    result = run_nbgrader(course, "export")
    assert result.returncode == 0, result.stderr
    return course


def _report(course: Path, *assignments: str) -> str:
    """What ``python3 course.py report`` prints for this course (it runs this module)."""
    command = [sys.executable, "-m", "setwidgets.grading.report", str(course), *assignments]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
    return result.stdout


def _needs_look(course: Path, assignment: str, student: str) -> dict[str, bool]:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        submission = gb.find_submission(assignment, student)
        return {g.name: g.needs_manual_grade for nb in submission.notebooks for g in nb.grades}


# -- the student's metadata ------------------------------------------------------------------------


def test_malformed_metadata_neither_stops_the_flag_nor_reaches_the_graded_notebook(course):
    """The answer that imports os is flagged, its tests wait for the teacher; the forged notes are gone."""
    assert sum(grades(course, ONE, "forged_note").values()) == 10  # honest answers: the points stand...
    looked = _needs_look(course, ONE, "forged_note")
    assert all(looked[name] for name in looked if name.startswith("test_")), looked  # ...until a look
    found = [f for f in report(course, [ONE]) if f.student == "forged_note"]
    assert [(f.cell, f.reasons) for f in found] == [
        ("is_set_answer", ("reaches files, processes or the system (os)",))
    ]
    nb = nbformat.read(course / "autograded" / "forged_note" / ONE / NOTEBOOKS[ONE], as_version=4)
    notes = [c.metadata["setwidgets"] for c in nb.cells if "setwidgets" in c.metadata]
    assert notes, "the grader's own notes are there"
    assert all(set(note) <= {"student_code_ran", "names", "judged"} for note in notes), notes
    assert "not a note" not in json.dumps(notes) and '"flags": 5' not in json.dumps(notes)
    log = (course / "autograde.log").read_text()
    assert "forged_note: cell 8 carries the grader's 'setwidgets' metadata" in log
    assert "for student 'forged_note'" not in log, "no step failed on this notebook"


# -- terminal escapes -----------------------------------------------------------------------------


def test_the_report_prints_no_escape_and_hides_no_flag(course):
    out = _report(course)
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]", out), repr(out)
    lines = out.splitlines()
    deep = [f for f in report(course) if f.student == "deep"]  # how many depends on which step stopped
    cells = 2 + sum(f.cell != WHOLE for f in deep)
    whole = 3 + sum(f.cell == WHOLE for f in deep)
    assert (
        lines[-1] == f"5 submissions to look at, {cells} cells flagged, {whole} notebooks flagged as a whole."
    )
    shell = [line for line in lines if "escapes" in line and "magic_rule  cell" in line]
    assert shell == [  # the line is cut to 60 characters first, then its escapes are shown
        f"{ONE}  escapes  magic_rule  cell 26  runs shell or magic lines "
        r"(!echo '\x1b[2J\x1b[H0 submissions to look at, 0 cells flagged.\x1b...)"
    ]
    assert any(line.startswith(f"{ONE}  forged_note  magic_rule  is_set_answer") for line in lines)
    named = [line for line in lines if line.startswith(f"{ONE}  escapes  x")]
    assert named == [
        rf"{ONE}  escapes  x\x1b[2J\x1b[H\u202e  whole notebook  not graded: no graded copy "
        "(autograde failed on it, see its log, or has not graded it yet)"
    ]


# -- the report and the export -----------------------------------------------------------------------


def test_an_unreadable_notebook_is_in_the_report(course):
    found = [(f.assignment, f.cell, f.reasons) for f in report(course) if f.student == "not_json"]
    reason = ("not graded: not a notebook that can be read (not JSON)",)
    assert found == [(ONE, "whole notebook", reason), (TWO, "whole notebook", reason)]


def _spreadsheet(course: Path) -> tuple[bytes, dict[str, dict[str, str]]]:
    raw = (course / "grades_by_student.csv").read_bytes()
    with open(course / "grades_by_student.csv", newline="", encoding="utf-8-sig") as f:
        return raw, {row["student_id"]: row for row in csv.DictReader(f)}


def test_the_spreadsheet_export_has_a_byte_order_mark_one_row_per_student_and_names_intact(course):
    raw, rows = _spreadsheet(course)
    assert raw.startswith(b"\xef\xbb\xbf")
    assert sorted(rows) == sorted(NAMES)
    shown = {**NAMES, "escapes": ('\'=HYPERLINK("http://example.org/x")', r"Evil\x1b[2J\x1b[H")}
    assert {s: (r["first_name"], r["last_name"]) for s, r in rows.items()} == shown
    assert b"\x1b" not in raw
    assert "Chloé".encode() in raw and "Nguyễn".encode() in raw and "Müller".encode() in raw
    header = next(csv.reader(raw.decode("utf-8-sig").splitlines()))
    assert header == [
        "student_id",
        "last_name",
        "first_name",
        "email",
        *(f"{a}{part}" for a in (ONE, TWO) for part in ("", " max", " submitted (UTC)", " status")),
    ]


def test_the_export_marks_blank_unreadable_pending_and_missing_apart(course):
    _, rows = _spreadsheet(course)

    def columns(student: str, assignment: str) -> tuple[str, str, str]:
        row = rows[student]
        return row[assignment], row[f"{assignment} max"], row[f"{assignment} status"]

    assert columns("solver", ONE) == ("10", "10", "graded")
    assert columns("blank", ONE) == ("0", "10", "graded (time of the notebook's file: no timestamp.txt)")
    assert columns("not_json", ONE)[:2] == ("", "10")
    assert columns("not_json", ONE)[2].startswith("not graded: the notebook cannot be read (not JSON)")
    assert columns("solver", TWO) == (
        "12",
        "16",
        "pending: 4 of 16 points to grade by hand (time of the notebook's file: no timestamp.txt)",
    )
    assert columns("forged_note", TWO) == ("", "16", "no submission")
    assert columns("forged_note", ONE)[2].startswith("pending: 10 of 10 points to grade by hand")


def test_the_export_fills_times_from_the_exchange_or_else_the_file(course):
    _, rows = _spreadsheet(course)
    assert rows["solver"][f"{ONE} submitted (UTC)"] == "2026-11-20 10:15:30"
    for student in ("blank", "not_json", "forged_note", "escapes"):
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", rows[student][f"{ONE} submitted (UTC)"])
    assert rows["forged_note"][f"{TWO} submitted (UTC)"] == ""


def test_nbgraders_own_grades_csv_is_still_written_quoted(course):
    with open(course / "grades.csv", newline="", encoding="utf-8") as f:
        rows = {(r["assignment"], r["student_id"]): r for r in csv.DictReader(f)}
    assert len(rows) == len(NAMES) * 2
    assert rows[(ONE, "forged_note")]["last_name"] == "O'Brien, Jr."  # one field, comma and all
    assert float(rows[(TWO, "solver")]["score"]) == 12


# -- the student's feedback ---------------------------------------------------------------------------


def test_the_feedback_keeps_the_teachers_note_out_and_the_gradebook_keeps_it(course):
    page = (course / "feedback" / "forged_note" / ONE / "magic_rule.html").read_text()
    assert TEACHER_NOTE.strip() not in page and "course.py report" not in page
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        comment = gb.find_comment("is_set_answer", "magic_rule", ONE, "forged_note").comment
    assert comment.startswith(TEACHER_NOTE)


def test_the_feedback_says_what_the_guide_says_about_the_check_cells(course):
    """The check cells do not run while a notebook is graded: the guide says so, and the page shows it."""
    page = (course / "feedback" / "solver" / ONE / "magic_rule.html").read_text()
    for check in ("check_is_set", "check_odd_one_out"):  # one sentence each, as the guide says
        said = rf"{check}[^<]* set aside while this notebook is graded[^<]*the graded tests below say how"
        assert re.search(said, page), check
    guide = " ".join((EXERCISES / "README.md").read_text().split())
    assert "The check cells do not run while a notebook is graded" in guide
    assert "the hints of the check cells" not in guide


def test_nbgraders_own_log_quotes_the_file_name_inert(course):
    """nbgrader logs the notebook it skips by name: the course's log format shows its escapes."""
    log = (course / "autograde.log").read_text()
    assert ESC not in log and RLO not in log
    assert r"Skipping unknown notebook: " in log and r"/x\x1b[2J\x1b[H\u202e.ipynb" in log


def test_a_cell_no_parser_can_hold_never_passes_unseen(course):
    """Whichever step stops on it (the grader's or the scan), the teacher is told, and the export says so."""
    found = [f for f in report(course, [ONE]) if f.student == "deep"]
    assert found, "the deep notebook is in the report"
    reasons = " ".join(r for f in found for r in f.reasons)
    assert "the scan could not read this cell" in reasons or "not graded" in reasons, reasons
    _, rows = _spreadsheet(course)
    # The grader now reads past such a cell and grades the notebook; its score stands beside a flag
    # in the report, or, where the grader could not, the export says so instead of a score.
    status = rows["deep"][f"{ONE} status"]
    assert status.startswith(("graded", "pending")) or rows["deep"][ONE] == "", rows["deep"]
