"""Ports for the servers the tests start: outside the range the system hands out, each reserved.

A port found free with ``bind(("127.0.0.1", 0))`` comes from the system's ephemeral range, the
range every kernel's jupyter_client and every other ``bind(0)`` on the machine draws from too.
Between the pick and the server's own bind (seconds, for a Jupyter server starting on a busy
machine) another process can take it: in one CI run a Formgrader found its port taken, moved to
the next one, and the test talked to whatever else answered on the first. So the tests pick their
ports outside that range, where no ``bind(0)`` lands. Each pick is checked with a bind and
reserved with a lock file held for the life of the picking process, so that the other test
processes running at the same time (pytest-xdist's workers, the suite on another Python) pass it
over too; a process hands out each port at most once.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import socket
import tempfile
import threading
from pathlib import Path

_SPAN = 16384  # at most this many ports, next to the ephemeral range
_LOCKS = Path(tempfile.gettempdir()) / "setwidgets-test-ports"
_lock = threading.Lock()
_state: dict[str, int] = {}  # "pid": the process the sequence belongs to, "next": its next port
_held: dict[int, int] = {}  # port: the open lock file that reserves it for this process


def _range(ephemeral: str | None = None) -> tuple[int, int]:
    """The ports the tests may use, ``first`` to ``end - 1``: the larger of the spaces below and
    above the ephemeral range ``ephemeral`` ("low high", read from Linux's
    /proc/sys/net/ipv4/ip_local_port_range when not given), at most ``_SPAN`` ports of it."""
    if ephemeral is None:
        try:
            ephemeral = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text()
        except OSError:
            ephemeral = "32768 60999"  # Linux's default; elsewhere each pick is still checked
    low, high = (int(part) for part in ephemeral.split()[:2])
    below = (max(1024, low - _SPAN), low)
    above = (high + 1, min(65536, high + 1 + _SPAN))
    first, end = max(below, above, key=lambda span: span[1] - span[0])
    if end - first < 256:
        raise RuntimeError(f"too few ports outside the ephemeral range {low}-{high} for the tests")
    return first, end


def _reserve(port: int) -> bool:
    """Hold ``port`` for this process: free now, and no other test process holds it."""
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    try:
        _LOCKS.mkdir(mode=0o777, exist_ok=True)
        handle = os.open(_LOCKS / str(port), os.O_CREAT | os.O_RDWR, 0o666)
    except OSError:
        return True  # no place for lock files here: the bind above is the only check
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(handle)
        return False
    _held[port] = handle
    return True


def free_ports(count: int = 1) -> int:
    """A port p on 127.0.0.1 with p, ..., p+count-1 free now, reserved for this process and not
    handed out by it before (a hub uses four in a row: its public port, its proxy's API, the hub
    itself and the classroom service)."""
    first, end = _range()
    size = end - first
    with _lock:
        if _state.get("pid") != os.getpid():  # a new process, or a forked child: its own sequence
            _held.clear()  # a parent's lock files are the parent's
            digest = hashlib.sha256(str(os.getpid()).encode()).digest()
            _state.update(pid=os.getpid(), next=first + int.from_bytes(digest[:4], "big") % size)
        for _ in range(size):
            port = _state["next"]
            if port + count > end:
                port = first
            _state["next"] = port + count
            if all(_reserve(port + offset) for offset in range(count)):
                return port
    raise RuntimeError(f"no {count} free ports in a row on 127.0.0.1 between {first} and {end}")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free now, reserved for this process and new to it."""
    return free_ports(1)
