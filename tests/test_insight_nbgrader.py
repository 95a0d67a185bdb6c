"""Class insight on a class of 40 graded by the real nbgrader: each seeded misconception, counted right.

One module-scoped fixture builds a course of exercise 1 only (generate_assignment), hands in the
seeded class of tests/insight_class.py (40 students: honest, blank, and known misconceptions in
known proportions, one kind no rule names), autogrades them all in one batch through
``course.py autograde``'s wrapper (the real ``nbgrader autograde``, with its progress bar), and
writes the insight. Set ``SETWIDGETS_INSIGHT_KEEP`` to a folder to keep the pages (to look at them).
"""

from __future__ import annotations

import csv
import html
import os
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from formgrader_api import generate_assignment
from insight_class import ASSIGNMENT, expected_counts, seeded_class
from test_nbgrader import EXERCISES, hand_in, save

from setwidgets.grading import insight_cases as cases
from setwidgets.grading.insight.catalogue import OTHER
from setwidgets.grading.insight.page import gather, labels, write
from setwidgets.grading.insight.progress import PAGES, autograde, submissions

pytestmark = pytest.mark.nbgrader

# Names from the class list, some a spreadsheet or a page must not take for code.
FIRST = ["Chloé", "Nguyễn", "Zoë", "Ana", "<i>Bob</i>", "Łukasz", "Siobhán", "Ødegaard"]
LAST = ["Müller", "O'Neil", "=SUM(A1)", "Tanaka", "Okafor", "García", "Li", "Durand"]


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> tuple[Path, dict]:
    course = tmp_path_factory.mktemp("insight_course")
    shutil.copy(EXERCISES / "nbgrader_config.py", course)
    (course / "source").mkdir()
    shutil.copytree(EXERCISES / "source" / ASSIGNMENT, course / "source" / ASSIGNMENT)
    # In this process, as the Formgrader does (tests/formgrader_api.py): no nbgrader start of its own.
    generate_assignment(course, ASSIGNMENT)
    students = seeded_class()

    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for n, student in enumerate(students):
            gb.update_or_create_student(student, first_name=FIRST[n % 8], last_name=LAST[n // 8 % 8])
    for student, (answers, _) in students.items():
        save(course, student, ASSIGNMENT, hand_in(course, ASSIGNMENT, answers))
    assert submissions(course, ASSIGNMENT) == 40
    assert autograde(course, ASSIGNMENT, progress=False) == 0
    insight = gather(course, ASSIGNMENT, progress=False)
    written = write(insight, course / PAGES)
    keep = os.environ.get("SETWIDGETS_INSIGHT_KEEP")
    if keep:
        for path in written:
            shutil.copy(path, Path(keep))
    return course, students


def test_the_insight_finds_each_seeded_misconception_with_the_right_count_and_nothing_unseeded(course):
    root, students = course
    insight = gather(root, ASSIGNMENT, progress=False)
    found = Counter({row.key: len(row.students) for row in insight.rows})
    found[OTHER] = len(insight.other.students)
    assert found == expected_counts(students)
    for row in [*insight.rows, insight.other]:
        assert row.students == sorted(s for s, (_, shown) in students.items() if row.key in shown), row.key


def test_autograde_graded_every_notebook_and_the_judge_kept_each_students_cases(course):
    root, students = course
    log = (root / PAGES / f"autograde_{ASSIGNMENT}.log").read_text()
    assert log.count("Autograding ") == 40
    kept = cases.read_class(root, ASSIGNMENT)
    assert sorted(kept.students) == sorted(students) and not kept.problems
    honest = [s for s, (answers, shown) in students.items() if answers and not shown]
    assert all(all(t.passed for t in kept.students[s].values()) for s in honest)


def test_the_heatmap_holds_every_student_and_the_scores_come_from_the_gradebook(course):
    root, students = course
    insight = gather(root, ASSIGNMENT, progress=False)
    assert len(labels(insight, anonymous=True)) == 40
    assert len(insight.tests) == 4 and sum(insight.maxima.values()) == 10
    # In the notebook's order, as students met them (the heatmap's columns).
    assert insight.tests == [
        "test_is_set_visible",
        "test_is_set_hidden",
        "test_odd_one_out_visible",
        "test_odd_one_out_hidden",
    ]
    honest = [s for s, (answers, shown) in students.items() if answers and not shown]
    assert all(sum(insight.scores[s].values()) == 10 for s in honest)
    blank = [s for s, (answers, _) in students.items() if not answers]
    assert all(sum(insight.scores[s].values()) == 0 for s in blank)


def test_the_anonymous_copy_holds_no_student_name_and_the_teachers_copy_names_them(course):
    root, students = course
    pages = root / PAGES
    names = [*students, *FIRST, *LAST]
    for suffix in ("html", "csv"):
        anonymous = (pages / f"{ASSIGNMENT}_insight_anonymous.{suffix}").read_text(encoding="utf-8-sig")
        # The charts are pictures (their labels are checked in labels()); base64 holds any short text.
        text = re.sub(r"base64,[A-Za-z0-9+/=]+", "base64,", anonymous)
        escaped = [html.escape(name) for name in names]
        assert not [name for name in [*names, *escaped] if name in text], suffix
    shown = labels_text(root)
    assert "student 40" in shown and not [s for s in students if s in shown]
    page = (pages / f"{ASSIGNMENT}_insight.html").read_text()
    assert all(student in page for student, (_, shown) in students.items() if shown)
    assert "Chloé" in page and "&lt;i&gt;Bob&lt;/i&gt;" in page and "<i>Bob</i>" not in page
    rows = list(csv.reader((pages / f"{ASSIGNMENT}_insight.csv").open(encoding="utf-8-sig")))
    assert rows[0][-1] == "who" and any("s0" in row[-1] for row in rows[1:])
    # A last name that is a formula is in the teacher's CSV as text, and no cell starts a formula.
    formula = [
        s for n, (s, (_, shown)) in enumerate(students.items()) if shown and LAST[n // 8 % 8] == "=SUM(A1)"
    ]
    assert formula and all(f"{s} (" in "".join(row[-1] for row in rows) for s in formula)
    assert "=SUM(A1)" in "".join(row[-1] for row in rows)
    assert not any(cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row)


def labels_text(root: Path) -> str:
    """The heatmap's row labels of the anonymous copy, as one text."""
    return " ".join(label for _, label in labels(gather(root, ASSIGNMENT, progress=False), anonymous=True))
