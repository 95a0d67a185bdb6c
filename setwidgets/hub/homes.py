"""What each user of the hub starts with: a private home, the lessons, the teacher's course; the exchange.

- on the first start of a server, the lessons are copied into ``~/setwidgets-lessons``,
  and for the teacher the course (``exercises/``, without any student work) into
  ``~/setwidgets-course``, the course root where nbgrader runs and the Formgrader looks;
- home folders are made private (mode 700): a student cannot read another one's work;
- the exchange, where assignments are released and submitted, is one folder every user
  may write to, with the sticky bit (mode 1777, as nbgrader documents it).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from setwidgets._inputs import short
from setwidgets.hub.rosters import ROLES, TEACHER

__all__ = ["COURSE_FOLDER", "COURSE_ID", "LESSONS_FOLDER", "STUDENT_WORK", "make_exchange", "prepare_home"]

COURSE_ID = "setwidgets"
COURSE_FOLDER = "setwidgets-course"
LESSONS_FOLDER = "setwidgets-lessons"
# A teacher's copy of the course starts clean: no gradebook, no student work, no exchange.
STUDENT_WORK = (
    "gradebook.db",
    "exchange",
    "submitted",
    "autograded",
    "feedback",
    "downloaded",
    ".ipynb_checkpoints",
)


def make_exchange(path: str | os.PathLike[str]) -> Path:
    """Create the exchange folder (and its parents) with mode 1777 when it is missing; return it.

    An existing folder keeps the mode its owner gave it, but it must let every user in and
    write (nbgrader's ``chmod ugo+rw``): otherwise students could not fetch or submit, and
    this raises ValueError saying how to mend it.
    """
    path = Path(path)
    if not path.is_dir():
        path.mkdir(parents=True)
        path.chmod(0o1777)  # after mkdir: mkdir's mode goes through the umask
    elif path.stat().st_mode & 0o777 != 0o777:
        mode = oct(path.stat().st_mode & 0o7777)[2:]
        raise ValueError(
            f"the exchange {path} has mode {mode}, so students could not fetch or submit: "
            f"every user must be able to enter and write it ('chmod 1777 {path}')"
        )
    return path


def _give(path: Path, uid: int, gid: int) -> None:
    os.chown(path, uid, gid, follow_symlinks=False)
    for folder, dirs, files in os.walk(path):
        for name in dirs + files:
            os.chown(os.path.join(folder, name), uid, gid, follow_symlinks=False)


def prepare_home(
    home: str | os.PathLike[str], role: str, repository: str | os.PathLike[str], owner=None
) -> list[Path]:
    """Make ``home`` private and copy in what the role starts with, once; return what was copied.

    ``repository`` is the setwidgets checkout: its ``lessons/`` go to ``~/setwidgets-lessons``
    and, for the teacher, its ``exercises/`` (without student work) to ``~/setwidgets-course``.
    A folder already there is left as it is: the user's own work is never overwritten.
    ``owner`` is ``(uid, gid)`` to give the copies to (the hub runs as root), or None.
    """
    home, repository = Path(home), Path(repository)
    if role not in ROLES:
        raise ValueError(f"the role {short(role)} is neither 'teacher' nor 'student'")
    home.chmod(0o700)
    wanted = [(repository / "lessons", home / LESSONS_FOLDER, ())]
    if role == TEACHER:
        wanted.append((repository / "exercises", home / COURSE_FOLDER, STUDENT_WORK))
    copied = []
    for source, target, skip in wanted:
        if target.exists():
            continue
        # Links stay links: copied as root, a link would otherwise hand its target's content over.
        shutil.copytree(source, target, symlinks=True, ignore=shutil.ignore_patterns(*skip, "__pycache__"))
        if owner is not None:
            _give(target, *owner)
        copied.append(target)
    return copied
