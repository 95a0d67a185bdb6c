"""The class game's widgets against a real classroom service: ClassBoard (a student) and ClassRoom
(the teacher's projector).

The service runs in its own process (``course.py classroom``, see classroom_service.py); the
widgets run here without a browser, their buttons clicked with ``Button.click()``. What the
service pushes arrives on the connections' threads, so each check waits for it with a short
polling loop.
"""

from __future__ import annotations

import itertools
import threading

import classroom_service
import pytest
from classroom_service import wait_until

from setwidgets import as_cards, find_sets, is_set
from setwidgets.classroom import ClassroomError, client
from setwidgets.widgets import ClassBoard, ClassRoom, _scheduler
from setwidgets.widgets import _roomwords as words
from setwidgets.widgets._keys import card_letter


@pytest.fixture(scope="module")
def shared_service(tmp_path_factory):
    """One service for the module: each test opens rooms of its own in it, and no test stops it or
    comes near the address's budget of joins (30 joins in all, within the 60 it holds at once)."""
    with classroom_service.Service(tmp_path_factory.mktemp("classroom") / "classroom") as running:
        yield running


@pytest.fixture
def service(shared_service, monkeypatch):
    """The module's service, found by this test's widgets through its classroom folder."""
    monkeypatch.setenv("SETWIDGETS_CLASSROOM_HOME", str(shared_service.home))
    monkeypatch.delenv("SETWIDGETS_CLASSROOM_URL", raising=False)
    return shared_service


@pytest.fixture(autouse=True)
def outside_a_kernel(monkeypatch):
    """No event loop runs in this thread, as in plain Python. After the browser tests Playwright's
    driver keeps one running here, which is not a kernel's and would never serve the pushes handed
    to it; a test that wants a loop passes its own."""
    monkeypatch.setattr(_scheduler, "running_loop", lambda: None)


@pytest.fixture
def widgets():
    """Every widget a test makes is closed after it (their connections too)."""
    made: list = []
    yield made
    for widget in made:
        widget.close()


@pytest.fixture
def room(service, widgets) -> ClassRoom:
    made = ClassRoom(seed=3, claim_seconds=20)
    widgets.append(made)
    return made


def student(widgets, room: ClassRoom | str, name: str, **options) -> ClassBoard:
    board = ClassBoard(room if isinstance(room, str) else room.code, name=name, **options)
    widgets.append(board)
    return board


def in_step(*views) -> None:
    """Wait until every widget shows the same version of the room."""
    wait_until(lambda: len({v.view.get("version") for v in views}) == 1, what="every widget showing the room")


def a_set(board) -> list[int]:
    """The positions of a SET on the table a widget shows."""
    table = board.table
    return [table.index(card) for card in find_sets(table)[0]]


def not_a_set(board) -> list[int]:
    table = board.table
    return next(
        list(t) for t in itertools.combinations(range(len(table)), 3) if not is_set(*(table[p] for p in t))
    )


# -- inputs, checked before anything reaches the service ------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "words_"),
    [
        ({"room": 12345}, TypeError, "room is the join code on the board, letters like 'BCDFG'; got 12345"),
        ({"room": "BC-DF"}, ValueError, "letters like 'BCDFG'; got 'BC-DF'"),
        ({"room": ""}, ValueError, "letters like 'BCDFG'; got ''"),
        ({"room": "BCDFG", "name": 7}, TypeError, "name must be text like 'Ada'; got 7"),
        ({"room": "BCDFG", "name": "  "}, ValueError, "name must be 1 to 40 characters"),
        ({"room": "BCDFG", "name": "Ada", "url": 8765}, TypeError, "url is the classroom service's address"),
        ({"room": "BCDFG", "name": "Ada", "url": "ftp://x/"}, ValueError, "url must start with http://"),
        ({"room": "BCDFG", "name": "Ada", "theme": "neon"}, ValueError, "neon"),
        ({"room": "BCDFG", "name": "Ada", "width": 5}, ValueError, "width"),
        ({"room": "BCDFG", "name": "Ada", "team": 3}, TypeError, "team must be text"),
    ],
)
def test_a_class_boards_bad_input_is_refused_before_it_joins(kwargs, error, words_):
    with pytest.raises(error) as refused:
        ClassBoard(**kwargs)
    assert words_ in str(refused.value)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "words_"),
    [
        (
            (),
            {"colour": "red"},
            TypeError,
            "ClassRoom() has no setting 'colour'; a new room takes variant, deck",
        ),
        (("BCDFG",), {"seed": 3}, TypeError, "seed= open a new room; room='BCDFG' is open already"),
        ((), {"token": 5}, TypeError, "token must be text"),
        ((["BCDFG"],), {}, TypeError, "room is the join code"),
    ],
)
def test_a_class_rooms_bad_input_is_refused_before_it_opens_a_room(args, kwargs, error, words_):
    with pytest.raises(error) as refused:
        ClassRoom(*args, **kwargs)
    assert words_ in str(refused.value)


def test_without_a_service_the_board_says_where_to_look(tmp_path, monkeypatch):
    monkeypatch.setenv("SETWIDGETS_CLASSROOM_HOME", str(tmp_path))
    monkeypatch.delenv("SETWIDGETS_CLASSROOM_URL", raising=False)
    with pytest.raises(ClassroomError, match="no classroom service was found: ask your teacher"):
        ClassBoard("BCDFG", name="Ada")
    port = classroom_service.free_port()
    with pytest.raises(ClassroomError, match="does not answer"):
        ClassBoard("BCDFG", name="Ada", url=f"http://127.0.0.1:{port}/")


def test_a_room_code_nobody_opened_is_refused_by_the_service(service):
    with pytest.raises(ClassroomError, match="there is no room 'QQQQQ'; check the code on the board"):
        ClassBoard("qqqqq", name="Ada")


# -- the teacher opens a room, students join ------------------------------------------------------


def test_the_projector_shows_the_code_then_each_player_who_joins(room, widgets):
    assert room.view["status"] == "waiting" and room.table == []
    assert room.code in room._join_widget.value and f'ClassBoard("{room.code}"' in room._join_widget.value
    assert room._players_widget.value.endswith("No player yet.</span>")
    assert room.buttons["pause"].disabled, "nothing to pause before a game is dealt"

    ada = student(widgets, room, "Ada")
    assert ada.status == f"Welcome, Ada: you play in room {room.code}."
    assert len(ada.table) == 12 and ada.view["you"]["name"] == "Ada"
    wait_until(lambda: room.players == ["Ada"])
    assert room.table == ada.table and room.status == "Ada joined the game."

    ben = student(widgets, room.code.lower(), "Ben", team="Blue")  # a code typed in lower case
    wait_until(lambda: room.players == ["Ada", "Ben"])
    in_step(room, ada, ben)
    assert "2 players: Ada, Ben" in room._players_widget.value
    assert ada.status == room.status == "Ben joined the game."
    assert ada.scores == room.scores == "Ada 0 · Ben 0"
    assert "Game 1 is on." in room._state_widget.value and not room.buttons["pause"].disabled
    assert f"Room {room.code} · you play as Ben" in ben._room_widget.value
    assert ben._deck_widget.value == "Deck: 69 cards"
    assert ben.your_score == "Your score: 0 (0 SETs)"
    assert (
        "Rules: standard, full deck." in ben._rules_widget.value
        and "20 seconds to pick" in ben._rules_widget.value
    )


# -- calls, claims and refusals -------------------------------------------------------------------


def test_callers_are_told_their_place_and_the_first_one_claims(room, widgets):
    ada, ben, cleo = (student(widgets, room, name) for name in ("Ada", "Ben", "Cleo"))
    ada.buttons["call"].click()
    assert ada.status == "Ada called SET!"
    assert ben.press(" ") and ben.status == "Ben called SET and is number 2 in line."
    in_step(room, ada, ben, cleo)
    assert ada.place == "Your call: pick three cards!"
    assert ben.place == "You are second to call: you pick after the one before you."
    assert cleo.place == ""
    assert room.callers.startswith("Ada is picking (") and room.callers.endswith("s left); then Ben.")
    assert "You are second to call" in ben._place_widget.value

    # Cleo, who did not call, may not take cards while Ada holds the call: the service says why.
    before = room.view["version"]
    answer = cleo.claim([card.code for card in find_sets(cleo.table)[0]])
    assert not answer["ok"] and cleo.status.startswith("Ada has called SET; nobody else may take cards")
    assert "color:#b42318" in cleo._status_widget.value, "a refusal is shown as one"
    assert room.view["version"] == before and cleo.view["version"] == before

    # Ada picks a SET by three clicks on its cards: each board and the projector show the new table.
    old = ada.table
    positions = a_set(ada)
    for position in positions[:2]:
        x, y, w, h = ada.card_rects[position]
        assert ada.click(x + w / 2, y + h / 2) == position
    assert ada.selected == positions[:2] and ada.highlights == dict.fromkeys(positions[:2], "selected")
    x, y, w, h = ada.card_rects[positions[2]]
    ada.click(x + w / 2, y + h / 2)
    in_step(room, ada, ben, cleo)
    assert ada.selected == [] and ada.table != old
    assert ben.table == cleo.table == room.table == ada.table
    assert ada.status.startswith("Ada keeps a SET (+1 point).")
    assert ben.status == room.status == ada.status
    assert ada.your_score == "Your score: 1 (1 SET)" and ben.your_score == "Your score: 0 (0 SETs)"
    assert room.scores == "Ada 1 · Ben 0 · Cleo 0"
    # Ben, second in line, now holds the call.
    assert ben.place == "Your call: pick three cards!" and room.callers.startswith("Ben is picking")


def test_a_claim_that_is_not_a_set_costs_a_point_and_keys_pick_the_cards(room, widgets):
    ada = student(widgets, room, "Ada")
    ben = student(widgets, room, "Ben")
    positions = not_a_set(ada)
    assert ada.press(card_letter(positions[0]).upper()) and ada.press(card_letter(positions[1]))
    assert ada.selected == positions[:2]
    assert ada.press("Escape") and ada.selected == []
    assert not ada.press("?") and not ada.press("1"), "no hint in a class game, and 1 is no card"
    for position in positions:
        ada.press(card_letter(position))
    in_step(room, ada, ben)
    assert ada.status.startswith("Not a SET:") and "Ada loses a point" in ada.status
    assert ben.status == ada.status and ada.your_score == "Your score: -1 (0 SETs)"
    assert room.scores == "Ada -1 (0 SETs, 1 penalty) · Ben 0"


def test_no_set_here_on_a_table_with_a_set_changes_nothing(room, widgets):
    ada = student(widgets, room, "Ada")
    table = ada.table
    ada.buttons["no_set"].click()
    assert ada.status.endswith("on the table; keep looking."), ada.status
    in_step(room, ada)
    assert ada.table == room.table == table


def test_a_taken_set_is_framed_on_the_old_table_before_the_new_cards(room, widgets, monkeypatch):
    ada = student(widgets, room, "Ada")
    ben = student(widgets, room, "Ben")
    flashes = []
    original = type(ben).redraw

    def spy(self, before=None, pause=0.0):
        if self is ben and before is not None:
            flashes.append((before, pause))
        return original(self, before, pause)

    monkeypatch.setattr(type(ben), "redraw", spy)
    cards = [ada.table[p] for p in a_set(ada)]
    ada.claim(cards)
    in_step(ada, ben)
    assert len(flashes) == 1
    before, pause = flashes[0]
    assert pause > 0
    framed = {item.card for item in before.cards if item.highlight == "found"}
    assert framed == set(cards)


def test_the_claimants_own_board_flashes_too_when_its_view_comes_after_the_answer(
    room, widgets, loop, monkeypatch
):
    # In a kernel the pushed view waits for the loop, which runs the click first: the answer comes
    # before the view. The SET is still framed on the old table.
    ada = student(widgets, room, "Ada", loop=loop)
    flashes = []
    original = type(ada).redraw

    def spy(self, before=None, pause=0.0):
        if self is ada and before is not None:
            flashes.append(before)
        return original(self, before, pause)

    monkeypatch.setattr(type(ada), "redraw", spy)
    cards = [ada.table[p] for p in a_set(ada)]
    answer = ada.claim(cards)
    assert answer["ok"] and ada.status == words.sentence(answer["message"])
    wait_until(lambda: loop.soon, what="the view handed to the loop")
    while loop.soon:
        loop.soon.pop(0)()
    assert [{i.card for i in f.cards if i.highlight == "found"} for f in flashes] == [set(cards)]
    assert ada.status == words.sentence(answer["message"]), "the answer is not covered by its own view"


# -- the teacher's buttons ------------------------------------------------------------------------


def test_pause_and_resume_stop_and_restart_the_play(room, widgets):
    ada = student(widgets, room, "Ada")
    room.buttons["pause"].click()
    assert room.status == "The teacher paused the game."
    wait_until(lambda: ada.view["status"] == "paused")
    assert room.buttons["pause"].description == "Resume"
    assert "Paused by the teacher." in ada._state_widget.value
    answer = ada.call()
    assert not answer["ok"] and ada.status == "The teacher paused the game; wait until it goes on."
    room.buttons["pause"].click()
    wait_until(lambda: ada.view["status"] == "open")
    assert room.buttons["pause"].description == "Pause" and ada.status == "The game goes on."
    assert ada.call()["ok"]


def test_hidden_scores_tell_only_the_sets_found_and_the_teams(room, widgets):
    ada = student(widgets, room, "Ada", team="Red")
    ben = student(widgets, room, "Ben", team="Blue")
    ada.claim([ada.table[p] for p in a_set(ada)])
    room.buttons["scores"].click()
    wait_until(lambda: not ben.view["scores_shown"])
    in_step(room, ada, ben)
    assert room.buttons["scores"].description == "Show scores"
    assert ben.scores == room.scores == "1 SET found · Red 1 · Blue 0"
    assert ada.your_score == "Your SETs: 1"
    # A SET found while scores are hidden is told without its points.
    ben.claim([ben.table[p] for p in a_set(ben)])
    in_step(room, ada, ben)
    assert ada.status == room.status == "Ben found a SET."
    assert room.standings == []
    room.show_scores(True)
    in_step(room, ada, ben)
    assert ada.scores == "Ada 1 · Ben 1"


def test_a_game_played_to_its_end_shows_the_final_standings_and_a_new_game_deals_again(service, widgets):
    room = ClassRoom(deck="mini", seed=2, claim_seconds=None)
    widgets.append(room)
    ada, ben = student(widgets, room, "Ada"), student(widgets, room, "Ben")
    for turn in range(40):
        if room.view["status"] == "over":
            break
        board = (ada, ben)[turn % 2]
        in_step(room, board)
        sets = find_sets(board.table)
        answer = board.claim(sets[0]) if sets else board.no_set()
        assert answer["ok"], answer
        in_step(room, ada, ben)
    assert room.view["status"] == "over", "the mini deck runs out within 40 moves"
    assert (
        "Game 1 is over." in ada._state_widget.value
        and words.winners(room.standings) in ada._state_widget.value
    )
    assert all(button.disabled for button in ada.buttons.values())
    rows = room.standings
    assert [name for _, name, *_ in rows] and {name for _, name, *_ in rows} == {"Ada", "Ben"}
    assert sum(sets for *_, sets, _ in rows) == room.view["sets_found"]
    assert "Final standings." in room._standings_widget.value
    assert words.winners(rows) in room._standings_widget.value
    assert room.buttons["pause"].disabled

    room.buttons["new_game"].click()
    wait_until(lambda: ada.view["game"] == 2 and ben.view["game"] == 2)
    assert room._standings_widget.value == ""
    assert not any(button.disabled for button in ada.buttons.values())
    assert ada.your_score == "Your score: 0 (0 SETs)" and len(ada.table) == 9


def test_a_student_the_teacher_takes_out_is_told_and_has_no_move_left(room, widgets):
    ada, ben = student(widgets, room, "Ada"), student(widgets, room, "Ben")
    answer = room.remove("Ben")
    assert answer["ok"] and room.status == "The teacher took Ben out of the game."
    wait_until(lambda: ben.taken_out)
    assert not ada.taken_out and room.players == ["Ada"]
    assert "The teacher took you out of this room." in ben._state_widget.value
    assert all(button.disabled for button in ben.buttons.values())
    assert not ben.call()["ok"] and ben.status == f"The teacher took Ben out of room {room.code}."


def test_the_teacher_takes_a_player_out_with_the_picker_and_the_remove_button(room, widgets):
    assert room.picker.options == () and room.buttons["remove"].disabled, "nobody to take out yet"
    ada, ben = student(widgets, room, "Ada"), student(widgets, room, "Ben")
    wait_until(lambda: room.picker.options == ("Ada", "Ben"))
    assert room.picker.value is None and not room.buttons["remove"].disabled
    # Nothing picked: nothing is sent, and the projector says what to do.
    version = room.view["version"]
    room.buttons["remove"].click()
    assert room.status == "Pick a player to take out first." and "#b42318" in room._status_widget.value
    assert room.view["version"] == version and room.players == ["Ada", "Ben"]
    room.picker.value = "Ben"
    student(widgets, room, "Cleo")  # a player joining keeps the name picked
    wait_until(lambda: room.picker.options == ("Ada", "Ben", "Cleo"))
    assert room.picker.value == "Ben"
    room.buttons["remove"].click()
    assert room.status == "The teacher took Ben out of the game."
    wait_until(lambda: ben.taken_out and room.picker.options == ("Ada", "Cleo"))
    assert room.picker.value is None and not ada.taken_out and room.players == ["Ada", "Cleo"]
    room.end()
    wait_until(lambda: room.view["status"] == "ended")
    assert room.picker.disabled and room.buttons["remove"].disabled
    # Ben keeps his place in the final standings, marked as taken out.
    assert [name for _, name, *_ in room.standings] == ["Ada", "Ben", "Cleo"]
    assert ">Ben (taken out)</td>" in room._standings_widget.value
    assert ">Ada</td>" in room._standings_widget.value


def test_the_projector_shows_the_services_network_address_only_when_students_need_it(
    room, widgets, monkeypatch
):
    # The service of the tests listens on 127.0.0.1: students of this machine find it by themselves.
    assert "setw-class-address" not in room._join_widget.value and "url=" not in room._join_widget.value
    # Started on a network address, the desk's URL is that address: the projector shows it.
    monkeypatch.setattr(room.desk, "url", "http://192.168.1.20:8765/")
    monkeypatch.delenv("SETWIDGETS_CLASSROOM_URL", raising=False)
    room._update_text()
    assert (
        'On another computer, add <code style="font-size:1.1em;font-weight:bold">' in room._join_widget.value
    )
    assert 'url="http://192.168.1.20:8765/"</code>' in room._join_widget.value
    # On the hub every student's server is given the address; and an ended room is joined by nobody.
    monkeypatch.setenv("SETWIDGETS_CLASSROOM_URL", "http://192.168.1.20:8765/")
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "x")
    room._update_text()
    assert "setw-class-address" not in room._join_widget.value
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN")
    room._update_text()
    assert "setw-class-address" in room._join_widget.value
    room.end()
    wait_until(lambda: room.view["status"] == "ended")
    assert "setw-class-address" not in room._join_widget.value


def test_the_end_of_the_room_disables_every_move(room, widgets):
    ada = student(widgets, room, "Ada")
    room.buttons["end"].click()
    wait_until(lambda: ada.view["status"] == "ended")
    assert ada.status == room.status == "The teacher ended the game."
    assert "The teacher ended this room." in ada._state_widget.value
    assert all(button.disabled for button in ada.buttons.values())
    assert room.buttons["end"].disabled and room.buttons["new_game"].disabled
    assert "(ended: nobody joins it any more)" in room._join_widget.value
    assert "The teacher ended this room. Ada wins with 0 points." in ada._state_widget.value
    assert "Final standings." in room._standings_widget.value
    # The projector names the winner once, in its standings, not on the state line above them too.
    assert "The teacher ended this room.</span>" in room._state_widget.value
    assert (room._state_widget.value + room._standings_widget.value).count("Ada wins with 0 points.") == 1
    with pytest.raises(ClassroomError, match="has ended"):
        ClassBoard(room.code, name="Late")


# -- where the pushed views are handled, and what a saved notebook keeps ---------------------------


def test_a_pushed_view_is_handed_to_the_widgets_own_loop(room, widgets, loop):
    ada = student(widgets, room, "Ada", loop=loop)
    ben = student(widgets, room, "Ben")
    shown = ada.view["version"]
    ben.claim([ben.table[p] for p in a_set(ben)])
    wait_until(lambda: loop.soon, what="the view handed to the loop")
    assert ada.view["version"] == shown, "nothing changes on the connection's thread"
    assert threading.current_thread() is threading.main_thread()
    while loop.soon:
        loop.soon.pop(0)()
    in_step(ada, ben)
    assert ada.table == ben.table and ada.status.startswith("Ben keeps a SET")


def test_a_board_that_leaves_keeps_its_picture_and_takes_its_seat_again(room, widgets):
    ada, ben = student(widgets, room, "Ada"), student(widgets, room, "Ben")
    ben.call()
    wait_until(lambda: ada.view["callers"] == ["Ben"])
    table = ada.table
    ada.leave()
    room.leave()
    assert not ada.connected and not room.connected
    assert (
        ada.status == room.status == "This notebook left the room: the table shows the room as it was then."
    )
    assert ada.callers == "Ben is picking.", "no seconds are counted for a room no longer followed"
    assert all(b.disabled for b in ada.buttons.values()) and all(b.disabled for b in room.buttons.values())
    ben.claim([ben.table[p] for p in a_set(ben)])
    wait_until(lambda: ben.view["last"]["type"] == "claim")
    assert ada.table == table and ada._picture.value.startswith("<svg")
    again = student(widgets, room.code, "Ada")
    assert again.status == "Welcome back, Ada." and again.table == ben.table


def test_a_closed_board_stops_listening(room, widgets):
    ada = student(widgets, room, "Ada")
    ben = student(widgets, room, "Ben")
    ada.close()
    shown = ada.view["version"]
    ben.claim([ben.table[p] for p in a_set(ben)])
    wait_until(lambda: room.view["version"] > shown)
    assert ada.view["version"] == shown


def test_a_saved_notebook_keeps_a_picture_of_the_table_and_the_lines(room, widgets):
    ada = student(widgets, room, "Ada")
    data = ada._repr_mimebundle_()
    data = data[0] if isinstance(data, tuple) else data
    assert data["text/html"].count("<svg") == 1 and "setw-static" in data["text/html"]
    assert data["image/svg+xml"].startswith("<svg")
    plain = data["text/plain"].splitlines()
    assert plain[0] == "ClassBoard:" and plain[1] == f"Room {room.code}: Game 1 is on."
    assert "Your score: 0 (0 SETs)" in plain
    # Until a browser draws, the static picture stands in for the canvas.
    assert ada._picture.value.startswith("<svg")
    projector = room._repr_mimebundle_()
    projector = projector[0] if isinstance(projector, tuple) else projector
    assert "1 player: Ada" in projector["text/plain"]
    assert repr(ada) == f"<ClassBoard: room {room.code}, 12 cards, Your score: 0 (0 SETs)>"


def test_a_card_in_the_view_is_a_card_of_the_deck(room, widgets):
    ada = student(widgets, room, "Ada")
    assert ada.table == as_cards(ada.view["table"])
    assert ada.letters[:3] == ["q", "a", "z"]


def test_the_teacher_locks_answers_the_door_hands_a_second_code_and_deletes_with_buttons(
    room, widgets, monkeypatch
):
    monkeypatch.setattr(client, "ASK_SECONDS", 0.3)  # the boards waiting at the door ask again soon
    ada = student(widgets, room, "Ada")
    assert room.buttons["lock"].description == "Lock" and room.buttons["let_in"].disabled
    room.buttons["lock"].click()
    wait_until(lambda: room.view.get("locked") and room.buttons["lock"].description == "Unlock")
    assert "Locked: nobody new joins by the code." in room._door_widget.value
    # A late student's board waits at the door (tests/test_classroom_waiting.py shows it closely).
    ben, cleo = student(widgets, room, "Ben"), student(widgets, room, "Cleo")
    assert ben.door == cleo.door == "waiting"
    wait_until(lambda: room.waiting_picker.options == ("Ben", "Cleo"), what="the names waiting")
    assert "Waiting to be let in: Ben, Cleo." in room._door_widget.value
    room.buttons["let_in"].click()  # nothing picked: nothing sent
    assert room.status == "Pick a name waiting first." and room.waiting == ["Ben", "Cleo"]
    room.waiting_picker.value = "Cleo"
    room.buttons["refuse"].click()
    assert room.status == "Cleo was not let in."
    room.waiting_picker.value = "Ben"
    room.buttons["let_in"].click()
    assert room.status == "Ben was let in."
    wait_until(lambda: room.players == ["Ada", "Ben"] and room.waiting_picker.options == ())
    assert room.buttons["let_in"].disabled and room.buttons["refuse"].disabled
    wait_until(lambda: ben.status.startswith("The teacher let you in"), what="Ben's board seated")
    wait_until(lambda: "did not let you into" in cleo._state_widget.value, what="Cleo's board told")
    room.buttons["second_code"].click()
    second = room.status.split("code for one late player: ")[1][:5]
    dan = student(widgets, second, "Dan")
    assert dan.code == room.code
    in_step(room, ada, ben, dan)
    # Delete room: the first click only asks for a second; another button in between disarms it.
    room.buttons["delete"].click()
    assert room.status.startswith(f"Click Delete room again to delete room {room.code}")
    room.buttons["lock"].click()  # unlock
    room.buttons["delete"].click()
    assert room.status.startswith("Click Delete room again") and room.players == ["Ada", "Ben", "Dan"]
    room.buttons["delete"].click()
    assert room.status == f"Room {room.code} was deleted."
    assert not room.connected and all(button.disabled for button in room.buttons.values())
    wait_until(lambda: ada._connection.gone, what="the students' notebooks told")


def test_a_board_that_left_says_no_place_in_line_and_frames_no_clicked_card(room, widgets):
    # Lesson 07 once left the room before the student played: the board then said "Your call: pick
    # three cards!" beside "This notebook left the room", and still framed the cards clicked.
    ben = student(widgets, room, "Ben")
    ben.call()
    wait_until(lambda: ben.place == "Your call: pick three cards!")
    ben.leave()
    assert ben.place == "" and "Your call" not in ben._place_widget.value
    assert ben.select(0) is None and ben.selected == [] and ben.highlights == {}
