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
- ``POST api/rooms/CODE/join`` (anyone with the code; on the hub, a user of the hub): take a
  seat. On one machine the answer holds the player's own token.
- ``GET api/rooms/CODE/socket`` (a WebSocket; the teacher or a player of the room): the room's
  view on every change, and the player's moves (:mod:`setwidgets.classroom.rooms` lists them).

Every request names its sender by a token, in an ``Authorization: token ...`` header (or a
``token`` query parameter). Each change is saved in the store before anyone is told of it.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tornado import web, websocket
from tornado.ioloop import IOLoop

from setwidgets import _inputs
from setwidgets.classroom.rooms import Room, RoomError
from setwidgets.classroom.store import Store, StoreError

__all__ = [
    "LETTERS",
    "MAX_MESSAGE",
    "MAX_ROOMS",
    "RATE",
    "REQUEST_RATE",
    "Classroom",
    "Identity",
    "LocalTokens",
    "make_app",
]

LETTERS = "BCDFGHJKLMNPQRSTVWXZ"
"""The letters of a join code: consonants only, so that no code spells a word."""

CODE_LENGTH = 5
MAX_ROOMS = 1000
"""The rooms one service holds; a teacher opens a new room per game session."""

MAX_MESSAGE = 4096
"""The longest message a client may send, in bytes (a move is some 80)."""

RATE = (10.0, 20)
"""A client's messages: 10 a second on average, 20 at once; beyond that they are refused."""

REQUEST_RATE = (5.0, 60)
"""Requests to open or join a room from one sender (a token, or an address for requests without
one): 5 a second on average, 60 at once (a whole class on one Lab server joins from one address)."""

TOO_MANY = f"too many messages: at most {RATE[0]:g} a second; this one was not served, send it again later"
log = logging.getLogger("setwidgets.classroom")


@dataclass(frozen=True)
class Identity:
    """Who sent a request: the teacher, or the player ``name`` (of room ``code`` on one machine)."""

    teacher: bool
    name: str | None = None
    code: str | None = None


class LocalTokens:
    """Who is who on one machine: one teacher token, and a token for each player who joined."""

    def __init__(self, store: Store, teacher_token: str) -> None:
        self.store = store
        self.teacher_token = teacher_token

    def identify(self, token: str | None) -> Identity | None:
        """The identity ``token`` gives, or None."""
        if not token:
            return None
        if secrets.compare_digest(token, self.teacher_token):
            return Identity(teacher=True)
        seat = self.store.seat(token)
        return None if seat is None else Identity(teacher=False, code=seat[0], name=seat[1])

    def join_name(self, identity: Identity | None, body: dict[str, Any]) -> Any:
        """On one machine a player chooses their name."""
        return body.get("name")

    def new_token(self) -> str | None:
        return secrets.token_urlsafe(24)


class _Bucket:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.at = float(burst), clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


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

    def allows(self, sender: str) -> bool:
        """True when ``sender`` (a token or an address) may ask to open or join a room once more now."""
        if sender not in self.buckets and len(self.buckets) >= 10_000:
            self.buckets.clear()  # a flood from many senders: start counting again
        bucket = self.buckets.setdefault(sender, _Bucket(*REQUEST_RATE))
        return bucket.take()

    def start(self) -> None:
        """Set the timers of calls pending when the service last stopped."""
        for room in self.rooms.values():
            self.expire(room)

    def new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(LETTERS) for _ in range(CODE_LENGTH))
            if code not in self.rooms and code not in self.store.set_aside:
                return code

    def changed(self, room: Room, seat: tuple[str, str] | None = None) -> str | None:
        """Save ``room`` (with a new player's ``seat``: token and name), then tell every socket of it.

        Returns None when saved. When the store refuses (a full disk, say), the room goes back
        to what was last saved, so that the room served is the one on disk and nobody is told
        of a change a restart would lose; the sentence returned says so, for the sender.
        """
        try:
            self.store.save(room, seat)
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
        for socket in list(self.sockets.get(room.code, ())):
            if socket.identity.teacher:
                teacher = teacher or _written(room.view(teacher=True))
            socket.push(teacher if socket.identity.teacher else public)

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
        self.timers.pop(room.code, None)
        if not room.expire():
            self.schedule(room)
        elif self.changed(room) is not None:
            # Not saved, so not given: try again in a second (the disk may have room by then).
            self.timers[room.code] = IOLoop.current().call_later(1.0, self.expire, room)


def _written(view: dict[str, Any]) -> str:
    """A view as JSON text, ending in ``}`` so that each client's own part is added once written."""
    return json.dumps(view)


async def _identify(authority: Any, token: str | None) -> Identity | None:
    found = authority.identify(token)
    return await found if inspect.isawaitable(found) else found


def _token(handler: web.RequestHandler) -> str | None:
    header = handler.request.headers.get("Authorization", "")
    if header.lower().startswith("token "):
        return header[6:].strip()
    return handler.get_query_argument("token", None)


class _Base(web.RequestHandler):
    def initialize(self, classroom: Classroom) -> None:
        self.classroom = classroom

    def check_xsrf_cookie(self) -> None:
        """Requests carry a token, never a cookie: there is nothing for another site to forge."""

    def set_default_headers(self) -> None:
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.set_header("Cache-Control", "no-store")

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        reason = getattr(kwargs.get("exc_info", (None, None))[1], "log_message", None) or self._reason
        self.finish(json.dumps({"ok": False, "message": reason}))

    async def identity(self) -> Identity:
        found = await _identify(self.classroom.authority, _token(self))
        if found is None:
            raise web.HTTPError(
                401, "this needs a token: the teacher's, or the one a player got when joining"
            )
        return found

    async def teacher(self) -> Identity:
        found = await self.identity()
        if not found.teacher:
            raise web.HTTPError(403, "only the teacher may do this")
        return found

    def room(self, code: str) -> Room:
        room = self.classroom.rooms.get(code.upper())
        if room is None:
            raise web.HTTPError(404, f"there is no room {_inputs.short(code)}; check the code on the board")
        return room

    def prepare(self) -> None:
        # A request with a token is counted against its token (on the hub every request comes
        # through the proxy, from one address); one without, against its address.
        token = _token(self)
        sender = (
            "token " + hashlib.sha256(token.encode()).hexdigest() if token else self.request.remote_ip or ""
        )
        if self.request.method == "POST" and not self.classroom.allows(sender):
            raise web.HTTPError(429, "too many requests from this address; try again in a few seconds")

    def body(self) -> dict[str, Any]:
        if len(self.request.body) > MAX_MESSAGE:
            raise web.HTTPError(413, f"a request holds at most {MAX_MESSAGE} bytes")
        try:
            data = json.loads(self.request.body or b"{}")
        except ValueError:
            raise web.HTTPError(
                400, 'the request\'s body must be a JSON object like {"name": "Ada"}'
            ) from None
        if not isinstance(data, dict):
            raise web.HTTPError(400, f"the request's body must be a JSON object; got {_inputs.what(data)}")
        return data

    def answer(self, data: dict[str, Any], status: int = 200) -> None:
        self.set_status(status)
        self.finish(json.dumps(data))


class RoomsHandler(_Base):
    async def get(self) -> None:
        await self.teacher()
        rooms = [
            {"code": r.code, "status": r.status, "game": r.number, "players": len(r.members)}
            for r in self.classroom.rooms.values()
        ]
        self.answer({"ok": True, "rooms": rooms})

    async def post(self) -> None:
        await self.teacher()
        body = self.body()
        if len(self.classroom.rooms) >= MAX_ROOMS:
            raise web.HTTPError(409, f"this service holds {MAX_ROOMS} rooms already; start another for more")
        settings = ("variant", "deck", "claim_seconds", "scores_shown", "seed")
        unknown = sorted(set(body) - set(settings), key=str)
        if unknown:
            raise web.HTTPError(400, f"a room has no setting {_inputs.short(unknown[0])}")
        try:
            room = Room(self.classroom.new_code(), clock=self.classroom.clock, **body)
        except (TypeError, ValueError) as refused:
            raise web.HTTPError(400, str(refused)) from None
        self.classroom.rooms[room.code] = room
        failed = self.classroom.changed(room)
        if failed is not None:
            self.answer({"ok": False, "message": failed}, 503)
            return
        self.answer({"ok": True, "code": room.code, "room": room.view()}, 201)


class RoomHandler(_Base):
    async def get(self, code: str) -> None:
        found, room = await self.identity(), self.room(code)
        if not found.teacher and found.name not in room.members:
            raise web.HTTPError(403, f"you have not joined room {room.code}")
        self.answer({"ok": True, "room": room.view(teacher=found.teacher)})


class JoinHandler(_Base):
    async def post(self, code: str) -> None:
        room, body = self.room(code), self.body()
        authority = self.classroom.authority
        unknown = sorted(set(body) - {"name", "team"}, key=str)
        if unknown:
            raise web.HTTPError(
                400, f"joining takes a name and a team; there is no {_inputs.short(unknown[0])}"
            )
        found = await _identify(authority, _token(self))
        if (
            found is not None
            and not found.teacher
            and found.name in room.members
            and found.code in (None, room.code)
        ):
            # The same player again (a restarted kernel): they keep their seat.
            self.answer(
                {"ok": True, "message": f"Welcome back, {found.name}.", "name": found.name, "code": room.code}
            )
            return
        try:
            name = authority.join_name(found, body)
        except PermissionError as refused:
            raise web.HTTPError(401, str(refused)) from None
        try:
            reply = room.join(name, body.get("team", ""))
        except (TypeError, ValueError) as refused:
            raise web.HTTPError(409 if isinstance(refused, RoomError) else 400, str(refused)) from None
        token = authority.new_token()
        # The seat and the room are saved together: a join is kept whole, or not at all.
        failed = self.classroom.changed(room, None if token is None else (token, reply["name"]))
        if failed is not None:
            self.answer({"ok": False, "message": failed}, 503)
            return
        self.answer({**reply, "code": room.code, "token": token}, 201)


class RoomSocket(websocket.WebSocketHandler):
    """One client's connection to one room: the room's view on each change, and its moves."""

    def initialize(self, classroom: Classroom) -> None:
        self.classroom = classroom
        self.bucket = _Bucket(*RATE)

    def check_origin(self, origin: str) -> bool:
        # The token, not a cookie, says who connects: a page of another site has no token to send.
        return True

    async def prepare(self) -> None:
        found = await _identify(self.classroom.authority, _token(self))
        if found is None:
            raise web.HTTPError(
                401, "this needs a token: the teacher's, or the one a player got when joining"
            )
        room = self.classroom.rooms.get(self.path_args[0].upper())
        if room is None:
            raise web.HTTPError(404, f"there is no room {_inputs.short(self.path_args[0])}")
        if not found.teacher and (found.name not in room.members or found.code not in (None, room.code)):
            raise web.HTTPError(403, f"you have not joined room {room.code}")
        self.identity, self.room = found, room

    def open(self, code: str) -> None:
        self.classroom.sockets.setdefault(self.room.code, set()).add(self)
        self.push(_written(self.room.view(teacher=self.identity.teacher)))

    def on_close(self) -> None:
        self.classroom.sockets.get(self.room.code, set()).discard(self)

    def push(self, view: str) -> None:
        """Send ``view`` (JSON text from :func:`_written`) with what only this client is told."""
        if self.identity.teacher:
            you = {"teacher": True, "last_n": self.room.teacher_n}
        else:
            you = self.room.you(self.identity.name)
        try:
            self.write_message(view[:-1] + ', "you": ' + json.dumps(you) + "}")
        except websocket.WebSocketClosedError:
            self.on_close()

    def on_message(self, text: str | bytes) -> None:
        try:
            message = json.loads(text)
        except ValueError:
            self.reply(
                None, {"ok": False, "message": 'a message is a JSON object like {"n": 1, "type": "call"}'}
            )
            return
        n = message.get("n") if isinstance(message, dict) else None
        if not self.bucket.take():
            self.reply(n, {"ok": False, "message": TOO_MANY})
            return
        version = self.room.version
        if self.identity.teacher:
            answer = self.room.teach(message)
        else:
            answer = self.room.play(self.identity.name, message)
        if self.room.version != version:
            failed = self.classroom.changed(self.room)
            if failed is not None:
                answer = {"ok": False, "message": failed}
        self.reply(n, answer)

    def reply(self, n: Any, answer: dict[str, Any]) -> None:
        n = n if type(n) is int else None
        try:
            self.write_message(json.dumps({"type": "reply", **answer, "n": n}))
        except websocket.WebSocketClosedError:
            pass


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
            (prefix + f"api/rooms/{code}/socket", RoomSocket, options),
        ],
        websocket_max_message_size=MAX_MESSAGE,
        websocket_ping_interval=20,
    )


async def serve(
    store: Store, authority: Any, port: int, address: str = "127.0.0.1", prefix: str = "/"
) -> None:
    """Run the service until it is stopped."""
    classroom = Classroom(store, authority)
    app = make_app(classroom, prefix)
    app.listen(port, address)
    classroom.start()
    await asyncio.Event().wait()
