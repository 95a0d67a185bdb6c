"""Where the room service keeps its rooms: a database, SQLite unless told otherwise.

Every change to a room is written here (and committed) before anyone is told of it, so a
service that is stopped or killed and started again resumes every room where it was, with
nothing a player was told lost. The database is named by a SQLAlchemy URL: the default is a
SQLite file; a larger installation may give ``postgresql://...`` (with a driver installed).

>>> store = Store("sqlite://")  # in memory, for this example
>>> from setwidgets.classroom.rooms import Room
>>> store.save(Room("BCDFG", seed=1))
>>> sorted(store.load())
['BCDFG']
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

import sqlalchemy as sa

from setwidgets import _inputs
from setwidgets.classroom.rooms import Room, RoomError

__all__ = ["Store", "database_url"]

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


def _sqlite_pragmas(connection: Any, record: Any) -> None:
    # Write-ahead logging with normal sync: a commit survives the service being killed (the log is
    # written before the commit returns) at a small part of the default's cost of waiting for
    # the disk, which every room would wait for. Only a crash of the machine itself may lose
    # the last changes.
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Store:
    """The rooms and the players' tokens, in the database at ``url``."""

    def __init__(self, url: str = "sqlite:///classroom.sqlite") -> None:
        self.url = database_url(url)
        self.engine = sa.create_engine(self.url)
        if self.engine.dialect.name == "sqlite":
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        _META.create_all(self.engine)

    def load(self) -> dict[str, Room]:
        """Every room saved, by code, as it was at its last change."""
        with self.engine.connect() as db:
            rows = db.execute(sa.select(_ROOMS.c.code, _ROOMS.c.data)).all()
        rooms = {}
        for code, data in rows:
            try:
                rooms[code] = Room.from_data(json.loads(data))
            except (ValueError, RoomError) as damaged:
                raise RoomError(f"room {code} in {self.url} cannot be loaded: {damaged}") from None
        return rooms

    def save(self, room: Room) -> None:
        """Write ``room`` as it is now; committed when this returns."""
        data = json.dumps(room.to_data(), allow_nan=False)
        with self.engine.begin() as db:
            done = db.execute(
                sa.update(_ROOMS).where(_ROOMS.c.code == room.code).values(data=data, updated=time.time())
            )
            if done.rowcount == 0:
                db.execute(sa.insert(_ROOMS).values(code=room.code, data=data, updated=time.time()))

    def add_seat(self, token: str, code: str, name: str) -> None:
        """Remember that ``token`` plays as ``name`` in room ``code``."""
        with self.engine.begin() as db:
            db.execute(sa.insert(_SEATS).values(token_hash=_digest(token), code=code, name=name))

    def seat(self, token: str) -> tuple[str, str] | None:
        """The room and the name ``token`` plays as, or None for a token nobody was given."""
        with self.engine.connect() as db:
            row = db.execute(
                sa.select(_SEATS.c.code, _SEATS.c.name).where(_SEATS.c.token_hash == _digest(token))
            ).first()
        return None if row is None else (row[0], row[1])

    def delete(self, code: str) -> None:
        """Forget room ``code`` and its players' tokens (the teacher deleted it, or it expired)."""
        with self.engine.begin() as db:
            db.execute(sa.delete(_SEATS).where(_SEATS.c.code == code))
            db.execute(sa.delete(_ROOMS).where(_ROOMS.c.code == code))

    def close(self) -> None:
        """Let the database go (the service calls this when it stops)."""
        self.engine.dispose()
