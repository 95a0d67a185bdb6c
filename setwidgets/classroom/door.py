"""The door of a locked room: late players wait for the teacher's yes, or come with a second code.

A room the teacher locked (:meth:`Desk.lock <setwidgets.classroom.Desk.lock>`) lets nobody new
join by its code. A late player still gets in one of two ways, both the teacher's choice:

- **By approval.** Their join is put on the room's waiting list (at most :data:`WAITING` at
  once) and answered with a *ticket*, a secret of their own; the teacher sees the names waiting
  and lets each in or refuses them. Asked again with the ticket, the player learns which: let
  in (on one machine, with their token), or refused. A name is checked when it asks, as a join
  would check it (a look-alike of a player or of another waiting name, a name the teacher took
  out, a full room), and again when it is let in.
- **By a second code.** The teacher asks for a second code (:data:`CODE_SECONDS` valid, for one
  join) and hands it to the late player, who joins with it instead of the room's code.

Who waits and the second codes are kept in the service's memory, not in the database: a service
started again has none, and a player waiting asks again. Refusals name nobody but the one refused.

>>> from setwidgets.classroom.rooms import Room
>>> room = Room("BCDFG", seed=1, clock=lambda: 0.0)
>>> _ = room.join("Ana")
>>> room.locked = True
>>> doors = Doors(clock=lambda: 0.0)
>>> waiter = doors.ask(room, "Ben", "")
>>> doors.names("BCDFG"), waiter.state
(['Ben'], 'waiting')
>>> admit(room, "Ben", "")["ok"], room.locked
(True, True)
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from setwidgets import _inputs
from setwidgets.classroom.limits import CODE_LENGTH, LETTERS
from setwidgets.classroom.rooms import Room, RoomError
from setwidgets.game.inputs import look_alike

__all__ = ["CODE_SECONDS", "WAITING", "Doors", "Waiter", "admit"]

WAITING = 30
"""Players waiting at once at the door of one room; the next is told the list is full."""

CODE_SECONDS = 600.0
"""How long a second code lets one late player in (it is used up by that join)."""


@dataclass
class Waiter:
    """A late player at the door: their name and team, their ticket, and the teacher's answer."""

    name: str
    team: str
    ticket: str
    state: str = "waiting"  # then "in" (let in) or "refused"
    token: str | None = None  # on one machine: the seat's token, given once they ask again


def admit(room: Room, name: str, team: str) -> dict[str, Any]:
    """Seat ``name`` in ``room`` past its lock (the teacher let them in): :meth:`Room.join`'s checks all hold.

    The lock keeps out whom the teacher did not let in; it is lifted for this join alone, with
    nothing awaited in between, so that no other join passes meanwhile.
    """
    locked, room.locked = room.locked, False
    try:
        return room.join(name, team)
    finally:
        room.locked = locked


class Doors:
    """The doors of every room of a service: who waits at each, and the second codes handed out."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.waiting: dict[str, dict[str, Waiter]] = {}  # room code -> ticket -> waiter
        self.codes: dict[str, tuple[str, float]] = {}  # second code -> (room code, valid until)

    # -- second codes -------------------------------------------------------------------------------

    def second_code(self, code: str, taken: Callable[[str], bool]) -> str:
        """A new second code for room ``code`` (never a room's code, ``taken``, nor another's)."""
        now = self.clock()
        self.codes = {c: (r, until) for c, (r, until) in self.codes.items() if until > now}
        if sum(r == code for r, _ in self.codes.values()) >= WAITING:
            raise RoomError(
                f"room {code} has {WAITING} second codes unused already; wait until they are used or run out"
            )
        while True:
            second = "".join(secrets.choice(LETTERS) for _ in range(CODE_LENGTH))
            if second not in self.codes and not taken(second):
                self.codes[second] = (code, now + CODE_SECONDS)
                return second

    def room_of(self, second: str) -> str | None:
        """The room a valid second code lets into, or None."""
        found = self.codes.get(second.upper())
        if found is None or found[1] <= self.clock():
            return None
        return found[0]

    def use(self, second: str) -> None:
        """A second code let its player in: it lets nobody else in."""
        self.codes.pop(second.upper(), None)

    # -- the waiting list ---------------------------------------------------------------------------

    def names(self, code: str) -> list[str]:
        """The names waiting at room ``code``'s door, in the order they came."""
        return [w.name for w in self.waiting.get(code, {}).values() if w.state == "waiting"]

    def waiter(self, code: str, ticket: Any) -> Waiter | None:
        """The waiter of room ``code`` holding ``ticket``, or None."""
        if type(ticket) is not str:
            return None
        for held, waiter in self.waiting.get(code, {}).items():
            if secrets.compare_digest(held, ticket):
                return waiter
        return None

    def ask(self, room: Room, name: str, team: str) -> Waiter:
        """Put ``name`` on ``room``'s waiting list (as a join would check it); RoomError says why not."""
        at_door = self.waiting.setdefault(room.code, {})
        if room.status == "ended":
            raise RoomError(f"room {room.code} has ended; ask your teacher for the code of a new room")
        room.check_newcomer(name)
        waiting = {w.name: w for w in at_door.values() if w.state == "waiting"}
        if look_alike(name, room.members) is not None or look_alike(name, waiting) is not None:
            raise RoomError(
                f"the name {_inputs.short(name)} is taken in room {room.code}, or looks like one that is "
                "(or one waiting to join); choose another name"
            )
        if len(waiting) >= WAITING:
            raise RoomError(
                f"room {room.code} is locked and {WAITING} players wait to be let in already; "
                "ask your teacher"
            )
        # Answers the teacher gave that nobody came back for are forgotten first, oldest first.
        while len(at_door) >= 2 * WAITING:
            del at_door[next(t for t, w in at_door.items() if w.state != "waiting")]
        waiter = Waiter(name, team, secrets.token_urlsafe(18))
        at_door[waiter.ticket] = waiter
        return waiter

    def waiting_as(self, code: str, name: Any) -> Waiter:
        """The player waiting at room ``code``'s door as ``name`` (for the teacher's answer)."""
        for waiter in self.waiting.get(code, {}).values():
            if waiter.state == "waiting" and waiter.name == name:
                return waiter
        raise RoomError(f"nobody called {_inputs.short(name)} waits to join room {code}")

    def done(self, code: str, waiter: Waiter) -> None:
        """The waiter came back for the teacher's answer: they leave the list."""
        self.waiting.get(code, {}).pop(waiter.ticket, None)

    def forget(self, code: str) -> None:
        """Room ``code`` was deleted: its waiting list and second codes go with it."""
        self.waiting.pop(code, None)
        self.codes = {c: (r, until) for c, (r, until) in self.codes.items() if r != code}
