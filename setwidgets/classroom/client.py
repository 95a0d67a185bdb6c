"""A notebook's connection to the room service: :class:`Seat` for a student, :class:`Desk` for the teacher.

Both talk to the service over a WebSocket held by a thread of their own, so the room's view is
pushed to the notebook the moment it changes (no polling), while the notebook's own code goes on.

In a student's notebook, with the room's code on the board::

    seat = Seat("BCDFG", name="Ada")
    seat.view["table"]     # the codes of the cards on the table, such as '1RSO'
    seat.call()            # {'ok': True, 'message': 'Ada called SET!', 'n': 1}

A room the teacher locked puts a late player on its waiting list: :class:`Seat` then raises
:class:`Waiting`, and a :class:`Doorstep` asks again every few seconds until the teacher answers::

    door = Doorstep("BCDFG", name="Ben")   # door.state: 'in' (door.seat), or 'waiting'
    door.wait(lambda door: print(door.state, door.message))   # later: 'in' or 'refused'

Where the service is: the ``url`` given, else the environment variable
``SETWIDGETS_CLASSROOM_URL`` (the hub sets it for every student), else the ``server.json``
that ``course.py classroom`` writes in the classroom folder (:func:`home`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import random
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from setwidgets import _extras, _inputs

__all__ = ["ClassroomError", "Desk", "Doorstep", "Seat", "Waiting", "home", "network_url", "service_url"]

WAIT = 10.0
"""Seconds to wait for the service's answer before saying it does not answer."""

ASK_SECONDS = 6.0
"""How often a :class:`Doorstep` asks again, on average: a class on one Lab server shares one
address's budget of joins (5 a second, :data:`setwidgets.classroom.limits.REQUEST_RATE`), which
the most players a door lets wait at once (30, :data:`setwidgets.classroom.door.WAITING`) then
keep to."""

ASK_MINUTES = 30
"""How long a :class:`Doorstep` goes on asking before it stops (a forgotten tab asks forever else)."""


class ClassroomError(RuntimeError):
    """The service could not be reached, or refused a request; the text says which and why.

    ``status`` is the service's HTTP status for a refusal (403, 404, 409, ...), None when the
    service did not answer at all.
    """

    status: int | None = None


class Waiting(ClassroomError):
    """A locked room's answer to a join: you are on the teacher's waiting list, not seated yet.

    ``ticket`` is yours alone; :class:`Seat` keeps it in the classroom folder and shows it when
    it asks again (:class:`Doorstep` asks for you). The teacher then lets you in, or refuses.
    """

    def __init__(self, message: str, ticket: str) -> None:
        super().__init__(message)
        self.status, self.ticket = 202, ticket


def home() -> Path:
    """The classroom folder: ``$SETWIDGETS_CLASSROOM_HOME``, or ``~/.local/share/setwidgets/classroom``."""
    given = os.environ.get("SETWIDGETS_CLASSROOM_HOME")
    if given:
        return Path(given)
    data = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data) / "setwidgets" / "classroom"


def service_url(url: str | None = None) -> str:
    """The service's address, ending in ``/``, found as the module's help says."""
    if url is None:
        url = os.environ.get("SETWIDGETS_CLASSROOM_URL")
    if url is None:
        try:
            url = json.loads((home() / "server.json").read_text())["url"]
        except (OSError, ValueError, KeyError, TypeError):
            raise ClassroomError(
                "no classroom service was found: ask your teacher to start one (python3 course.py classroom) "
                "or give its address, like url='http://127.0.0.1:8765/'"
            ) from None
    if not isinstance(url, str) or urllib.parse.urlsplit(url).scheme not in ("http", "https"):
        raise ClassroomError(
            f"the classroom's address must start with http:// or https://; got {_inputs.short(url)}"
        )
    return url.rstrip("/") + "/"


def network_url(url: str) -> str | None:
    """The address students on other computers use for the service at ``url``, when it listens
    on the network (``course.py classroom --ip 0.0.0.0`` writes it in ``server.json``), else None."""
    try:
        found = json.loads((home() / "server.json").read_text())
    except (OSError, ValueError):
        return None
    if (
        not isinstance(found, dict)
        or found.get("url") != url
        or not isinstance(found.get("network_url"), str)
    ):
        return None
    return found["network_url"]


def _request(
    url: str, token: str | None, method: str = "GET", body: dict[str, Any] | None = None, tries: int = 10
) -> dict[str, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"token {token}")
    try:
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as refused:
        if refused.code == 429 and tries > 1:  # a whole class joins at once: wait for our turn
            time.sleep(1.0)
            return _request(url, token, method, body, tries - 1)
        try:
            message = json.loads(refused.read())["message"]
        except (ValueError, KeyError, TypeError):
            message = refused.reason
        error = ClassroomError(message)
        error.status = refused.code
        raise error from None
    except (urllib.error.URLError, OSError) as lost:
        raise ClassroomError(f"the classroom service at {url} does not answer ({lost})") from None


class _Connection:
    """A WebSocket to one room, in a thread of its own; reconnects when the service comes back."""

    def __init__(self, url: str, code: str, token: str | None) -> None:
        _extras.require("tornado.websocket", "classroom", "setwidgets.classroom")
        self.url, self.code, self.token = url, code, token
        self.view: dict[str, Any] = {}
        self._n = 0
        self._waiting: dict[int, concurrent.futures.Future] = {}
        self._listeners: list[Callable[[dict[str, Any]], None]] = []
        self._lock = threading.Lock()
        self._first = concurrent.futures.Future()
        self._closed = False
        self.gone: str | None = None  # why the service no longer lets this connection in, once it does not
        self._socket: Any = None
        self._ready = asyncio.Event()  # set while connected: a move sent during a restart waits for it
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True, name=f"classroom {code}")
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._run(), self._loop)
        try:
            self._first.result(WAIT)
        except concurrent.futures.TimeoutError:
            self.close()
            raise ClassroomError(f"the classroom service at {url} does not answer") from None
        except ClassroomError:
            self.close()
            raise

    def on_view(self, callback: Callable[[dict[str, Any]], None], remove: bool = False) -> None:
        """Call ``callback(view)`` with each new view of the room (from the connection's thread)."""
        if remove:
            self._listeners.remove(callback)
        else:
            self._listeners.append(callback)

    @property
    def connected(self) -> bool:
        """True while the connection to the service is open (it comes back by itself after a restart)."""
        return self._socket is not None

    def send(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send one message and return the service's answer: ``{"ok": ..., "message": ...}``."""
        with self._lock:
            self._n += 1
            n = self._n
            waiting = self._waiting[n] = concurrent.futures.Future()
        text = json.dumps({**message, "n": n})
        asyncio.run_coroutine_threadsafe(self._write(text, n), self._loop)
        try:
            return waiting.result(WAIT)
        except concurrent.futures.TimeoutError:
            return {"ok": False, "message": "the classroom service did not answer in time; try again"}
        finally:
            self._waiting.pop(n, None)

    def close(self) -> None:
        """Leave the room's connection (the seat in the room stays yours)."""
        self._closed = True

        def stop() -> None:
            if self._socket is not None:
                self._socket.close()
            self._loop.stop()

        if self._loop.is_running():
            self._loop.call_soon_threadsafe(stop)

    # -- the connection's thread --------------------------------------------------------------------

    async def _write(self, text: str, n: int) -> None:
        try:
            if self._socket is None:
                await asyncio.wait_for(self._ready.wait(), WAIT)
            await self._socket.write_message(text)
        except Exception:  # noqa: BLE001 - any failure to write is a lost connection to the sender
            self._answer(n, {"ok": False, "message": "the connection to the classroom was lost; try again"})

    def _answer(self, n: int, answer: dict[str, Any]) -> None:
        waiting = self._waiting.get(n)
        if waiting is not None and not waiting.done():
            waiting.set_result(answer)

    async def _run(self) -> None:
        from tornado import httpclient, websocket

        address = self.url.replace("http", "ws", 1) + f"api/rooms/{self.code}/socket"
        headers = {"Authorization": f"token {self.token}"} if self.token else {}
        while not self._closed:
            try:
                request = httpclient.HTTPRequest(address, headers=headers, request_timeout=WAIT)
                self._socket = await websocket.websocket_connect(request, max_message_size=1 << 24)
                self._ready.set()
            except httpclient.HTTPClientError as refused:
                body = getattr(refused.response, "body", b"") or b"{}"
                try:
                    message = json.loads(body)["message"]
                except (ValueError, KeyError, TypeError):
                    message = str(refused)
                if not self._first.done():
                    self._first.set_exception(ClassroomError(message))
                    return
                if refused.code in (401, 403, 404):
                    # The room was deleted, or the teacher took this player out: trying again
                    # would only be refused again.
                    self.gone = message
                    return
                await asyncio.sleep(0.5)
                continue
            except OSError:
                if not self._first.done():
                    self._first.set_exception(
                        ClassroomError(f"the classroom service at {self.url} does not answer")
                    )
                    return
                await asyncio.sleep(0.5)  # the service restarts: try again
                continue
            while True:
                text = await self._socket.read_message()
                if text is None:
                    break
                self._receive(json.loads(text))
            self._socket = None
            self._ready.clear()
            for n in list(self._waiting):
                self._answer(
                    n, {"ok": False, "message": "the connection to the classroom was lost; try again"}
                )

    def _receive(self, data: dict[str, Any]) -> None:
        if data.get("type") == "reply":
            if type(data.get("n")) is int:
                self._answer(data["n"], {k: v for k, v in data.items() if k != "type"})
            return
        with self._lock:
            self._n = max(self._n, data.get("you", {}).get("last_n", 0))
        self.view = data
        if not self._first.done():
            self._first.set_result(True)
        for listener in list(self._listeners):
            try:
                listener(data)
            except Exception:  # noqa: BLE001 - a broken listener must not stop the room's updates
                pass


class Seat(_Connection):
    """A student's seat in a class room: the shared table, their moves, their score.

    ``Seat("BCDFG", name="Ada")`` joins room BCDFG as Ada (on the hub, the name is your hub
    user's and ``name`` may be left out). The seat's token is kept in the classroom folder,
    so a restarted kernel takes the same seat again. A room the teacher locked answers with
    :class:`Waiting` (a :class:`ClassroomError`) saying the teacher was asked to let you in: ask
    again (run the same line) once they have, or let a :class:`Doorstep` ask. A second code from
    the teacher joins in place of the room's code.
    """

    def __init__(self, room: str, name: str | None = None, team: str = "", url: str | None = None) -> None:
        url = service_url(url)
        code = _code(room)
        hub_token = (
            os.environ.get("JUPYTERHUB_API_TOKEN") if "SETWIDGETS_CLASSROOM_URL" in os.environ else None
        )
        key = f"{url} {code} {name}"
        tokens = _read_tokens()
        token = hub_token or tokens.get(key)
        body: dict[str, Any] = {"team": team}
        if name is not None:
            body["name"] = name
        if tokens.get(key + " ticket"):  # waiting at a locked room's door: ask again with the ticket
            body["ticket"] = tokens[key + " ticket"]
        answer = _request(url + f"api/rooms/{code}/join", token, "POST", body)
        if answer.get("waiting"):
            tokens[key + " ticket"] = answer["ticket"]
            _write_tokens(tokens)
            raise Waiting(answer["message"], answer["ticket"])
        tokens[key + " ticket"] = ""  # answered: the ticket is used up
        # Joined with a second code, the seat is the room's own code's from now on.
        code = answer.get("code") or code
        if answer.get("token"):
            token = answer["token"]
            tokens[key] = tokens[f"{url} {code} {name}"] = token
        _write_tokens(tokens)
        self.name: str = answer["name"]
        self.welcome: str = answer["message"]
        super().__init__(url, code, token)

    def call(self) -> dict[str, Any]:
        """Call "SET!": you join the line of callers, and claim when your turn comes."""
        return self.send({"type": "call"})

    def claim(self, cards: Iterable[str]) -> dict[str, Any]:
        """Show three cards, such as ``["1RSO", "2GTS", "3POD"]``."""
        return self.send({"type": "claim", "cards": list(cards) if not isinstance(cards, str) else cards})

    def no_set(self) -> dict[str, Any]:
        """Say that the table holds no SET."""
        return self.send({"type": "no_set"})

    @property
    def you(self) -> dict[str, Any]:
        """Your score, your SETs and your place in the line of callers (None: not in line)."""
        return dict(self.view.get("you", {}))


class Doorstep:
    """A late player at a locked room's door: their :class:`Seat` once the teacher lets them in.

    ``Doorstep("BCDFG", name="Ben")`` joins as :class:`Seat` does. Seated at once (the room is
    not locked), :attr:`state` is ``"in"`` and :attr:`seat` is the seat; refused at once (a name
    taken, a room that does not exist), it raises :class:`ClassroomError`; put on the teacher's
    waiting list, :attr:`state` is ``"waiting"``. Then :meth:`wait` asks again with the ticket,
    every :data:`ASK_SECONDS` or so in a thread of its own, until the teacher answers:

    - ``"in"``: let in; :attr:`seat` is the seat and :attr:`message` the service's welcome;
    - ``"refused"``: the teacher did not let you in (or the room was deleted meanwhile);
      :attr:`message` says so, and it asks no more;
    - ``"stopped"``: :meth:`stop` was called, or nobody answered in :data:`ASK_MINUTES`.

    While the service does not answer (it restarts, say), it goes on asking; :attr:`lost` is then
    True and :attr:`message` says why.
    """

    def __init__(self, room: str, name: str | None = None, team: str = "", url: str | None = None) -> None:
        self.code, self.name, self.team, self.url = _code(room), name, team, service_url(url)
        self.seat: Seat | None = None
        self.state, self.message, self.lost = "waiting", "", False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._ask()
        if self.state == "refused" or self.lost:  # the first answer is Seat's: a refusal is raised
            raise ClassroomError(self.message)

    def wait(self, then: Callable[[Doorstep], None] | None = None, every: float | None = None) -> Doorstep:
        """Ask again in a thread, every ``every`` seconds or so (:data:`ASK_SECONDS`), until the
        teacher answers; ``then(self)`` is called (from that thread) each time :attr:`state`,
        :attr:`message` or :attr:`lost` changes. Returns self."""
        if self.state == "waiting" and self._thread is None:
            every = ASK_SECONDS if every is None else every
            self._thread = threading.Thread(
                target=self._asking, args=(then, every), daemon=True, name=f"doorstep {self.code}"
            )
            self._thread.start()
        return self

    def stop(self) -> None:
        """Ask no more (the place on the waiting list stays until the teacher answers)."""
        self._stop.set()
        if self.state == "waiting":
            self.state = "stopped"

    def _ask(self) -> None:
        seat, state, self.lost = None, "waiting", False
        try:
            seat = Seat(self.code, name=self.name, team=self.team, url=self.url)
        except Waiting as waiting:
            message = str(waiting)
        except ClassroomError as refused:
            message = str(refused)
            if refused.status is None or refused.status == 429 or refused.status >= 500:
                # Not an answer about this player: the service restarts, or is busy. Ask again.
                self.lost = True
            else:
                state = "refused"
        else:
            state, message = "in", seat.welcome
        if self._stop.is_set():  # stopped meanwhile: nobody is there to hear the answer
            if seat is not None:
                seat.close()
            return
        self.seat, self.state, self.message = seat, state, message

    def _asking(self, then: Callable[[Doorstep], None] | None, every: float) -> None:
        until = time.monotonic() + ASK_MINUTES * 60
        # Each player's asks are spread out, so that a class waiting at once does not ask at once;
        # seeded by the room and the name, as the package's randomness always is.
        spread = random.Random(f"{self.code}/{self.name}")
        while not self._stop.wait(every * spread.uniform(0.75, 1.25)):
            if time.monotonic() > until:
                self.state = "stopped"
                self.message = (
                    f"no answer from the teacher in {ASK_MINUTES} minutes, so this stopped asking; "
                    "run the same line again to ask once more"
                )
            else:
                said = (self.state, self.message, self.lost)
                self._ask()
                if self._stop.is_set():
                    return
                if (self.state, self.message, self.lost) == said:
                    continue
            if then is not None:
                then(self)
            if self.state != "waiting":
                return


class Desk(_Connection):
    """The teacher's hold on a room: open it, then pause, resume, end, start a new game, remove a
    player, lock it against new joins (and let late players in: :attr:`waiting`, :meth:`let_in`,
    :meth:`refuse`, :meth:`second_code`), or delete it.

    ``Desk.open(variant="standard")`` opens a new room and returns its desk; ``Desk("BCDFG")``
    takes an open room again. The teacher's token comes from ``token``, else the classroom
    folder's ``teacher.json`` (written by ``course.py classroom``), else, on the hub, the
    teacher's own hub token.
    """

    def __init__(self, room: str, token: str | None = None, url: str | None = None) -> None:
        url = service_url(url)
        super().__init__(url, _code(room), token or _teacher_token())

    @classmethod
    def open(cls, token: str | None = None, url: str | None = None, **settings: Any) -> Desk:
        """Open a new room with ``settings`` (variant, deck, claim_seconds, scores_shown, seed)."""
        url = service_url(url)
        token = token or _teacher_token()
        answer = _request(url + "api/rooms", token, "POST", settings)
        return cls(answer["code"], token=token, url=url)

    def pause(self) -> dict[str, Any]:
        """Stop the play (a caller holding the call may still show their cards)."""
        return self.send({"type": "pause"})

    def resume(self) -> dict[str, Any]:
        """Let the play go on."""
        return self.send({"type": "resume"})

    def end(self) -> dict[str, Any]:
        """End the room: nothing more is played in it."""
        return self.send({"type": "end"})

    def new_game(self) -> dict[str, Any]:
        """Deal a new game to everyone in the room."""
        return self.send({"type": "new_game"})

    def remove(self, name: str) -> dict[str, Any]:
        """Take ``name`` out of the room for good: their token, their name and names of the same
        letters ("Ben 2") stay out. On one machine anyone may still join under another name:
        :meth:`lock` the room too."""
        return self.send({"type": "remove", "name": name})

    def scores(self, shown: bool) -> dict[str, Any]:
        """Show the scoreboard (True) or only "a SET was found" and the teams' SETs (False)."""
        return self.send({"type": "scores", "shown": shown})

    def lock(self) -> dict[str, Any]:
        """Let nobody new join the room (those seated stay, and a restarted kernel takes its seat)."""
        return self.send({"type": "lock"})

    def unlock(self) -> dict[str, Any]:
        """Let new players join the room again."""
        return self.send({"type": "unlock"})

    @property
    def waiting(self) -> list[str]:
        """The names waiting at the locked room's door for your answer (:meth:`let_in`, :meth:`refuse`)."""
        return list(self.view.get("you", {}).get("waiting", []))

    def let_in(self, name: str) -> dict[str, Any]:
        """Let ``name``, waiting at the locked room's door, join the room."""
        return self._door({"action": "let_in", "name": name})

    def refuse(self, name: str) -> dict[str, Any]:
        """Tell ``name``, waiting at the locked room's door, that they do not join."""
        return self._door({"action": "refuse", "name": name})

    def second_code(self) -> dict[str, Any]:
        """A second code for one late player (in ``["code"]``): it lets them into the locked room once."""
        return self._door({"action": "second_code"})

    def _door(self, body: dict[str, Any]) -> dict[str, Any]:
        try:
            return _request(self.url + f"api/rooms/{self.code}/door", self.token, "POST", body, tries=1)
        except ClassroomError as refused:
            return {"ok": False, "message": str(refused)}

    def delete(self) -> dict[str, Any]:
        """Delete the room: every connection to it is closed, and its players' tokens are forgotten."""
        answer = _request(self.url + f"api/rooms/{self.code}", self.token, "DELETE", tries=1)
        self.close()
        return answer


def _code(room: Any) -> str:
    if not isinstance(room, str) or not room.strip().isalpha() or len(room.strip()) > 16:
        raise ClassroomError(
            f"a room's code is the five letters on the board, like 'BCDFG'; got {_inputs.short(room)}"
        )
    return room.strip().upper()


def _teacher_token() -> str | None:
    try:
        return json.loads((home() / "teacher.json").read_text())["token"]
    except (OSError, ValueError, KeyError, TypeError):
        return os.environ.get("JUPYTERHUB_API_TOKEN")


def _read_tokens() -> dict[str, str]:
    try:
        tokens = json.loads((home() / "seats.json").read_text())
    except (OSError, ValueError):
        return {}
    return tokens if isinstance(tokens, dict) else {}


def _write_tokens(tokens: dict[str, str]) -> None:
    # Students on one Lab server share this folder: merge with what another kernel wrote meanwhile,
    # and replace the file in one step, so that no kernel reads half of it.
    folder = home()
    folder.mkdir(parents=True, exist_ok=True)
    merged = {**_read_tokens(), **tokens}
    part = folder / f"seats.json.{os.getpid()}.{threading.get_ident()}"
    part.touch(mode=0o600)
    part.write_text(json.dumps(merged))
    os.replace(part, folder / "seats.json")
