"""The room service's HTTP routes (the WebSocket is in :mod:`setwidgets.classroom.service`).

Each handler checks who sends the request (:func:`setwidgets.classroom.identity.admit`), reads a
short body, and changes a room only under its lock, answering once the change is saved
(:meth:`Classroom.changed <setwidgets.classroom.service.Classroom.changed>`).
"""

from __future__ import annotations

import json
from typing import Any

from tornado import web

from setwidgets import _inputs
from setwidgets.classroom.door import CODE_SECONDS, admit
from setwidgets.classroom.identity import NO_TOKEN, Identity
from setwidgets.classroom.identity import admit as _admit
from setwidgets.classroom.limits import MAX_MESSAGE, MAX_ROOMS, log, read_json, summary
from setwidgets.classroom.rooms import Room, RoomError
from setwidgets.classroom.store import StoreError
from setwidgets.game.inputs import player_name

__all__ = ["BaseHandler", "DoorHandler", "JoinHandler", "RoomHandler", "RoomsHandler", "no_room"]


def no_room(code: str) -> web.HTTPError:
    """The refusal of a code that opens no room (none by that code, or a second code used up)."""
    return web.HTTPError(404, f"there is no room {_inputs.short(code)}; check the code on the board")


@web.stream_request_body
class BaseHandler(web.RequestHandler):
    """A request of the API; its body is read only once the headers showed it short enough."""

    def initialize(self, classroom: Any) -> None:
        # The service's Classroom (setwidgets.classroom.service, which imports this module).
        self.classroom = classroom
        self.found: Identity | None = None
        self._chunks: list[bytes] = []
        self._size = 0

    def check_xsrf_cookie(self) -> None:
        """Requests carry a token, never a cookie: there is nothing for another site to forge."""

    def set_default_headers(self) -> None:
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.set_header("Cache-Control", "no-store")

    def _request_summary(self) -> str:
        return summary(self.request)

    def log_exception(self, typ: Any, value: Any, tb: Any) -> None:
        if isinstance(value, web.HTTPError):
            return  # a refusal: its sentence went to the sender, and log_request notes its status
        if isinstance(value, StoreError):
            log.error("%s: %s", summary(self.request), value)  # a sentence, no traceback
            return
        log.error("an error on %s", summary(self.request), exc_info=(typ, value, tb))

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        reason = getattr(kwargs.get("exc_info", (None, None))[1], "log_message", None)
        if status_code >= 500 or not reason:
            reason = "the classroom service failed to serve this request; the teacher's terminal says why"
        self.finish(json.dumps({"ok": False, "message": reason}))

    async def prepare(self) -> None:
        length = self.request.headers.get("Content-Length", "0")
        if not length.isdigit() or int(length) > MAX_MESSAGE:
            raise web.HTTPError(413, f"a request holds at most {MAX_MESSAGE} bytes")
        self.found = await _admit(self, self.classroom, join=isinstance(self, JoinHandler))

    def data_received(self, chunk: bytes) -> None:
        self._size += len(chunk)
        if self._size > MAX_MESSAGE:
            raise web.HTTPError(413, f"a request holds at most {MAX_MESSAGE} bytes")
        self._chunks.append(chunk)

    def identity(self) -> Identity:
        if self.found is None:
            raise web.HTTPError(401, NO_TOKEN)
        return self.found

    def teacher(self) -> Identity:
        found = self.identity()
        if not found.teacher:
            raise web.HTTPError(403, "only the teacher may do this")
        return found

    def room(self, code: str) -> Room:
        room = self.classroom.rooms.get(code.upper())
        if room is None:
            raise no_room(code)
        return room

    def body(self) -> dict[str, Any]:
        text = b"".join(self._chunks) or b"{}"
        try:
            data = read_json(text, "the request's body")
        except ValueError as refused:
            raise web.HTTPError(
                400, str(refused).replace('{"n": 1, "type": "call"}', '{"name": "Ada"}')
            ) from None
        if not isinstance(data, dict):
            raise web.HTTPError(400, f"the request's body must be a JSON object; got {_inputs.what(data)}")
        return data

    def answer(self, data: dict[str, Any], status: int = 200) -> None:
        self.set_status(status)
        self.finish(json.dumps(data))


class RoomsHandler(BaseHandler):
    async def get(self) -> None:
        self.teacher()
        rooms = [
            {
                "code": r.code,
                "status": r.status,
                "game": r.number,
                "players": len(r.members),
                "locked": getattr(r, "locked", False),
            }
            for r in self.classroom.rooms.values()
        ]
        # Rooms the store could not load at start: the teacher sees why here too, not only in the terminal.
        aside = [{"code": code, "message": why} for code, why in self.classroom.store.set_aside.items()]
        self.answer({"ok": True, "rooms": rooms, "set_aside": aside})

    async def post(self) -> None:
        self.teacher()
        body = self.body()
        if len(self.classroom.rooms) >= MAX_ROOMS:
            raise web.HTTPError(
                409,
                f"this service holds {MAX_ROOMS} rooms already; delete the rooms you no longer need "
                "(Desk.delete(), or DELETE api/rooms/CODE)",
            )
        settings = ("variant", "deck", "claim_seconds", "scores_shown", "seed")
        unknown = sorted(set(body) - set(settings), key=str)
        if unknown:
            raise web.HTTPError(400, f"a room has no setting {_inputs.short(unknown[0])}")
        try:
            room = Room(self.classroom.new_code(), clock=self.classroom.clock, **body)
        except (TypeError, ValueError) as refused:
            raise web.HTTPError(400, str(refused)) from None
        async with self.classroom.guard(room.code):
            self.classroom.rooms[room.code] = room  # its code is taken at once: no other room gets it
            failed = await self.classroom.changed(room)
        if failed is not None:
            self.answer({"ok": False, "message": failed}, 503)
            return
        self.answer({"ok": True, "code": room.code, "room": room.view()}, 201)


class RoomHandler(BaseHandler):
    async def get(self, code: str) -> None:
        found = self.identity()
        if not found.teacher and found.code not in (None, code.upper()):
            # A player's token is for their own room: whether another code is a room is not theirs to learn.
            raise web.HTTPError(403, f"you have not joined room {_inputs.short(code)[1:-1]}")
        room = self.room(code)
        if not found.teacher and found.name not in room.members:
            raise web.HTTPError(403, f"you have not joined room {room.code}")
        async with self.classroom.guard(room.code):  # the room as saved: not a change still being written
            room = self.room(code)
            answer = {"ok": True, "room": room.view(teacher=found.teacher)}
            if found.teacher:
                answer["waiting"] = self.classroom.doors.names(room.code)
            self.answer(answer)

    async def delete(self, code: str) -> None:
        self.teacher()
        room = self.room(code)
        try:
            await self.classroom.delete(room.code, room)
        except StoreError as failed:
            self.answer({"ok": False, "message": f"room {room.code} was not deleted: {failed}"}, 503)
            return
        self.answer({"ok": True, "message": f"Room {room.code} was deleted."})


class JoinHandler(BaseHandler):
    async def post(self, code: str) -> None:
        # Everything that does not depend on the room is checked before the room is looked up: junk
        # gets the same answer whether the code is a room's or not.
        body = self.body()
        authority, found = self.classroom.authority, self.found
        unknown = sorted(set(body) - {"name", "team", "ticket"}, key=str)
        if unknown:
            raise web.HTTPError(
                400, f"joining takes a name and a team; there is no {_inputs.short(unknown[0])}"
            )
        try:
            name = authority.join_name(found, body)
        except PermissionError as refused:
            raise web.HTTPError(401, str(refused)) from None
        try:
            name = player_name(name, "name")
            team = player_name(body.get("team"), "team") if body.get("team") not in ("", None) else ""
        except (TypeError, ValueError) as refused:
            raise web.HTTPError(400, str(refused)) from None
        # A second code the teacher handed out lets one late player into its (locked) room.
        second = code.upper() if self.classroom.doors.room_of(code) else None
        if second is not None:
            code = self.classroom.doors.room_of(second) or code
        self.room(code)  # a room that does not exist is said before any wait
        async with self.classroom.guard(code.upper()):
            await self._join(self.room(code), found, name, team, body.get("ticket"), second)

    async def _join(
        self, room: Room, found: Identity | None, name: str, team: str, ticket: Any, second: str | None
    ) -> None:
        doors = self.classroom.doors
        if second is not None and doors.room_of(second) != room.code:
            # Used by another join while this one waited for the room (the code was looked up
            # before the wait): it lets nobody else in, as to anyone who comes with it later.
            raise no_room(second)
        if found is not None and found.name in room.members and found.code in (None, room.code):
            if room.members[found.name].removed:
                raise web.HTTPError(403, f"the teacher took you out of room {room.code}")
            # The same player again (a restarted kernel): they keep their seat.
            self.answer(
                {"ok": True, "message": f"Welcome back, {found.name}.", "name": found.name, "code": room.code}
            )
            return
        waiter = doors.waiter(room.code, ticket)
        if waiter is not None and waiter.state != "waiting":
            doors.done(room.code, waiter)  # the answer is given once
            if waiter.state == "refused":
                raise web.HTTPError(403, f"the teacher did not let you into room {room.code}")
            said = f"The teacher let you in: welcome, {waiter.name}; you play in room {room.code}."
            self.answer(
                {"ok": True, "message": said, "name": waiter.name, "code": room.code, "token": waiter.token},
                201,
            )
            return
        if room.locked and second is None:
            if waiter is None:
                try:
                    waiter = doors.ask(room, name, team)
                except RoomError as refused:
                    raise web.HTTPError(409, str(refused)) from None
                self.classroom.tell_teacher(room)
            said = (
                f"room {room.code} is locked: the teacher has been asked to let {waiter.name} in; "
                "ask again with this ticket to hear their answer (a class board asks by itself)"
            )
            self.answer({"ok": False, "waiting": True, "ticket": waiter.ticket, "message": said}, 202)
            return
        try:
            reply = admit(room, name, team) if second is not None else room.join(name, team)
        except (TypeError, ValueError) as refused:
            raise web.HTTPError(409 if isinstance(refused, RoomError) else 400, str(refused)) from None
        token = self.classroom.authority.new_token()
        # The seat and the room are saved together: a join is kept whole, or not at all.
        failed = await self.classroom.changed(room, None if token is None else (token, reply["name"]))
        if failed is not None:
            self.answer({"ok": False, "message": failed}, 503)
            return
        if second is not None:
            doors.use(second)
        if waiter is not None:
            doors.done(room.code, waiter)  # the room was unlocked meanwhile: they joined as anyone
        self.answer({**reply, "code": room.code, "token": token}, 201)


class DoorHandler(BaseHandler):
    """The teacher at a locked room's door: the names waiting, let one in, refuse one, a second code."""

    async def get(self, code: str) -> None:
        self.teacher()
        room = self.room(code)
        self.answer({"ok": True, "waiting": self.classroom.doors.names(room.code)})

    async def post(self, code: str) -> None:
        self.teacher()
        body = self.body()
        action = body.get("action")
        if action not in ("let_in", "refuse", "second_code") or set(body) - {"action", "name"}:
            raise web.HTTPError(
                400,
                'the door takes {"action": "let_in" or "refuse", "name": "..."} or {"action": "second_code"}',
            )
        room = self.room(code)
        doors = self.classroom.doors
        async with self.classroom.guard(room.code):
            room = self.room(code)
            try:
                if action == "second_code":
                    second = doors.second_code(room.code, lambda c: c in self.classroom.rooms)
                    minutes = round(CODE_SECONDS / 60)
                    said = f"Second code for one late player: {second} (for {minutes} minutes, one join)."
                    self.answer({"ok": True, "code": second, "message": said})
                    return
                waiter = doors.waiting_as(room.code, body.get("name"))
                if action == "refuse":
                    waiter.state = "refused"
                    self.classroom.tell_teacher(room)
                    self.answer({"ok": True, "message": f"{waiter.name} was not let in."})
                    return
                admit(room, waiter.name, waiter.team)
            except RoomError as refused:
                raise web.HTTPError(409, str(refused)) from None
            token = self.classroom.authority.new_token()
            failed = await self.classroom.changed(room, None if token is None else (token, waiter.name))
            if failed is not None:
                self.answer({"ok": False, "message": failed}, 503)
                return
            waiter.state, waiter.token = "in", token
            self.classroom.tell_teacher(room)
        self.answer({"ok": True, "message": f"{waiter.name} was let in."})
