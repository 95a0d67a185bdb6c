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
  noted that in the cell's metadata; no note counts as "not called").

A flagged cell gets the reasons as its comment in the Formgrader (solution cells have one;
for a cell the student added or a test, the answer cell before it gets it), and every
autograded test after it (a flagged test itself too) is marked as needing a manual grade: the
points stay as the tests gave them until the teacher looks. ``python3 course.py report``
prints the same findings for every autograded submission::

    $ python3 course.py report 01_magic_rule
    01_magic_rule  ana   magic_rule  is_set_answer  changes how cells run (input_transformers_post)

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

import nbformat
from nbformat import NotebookNode
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Bool

from setwidgets import _words
from setwidgets.grading.judge import JUDGED
from setwidgets.grading.preprocessors import STOPPED, WATCHED, locked

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
        return f"{self.assignment}  {self.student}  {self.notebook}  {self.cell}  {'; '.join(self.reasons)}"


def _nbgrader(cell: NotebookNode) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {})


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
    """Why this test cell deserves a look: it passed, yet none of the student's code ran in it."""
    watched = cell.get("metadata", {}).get(WATCHED)
    if not isinstance(watched, dict):
        return []
    judged = watched.get(JUDGED)
    flags = judged.get("flags", []) if isinstance(judged, dict) else []
    reasons = [str(flag) for flag in flags]
    if watched.get("student_code_ran") is True:
        return reasons
    if any(output.get("output_type") == "error" for output in cell.get("outputs", [])):
        return reasons  # it failed: it scores nothing anyway
    names = [name for name in watched.get("names", []) if isinstance(name, str)]
    called = _words.and_list(names) if names else "the student's functions"
    if isinstance(judged, dict):
        return [*reasons, f"passed with answers from {called}, which no answer cell defines with def"]
    return [*reasons, f"passed without any of the student's code running ({called} never called)"]


def findings(nb: NotebookNode, assignment: str, student: str, notebook: str) -> list[tuple[int, Finding]]:
    """Each flagged cell of one autograded notebook, with its index in the notebook."""
    found = []
    given = handed_out(nb)
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        reasons = output_reasons(cell) + watch_reasons(cell)
        if not locked(cell):
            reasons = code_reasons(cell.source, given) + reasons
        if reasons:
            name = _nbgrader(cell).get("grade_id") or f"cell {index + 1}"
            found.append((index, Finding(assignment, student, notebook, name, tuple(reasons))))
    return found


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
            comments.setdefault(owner, []).append(where + "; ".join(finding.reasons))
    for owner, lines in comments.items():
        try:
            comment = gradebook.find_comment(owner, one.notebook, one.assignment, one.student)
        except MissingEntry:
            continue
        note = (
            "Flagged for the teacher: " + " / ".join(lines) + ". The autograded tests after this cell "
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
    """The autograde step that flags cells for the teacher (see the module's help)."""

    enabled = Bool(True, help="Flag suspicious cells for a manual grade after autograding.").tag(config=True)

    def preprocess(self, nb: NotebookNode, resources: Any) -> tuple[NotebookNode, Any]:
        if not self.enabled:
            return nb, resources
        info = resources["nbgrader"]
        flagged = findings(nb, info["assignment"], info["student"], info["notebook"])
        for _, finding in flagged:
            self.log.warning("Flagged for the teacher: %s", finding)
        if flagged:
            with Gradebook(info["db_url"]) as gradebook:
                mark(gradebook, nb, flagged)
        return nb, resources


def report(course: Path, assignments: Iterable[str] = ()) -> list[Finding]:
    """The findings in every autograded notebook of the course (of the named assignments only, if any)."""
    wanted = set(assignments)
    found = []
    for path in sorted((course / "autograded").glob("*/*/*.ipynb")):
        student, assignment = path.parent.parent.name, path.parent.name
        if wanted and assignment not in wanted:
            continue
        nb = nbformat.read(path, as_version=4)
        found += [finding for _, finding in findings(nb, assignment, student, path.stem)]
    return found


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
    print(
        f"{_words.count(submissions, 'submission')} to look at, {_words.count(len(found), 'cell')} flagged."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
