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

from setwidgets.classroom.identity import Identity

__all__ = ["HubTokens", "hub_address"]


def hub_address() -> tuple[int, str]:
    """The port and the prefix JupyterHub gave this service."""
    url = os.environ.get("JUPYTERHUB_SERVICE_URL", "http://127.0.0.1:8765")
    return urlsplit(url).port or 80, os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/services/classroom/")


class HubTokens:
    """Identities from the hub's tokens (JupyterHub's ``HubAuth``); players take their hub names.

    Each token is checked once with the hub (``GET /hub/api/user``, with the token itself), and the
    answer kept for ``cache_seconds``: a call or a claim does not wait for the hub.
    """

    def __init__(
        self, teachers: str | None = None, service: str | None = None, cache_seconds: int = 60
    ) -> None:
        from jupyterhub.services.auth import HubAuth

        # HubAuth reads the hub's API address and this service's own token from the environment the
        # hub gives a managed service (JUPYTERHUB_API_URL, JUPYTERHUB_API_TOKEN).
        self.auth = HubAuth(cache_max_age=cache_seconds)
        service = service or os.environ.get("JUPYTERHUB_SERVICE_NAME") or "classroom"
        self.scope = f"access:services!service={service}"
        listed = os.environ.get("SETWIDGETS_CLASSROOM_TEACHERS", "") if teachers is None else teachers
        self.teachers = {name.strip() for name in listed.split(",") if name.strip()}

    async def identify(self, token: str | None) -> Identity | None:
        """The identity of ``token``'s owner, when the hub knows it and it may reach this service."""
        if not token:
            return None
        # sync=False: an awaitable on the service's own event loop (the default, sync=True, would
        # block Tornado's loop on a thread of HubAuth's while every room waits).
        model = await self.auth.user_for_token(token, use_cache=True, sync=False)
        if not model or model.get("kind", "user") != "user":
            return None  # a service's token, or one the hub does not know (it answers 403)
        # The token's own scopes, not its owner's: a token made for something else cannot play.
        if not self.auth.check_scopes({self.scope}, {**model, "scopes": model.get("scopes", [])}):
            return None
        name = model["name"]
        return Identity(teacher=name in self.teachers, name=name)

    def join_name(self, identity: Identity | None, body: dict[str, Any]) -> Any:
        """On the hub a player is their hub user: the name is theirs, not chosen."""
        if identity is None:
            raise PermissionError(
                "joining on the hub needs your server's token (JUPYTERHUB_API_TOKEN), with access to "
                "the classroom service"
            )
        return identity.name

    def new_token(self) -> str | None:
        """No token of our own: the hub's token says who plays."""
        return None
