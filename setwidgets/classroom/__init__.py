"""A live class game: every student plays from their own notebook at one shared table.

- :mod:`~setwidgets.classroom.rooms`: a room, its game and its referee (pure Python);
- :mod:`~setwidgets.classroom.store`: where rooms are kept (SQLite by default);
- :mod:`~setwidgets.classroom.service`: the web service that holds the rooms;
- :mod:`~setwidgets.classroom.client`: :class:`Seat` (a student) and :class:`Desk` (the teacher).

The service needs the ``classroom`` extra (Tornado and SQLAlchemy, which Jupyter and nbgrader
already bring).
"""

from setwidgets.classroom.client import ClassroomError, Desk, Seat
from setwidgets.classroom.rooms import Room, RoomError

__all__ = ["ClassroomError", "Desk", "Room", "RoomError", "Seat"]
