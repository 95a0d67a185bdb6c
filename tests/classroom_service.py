"""A real classroom service for the tests: ``python -m setwidgets.classroom`` in a subprocess.

::

    with ClassroomService(tmp_path / "classroom") as service:
        desk = Desk.open(url=service.url, token=service.token, seed=3)

The service listens on a free loopback port and keeps its rooms, the teacher's token and
``server.json`` in its own classroom folder (``SETWIDGETS_CLASSROOM_HOME``), so a test touches
no user's classroom. It runs in a process group of its own, killed on exit. :func:`wait_until`
polls a condition, for what the service pushes to the notebooks' connections.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(condition: Callable[[], Any], timeout: float = 10.0, what: str = "the condition") -> Any:
    """Poll ``condition()`` every 20 ms until it is true; return its value, or fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not come true within {timeout} s")
        time.sleep(0.02)


class ClassroomService:
    """The room service on a free port, with its classroom folder ``home``; a context manager."""

    def __init__(self, home: Path, port: int | None = None) -> None:
        self.home = Path(home)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.process: subprocess.Popen | None = None
        self.log_path = self.home.parent / f"{self.home.name}-service.log"

    @property
    def env(self) -> dict[str, str]:
        """The environment a process (a kernel, say) needs to find this service and its folder."""
        return {"SETWIDGETS_CLASSROOM_HOME": str(self.home)}

    @property
    def token(self) -> str:
        """The teacher's token, as the service wrote it in its folder."""
        return json.loads((self.home / "teacher.json").read_text())["token"]

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def start(self, timeout: float = 20.0) -> ClassroomService:
        """Start the service and wait until it answers."""
        self.home.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, **self.env, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
        env.pop("SETWIDGETS_CLASSROOM_URL", None)
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "setwidgets.classroom", "--port", str(self.port)],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the classroom service exited:\n{self.log()}")
            if self.answers():
                return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the classroom service did not answer within {timeout} s:\n{self.log()}")

    def answers(self) -> bool:
        """True when the service answers (a request without a token is refused, but answered)."""
        try:
            urllib.request.urlopen(self.url + "api/rooms", timeout=1)
        except urllib.error.HTTPError:
            return True
        except OSError:
            return False
        return True

    def stop(self) -> None:
        """Kill the service's process group."""
        if self.process is None or self.process.poll() is not None:
            return
        for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
            try:
                os.killpg(self.process.pid, sig)
            except ProcessLookupError:
                return
            try:
                self.process.wait(wait)
                return
            except subprocess.TimeoutExpired:
                continue

    def __enter__(self) -> ClassroomService:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
