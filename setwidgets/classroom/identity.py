"""Who sends a request to the room service: the teacher, or a player, known by their token.

On one machine :class:`LocalTokens` gives each player a token of their own when they join; on
the hub, :class:`~setwidgets.classroom.hubauth.HubTokens` asks the hub. :func:`admit` counts a
request against its sender's budget (:mod:`setwidgets.classroom.limits`) before anything else:
a token this service never gave is refused, and is never a new identity.
"""

from __future__ import annotations

import inspect
import secrets
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any

from tornado import web

from setwidgets.classroom.store import Store

__all__ = ["NO_TOKEN", "UNKNOWN_TOKEN", "Identity", "LocalTokens", "admit", "identity_key"]

NO_TOKEN = "this needs a token: the teacher's, or the one a player got when joining"
UNKNOWN_TOKEN = (
    "this token is not one this service knows: send the token you got when joining (on the hub, "
    "your server's own); on one machine, join with your name and no token"
)


@dataclass(frozen=True)
class Identity:
    """Who sent a request: the teacher, or the player ``name`` (of room ``code`` on one machine)."""

    teacher: bool
    name: str | None = None
    code: str | None = None


class LocalTokens:
    """Who is who on one machine: one teacher token, and a token for each player who joined."""

    mints = True
    """Joining makes a new identity here (a token for the name chosen): joins are counted by address."""

    KNOWN = 100_000
    """Players' identities kept in memory at once, so that a request (a reconnection refused, say)
    costs no database read: a seat never changes, it is only forgotten with its room."""

    def __init__(self, store: Store, teacher_token: str) -> None:
        self.store = store
        self.teacher_token = teacher_token
        self.known: dict[str, Identity] = {}

    def identify(self, token: str | None) -> Identity | None | Awaitable[Identity | None]:
        """The identity ``token`` gives, or None (to be awaited when it must be read from the database)."""
        if not token:
            return None
        if secrets.compare_digest(token, self.teacher_token):
            return Identity(teacher=True)
        found = self.known.get(token)
        if found is not None:
            return found
        return self._look_up(token)

    async def _look_up(self, token: str) -> Identity | None:
        """A token not in memory, read from the database in the store's threads (off the loop)."""
        seat = await self.store.off_loop(self.store.seat, token)
        if seat is None:
            return None  # not remembered: made-up tokens must not fill the memory
        if len(self.known) >= self.KNOWN:
            self.known.clear()
        found = self.known[token] = Identity(teacher=False, code=seat[0], name=seat[1])
        return found

    def forget(self, code: str) -> None:
        """Forget the identities of room ``code`` (deleted: its tokens are no longer anyone's)."""
        self.known = {token: i for token, i in self.known.items() if i.code != code}

    def join_name(self, identity: Identity | None, body: dict[str, Any]) -> Any:
        """On one machine a player chooses their name."""
        return body.get("name")

    def new_token(self) -> str | None:
        return secrets.token_urlsafe(24)


def identity_key(identity: Identity) -> str:
    """Who ``identity`` is, as one key: the budgets of sockets and messages are kept by it."""
    return "teacher" if identity.teacher else f"player {identity.code or ''} {identity.name}"


async def identify(authority: Any, token: str | None) -> Identity | None:
    found = authority.identify(token)
    return await found if inspect.isawaitable(found) else found


def token_of(handler: web.RequestHandler) -> str | None:
    header = handler.request.headers.get("Authorization", "")
    if header.lower().startswith("token "):
        return header[6:].strip()
    return handler.get_query_argument("token", None)


async def admit(handler: Any, classroom: Any, join: bool = False) -> Identity | None:
    """Who sends ``handler``'s request, after counting it against their budget.

    A token the service never gave is refused (401) and counted against the address, so guessing
    tokens costs as much as anything else; a join counts against the address whatever token it
    carries where joining makes a new identity (one machine), so that made-up names do not
    each get a budget of their own.
    """
    token = token_of(handler)
    found = await identify(classroom.authority, token) if token else None
    address = "address " + (handler.request.remote_ip or "")
    if found is not None and found.teacher:
        return found
    mints = getattr(classroom.authority, "mints", False)
    key = address if found is None or (join and mints) else identity_key(found)
    if not classroom.allows(key):
        raise web.HTTPError(429, "too many requests from this address; try again in a few seconds")
    if token and found is None:
        raise web.HTTPError(401, UNKNOWN_TOKEN)
    return found
