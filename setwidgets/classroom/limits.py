"""What one sender may cost the others: the room service's limits, and the parts that keep them.

A budget is kept per identity (a player, the teacher) or per address, never per connection:
:data:`RATE` for a player's messages over all their sockets, :data:`REQUEST_RATE` for requests,
:data:`SOCKETS_PER_PLAYER` sockets at once. :func:`read_json` reads a message or a body no deeper
than :data:`MAX_DEPTH`; :func:`server` is the HTTP server that closes silent connections, refuses
a long body from its headers and holds at most so many connections. docs/classroom.md states
these limits for the teacher.
"""

from __future__ import annotations

import json
import logging
import re
import resource
import time
from collections.abc import Callable
from typing import Any

from tornado import httpserver, iostream, web

__all__ = [
    "CODE_LENGTH",
    "LETTERS",
    "MAX_ROOMS",
    "COOL_DOWN",
    "ENDED_KEEP_SECONDS",
    "IDLE_SECONDS",
    "MAX_CONNECTIONS",
    "MAX_DEPTH",
    "MAX_MESSAGE",
    "PING_SECONDS",
    "RATE",
    "REQUEST_RATE",
    "SENDERS",
    "SOCKETS_PER_PLAYER",
    "SOCKETS_PER_TEACHER",
    "STRIKES",
    "TOO_MANY",
    "Bucket",
    "files_limit",
    "read_json",
    "server",
]

log = logging.getLogger("setwidgets.classroom")

LETTERS = "BCDFGHJKLMNPQRSTVWXZ"
"""The letters of a join code: consonants only, so that no code spells a word."""

CODE_LENGTH = 5
MAX_ROOMS = 1000
"""The rooms one service holds; a teacher opens a new room per game session."""

MAX_MESSAGE = 4096
"""The longest message a client may send, in bytes (a move is some 80)."""

MAX_DEPTH = 8
"""The deepest nesting of lists and objects a message or a body may hold (a move has 2)."""

RATE = (10.0, 20)
"""A player's messages, over all their sockets together: 10 a second on average, 20 at once;
beyond that they are refused unserved (a malformed message counts like any other)."""

STRIKES = 3 * RATE[1]
"""Messages a socket may send beyond the rate (each refused, unserved) before it is closed with
code 1008: they have a budget of their own, of the same rate."""

REQUEST_RATE = (5.0, 60)
"""Requests from one sender: 5 a second on average, 60 at once. A join counts against the
sender's address whatever token it carries (a whole class on one Lab server joins from one
address, hence the 60); other requests against the player's identity, or the address when
they carry none. The teacher's requests are not counted."""

CONTROL_RATE = (1.0, 10)
"""A player's ping and pong frames, over all their sockets together: 1 a second on average, 10 at
once; a socket that sends more is closed. Tornado answers each ping itself, before any message
budget sees it; an honest client answers the service's ping (every :data:`PING_SECONDS`) with one
pong, and a browser sends no ping at all."""

MAX_UNREAD = 256 * 1024
"""Bytes a socket may have waiting that its client has not read (a room's view is a few KB): a
client that stops reading is closed, rather than have the service keep every view for it. The
system's own buffer for the socket is held to :data:`SEND_BUFFER` besides (it grows to 4 MB by
itself on Linux)."""

SEND_BUFFER = 64 * 1024
"""The system's send buffer of each socket (``SO_SNDBUF``; Linux doubles it for its own use)."""

COOL_DOWN = 10.0
"""Seconds a player whose socket was closed for flooding waits before any socket of theirs opens
again: the flood cannot go on by reconnecting (an honest client never comes near the rate)."""

SOCKETS_PER_PLAYER = 4
"""Sockets one player may hold open at once: a notebook, a second tab, a reconnection under way."""

SOCKETS_PER_TEACHER = 200
"""Sockets the teacher may hold open at once: a projector per room they run. On one machine
every class of the service shares the teacher's token: 40 classes' projectors at once, and more."""

IDLE_SECONDS = 10.0
"""A connection that has not sent a whole request's headers (or body) within this is closed:
half-open connections do not pile up. Sockets are pinged every :data:`PING_SECONDS` and closed
when no answer comes before the next ping."""

PING_SECONDS = 10.0

MAX_CONNECTIONS = 4000
"""Open connections the service accepts at once (fewer when the process may open fewer files);
beyond that a new connection is closed at once, before it can use the files every room needs."""

ENDED_KEEP_SECONDS = 24 * 3600.0
"""How long an ended room is kept (for its scores) before it is deleted."""

SENDERS = 10_000
"""Senders whose request budget is remembered at once: beyond that, those with a full budget are
forgotten, and when none is, a new sender is refused (a flood from many addresses)."""

TOO_MANY = f"too many messages: at most {RATE[0]:g} a second; this one was not served, send it again later"


class Bucket:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.at = float(burst), clock()

    def take(self) -> bool:
        self.refill()
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def refill(self) -> float:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        return self.tokens

    def full(self) -> bool:
        return self.refill() >= self.burst


_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(r"[\[\]{}]")
NUMBER_FIELD = re.compile(r'"n"\s*:\s*(\d{1,16})\b')


def read_json(text: str | bytes, what: str) -> Any:
    """The JSON value in ``text``, nested at most :data:`MAX_DEPTH` deep; ValueError with a sentence
    naming ``what`` (and what is expected) for anything else, never a RecursionError."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"{what} must be UTF-8 text") from None
    # The nesting is measured on the text before it is parsed: the parser recurses once per level.
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
        if deepest > MAX_DEPTH:
            raise ValueError(f"{what} is nested too deep: at most {MAX_DEPTH} levels of lists and objects")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise ValueError(f'{what} must be a JSON object like {{"n": 1, "type": "call"}}') from None


def summary(request: Any) -> str:
    """A request as the log shows it: method, path and address, never its query (it may hold a token)."""
    return f"{request.method} {request.path} ({request.remote_ip})"


def log_request(handler: web.RequestHandler) -> None:
    status = handler.get_status()
    if status < 400:
        return  # a served request: nothing for the teacher to read
    level = logging.WARNING if status < 500 else logging.ERROR
    log.log(level, "%d %s %.0f ms", status, summary(handler.request), 1000 * handler.request.request_time())


def files_limit() -> int:
    """Raise this process's limit of open files to its ceiling; the limit then in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return soft


def server(app: web.Application, most: int, idle: float = IDLE_SECONDS) -> httpserver.HTTPServer:
    """The HTTP server of ``app``: it closes idle connections, refuses long bodies before reading them,
    and accepts at most ``most`` connections at once."""
    served = httpserver.HTTPServer(
        app,
        idle_connection_timeout=idle,
        body_timeout=idle,
        max_body_size=MAX_MESSAGE,
        max_header_size=16 * 1024,
        max_buffer_size=64 * 1024,
    )
    streams: set[iostream.IOStream] = set()
    handle = served.handle_stream

    def handle_stream(stream: iostream.IOStream, address: Any) -> None:
        if len(streams) >= most:
            streams.difference_update([s for s in streams if s.closed()])
            if len(streams) >= most:
                stream.close()  # before it holds a file every room needs; its sender retries later
                return
        streams.add(stream)
        handle(stream, address)

    served.handle_stream = handle_stream  # type: ignore[method-assign]
    return served
