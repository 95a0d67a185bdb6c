"""The room service: a small Tornado web application that holds the class's rooms.

It runs on what Jupyter itself runs on (Tornado, with WebSockets to push each change of a
table to every player). Start it with ``python3 course.py classroom`` on one machine, or let
JupyterHub start it (deploy/jupyterhub_config.py); students reach it through
:class:`setwidgets.classroom.Seat` and the widgets, never by hand.

The routes, under the service's prefix (``/`` alone, or the hub's ``/services/classroom/``):

- ``POST api/rooms`` (the teacher): open a room; the body holds its settings, as for
  :class:`~setwidgets.classroom.rooms.Room`. The answer holds the room's join ``code``.
- ``GET api/rooms`` (the teacher): the rooms, each with its status and players.
- ``GET api/rooms/CODE`` (the teacher or a player of the room): the room's view.
- ``DELETE api/rooms/CODE`` (the teacher): close the room's sockets and forget the room.
- ``POST api/rooms/CODE/join`` (anyone with the code; on the hub, a user of the hub): take a
  seat. On one machine the answer holds the player's own token.
- ``GET api/rooms/CODE/socket`` (a WebSocket; the teacher or a player of the room): the room's
  view on every change, and the player's moves (:mod:`setwidgets.classroom.rooms` lists them).

Every request names its sender by a token, in an ``Authorization: token ...`` header (or a
``token`` query parameter). Each change is saved in the store before anyone is told of it.
The saves are written in the store's own threads (:meth:`Store.off_loop`): while one room's
save is under way, that room's next move waits for it, and every other room is served.

What one sender may cost the others is bounded by who they are, never by how many connections
they open: :mod:`setwidgets.classroom.limits` holds the limits, docs/classroom.md states them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any

from tornado import iostream, web, websocket
from tornado.ioloop import IOLoop, PeriodicCallback

from setwidgets import _inputs
from setwidgets.classroom.door import Doors
from setwidgets.classroom.identity import (
    NO_TOKEN,
    Identity,
    LocalTokens,
    identity_key,
)
from setwidgets.classroom.identity import admit as _admit
from setwidgets.classroom.limits import (
    CODE_LENGTH,
    CONTROL_RATE,
    COOL_DOWN,
    ENDED_KEEP_SECONDS,
    IDLE_SECONDS,
    LETTERS,
    MAX_CONNECTIONS,
    MAX_MESSAGE,
    MAX_ROOMS,
    MAX_UNREAD,
    NUMBER_FIELD,
    PING_SECONDS,
    RATE,
    REQUEST_RATE,
    SEND_BUFFER,
    SENDERS,
    SOCKETS_PER_PLAYER,
    SOCKETS_PER_TEACHER,
    STRIKES,
    TOO_MANY,
    files_limit,
    log,
    log_request,
    read_json,
    server,
)
from setwidgets.classroom.limits import Bucket as _Bucket
from setwidgets.classroom.rooms import Room
from setwidgets.classroom.routes import (
    BaseHandler,
    DoorHandler,
    JoinHandler,
    RoomHandler,
    RoomsHandler,
    no_room,
)
from setwidgets.classroom.store import Store, StoreError

__all__ = ["LETTERS", "MAX_ROOMS", "Classroom", "Identity", "LocalTokens", "make_app"]


class Classroom:
    """The service's state: the rooms (as saved in ``store``), their sockets and their timers."""

    def __init__(self, store: Store, authority: Any, clock: Callable[[], float] = time.time) -> None:
        self.store, self.authority, self.clock = store, authority, clock
        self.rooms: dict[str, Room] = store.load()
        for sentence in store.set_aside.values():
            log.warning("%s", sentence)  # the teacher reads it in the terminal; the other rooms play on
        self.sockets: dict[str, set[RoomSocket]] = {}
        self.timers: dict[str, Any] = {}
        self.buckets: dict[str, _Bucket] = {}
        # Each identity's open sockets and its one budget of messages, whichever socket they come by.
        self.held: dict[str, set[RoomSocket]] = {}
        self.messages: dict[str, _Bucket] = {}
        self.controls: dict[str, _Bucket] = {}  # the same, for ping and pong frames
        self.cooling: dict[str, float] = {}  # identity -> the time.monotonic() its cool-down ends
        # When each ended room was seen ended (on the wall clock): it is deleted ENDED_KEEP_SECONDS later.
        self.ended: dict[str, float] = {}
        self.ended_keep = ENDED_KEEP_SECONDS
        # One lock per room, held from a change to its commit: the room's next move, and anyone
        # reading its view, waits for the save, while the loop serves the other rooms.
        self.guards: dict[str, asyncio.Lock] = {}
        self.doors = Doors()  # who waits at a locked room's door, and the second codes handed out

    def guard(self, code: str) -> asyncio.Lock:
        """The lock of room ``code``: ``async with classroom.guard(code):`` around a change and its save."""
        found = self.guards.get(code)
        if found is None:
            found = self.guards[code] = asyncio.Lock()
        return found

    def allows(self, sender: str) -> bool:
        """True when ``sender`` (an identity or an address) may send one more request now."""
        if sender not in self.buckets and len(self.buckets) >= SENDERS:
            # Forget the senders that have been quiet long enough to have a full budget again; a
            # flood from more senders than that is refused (never a reset that lets them all in).
            for key in [k for k, b in self.buckets.items() if b.full()]:
                del self.buckets[key]
            if len(self.buckets) >= SENDERS:
                return False
        bucket = self.buckets.setdefault(sender, _Bucket(*REQUEST_RATE))
        return bucket.take()

    def may_send(self, identity: Identity) -> bool:
        """True when ``identity`` may have one more message served now (over all its sockets)."""
        return _take(self.messages, identity, RATE)

    def may_control(self, identity: Identity) -> bool:
        """True when ``identity`` may send one more ping or pong frame now (over all its sockets)."""
        return _take(self.controls, identity, CONTROL_RATE)

    def start(self) -> None:
        """Set the timers of calls pending when the service last stopped, and the rooms' expiry."""
        for room in self.rooms.values():
            self.expire(room)
        self.sweep()
        # Ended rooms are looked at every minute (or sooner, when they are kept a short time).
        every = min(60.0, max(0.2, self.ended_keep / 4))
        PeriodicCallback(self.sweep, every * 1000).start()

    def sweep(self) -> None:
        """Delete the rooms that ended more than ``ended_keep`` seconds ago; forget idle budgets."""
        now = self.clock()
        for code, room in list(self.rooms.items()):
            if room.status != "ended":
                self.ended.pop(code, None)
            elif now - self.ended.setdefault(code, now) >= self.ended_keep:
                IOLoop.current().spawn_callback(self._expired, code, room)
        for key in [k for k, b in self.messages.items() if k not in self.held and b.full()]:
            del self.messages[key]

    async def _expired(self, code: str, room: Room) -> None:
        try:
            await self.delete(code, room)
        except StoreError as failed:
            log.error("%s", failed)  # the room stays; the next sweep tries again

    async def delete(self, code: str, room: Room | None = None) -> None:
        """Forget room ``code``: its sockets are closed, its timer stopped, its saved copy deleted.

        With ``room``: only if ``code`` is still that room once its save under way is done."""
        async with self.guard(code):
            if code not in self.rooms or (room is not None and self.rooms[code] is not room):
                return
            # First: a room the store could not delete stays, in memory as on disk.
            await self.store.off_loop(self.store.delete, code)
            self._forget(code)

    def _forget(self, code: str) -> None:
        forget = getattr(self.authority, "forget", None)
        if forget is not None:
            forget(code)  # its players' tokens are no longer anyone's
        self.rooms.pop(code)
        old = self.timers.pop(code, None)
        if old is not None:
            IOLoop.current().remove_timeout(old)
        self.ended.pop(code, None)
        self.guards.pop(code, None)  # those waiting on it find the room gone
        self.doors.forget(code)
        for each in list(self.sockets.pop(code, ())):
            try:
                each.close(1001, f"room {code} was deleted by the teacher")
            except iostream.StreamBufferFullError:  # a client that reads nothing
                each._drop()

    def new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(LETTERS) for _ in range(CODE_LENGTH))
            if code not in self.rooms and code not in self.store.set_aside and code not in self.doors.codes:
                return code

    async def changed(self, room: Room, seat: tuple[str, str] | None = None) -> str | None:
        """Save ``room`` (with a new player's ``seat``: token and name), then tell every socket of it.

        The caller holds the room's :meth:`guard` from the change until this returns. Returns
        None when saved. When the store refuses (a full disk, say), the room goes back to what
        was last saved, so that the room served is the one on disk and nobody is told of a
        change a restart would lose; the sentence returned says so, for the sender.
        """
        try:
            # The text is taken here, on the loop where the room lives; only the writing waits.
            await self.store.off_loop(self.store.write, room.code, self.store.text(room), seat)
        except StoreError as failed:
            log.error("%s", failed)
            self.undo(room)
            return f"this was not done: the service could not save it ({failed}); try again later"
        self.broadcast(room)
        self.schedule(room)
        return None

    def undo(self, room: Room) -> None:
        """Put ``room`` back as the store last saved it (a room never saved is forgotten)."""
        saved = self.store.saved(room.code)
        if saved is None:
            self.rooms.pop(room.code, None)
        else:
            room.restore(saved)

    def broadcast(self, room: Room) -> None:
        """Send the room's new view to each of its sockets, written out once for all."""
        public, teacher = _written(room.view()), None
        for each in list(self.sockets.get(room.code, ())):
            if each.identity.teacher:
                teacher = teacher or _written(room.view(teacher=True))
            each.push(teacher if each.identity.teacher else public)

    def tell_teacher(self, room: Room) -> None:
        """Send the teacher's sockets of ``room`` its view again: who waits at its door changed."""
        teacher = None
        for each in list(self.sockets.get(room.code, ())):
            if each.identity.teacher:
                teacher = teacher or _written(room.view(teacher=True))
                each.push(teacher)

    def schedule(self, room: Room) -> None:
        """Wake up when the caller holding the call runs out of time."""
        old = self.timers.pop(room.code, None)
        loop = IOLoop.current()
        if old is not None:
            loop.remove_timeout(old)
        deadline = room.deadline()
        if deadline is not None:
            wait = max(0.0, deadline - self.clock()) + 0.01
            self.timers[room.code] = loop.call_later(wait, self.expire, room)

    def expire(self, room: Room) -> None:
        """The timer of ``room`` rang: its late callers lose a point, once the room's save in hand is done."""
        self.timers.pop(room.code, None)
        IOLoop.current().spawn_callback(self._expire, room)

    async def _expire(self, room: Room) -> None:
        async with self.guard(room.code):
            if self.rooms.get(room.code) is not room or room.code in self.timers:
                return  # deleted meanwhile, or a move meanwhile set the timer again
            if not room.expire():
                self.schedule(room)
            elif await self.changed(room) is not None:
                # Not saved, so not given: try again in a second (the disk may have room by then).
                self.timers[room.code] = IOLoop.current().call_later(1.0, self.expire, room)


def _written(view: dict[str, Any]) -> bytes:
    """A view as UTF-8 JSON, ending in ``}`` so that each client's own part is added once written.

    Written and encoded once per change for all the room's sockets: each socket then costs the
    few bytes of its own part (a room of 100 sends some 900 KB a change)."""
    return json.dumps(view).encode()


class RoomSocket(websocket.WebSocketHandler):
    """One client's connection to one room: the room's view on each change, and its moves."""

    def initialize(self, classroom: Classroom) -> None:
        self.classroom = classroom
        # Refusals for the rate have a budget of their own: a socket that keeps sending faster than
        # the rate, by more than STRIKES messages, is closed.
        self.refusals = _Bucket(RATE[0], STRIKES)
        self.closing = False
        self.key: str | None = None

    def check_origin(self, origin: str) -> bool:
        # The token, not a cookie, says who connects: a page of another site has no token to send.
        return True

    _request_summary = BaseHandler._request_summary
    log_exception = BaseHandler.log_exception
    write_error = BaseHandler.write_error

    async def prepare(self) -> None:
        self.set_header("Content-Type", "application/json; charset=utf-8")
        found = await _admit(self, self.classroom)
        if found is None:
            raise web.HTTPError(401, NO_TOKEN)
        code = self.path_args[0].upper()
        if not found.teacher and found.code not in (None, code):
            raise web.HTTPError(403, f"you have not joined room {_inputs.short(code)[1:-1]}")
        room = self.classroom.rooms.get(code)
        if room is None:
            raise no_room(self.path_args[0])
        # A player the teacher took out may still watch the table (every move of theirs is refused,
        # within the same budgets): the projector shows them the same anyway.
        if not found.teacher and found.name not in room.members:
            raise web.HTTPError(403, f"you have not joined room {room.code}")
        key = identity_key(found)
        wait = self.classroom.cooling.get(key, 0.0) - time.monotonic()
        if wait > 0:
            raise web.HTTPError(
                429,
                f"you sent more messages than the service serves; wait {math.ceil(wait)} seconds "
                "before connecting again",
            )
        self.classroom.cooling.pop(key, None)
        most = SOCKETS_PER_TEACHER if found.teacher else SOCKETS_PER_PLAYER
        if len(self.classroom.held.get(key, ())) >= most:
            raise web.HTTPError(
                429,
                f"you have {most} connections open already, the most one "
                f"{'teacher' if found.teacher else 'player'} may hold; close one (an old tab) first",
            )
        self.identity, self.room, self.key = found, room, key
        # Counted now, before the upgrade: sockets opened together cannot all pass the check.
        self.classroom.held.setdefault(key, set()).add(self)

    async def open(self, code: str) -> None:
        # Tornado keeps what a client has not read without limit: past MAX_UNREAD, a write raises
        # (see _send) and the socket is closed.
        stream = self.ws_connection.stream
        stream.max_write_buffer_size = MAX_UNREAD
        with contextlib.suppress(OSError):  # a socket already gone: its close is under way
            stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        self.classroom.sockets.setdefault(self.room.code, set()).add(self)
        async with self.classroom.guard(self.room.code):  # the room as saved, not a change being written
            if self.classroom.rooms.get(self.room.code) is self.room:
                self.push(_written(self.room.view(teacher=self.identity.teacher)))

    def on_connection_close(self) -> None:
        self._let_go()
        super().on_connection_close()

    def on_close(self) -> None:
        self._let_go()

    def on_finish(self) -> None:
        if self.ws_connection is None:
            self._let_go()  # refused or failed before the upgrade

    def _let_go(self) -> None:
        if self.key is not None:
            held = self.classroom.held.get(self.key, set())
            held.discard(self)
            if not held:
                self.classroom.held.pop(self.key, None)
        if getattr(self, "room", None) is not None:
            self.classroom.sockets.get(self.room.code, set()).discard(self)

    def push(self, view: bytes) -> None:
        """Send ``view`` (JSON text from :func:`_written`) with what only this client is told."""
        if self.identity.teacher:
            waiting = self.classroom.doors.names(self.room.code)
            you = {"teacher": True, "last_n": self.room.teacher_n, "waiting": waiting}
        else:
            you = self.room.you(self.identity.name)
        # Sent as a text frame (binary=False): bytes are UTF-8 JSON already.
        self._send(view[:-1] + b', "you": ' + json.dumps(you).encode() + b"}")

    def _send(self, data: bytes | str) -> None:
        """Write ``data`` to this client; one that has left :data:`MAX_UNREAD` bytes unread is closed."""
        if self.closing:
            return
        try:
            sent = self.write_message(data)
        except websocket.WebSocketClosedError:
            self.on_close()
            return
        except iostream.StreamBufferFullError:
            self._drop()
            return
        # The write's outcome is looked at: a socket closed meanwhile is no error of the service's
        # (unlooked at, asyncio logged a traceback for each write to a client that had gone).
        sent.add_done_callback(_looked_at)

    def _shut(self, reason: str) -> None:
        """Close this socket with code 1008 and ``reason``, and at once: not after the usual 5 s
        wait for the client's answer, all the while reading the frames it still sends."""
        self.closing = True
        if self.ws_connection is None:
            return
        with contextlib.suppress(iostream.StreamBufferFullError):  # a client that reads nothing
            self.close(1008, reason)
        self._drop()

    def _drop(self) -> None:
        """Close this socket at once, without a close frame (its client reads nothing, or floods)."""
        self.closing = True
        if self.ws_connection is not None:
            self.ws_connection.stream.close()

    def on_ping(self, data: bytes) -> None:
        # Tornado has answered it already (one pong at most waits to be sent); the frame is counted.
        if not self.closing and not self.classroom.may_control(self.identity):
            self._drop()

    def on_pong(self, data: bytes) -> None:
        if not self.closing and not self.classroom.may_control(self.identity):
            self._drop()

    def on_message(self, text: str | bytes) -> Awaitable[None] | None:
        # The budget is taken first, for every frame: a malformed one costs as much as a move.
        # A frame refused here is answered at once; only a move to serve gives Tornado something to
        # await (which it does before this socket's next frame), so a flood costs no task a frame.
        if self.closing:
            return None  # closed already: a frame that was under way is not served
        if not self.classroom.may_send(self.identity):
            if not self.refusals.take():
                self.closing = True
                if not self.identity.teacher:
                    self.classroom.cooling[self.key] = time.monotonic() + COOL_DOWN
                    for other in list(self.classroom.held.get(self.key, ())):
                        if other is not self and other.ws_connection is not None:
                            other._shut("another connection of yours sent too many messages")
                self._shut(TOO_MANY.split(";")[0] + "; this connection is closed")
            else:
                # The number is looked for, not parsed: an honest client's wait ends at once.
                found = NUMBER_FIELD.search(text[:200]) if isinstance(text, str) else None
                self.reply(int(found[1]) if found else None, {"ok": False, "message": TOO_MANY})
            return None
        try:
            message = read_json(text, "a message")
        except ValueError as refused:
            self.reply(None, {"ok": False, "message": str(refused)})
            return None
        return self._serve(message)

    async def _serve(self, message: Any) -> None:
        """Serve one move under its room's lock, and answer once its change is saved."""
        n = message.get("n") if isinstance(message, dict) else None
        room = self.room
        # Tornado serves this socket's next message once this one is answered; other sockets' go on.
        async with self.classroom.guard(room.code):
            if self.classroom.rooms.get(room.code) is not room:
                answer = {"ok": False, "message": f"room {room.code} was deleted by the teacher"}
            else:
                version = room.version
                if self.identity.teacher:
                    answer = room.teach(message)
                else:
                    answer = room.play(self.identity.name, message)
                if room.version != version:
                    failed = await self.classroom.changed(room)
                    if failed is not None:
                        answer = {"ok": False, "message": failed}
        self.reply(n, answer)

    def reply(self, n: Any, answer: dict[str, Any]) -> None:
        n = n if type(n) is int else None
        self._send(json.dumps({"type": "reply", **answer, "n": n}))


def _take(buckets: dict[str, _Bucket], identity: Identity, rate: tuple[float, int]) -> bool:
    """Take one from ``identity``'s bucket in ``buckets`` (made full, at ``rate``, when first needed)."""
    key = identity_key(identity)
    bucket = buckets.get(key)
    if bucket is None:
        bucket = buckets[key] = _Bucket(*rate)
    return bucket.take()


def _looked_at(sent: asyncio.Future) -> None:
    if not sent.cancelled():
        sent.exception()  # a client gone: nothing to do, and nothing for asyncio to log


def make_app(classroom: Classroom, prefix: str = "/") -> web.Application:
    """The service's Tornado application, its routes under ``prefix``."""
    prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
    code = r"([A-Za-z]{1,16})"
    options = {"classroom": classroom}
    return web.Application(
        [
            (prefix + "api/rooms", RoomsHandler, options),
            (prefix + f"api/rooms/{code}", RoomHandler, options),
            (prefix + f"api/rooms/{code}/join", JoinHandler, options),
            (prefix + f"api/rooms/{code}/door", DoorHandler, options),
            (prefix + f"api/rooms/{code}/socket", RoomSocket, options),
        ],
        websocket_max_message_size=MAX_MESSAGE,
        websocket_ping_interval=PING_SECONDS,
        websocket_ping_timeout=PING_SECONDS,  # Tornado allows no longer than the interval
        log_function=log_request,
    )


async def serve(
    store: Store,
    authority: Any,
    port: int,
    address: str = "127.0.0.1",
    prefix: str = "/",
    idle: float = IDLE_SECONDS,
    ended_keep: float = ENDED_KEEP_SECONDS,
    connections: int = MAX_CONNECTIONS,
) -> None:
    """Run the service until it is stopped."""
    classroom = Classroom(store, authority)
    classroom.ended_keep = ended_keep
    app = make_app(classroom, prefix)
    # Files for the database, the log and the listening socket stay free whatever the sockets take.
    most = max(16, min(connections, files_limit() - 64))
    server(app, most, idle).listen(port, address)
    classroom.start()
    await asyncio.Event().wait()
