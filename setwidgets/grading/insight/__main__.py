"""``python -m setwidgets.grading.insight COURSE ASSIGNMENT...``: the class insight of each assignment.

COURSE is the course's folder (where ``gradebook.db`` is: ``exercises/``). For each assignment,
after ``nbgrader autograde``, it writes into ``COURSE/class_insight/`` the teacher's page and
CSV and the anonymous ones to project (:mod:`setwidgets.grading.insight.page`), and prints their
paths. ``python3 course.py insight ASSIGNMENT`` runs it on ``exercises/``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from setwidgets import _extras

# The gradebook is nbgrader's, the pages are drawn with matplotlib and made inert with nh3, all in
# the course extra: with the core alone, one sentence naming it instead of a ModuleNotFoundError.
_extras.command_needs("course", "python -m setwidgets.grading.insight", "nbgrader", "matplotlib", "nh3")

from setwidgets.grading.inert import inert  # noqa: E402

PAGES = "class_insight"
"""The folder, in the course's folder, of the pages and CSVs."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m setwidgets.grading.insight", description=__doc__)
    parser.add_argument("course", type=Path, help="the course's folder, where gradebook.db is")
    parser.add_argument("assignments", nargs="+", help="assignment names, e.g. 01_magic_rule")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if not (args.course / "gradebook.db").is_file():
        print(
            f"insight: there is no gradebook.db in {args.course}: autograde the assignment first",
            file=sys.stderr,
        )
        return 2
    from setwidgets.grading.insight.page import gather, write

    status = 0
    for assignment in args.assignments:
        try:
            insight = gather(args.course, assignment, progress=not args.no_progress)
        except ValueError as error:
            print(f"insight: {inert(str(error))}", file=sys.stderr)
            status = 2
            continue
        for path in write(insight, args.course / PAGES):
            print(path)
        for problem in insight.problems:
            print(f"insight: left out {inert(problem)}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
