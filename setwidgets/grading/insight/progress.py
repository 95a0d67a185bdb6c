"""``nbgrader autograde`` with a progress bar: notebooks done, of how many, and the time left.

nbgrader grades one submission after another and says so only in its log ("Autograding
autograded/ana/01_magic_rule/magic_rule.ipynb" when it starts one). :func:`autograde` runs the real
``nbgrader autograde`` in the course's folder, counts the notebooks it will grade, and moves a tqdm
bar when a notebook is done (the next one starts, or nbgrader ends), so that the bar counts
notebooks graded and its time left is theirs. The whole log goes to
``class_insight/autograde_<assignment>.log``; its errors (and tracebacks) are also printed above the
bar, made inert (a student's file name can carry terminal escapes:
:func:`setwidgets.grading.inert.inert_lines`), and its warnings counted (nbgrader warns of a
changed checksum on every hidden test cell: a known quirk, not news for each student).
``python3 course.py autograde ASSIGNMENT`` runs it on ``exercises/``.
"""

from __future__ import annotations

import glob
import os
import subprocess
import sys
from pathlib import Path

from tqdm.auto import tqdm

from setwidgets import _extras

# Run as a command, it runs nbgrader's own command (and its log is made inert with Tornado's
# formatter, which nbgrader brings): with the core alone, one sentence naming the course extra.
if __name__ == "__main__":
    _extras.command_needs("course", "python -m setwidgets.grading.insight.progress", "nbgrader")

from setwidgets.grading.inert import inert_lines  # noqa: E402

PAGES = "class_insight"
# nbgrader's log lines look like "[AutogradeApp | ERROR] ..."; the levels shown, an allow-list.
_SHOWN = ("| ERROR]", "| CRITICAL]", "Traceback")
_WARNING = "| WARNING]"
_SKIPPED = "Skipping existing assignment: "


def submissions(course: Path, assignment: str, student: str = "*") -> int:
    """How many notebooks of ``assignment`` wait in ``submitted/`` (what autograde will go through);
    those of one ``student`` when given."""
    names = {path.name for path in (course / "source" / assignment).glob("*.ipynb")}
    folder = "*" if student == "*" else glob.escape(student)  # a name with [ or * is that name
    found = (course / "submitted").glob(f"{folder}/{assignment}/*.ipynb")
    return sum(1 for path in found if not names or path.name in names)


def autograde(course: Path | str, assignment: str, *args: str, progress: bool = True) -> int:
    """Run ``nbgrader autograde assignment *args`` in ``course`` with a progress bar; its exit status."""
    course = Path(course)
    if "/" in assignment or assignment in ("", ".", ".."):
        raise ValueError(f"autograde() needs the assignment's folder name; got {assignment!r}")
    total = submissions(course, assignment)
    log_path = course / PAGES / f"autograde_{assignment}.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    nbgrader = Path(sys.executable).parent / "nbgrader"
    command = [str(nbgrader) if nbgrader.exists() else "nbgrader", "autograde", assignment, *args]
    # nbgrader's gradebook runs the 'alembic' command found on PATH: the one beside this Python.
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    env = dict(os.environ, PYTHONUNBUFFERED="1", PATH=path)
    env.pop("NBGRADER_EXECUTION", None)
    with (
        open(log_path, "w", encoding="utf-8") as log,
        tqdm(total=total, desc=f"autograde {assignment}", unit="notebook", disable=not progress) as bar,
        subprocess.Popen(
            command,
            cwd=course,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
            errors="replace",
        ) as child,
    ):
        assert child.stdout is not None
        grading = False  # a notebook started and not yet done
        warnings = skipped = 0
        for line in child.stdout:
            log.write(line)
            if "Autograding " in line:
                # The next notebook starts: the one before is done.
                bar.update(1 if grading else 0)
                grading = True
            elif any(mark in line for mark in _SHOWN):
                tqdm.write(inert_lines(line.rstrip("\n")), file=sys.stderr)
            elif _WARNING in line:
                warnings += 1
            elif _SKIPPED in line:
                # Graded before: its notebooks count as done (nbgrader grades them again with --force).
                student = Path(line.split(_SKIPPED, 1)[1].strip()).parent.name
                skipped += 1
                bar.update(submissions(course, assignment, student) if student else 0)
        status = child.wait()
        bar.update(1 if grading else 0)
    said = f"{warnings} warning{'' if warnings == 1 else 's'} (nbgrader's); " if warnings else ""
    if skipped:
        again = "(--force grades them again)"
        said += f"{skipped} submission{'' if skipped == 1 else 's'} graded before, skipped {again}; "
    tqdm.write(f"autograde {assignment}: {said}the whole log is in {log_path}", file=sys.stderr)
    return status


def main(argv: list[str] | None = None) -> int:
    """``python -m setwidgets.grading.insight.progress COURSE ASSIGNMENT [nbgrader's arguments]``."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) < 2:
        print(
            "usage: python -m setwidgets.grading.insight.progress COURSE ASSIGNMENT [ARGUMENTS]",
            file=sys.stderr,
        )
        return 2
    return autograde(Path(argv[0]), argv[1], *argv[2:])


if __name__ == "__main__":
    sys.exit(main())
