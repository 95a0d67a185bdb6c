"""The tests' ports (tests/ports.py): outside the ephemeral range, free, never handed out twice."""

import socket
import threading

import ports


def test_ports_lie_below_the_ephemeral_range_are_free_and_never_repeat():
    first, end = ports._range()
    given = [ports.free_port() for _ in range(200)]
    assert len(set(given)) == len(given), "a port was handed out twice"
    assert all(first <= port < end for port in given), (first, end, given[:5])
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", given[-1]))


def test_a_port_someone_listens_on_is_passed_over():
    ports.free_port()  # the sequence has started
    with socket.socket() as holder:
        # The next port in this process's sequence, taken before it is handed out.
        with ports._lock:
            taken = ports._next
        holder.bind(("127.0.0.1", taken))
        holder.listen()
        assert ports.free_port() != taken


def test_a_block_of_four_is_free_in_a_row():
    start = ports.free_ports(4)
    for offset in range(4):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", start + offset))
    assert ports.free_port() not in range(start, start + 4)


def test_threads_get_different_ports():
    got: list[int] = []
    threads = [
        threading.Thread(target=lambda: got.extend(ports.free_port() for _ in range(50))) for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(got)) == 200
