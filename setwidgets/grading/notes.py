"""The grader's note on a graded test cell, read through its schema.

:class:`~setwidgets.grading.preprocessors.GradingExecute` writes, under the ``setwidgets`` key of a
graded test cell's metadata, whether the student's code ran and, for a judged test, the verdict's
flags. :func:`grader_note` reads that note through an allow-list of keys and types; anything
else is :class:`MalformedNote`, and :mod:`setwidgets.grading.report` flags the cell.
"""

from __future__ import annotations

from dataclasses import dataclass

from nbformat import NotebookNode

from setwidgets.grading.judge import JUDGED
from setwidgets.grading.preprocessors import WATCHED


@dataclass(frozen=True)
class GraderNote:
    """What the grader noted on a graded test cell, under the ``setwidgets`` key of its metadata.

    ``student_code_ran``: whether any of the student's code ran while the test did;
    ``names``: the functions it expected to run; ``judged``: for a test judged outside the kernel,
    whether it passed and the judge's flags for the teacher (None for a watched test).
    """

    student_code_ran: bool
    names: tuple[str, ...]
    judged: bool
    flags: tuple[str, ...]


MAX_NOTE_ITEMS = 64
"""The most names or flags a grader's note holds: the grader writes a few of each."""

MAX_NOTE_TEXT = 1000
"""The most characters of one name or flag in a grader's note."""


def _texts(value: object) -> tuple[str, ...] | None:
    """A list of short strings, as a tuple, or None for anything else."""
    if type(value) is not list or len(value) > MAX_NOTE_ITEMS:
        return None
    if not all(type(item) is str and len(item) <= MAX_NOTE_TEXT for item in value):
        return None
    return tuple(value)


class MalformedNote(ValueError):
    """A cell's ``setwidgets`` metadata does not match the grader's note."""


def grader_note(cell: NotebookNode) -> GraderNote | None:
    """The grader's note on ``cell``, read through its schema; None if the cell has none.

    The schema is an allow-list: a dict with the keys ``student_code_ran`` (a bool), ``names``
    (a list of strings, optional) and, on a judged test, ``judged``: a dict with ``passed`` (a
    bool), ``seed`` (an int, optional) and ``flags`` (a list of strings, optional). Anything else
    (another key, another type, a list of a thousand names) raises :class:`MalformedNote`, whose
    message says what is expected: the grader never writes such a note, so the caller flags the
    cell for the teacher instead of trusting or ignoring it. The student's own ``setwidgets``
    metadata never gets this far: :class:`~setwidgets.grading.submissions.RestoreMetadata` drops
    it before the notebook is graded.
    """
    metadata = cell.get("metadata")
    if not isinstance(metadata, dict) or WATCHED not in metadata:
        return None
    note = metadata[WATCHED]
    expected = (
        "grader_note() expects the cell's 'setwidgets' metadata to be a dict with 'student_code_ran' "
        "(a bool), 'names' (a list of strings) and, for a judged test, 'judged' (a dict with 'passed', "
        "a bool, 'seed', an int, and 'flags', a list of strings)"
    )
    if not isinstance(note, dict) or not set(note) <= {"student_code_ran", "names", JUDGED}:
        raise MalformedNote(expected)
    ran = note.get("student_code_ran")
    names = _texts(note.get("names", []))
    if type(ran) is not bool or names is None:
        raise MalformedNote(expected)
    if JUDGED not in note:
        return GraderNote(ran, names, False, ())
    judged = note[JUDGED]
    if not isinstance(judged, dict) or not set(judged) <= {"passed", "seed", "flags"}:
        raise MalformedNote(expected)
    flags = _texts(judged.get("flags", []))
    seed = judged.get("seed", 0)
    if type(judged.get("passed")) is not bool or flags is None or type(seed) is not int:
        raise MalformedNote(expected)
    return GraderNote(ran, names, True, flags)
