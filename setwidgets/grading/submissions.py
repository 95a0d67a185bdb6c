"""Submissions taken as regular files only: no symbolic link is ever followed for a student.

nbgrader copies a student's files as the teacher, outside the grading sandbox. A symbolic link
placed in a submission, or in the exchange's inbound folder before ``collect``, would then hand
over what it points to: ``source/`` (solutions and hidden tests) or ``gradebook.db``, copied
into the student's folder, where the grading kernel reads them. Here:

- :class:`SafeCollect` (``c.ExchangeFactory.collect``) copies a submission from the exchange
  regular file by regular file: a link is left behind with a warning that names the student,
  and a submission that is itself a link is not collected;
- :class:`RefuseLinks` (first of ``c.Autograde.sanitize_preprocessors``) removes from the
  autograded folder whatever nbgrader copied from a link in ``submitted/``, with a warning, and
  refuses a notebook that is itself a link: that student's notebook is not graded, and the
  others are.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path
from typing import Any

from nbformat import NotebookNode
from nbgrader.coursedir import CourseDirectory
from nbgrader.exchange.default.collect import ExchangeCollect
from nbgrader.preprocessors import NbGraderPreprocessor


class LinkRefused(Exception):
    """A student's notebook is a symbolic link: it is not graded."""


def links_in(folder: str | Path) -> list[Path]:
    """The symbolic links in ``folder`` and below (never followed), and ``folder`` itself if it is one."""
    folder = Path(folder)
    if folder.is_symlink():
        return [folder]
    found = []
    for parent, folders, files in os.walk(folder):
        for name in folders + files:
            path = Path(parent, name)
            if path.is_symlink():
                found.append(path)
    return sorted(found)


MAX_FILE_BYTES = 100 * 2**20
"""The biggest file of a submission that is copied (nbgrader's own limit on what a student submits)."""


def copy_regular(source: str | Path, target: str | Path, max_bytes: int = MAX_FILE_BYTES) -> list[Path]:
    """Copy the folder ``source`` to ``target``, regular files and folders only; what was left out.

    Left out: links (never followed), pipes, sockets and devices (reading a pipe would wait for
    ever), and files over ``max_bytes`` (a sparse file of terabytes is a few bytes on the
    student's disk, and every byte on the teacher's).
    """
    left_out = links_in(source)

    def ignore(folder: str, names: list[str]) -> set[str]:
        skipped = set()
        for name in names:
            path = os.path.join(folder, name)
            info = os.lstat(path)
            if stat.S_ISDIR(info.st_mode) and not stat.S_ISLNK(info.st_mode):
                continue
            if not stat.S_ISREG(info.st_mode) or info.st_size > max_bytes:
                skipped.add(name)
                if not stat.S_ISLNK(info.st_mode):
                    left_out.append(Path(path))
        return skipped

    shutil.copytree(source, target, symlinks=True, ignore=ignore)
    return left_out


class SafeCollect(ExchangeCollect):
    """nbgrader's collect, copying regular files only (see the module's help)."""

    def do_copy(self, src: str, dest: str, log: Any = None) -> None:
        student = Path(src).name.split("+")[0]
        if os.path.islink(src):
            self.log.warning("%s: the submission %s is a symbolic link; it is not collected", student, src)
            return
        for path in copy_regular(src, dest):
            why = (
                "a symbolic link; it was left out (links are never followed)"
                if path.is_symlink()
                else f"not a regular file, or bigger than {MAX_FILE_BYTES // 2**20} MiB; it was left out"
            )
            self.log.warning("%s: %s in the submission is %s", student, path.relative_to(src), why)


class RefuseLinks(NbGraderPreprocessor):
    """Undo what nbgrader copied from symbolic links in a submission; refuse a linked notebook."""

    def preprocess(self, nb: NotebookNode, resources: Any) -> tuple[NotebookNode, Any]:
        info = resources["nbgrader"]
        coursedir = CourseDirectory(config=self.config)
        student, assignment = info["student"], info["assignment"]
        submitted = Path(coursedir.format_path(coursedir.submitted_directory, student, assignment))
        autograded = Path(coursedir.format_path(coursedir.autograded_directory, student, assignment))
        for link in links_in(submitted):
            copied = autograded / link.relative_to(submitted)
            if copied.is_file() or copied.is_symlink():
                copied.unlink()
            self.log.warning(
                "%s: %s in the submission is a symbolic link; it was left out (links are never followed)",
                student,
                link.relative_to(submitted),
            )
        if (submitted / f"{info['notebook']}.ipynb").is_symlink():
            raise LinkRefused(
                f"{student}: the notebook {info['notebook']}.ipynb is a symbolic link; it is not graded"
            )
        return nb, resources


GRADER_NOTE = "setwidgets"
"""The cell metadata key of the grader's notes (``WATCHED`` in :mod:`setwidgets.grading.preprocessors`)."""


class RestoreMetadata(NbGraderPreprocessor):
    """Each cell's nbgrader metadata as the gradebook has it, whatever the student's copy says.

    Runs before nbgrader's own checks in ``autograde``: a cell whose grade id the gradebook does not
    know (a cell the student added, or a pasted test cell) and a second cell with the same grade id
    lose their nbgrader metadata; every other cell gets its points, its kind (answer, test, task),
    its lock and the schema version back from the source. So a student can neither add, duplicate,
    lock, re-point nor re-version a grade cell, and one notebook's broken metadata stops no one else.

    Each cell's ``setwidgets`` metadata is dropped too, with a warning: only the grader writes it
    (its notes on the graded tests, read by :mod:`setwidgets.grading.report`), after this step.
    """

    def preprocess(self, nb: NotebookNode, resources: Any) -> tuple[NotebookNode, Any]:
        from nbgrader.api import Gradebook

        info = resources["nbgrader"]
        with Gradebook(info["db_url"]) as gradebook:
            notebook = gradebook.find_notebook(info["notebook"], info["assignment"])
            sources = {cell.name: (cell.locked, cell.checksum) for cell in notebook.source_cells}
            points = {cell.name: cell.max_score for cell in notebook.grade_cells}
            answers = {cell.name for cell in notebook.solution_cells}
            tasks = {cell.name: cell.max_score for cell in notebook.task_cells}
        seen: set[str] = set()
        for index, cell in enumerate(nb.cells):
            if isinstance(cell.get("metadata"), dict) and GRADER_NOTE in cell.metadata:
                del cell.metadata[GRADER_NOTE]
                self.log.warning(
                    "%s: cell %d carries the grader's %r metadata; the student's copy of it is dropped",
                    info["student"],
                    index + 1,
                    GRADER_NOTE,
                )
            meta = cell.get("metadata", {}).get("nbgrader")
            if meta is None:
                continue
            grade_id = meta.get("grade_id") if isinstance(meta, dict) else None
            if grade_id not in sources or grade_id in seen:
                del cell.metadata["nbgrader"]
                self.log.warning(
                    "%s: cell %d claims to be the course's cell %r; it is not, and counts as the student's",
                    info["student"],
                    index + 1,
                    grade_id,
                )
                continue
            seen.add(grade_id)
            locked, checksum = sources[grade_id]
            restored = {
                "schema_version": 3,
                "grade_id": grade_id,
                "locked": locked,
                "solution": grade_id in answers,
                "grade": grade_id in points,
                "task": grade_id in tasks,
                "checksum": checksum,
            }
            if grade_id in points or grade_id in tasks:
                restored["points"] = points.get(grade_id, tasks.get(grade_id))
            cell.metadata["nbgrader"] = restored
        return nb, resources
