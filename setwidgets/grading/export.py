"""``nbgrader export`` for a spreadsheet: one row per student, a column group per assignment.

``exercises/nbgrader_config.py`` sets ``c.ExportApp.plugin_class`` to :class:`SpreadsheetExport`.
One ``nbgrader export`` then writes two files in the folder it runs in (``exercises/``):

- ``grades.csv`` (or the file ``--to`` names): nbgrader's own layout, one row per student and
  assignment, for the tools that read it, with each field quoted where it needs to be (nbgrader's
  own writer breaks a row at a name with a comma in it);
- ``grades_by_student.csv``, for a spreadsheet: UTF-8 with a byte-order mark, so that Excel reads
  Chloé, Nguyễn and Müller as written (a control character shows as its escape, and a name that
  starts like a formula, ``=`` or ``+``, stays text); one row per student; for each assignment its
  score, its maximum, when it was submitted (UTC) and its status:

  - ``graded``;
  - ``pending: 4 of 16 points to grade by hand`` (a written answer not graded yet, or tests the
    report flagged): the score counts what is graded so far;
  - ``not graded: the notebook cannot be read (not JSON)``, ``not graded: submitted, with no
    grade in the gradebook`` or ``not graded: autograde left no graded copy of the notebook`` (a
    step failed on it; each followed by "see python3 course.py report"): the score is left empty,
    never 0;
  - ``no submission``: empty.

  The time is the one the exchange wrote (``timestamp.txt``); without one (a notebook put in
  ``submitted/`` by hand), the time of the submitted notebook's file, and the status says so.
"""

from __future__ import annotations

import csv
import datetime
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import nbformat
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.coursedir import CourseDirectory
from nbgrader.plugins import ExportPlugin
from traitlets import Unicode

from setwidgets.grading.inert import inert

KEYS = [
    "assignment",
    "duedate",
    "timestamp",
    "student_id",
    "last_name",
    "first_name",
    "email",
    "raw_score",
    "late_submission_penalty",
    "score",
    "max_score",
]
"""The columns of nbgrader's own ``grades.csv``, in its order."""

STUDENT_KEYS = ["student_id", "last_name", "first_name", "email"]

TIME_FORMAT = "%Y-%m-%d %H:%M:%S"
"""How a time is written: the form a spreadsheet reads as a date and time."""


def _text(value: Any) -> str:
    """A cell of the CSV: empty for None, a time in :data:`TIME_FORMAT`, else ``str``."""
    if value is None:
        return ""
    if isinstance(value, datetime.datetime):
        return value.strftime(TIME_FORMAT)
    return str(value)


FORMULA_START = ("=", "+", "-", "@")
"""How a spreadsheet formula starts: a student's text starting so is kept as text
(see :func:`spreadsheet_text`)."""


def spreadsheet_text(value: Any) -> str:
    """A student's text for the spreadsheet: inert (escapes visible), never read as a formula.

    Names, ids and emails come from the class list or from the exchange's folder names: a control
    character shows as its escape (:func:`setwidgets.grading.inert.inert`), and a leading ``=``,
    ``+``, ``-`` or ``@`` gets an apostrophe before it, which spreadsheets read as "this is text".
    """
    text = inert(_text(value))
    return "'" + text if text.startswith(FORMULA_START) else text


_written = spreadsheet_text  # its earlier, private name, which tests/test_export.py imports


def _points(value: float) -> str:
    """A score as a spreadsheet shows it: 12 rather than 12.0, 2.5 as it is."""
    return f"{value:g}"


class SpreadsheetExport(ExportPlugin):
    """nbgrader's ``grades.csv``, and ``grades_by_student.csv`` for a spreadsheet (see the module's help)."""

    spreadsheet = Unicode(
        "grades_by_student.csv",
        help="The file for a spreadsheet: UTF-8 with a byte-order mark, one row per student.",
    ).tag(config=True)

    def export(self, gradebook: Gradebook) -> None:
        long_path = self.to or "grades.csv"
        assignments = [a for a in gradebook.assignments if not self.assignment or a.name in self.assignment]
        students = [s for s in gradebook.students if not self.student or s.id in self.student]
        self.log.info("Exporting grades to %s and %s", long_path, self.spreadsheet)
        with open(long_path, "w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            writer.writerow(KEYS)
            writer.writerows(self._long_rows(gradebook, assignments, students))
        # utf-8-sig: the byte-order mark that tells Excel the file is UTF-8.
        with open(self.spreadsheet, "w", newline="", encoding="utf-8-sig") as out:
            writer = csv.writer(out)
            header = list(STUDENT_KEYS)
            for assignment in assignments:
                name = assignment.name
                header += [name, f"{name} max", f"{name} submitted (UTC)", f"{name} status"]
            writer.writerow(header)
            for student in students:
                row = [
                    spreadsheet_text(student.id),
                    *(spreadsheet_text(getattr(student, key)) for key in STUDENT_KEYS[1:]),
                ]
                for assignment in assignments:
                    row += self._cells(gradebook, assignment, student.id)
                writer.writerow(row)

    def _long_rows(self, gradebook: Gradebook, assignments: list, students: list) -> Iterator[list[str]]:
        """nbgrader's rows, value for value (a student without a submission scores 0 there)."""
        for assignment in assignments:
            for student in students:
                score: dict[str, Any] = {
                    "assignment": assignment.name,
                    "duedate": assignment.duedate,
                    "student_id": student.id,
                    "last_name": student.last_name,
                    "first_name": student.first_name,
                    "email": student.email,
                    "max_score": assignment.max_score,
                }
                try:
                    submission = gradebook.find_submission(assignment.name, student.id)
                except MissingEntry:
                    score.update(timestamp="", raw_score=0.0, late_submission_penalty=0.0, score=0.0)
                else:
                    penalty = submission.late_submission_penalty
                    score.update(
                        timestamp=submission.timestamp,
                        raw_score=submission.score,
                        late_submission_penalty=penalty,
                        score=max(0.0, submission.score - (penalty or 0.0)),
                    )
                # nbgrader writes a time with str(): keep its form in its file.
                yield ["" if score[key] is None else str(score[key]) for key in KEYS]

    def _cells(self, gradebook: Gradebook, assignment: Any, student: str) -> list[str]:
        """Score, maximum, time and status of one student's assignment."""
        maximum = _points(assignment.max_score)
        # The assignment's own notebooks: nbgrader skips any other a student adds.
        known = {notebook.name for notebook in assignment.notebooks}
        submitted = [path for path in self._submitted(assignment.name, student) if path.stem in known]
        try:
            submission = gradebook.find_submission(assignment.name, student)
        except MissingEntry:
            if not submitted:
                return ["", maximum, "", "no submission"]
            return ["", maximum, _text(_file_time(submitted)), f"not graded: {_unreadable(submitted)}"]
        when, status_time = submission.timestamp, ""
        if when is None and submitted:
            when, status_time = _file_time(submitted), " (time of the notebook's file: no timestamp.txt)"
        unreadable = [path for path in submitted if _unreadable(path) != NO_GRADE]
        if unreadable:
            return ["", maximum, _text(when), f"not graded: {_unreadable(unreadable[0])}{status_time}"]
        # A step that failed on a notebook leaves no graded copy, and grades that may read 0 or less.
        graded = self._folder("autograded_directory", assignment.name, student)
        if any(not (graded / path.name).is_file() for path in submitted):
            return ["", maximum, _text(when), f"not graded: {NO_COPY}{status_time}"]
        penalty = submission.late_submission_penalty or 0.0
        score = _points(max(0.0, submission.score - penalty))
        pending = sum(grade.max_score for grade in _grades(submission) if grade.needs_manual_grade)
        status = "graded"
        if pending:
            status = f"pending: {_points(pending)} of {maximum} points to grade by hand"
        if penalty:
            status += f", {_points(penalty)} point{'' if penalty == 1 else 's'} off for lateness"
        return [score, maximum, _text(when), status + status_time]

    def _submitted(self, assignment: str, student: str) -> list[Path]:
        """The notebooks in ``submitted/<student>/<assignment>/``."""
        folder = self._folder("submitted_directory", assignment, student)
        return sorted(folder.glob("*.ipynb")) if folder.is_dir() else []

    def _folder(self, kind: str, assignment: str, student: str) -> Path:
        """The course's folder of one student's assignment: ``kind`` is submitted or autograded."""
        coursedir = getattr(self.parent, "coursedir", None) or CourseDirectory(config=self.config)
        return Path(coursedir.format_path(getattr(coursedir, kind), student, assignment))


NO_GRADE = "submitted, with no grade in the gradebook (see python3 course.py report)"
NO_COPY = "autograde left no graded copy of the notebook (see python3 course.py report)"


def _unreadable(paths: Path | Iterable[Path]) -> str:
    """Why the notebook (the first of ``paths`` that cannot be read) has no grade."""
    for path in [paths] if isinstance(paths, Path) else paths:
        try:
            nbformat.read(path, as_version=4)
        except Exception as error:  # noqa: BLE001 - whatever nbformat raises, the notebook is unreadable
            why = "not JSON" if isinstance(error, ValueError) else type(error).__name__
            return f"the notebook cannot be read ({why})"
    return NO_GRADE


def _file_time(paths: list[Path]) -> datetime.datetime:
    """The latest modification time of ``paths``, in UTC (as nbgrader keeps its times)."""
    latest = max(path.stat().st_mtime for path in paths)
    return datetime.datetime.fromtimestamp(latest, datetime.UTC).replace(tzinfo=None)


def _grades(submission: Any) -> Iterator[Any]:
    for notebook in submission.notebooks:
        yield from notebook.grades
