"""The room service's saves run off its event loop: a slow save of one room holds up no other room.

The service runs in this process (its own thread and loop, on a real SQLite file and a real
port), so that the delay can be put where a slow disk would put it: SQLAlchemy's own
``before_cursor_execute`` hook on the store's engine sleeps before the UPDATE of one room only.
The clients are the notebooks' own :class:`Seat` and :class:`Desk`, over real WebSockets.
"""

from __future__ import annotations

import statistics
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from classroom_service import STALL, in_process, wait_until

from setwidgets import as_cards, find_sets
from setwidgets.classroom import Desk, Seat


@pytest.fixture
def service(tmp_path, monkeypatch):
    yield from in_process(tmp_path, monkeypatch)


def claim_a_set(seat: Seat) -> tuple[float, dict]:
    """Claim a SET of the seat's table; the seconds until the answer (sent once the change is saved)."""
    found = find_sets(as_cards(seat.view["table"]))
    assert found, "the seeded table holds a SET"
    start = time.perf_counter()
    answer = seat.claim([c.code for c in found[0]])
    return time.perf_counter() - start, answer


def test_a_slow_save_of_one_room_delays_no_other_room(service):
    url, teacher, store, stalled = service
    slow_desk = Desk.open(token=teacher, url=url, seed=5, claim_seconds=None)
    fast_desk = Desk.open(token=teacher, url=url, seed=6, claim_seconds=None)
    slow, watcher = Seat(slow_desk.code, "Ana", url=url), Seat(slow_desk.code, "Ben", url=url)
    fast = Seat(fast_desk.code, "Cleo", url=url)
    try:
        # Each claim deals new cards, so the fast room's table keeps a SET for a dozen claims.
        baseline = []
        for _ in range(5):
            seconds, answer = claim_a_set(fast)
            assert answer["ok"], answer
            baseline.append(seconds)
        before = watcher.view["version"]
        stalled.add(slow_desk.code)
        with ThreadPoolExecutor(1) as pool:
            started = time.perf_counter()
            pending = pool.submit(claim_a_set, slow)
            time.sleep(0.1)  # the slow room's save is under way
            during = []
            for _ in range(5):
                seconds, answer = claim_a_set(fast)
                assert answer["ok"], answer
                during.append(seconds)
            assert not pending.done(), "the slow save was over before the other room's claims"
            # The slow room changes for nobody until its save committed.
            assert watcher.view["version"] == before
            seconds, answer = pending.result(10)
        stalled.clear()
        assert answer["ok"], answer
        assert seconds >= STALL and time.perf_counter() - started >= STALL
        wait_until(lambda: watcher.view["version"] > before, what="the slow room's claim reaching Ben")
        assert store.saved(slow_desk.code)["version"] == watcher.view["version"]
        # The other room's claims, served while the slow save slept: within twice their own
        # baseline (medians; 10 ms at least, a timer's grain on a shared machine). Saving on the
        # loop, each would have waited for the whole stall (1 s).
        assert statistics.median(during) <= 2 * max(statistics.median(baseline), 0.010), (baseline, during)
        assert max(during) < STALL / 2, during
    finally:
        for connection in (slow, watcher, fast, slow_desk, fast_desk):
            connection.close()
