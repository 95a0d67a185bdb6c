"""A real classroom service for the tests, started as a teacher starts it: ``course.py classroom``.

::

    @pytest.fixture
    def service(tmp_path, monkeypatch):
        yield from classroom_service.running(tmp_path, monkeypatch)

    def test_something(service):
        desk = Desk.open(seed=3)          # finds the service through the classroom folder

The service listens on a free loopback port and keeps its rooms, the teacher's token and
``server.json`` in a classroom folder of the test's own (``SETWIDGETS_CLASSROOM_HOME``, which
:func:`running` also sets for the test process, so ``Seat`` and ``Desk`` find it as a notebook
does). It runs in a process group of its own: :meth:`Service.kill` kills it, as a crash would,
and :meth:`Service.start` starts it again on the same port and folder. :func:`wait_until`
polls a condition, for what the service pushes to the clients.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ports import free_port

ROOT = Path(__file__).resolve().parents[1]


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


class Service:
    """``course.py classroom`` on a free port, with its classroom folder ``home``; a context manager."""

    def __init__(
        self, home: Path, port: int | None = None, options: tuple[str, ...] = (), prefix: tuple[str, ...] = ()
    ) -> None:
        self.options = options
        self.prefix = prefix  # a command the service runs under (unshare, for a disk of its own)
        self.home = Path(home)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.process: subprocess.Popen | None = None
        self.log_path = self.home.parent / f"{self.home.name}-service.log"

    @property
    def env(self) -> dict[str, str]:
        """What a process (a kernel, say) needs in its environment to find this service."""
        return {"SETWIDGETS_CLASSROOM_HOME": str(self.home)}

    @property
    def teacher_token(self) -> str:
        """The teacher's token, as the service keeps it in its folder."""
        return json.loads((self.home / "teacher.json").read_text())["token"]

    def log(self) -> str:
        """What the service printed so far."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def start(self, timeout: float = 30.0) -> Service:
        """Start the service (again) and wait until it answers."""
        self.home.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, **self.env, "PYTHONUNBUFFERED": "1"}
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")]))
        env.pop("SETWIDGETS_CLASSROOM_URL", None)
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    *self.prefix,
                    sys.executable,
                    str(ROOT / "course.py"),
                    "classroom",
                    "--port",
                    str(self.port),
                    *self.options,
                ],
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
        self.kill()
        raise RuntimeError(f"the classroom service did not answer within {timeout} s:\n{self.log()}")

    def answers(self) -> bool:
        """True when the service answers (a request without a token is refused, but answered)."""
        try:
            urllib.request.urlopen(self.url + "api/rooms", timeout=1).close()
        except urllib.error.HTTPError:
            return True
        except OSError:
            return False
        return True

    def kill(self) -> None:
        """Kill the service's process group at once, as a crash would."""
        if self.process is None or self.process.poll() is not None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            return
        self.process.wait(10)

    def __enter__(self) -> Service:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.kill()


def running(tmp_path: Path, monkeypatch: Any) -> Iterator[Service]:
    """A fixture's body: the service in ``tmp_path/classroom``, found by this process's clients."""
    service = Service(tmp_path / "classroom")
    monkeypatch.setenv("SETWIDGETS_CLASSROOM_HOME", str(service.home))
    monkeypatch.delenv("SETWIDGETS_CLASSROOM_URL", raising=False)
    with service:
        yield service


STALL = 1.0
"""Seconds a stalled room's save sleeps before it writes (:func:`in_process`)."""


def in_process(tmp_path: Path, monkeypatch: Any) -> Iterator[tuple[str, str, Any, set[str]]]:
    """The service in a thread of this process, on a SQLite file and a free port; yields its url, the
    teacher's token, its Store, and a set of room codes whose saves stall ``STALL`` seconds
    (SQLAlchemy's ``before_cursor_execute`` hook, where a stalled disk would hold them).

    For tests that need the service's insides (its store's engine); others start it as a teacher
    does, with :func:`running`."""
    import asyncio
    import secrets
    import threading

    import sqlalchemy as sa

    from setwidgets.classroom.identity import LocalTokens
    from setwidgets.classroom.service import Classroom, make_app
    from setwidgets.classroom.store import Store

    monkeypatch.setenv("SETWIDGETS_CLASSROOM_HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    store = Store(f"sqlite:///{tmp_path / 'rooms.sqlite'}")
    stalled: set[str] = set()

    def stall(connection: Any, cursor: Any, statement: str, parameters: Any, *rest: Any) -> None:
        # Where a stalled disk would hold a save: before the write, in the store's thread.
        if statement.lstrip().upper().startswith("UPDATE") and any(c in str(parameters) for c in stalled):
            time.sleep(STALL)

    sa.event.listen(store.engine, "before_cursor_execute", stall)
    teacher, port = secrets.token_urlsafe(16), free_port()
    started, loop_box = threading.Event(), {}  # type: ignore[var-annotated]

    async def serve() -> None:
        classroom = Classroom(store, LocalTokens(store, teacher))
        make_app(classroom).listen(port, "127.0.0.1")
        classroom.start()
        loop_box["stop"] = asyncio.Event()
        loop_box["loop"] = asyncio.get_running_loop()
        started.set()
        await loop_box["stop"].wait()

    thread = threading.Thread(target=asyncio.run, args=(serve(),), daemon=True)
    thread.start()
    assert started.wait(10)
    yield f"http://127.0.0.1:{port}/", teacher, store, stalled
    loop_box["loop"].call_soon_threadsafe(loop_box["stop"].set)
    thread.join(10)
    store.close()
