"""The tests' ports (tests/ports.py): outside the ephemeral range, free, reserved, never handed out twice."""

import socket
import subprocess
import sys
from pathlib import Path

import ports
import pytest

TESTS = Path(__file__).resolve().parent


def _ephemeral() -> tuple[int, int]:
    low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
    return int(low), int(high)


def _bindable(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@pytest.mark.skipif(not Path("/proc/sys/net/ipv4/ip_local_port_range").exists(), reason="Linux's /proc")
def test_ports_lie_outside_the_ephemeral_range_are_free_and_never_repeat():
    low, high = _ephemeral()
    given = [ports.free_port() for _ in range(200)]
    assert len(set(given)) == len(given), "a port was handed out twice"
    assert all(1024 <= port < low or high < port <= 65535 for port in given), (low, high, given[:5])
    assert _bindable(given[-1])


@pytest.mark.parametrize(
    ("ephemeral", "span"),
    [
        ("32768 60999", (16384, 32768)),  # Linux's default: the ports below it
        ("1024 65000", (65001, 65536)),  # a range from 1024 up: the ports above it
        ("49152 65535", (32768, 49152)),  # the IANA range
    ],
)
def test_the_span_is_the_larger_space_beside_the_ephemeral_range(ephemeral, span):
    assert ports._range(ephemeral) == span


def test_a_machine_without_room_beside_the_ephemeral_range_is_told_so():
    with pytest.raises(RuntimeError, match="too few ports outside the ephemeral range 1024-65535"):
        ports._range("1024 65535")


def test_a_port_someone_listens_on_is_passed_over_in_a_block_too():
    ports.free_port()  # the sequence has started
    with ports._lock:
        taken = ports._state["next"] + 2  # inside the next block of four
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", taken))
        holder.listen()
        start = ports.free_ports(4)
    assert taken not in range(start, start + 4)
    assert all(_bindable(start + offset) for offset in range(4))
    assert ports.free_port() not in range(start, start + 4)


def test_the_sequence_wraps_around_at_the_end_of_the_span(monkeypatch):
    first, end = ports._range()
    ports.free_port()  # this process's sequence has started
    with ports._lock:
        monkeypatch.setitem(ports._state, "next", end - 1)
    assert ports.free_ports(4) < end - 4, "a block that would cross the end starts again at the beginning"


def test_a_port_another_process_reserved_is_passed_over():
    # Another test process reserves its next ports and holds them while this one picks.
    child = subprocess.Popen(
        [sys.executable, "-c", "import ports, sys; print(*[ports.free_port() for _ in range(50)]); input()"],
        cwd=TESTS,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        theirs = {int(port) for port in child.stdout.readline().split()}
        ports.free_port()  # this process's sequence has started
        with ports._lock:
            ports._state["next"] = min(theirs)  # walk right through the other process's ports
        mine = {ports.free_port() for _ in range(60)}
        assert len(theirs) == 50 and not mine & theirs
    finally:
        child.communicate("\n", timeout=30)
