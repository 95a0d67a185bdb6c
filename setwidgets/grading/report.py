"""Which submissions a teacher should look at, cell by cell, and why.

During ``nbgrader autograde``, :class:`FlagSuspiciousCells` (the last autograde step in
``exercises/nbgrader_config.py``) reads the code each student wrote, and the outputs of the
run, and looks for

- code that changes how cells run: IPython input or AST transformers, event hooks,
  ``get_ipython()``, patches of ``sys`` or ``builtins``, ``sys.modules`` games;
- the package's reference functions, imported or called (``is_set``, ``explain``,
  ``third_card``, ``find_sets`` ...), or the grader's referee touched; any other name imported
  from the package that the exercise's own cells do not import (the package has more than one
  way to an answer: ``geometry.line`` gives the third card too);
- files, processes and the system: ``open``, ``os``, ``pathlib``, ``subprocess``, ``socket``,
  ``sqlite3``, ``ctypes``, ``runpy``, ``marshal``, ``exec``/``eval``, shell lines, and the
  methods that read or write files without ``open`` (numpy's ``fromfile`` and ``tofile`` ...);
- cells that stopped the kernel or ignored the interrupt, and cells stopped by the memory limit;
- graded test cells that passed although none of the student's code ran in them: the test
  names a function the student was asked to write, yet neither it nor any other code of the
  student's was called while the test ran (the grader's watch, :mod:`setwidgets.grading.watch`,
  noted that in the cell's metadata, read through :func:`grader_note`'s schema; no note counts
  as "not called", and a note off the schema is itself a reason to look).

The scan fails closed: a cell it cannot read (code nested deeper than Python's parser goes) is
flagged, and if the scan of a notebook fails, the whole submission is.

A flagged cell gets the reasons as its comment in the Formgrader (solution cells have one; for
a cell the student added or a test, the answer cell before it gets it), and every autograded
test after it (a flagged test itself too) is marked as needing a manual grade: the points stay
as the tests gave them until the teacher looks. ``python3 course.py report``
prints the same findings for every autograded submission::

    $ python3 course.py report 01_magic_rule
    01_magic_rule  ana   magic_rule  is_set_answer  changes how cells run (input_transformers_post)

The report also lists, as a ``whole notebook``, a submitted notebook with no graded copy (not
JSON, or a step of autograde failed on it). Everything it prints is inert
(:func:`setwidgets.grading.inert.inert`): control characters, terminal escapes and bidirectional
overrides that a student put in code, a file name or a folder name show as visible escapes. In
the student's feedback, :class:`DropTeacherNotes` leaves the flags' note out of the comments.

Ordinary answers, right or wrong, raise no flag: the scan looks at what the exercises never
need.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from setwidgets import _extras

# Run as a command with the core alone, the imports below would end in a ModuleNotFoundError:
# one sentence naming the extra instead. (Imported by nbgrader's configuration, nbgrader is there.)
if __name__ == "__main__":
    _extras.command_needs("course", "python -m setwidgets.grading.report", "nbformat", "nbgrader")

import nbformat  # noqa: E402
from nbformat import NotebookNode  # noqa: E402
from nbgrader.api import Gradebook, MissingEntry  # noqa: E402
from nbgrader.preprocessors import NbGraderPreprocessor  # noqa: E402
from traitlets import Bool  # noqa: E402

from setwidgets import _words  # noqa: E402
from setwidgets.grading.inert import inert  # noqa: E402
from setwidgets.grading.notes import MalformedNote, grader_note  # noqa: E402
from setwidgets.grading.preprocessors import SANDBOXED, STOPPED, WATCHED, FeedbackStep, locked  # noqa: E402

REFERENCES = frozenset(
    {
        "is_set",
        "explain",
        "third_card",
        "find_sets",
        "first_set",
        "has_set",
        "count_sets",
        "engine_moves",
        "competition_by_engine",
        "Game",
        "THIRD",
        "_third_index",
    }
)
"""Names of the package whose answers the exercises ask the students to compute themselves."""

HOOKS = frozenset(
    {
        "input_transformers_post",
        "input_transformers_cleanup",
        "input_transformer_manager",
        "ast_transformers",
        "events",
        "register_magic_function",
        "set_hook",
        "set_custom_exc",
        "run_cell",
        "run_cell_async",
        "transform_cell",
        "get_ipython",
        # IPython's shell reached without get_ipython (exit._ip), and the ways around attribute
        # names that no exercise needs: an object's namespace, a function's globals or code.
        "_ip",
        "__dict__",
        "__globals__",
        "__code__",
        "__closure__",
        "__subclasses__",
    }
)
SYSTEM_MODULES = frozenset(
    {
        "os",
        "sys",
        "builtins",
        "pathlib",
        "shutil",
        "subprocess",
        "socket",
        "sqlite3",
        "ctypes",
        "multiprocessing",
        "threading",
        "signal",
        "importlib",
        "inspect",
        "gc",
        "resource",
        "io",
        "glob",
        "pty",
        "urllib",
        "http",
        "requests",
        "nbformat",
        "nbgrader",
        "json",
        "pickle",
        "marshal",
        "runpy",
        "zipimport",
        "types",
        "code",
        "codeop",
        "zlib",
        "tempfile",
        "mmap",
        "fcntl",
    }
)
DYNAMIC = frozenset(
    {"exec", "eval", "compile", "__import__", "open", "globals", "vars", "setattr", "delattr", "breakpoint"}
)
FILE_METHODS = frozenset(
    {
        "fromfile",
        "tofile",
        "loadtxt",
        "savetxt",
        "genfromtxt",
        "memmap",
        "load",
        "save",
        "savez",
        "read_text",
        "write_text",
        "read_bytes",
        "write_bytes",
        "read_csv",
        "to_csv",
    }
)
"""Methods that read or write files without ``open`` (numpy's, pathlib's, pandas'): no exercise needs them."""


@dataclass(frozen=True)
class Finding:
    """One cell a teacher should look at, in one submission."""

    assignment: str
    student: str
    notebook: str
    cell: str  # the grade_id of an nbgrader cell, else "cell <number>" (counted from 1)
    reasons: tuple[str, ...]

    def __str__(self) -> str:
        """One line of the report, every part of it made inert for a terminal (see
        :func:`setwidgets.grading.inert.inert`)."""
        parts = (self.assignment, self.student, self.notebook, self.cell, "; ".join(self.reasons))
        return "  ".join(inert(part) for part in parts)


def _nbgrader(cell: NotebookNode) -> dict:
    """The cell's nbgrader metadata; an empty dict where it is missing or not a dict."""
    metadata = cell.get("metadata")
    meta = metadata.get("nbgrader") if isinstance(metadata, dict) else None
    return meta if isinstance(meta, dict) else {}


def student_cells(nb: NotebookNode) -> Iterator[tuple[int, NotebookNode]]:
    """The code cells a student wrote: answer cells and cells of their own (locked cells are the grader's)."""
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and not locked(cell):
            yield index, cell


TIMING = re.compile(r"^(\s*)%%?(?:time|timeit)\b(?:\s+-[a-zA-Z]+(?:\s*\d+)?)*\s*")
"""IPython's timing magics, which run the code they are given and change nothing else."""


def _untimed(line: str) -> str:
    """The line without a leading ``%time``/``%%timeit``: the code it times is scanned like any other."""
    match = TIMING.match(line)
    return line if match is None else match.group(1) + line[match.end() :]


def handed_out(nb: NotebookNode) -> frozenset[str]:
    """The names the notebook's own (locked) cells import from the package: what the exercise hands out."""
    names: set[str] = set()
    for cell in nb.cells:
        if cell.cell_type != "code" or not locked(cell):
            continue
        try:
            tree = ast.parse("\n".join(_untimed(line) for line in cell.source.splitlines()))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("setwidgets"):
                names.update(alias.name for alias in node.names)
    return frozenset(names)


def code_reasons(source: str, given: frozenset[str] | None = None) -> list[str]:
    """Why this code deserves a look, or an empty list for code the exercises could need.

    ``given``: the names of the package that the exercise's own cells import (:func:`handed_out`);
    importing any other name from the package is then worth a look, since the package has more
    than one way to an answer the exercise asks for.
    """
    reasons: list[str] = []
    lines = [_untimed(line) for line in source.splitlines()]
    shell = [line.strip() for line in lines if line.lstrip().startswith(("!", "%"))]
    if shell:
        reasons.append(f"runs shell or magic lines ({_short(shell[0])})")
    # A shell line becomes "pass" at its own indentation, so that a block holding one still parses.
    text = "\n".join(
        line[: len(line) - len(line.lstrip())] + "pass" if line.lstrip().startswith(("!", "%")) else line
        for line in lines
    )
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return reasons
    hooks, references, system, dynamic, beyond = set(), set(), set(), set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top in SYSTEM_MODULES:
                    system.add(alias.name)
                if top == "setwidgets" and alias.name != "setwidgets":
                    references.add(f"import {alias.name}")
                elif alias.name == "setwidgets":
                    references.add("import setwidgets")
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if module.split(".")[0] in SYSTEM_MODULES:
                system.add(module)
            if module.startswith("setwidgets"):
                for alias in node.names:
                    if (
                        alias.name in REFERENCES
                        or alias.name == "*"
                        or module.startswith(("setwidgets.checks", "setwidgets.grading"))
                    ):
                        references.add(f"from {module} import {alias.name}")
                    elif given is not None and alias.name not in given:
                        beyond.add(f"from {module} import {alias.name}")
        elif isinstance(node, ast.Attribute):
            if node.attr in HOOKS:
                hooks.add(node.attr)
            if node.attr in REFERENCES:
                references.add(f".{node.attr}")
            if node.attr in FILE_METHODS:
                dynamic.add(f".{node.attr}")
            patched = {"modules", "meta_path", "path_hooks", "settrace", "setprofile", "excepthook"}
            if node.attr in patched and isinstance(node.value, ast.Name) and node.value.id == "sys":
                hooks.add(f"sys.{node.attr}")
        elif isinstance(node, ast.Name):
            if node.id in HOOKS:
                hooks.add(node.id)
            if node.id in {"__builtins__", "_referee", "_R", "Referee"}:
                hooks.add(node.id)
            if node.id in DYNAMIC and isinstance(getattr(node, "ctx", None), ast.Load):
                dynamic.add(node.id)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            touched = [name for name in node.names if name.startswith("_")]
            if touched:
                hooks.add(f"global {', '.join(touched)}")
    for found, reason in (
        (hooks, "changes how cells run or touches the grader"),
        (references, "uses the package's reference functions"),
        (beyond, "uses the package beyond what the exercise hands out"),
        (system, "reaches files, processes or the system"),
        (dynamic, "runs or opens code and files itself"),
    ):
        if found:
            reasons.append(f"{reason} ({', '.join(sorted(found))})")
    return reasons


def output_reasons(cell: NotebookNode) -> list[str]:
    """Why this cell's run deserves a look: it stopped the kernel, or hit the memory limit."""
    reasons = []
    for output in cell.get("outputs", []):
        if output.get("output_type") != "error":
            continue
        if output.get("ename") == STOPPED:
            reasons.append("stopped the kernel or ignored the interrupt")
        elif output.get("ename") == "MemoryError":
            reasons.append("ran out of the grader's memory")
    return reasons


def watch_reasons(cell: NotebookNode) -> list[str]:
    """Why this test cell deserves a look: it passed, yet none of the student's code ran in it.

    The grader's note is read through :func:`grader_note`; a note that does not match its schema
    is itself a reason (fail closed: it is never taken as "nothing to see").
    """
    try:
        note = grader_note(cell)
    except MalformedNote:
        return [MALFORMED_NOTE]
    if note is None:
        return []
    reasons = list(note.flags)
    if note.student_code_ran:
        return reasons
    if any(output.get("output_type") == "error" for output in cell.get("outputs", [])):
        return reasons  # it failed: it scores nothing anyway
    called = _words.and_list(list(note.names)) if note.names else "the student's functions"
    if note.judged:
        return [*reasons, f"passed with answers from {called}, which no answer cell defines with def"]
    return [*reasons, f"passed without any of the student's code running ({called} never called)"]


MALFORMED_NOTE = "its 'setwidgets' metadata is not the grader's note (the grader never writes it so)"


def findings(nb: NotebookNode, assignment: str, student: str, notebook: str) -> list[tuple[int, Finding]]:
    """Each flagged cell of one autograded notebook, with its index in the notebook."""
    found = []
    given = handed_out(nb)
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        try:
            reasons = output_reasons(cell) + watch_reasons(cell)
            if not locked(cell):
                reasons = code_reasons(cell.source, given) + reasons
        except Exception as error:  # noqa: BLE001 - fail closed: whatever stops the scan of a cell flags it
            # Code nested deeper than the parser goes (200,000 minus signs, 50,000 calls in a row)
            # stops the scan of this cell: that is a reason to look, never a pass.
            reasons = [f"{UNSCANNED} ({type(error).__name__})"]
        if reasons:
            name = _nbgrader(cell).get("grade_id") or f"cell {index + 1}"
            found.append((index, Finding(assignment, student, notebook, name, tuple(reasons))))
    return found


UNSCANNED = "the scan could not read this cell: read it yourself"

NOT_SANDBOXED = (
    "graded without a sandbox (c.SandboxedKernelManager.sandbox = False): the notebook ran with your "
    "rights, so its grades hold only as far as you trust it"
)

TEACHER_NOTE = "Flagged for the teacher: "
"""How the flags' comment starts: the Formgrader shows it, the student's feedback leaves it out."""


def mark(gradebook: Gradebook, nb: NotebookNode, flagged: list[tuple[int, Finding]]) -> None:
    """Mark the tests from the first flagged cell on for a manual grade; put the reasons in a comment."""
    if not flagged:
        return
    # From the first flagged cell on (a flagged test itself included), every test needs a look.
    first = min(index if _nbgrader(nb.cells[index]).get("grade") else index + 1 for index, _ in flagged)
    _, one = flagged[0]
    for index, cell in enumerate(nb.cells):
        meta = _nbgrader(cell)
        if index >= first and meta.get("grade") and cell.cell_type == "code":
            try:
                grade = gradebook.find_grade(meta["grade_id"], one.notebook, one.assignment, one.student)
            except MissingEntry:
                continue
            grade.needs_manual_grade = True
    comments: dict[str, list[str]] = {}
    for index, finding in flagged:
        owner = _comment_cell(nb, index)
        if owner is not None:
            where = "" if owner == finding.cell else f"{finding.cell}: "
            # One line each: the feedback leaves the note out from its first line on (DropTeacherNotes).
            comments.setdefault(owner, []).append(" ".join((where + "; ".join(finding.reasons)).split()))
    for owner, lines in comments.items():
        try:
            comment = gradebook.find_comment(owner, one.notebook, one.assignment, one.student)
        except MissingEntry:
            continue
        note = (
            TEACHER_NOTE + " / ".join(lines) + ". The autograded tests after this cell "
            "need your look (python3 course.py report lists every flag)."
        )
        comment.auto_comment = f"{comment.auto_comment}\n{note}" if comment.auto_comment else note
    gradebook.db.commit()


def _comment_cell(nb: NotebookNode, index: int) -> str | None:
    """The answer cell whose comment carries the reasons: the flagged cell, or the answer before it."""
    for cell in reversed(nb.cells[: index + 1]):
        meta = _nbgrader(cell)
        if meta.get("solution"):
            return meta["grade_id"]
    return next((_nbgrader(c)["grade_id"] for c in nb.cells[index:] if _nbgrader(c).get("solution")), None)


class FlagSuspiciousCells(NbGraderPreprocessor):
    """The autograde step that flags cells for the teacher (see the module's help).

    It fails closed: if the scan itself fails on a notebook, the whole submission is flagged (every
    test up for a manual grade, the reason in the first answer's comment) instead of passing with
    the scores nbgrader has already saved. If even that cannot be written, it raises, and nbgrader
    leaves no autograded notebook: :func:`report` then lists the submission as not graded.
    """

    enabled = Bool(True, help="Flag suspicious cells for a manual grade after autograding.").tag(config=True)

    def preprocess(self, nb: NotebookNode, resources: Any) -> tuple[NotebookNode, Any]:
        if not self.enabled:
            return nb, resources
        info = resources["nbgrader"]
        where = (info["assignment"], info["student"], info["notebook"])
        try:
            flagged = findings(nb, *where)
        except Exception as error:  # fail closed: whatever stopped the scan, the teacher looks
            why = inert(f"{type(error).__name__}: {error}")
            self.log.error(
                "The scan of %s failed (%s): the whole submission is flagged", inert(str(where)), why
            )
            flagged = [(0, Finding(*where, WHOLE, (f"{UNSCANNED_NOTEBOOK} ({type(error).__name__})",)))]
        for _, finding in flagged:
            self.log.warning("Flagged for the teacher: %s", finding)
        if flagged:
            with Gradebook(info["db_url"]) as gradebook:
                mark(gradebook, nb, flagged)
        return nb, resources


class DropTeacherNotes(FeedbackStep):
    """In the feedback, each comment without the teacher's note on flags (run it after ``GetGrades``).

    The flags' note (:data:`TEACHER_NOTE`, added last to an answer's automatic comment) is for the
    teacher: it names the scan's reasons and ``course.py report``. The student's page keeps the rest
    of the comment ("No response.", or the teacher's own words).
    """

    def preprocess_cell(self, cell: NotebookNode, resources: Any, index: int) -> Any:
        meta = _nbgrader(cell)
        comment = meta.get("comment")
        if isinstance(comment, str):
            kept = []
            for line in comment.split("\n"):
                if line.startswith(TEACHER_NOTE):
                    break  # the note is last, one line per autograde: nothing after it is the student's
                kept.append(line)
            meta["comment"] = "\n".join(kept).strip() or None
        return cell, resources


WHOLE = "whole notebook"
"""The cell of a finding about a whole notebook: not graded, unreadable, or its scan failed."""

UNSCANNED_NOTEBOOK = "the scan of this notebook failed: every test needs your look"


def report(course: Path, assignments: Iterable[str] = ()) -> list[Finding]:
    """The findings in every autograded notebook of the course (of the named assignments only, if any).

    Also listed, as a finding on the whole notebook: a notebook that cannot be read, and a submitted
    notebook that autograde left without a graded copy (nbgrader could not read it, or a step
    failed on it) in an assignment that has been autograded. Such a student may have grades in
    the gradebook, or none; either way the teacher looks.
    """
    wanted = set(assignments)
    found = []
    graded = set()
    for path in sorted((course / "autograded").glob("*/*/*.ipynb")):
        student, assignment = path.parent.parent.name, path.parent.name
        graded.add((student, assignment, path.name))
        if wanted and assignment not in wanted:
            continue
        try:
            nb = nbformat.read(path, as_version=4)
        except Exception as error:  # noqa: BLE001 - any unreadable notebook is listed, never skipped
            found.append(Finding(assignment, student, path.stem, WHOLE, (f"{UNREADABLE} ({_why(error)})",)))
            continue
        if not sandboxed(nb):
            found.append(Finding(assignment, student, path.stem, WHOLE, (NOT_SANDBOXED,)))
        try:
            found += [finding for _, finding in findings(nb, assignment, student, path.stem)]
        except Exception as error:  # noqa: BLE001 - fail closed: a notebook the scan cannot read is listed
            why = f"{UNSCANNED_NOTEBOOK} ({type(error).__name__})"
            found.append(Finding(assignment, student, path.stem, WHOLE, (why,)))
    autograded = {assignment for _, assignment, _ in graded}
    for path in sorted((course / "submitted").glob("*/*/*.ipynb")):
        student, assignment = path.parent.parent.name, path.parent.name
        if (wanted and assignment not in wanted) or assignment not in autograded:
            continue
        if (student, assignment, path.name) in graded:
            continue
        why = not_graded(path)
        found.append(Finding(assignment, student, path.stem, WHOLE, (why,)))
    return sorted(found, key=lambda f: (f.assignment, f.student, f.notebook))


def sandboxed(nb: NotebookNode) -> bool:
    """Whether an autograded notebook says it was graded in the sandbox; the grader writes this after the
    notebook ran (``GradingExecute``), whatever the student put there. A notebook graded before the
    mark existed says nothing and is not listed: the log of its autograde says how it ran."""
    graded = nb.get("metadata", {}).get(WATCHED)
    return not (isinstance(graded, dict) and graded.get(SANDBOXED) is False)


UNREADABLE = "not a notebook that can be read"
NOT_GRADED = "not graded: no graded copy (autograde failed on it, see its log, or has not graded it yet)"


def not_graded(path: Path) -> str:
    """Why a submitted notebook has no autograded copy, as far as the file tells."""
    try:
        nbformat.read(path, as_version=4)
    except Exception as error:  # noqa: BLE001 - whatever nbformat raises, the notebook is unreadable
        return f"not graded: {UNREADABLE} ({_why(error)})"
    return NOT_GRADED


def _why(error: Exception) -> str:
    """The reason a notebook could not be read, in a few words (the exception's class)."""
    return "not JSON" if isinstance(error, ValueError) else type(error).__name__


def _short(text: str, width: int = 60) -> str:
    text = re.sub(r"\s+", " ", text)
    return text if len(text) <= width else text[: width - 3] + "..."


def main(argv: list[str]) -> int:
    """``python -m setwidgets.grading.report COURSE [ASSIGNMENT ...]``: print the findings."""
    if not argv:
        print("usage: python -m setwidgets.grading.report COURSE_FOLDER [ASSIGNMENT ...]", file=sys.stderr)
        return 2
    course = Path(argv[0])
    if not (course / "autograded").is_dir():
        print(f"{course}/autograded does not exist: run 'nbgrader autograde' first.", file=sys.stderr)
        return 2
    found = report(course, argv[1:])
    for finding in found:
        print(finding)
    submissions = len({(f.assignment, f.student) for f in found})
    cells = [f for f in found if f.cell != WHOLE]
    whole = len(found) - len(cells)
    unread = f", {_words.count(whole, 'notebook')} flagged as a whole" if whole else ""
    flagged = _words.count(len(cells), "cell")
    print(f"{_words.count(submissions, 'submission')} to look at, {flagged} flagged{unread}.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
