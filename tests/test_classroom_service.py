"""The room service, for real: started with ``course.py classroom``, reached over HTTP and WebSockets.

The service runs in its own process, with its own classroom folder; the students are
``Seat`` clients (and, in the last test, five real kernels, one per student). Bad requests
are sent as a student who wants the points without the work would: without a token, with
another's, for another room, malformed, oversized, or many at once.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import classroom_service
import pytest
import websocket  # websocket-client, which Jupyter Server brings

from setwidgets import as_cards, find_sets
from setwidgets.classroom import ClassroomError, Desk, Seat
from setwidgets.classroom.client import network_url
from setwidgets.classroom.service import MAX_MESSAGE, RATE, REQUEST_RATE


@pytest.fixture
def service(tmp_path, monkeypatch):
    yield from classroom_service.running(tmp_path, monkeypatch)


def request(url: str, token: str | None = None, method: str = "GET", body=None, raw: bytes | None = None):
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    req = urllib.request.Request(url, data=data, method=method)
    if token:
        req.add_header("Authorization", f"token {token}")
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def until(condition, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the condition did not come true in time"
        time.sleep(0.02)


def a_set(view: dict) -> list[str]:
    return [c.code for c in find_sets(as_cards(view["table"]))[0]]


# -- what a teacher and students see ---------------------------------------------------------------


def test_course_py_prints_the_address_and_the_teachers_token_and_keeps_them(service):
    assert json.loads((service.home / "server.json").read_text())["url"] == service.url
    assert len(service.teacher_token) >= 30
    assert (service.home / "teacher.json").stat().st_mode & 0o077 == 0, "the teacher's token is theirs alone"


def test_every_student_sees_each_move_at_once_and_in_the_same_order(service):
    desk = Desk.open(variant="standard", seed=7)
    ana, ben = Seat(desk.code, name="Ana"), Seat(desk.code, name="Ben", team="Blue")
    assert ana.welcome == f"Welcome, Ana: you play in room {desk.code}."
    until(lambda: len(ana.view["players"]) == 2 and len(desk.view["players"]) == 2)
    assert ben.call()["message"] == "Ben called SET!"
    assert ana.call()["message"] == "Ana called SET and is number 2 in line."
    until(lambda: ana.you["line"] == 2 and ben.you["line"] == 1)
    answer = ben.claim(a_set(ben.view))
    assert answer["ok"] and answer["message"].startswith("Ben keeps a SET (+1 point).")
    until(lambda: ana.view["version"] == ben.view["version"] == desk.view["version"])
    assert ana.view["table"] == ben.view["table"] == desk.view["table"]
    assert ana.view["last"]["name"] == "Ben" and ben.you["score"] == 1
    assert desk.view["teams"] == {"Blue": 1}


def test_a_student_cannot_act_as_another_or_as_the_teacher(service):
    desk = Desk.open(seed=1)
    ana, ben = Seat(desk.code, name="Ana"), Seat(desk.code, name="Ben")
    # A message naming another player is refused; so is a teacher's move.
    answer = ana.send({"type": "claim", "cards": ana.view["table"][:3], "player": "Ben"})
    assert answer == {
        "ok": False,
        "message": "a message does not name a player: you always play as yourself",
        "n": 1,
    }
    assert "must be one of call, claim and no_set" in ana.send({"type": "pause"})["message"]
    # Ana's token opens no room and reads no other room.
    token = json.loads((service.home / "seats.json").read_text())[f"{service.url} {desk.code} Ana"]
    assert request(service.url + "api/rooms", token, "POST", {}) == (
        403,
        {"ok": False, "message": "only the teacher may do this"},
    )
    other = Desk.open(seed=2)
    status, body = request(service.url + f"api/rooms/{other.code}", token)
    assert (status, body["message"]) == (403, f"you have not joined room {other.code}")
    # Nor does a guessed token, or none.
    assert request(service.url + "api/rooms", "x" * 32)[0] == 401
    assert request(service.url + f"api/rooms/{desk.code}")[0] == 401
    ws = service.url.replace("http", "ws") + f"api/rooms/{other.code}/socket?token={token}"
    with pytest.raises(websocket.WebSocketBadStatusException, match="403"):
        websocket.create_connection(ws, timeout=5)
    # Taking Ana's name again is refused, with nobody's name but the one asked for.
    with pytest.raises(ClassroomError) as taken:
        _join_as_new(service, desk.code, "ana")
    assert str(taken.value) == (
        f"the name 'ana' is taken in room {desk.code}, or looks like one that is; choose another name"
    )
    assert ben.view["players"][0]["name"] == "Ana"


def _join_as_new(service: classroom_service.Service, code: str, name: str) -> None:
    status, body = request(service.url + f"api/rooms/{code}/join", None, "POST", {"name": name})
    if status != 201:
        raise ClassroomError(body["message"])


def test_a_restarted_kernel_takes_its_own_seat_again(service):
    desk = Desk.open(seed=3)
    first = Seat(desk.code, name="Ana")
    first.call()
    first.close()
    again = Seat(desk.code, name="Ana")
    assert again.welcome == "Welcome back, Ana."
    # Its messages go on from the last number served, so none is taken for a replay.
    answer = again.claim(a_set(again.view))
    assert answer["ok"] and answer["n"] == 2


@pytest.mark.parametrize(
    ("path", "body", "status", "words"),
    [
        (
            "api/rooms/QQQQQ/join",
            {"name": "Ana"},
            404,
            "there is no room 'QQQQQ'; check the code on the board",
        ),
        ("api/rooms/{code}/join", {}, 400, "name must be text like 'Ada'; got None"),
        ("api/rooms/{code}/join", {"name": "Ana", "role": "teacher"}, 400, "joining takes a name and a team"),
        (
            "api/rooms/{code}/join",
            ["Ana"],
            400,
            "the request's body must be a JSON object; got ['Ana'] (a list)",
        ),
        ("api/rooms/{code}/join", {"name": "x" * 300}, 400, "name must be 1 to"),
    ],
)
def test_a_bad_request_gets_a_clear_answer_and_changes_nothing(service, path, body, status, words):
    desk = Desk.open(seed=1)
    before = desk.view["version"]
    answer = request(service.url + path.format(code=desk.code), None, "POST", body)
    assert answer[0] == status and answer[1]["message"].startswith(words), answer
    assert (
        request(service.url + f"api/rooms/{desk.code}", service.teacher_token)[1]["room"]["version"] == before
    )


def test_a_teachers_bad_settings_open_no_room(service):
    status, body = request(service.url + "api/rooms", service.teacher_token, "POST", {"variant": "solitaire"})
    assert (status, body["message"]) == (
        400,
        "a class plays standard, online and competition rules at one table; got 'solitaire'",
    )
    status, body = request(service.url + "api/rooms", service.teacher_token, "POST", {"colour": "red"})
    assert (status, body["message"]) == (400, "a room has no setting 'colour'")
    status, body = request(service.url + "api/rooms", service.teacher_token, raw=b"{not json", method="POST")
    assert status == 400 and body["message"].startswith("the request's body must be a JSON object")
    assert request(service.url + "api/rooms", service.teacher_token)[1]["rooms"] == []


def test_nobody_joins_or_plays_in_an_ended_room(service):
    desk = Desk.open(seed=1)
    ana = Seat(desk.code, name="Ana")
    assert desk.end()["message"] == "The teacher ended the game."
    status, body = request(service.url + f"api/rooms/{desk.code}/join", None, "POST", {"name": "Ben"})
    assert (status, body["message"]) == (
        409,
        f"room {desk.code} has ended; ask your teacher for the code of a new room",
    )
    assert ana.call() == {
        "ok": False,
        "message": f"room {desk.code} has ended; ask your teacher for the code of a new room",
        "n": 1,
    }


# -- what a script sends over the socket ------------------------------------------------------------


def socket_for(service: classroom_service.Service, code: str, token: str) -> websocket.WebSocket:
    ws = websocket.create_connection(
        service.url.replace("http", "ws") + f"api/rooms/{code}/socket",
        header=[f"Authorization: token {token}"],
        timeout=5,
    )
    assert json.loads(ws.recv())["type"] == "room"
    return ws


def replies(ws: websocket.WebSocket, count: int) -> list[dict]:
    found = []
    while len(found) < count:
        data = json.loads(ws.recv())
        if data["type"] == "reply":
            found.append(data)
    return found


def test_malformed_replayed_oversized_and_flooding_messages_are_refused(service):
    desk = Desk.open(seed=1)
    Seat(desk.code, name="Ana")
    token = json.loads((service.home / "seats.json").read_text())[f"{service.url} {desk.code} Ana"]
    ws = socket_for(service, desk.code, token)
    ws.send("{not json")
    malformed = 'a message must be a JSON object like {"n": 1, "type": "call"}'
    assert replies(ws, 1)[0] == {"type": "reply", "ok": False, "message": malformed, "n": None}
    ws.send(json.dumps({"n": 1, "type": "call"}))
    assert replies(ws, 1)[0]["ok"] is True
    ws.send(json.dumps({"n": 1, "type": "no_set"}))
    assert replies(ws, 1)[0]["message"].startswith("message 1 was served already")
    # A flood: beyond the burst, messages are refused unserved.
    burst = RATE[1]
    for n in range(2, burst + 12):
        ws.send(json.dumps({"n": n, "type": "call"}))
    answers = replies(ws, burst + 10)
    assert any(a["message"].startswith("too many messages: at most 10 a second") for a in answers)
    # An oversized message closes the connection (WebSocket's 1009: message too big).
    ws.send("x" * (MAX_MESSAGE + 1))
    with pytest.raises((websocket.WebSocketConnectionClosedException, ConnectionError)):
        for _ in range(50):
            ws.recv()
    # The room is as the served messages left it: one call, by Ana.
    view = request(service.url + f"api/rooms/{desk.code}", service.teacher_token)[1]["room"]
    assert view["callers"] == ["Ana"]


# -- the service killed and started again --------------------------------------------------------------


def test_a_killed_service_comes_back_with_every_room_as_its_players_were_told(service):
    desk = Desk.open(seed=5, claim_seconds=30)
    ana, ben = Seat(desk.code, name="Ana"), Seat(desk.code, name="Ben")
    assert ana.claim(a_set(ana.view))["ok"]
    assert ben.call()["ok"]
    until(lambda: ana.view["version"] == ben.view["version"] == desk.view["version"])
    told = {k: v for k, v in ana.view.items() if k not in ("you", "time_left")}
    service.kill()
    service.start()
    # The clients reconnect by themselves and are sent the room as it was.
    until(lambda: ana.connected and ben.connected, 15)
    view = request(service.url + f"api/rooms/{desk.code}", service.teacher_token)[1]["room"]
    assert {k: v for k, v in view.items() if k != "time_left"} == told
    assert 0 < view["time_left"] <= 30
    # The game goes on: Ben still holds the call.
    answer = ben.claim(a_set(ben.view))
    assert answer["ok"], answer
    until(lambda: ana.view["version"] == view["version"] + 1)
    assert ana.view["players"][1]["score"] == 1


def test_a_call_left_pending_runs_out_of_time_after_a_restart(service):
    desk = Desk.open(seed=5, claim_seconds=1)
    ana = Seat(desk.code, name="Ana")
    assert ana.call()["ok"]
    service.kill()
    service.start()
    until(lambda: ana.view.get("last", {}).get("type") == "timeout", 15)
    assert ana.you["score"] == -1


def test_a_flood_of_requests_from_one_address_is_refused_beyond_a_whole_class(service):
    desk = Desk.open(seed=1)
    url = service.url + f"api/rooms/{desk.code}/join"
    rate, burst = REQUEST_RATE
    start = time.monotonic()
    # Eight at a time: faster than the budget refills, however slow this shared machine is now.
    # The flood ends with eight good joins, sent within it: a good request is refused as well while
    # its address is over the budget. (Sent after the flood, one could arrive once a refill let it in.)
    names = [""] * (3 * burst) + [f"late {n}" for n in range(8)]
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda name: request(url, None, "POST", {"name": name}), names))
    elapsed = time.monotonic() - start
    statuses = [status for status, _ in answers[: 3 * burst]]
    # Every request counts, refused or not; beyond the burst only the rate's refill is served.
    assert set(statuses) <= {400, 429} and statuses.count(400) >= burst - 1  # answered in any order
    served = statuses.count(400) + sum(status == 201 for status, _ in answers[3 * burst :])
    assert served <= burst + rate * elapsed + 1
    refused = [body["message"] for status, body in answers[3 * burst :] if status == 429]
    assert refused, f"every good join at the end of the flood was served: {answers[3 * burst :]}"
    assert refused[0] == "too many requests from this address; try again in a few seconds"
    # A request with a token counts against its token: the teacher still opens a room.
    assert request(service.url + "api/rooms", service.teacher_token, "POST", {})[0] == 201
    time.sleep(1.0)
    assert request(url, None, "POST", {"name": "late"})[0] == 201


def test_a_move_made_while_the_service_restarts_is_served_when_it_is_back(service):
    desk = Desk.open(seed=5)
    ana = Seat(desk.code, name="Ana")
    service.kill()
    until(lambda: not ana.connected)
    starting = threading.Timer(0.5, service.start)
    starting.start()
    answer = ana.claim(a_set(ana.view))  # sent while the service is down
    starting.join()
    assert answer["ok"], answer
    until(lambda: ana.you["score"] == 1)


def test_a_service_on_the_network_says_the_address_other_computers_use(tmp_path, monkeypatch):
    monkeypatch.setenv("SETWIDGETS_CLASSROOM_HOME", str(tmp_path / "lan"))
    with classroom_service.Service(tmp_path / "lan", options=("--ip", "0.0.0.0")) as lan:
        found = json.loads((lan.home / "server.json").read_text())
        assert found["url"] == lan.url  # the notebooks of this machine use the loopback address
        host = found["network_url"].split("//")[1].split(":")[0]
        assert found["network_url"] == f"http://{host}:{lan.port}/" and not host.startswith("127.")
        assert f"Students on other computers use {found['network_url']}" in lan.log()
        assert network_url(lan.url) == found["network_url"]
        assert request(found["network_url"] + "api/rooms")[0] == 401  # it answers there too


def test_the_teachers_desk_locks_removes_for_good_and_deletes(service):
    desk = Desk.open(seed=4)
    ana = Seat(desk.code, name="Ana")
    assert desk.lock()["message"] == "The teacher locked the room: nobody new joins."
    with pytest.raises(
        ClassroomError, match=f"room {desk.code} is locked: the teacher has been asked to let Ben"
    ):
        Seat(desk.code, name="Ben")
    assert desk.unlock()["ok"]  # Ben, waiting at the door, then joins as anyone
    ben = Seat(desk.code, name="Ben")
    assert desk.remove("Ben")["ok"]
    assert ben.call()["message"] == f"the teacher took Ben out of room {desk.code}"
    with pytest.raises(ClassroomError, match=f"the teacher took you out of room {desk.code}"):
        Seat(desk.code, name="Ben")  # with Ben's own token, kept in the classroom folder
    with pytest.raises(ClassroomError, match="out of room"):
        Seat(desk.code, name="Ben 2")
    assert desk.delete() == {"ok": True, "message": f"Room {desk.code} was deleted."}
    until(lambda: ana.gone is not None)
    assert not ana.connected and ana.gone.startswith("this token is not one this service knows")
    status, body = request(service.url + f"api/rooms/{desk.code}", service.teacher_token)
    assert (status, body["message"]) == (404, f"there is no room '{desk.code}'; check the code on the board")
    ana.close()
