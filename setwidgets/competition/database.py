"""The competition's file: an SQLite database of the competition's tables, checked before it is used.

:func:`open_file` refuses, each in one sentence that says what to do, a path that cannot
hold a competition: a folder, a missing folder, a new file in a folder that cannot be written,
an empty or cut-short file, another program's database, a file of a newer version, a file whose
tables, columns or contents are not a competition's, a log of changes (``-wal``) left beside a
file that was replaced since. A file of an earlier version is upgraded in place after a copy of
it is kept beside it (``class.sqlite.v1.bak``); a file that cannot be written (a copy on a USB
stick) opens read-only, for the standings. Trouble with the file later on (busy, read-only,
damaged) is put in words by :func:`file_trouble`.

The versions, each kept by tests/test_competition_file.py as a file it opens:

- version 0 (2026-11-23, 24): the tables settings, players, seats, scores and history, and no
  version written in the file;
- version 1 (2026-11-25): the same tables, its version in the settings (``schema``);
- version 2 (since 2026-11-25): a table of absences too; its version also in SQLite's header
  (``PRAGMA user_version``), and the header's application id marks the file as setwidgets'.
The scoreboard itself, kept in this file, is :class:`~setwidgets.competition.store.Competition`.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from setwidgets import _inputs, _words
from setwidgets._sqlite_files import foreign_object, keep_copy, stale_log
from setwidgets.competition.schedules import MOST_PLAYERS
from setwidgets.game import inputs as game_inputs

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "WAIT_SECONDS",
    "ClosedFile",
    "CompetitionError",
    "LONGEST_NAME",
    "check_file",
    "file_trouble",
    "open_file",
    "player_name",
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


def player_number(value: Any, name: str) -> int:
    """A player's number, checked: a whole number from 1 to MOST_PLAYERS (refused in a sentence)."""
    number = _inputs.whole_number(value, name, minimum=1, example="7", error=CompetitionError)
    if number > MOST_PLAYERS:
        raise CompetitionError(
            f"{name} must be at most {MOST_PLAYERS}, the most players a competition has; "
            f"got {_inputs.short(number)}"
        )
    return number


LONGEST_NAME = 60
"""The longest name a competition takes, in characters: on paper it shrinks and wraps to fit."""


def player_name(value: Any, name: str) -> str:
    """A player's name, checked by the class game's names policy (:func:`setwidgets.game.inputs.player_name`).

    Letters of any script with their accents, digits, single spaces and ``' - .`` between them,
    a zero-width joiner or non-joiner inside a word (Persian, Sinhala); at most
    :data:`LONGEST_NAME` characters. Refused in a sentence naming the character: what a reader
    cannot see or tell apart, and emoji, which the class game refuses too.
    """
    return game_inputs.player_name(value, name, CompetitionError, longest=LONGEST_NAME)


SCHEMA_VERSION = 2
"""The version of the file's tables, kept in its settings and header; a newer version is refused.

A file of an earlier version (see the module's docstring) is upgraded when opened, after a
copy of it is kept beside it; one that cannot be written opens read-only as it is.
"""

APPLICATION_ID = 0x53657457
"""SQLite's application id of a competition file ("SetW"): a file with another id is another program's."""

_TABLES = frozenset({"settings", "players", "seats", "scores", "absences", "history"})
# The tables each version's files hold: a file of an earlier version lacks the later ones.
_VERSION_TABLES = {0: _TABLES - {"absences"}, 1: _TABLES - {"absences"}, 2: _TABLES}
_COLUMNS = {
    "settings": ("key", "value"),
    "players": ("number", "name", "division"),
    "seats": ("round", "tableno", "player"),
    "scores": ("stage", "round", "player", "sets", "penalties"),
    "absences": ("round", "player", "reason"),
    "history": ("id", "at", "action", "details"),
}
# Rows no version of the scoreboard writes, found by SQL when the file is opened, each with
# what it is in words: a hand-edited or damaged file is refused then, not at a later call.
_BAD_ROWS = {
    "players": (
        "number",
        "typeof(number) != 'integer' OR number < 1 OR typeof(name) != 'text' "
        "OR NOT (division IS NULL OR division IN ('A', 'B', 'C', 'D'))",
        "a player's number, name or division",
    ),
    "seats": (
        "round",
        "typeof(round) != 'integer' OR typeof(tableno) != 'integer' OR typeof(player) != 'integer' "
        "OR round < 1 OR tableno < 1 OR player < 1",
        "a seat's round, table or player",
    ),
    "scores": (
        "round",
        "stage NOT IN ('round', 'playin', 'final', 'tiebreak') OR typeof(round) != 'integer' "
        "OR typeof(player) != 'integer' OR typeof(sets) != 'integer' "
        "OR typeof(penalties) != 'integer' OR sets < 0 OR penalties < 0",
        "a score's stage, round, player, SETs or penalties",
    ),
    "absences": (
        "round",
        "typeof(round) != 'integer' OR typeof(player) != 'integer' OR typeof(reason) != 'text'",
        "an absence's round, player or reason",
    ),
    "history": (
        "id",
        # json_type inside CASE: SQLite may evaluate both sides of an OR, and json_type raises on bad JSON.
        "typeof(details) != 'text' OR CASE WHEN json_valid(details) THEN json_type(details) != 'object' "
        "ELSE 1 END",
        "a change's details (not a JSON object)",
    ),
    "settings": (
        "key",
        "key = 'tables' AND NOT (value GLOB '[1-9]*' AND value NOT GLOB '*[^0-9]*')",
        "the number of tables",
    ),
}
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
    if not path.exists() and not os.access(path.parent, os.W_OK):
        raise CompetitionError(
            f"the folder of {where} cannot be written (it is read-only), so no new competition "
            "can be made there; choose a folder you can write"
        )
    if path.is_file():
        with path.open("rb") as file:
            head = file.read(16)
        if head != b"SQLite format 3\x00":
            what = "empty" if not head else "not an SQLite database"
            raise CompetitionError(
                f"{where} is {what}, so it holds no competition: it may have been cut short or "
                "overwritten; open a copy saved earlier, or give a new file name"
            )
        # Checked twice, a moment apart: another notebook copying its log into the file
        # (a checkpoint) looks, for that moment, like a file replaced under its log.
        if stale_log(path) and (time.sleep(0.2) or stale_log(path)):
            log = path.name + "-wal"
            raise CompetitionError(
                f"{where} was replaced after its log of changes {log!r} was last written, so the log "
                f"belongs to another state of it and is not used; if you copied a saved copy over it, "
                f"delete {log!r} and {path.name + '-shm'!r}, then open it again; if you copied the file "
                "with its log, copy them again keeping their times (cp -p)"
            )


def details_of(path: str, change: int, text: Any) -> dict[str, Any]:
    """A history row's details read back; a row no competition writes (changed since the file was
    opened, by another program) is a sentence, never a raw JSONDecodeError."""
    try:
        details = json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):
        details = None
    if type(details) is not dict:
        raise CompetitionError(
            f"{_inputs.path_text(path)} is damaged: change {change} of its history holds "
            f"{_inputs.short(text)}, not a change's details (a JSON object); open a copy saved earlier"
        )
    return details


def tables_of(path: str, row: Any) -> int:
    """The number of tables in the settings read back; a value no competition writes (changed
    since the file was opened, by another program) is a sentence, never a raw ValueError."""
    value = row[0] if isinstance(row, tuple) and row else None
    if not (isinstance(value, str) and value.isascii() and value.isdigit() and 0 < len(value) < 6):
        raise CompetitionError(
            f"{_inputs.path_text(path)} is damaged: its settings hold {_inputs.short(value)} as the "
            "number of tables; open a copy saved earlier"
        )
    return int(value)


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

    A new file gets the tables; an existing one must hold a competition of this version or an
    earlier one, which is upgraded after a copy of it is kept beside it. A file that cannot be
    written opens read-only: every change is then refused, in words. Anything else is refused
    with a :class:`CompetitionError` that says why, and the file is left as it was.
    """
    read_only = False
    if path != ":memory:":
        where = Path(path)
        check_file(where)
        read_only = where.exists() and not (os.access(where, os.W_OK) and os.access(where.parent, os.W_OK))
    db = None
    try:
        db = _connect(path, read_only)
        _prepare(db, path, read_only)
    except (sqlite3.Error, CompetitionError) as error:
        if db is not None:
            db.close()
        if isinstance(error, CompetitionError):
            raise
        raise CompetitionError(f"{_inputs.path_text(path)} cannot be opened: {file_trouble(error)}") from None
    return db


# One connection serves every thread of the kernel. JupyterLab 4.6 sends a widget's messages
# (a click on the Standings' division picker, its "Enter scores") to a kernel *subshell*, which
# ipykernel 7 runs in a thread of its own; with SQLite's default check, every call made from a
# widget raised "SQLite objects created in a thread can only be used in that same thread", and
# the traitlets observer that raised left the picker changed and the table as it was. Python's
# sqlite3 is built serialized almost everywhere (sqlite3.threadsafety == 3), which makes sharing
# safe; a build that is not keeps the check (the widget then fails as before, rather than corrupt).
SAME_THREAD_ONLY = sqlite3.threadsafety != 3


def _connect(path: str, read_only: bool) -> sqlite3.Connection:
    """A connection to the file; read-only ones never write, not even SQLite's ``-shm`` beside it."""
    if not read_only:
        return sqlite3.connect(path, timeout=WAIT_SECONDS, check_same_thread=SAME_THREAD_ONLY)
    uri = Path(path).resolve().as_uri()
    try:
        db = sqlite3.connect(
            uri + "?mode=ro", uri=True, timeout=WAIT_SECONDS, check_same_thread=SAME_THREAD_ONLY
        )
        db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        return db
    except sqlite3.OperationalError:
        # A folder that cannot be written holds no -shm, which a file in WAL mode needs; with no
        # log beside it either, nobody can be changing the file, and SQLite may read it as it is.
        log = Path(path).with_name(Path(path).name + "-wal")
        if log.exists() and log.stat().st_size:
            # SQLite's own words were "unable to open database file": it needs to write the -shm.
            raise CompetitionError(
                f"{_inputs.path_text(path)} cannot be read where it is: its log of changes {log.name!r} "
                f"lies beside it, and SQLite must write {Path(path).name + '-shm'!r} to read the two, in a "
                "folder that cannot be written; copy the file and its log to a folder you can write"
            ) from None
        return sqlite3.connect(
            uri + "?immutable=1", uri=True, timeout=WAIT_SECONDS, check_same_thread=SAME_THREAD_ONLY
        )


def _version(db: sqlite3.Connection, path: str, tables: set[str]) -> int:
    """The file's version, from its settings (versions 1, 2) or header; 0 for the first files."""
    row = None
    if "settings" in tables:
        row = db.execute("SELECT value FROM settings WHERE key = 'schema'").fetchone()
    header = db.execute("PRAGMA user_version").fetchone()[0]
    # The settings say the version (1 and 2 wrote it there); a header newer than this one's
    # is a newer version's file, whatever its settings say.
    said = str(header) if row is None or header > SCHEMA_VERSION else row[0]
    if not (isinstance(said, str) and said.isascii() and said.isdigit() and int(said) in _VERSION_TABLES):
        raise CompetitionError(
            f"{_inputs.path_text(path)} was written by another version of setwidgets (file "
            f"version {_inputs.short(said)}, this one reads {SCHEMA_VERSION})"
        )
    return int(said)


def _check_contents(db: sqlite3.Connection, path: str, tables: set[str]) -> None:
    """Refuse a table without its columns, or a row no version of the scoreboard writes."""
    where = _inputs.path_text(path)
    for table in sorted(tables & set(_COLUMNS)):
        columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        lacking = [c for c in _COLUMNS[table] if c not in columns]
        if lacking:
            raise CompetitionError(
                f"{where} is damaged: its table {table} has no column {_words.and_list(lacking)}; "
                "open a copy saved earlier"
            )
        made = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,))
        if _declared(made.fetchone()[0]) != _declared(_create(table)):
            extra = [c for c in sorted(columns) if c not in _COLUMNS[table]]
            differs = f"a column {_words.and_list(extra)}" if extra else "keys or constraints"
            raise CompetitionError(
                f"{where} is damaged: its table {table} has {differs} that no competition has; "
                "open a copy saved earlier"
            )
        key, bad, what = _BAD_ROWS[table]
        found = db.execute(f"SELECT {key} FROM {table} WHERE {bad} LIMIT 1").fetchone()
        if found is not None:
            raise CompetitionError(
                f"{where} is damaged: its table {table} holds {what} that no competition has "
                f"({key} {_inputs.short(str(found[0]))}); open a copy saved earlier"
            )


def _keep_copy(db: sqlite3.Connection, path: str, version: int) -> str:
    """The teacher's copy of a file of an earlier version, beside it (:func:`keep_copy`)."""
    target = keep_copy(db, Path(path), version)
    if target is None:
        raise CompetitionError(
            f"{_inputs.path_text(path)}: 99 copies of it are kept beside it; move some away"
        )
    return target.name


def _prepare(db: sqlite3.Connection, path: str, read_only: bool = False) -> None:
    """Check that the file is a competition of this version or an earlier one (or new), then ready it."""
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    others = tables - _TABLES - {"sqlite_sequence"}
    # No version writes a trigger, a view or an index of its own (only SQLite's for the keys): a
    # trigger could delete every score recorded, silently.
    extras = foreign_object(db.execute("SELECT type, name FROM sqlite_master").fetchall())
    app = db.execute("PRAGMA application_id").fetchone()[0]
    if others or extras or app not in (0, APPLICATION_ID):
        if others:
            held = f"it holds the tables {_words.and_list(sorted(others)[:4])}"
        elif extras:
            held = f"it holds {extras}"
        else:
            held = f"its application id is {app}"
        raise CompetitionError(
            f"{_inputs.path_text(path)} is another program's database ({held}): "
            "a competition needs a file of its own"
        )
    version = SCHEMA_VERSION
    if tables:
        # A damaged page would otherwise go unnoticed until a later write fails on it.
        verdict = db.execute("PRAGMA quick_check").fetchone()[0]
        if verdict != "ok":
            raise CompetitionError(
                f"{_inputs.path_text(path)} is damaged (SQLite finds {_inputs.short(verdict)}); "
                "open a copy saved earlier"
            )
        version = _version(db, path, tables)
        missing = _VERSION_TABLES[version] - tables
        if missing:
            lost = _words.and_list(sorted(missing))
            raise CompetitionError(
                f"{_inputs.path_text(path)} is damaged: its tables {lost} are missing; "
                "open a copy saved earlier"
            )
        _check_contents(db, path, tables)
    if read_only:
        # Shown as it is: the tables a later version added stand in empty, in memory only.
        for table in sorted(_TABLES - tables):
            db.execute(_create(table).replace("CREATE TABLE IF NOT EXISTS", "CREATE TEMP TABLE"))
        return
    kept = (
        _keep_copy(db, path, version) if tables and version < SCHEMA_VERSION and path != ":memory:" else None
    )
    if path != ":memory:":
        # Write-ahead logging: a notebook that reads the standings never blocks one that records.
        db.execute("PRAGMA journal_mode=WAL")
    # One transaction: the tables, the version and the note of the upgrade are all in the
    # file, or (stopped half-way) none of them, and the next opening upgrades it again.
    db.execute("BEGIN IMMEDIATE")
    try:
        for table in _ORDER:  # as the schema lists them: the pages of a new file come in this order
            db.execute(_create(table))
        # A new file is of this version; an older one now has this version's tables too.
        db.execute(
            "INSERT OR REPLACE INTO settings (key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
        )
        if kept:
            details = json.dumps({"copy": kept, "from": version, "to": SCHEMA_VERSION}, sort_keys=True)
            db.execute(
                "INSERT INTO history (at, action, details) VALUES (strftime('%Y-%m-%dT%H:%M:%S+00:00'), "
                "'upgrade', ?)",
                (details,),
            )
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    except BaseException:
        db.rollback()
        raise
    db.commit()


_ORDER = ("settings", "players", "seats", "scores", "absences", "history")


def _declared(sql: Any) -> str:
    """A table's CREATE statement as every version wrote it, spaces and line breaks aside."""
    text = " ".join(str(sql).replace("IF NOT EXISTS ", "").split()).rstrip(";")
    return text.replace("( ", "(").replace(" )", ")")


def _create(table: str) -> str:
    """The CREATE statement of one of this version's tables."""
    return next(part.strip() + ";" for part in _SCHEMA.split(";") if f"EXISTS {table} (" in part)
