"""What each user of the hub starts with: a private home, the lessons, the teacher's course; the exchange.

- on the first start of a server, the lessons are copied into ``~/setwidgets-lessons``,
  and for the teacher the course (``exercises/``, without any student work) into
  ``~/setwidgets-course``, the course root where nbgrader runs and the Formgrader looks;
- home folders are made private (mode 700): a student cannot read another one's work;
- the exchange, where assignments are released and submitted, is one folder every user
  may write to, with the sticky bit (mode 1777, as nbgrader documents it);
- each server keeps its runtime files, its kernels' socket files among them, in
  ``~/.jupyter-run`` (:func:`runtime_folder`).
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path
from typing import Any

from setwidgets._inputs import clipped, file_path, path_text, refuse_bytes, short, what, whole_number
from setwidgets.hub.rosters import ROLES, TEACHER

__all__ = [
    "COURSE_FOLDER",
    "COURSE_ID",
    "LESSONS_FOLDER",
    "RUNTIME_FOLDER",
    "STUDENT_WORK",
    "make_exchange",
    "prepare_home",
    "runtime_folder",
]

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

# Each server's runtime folder, in its user's home (the server makes it with mode 700). Its
# kernels talk over socket files there (KernelManager.transport "ipc", deploy/jupyter/*/), not over
# TCP ports any user of the machine could subscribe to. Jupyter's own runtime folder,
# ~/.local/share/jupyter/runtime, is 16 characters longer, and a socket file's path holds at
# most 107 bytes: with it, a home of more than 28 characters (/home/ and 22 for the name) could
# start no kernel.
RUNTIME_FOLDER = ".jupyter-run"
_SOCKET_PATH_MAX = 107  # bytes in a Unix socket's address on Linux (sockaddr_un.sun_path, less the NUL)
_LONGEST_SOCKET = "kernel-00000000-0000-0000-0000-000000000000-ipc-5"  # jupyter_client's names


def runtime_folder(home: str | os.PathLike[str]) -> str:
    """The runtime folder of the user whose home is ``home``: ``<home>/.jupyter-run``.

    Refused, in one sentence, when the kernels' socket files in it would not fit in a socket's
    address (107 bytes): a home of more than 44 characters.

    >>> runtime_folder("/home/ana")
    '/home/ana/.jupyter-run'
    """
    if not isinstance(home, (str, os.PathLike)):
        raise TypeError(f"runtime_folder() needs a home folder, like '/home/ana'; got {what(home)}")
    folder = os.path.join(os.fspath(home), RUNTIME_FOLDER)
    longest = len(os.fsencode(os.path.join(folder, _LONGEST_SOCKET)))
    if longest > _SOCKET_PATH_MAX:
        most = _SOCKET_PATH_MAX - (longest - len(os.fsencode(os.fspath(home))))
        raise ValueError(
            f"runtime_folder(): the home {short(os.fspath(home))} is too long for its kernels' socket "
            f"files (at most {most} bytes, a socket's address holds {_SOCKET_PATH_MAX}): give the "
            "user a shorter home, like /home/NAME"
        )
    return folder


def _reason(error: OSError) -> str:
    return error.strerror or clipped(str(error))


def make_exchange(path: str | os.PathLike[str]) -> Path:
    """Create the exchange folder (and its parents) with mode 1777 when it is missing; return it.

    An existing folder keeps the mode its owner gave it, but it must let every user in and
    write (nbgrader's ``chmod ugo+rw``): otherwise students could not fetch or submit, and
    this raises ValueError saying how to mend it. A path where a file stands, or one that
    cannot be made, is refused with ValueError, and no folder is left behind.
    """
    path = file_path(path, "the exchange", example="'/srv/nbgrader/exchange'")
    shown = path_text(path)
    try:
        if path.is_dir():
            mode = path.stat().st_mode
            if mode & 0o777 != 0o777:
                raise ValueError(
                    f"the exchange {shown} has mode {oct(mode & 0o7777)[2:]}, so students could not fetch "
                    f"or submit: every user must be able to enter and write it ('chmod 1777 {path}')"
                )
            return path
        missing = [folder for folder in [path, *path.parents] if not os.path.lexists(folder)]
        above = missing[-1].parent if missing else path
        if not above.is_dir():
            raise ValueError(
                f"the exchange {shown} cannot be made: {path_text(above)} is a file, not a folder; "
                "give the path of a folder"
            )
    except OSError as error:
        raise ValueError(f"the exchange {shown} cannot be reached: {_reason(error)}") from None
    made = []
    try:
        # One folder at a time, so that those made can be removed if a later one fails.
        for folder in reversed(missing):
            folder.mkdir()
            made.append(folder)
        path.chmod(0o1777)  # after mkdir: mkdir's mode goes through the umask
    except OSError as error:
        for folder in reversed(made):
            folder.rmdir()
        raise ValueError(f"the exchange {shown} cannot be made: {_reason(error)}") from None
    return path


def _owner(owner: Any) -> tuple[int, int] | None:
    """``owner`` as ``(uid, gid)``, each a whole number from 0 below 2**32 - 1, or None."""
    if owner is None:
        return None
    expected = "owner must be (uid, gid), two whole numbers like (1000, 1000), or None"
    if not isinstance(owner, (tuple, list)):
        refuse_bytes(owner, expected)
        raise TypeError(f"{expected}; got {what(owner)}")
    if len(owner) != 2:
        raise ValueError(f"{expected}; got {short(owner)}")
    ids = [
        whole_number(n, f"owner's {kind}", minimum=0, example="1000")
        for n, kind in zip(owner, ("uid", "gid"))
    ]
    # 2**32 - 1 is chown's "leave it as it is", not a user.
    if max(ids) >= 2**32 - 1:
        raise ValueError(f"{expected}, below {2**32 - 1}; got {short(owner)}")
    return ids[0], ids[1]


def _give(path: Path, uid: int, gid: int) -> None:
    os.chown(path, uid, gid, follow_symlinks=False)
    for folder, dirs, files in os.walk(path):
        for name in dirs + files:
            os.chown(os.path.join(folder, name), uid, gid, follow_symlinks=False)


def _copies(home: Path, role: str, repository: Path) -> list[tuple[Path, Path, tuple[str, ...]]]:
    """What prepare_home copies: (source, target, names to skip), each checked; a ValueError if wrong."""
    if not home.is_dir():
        state = "is not a folder" if os.path.lexists(home) else "does not exist"
        raise ValueError(f"the home {path_text(home)} {state}: give the user's home folder")
    wanted = [(repository / "lessons", home / LESSONS_FOLDER, ())]
    if role == TEACHER:
        wanted.append((repository / "exercises", home / COURSE_FOLDER, STUDENT_WORK))
    todo = [(source, target, skip) for source, target, skip in wanted if not os.path.lexists(target)]
    for source, target, _ in todo:
        if not source.is_dir():
            raise ValueError(
                f"the repository {path_text(repository)} has no folder {source.name}/ to copy into "
                f"{path_text(target)}: give the setwidgets checkout, which holds lessons/ and exercises/"
            )
        # A home inside what is copied would be copied into itself, again and again.
        if home.resolve().is_relative_to(source.resolve()):
            raise ValueError(
                f"the home {path_text(home)} is inside {path_text(source)}, which is copied into it"
            )
    return todo


def prepare_home(
    home: str | os.PathLike[str], role: str, repository: str | os.PathLike[str], owner=None
) -> list[Path]:
    """Make ``home`` private and copy in what the role starts with, once; return what was copied.

    ``repository`` is the setwidgets checkout: its ``lessons/`` go to ``~/setwidgets-lessons``
    and, for the teacher, its ``exercises/`` (without student work) to ``~/setwidgets-course``.
    A folder already there is left as it is: the user's own work is never overwritten.
    ``owner`` is ``(uid, gid)`` to give the copies to (the hub runs as root), or None.

    Everything is checked first: a home that is no folder, a role that is neither
    ``teacher`` nor ``student``, a repository without the folders to copy are refused with
    ValueError before anything changes. A copy that fails half way is removed, and the home
    keeps its mode: a refused home is as it was.
    """
    home = file_path(home, "the home", example="'/home/ana'")
    if not isinstance(role, str):
        refuse_bytes(role, "the role must be 'teacher' or 'student'")
        raise TypeError(f"the role must be 'teacher' or 'student'; got {what(role)}")
    if role not in ROLES:
        raise ValueError(f"the role {short(role)} is neither 'teacher' nor 'student'")
    repository = file_path(repository, "the repository", example="'/opt/setwidgets'")
    owner = _owner(owner)
    try:
        todo = _copies(home, role, repository)
        mode = stat.S_IMODE(home.stat().st_mode)
    except OSError as error:
        raise ValueError(f"the home {path_text(home)} cannot be reached: {_reason(error)}") from None
    copied: list[Path] = []
    try:
        home.chmod(0o700)
        for source, target, skip in todo:
            copied.append(target)  # before the copy: a copy that fails half way is removed too
            # Links stay links: copied as root, a link would otherwise hand its target's content over.
            shutil.copytree(
                source, target, symlinks=True, ignore=shutil.ignore_patterns(*skip, "__pycache__")
            )
            if owner is not None:
                _give(target, *owner)
    except OSError as error:
        for target in copied:
            shutil.rmtree(target, ignore_errors=True)
        try:
            home.chmod(mode)
        except OSError:
            pass  # the chmod that failed was the first step: the mode never changed
        raise ValueError(
            f"the home {path_text(home)} could not be prepared, so it is left as it was: {_reason(error)}"
        ) from None
    return copied
