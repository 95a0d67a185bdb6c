"""The spreadsheet export on its own, fast: a gradebook written through nbgrader's API, each status once.

``tests/test_red_team_report.py`` runs the same export through the real ``nbgrader export``.
"""

from __future__ import annotations

import csv
import datetime
import os
from pathlib import Path

import nbformat
import nbgrader.api
import pytest
from nbformat.v4 import new_notebook
from nbgrader.api import Gradebook
from traitlets.config import Config

from setwidgets.grading.export import SpreadsheetExport, _written

A, NB = "a1", "nb"


@pytest.fixture(autouse=True)
def _no_alembic(monkeypatch):
    """A new gradebook asks alembic for its version in a process of its own (seconds): any will do here."""
    monkeypatch.setattr(nbgrader.api, "get_alembic_version", lambda: "e43177bfe90b")


def _course(root: Path) -> str:
    """A gradebook with one assignment (6 autograded points, a 4-point proof) and six students."""
    url = f"sqlite:///{root / 'gradebook.db'}"
    with Gradebook(url) as gb:
        gb.add_assignment(A)
        gb.add_notebook(NB, A)
        gb.add_grade_cell("auto", NB, A, max_score=6, cell_type="code")
        gb.add_grade_cell("proof", NB, A, max_score=4, cell_type="markdown")
        gb.add_solution_cell("proof", NB, A)
        for student in ("late", "pending", "crashed", "ungraded", "broken", "absent"):
            gb.add_student(student, first_name="Chloé", last_name="Nguyễn")
        gb.update_or_create_student("absent", first_name="-1+2", last_name="@SUM(A1)")
        when = datetime.datetime(2026, 11, 20, 10, 15, 30)
        for student in ("late", "pending", "crashed"):
            gb.add_submission(A, student, timestamp=when)
            notebook = gb.find_submission_notebook(NB, A, student)
            for grade in notebook.grades:
                grade.auto_score = 6 if grade.name == "auto" else None
                grade.manual_score = 3 if grade.name == "proof" and student == "late" else None
                grade.needs_manual_grade = grade.name == "proof" and student == "pending"
            notebook.late_submission_penalty = 1.0 if student == "late" else None
        gb.db.commit()
    blank = nbformat.writes(new_notebook())
    for student, text in (
        ("ungraded", blank),
        ("broken", '{"cells": ['),
        ("crashed", blank),
        ("pending", blank),
    ):
        folder = root / "submitted" / student / A
        folder.mkdir(parents=True)
        (folder / f"{NB}.ipynb").write_text(text)
        (folder / "unknown.ipynb").write_text(blank)  # a notebook the assignment does not have: skipped
        os.utime(folder / f"{NB}.ipynb", (1_700_000_000, 1_700_000_000))  # 2023-11-14 22:13:20 UTC
    # Autograde left a graded copy for the pending student; for the crashed one a step failed.
    (root / "autograded" / "pending" / A).mkdir(parents=True)
    (root / "autograded" / "pending" / A / f"{NB}.ipynb").write_text(blank)
    return url


def test_each_student_gets_one_row_and_each_status_its_words(tmp_path, monkeypatch):
    url = _course(tmp_path)
    monkeypatch.chdir(tmp_path)
    config = Config()
    config.CourseDirectory.root = str(tmp_path)
    with Gradebook(url) as gb:
        SpreadsheetExport(config=config).export(gb)
    raw = (tmp_path / "grades_by_student.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and "Nguyễn".encode() in raw
    with open(tmp_path / "grades_by_student.csv", newline="", encoding="utf-8-sig") as f:
        rows = {row["student_id"]: row for row in csv.DictReader(f)}
    columns = {s: (r[A], r[f"{A} max"], r[f"{A} submitted (UTC)"], r[f"{A} status"]) for s, r in rows.items()}
    file_time = "2023-11-14 22:13:20"
    assert columns == {
        "late": ("8", "10", "2026-11-20 10:15:30", "graded, 1 point off for lateness"),
        "pending": ("6", "10", "2026-11-20 10:15:30", "pending: 4 of 10 points to grade by hand"),
        "crashed": (
            "",
            "10",
            "2026-11-20 10:15:30",
            "not graded: autograde left no graded copy of the notebook (see python3 course.py report)",
        ),
        "ungraded": (
            "",
            "10",
            file_time,
            "not graded: submitted, with no grade in the gradebook (see python3 course.py report)",
        ),
        "broken": ("", "10", file_time, "not graded: the notebook cannot be read (not JSON)"),
        "absent": ("", "10", "", "no submission"),
    }
    assert (rows["absent"]["first_name"], rows["absent"]["last_name"]) == ("'-1+2", "'@SUM(A1)")
    with open(tmp_path / "grades.csv", newline="", encoding="utf-8") as f:
        long = {row["student_id"]: row for row in csv.DictReader(f)}
    assert (long["late"]["raw_score"], long["late"]["score"], long["broken"]["score"]) == (
        "9.0",
        "8.0",
        "0.0",
    )
    assert long["absent"]["last_name"] == "@SUM(A1)", "nbgrader's own file keeps nbgrader's values"


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("Müller", "Müller"),
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+1", "'+1"),
        ("-x", "'-x"),
        ("@A1", "'@A1"),
        ("a=b", "a=b"),
        ("\x1b[2J", r"\x1b[2J"),
        ("\t=1", r"\t=1"),
        (None, ""),
    ],
)
def test_a_students_text_is_never_a_formula_nor_an_escape(value, shown):
    assert _written(value) == shown
