"""A class on one JupyterHub: the roster, the roles and what each user's server starts with.

``deploy/jupyterhub_config.py`` is the hub's configuration; this module holds the rules it
follows, so that they can be read with ``help()`` and tested without a hub:

- the **roster** is a CSV file of ``username,role`` lines, one per Linux user, the role
  ``teacher`` (exactly one) or ``student``; lines starting with ``#`` are comments;
- each user's server is given the Jupyter configuration of their role
  (``deploy/jupyter/teacher`` or ``deploy/jupyter/student``): the Formgrader and the
  course list for the teacher only, the Assignments tab and Validate for everyone;
- on the first start of a server, the lessons are copied into ``~/setwidgets-lessons``,
  and for the teacher the course (``exercises/``, without any student work) into
  ``~/setwidgets-course``, the course root where nbgrader runs and the Formgrader looks;
- home folders are made private (mode 700): a student cannot read another one's work;
- the exchange, where assignments are released and submitted, is one folder every user
  may write to, with the sticky bit (mode 1777, as nbgrader documents it).

It imports nothing from JupyterHub.

>>> roles = parse_roster("# the class\\nmsmith,teacher\\nana,student\\nben,student\\n")
>>> roles["msmith"], sorted(name for name, role in roles.items() if role == STUDENT)
('teacher', ['ana', 'ben'])
"""

from __future__ import annotations

import csv
import os
import re
import shutil
from pathlib import Path

from ._inputs import short, what

COURSE_ID = "setwidgets"
TEACHER = "teacher"
STUDENT = "student"
ROLES = (TEACHER, STUDENT)
COURSE_FOLDER = "setwidgets-course"
LESSONS_FOLDER = "setwidgets-lessons"
# What a Linux account name may be on Debian (adduser's default NAME_REGEX, without capitals).
USERNAME = re.compile(r"[a-z_][a-z0-9_-]{0,31}")
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


ACCOUNTS = frozenset({"root", "nobody", "daemon", "bin", "sys", "sync", "www-data"})
"""Accounts that belong to the system, not to a person: never a roster's teacher or student."""


class RosterError(ValueError):
    """The roster file is not a list of ``username,role`` lines with exactly one teacher."""


def parse_roster(text: str, where: str = "the roster") -> dict[str, str]:
    """The users of a roster's text, in order, each mapped to its role (``teacher`` or ``student``).

    >>> parse_roster("t,teacher\\ns1,student")
    {'t': 'teacher', 's1': 'student'}
    >>> parse_roster("t,teacher\\nAna,student")
    Traceback (most recent call last):
    ...
    setwidgets.hub.RosterError: the roster, line 2: 'Ana' is not a Linux user name: expected a-z, 0-9, _ or -
    """
    if not isinstance(text, str):
        raise TypeError(
            f"parse_roster() needs the roster's text; got {what(text)} (read_roster() reads a file)"
        )
    roles: dict[str, str] = {}
    lines = text.removeprefix("\ufeff").splitlines()  # Excel's "CSV UTF-8" starts with a BOM
    for number, row in enumerate(csv.reader(lines), start=1):
        if not row or not "".join(row).strip() or row[0].lstrip().startswith("#"):
            continue
        if len(row) != 2:
            raise RosterError(
                f"{where}, line {number}: expected 'username,role', got {short(lines[number - 1])}"
            )
        name, role = (field.strip() for field in row)
        if not USERNAME.fullmatch(name):
            raise RosterError(
                f"{where}, line {number}: {short(name)} is not a Linux user name: expected a-z, 0-9, _ or -"
            )
        if name in ACCOUNTS:
            raise RosterError(
                f"{where}, line {number}: {name!r} is a system account, not a person: "
                "give the teacher and each student an account of their own"
            )
        if role not in ROLES:
            raise RosterError(
                f"{where}, line {number}: the role {short(role)} is neither 'teacher' nor 'student'"
            )
        if name in roles:
            raise RosterError(f"{where}, line {number}: {name!r} is listed twice")
        roles[name] = role
    teachers = [name for name, role in roles.items() if role == TEACHER]
    if len(teachers) != 1:
        raise RosterError(
            f"{where} names {len(teachers)} teachers ({', '.join(teachers) or 'none'}): "
            "expected exactly one, who owns the course and its gradebook"
        )
    return roles


def read_roster(path: str | os.PathLike[str]) -> dict[str, str]:
    """:func:`parse_roster` of the file at ``path``: UTF-8 (with or without Excel's BOM), else Windows-1252.

    User names are plain ASCII; a roster saved by a spreadsheet in Windows-1252 or Latin-1 (names
    of people in comments, say) is read as such rather than refused.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise RosterError(f"cannot read the roster {path}: {error.strerror}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    return parse_roster(text, where=str(path))


def missing_users(names) -> list[str]:
    """The names that are not Linux users on this machine (the hub starts servers as these users)."""
    import pwd

    if isinstance(names, (str, bytes)):
        raise TypeError(f"missing_users() needs a list of user names; got the single string {short(names)}")

    missing = []
    for name in names:
        try:
            pwd.getpwnam(name)
        except KeyError:
            missing.append(name)
    return missing


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
