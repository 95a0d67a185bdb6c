"""Start the room service: ``python -m setwidgets.classroom`` (``course.py classroom`` does this).

On one machine it prints the teacher's token and keeps it, with the service's address, in the
classroom folder (``setwidgets.classroom.client.home()``), where the notebooks of the same user
find them. Under JupyterHub (``--hub``) it takes its address and prefix from the hub.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import secrets
import socket
import sys
import time
from pathlib import Path
from typing import Any

from setwidgets import _extras

# The service runs on Tornado and keeps its rooms with SQLAlchemy, the classroom extra. Without
# them, 'python -m setwidgets.classroom' says in one sentence what to install, instead of ending
# in a ModuleNotFoundError from deep inside the service.
_extras.command_needs("classroom", "python -m setwidgets.classroom")

from setwidgets.classroom.client import home  # noqa: E402
from setwidgets.classroom.identity import LocalTokens  # noqa: E402
from setwidgets.classroom.limits import ENDED_KEEP_SECONDS, IDLE_SECONDS, MAX_CONNECTIONS  # noqa: E402
from setwidgets.classroom.service import serve  # noqa: E402
from setwidgets.classroom.store import Store, StoreError  # noqa: E402


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


class _Quiet(logging.Filter):
    """Lets through at most ``most`` records of one kind (one message template) every ``seconds``,
    then says how many were left out: a flood of one error cannot fill the disk with its copies."""

    def __init__(self, most: int = 5, seconds: float = 10.0) -> None:
        super().__init__()
        self.most, self.seconds = most, seconds
        self.seen: dict[tuple[str, Any], list[float]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.msg)
        now = time.monotonic()
        started, count = self.seen.get(key, (now, 0))
        if now - started >= self.seconds:
            if count > self.most:
                record.msg = (
                    f"{record.msg} [and {count - self.most} more like it in {self.seconds:g} s, left out]"
                )
            started, count = now, 0
        self.seen[key] = [started, count + 1]
        if len(self.seen) > 1000:
            self.seen.clear()
        return count < self.most


def _logging() -> None:
    """Warnings and errors to the terminal, with the time, a flood of one kind cut short."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(_Quiet())
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
    # Tornado's own access log names each request's full address, query and all (a token may be
    # in it); the service logs refused requests itself, without the query.
    logging.getLogger("tornado.access").setLevel(logging.CRITICAL)


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
    parser.add_argument(
        "--keep-ended",
        type=float,
        default=ENDED_KEEP_SECONDS / 3600,
        metavar="HOURS",
        help=f"hours an ended room is kept before it is deleted (default {ENDED_KEEP_SECONDS / 3600:g})",
    )
    parser.add_argument(
        "--idle",
        type=float,
        default=IDLE_SECONDS,
        metavar="SECONDS",
        help=f"seconds a connection may wait without sending its request (default {IDLE_SECONDS:g})",
    )
    parser.add_argument(
        "--max-connections",
        type=int,
        default=MAX_CONNECTIONS,
        metavar="N",
        help=f"connections held open at once, at most (default {MAX_CONNECTIONS})",
    )
    options = parser.parse_args(argv)
    if not options.keep_ended > 0 or not options.idle > 0 or options.max_connections < 1:
        parser.error(
            "--keep-ended and --idle take a number above 0, --max-connections a whole number above 0"
        )
    _logging()
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
        # The token itself is not printed: a terminal's output ends up in logs and screen shares.
        print(f"The teacher's token is kept in {folder / 'teacher.json'} (readable by you alone)", flush=True)
    try:
        asyncio.run(
            serve(
                store,
                authority,
                port,
                address,
                prefix,
                idle=options.idle,
                ended_keep=options.keep_ended * 3600,
                connections=options.max_connections,
            )
        )
    except KeyboardInterrupt:
        return 0
    except StoreError as failed:  # the rooms could not be read: a sentence, not a traceback
        print(f"The classroom service stopped: {failed}", file=sys.stderr, flush=True)
        return 1
    finally:
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
