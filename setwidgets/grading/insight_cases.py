"""The failed cases the judge keeps for the teacher: written beside the gradebook, read back through a schema.

While autograding, :class:`~setwidgets.grading.preprocessors.GradingExecute` judges each graded
test outside the student's kernel (:mod:`setwidgets.grading.judge`). For every judged test it
keeps whether the test passed, the sentence the student got, and up to
:data:`~setwidgets.grading.judge.MAX_KEPT` cases the function got wrong: its arguments (card codes,
numbers), what it returned or raised, and the answer wanted; and up to
:data:`~setwidgets.grading.judge.MAX_PASSED_KEPT` cases it got right, spread over the test's cases
(they tell one mistake from another). They go to one JSON file per
notebook, in the course's folder (beside ``gradebook.db``, which the grading sandbox hides from
every kernel)::

    insight/<student>/<assignment>/<notebook>.json

Autograding a submission again writes its file anew. Nothing here reaches a student: the
feedback is made from the autograded notebook, which holds none of it.

:func:`read_class` reads the files of one assignment back through an allow-list of keys, types and
sizes: a file that does not match (written by hand, cut short) is left out and named in
:attr:`ClassCases.problems`, never trusted half-way.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FOLDER = "insight"
"""The folder, in the course's folder, that holds the kept cases."""

MAX_FILE_BYTES = 2 * 2**20
"""The largest file of kept cases :func:`read_class` reads: the judge writes far less."""

_NAME = re.compile(r"[^/\\\x00]{1,200}")


def _safe(name: str) -> bool:
    """Whether ``name`` can be one folder or file name: no separator, not ``.`` or ``..``."""
    return isinstance(name, str) and bool(_NAME.fullmatch(name)) and name not in (".", "..")


def path_of(root: Path | str, student: str, assignment: str, notebook: str) -> Path:
    """Where the kept cases of one notebook go; ValueError for a name that is no single folder name."""
    for what, name in (("student", student), ("assignment", assignment), ("notebook", notebook)):
        if not _safe(name):
            raise ValueError(
                f"path_of() needs the {what} as one folder name (no '/', not '..'), not {name!r}"
            )
    return Path(root) / FOLDER / student / assignment / f"{notebook}.json"


def write(root: Path | str, student: str, assignment: str, notebook: str, tests: Mapping[str, Any]) -> Path:
    """Write the kept cases of one graded notebook; ``tests`` maps each judged test's grade id to its
    :class:`~setwidgets.grading.judge.Verdict`. The file is replaced whole (written aside, then moved)."""
    path = path_of(root, student, assignment, notebook)
    data = {
        "student": student,
        "assignment": assignment,
        "notebook": notebook,
        "tests": {
            grade_id: {"passed": bool(v.passed), "message": str(v.message)[:1000], "cases": list(v.cases)}
            for grade_id, v in tests.items()
        },
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(data, out)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


@dataclass(frozen=True)
class TestRecord:
    """One judged test of one student: passed or not, the student's sentence, the kept cases."""

    __test__ = False  # a record, not a class of tests for pytest to collect

    passed: bool
    message: str
    cases: tuple[dict[str, Any], ...]


@dataclass
class ClassCases:
    """The kept cases of one assignment: ``students[student][grade_id]`` is a :class:`TestRecord`."""

    students: dict[str, dict[str, TestRecord]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    left_out: set[str] = field(default_factory=set)
    """The students (by folder) with a file left out, one of :attr:`problems`."""


_CASE_KEYS = {"function", "args", "got", "error", "want", "after", "passed"}


def _case(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict) or not set(value) <= _CASE_KEYS or "function" not in value:
        raise ValueError("a case is a dict with 'function', 'args' and 'got' or 'error'")
    if type(value["function"]) is not str or type(value.get("args", [])) is not list:
        raise ValueError("a case's function is a name and its args a list")
    if "error" in value and type(value["error"]) is not str:
        raise ValueError("a case's error is a text")
    if type(value.get("passed", False)) is not bool:
        raise ValueError("a case's 'passed' is a bool")
    return value


def _test(value: Any) -> TestRecord:
    if not isinstance(value, dict) or set(value) != {"passed", "message", "cases"}:
        raise ValueError("a test is a dict with 'passed', 'message' and 'cases'")
    if type(value["passed"]) is not bool or type(value["message"]) is not str:
        raise ValueError("a test's 'passed' is a bool and its 'message' a text")
    if type(value["cases"]) is not list or len(value["cases"]) > 200:
        raise ValueError("a test's 'cases' is a list of at most 200")
    return TestRecord(value["passed"], value["message"][:1000], tuple(_case(c) for c in value["cases"]))


def read_file(path: Path) -> tuple[str, dict[str, TestRecord]]:
    """The student and the tests of one file of kept cases; ValueError when it does not match."""
    if path.stat().st_size > MAX_FILE_BYTES:
        raise ValueError(f"it is bigger than {MAX_FILE_BYTES:,} bytes")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, RecursionError, json.JSONDecodeError) as error:
        raise ValueError(f"it is not JSON ({type(error).__name__})") from None
    if not isinstance(data, dict) or set(data) != {"student", "assignment", "notebook", "tests"}:
        raise ValueError("it is not a dict of 'student', 'assignment', 'notebook' and 'tests'")
    if not isinstance(data["tests"], dict) or not all(type(k) is str for k in data["tests"]):
        raise ValueError("its 'tests' is not a dict by grade id")
    return str(data["student"]), {grade_id: _test(test) for grade_id, test in data["tests"].items()}


def read_class(root: Path | str, assignment: str) -> ClassCases:
    """The kept cases of every student's notebooks of ``assignment`` in the course at ``root``."""
    if not _safe(assignment):
        raise ValueError(f"read_class() needs the assignment's folder name; got {assignment!r}")
    found = ClassCases()
    base = Path(root) / FOLDER
    if not base.is_dir():
        return found
    for path in sorted(base.glob(f"*/{assignment}/*.json")):
        student = path.parent.parent.name
        try:
            named, tests = read_file(path)
            if named != student:
                raise ValueError(f"it names the student {named!r}")
        except (OSError, ValueError) as error:
            found.problems.append(f"{path.relative_to(base)}: {error}")
            found.left_out.add(student)
            continue
        found.students.setdefault(student, {}).update(tests)
    return found
