"""Start the room service: ``python -m setwidgets.classroom`` (``course.py classroom`` does this).

On one machine it prints the teacher's token and keeps it, with the service's address, in the
classroom folder (``setwidgets.classroom.client.home()``), where the notebooks of the same user
find them. Under JupyterHub (``--hub``) it takes its address and prefix from the hub.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import socket
import sys
from pathlib import Path

from setwidgets.classroom.client import home
from setwidgets.classroom.service import LocalTokens, serve
from setwidgets.classroom.store import Store, StoreError


def _teacher_token(folder: Path) -> str:
    path = folder / "teacher.json"
    try:
        return json.loads(path.read_text())["token"]
    except (OSError, ValueError, KeyError, TypeError):
        token = secrets.token_urlsafe(24)
        path.touch(mode=0o600)
        path.write_text(json.dumps({"token": token}))
        return token


def _network_address() -> str:
    """This machine's address on its local network (the one its route outwards leaves from)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # a documentation address: nothing is sent
            return probe.getsockname()[0]
        except OSError:
            return socket.gethostname()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m setwidgets.classroom",
        description="The room service of a live class game (docs/classroom.md is the guide).",
    )
    parser.add_argument("--port", type=int, default=8765, help="the port to listen on (default 8765)")
    parser.add_argument(
        "--ip", default="127.0.0.1", help="the address to listen on; 0.0.0.0 for a local network"
    )
    parser.add_argument(
        "--db",
        default=None,
        help="a database URL such as postgresql://user@host/classroom (default: SQLite, classroom folder)",
    )
    parser.add_argument(
        "--hub", action="store_true", help="run as a JupyterHub service (deploy/jupyterhub_config.py)"
    )
    options = parser.parse_args(argv)
    folder = home()
    folder.mkdir(parents=True, exist_ok=True)
    try:
        store = Store(options.db or f"sqlite:///{folder / 'rooms.sqlite'}")
    except (StoreError, TypeError, ValueError) as refused:
        # A database that is not the service's, or is held by another service: one sentence, no
        # traceback, and nothing started (docs/classroom.md, "Where the rooms are kept").
        print(f"The classroom service did not start: {refused}", file=sys.stderr, flush=True)
        return 1
    if options.hub:
        from setwidgets.classroom.hubauth import HubTokens, hub_address

        port, prefix = hub_address()
        authority, address = HubTokens(), "127.0.0.1"
    else:
        authority = LocalTokens(store, _teacher_token(folder))
        port, prefix, address = options.port, "/", options.ip
        everywhere = address in ("0.0.0.0", "")
        url = f"http://{'127.0.0.1' if everywhere else address}:{port}/"
        found: dict[str, object] = {"url": url, "pid": os.getpid()}
        if everywhere:
            found["network_url"] = f"http://{_network_address()}:{port}/"
        (folder / "server.json").write_text(json.dumps(found))
        print(f"The classroom service listens at {url}", flush=True)
        if everywhere:
            print(f"Students on other computers use {found['network_url']}", flush=True)
        print(
            f"The teacher's token (kept in {folder / 'teacher.json'}): {authority.teacher_token}", flush=True
        )
    try:
        asyncio.run(serve(store, authority, port, address, prefix))
    except KeyboardInterrupt:
        return 0
    finally:
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
