"""Student text made inert for a teacher's terminal and log: printed, never obeyed.

``course.py report`` prints what students wrote (code, file and folder names, metadata), and
nbgrader's log quotes it too: a terminal would obey the escapes in it (clear the screen, move the
cursor, hide text, reorder a line). :func:`inert` keeps only printable characters;
:class:`InertLogFormatter` is the console's format in ``exercises/nbgrader_config.py``.
"""

from __future__ import annotations

import copy
import logging
from typing import Any

from tornado.log import LogFormatter


def inert(text: str) -> str:
    r"""``text`` as a terminal can print it without obeying it: one line of visible characters.

    An allow-list: the space and the characters Unicode calls printable (letters, marks, digits,
    punctuation, symbols, in any script: Chloé, Nguyễn) are kept. Every other character (control
    characters such as ESC, carriage return and newline, the bidirectional overrides and other
    format characters, unassigned and private code points) is shown as its Python escape
    (``\x1b``, ``\u202e``), and a backslash is doubled, so that a student's text can neither
    clear the screen, move the cursor, reorder a line nor pass itself off as an escape.

    >>> print(inert("Chloé\x1b[2J\u202eok\\x1b"))
    Chloé\x1b[2J\u202eok\\x1b
    """
    if not isinstance(text, str):
        raise TypeError(f"inert() expects a str, not {type(text).__name__}")
    return "".join(_kept(char, "\\") for char in text)


def _kept(char: str, escape_too: str = "") -> str:
    """The character, if printable (or a space) and not in ``escape_too``; else its escape."""
    if char == " " or (char.isprintable() and char not in escape_too):
        return char
    return _escaped(char)


def inert_lines(text: str) -> str:
    """``text`` made inert line by line, as :func:`inert` does, backslashes aside: for a log.

    A traceback keeps its lines, and a report line already made inert is printed as it is.
    """
    return "\n".join("".join(_kept(char) for char in line) for line in text.split("\n"))


class InertLogFormatter(LogFormatter):
    """nbgrader's log format, with every message and traceback made inert (see :func:`inert_lines`).

    nbgrader's own lines quote what students wrote: a file name it skips, an error's message.
    ``exercises/nbgrader_config.py`` makes this the format of the console, so that those lines
    cannot clear the teacher's screen either; the log's own colours are kept.
    """

    def format(self, record: logging.LogRecord) -> str:
        record = copy.copy(record)
        record.msg, record.args = inert_lines(record.getMessage()), None
        return super().format(record)

    def formatException(self, ei: Any) -> str:  # noqa: N802 - the name logging.Formatter calls
        return inert_lines(super().formatException(ei))


def _escaped(char: str) -> str:
    if char == "\\":
        return "\\\\"
    return char.encode("unicode_escape").decode("ascii")
