"""The room service's saves run off its event loop: a slow save of one room holds up no other room.

The service runs in this process (its own thread and loop, on a real SQLite file and a real
port), so that the delay can be put where a slow disk would put it: SQLAlchemy's own
``before_cursor_execute`` hook on the store's engine sleeps before the UPDATE of one room only.
The clients are the notebooks' own :class:`Seat` and :class:`Desk`, over real WebSockets.
"""

from __future__ import annotations

import asyncio
import sqlite3
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa
from classroom_service import STALL, in_process, wait_until

from setwidgets import as_cards, find_sets
from setwidgets._inputs import path_text
from setwidgets.classroom import Desk, Seat
from setwidgets.classroom import store as store_module
from setwidgets.classroom.rooms import Room
from setwidgets.classroom.store import WAIT_SECONDS, Store, StoreError


def run_apart(coroutine):
    """``asyncio.run`` in a thread of its own: a browser test earlier in the same worker may leave
    Playwright's loop running in the main thread, where ``asyncio.run`` refuses to start."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


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


# -- the store's own threads take turns at SQLite's one write lock ---------------------------------

HOLD = 1.5 * WAIT_SECONDS
"""Seconds one room's write holds SQLite's write lock below: longer than a wait for another program."""


def _hold_the_write_lock_of(store: Store, code: str) -> threading.Event:
    """Make room ``code``'s next UPDATE hold SQLite's write lock ``HOLD`` s; the event says it holds it."""
    holding = threading.Event()

    def hold(connection, cursor, statement, parameters, *rest):
        # After the statement ran: SQLite's write lock is held (as by a disk that stalls mid-write).
        update = statement.lstrip().upper().startswith("UPDATE")
        if update and code in str(parameters) and not holding.is_set():
            holding.set()
            time.sleep(HOLD)

    sa.event.listen(store.engine, "after_cursor_execute", hold)
    return holding


def test_the_stores_own_threads_wait_for_each_other_and_are_never_refused_as_another_program(tmp_path):
    # 40 rooms opened at once once had a join refused: "another program kept the database busy",
    # while only the store's own threads were writing. Here one room's write holds SQLite's
    # write lock for twice WAIT_SECONDS while 44 other rooms are saved through off_loop.
    store = Store(f"sqlite:///{tmp_path / 'rooms.sqlite'}")
    rooms = [Room(f"R{number:04d}", seed=number) for number in range(45)]
    try:
        for room in rooms:
            store.save(room)
        holding = _hold_the_write_lock_of(store, rooms[0].code)
        for number, room in enumerate(rooms):
            room.join(f"Player {number}")

        async def save_all() -> list:
            first = asyncio.ensure_future(store.off_loop(store.write, rooms[0].code, store.text(rooms[0])))
            await asyncio.get_running_loop().run_in_executor(None, holding.wait, 10)
            others = [store.off_loop(store.write, room.code, store.text(room)) for room in rooms[1:]]
            # A read while the lock is held: SQLite's readers never wait for its writer.
            started = time.perf_counter()
            assert await store.off_loop(store.seat, "nobody's token") is None
            read = time.perf_counter() - started
            return [read, *await asyncio.gather(first, *others, return_exceptions=True)]

        started = time.perf_counter()
        read, *results = run_apart(save_all())
        seconds = time.perf_counter() - started
        refused = [str(result) for result in results if isinstance(result, BaseException)]
        assert not refused, refused
        assert seconds >= HOLD  # the others really waited for the held write
        assert read < WAIT_SECONDS, read
        for room in rooms:
            assert store.saved(room.code) == room.to_data()
    finally:
        store.close()
    again = Store(f"sqlite:///{tmp_path / 'rooms.sqlite'}")
    try:
        assert {code: room.to_data() for code, room in again.load().items()} == {
            room.code: room.to_data() for room in rooms
        }
    finally:
        again.close()


def test_a_save_that_waits_too_long_for_the_saves_before_it_is_refused_with_a_sentence(tmp_path, monkeypatch):
    # A disk that hangs mid-write would keep every room's save waiting: after _TURN_SECONDS (here
    # a fifth of HOLD) the save queued behind it is refused, in words that blame no other program.
    monkeypatch.setattr(store_module, "_TURN_SECONDS", HOLD / 5)
    store = Store(f"sqlite:///{tmp_path / 'rooms.sqlite'}")
    rooms = [Room(code, seed=1) for code in ("BCDFG", "HJKLM")]
    try:
        for room in rooms:
            store.save(room)
        holding = _hold_the_write_lock_of(store, rooms[0].code)

        async def both() -> list:
            first = asyncio.ensure_future(store.off_loop(store.save, rooms[0]))
            await asyncio.get_running_loop().run_in_executor(None, holding.wait, 10)
            return await asyncio.gather(first, store.off_loop(store.save, rooms[1]), return_exceptions=True)

        held, queued = run_apart(both())
        assert held is None
        assert isinstance(queued, StoreError)
        where = path_text(tmp_path / "rooms.sqlite")
        assert str(queued).startswith(f"could not save room HJKLM in {where}: ")
        assert f"the saves queued before it took more than {HOLD / 5:g} s" in str(queued)
        assert "another program" not in str(queued)
        store.save(rooms[1])  # the turn is free again
    finally:
        store.close()


def test_another_program_holding_the_file_is_still_refused_after_the_usual_wait(tmp_path):
    path = tmp_path / "rooms.sqlite"
    store = Store(f"sqlite:///{path}")
    rooms = [Room(code, seed=1) for code in ("BCDFG", "HJKLM")]
    try:
        for room in rooms:
            store.save(room)
            room.join("Ana")
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")  # a database browser in the middle of a change

        async def save(room: Room) -> float:
            started = time.perf_counter()
            with pytest.raises(StoreError, match="another program kept the database busy for more than 0.5"):
                await store.off_loop(store.write, room.code, store.text(room))
            return time.perf_counter() - started

        async def both() -> list[float]:
            return await asyncio.gather(*(save(room) for room in rooms))

        try:
            waits = run_apart(both())
        finally:
            other.execute("ROLLBACK")
            other.close()
        # Each save waited its WAIT_SECONDS for the other program (one after the other: they
        # take turns), and no longer.
        assert WAIT_SECONDS * 0.9 <= min(waits) < WAIT_SECONDS + 0.5, waits
        assert max(waits) < 2 * WAIT_SECONDS + 1.0, waits
        assert [store.saved(room.code)["members"] for room in rooms] == [[], []]

        # A refused save let its turn go: the same saves, sent again, are made.
        async def again() -> None:
            await asyncio.wait_for(asyncio.gather(*(store.off_loop(store.save, room) for room in rooms)), 5)

        run_apart(again())
        assert [store.saved(room.code) for room in rooms] == [room.to_data() for room in rooms]
    finally:
        store.close()
