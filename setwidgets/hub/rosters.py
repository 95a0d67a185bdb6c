"""The roster of a class on one JupyterHub: ``username,role`` lines, one per Linux user.

The role is ``teacher`` (exactly one) or ``student``; lines starting with ``#`` are
comments, and a spreadsheet's CSV (with Excel's BOM, or in Windows-1252) reads as written.
The hub lets in the roster's users, each a Linux user of the machine, and nobody else.

>>> roles = parse_roster("# the class\\nmsmith,teacher\\nana,student\\nben,student\\n")
>>> roles["msmith"], sorted(name for name, role in roles.items() if role == STUDENT)
('teacher', ['ana', 'ben'])
"""

from __future__ import annotations

import codecs
import csv
import itertools
import os
import re
import stat

from setwidgets._inputs import display_name, file_path, path_text, short, what

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

ACCOUNTS = frozenset(
    {"root", "daemon", "bin", "sys", "sync", "games", "man", "lp", "mail", "news", "uucp", "proxy",
     "www-data", "backup", "list", "irc", "gnats", "nobody", "_apt"}
)  # fmt: skip
"""Accounts that belong to the system, not to a person: never a roster's teacher or student.

Debian's fixed ones; any other account of this machine with a user id below
:data:`FIRST_PERSON_UID` (or nobody's, 65534, and above) is one too.
"""
FIRST_PERSON_UID = 1000
"""The first user id of a person on Debian and Ubuntu (``UID_MIN`` in /etc/login.defs)."""
LARGEST_ROSTER = 1_000_000
"""Bytes a roster file may have: tens of thousands of lines, far more than any class."""
LARGEST_CLASS = 100_000
"""Names :func:`missing_users` looks up at most in one call."""
_LONGEST_LINE = 1000  # characters of a line that is not a comment; a user name has at most 32


class RosterError(ValueError):
    """The roster file is not a list of ``username,role`` lines with exactly one teacher."""


def _system_account(name: str) -> bool:
    """Whether ``name`` is the system's: one of ACCOUNTS, or on this machine with a system user id."""
    if name in ACCOUNTS:
        return True
    try:
        import pwd
    except ImportError:  # not Linux: only the fixed list is known
        return False
    try:
        uid = pwd.getpwnam(name).pw_uid
    except KeyError:
        return False
    return uid < FIRST_PERSON_UID or uid >= 65534


def parse_roster(text: str, where: str = "the roster") -> dict[str, str]:
    """The users of a roster's text, in order, each mapped to its role (``teacher`` or ``student``).

    Each line is ``username,role``: a Linux user name (a-z, 0-9, ``_`` and ``-``, at most 32)
    and a role, in any case (``Teacher`` is ``teacher``). Exactly one teacher. Lines starting
    with ``#`` and blank lines are skipped. System accounts (``root``, ``nobody``, ...) are
    refused: the teacher and each student need an account of their own. ``where`` names
    the roster in messages.

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
    if not isinstance(where, str):
        raise TypeError(f"where= names the roster in messages, like 'class.csv'; got {what(where)}")
    roles: dict[str, str] = {}
    # Only these end a line: a form feed or a U+2028 inside a name must be seen, not split on.
    lines = re.split(r"\r\n|\r|\n", text.removeprefix("\ufeff"))  # Excel's "CSV UTF-8" starts with a BOM
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        at = f"{where}, line {number}"
        if len(line) > _LONGEST_LINE:
            raise RosterError(f"{at}: expected 'username,role', got a line of {len(line)} characters")
        try:
            row = next(csv.reader([line]))
        except csv.Error:
            raise RosterError(f"{at}: expected 'username,role', got {short(line)}") from None
        if not "".join(row).strip():
            continue
        if len(row) != 2:
            raise RosterError(f"{at}: expected 'username,role', got {short(line)}")
        name, role = (field.strip() for field in row)
        display_name(name, f"{at}: the user name", longest=32, example="'ana'", error=RosterError)
        if not USERNAME.fullmatch(name):
            raise RosterError(f"{at}: {short(name)} is not a Linux user name: expected a-z, 0-9, _ or -")
        if _system_account(name):
            raise RosterError(
                f"{at}: {name!r} is a system account, not a person: "
                "give the teacher and each student an account of their own"
            )
        if role.casefold() not in ROLES:
            raise RosterError(f"{at}: the role {short(role)} is neither 'teacher' nor 'student'")
        if name in roles:
            raise RosterError(f"{at}: {name!r} is listed twice")
        roles[name] = role.casefold()
    teachers = [name for name, role in roles.items() if role == TEACHER]
    if len(teachers) != 1:
        # A few names are enough to find the lines (a roster of 100,000 teachers was told whole).
        few = ", ".join(teachers[:5]) + (f" and {len(teachers) - 5} more" if len(teachers) > 5 else "")
        raise RosterError(
            f"{where} names {len(teachers)} teachers ({few or 'none'}): "
            "expected exactly one, who owns the course and its gradebook"
        )
    return roles


def read_roster(path: str | os.PathLike[str]) -> dict[str, str]:
    """:func:`parse_roster` of the file at ``path``, as a spreadsheet saves it.

    UTF-8, with or without the byte-order mark Excel's "CSV UTF-8" writes, and UTF-16 with
    its mark, are read as such. Any other file is read as Windows-1252, which holds Latin-1's
    letters too: user names are plain ASCII, and a spreadsheet saved in Windows-1252 or
    Latin-1 (people's names in comments, say) is read as written. A byte that is neither is
    refused, with its line, and so is a file that is no text (an ``.xlsx``, say): save
    the roster as CSV UTF-8.
    """
    path = file_path(path, "the roster", example="'/srv/class.csv'", error=RosterError)
    shown = path_text(path)
    expected = "give the path of the class's CSV file"
    try:
        # Not a plain file: a folder cannot be read, and a pipe or a device might never end.
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise RosterError(f"the roster {shown} is a folder: {expected} in it")
        if not stat.S_ISREG(info.st_mode):
            raise RosterError(f"the roster {shown} is not a plain file: {expected}")
        if info.st_size > LARGEST_ROSTER:
            raise RosterError(
                f"the roster {shown} has {info.st_size} bytes, "
                f"more than a roster's {LARGEST_ROSTER}: {expected}"
            )
        data = path.read_bytes()
    except OSError as error:
        raise RosterError(f"cannot read the roster {shown}: {error.strerror or error}; {expected}") from None
    return parse_roster(_decoded(data, shown), where=str(path))


def _line_of(data: bytes, index: int) -> int:
    return data.count(b"\n", 0, index) + 1


def _decoded(data: bytes, shown: str) -> str:
    """The text of a roster file's bytes (see read_roster), or a RosterError that says how to save it."""
    save = "save it as CSV UTF-8"
    for mark, encoding in [
        (codecs.BOM_UTF32_LE, "utf-32"),
        (codecs.BOM_UTF32_BE, "utf-32"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ]:
        if data.startswith(mark):
            try:
                return data.decode(encoding)
            except UnicodeDecodeError:
                raise RosterError(
                    f"the roster {shown} starts as {encoding.upper()} but is not: {save}"
                ) from None
    if b"\x00" in data:
        line = _line_of(data, data.index(b"\x00"))
        raise RosterError(f"the roster {shown} holds a NUL byte at line {line}, so it is not text: {save}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError as error:
        byte = data[error.start]
        raise RosterError(
            f"the roster {shown} has the byte 0x{byte:02X} at line {_line_of(data, error.start)}, "
            f"which is neither UTF-8 nor Windows-1252 (Latin-1): {save}"
        ) from None


def missing_users(names) -> list[str]:
    """The names that are not Linux users on this machine (the hub starts servers as these users).

    ``names`` is a list (or any iterable) of user names; a roster, the dict
    :func:`read_roster` returns, is the list of its names. A single string is refused, not
    read as one name: a string is also a list of letters, and ``"ana"`` would ask for
    ``'a'``, ``'n'`` and ``'a'``; write ``["ana"]``.

    >>> missing_users(["root", "no-such-user"])  # root is on every Linux machine
    ['no-such-user']
    """
    import pwd

    expected = "missing_users() needs a list of user names, like ['ana', 'ben']"
    if isinstance(names, str):
        raise TypeError(f"{expected}; got the single string {short(names)}: write [{short(names)}]")
    try:
        # Bytes are no list of names either; iter() would give their numbers.
        items = iter(names) if not isinstance(names, (bytes, bytearray)) else None
    except TypeError:
        items = None
    if items is None:
        raise TypeError(f"{expected}; got {what(names)}")
    # An endless iterable would never be answered: a class has at most so many names.
    listed = list(itertools.islice(items, LARGEST_CLASS + 1))
    if len(listed) > LARGEST_CLASS:
        raise ValueError(f"{expected}, at most {LARGEST_CLASS}; got more, starting {short(listed[:4])}")
    for number, name in enumerate(listed, start=1):
        if not isinstance(name, str):
            raise TypeError(f"{expected}; name {number} is {what(name)}")
        if not USERNAME.fullmatch(name):
            raise ValueError(
                f"{expected}; name {number}, {short(name)}, is not one: expected a-z, 0-9, _ or -"
            )
    missing = []
    for name in listed:
        try:
            pwd.getpwnam(name)
        except KeyError:
            missing.append(name)
    return missing
