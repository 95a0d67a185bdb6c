"""Ports for the servers the tests start: below the range the kernel hands out, none given twice.

A port found free with ``bind(("127.0.0.1", 0))`` comes from the system's ephemeral range, the
range every kernel's jupyter_client and every other ``bind(0)`` on the machine draws from too.
Between the pick and the server's own bind (seconds, for a Jupyter server starting on a busy
machine) another process can take it: in one CI run a Formgrader found its port taken, moved to
the next one, and the test talked to whatever else answered on the first. So the tests pick their
ports below that range, where nothing on the machine picks one by itself. Each process walks its
own sequence from a start of its own, and never hands out the same port twice.
"""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path

_SPAN = 16384  # ports below the ephemeral range the tests may use
_lock = threading.Lock()
_next: int | None = None


def _range() -> tuple[int, int]:
    """The ports the tests may use: the ``_SPAN`` ports below the ephemeral range (above 1023)."""
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768  # Linux's default; elsewhere the pick is still checked with a bind
    return max(1024, low - _SPAN), low


def _bindable(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_ports(count: int = 1) -> int:
    """A port p on 127.0.0.1 with p, ..., p+count-1 all free now and never handed out before by
    this process (a hub uses four in a row: its public port, its proxy's API, the hub itself and
    the classroom service)."""
    global _next
    first, end = _range()
    size = end - first
    with _lock:
        if _next is None:
            _next = first + (os.getpid() * 7919) % size  # processes start apart
        for _ in range(size):
            port = _next
            _next = port + count if port + 2 * count <= end else first
            if port + count <= end and all(_bindable(port + offset) for offset in range(count)):
                return port
    raise RuntimeError(f"no {count} free ports in a row on 127.0.0.1 between {first} and {end}")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nobody listens on now and this process has not handed out."""
    return free_ports(1)
