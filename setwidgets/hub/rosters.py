"""The roster of a class on one JupyterHub: ``username,role`` lines, one per Linux user.

The role is ``teacher`` (exactly one) or ``student``; lines starting with ``#`` are
comments, and a spreadsheet's CSV (with Excel's BOM, or in Windows-1252) reads as written.
The hub lets in the roster's users, each a Linux user of the machine, and nobody else.

>>> roles = parse_roster("# the class\\nmsmith,teacher\\nana,student\\nben,student\\n")
>>> roles["msmith"], sorted(name for name, role in roles.items() if role == STUDENT)
('teacher', ['ana', 'ben'])
"""

from __future__ import annotations

import csv
import os
import re
from pathlib import Path

from setwidgets._inputs import short, what

__all__ = [
    "ACCOUNTS",
    "ROLES",
    "STUDENT",
    "TEACHER",
    "USERNAME",
    "RosterError",
    "missing_users",
    "parse_roster",
    "read_roster",
]

TEACHER = "teacher"
STUDENT = "student"
ROLES = (TEACHER, STUDENT)
# What a Linux account name may be on Debian (adduser's default NAME_REGEX, without capitals).
USERNAME = re.compile(r"[a-z_][a-z0-9_-]{0,31}")

ACCOUNTS = frozenset({"root", "nobody", "daemon", "bin", "sys", "sync", "www-data"})
"""Accounts that belong to the system, not to a person: never a roster's teacher or student."""


class RosterError(ValueError):
    """The roster file is not a list of ``username,role`` lines with exactly one teacher."""


def parse_roster(text: str, where: str = "the roster") -> dict[str, str]:
    """The users of a roster's text, in order, each mapped to its role (``teacher`` or ``student``).

    >>> parse_roster("t,teacher\\ns1,student")
    {'t': 'teacher', 's1': 'student'}
    >>> parse_roster("t,teacher\\nAna,student")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    setwidgets.hub.rosters.RosterError: the roster, line 2: 'Ana' is not a Linux user name: expected a-z, ...
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
