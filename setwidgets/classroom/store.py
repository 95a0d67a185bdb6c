"""Where the room service keeps its rooms: a database, SQLite unless told otherwise.

Every change to a room is written here (and committed) before anyone is told of it, so a
service that is stopped or killed and started again resumes every room where it was, with
nothing a player was told lost. The database is named by a SQLAlchemy URL: the default is a
SQLite file; a larger installation may give ``postgresql://...`` (with a driver installed).

The store refuses rather than loses:

- **The file says it is ours.** A SQLite file made here carries the store's
  ``PRAGMA application_id`` (:data:`APPLICATION_ID`) and its schema version in
  ``PRAGMA user_version`` (:data:`SCHEMA_VERSION`). An empty (0-byte) file, a file that is
  not SQLite or is damaged, another program's database, a table of ours in another shape,
  or a file of a newer version is refused with a :class:`StoreError` that says what to do;
  nothing is added to such a file. A file of the service's first version (our two tables and
  nothing else, no ``application_id``) is taken on and stamped, after a copy of it as it was is
  kept beside it (``rooms.sqlite.v0.bak``, :attr:`Store.kept`). Rooms saved in every earlier
  form are read (:meth:`Room.from_data`), and written in today's at their next change.
- **One service per file.** A lock file beside the database (``rooms.sqlite.lock``) is held
  while the store is open; a second service on the same file is refused, with the process
  number of the first.
- **A damaged room is set aside.** A room whose row cannot be read back is left in the file
  as it is, named in :attr:`Store.set_aside` with the reason, and its code is never given to
  a new room; the other rooms open.
- **A failed save is an error, never a silence.** :meth:`Store.save` raises
  :class:`StoreError` when the database refuses the change (a full disk, a read-only file,
  another program holding it); :meth:`Store.saved` gives back the room as last committed, so
  the service can put the room in memory back as it is on disk.
- **Off the service's loop.** The service writes through :meth:`Store.off_loop`, in the store's
  own threads (:data:`THREADS`), so that a slow write of one room (a disk that stalls, a long
  checkpoint) leaves the other rooms served; the service keeps each room's changes in order.
  SQLite writes one change at a time: the store's threads queue for it among themselves, and only
  another program holding the file makes a save wait :data:`WAIT_SECONDS` and be refused.

>>> store = Store("sqlite://")  # in memory, for this example
>>> from setwidgets.classroom.rooms import Room
>>> store.save(Room("BCDFG", seed=1))
>>> sorted(store.load())
['BCDFG']
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from setwidgets import _inputs, _words
from setwidgets._sqlite_files import foreign_object, keep_copy, stale_log
from setwidgets.classroom.rooms import Room, RoomError

try:  # POSIX: a lock that the system lets go of when the process ends, even by kill -9
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]
    import msvcrt

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "THREADS",
    "WAIT_SECONDS",
    "Store",
    "StoreError",
    "database_url",
]

APPLICATION_ID = 0x53657457  # "SetW"
"""What a SQLite file of the room service holds in ``PRAGMA application_id``."""

SCHEMA_VERSION = 1
"""The version of the store's tables, kept in ``PRAGMA user_version``; a newer file is refused."""

WAIT_SECONDS = 0.5
"""How long a save waits for another program that holds the SQLite file (a database browser).

The room whose save waits waits with it (its later moves are served after): a short wait, then
the move is refused with a sentence and can be sent again, rather than a room frozen for seconds.
The store's own threads wait their turn for each other without this limit."""

THREADS = 4
"""The threads that write to the database for the service (:meth:`Store.off_loop`).

More than one, so that reads go on while a room writes, and a room slow before its write holds up
no other; the writes take turns in the store (:class:`_Turn`): SQLite lets one write at a time."""

_SQLITE_HEADER = b"SQLite format 3\x00"

_META = sa.MetaData()
_ROOMS = sa.Table(
    "setwidgets_rooms",
    _META,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("data", sa.Text, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)
# A player's token is kept as its SHA-256 only: a copy of the database lets nobody play as them.
_SEATS = sa.Table(
    "setwidgets_seats",
    _META,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("code", sa.String(16), nullable=False, index=True),
    sa.Column("name", sa.Text, nullable=False),
)
_OURS = {table.name: [column.name for column in table.columns] for table in (_ROOMS, _SEATS)}


class StoreError(RuntimeError):
    """The database cannot be used, or a change could not be saved; the message says why and what to do."""


def database_url(value: Any) -> str:
    """``value`` when it is a database URL SQLAlchemy can read, such as ``sqlite:///rooms.sqlite``."""
    if not isinstance(value, str) or not value.strip():
        raise TypeError(
            f"the database must be a URL like 'sqlite:///rooms.sqlite'; got {_inputs.what(value)}"
        )
    try:
        sa.engine.make_url(value)
    except sa.exc.ArgumentError:
        raise ValueError(
            f"the database must be a URL like 'sqlite:///rooms.sqlite'; got {_inputs.short(value)}"
        ) from None
    return value


def trouble(error: BaseException) -> str:
    """What went wrong with the database, in words that say what to do (the driver's name no remedy)."""
    said = str(getattr(error, "orig", None) or error)
    if isinstance(error, StoreError):  # already in words (the store's own turn, say)
        return said
    text = said.lower()
    if "full" in text:
        return "the disk is full; make room on it"
    if "locked" in text or "busy" in text:
        return (
            f"another program kept the database busy for more than {WAIT_SECONDS:g} s; "
            "close it there (a database browser, say)"
        )
    if "readonly" in text or "read-only" in text:
        return "the database cannot be written (the file or its folder is read-only)"
    if "not a database" in text or "malformed" in text:
        return (
            "the file is damaged (cut short or overwritten); start the service with a copy saved "
            "earlier, or move the file away to start with no rooms"
        )
    if "unable to open" in text:
        return "the file cannot be opened; check that its folder exists and can be written"
    if "disk i/o" in text:
        return "the disk failed to read or write it (full, removed, or failing)"
    return f"the database says {_inputs.short(said.splitlines()[0] if said else type(error).__name__)}"


def _sqlite_pragmas(connection: Any, record: Any) -> None:
    # Write-ahead logging with normal sync: a commit survives the service being killed (the log is
    # written before the commit returns) at a small part of the default's cost of waiting for
    # the disk, which every room would wait for. Only a crash of the machine itself may lose
    # the last changes.
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


_WRITES = ("INSERT", "UPDATE", "DELETE")
_TURN_SECONDS = 30.0  # the longest a save waits for the saves queued before it: then it is refused


class _Turn:
    """The store's threads' turn at SQLite's one write lock: they queue here, never at SQLite.

    SQLite makes a writer poll for another's lock and give up after :data:`WAIT_SECONDS`: our threads
    would be refused as if another program held the file. A thread of :meth:`Store._run` takes the
    turn just before its transaction's first write (where SQLite takes its lock: what comes before
    holds up nobody), begins it with ``BEGIN IMMEDIATE`` (to wait at the start, not fail half-way),
    and lets go after the commit or rollback. SQLite's own copy of its log into the file (a
    checkpoint, every 1,000 pages) stays in the commit: made apart, every 100 writes, it let the
    log grow while rooms were read, and 40 rooms of 30 went from a 95th percentile of 55 ms to
    459 ms (benchmarks/bench_classroom.py, both in one hour of a quiet machine)."""

    def __init__(self, engine: sa.engine.Engine) -> None:
        self._lock = threading.Lock()
        self._mine = threading.local()  # .turn: None outside a save, False before its first write
        # SQLAlchemy calls this after its before_cursor_execute hooks, just before the statement.
        sa.event.listen(engine, "do_execute", self._take)

    def _take(self, cursor: Any, statement: str, parameters: Any, context: Any) -> bool:
        if getattr(self._mine, "turn", None) is False and statement.lstrip()[:6].upper() in _WRITES:
            if not self._lock.acquire(timeout=_TURN_SECONDS):
                raise StoreError(
                    f"the saves queued before it took more than {_TURN_SECONDS:g} s (a disk too slow "
                    "or failing, or a machine short of time); try again later"
                )
            self._mine.turn = True
            if not cursor.connection.in_transaction:
                cursor.execute("BEGIN IMMEDIATE")
        return False  # the statement itself is executed as usual

    @contextmanager
    def around(self) -> Iterator[None]:
        """One transaction of :meth:`Store._run` that may write; the turn is let go when it ends."""
        self._mine.turn = False
        try:
            yield
        finally:
            wrote, self._mine.turn = self._mine.turn, None
            if wrote:
                self._lock.release()


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _sqlite_file(url: sa.engine.URL) -> Path | None:
    """The file of a SQLite URL; None for another database, or SQLite in memory."""
    if url.get_backend_name() != "sqlite":
        return None
    name = url.database or ""
    if name in ("", ":memory:") or name.startswith("file:"):
        return None
    return Path(name).absolute()


class _Lock:
    """The lock file beside a database: held while one service uses it, with that service's pid inside."""

    def __init__(self, database: Path) -> None:
        self.path = database.with_name(database.name + ".lock")
        where = _inputs.path_text(database)
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as error:
            raise StoreError(
                f"the service cannot write in the folder of {where} ({error.strerror or error}): it keeps "
                "the rooms and a lock file there; give --db a file in a folder you can write"
            ) from None
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            else:  # pragma: no cover - Windows
                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            try:
                holder = os.read(fd, 32).decode(errors="replace").strip()
            except OSError:  # Windows lets nobody else read a locked region
                holder = ""
            os.close(fd)
            who = f" (process {holder})" if holder.isdigit() else ""
            raise StoreError(
                f"another classroom service{who} uses {where}; one service keeps one database: stop "
                "that one first, or give this one another database with --db"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self.fd: int | None = fd

    def release(self) -> None:
        """Let the file go (the lock file stays: removing it could let two services in at once)."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _check_file(path: Path) -> None:
    """Refuse, in one sentence, a path that cannot hold the rooms, before SQLite touches it."""
    where = _inputs.path_text(path)
    if path.is_dir():
        raise StoreError(f"{where} is a folder; give --db a file name inside it, like {where}/rooms.sqlite")
    if not path.parent.is_dir():
        raise StoreError(f"the folder of {where} does not exist; make it, or give --db another place")
    if not path.exists():
        return
    try:
        with path.open("rb") as file:
            head = file.read(100)
    except OSError as error:
        raise StoreError(f"{where} cannot be read ({error.strerror or error})") from None
    if not head:
        raise StoreError(
            f"{where} is empty (0 bytes), so its rooms are gone: it may have been cut short or emptied; "
            "start the service with a copy saved earlier, or move the file away to start with no rooms"
        )
    if not head.startswith(_SQLITE_HEADER) or len(head) < 100:
        raise StoreError(
            f"{where} is not a database of the room service (not even SQLite: it may have been overwritten "
            "or cut short); start the service with a copy saved earlier, or give --db another file"
        )
    # Checked twice, a moment apart: SQLite copying its log into the file (a checkpoint of a
    # service still running) looks, for that moment, like a file replaced under its log.
    if stale_log(path) and (time.sleep(0.2) or stale_log(path)):
        log, index = path.name + "-wal", path.name + "-shm"
        raise StoreError(
            f"{where} was replaced after its log of changes {log!r} was last written, so the log belongs "
            f"to another state of it and is not used; if you put a saved copy back, delete {log!r} and "
            f"{index!r}, then start the service again; if you copied the file with its log, copy "
            "them again keeping their times (cp -p)"
        )


def _keep_copy(path: Path, version: int) -> Path:
    """The teacher's copy of a store of an earlier version, beside it (:func:`keep_copy`)."""
    source = sqlite3.connect(path)
    try:
        target = keep_copy(source, path, version)
    except sqlite3.Error as error:
        raise StoreError(
            f"{_inputs.path_text(path)} is of an earlier version and a copy of it could not be kept "
            f"beside it before the upgrade: {trouble(error)}"
        ) from None
    finally:
        source.close()
    if target is None:
        raise StoreError(f"{_inputs.path_text(path)}: 99 copies of it are kept beside it; move some away")
    return target


class Store:
    """The rooms and the players' tokens, in the database at ``url``.

    Opening checks the database (see the module's help) and, for a SQLite file, takes its lock
    until :meth:`close`; anything wrong raises :class:`StoreError` with one sentence.
    """

    def __init__(self, url: str = "sqlite:///classroom.sqlite") -> None:
        self.url = database_url(url)
        parsed = sa.engine.make_url(self.url)
        self.path = _sqlite_file(parsed)
        self.where = (
            _inputs.path_text(self.path) if self.path else parsed.render_as_string(hide_password=True)
        )
        self.set_aside: dict[str, str] = {}
        """Rooms that could not be loaded, by code: the reason, in one sentence each."""
        self._saved: dict[str, str] = {}  # each room's text as last committed
        self._lock: _Lock | None = None
        self.kept: Path | None = None
        """The copy of an earlier version's file kept beside it before it was upgraded, if one was."""
        self._threads: ThreadPoolExecutor | None = None
        self._turn: _Turn | None = None
        self.engine: sa.engine.Engine | None = None
        # SQLite in memory is one database per thread (SQLAlchemy's pool for it): its work stays
        # on the caller's thread; it touches no disk, so it never holds up the loop for long.
        self.in_memory = parsed.get_backend_name() == "sqlite" and self.path is None
        try:
            if self.path is not None:
                if self.path.parent.is_dir() and not self.path.is_dir():
                    self._lock = _Lock(self.path)
                _check_file(self.path)
            new = self.path is None or not self.path.exists()
            sqlite = parsed.get_backend_name() == "sqlite"
            self.engine = sa.create_engine(self.url, connect_args={"timeout": WAIT_SECONDS} if sqlite else {})
            if sqlite:
                self._prepare_sqlite(new)
                if self.path is not None:
                    self._turn = _Turn(self.engine)
            else:
                self._prepare_other()
        except StoreError:
            self.close()
            raise
        except (sa.exc.SQLAlchemyError, OSError) as error:
            self.close()
            raise StoreError(f"{self.where} cannot be opened: {trouble(error)}") from None

    # -- opening: is the database ours? -------------------------------------------------------

    def _prepare_sqlite(self, new: bool) -> None:
        assert self.engine is not None
        with self.engine.connect() as db:
            application = db.exec_driver_sql("PRAGMA application_id").scalar()
            version = db.exec_driver_sql("PRAGMA user_version").scalar()
            objects = db.exec_driver_sql("SELECT type, name FROM sqlite_master").fetchall()
            tables = {name for kind, name in objects if kind == "table" and not name.startswith("sqlite_")}
            if application not in (0, APPLICATION_ID):
                raise StoreError(
                    f"{self.where} is another program's database (its application_id is {application:#x}); "
                    "the room service needs a file of its own: give --db another file"
                )
            others = sorted(tables - set(_OURS))
            # A trigger of another program could delete each room as it is saved.
            extra = foreign_object(objects, (ix.name for t in _META.tables.values() for ix in t.indexes))
            if others or extra or (application == 0 and not new and not tables):
                what = (
                    f"it holds the tables {_words.and_list(others[:4])}"
                    if others
                    else f"it holds {extra}"
                    if extra
                    else "an SQLite file with no tables that the room service did not make"
                )
                raise StoreError(
                    f"{self.where} is another program's database ({what}); the room service needs a "
                    "file of its own and adds nothing to it: give --db another file"
                )
            if application == APPLICATION_ID and version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.where} was written by a newer version of setwidgets (schema {version}, this "
                    f"one reads {SCHEMA_VERSION}); start the service of that version"
                )
            self._check_shapes(db, tables)
            if application == APPLICATION_ID and set(_OURS) - tables:
                missing = _words.and_list(sorted(set(_OURS) - tables))
                raise StoreError(
                    f"{self.where} is damaged: its tables {missing} are missing; start the service with "
                    "a copy saved earlier, or move the file away to start with no rooms"
                )
            if tables:
                # A damaged page would otherwise go unnoticed until a room on it is saved or loaded.
                verdict = db.exec_driver_sql("PRAGMA quick_check").scalar()
                if verdict != "ok":
                    raise StoreError(
                        f"{self.where} is damaged (SQLite finds {_inputs.short(verdict)}); start the "
                        "service with a copy saved earlier, or move the file away to start with no rooms"
                    )
        # Only now, the file known to be ours (or new), is it put in write-ahead logging: that mode
        # is written into the file itself, which another program's file must never be.
        self.engine.dispose()
        if application == 0 and tables and self.path is not None:
            # A file of the first version is stamped below: the teacher keeps it as it was.
            self.kept = _keep_copy(self.path, version)
        sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        with self.engine.begin() as db:
            # A new file, or one of the first version (our tables, no application_id), is stamped
            # in the same transaction that makes its tables: a file is ours whole, or not at all.
            db.exec_driver_sql(f"PRAGMA application_id = {APPLICATION_ID}")
            db.exec_driver_sql(f"PRAGMA user_version = {SCHEMA_VERSION}")
            _META.create_all(db)

    def _prepare_other(self) -> None:
        """Another database (PostgreSQL, say) has no application_id: our tables must be ours in shape."""
        assert self.engine is not None
        with self.engine.begin() as db:
            tables = set(sa.inspect(db).get_table_names())
            self._check_shapes(db, tables)
            _META.create_all(db)

    def _check_shapes(self, db: Any, tables: set[str]) -> None:
        inspector = sa.inspect(db)
        for name, expected in _OURS.items():
            if name not in tables:
                continue
            found = [column["name"] for column in inspector.get_columns(name)]
            if sorted(found) != sorted(expected):
                raise StoreError(
                    f"{self.where} has a table {name} of another shape (its columns are "
                    f"{_words.and_list(found[:6]) or 'none'}, where the room service keeps "
                    f"{_words.and_list(expected)}): it was made by another program; give --db another file"
                )

    # -- rooms ---------------------------------------------------------------------------------

    def load(self) -> dict[str, Room]:
        """Every room saved, by code, as it was at its last change.

        A room that cannot be read back is left in the database untouched and named in
        :attr:`set_aside` with the reason; the others are loaded.
        """
        rows = self._run(
            lambda db: db.execute(sa.select(_ROOMS.c.code, _ROOMS.c.data)).all(), "read the rooms"
        )
        rooms = {}
        for code, data in rows:
            try:
                if type(code) is not str or type(data) is not str:
                    raise RoomError("its row holds something other than text")
                try:
                    saved = json.loads(data)
                except ValueError as error:  # a sentence, not a raw JSONDecodeError
                    raise RoomError(f"its row is not JSON ({error})") from None
                room = Room.from_data(saved)
                if room.code != code:
                    raise RoomError(f"its row holds room {_inputs.short(room.code)}")
            except (ValueError, TypeError, RecursionError, RoomError) as damaged:
                label = _inputs.short(code)
                self.set_aside[str(code)] = (
                    f"room {label} in {self.where} cannot be loaded and was set aside (left in the file as "
                    f"it is; the other rooms open): {damaged}"
                )
                continue
            rooms[code] = room
            self._saved[code] = data
        return rooms

    def save(self, room: Room, seat: tuple[str, str] | None = None) -> None:
        """Write ``room`` as it is now, and with it the new player's ``seat`` (token, name) if given.

        Committed when this returns; when the database refuses, :class:`StoreError` says why
        and nothing was written (see :meth:`saved` for the room as it was last saved).
        """
        self.write(room.code, self.text(room), seat)

    def text(self, room: Room) -> str:
        """``room`` as the text :meth:`write` keeps (taken where the room lives: the service's loop)."""
        if room.code in self.set_aside:
            raise StoreError(f"room {room.code} was set aside when the service started; it takes no change")
        try:
            return json.dumps(room.to_data(), allow_nan=False)
        except (TypeError, ValueError) as error:  # never expected; refused like a failed write
            raise StoreError(f"room {room.code} could not be written as JSON: {error}") from None

    def write(self, code: str, data: str, seat: tuple[str, str] | None = None) -> None:
        """Commit room ``code`` as ``data`` (from :meth:`text`), with a new ``seat``; any thread."""

        def write(db: Any) -> None:
            done = db.execute(
                sa.update(_ROOMS).where(_ROOMS.c.code == code).values(data=data, updated=time.time())
            )
            if done.rowcount == 0:
                db.execute(sa.insert(_ROOMS).values(code=code, data=data, updated=time.time()))
            if seat is not None:
                token, name = seat
                db.execute(sa.insert(_SEATS).values(token_hash=_digest(token), code=code, name=name))

        self._run(write, f"save room {code}", commit=True)
        self._saved[code] = data

    async def off_loop(self, work: Callable[..., Any], *args: Any) -> Any:
        """``await store.off_loop(store.write, ...)``: the store's work in its own threads.

        The event loop serves other rooms meanwhile. The caller keeps one room's changes in order
        (the service awaits a room's save before it serves that room's next move).
        """
        if self.in_memory:
            return work(*args)
        if self._threads is None:
            self._threads = ThreadPoolExecutor(THREADS, thread_name_prefix="classroom-store")
        return await asyncio.get_running_loop().run_in_executor(self._threads, work, *args)

    def saved(self, code: str) -> dict[str, Any] | None:
        """Room ``code`` as last committed (for :meth:`Room.restore`), or None when it never was."""
        data = self._saved.get(code)
        return None if data is None else json.loads(data)

    def add_seat(self, token: str, code: str, name: str) -> None:
        """Remember that ``token`` plays as ``name`` in room ``code``."""
        self._run(
            lambda db: db.execute(sa.insert(_SEATS).values(token_hash=_digest(token), code=code, name=name)),
            f"save a seat in room {code}",
            commit=True,
        )

    def seat(self, token: str) -> tuple[str, str] | None:
        """The room and the name ``token`` plays as, or None for a token nobody was given."""
        row = self._run(
            lambda db: db.execute(
                sa.select(_SEATS.c.code, _SEATS.c.name).where(_SEATS.c.token_hash == _digest(token))
            ).first(),
            "read a player's seat",
        )
        return None if row is None else (row[0], row[1])

    def delete(self, code: str) -> None:
        """Forget room ``code`` and its players' tokens (the teacher deleted it, or it expired)."""

        def forget(db: Any) -> None:
            db.execute(sa.delete(_SEATS).where(_SEATS.c.code == code))
            db.execute(sa.delete(_ROOMS).where(_ROOMS.c.code == code))

        self._run(forget, f"delete room {code}", commit=True)
        self._saved.pop(code, None)
        self.set_aside.pop(code, None)

    def close(self) -> None:
        """Let the database and its lock go (the service calls this when it stops)."""
        if self._threads is not None:
            self._threads.shutdown(wait=True)  # a write under way is committed or refused first
            self._threads = None
        if self.engine is not None:
            self.engine.dispose()
        if self._lock is not None:
            self._lock.release()

    def _run(self, work: Any, what: str, commit: bool = False) -> Any:
        """``work(connection)`` in one transaction; a database error becomes a StoreError sentence."""
        if self.engine is None or (self._lock is not None and self._lock.fd is None):
            raise StoreError(f"the store of {self.where} is closed; start the service again")
        try:
            if commit and self._turn is not None:
                with self._turn.around(), self.engine.begin() as db:
                    return work(db)
            with self.engine.begin() if commit else self.engine.connect() as db:
                return work(db)
        except (sa.exc.SQLAlchemyError, StoreError) as error:
            raise StoreError(f"could not {what} in {self.where}: {trouble(error)}") from None
