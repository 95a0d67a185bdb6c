"""A student's board at a locked room's door: it says that it waits, then plays once let in, or
says plainly that the teacher did not let them in, and asks no more.

Against the real service (in this process, on a real SQLite file and port: classroom_service's
``in_process``), with the teacher's projector and the students' boards as notebooks make them,
their buttons clicked with ``Button.click()``. The boards ask again every 0.2 s here, not every
few seconds as in class, so that the test takes a second or two (and stays within the address's
budget of requests: 5 a second, 60 at once). What a board's door hears comes from the door's
thread: each check waits for the words the student reads, the last thing that changes.
"""

from __future__ import annotations

from html import unescape

import pytest
from classroom_service import in_process, wait_until

from setwidgets.classroom import ClassroomError, client
from setwidgets.widgets import ClassBoard, ClassRoom, _scheduler
from setwidgets.widgets import _roomwords as words


@pytest.fixture
def service(tmp_path, monkeypatch):
    # No event loop runs in this thread, as in plain Python (see test_classroom_widgets.py's
    # outside_a_kernel): what a board's door hears is shown at once, from the door's thread.
    monkeypatch.setattr(_scheduler, "running_loop", lambda: None)
    monkeypatch.setattr(client, "ASK_SECONDS", 0.2)
    yield from in_process(tmp_path, monkeypatch)


def shown(board: ClassBoard) -> str:
    """The board's lines of text, as a student reads them."""
    lines = (board._room_widget, board._state_widget, board._status_widget)
    return " ".join(unescape(line.value) for line in lines)


def test_a_late_student_waits_then_plays_or_is_told_plainly_that_the_teacher_said_no(service):
    url, teacher, _, _ = service
    room = ClassRoom(url=url, token=teacher, seed=3)
    made = [room]
    try:
        made.append(ClassBoard(room.code, name="Ana", url=url))
        room.buttons["lock"].click()
        wait_until(lambda: room.view.get("locked"), what="the room locked")
        # Joining a locked room is no error: each board says it waits, shows no table, offers no move.
        ben, cleo, dan = (ClassBoard(room.code, name=n, url=url) for n in ("Ben", "Cleo", "Dan"))
        made += [ben, cleo, dan]
        for board in (ben, cleo, dan):
            assert board.door == "waiting" and board.seat is None and board.table == []
            assert words.WAITING_AT_DOOR in shown(board)
            assert f"Room {room.code} · waiting to join as {board.name}" in shown(board)
            assert board.picture_box.layout.display == "none"
            assert all(button.disabled for button in board.buttons.values())
        # Nothing to play yet: a move (a key, or from code) is answered with the door's words.
        assert ben.press(" ") and ben.call() == {"ok": False, "message": words.WAITING_AT_DOOR}
        assert ben.select(0) is None and ben.claim(["1RSO", "2GTS", "3POD"])["ok"] is False
        wait_until(lambda: room.waiting == ["Ben", "Cleo", "Dan"], what="three names at the door")
        # A board that leaves while it waits asks no more.
        dan.leave()
        assert dan.door == "stopped" and "stopped waiting for the teacher" in shown(dan)
        wait_until(lambda: not dan._door._thread.is_alive(), what="Dan's board to stop asking")

        room.waiting_picker.value = "Ben"
        # The message line says so; Ben's board may join at once after (its next ask), and the line
        # then moves on to "Ben joined the game.": what the line said is recorded as it changes.
        lines = []
        room._status_widget.observe(lambda change: lines.append(change["new"]), names="value")
        room.buttons["let_in"].click()
        assert any("Ben was let in." in line for line in lines), lines
        # Let in: the board turns into the game, without the student doing anything.
        wait_until(
            lambda: ben.status.startswith("The teacher let you in: welcome, Ben"), what="Ben's board seated"
        )
        assert ben.door == "in" and ben.connected and ben.table and ben.name == "Ben"
        assert words.WAITING_AT_DOOR not in shown(ben)
        assert f"Room {room.code} · you play as Ben" in shown(ben)
        assert ben.picture_box.layout.display is None
        assert not ben.buttons["call"].disabled
        assert ben.call()["ok"]
        wait_until(lambda: room.players == ["Ana", "Ben"], what="Ben among the players")

        room.waiting_picker.value = "Cleo"
        room.buttons["refuse"].click()
        assert room.status == "Cleo was not let in."
        said = (
            f"The teacher did not let you into room {room.code}. If you think that is a mistake, "
            "ask your teacher."
        )
        wait_until(lambda: said in shown(cleo), what="Cleo's board told")
        assert cleo.door == "refused"
        assert words.WAITING_AT_DOOR not in shown(cleo)
        assert "Ana" not in shown(cleo) and "Ben" not in shown(cleo)  # a refusal names nobody else
        assert cleo.seat is None and not cleo.connected and cleo.table == []
        assert all(button.disabled for button in cleo.buttons.values())
        # It asks no more: the refusal was the last answer.
        wait_until(lambda: not cleo._door._thread.is_alive(), what="Cleo's board to stop asking")
        # The projector hears of the refusal with its next view of the room.
        wait_until(lambda: room.waiting == ["Dan"], what="Cleo off the projector's waiting list")
        assert room.players == ["Ana", "Ben"]
    finally:
        for widget in made:
            widget.close()


def test_a_refusal_on_the_first_ask_still_leaves_no_board(service):
    # A look-alike of a player's name (a Cyrillic А) is refused at a locked room's door at once:
    # an error, as at an open room's, and no board waits.
    url, teacher, _, _ = service
    room = ClassRoom(url=url, token=teacher, seed=3)
    try:
        ana = ClassBoard(room.code, name="Ana", url=url)
        room.lock()
        with pytest.raises(ClassroomError, match="is taken in room") as refused:
            ClassBoard(room.code, name="\u0410na", url=url)
        assert "Ana" not in str(refused.value)
        assert room.waiting == []
        ana.close()
    finally:
        room.close()


def answers(*said):
    """A stand-in for Seat that answers each join with the next of ``said`` (an error is raised)."""
    left = list(said)

    def seat(code, name=None, team="", url=None):
        answer = left.pop(0) if len(left) > 1 else left[0]
        raise answer

    return seat


def refusal(message: str, status: int | None) -> ClassroomError:
    error = ClassroomError(message)
    error.status = status
    return error


def test_a_service_that_does_not_answer_keeps_the_board_waiting_and_a_long_wait_ends(monkeypatch):
    # Without the service (it restarts, say): the door asks on, the board says so, and a refusal
    # that follows ends the wait. No service runs here: Seat's answers are stood in for.
    monkeypatch.setattr(_scheduler, "running_loop", lambda: None)
    locked = client.Waiting("room BCDFG is locked: the teacher has been asked to let Ben in", "t")
    gone = refusal("the classroom service at http://127.0.0.1:9/ does not answer", None)
    busy = refusal("too many requests from this address; try again in a few seconds", 429)
    no = refusal("the teacher did not let you into room BCDFG", 403)
    monkeypatch.setattr(client, "Seat", answers(locked, gone, busy, locked, no))
    heard: list[tuple[str, bool]] = []
    door = client.Doorstep("BCDFG", name="Ben", url="http://127.0.0.1:9/")
    assert (door.state, door.lost) == ("waiting", False)
    door.wait(lambda d: heard.append((d.state, d.lost)), every=0.01)
    wait_until(lambda: door.state == "refused", what="the teacher's no")
    # Each change is heard once: lost (the service down, then busy), back on the list, refused.
    assert heard == [("waiting", True), ("waiting", True), ("waiting", False), ("refused", False)]
    assert door.seat is None and door.message == no.args[0]

    # The board: the same door, its words (on the list first, then the service is gone).
    monkeypatch.setattr(client, "Seat", answers(locked, gone))
    monkeypatch.setattr(client, "ASK_SECONDS", 0.01)
    board = ClassBoard("BCDFG", name="Ben", url="http://127.0.0.1:9/")
    try:
        assert "does not answer" not in shown(board) and words.WAITING_AT_DOOR in shown(board)
        wait_until(lambda: "does not answer just now; this board keeps asking" in shown(board))
        assert board.door == "waiting" and words.WAITING_AT_DOOR in shown(board)
    finally:
        board.close()
    assert board.door == "stopped"

    # Nobody answers for ASK_MINUTES: the door stops asking, and says so.
    monkeypatch.setattr(client, "Seat", answers(locked))
    monkeypatch.setattr(client, "ASK_MINUTES", 0)
    door = client.Doorstep("BCDFG", name="Ben", url="http://127.0.0.1:9/").wait(every=0.01)
    wait_until(lambda: door.state == "stopped", what="a long wait to end")
    assert "no answer from the teacher in 0 minutes" in door.message
    assert (
        words.door(door.state)
        == "This board stopped waiting for the teacher. Run the cell again to ask once more."
    )


def test_a_ticket_the_service_does_not_know_puts_the_student_back_on_the_list(service):
    # The waiting list lives in the service's memory: after a restart, a waiting board asks with a
    # ticket nobody knows. It is then put on the list again, with a new ticket, as on its first ask
    # (within one ask, ~6 s in class), and never let in on the old one.
    url, teacher, _, _ = service
    room = ClassRoom(url=url, token=teacher, seed=3)
    try:
        room.lock()
        key = f"{client.service_url(url)} {room.code} Ben"
        client._write_tokens({key + " ticket": "a-ticket-from-before-the-restart"})
        with pytest.raises(client.Waiting) as waiting:
            client.Seat(room.code, "Ben", url=url)
        assert waiting.value.ticket != "a-ticket-from-before-the-restart"
        assert "the teacher has been asked to let Ben in" in str(waiting.value)
        wait_until(lambda: room.waiting == ["Ben"], what="Ben back on the teacher's waiting list")
        assert client._read_tokens()[key + " ticket"] == waiting.value.ticket
    finally:
        room.close()
