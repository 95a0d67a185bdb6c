"""A locked room's door: late players get in by the teacher's approval or by a second code.

Against the real service (in this process, on a real SQLite file and port), with the notebooks'
own Seat and Desk. Every refusal names nobody but the one refused.
"""

from __future__ import annotations

import pytest
from classroom_service import in_process, wait_until

from setwidgets.classroom import ClassroomError, Desk, Seat


@pytest.fixture
def service(tmp_path, monkeypatch):
    yield from in_process(tmp_path, monkeypatch)


def refusal(make) -> str:
    with pytest.raises(ClassroomError) as refused:
        make()
    return str(refused.value)


def test_a_late_player_waits_for_the_teacher_or_comes_with_a_second_code(service):
    url, teacher, store, _ = service
    desk = Desk.open(token=teacher, url=url, seed=3)
    seats = [Seat(desk.code, "Ana", url=url)]
    try:
        assert desk.lock()["ok"]
        said = refusal(lambda: Seat(desk.code, "Ben", url=url))
        assert "is locked: the teacher has been asked to let Ben in; ask again" in said
        assert "Ana" not in said
        wait_until(lambda: desk.waiting == ["Ben"], what="Ben on the teacher's waiting list")
        # Asking again before the answer: still waiting, still once on the list.
        assert "has been asked to let Ben in" in refusal(lambda: Seat(desk.code, "Ben", url=url))
        # A look-alike of a player (a Cyrillic А) or of a name waiting is refused at the door,
        # naming nobody else.
        for alike in ("\u0410na", "B\u0435n"):
            said = refusal(lambda alike=alike: Seat(desk.code, alike, url=url))
            assert "is taken in room" in said and "Ana" not in said and "Ben" not in said
        said = refusal(lambda: Seat(desk.code, "Cleo", url=url))
        wait_until(lambda: desk.waiting == ["Ben", "Cleo"], what="Cleo waiting too")
        assert desk.refuse("Cleo") == {"ok": True, "message": "Cleo was not let in."}
        assert refusal(lambda: Seat(desk.code, "Cleo", url=url)).startswith(
            "the teacher did not let you into"
        )
        assert desk.let_in("Zed")["message"] == f"nobody called 'Zed' waits to join room {desk.code}"
        assert desk.let_in("Ben") == {"ok": True, "message": "Ben was let in."}
        wait_until(lambda: desk.waiting == [], what="the waiting list empty")
        # Let in: Ben is in the room (and on disk) at once; his notebook asks again and gets his seat.
        assert "Ben" in [p["name"] for p in desk.view["players"]]
        assert [m[0] for m in store.saved(desk.code)["members"]] == ["Ana", "Ben"]
        seats.append(Seat(desk.code, "Ben", url=url))
        assert seats[-1].welcome.startswith("The teacher let you in: welcome, Ben")
        assert seats[-1].view["code"] == desk.code
        # A second code: one join into the locked room, then it lets nobody else in.
        second = desk.second_code()
        assert second["ok"] and second["code"] != desk.code and "one join" in second["message"]
        seats.append(Seat(second["code"], "Dan", url=url))
        assert seats[-1].code == desk.code and seats[-1].view["code"] == desk.code
        assert "there is no room" in refusal(lambda: Seat(second["code"], "Eve", url=url))
        assert "has been asked" in refusal(lambda: Seat(desk.code, "Eve", url=url))
        # Only the teacher keeps the door.
        other = Seat.__new__(Seat)  # Ben's token at the teacher's door
        other.url, other.code, other.token = url, desk.code, seats[1].token
        assert Desk._door(other, {"action": "second_code"}) == {
            "ok": False,
            "message": "only the teacher may do this",
        }
        assert [p["name"] for p in desk.view["players"]] == ["Ana", "Ben", "Dan"]
    finally:
        for connection in [*seats, desk]:
            connection.close()


def test_a_second_code_sent_by_many_at_once_lets_one_in(service):
    # Forty joins with one second code, all at once: each looked the code up before waiting for
    # the room, and a helper's attack got 25 into the locked room. One gets in; the rest are told
    # what anyone who comes with a used code is told.
    import json
    import urllib.error
    import urllib.request
    from concurrent.futures import ThreadPoolExecutor

    url, teacher, _, _ = service
    desk = Desk.open(token=teacher, url=url, seed=3)
    try:
        assert desk.lock()["ok"]
        second = desk.second_code()["code"]

        def join(k: int) -> tuple[int, str]:
            request = urllib.request.Request(
                f"{url}api/rooms/{second}/join",
                json.dumps({"name": f"Late {chr(65 + k // 26)}{chr(97 + k % 26)}"}).encode(),
                method="POST",
            )
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:
                    return answer.status, json.loads(answer.read())["message"]
            except urllib.error.HTTPError as refused:
                return refused.code, json.loads(refused.read())["message"]

        with ThreadPoolExecutor(40) as pool:
            answers = list(pool.map(join, range(40)))
        assert [status for status, _ in answers].count(201) == 1, answers
        assert {(status, said.split(";")[0]) for status, said in answers if status != 201} == {
            (404, f"there is no room {second!r}")
        }, answers
        assert len(desk.view["players"]) == 1 and desk.view["locked"]
    finally:
        desk.close()
