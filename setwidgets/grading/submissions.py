"""Submissions taken as regular files only: no symbolic link is ever followed for a student.

nbgrader copies a student's files as the teacher, outside the grading sandbox. A symbolic link
placed in a submission, or in the exchange's inbound folder before ``collect``, would then hand
over what it points to: ``source/`` (solutions and hidden tests) or ``gradebook.db``, copied
into the student's folder, where the grading kernel reads them. Here:

- :class:`SafeCollect` (``c.ExchangeFactory.collect``) checks the exchange: a folder counts for
  a student only if that student's own account owns it, its time is the exchange's own (not the
  name or ``timestamp.txt`` the student wrote), and a folder it cannot take is skipped with one
  line, never the class. It copies the student's own regular files only: a link, or a file
  another account put there, is left behind with a warning that names the student;
- :class:`RefuseLinks` (first of ``c.Autograde.sanitize_preprocessors``) removes from the
  autograded folder whatever nbgrader copied from a link in ``submitted/``, with a warning, and
  refuses a notebook that is itself a link: that student's notebook is not graded, and the
  others are.
"""

from __future__ import annotations

import fnmatch
import glob
import os
import re
import shutil
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from nbformat import NotebookNode
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.coursedir import CourseDirectory
from nbgrader.exchange.default.collect import ExchangeCollect, groupby
from nbgrader.preprocessors import NbGraderPreprocessor
from nbgrader.utils import check_mode, parse_utc
from traitlets import Bool

try:
    import pwd
except ImportError:  # Windows, where nbgrader's exchange (and so collect) refuses to run anyway
    pwd = None


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


# -- collect: the exchange checked ---------------------------------------------------------------

MAX_ENTRIES = 10_000
"""The most files and folders of one submission that collect looks at; the rest are left out."""

MAX_DEPTH = 32
"""The deepest folder of a submission that collect goes into; deeper ones are left out."""

STUDENT_ID = r"\w[\w.@+-]*"
"""A student id as collect accepts it in a folder's name: letters, digits and ``_ . @ + -``,
starting with a letter, digit or ``_`` (so never ``.``, ``..`` or an option)."""

CLAIM_SECONDS = 60
"""How far a submission's own claimed time may lie from the exchange's before collect says so."""

EXCHANGE_TIME_FORMAT = "%Y-%m-%d %H:%M:%S.%f UTC"
"""How the exchange's time is written to ``submitted/<student>/<assignment>/timestamp.txt``."""


def shown(text: str) -> str:
    """``text`` for a log line: as it is when printable, else escaped (no terminal control codes)."""
    return text if text.isprintable() else ascii(text)


def account_name(uid: int) -> str:
    """The account name of ``uid``, or ``uid N`` when this machine has none."""
    try:
        return pwd.getpwuid(uid).pw_name
    except (KeyError, AttributeError):  # AttributeError: no pwd (Windows)
        return f"uid {uid}"


def size_text(size: int) -> str:
    """``size`` bytes for a person: in MiB when it is a whole number of them, else in MB."""
    return f"{size // 2**20} MiB" if size % 2**20 == 0 else f"{size / 1e6:g} MB"


def utc(ns: int) -> datetime:
    """A time in nanoseconds since the epoch as nbgrader keeps times: UTC, without a time zone."""
    return datetime.fromtimestamp(ns / 1e9, tz=UTC).replace(tzinfo=None)


class SubmissionRefused(Exception):
    """A folder of the exchange that is not collected; the message says why, in one sentence."""


@dataclass
class Walked:
    """What :func:`copy_owned` saw: the latest change time, and what it left out and why."""

    latest_ns: int = 0
    left_out: list[tuple[str, str]] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)  # by the course's ignore / include globs
    entries: int = 0
    bytes: int = 0


# getattr: Windows lacks these flags; the module must still import there (for zip_collect and
# autograde), where nbgrader's exchange refuses to start before collect reads anything.
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW
# O_NONBLOCK: opening a named pipe swapped in after the check must not wait for a writer.
_FILE_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | _NOFOLLOW


def copy_owned(
    source: str | Path,
    target: str | Path | None,
    uid: int,
    *,
    max_bytes: int = MAX_FILE_BYTES,
    max_total: int = 10 * MAX_FILE_BYTES,
    ignore: Sequence[str] = (),
    include: Sequence[str] = ("*",),
) -> Walked:
    """Copy the folder ``source`` to ``target``, taking only what the account ``uid`` owns.

    Taken: folders and regular files owned by ``uid`` whose names match no ``ignore`` glob (and,
    for files, an ``include`` glob), each file up to ``max_bytes`` and all of them together up
    to ``max_total`` bytes, at most :data:`MAX_ENTRIES` entries and :data:`MAX_DEPTH` folders
    deep. Everything else is left out and listed with the reason: another account's files (a
    classmate may add files to a submission's folder, which nbgrader leaves writable to all),
    links (never followed), pipes, sockets and devices. Each entry is opened without following
    links and checked again on the open file, so nothing swapped in after the check is read.
    With ``target`` None nothing is copied: only the times are read.

    The result's ``latest_ns`` is the latest change time (``st_ctime``) of the folder and of
    everything in it that ``uid`` owns: the system sets it on every change, and no one but root
    can set it back, so it says when the submission last changed, whatever the files claim.
    Raises :class:`SubmissionRefused` when ``source`` is not a folder owned by ``uid``.
    """
    if not isinstance(uid, int) or isinstance(uid, bool):
        raise TypeError(f"copy_owned: uid must be an account's number (an int), not {uid!r}")
    try:
        first = os.stat(source, follow_symlinks=False)
    except OSError as error:
        raise SubmissionRefused(f"it cannot be read ({error.strerror})") from None
    if stat.S_ISLNK(first.st_mode):
        raise SubmissionRefused("it is a symbolic link (links are never followed)")
    if not stat.S_ISDIR(first.st_mode):
        raise SubmissionRefused("it is not a folder")
    try:
        top = os.open(source, _DIR_FLAGS)
    except OSError as error:
        raise SubmissionRefused(f"it cannot be opened ({error.strerror})") from None
    try:
        info = os.fstat(top)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != uid:
            raise SubmissionRefused(
                f"it belongs to {account_name(info.st_uid)}, not to {account_name(uid)}, "
                "the only account that may hand it in"
            )
        walked = Walked(latest_ns=info.st_ctime_ns)
        limits = (max_bytes, max_total, tuple(ignore), tuple(include))
        _walk(top, None if target is None else Path(target), "", 0, uid, limits, walked)
        walked.latest_ns = max(walked.latest_ns, os.fstat(top).st_ctime_ns)
        return walked
    finally:
        os.close(top)


def _walk(
    folder: int, target: Path | None, prefix: str, depth: int, uid: int, limits: tuple, walked: Walked
) -> None:
    """Copy (or only time) the folder open as ``folder`` into ``target``; see :func:`copy_owned`."""
    max_bytes, max_total, ignore, include = limits
    if target is not None:
        os.mkdir(target)
        os.chmod(target, 0o755)  # the teacher's copy: not the student's permissions
    for name in sorted(os.listdir(folder)):
        where = prefix + name

        def leave(why: str, where: str = where) -> None:
            walked.left_out.append((where, why))

        if walked.entries >= MAX_ENTRIES:
            leave(f"beyond the first {MAX_ENTRIES} files and folders; it was left out")
            continue
        walked.entries += 1
        try:
            info = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except OSError as error:
            leave(f"unreadable ({error.strerror}); it was left out")
            continue
        if info.st_uid != uid:
            # Not the student's: neither copied nor counted in the submission's time.
            leave(f"owned by {account_name(info.st_uid)}, not by the student's account; it was left out")
            continue
        walked.latest_ns = max(walked.latest_ns, info.st_ctime_ns)
        if stat.S_ISLNK(info.st_mode):
            leave("a symbolic link; it was left out (links are never followed)")
        elif any(fnmatch.fnmatch(name, glob) for glob in ignore):
            walked.ignored.append(where)
        elif stat.S_ISDIR(info.st_mode):
            if depth + 1 >= MAX_DEPTH:
                leave(f"a folder more than {MAX_DEPTH} deep; it was left out")
                continue
            try:
                sub = os.open(name, _DIR_FLAGS, dir_fd=folder)
            except OSError as error:
                leave(f"unreadable ({error.strerror}); it was left out")
                continue
            try:
                again = os.fstat(sub)
                if not stat.S_ISDIR(again.st_mode) or again.st_uid != uid:
                    leave("changed while it was read; it was left out")
                    continue
                inner = None if target is None else target / name
                _walk(sub, inner, where + "/", depth + 1, uid, limits, walked)
                walked.latest_ns = max(walked.latest_ns, os.fstat(sub).st_ctime_ns)
            finally:
                os.close(sub)
        elif not stat.S_ISREG(info.st_mode):
            leave("a named pipe, socket or device; it was left out")
        elif not any(fnmatch.fnmatch(name, glob) for glob in include):
            walked.ignored.append(where)
        elif info.st_size > max_bytes:
            leave(f"bigger than {size_text(max_bytes)}; it was left out")
        elif walked.bytes + info.st_size > max_total:
            leave(f"past the {size_text(max_total)} a whole submission may hold; it was left out")
        elif target is not None:
            limit = min(max_bytes, max_total - walked.bytes)
            _copy_file(folder, name, target / name, uid, limit, leave, walked)


def _copy_file(folder: int, name: str, target: Path, uid: int, limit: int, leave, walked: Walked) -> None:
    """Copy the regular file ``name`` of the open ``folder``, ``limit`` bytes at most."""
    try:
        source = os.open(name, _FILE_FLAGS, dir_fd=folder)
    except OSError as error:
        leave(f"unreadable ({error.strerror}); it was left out")
        return
    try:
        info = os.fstat(source)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != uid:
            leave("changed while it was read; it was left out")
            return
        size = 0
        with open(target, "xb") as copy:
            while chunk := os.read(source, min(2**20, limit + 1 - size)):
                size += len(chunk)
                if size > limit:
                    break
                copy.write(chunk)
        if size > limit:  # it grew past the limit while it was read
            target.unlink()
            leave(f"bigger than {size_text(limit)} once read; it was left out")
            return
        os.chmod(target, 0o644)
        walked.bytes += size
        walked.latest_ns = max(walked.latest_ns, os.fstat(source).st_ctime_ns)
    finally:
        os.close(source)


class SafeCollect(ExchangeCollect):
    """nbgrader's ``collect``, believing the exchange and not the names students write.

    nbgrader's own collect takes the student and the time from a folder's name in the inbound
    folder, and the time again from the ``timestamp.txt`` inside: a student could hand in as
    another (a folder named ``alice+01_magic_rule+2099-...``), or date her late work before the
    due date; and one name it cannot read stops the collect of the whole class. Here:

    - **Whose it is.** A folder counts for student ``S`` only if ``S``'s own account owns it: the
      account named ``S`` on this machine (``pwd``). Of its contents, only what that account
      owns is copied; a classmate's file put into it is left out with a warning.
      When no account is named ``S`` (student ids that are no logins), nothing counts for ``S``,
      unless ``single_user`` is set: then the account running ``collect`` is taken as the one
      that handed it in (one machine, one teacher playing every part).
    - **When.** A submission's time is the exchange's own: the latest change time (``ctime``) of
      its folder and of the student's files in it, which every change sets and no student can
      set back (a file's modification time can be set to any date with ``touch``, and the folder's
      name and ``timestamp.txt`` are the student's words). The newest submission is chosen by it,
      ``--before-duedate`` compares it with the due date, and it is written to the collected
      ``timestamp.txt``, where ``autograde`` reads it: nbgrader's late flag and late penalty use
      it. A claim in the name or ``timestamp.txt`` more than :data:`CLAIM_SECONDS` away from it
      is reported in the log. Copying the exchange elsewhere (a restore from a backup) resets
      these times to the day of the copy: collect before moving it.
    - **One line, not the class.** A folder whose name is not ``<student>+<assignment>+<time>``
      (with nbgrader's random suffix or not), that is not a folder, or whose owner is wrong, is
      skipped with one warning that names it and says why; the others are collected.
    - **Regular files only**, as :func:`copy_owned` says: links are never followed, pipes,
      sockets, devices and files over 100 MiB are left out, each with a warning that names the
      student.
    """

    single_user = Bool(
        False,
        help=(
            "Collect, for a student id that is no account on this machine, a folder owned by the "
            "account that runs collect. For an exchange used by one account only (a course on one "
            "laptop, the teacher playing every part); never for an exchange students share."
        ),
    ).tag(config=True)

    def init_src(self) -> None:
        if self.coursedir.course_id == "":
            self.fail("No course id specified. Re-run with --course flag.")
        self.course_path = os.path.join(self.root, self.coursedir.course_id)
        self.inbound_path = os.path.join(self.course_path, "inbound")
        if not os.path.isdir(self.inbound_path):
            self.fail(f"Course not found: {self.inbound_path}")
        if not check_mode(self.inbound_path, read=True, execute=True):
            self.fail(f"You don't have read permissions for the directory: {self.inbound_path}")
        # nbgrader's own owner check in copy_files only warns; the check below decides instead.
        self.check_owner = False
        assignment = self.coursedir.assignment_id
        pattern = f"{self.coursedir.student_id or '*'}+{glob.escape(assignment)}+*"
        self._records: dict[str, dict] = {}
        for name in sorted(os.listdir(self.inbound_path)):
            if fnmatch.fnmatchcase(name, pattern):
                record = self._record(name, assignment)
                if record is not None:
                    self._records[name] = record
        by_student = groupby(self._records.values(), lambda record: record["username"])
        with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as gradebook:
            try:
                self.duedate = gradebook.find_assignment(assignment).duedate
            except MissingEntry:
                self.duedate = None
        self.src_records = []
        for records in by_student.values():
            records = self._sort_by_timestamp(records)
            if self.before_duedate and self.duedate is not None:
                on_time = [record for record in records if record["timestamp"] <= self.duedate]
                records = on_time or records
            self.src_records.append(records[0])

    def _record(self, name: str, assignment: str) -> dict | None:
        """The submission the folder ``name`` holds, or None (said in one line) when it does not count."""
        try:
            return self._checked(name, assignment)
        except SubmissionRefused as refused:
            self.log.warning("Not collected: %s in the exchange: %s", shown(name), refused)
            return None

    def _checked(self, name: str, assignment: str) -> dict:
        # What nbgrader submit names a folder: <student>+<assignment>+<time>, then a random suffix.
        suffix = r"(?:\+[A-Za-z0-9_=-]+)?"
        found = re.fullmatch(
            rf"(?P<student>{STUDENT_ID})\+{re.escape(assignment)}\+(?P<stamp>[^+]+){suffix}", name
        )
        if found is None:
            raise SubmissionRefused(
                f"its name is not <student>+{assignment}+<time> (what nbgrader submit writes)"
            )
        student = found["student"]
        claims = [self._claimed(found["stamp"])]
        if claims[0] is None:
            raise SubmissionRefused("the time in its name is not a time")
        uid = self._uid_of(student)
        path = os.path.join(self.inbound_path, name)
        walked = copy_owned(path, None, uid)
        when = utc(walked.latest_ns)
        claims.append(self._claimed_in_file(path))
        for claim in claims:
            if claim is not None and abs((claim - when).total_seconds()) > CLAIM_SECONDS:
                self.log.warning(
                    "%s: %s says it was handed in at %s; the exchange saw it at %s, and that time counts",
                    student,
                    shown(name),
                    claim,
                    when,
                )
                break
        return {"username": student, "filename": name, "timestamp": when, "uid": uid}

    def _uid_of(self, student: str) -> int:
        """The account that may hand in as ``student``."""
        try:
            return pwd.getpwnam(student).pw_uid
        except (KeyError, AttributeError):  # AttributeError: no pwd (Windows)
            if self.single_user:
                return os.geteuid()
            raise SubmissionRefused(
                f"no account on this machine is named {student}, so no one can hand in as {student} "
                "(an exchange used by one account only: c.SafeCollect.single_user = True)"
            ) from None

    @staticmethod
    def _claimed(text: str) -> datetime | None:
        """The time ``text`` (written by a student) names, or None."""
        try:
            return parse_utc(text.strip())
        except Exception:  # noqa: BLE001 - whatever dateutil raises on a student's text, it names no time
            return None

    def _claimed_in_file(self, folder: str) -> datetime | None:
        """The time the student's ``timestamp.txt`` names, read without following links; or None."""
        try:
            source = os.open(os.path.join(folder, "timestamp.txt"), _FILE_FLAGS)
        except OSError:
            return None
        try:
            if not stat.S_ISREG(os.fstat(source).st_mode):
                return None
            return self._claimed(os.read(source, 200).decode("utf-8", "replace"))
        finally:
            os.close(source)

    def do_copy(self, src: str, dest: str, log: Any = None) -> None:
        record = self._records[os.path.basename(src)]
        student = record["username"]
        coursedir = self.coursedir
        try:
            walked = copy_owned(
                src,
                dest,
                record["uid"],
                max_bytes=min(MAX_FILE_BYTES, coursedir.max_file_size * 1000),
                max_total=coursedir.max_dir_size * 1000,
                ignore=coursedir.ignore,
                include=coursedir.include,
            )
        except SubmissionRefused as refused:  # changed since init_src looked at it
            self.log.warning("Not collected: %s in the exchange: %s", shown(os.path.basename(src)), refused)
            return
        for where, why in walked.left_out:
            self.log.warning("%s: %s in the submission is %s", student, shown(where), why)
        for where in walked.ignored:  # as nbgrader's own copy says of them
            self.log.debug("%s: %s is left out (CourseDirectory.ignore or include)", student, shown(where))
        when = max(record["timestamp"], utc(walked.latest_ns))
        # The exchange's time, where autograde reads the submission's time (and lateness) from;
        # it replaces the student's own timestamp.txt (a folder of that name included).
        stamp = Path(dest, "timestamp.txt")
        if stamp.is_dir():
            shutil.rmtree(stamp)
        stamp.write_text(when.strftime(EXCHANGE_TIME_FORMAT))


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
