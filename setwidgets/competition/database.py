"""The competition's file: an SQLite database of the competition's tables, checked before it is used.

:func:`open_file` refuses, each in one sentence that says what to do, a path that cannot
hold a competition: a folder, a missing folder, an empty or cut-short file, another
program's database, a file of another version, a file whose tables are missing. Trouble
with the file later on (busy, read-only, damaged) is put in words by :func:`file_trouble`.
The scoreboard itself, kept in this file, is :class:`~setwidgets.competition.store.Competition`.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from setwidgets import _inputs, _words

__all__ = [
    "SCHEMA_VERSION",
    "WAIT_SECONDS",
    "ClosedFile",
    "CompetitionError",
    "check_file",
    "file_trouble",
    "open_file",
]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    number INTEGER PRIMARY KEY, name TEXT NOT NULL, division TEXT);
CREATE TABLE IF NOT EXISTS seats (
    round INTEGER NOT NULL, tableno INTEGER NOT NULL, player INTEGER NOT NULL,
    PRIMARY KEY (round, player));
CREATE TABLE IF NOT EXISTS scores (
    stage TEXT NOT NULL, round INTEGER NOT NULL, player INTEGER NOT NULL,
    sets INTEGER NOT NULL, penalties INTEGER NOT NULL,
    PRIMARY KEY (stage, round, player));
CREATE TABLE IF NOT EXISTS absences (
    round INTEGER NOT NULL, player INTEGER NOT NULL, reason TEXT NOT NULL,
    PRIMARY KEY (round, player));
CREATE TABLE IF NOT EXISTS history (
    id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, action TEXT NOT NULL, details TEXT NOT NULL);
"""


class CompetitionError(ValueError):
    """Something the scoreboard cannot accept; the message says what and what to do instead."""


SCHEMA_VERSION = 2
"""The version of the file's tables, kept in its settings; a file of another version is refused.

Version 1 had no table of absences; a file of version 1 gets it (empty) when opened.
"""

_TABLES = frozenset({"settings", "players", "seats", "scores", "absences", "history"})
_ADDED_SINCE = {1: frozenset({"absences"})}  # the tables a file of an older version lacks
WAIT_SECONDS = 5.0
"""How long a change waits for another notebook or program that is writing the same file."""


class ClosedFile:
    """What a closed competition holds instead of its file: every use says how to open it again."""

    def __init__(self, path: str) -> None:
        self.path = path

    def _refuse(self, *args: object, **kwargs: object) -> None:
        raise CompetitionError(
            f"this competition's file {_inputs.path_text(self.path)} is closed; "
            "open it again with Competition(path) (nothing was lost)"
        )

    execute = commit = __enter__ = _refuse

    def __exit__(self, *exc: object) -> None:
        pass

    def close(self) -> None:
        """Closing twice is harmless."""


def check_file(path: Path) -> None:
    """Refuse, in one sentence, a path that cannot hold a competition, before SQLite touches it."""
    where = _inputs.path_text(path)
    if path.is_dir():
        raise CompetitionError(f"{where} is a folder; give a file name inside it, like {where}/class.sqlite")
    if not path.parent.is_dir():
        raise CompetitionError(f"the folder of {where} does not exist; make it, or choose another place")
    if path.is_file():
        with path.open("rb") as file:
            head = file.read(16)
        if head != b"SQLite format 3\x00":
            what = "empty" if not head else "not an SQLite database"
            raise CompetitionError(
                f"{where} is {what}, so it holds no competition: it may have been cut short or "
                "overwritten; open a copy saved earlier, or give a new file name"
            )


def file_trouble(error: sqlite3.Error) -> str:
    """What went wrong with the file, in words: SQLite's own message names no remedy."""
    text = str(error).lower()
    if "locked" in text or "busy" in text:
        return (
            f"another notebook or program kept the file busy for {WAIT_SECONDS:g} s; "
            "wait until it is done, or close it there, and try again"
        )
    if "readonly" in text or "read-only" in text:
        return "the file cannot be written (it is read-only); copy it somewhere you can write"
    if "not a database" in text or "malformed" in text:
        return "the file is damaged; open a copy saved earlier"
    return f"SQLite says {_inputs.short(str(error))}"


def open_file(path: str) -> sqlite3.Connection:
    """The competition file at ``path`` (``":memory:"``: in memory only), open, checked and ready.

    A new file gets the tables; an existing one must hold a competition of this version.
    Anything else is refused with a :class:`CompetitionError` that says why, and the file is
    left as it was.
    """
    if path != ":memory:":
        check_file(Path(path))
    db = None
    try:
        db = sqlite3.connect(path, timeout=WAIT_SECONDS)
        _prepare(db, path)
    except (sqlite3.Error, CompetitionError) as error:
        if db is not None:
            db.close()
        if isinstance(error, CompetitionError):
            raise
        raise CompetitionError(f"{_inputs.path_text(path)} cannot be opened: {file_trouble(error)}") from None
    return db


def _prepare(db: sqlite3.Connection, path: str) -> None:
    """Check that the file is a competition of this version (or new), then make its tables."""
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    others = tables - _TABLES - {"sqlite_sequence"}
    if others:
        raise CompetitionError(
            f"{_inputs.path_text(path)} is another program's database (it holds the tables "
            f"{_words.and_list(sorted(others)[:4])}): a competition needs a file of its own"
        )
    if tables:
        # A damaged page would otherwise go unnoticed until a later write fails on it.
        verdict = db.execute("PRAGMA quick_check").fetchone()[0]
        if verdict != "ok":
            raise CompetitionError(
                f"{_inputs.path_text(path)} is damaged (SQLite finds {_inputs.short(verdict)}); "
                "open a copy saved earlier"
            )
        row = None
        if "settings" in tables:
            row = db.execute("SELECT value FROM settings WHERE key = 'schema'").fetchone()
        older = row is not None and row[0] in {str(v) for v in _ADDED_SINCE}
        if row is not None and row[0] != str(SCHEMA_VERSION) and not older:
            raise CompetitionError(
                f"{_inputs.path_text(path)} was written by another version of setwidgets (file "
                f"version {_inputs.short(row[0])}, this one reads {SCHEMA_VERSION})"
            )
        missing = _TABLES - tables - (_ADDED_SINCE[int(row[0])] if older else frozenset())
        if missing:
            lost = _words.and_list(sorted(missing))
            raise CompetitionError(
                f"{_inputs.path_text(path)} is damaged: its tables {lost} are missing; "
                "open a copy saved earlier"
            )
    if path != ":memory:":
        # Write-ahead logging: a notebook that reads the standings never blocks one that records.
        db.execute("PRAGMA journal_mode=WAL")
    db.executescript(_SCHEMA)
    # A new file is of this version; an older one now has this version's tables too.
    db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
    db.commit()
