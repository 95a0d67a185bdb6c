"""Who is who when JupyterHub runs the room service: every token is checked with the hub.

A student's kernel sends the token JupyterHub gives every server (``JUPYTERHUB_API_TOKEN``);
the hub says whose it is, and whether it may reach this service (the scope
``access:services!service=classroom``, given by deploy/jupyterhub_config.py). A student
therefore plays as themselves only. The teachers are the roster's (the hub passes their names
in ``SETWIDGETS_CLASSROOM_TEACHERS``): only they open, pause, end or remove from a room.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlsplit

from setwidgets.classroom.service import Identity

__all__ = ["HubTokens", "hub_address"]


def hub_address() -> tuple[int, str]:
    """The port and the prefix JupyterHub gave this service."""
    url = os.environ.get("JUPYTERHUB_SERVICE_URL", "http://127.0.0.1:8765")
    return urlsplit(url).port or 80, os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/services/classroom/")


class HubTokens:
    """Identities from the hub's tokens (JupyterHub's ``HubAuth``); players take their hub names."""

    def __init__(self, teachers: str | None = None) -> None:
        from jupyterhub.services.auth import HubAuth

        self.auth = HubAuth(cache_max_age=60)
        listed = os.environ.get("SETWIDGETS_CLASSROOM_TEACHERS", "") if teachers is None else teachers
        self.teachers = {name.strip() for name in listed.split(",") if name.strip()}

    async def identify(self, token: str | None) -> Identity | None:
        """The identity of ``token``'s owner, when the hub knows it and it may reach this service."""
        if not token:
            return None
        model = await self.auth.user_for_token(token, use_cache=True, sync=False)
        if not model or model.get("kind", "user") != "user":
            return None
        if not self.auth.check_scopes(self.auth.access_scopes, model):
            return None
        name = model["name"]
        return Identity(teacher=name in self.teachers, name=name)

    def join_name(self, identity: Identity | None, body: dict[str, Any]) -> Any:
        """On the hub a player is their hub user: the name is theirs, not chosen."""
        if identity is None:
            raise PermissionError("joining on the hub needs your server's token (JUPYTERHUB_API_TOKEN)")
        return identity.name

    def new_token(self) -> str | None:
        """No token of our own: the hub's token says who plays."""
        return None
