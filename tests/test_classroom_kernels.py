"""Five students, each in a real kernel of their own, play one class game to its end.

The kernels are started with jupyter_client, as JupyterLab starts a student's kernel; each
joins the room with ``Seat`` and plays from its own notebook code. All five claim the same SET
at the same moment: the service serves the first to arrive and refuses the others without a
penalty. After every move each kernel holds the same table. Midway the service is killed and
started again; the kernels reconnect by themselves and the game goes on to its end.
"""

from __future__ import annotations

import json
import time

import classroom_service
import pytest
from jupyter_client.manager import start_new_kernel

from setwidgets.classroom import Desk

STUDENTS = ["Ana", "Ben", "Cleo", "Dev", "Eli"]

SETUP = """
import json
from setwidgets import as_cards, find_sets
from setwidgets.classroom import Seat
seat = Seat({code!r}, name={name!r})

def first_set():
    sets = find_sets(as_cards(seat.view["table"]))
    return [c.code for c in sets[0]] if sets else None

def move():
    cards = first_set()
    return seat.claim(cards) if cards else seat.no_set()
"""


@pytest.fixture
def service(tmp_path, monkeypatch):
    yield from classroom_service.running(tmp_path, monkeypatch)


class Student:
    """A kernel of one student; ``run(code)`` runs code there and returns its value (JSON)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.manager, self.client = start_new_kernel(kernel_name="python3")

    def send(self, code: str) -> str:
        return self.client.execute(code, store_history=False)

    def result(self, msg_id: str, timeout: float = 30) -> object:
        value, error = None, None
        deadline = time.monotonic() + timeout
        while True:
            msg = self.client.get_iopub_msg(timeout=max(0.1, deadline - time.monotonic()))
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "execute_result":
                value = json.loads(content["data"]["text/plain"].strip("'"))
            elif kind == "error":
                error = "\n".join(content["traceback"])
            elif kind == "status" and content["execution_state"] == "idle":
                break
        assert error is None, f"{self.name}'s kernel: {error}"
        return value

    def run(self, code: str) -> object:
        return self.result(self.send(code))

    def stop(self) -> None:
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=True)


@pytest.fixture
def students(service):
    started = []
    try:
        for name in STUDENTS:
            started.append(Student(name))
        yield started
    finally:
        for student in started:
            student.stop()


def views(students: list[Student]) -> list[dict]:
    return [
        s.run("json.dumps({k: v for k, v in seat.view.items() if k not in ('you', 'time_left')})")
        for s in students
    ]


def settled(students: list[Student], version: int) -> list[dict]:
    """The views of every kernel, once each holds ``version`` of the room."""
    deadline = time.monotonic() + 15
    while True:
        seen = views(students)
        if all(v["version"] >= version for v in seen):
            return seen
        assert time.monotonic() < deadline, [v["version"] for v in seen]
        time.sleep(0.05)


def test_five_kernels_play_one_game_to_its_end_across_a_restart(service, students):
    desk = Desk.open(variant="standard", seed=11, claim_seconds=10)
    for student in students:
        student.run(SETUP.format(code=desk.code, name=student.name) + "\njson.dumps(seat.name)")
    version = len(STUDENTS)  # one change for each student who joined
    assert [v["version"] for v in settled(students, version)] == [version] * len(STUDENTS)

    # All five pick the same SET from the same table, then claim at the same moment.
    picks = [s.run("cards = first_set()\njson.dumps(cards)") for s in students]
    assert picks.count(picks[0]) == 5 and picks[0] is not None
    sent = [s.send("json.dumps(seat.claim(cards))") for s in students]
    answers = [s.result(m) for s, m in zip(students, sent)]
    served = [a for a in answers if a["ok"]]
    assert len(served) == 1, answers
    winner = STUDENTS[answers.index(served[0])]
    for answer in answers:
        if not answer["ok"]:
            assert "already took it" in answer["message"] and winner in answer["message"], answer
    seen = settled(students, version + 1)
    assert all(v == seen[0] for v in seen), "every kernel holds the same room"
    assert {p["name"]: p["score"] for p in seen[0]["players"]} == {n: int(n == winner) for n in STUDENTS}
    assert seen[0]["last"]["name"] == winner

    # Then in turn, each plays the first SET they see (or says there is none), to the end.
    moves, restarted = 0, False
    while seen[0]["status"] == "open":
        student = students[moves % len(students)]
        answer = student.run("json.dumps(move())")
        assert answer["ok"], (student.name, answer)
        moves += 1
        seen = settled(students, seen[0]["version"] + 1)
        assert all(v == seen[0] for v in seen), f"after move {moves} the kernels disagree"
        if moves == 6 and not restarted:
            service.kill()
            service.start()
            restarted = True
            # Each kernel reconnects by itself and is sent the room as it was.
            deadline = time.monotonic() + 15
            while not all(s.run("json.dumps(seat.connected)") for s in students):
                assert time.monotonic() < deadline, "the kernels did not reconnect"
                time.sleep(0.05)
            assert settled(students, seen[0]["version"]) == seen
    assert restarted and seen[0]["status"] == "over"

    # The engine's end: the deck is used up and no SET is left; every card is somewhere.
    final = seen[0]
    assert final["deck_left"] == 0
    found = sum(p["sets"] for p in final["players"])
    assert 3 * found + len(final["table"]) == 81
    assert sum(p["score"] for p in final["players"]) == found - sum(p["penalties"] for p in final["players"])
    for student in students:
        you = student.run("json.dumps(seat.you)")
        mine = next(p for p in final["players"] if p["name"] == student.name)
        assert (you["score"], you["sets"]) == (mine["score"], mine["sets"])
