"""The class game's room (setwidgets.classroom.rooms): its referee, without a network.

Each refusal is checked to change nothing: the room's saved data is the same before and after.
"""

from __future__ import annotations

import json
import re

import fuzzing
import pytest
from conftest import Clock, examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setwidgets.classroom.rooms import FORMAT, HISTORY_LIMIT, MAX_N, Room, RoomError

FUZZ = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def room_of(*names: str, clock: Clock | None = None, **settings) -> Room:
    room = Room("BCDFG", seed=4, clock=clock or Clock(), **settings)
    for name in names:
        room.join(name)
    return room


def a_set(room: Room) -> list[str]:
    return [c.code for c in room.game.sets_on_table()[0]]


def not_a_set(room: Room) -> list[str]:
    sets = {frozenset(c.code for c in s) for s in room.game.sets_on_table()}
    codes = [c.code for c in room.game.table]
    for i in range(len(codes)):
        for j in range(i + 1, len(codes)):
            for k in range(j + 1, len(codes)):
                if frozenset((codes[i], codes[j], codes[k])) not in sets:
                    return [codes[i], codes[j], codes[k]]
    raise AssertionError("every three cards on the table are a SET")


def refused(room: Room, answer: dict, words: str) -> None:
    assert answer["ok"] is False
    assert words in answer["message"], answer["message"]


def unchanged(room: Room, act) -> dict:
    before = json.dumps(room.to_data())
    answer = act()
    assert json.dumps(room.to_data()) == before, "a refused message changed the room"
    return answer


# -- joining ----------------------------------------------------------------------------------------


def test_a_room_waits_for_its_first_player_then_deals():
    room = Room("BCDFG", seed=1, clock=Clock())
    assert room.view()["status"] == "waiting" and room.view()["table"] == []
    answer = room.join("Ana")
    assert answer == {"ok": True, "message": "Welcome, Ana: you play in room BCDFG.", "name": "Ana"}
    view = room.view()
    assert view["status"] == "open" and len(view["table"]) == 12 and view["deck_left"] == 69
    assert view["players"] == [
        {"name": "Ana", "team": "", "present": True, "sets": 0, "penalties": 0, "score": 0}
    ]


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("", "name must be 1 to"),
        ("x" * 200, "name must be 1 to"),
        ("Ana\u202e", "which holds U+202E"),
        (42, "name must be text"),
        ("ANA", "the name 'ANA' is taken in room BCDFG, or looks like one that is; choose another name"),
        ("\u0410na", "the name '\u0410na' is taken in room BCDFG"),  # a Cyrillic А: it looks the same
        ("Ben, Cleo", "name holds letters, digits and spaces, with ' - . between them; got 'Ben, Cleo'"),
    ],
)
def test_a_bad_or_taken_name_is_refused_and_changes_nothing(name, words):
    room = room_of("Ana")
    before = json.dumps(room.to_data())
    with pytest.raises((RoomError, TypeError, ValueError), match=re.escape(words)):
        room.join(name)
    assert json.dumps(room.to_data()) == before


def test_a_late_player_joins_the_game_under_way_and_plays():
    room = room_of("Ana", "Ben")
    room.play("Ana", {"n": 1, "type": "claim", "cards": a_set(room)})
    room.join("Cleo", team="Blue")
    assert [p["name"] for p in room.view()["players"]] == ["Ana", "Ben", "Cleo"]
    assert room.play("Cleo", {"n": 1, "type": "claim", "cards": a_set(room)})["ok"]
    assert room.game.scores == {"Ana": 1, "Ben": 0, "Cleo": 1}
    assert room.view()["teams"] == {"Blue": 1}


def test_nobody_joins_an_ended_room():
    room = room_of("Ana")
    room.teach({"n": 1, "type": "end"})
    before = json.dumps(room.to_data())
    with pytest.raises(RoomError, match="room BCDFG has ended; ask your teacher for the code of a new room"):
        room.join("Ben")
    assert json.dumps(room.to_data()) == before


def test_a_class_plays_the_table_variants_only():
    with pytest.raises(RoomError, match="a class plays standard, online and competition rules at one table"):
        Room("BCDFG", variant="solitaire")


# -- the players' messages ----------------------------------------------------------------------------


def test_calls_are_served_in_the_order_they_arrive():
    room = room_of("Ana", "Ben", "Cleo")
    assert room.play("Ben", {"n": 1, "type": "call"})["message"] == "Ben called SET!"
    assert (
        room.play("Cleo", {"n": 1, "type": "call"})["message"] == "Cleo called SET and is number 2 in line."
    )
    assert room.view()["callers"] == ["Ben", "Cleo"]
    assert room.you("Cleo")["line"] == 2 and room.you("Ana")["line"] is None
    # Only the caller holding the call may claim: Cleo's claim waits for Ben's turn to end.
    refused(
        room,
        unchanged(room, lambda: room.play("Cleo", {"n": 2, "type": "claim", "cards": a_set(room)})),
        "Ben",
    )
    assert room.play("Ben", {"n": 2, "type": "claim", "cards": a_set(room)})["ok"]
    assert room.view()["callers"] == ["Cleo"]


def test_a_wrong_claim_costs_a_point_and_a_right_one_scores():
    room = room_of("Ana", "Ben")
    answer = room.play("Ana", {"n": 1, "type": "claim", "cards": not_a_set(room)})
    assert answer["ok"] is False and room.game.scores["Ana"] == -1
    assert room.view()["last"]["type"] == "claim" and room.view()["last"]["ok"] is False
    assert room.play("Ana", {"n": 2, "type": "claim", "cards": a_set(room)})["ok"]
    assert room.game.scores["Ana"] == 0 and room.you("Ana") == {
        "name": "Ana",
        "score": 0,
        "sets": 1,
        "line": None,
        "last_n": 2,
    }


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ("call", 'a message is a JSON object like {"n": 1, "type": "call"}; got'),
        ({"n": 1}, '"type" must be one of call, claim and no_set; got None'),
        ({"n": 1, "type": "pause"}, '"type" must be one of call, claim and no_set'),
        ({"type": "call"}, 'a message needs "n", a whole number from 1 to 2**53'),
        ({"n": True, "type": "call"}, 'a message needs "n"'),
        ({"n": 1.0, "type": "call"}, 'a message needs "n"'),
        ({"n": 0, "type": "call"}, 'a message needs "n"'),
        ({"n": MAX_N + 1, "type": "call"}, 'a message needs "n"'),
        ({"n": 1, "type": "call", "extra": 1}, "a \"call\" message has no field 'extra'"),
        (
            {"n": 1, "type": "call", "player": "Ben"},
            "a message does not name a player: you always play as yourself",
        ),
        ({"n": 1, "type": "claim", "name": "Ben", "cards": []}, "a message does not name a player"),
        ({"n": 1, "type": "claim"}, 'a claim needs "cards": three card codes'),
        ({"n": 1, "type": "claim", "cards": ["1RSO"]}, "three"),
        ({"n": 1, "type": "claim", "cards": "xyz"}, ""),
    ],
)
def test_a_malformed_message_is_refused_and_changes_nothing(message, words):
    room = room_of("Ana", "Ben")
    answer = unchanged(room, lambda: room.play("Ana", message))
    refused(room, answer, words)


def test_a_message_served_once_is_not_served_again():
    room = room_of("Ana", "Ben")
    room.play("Ana", {"n": 5, "type": "call"})
    for n in (5, 4):
        answer = unchanged(room, lambda n=n: room.play("Ana", {"n": n, "type": "no_set"}))
        refused(room, answer, f'message {n} was served already; each message needs a higher number "n"')


def test_someone_who_has_not_joined_or_was_removed_plays_nothing():
    room = room_of("Ana", "Ben")
    refused(room, unchanged(room, lambda: room.play("Zed", {"n": 1, "type": "call"})), "'Zed' has not joined")
    assert room.teach({"n": 1, "type": "remove", "name": "Ben"})["ok"]
    refused(
        room, unchanged(room, lambda: room.play("Ben", {"n": 1, "type": "call"})), "the teacher took Ben out"
    )
    assert room.view()["players"][1]["present"] is False


def test_a_paused_game_takes_no_moves_but_the_caller_may_still_show_cards():
    room = room_of("Ana", "Ben")
    room.play("Ana", {"n": 1, "type": "call"})
    assert room.teach({"n": 1, "type": "pause"})["message"] == "The teacher paused the game."
    answer = unchanged(room, lambda: room.play("Ben", {"n": 1, "type": "call"}))
    refused(room, answer, "the teacher paused the game; wait until it goes on")
    assert room.play("Ana", {"n": 2, "type": "claim", "cards": a_set(room)})["ok"]
    assert room.teach({"n": 2, "type": "resume"})["ok"] and room.view()["status"] == "open"


def test_a_call_that_runs_out_of_time_costs_a_point_and_the_line_moves_on():
    clock = Clock()
    room = room_of("Ana", "Ben", clock=clock, claim_seconds=5)
    room.play("Ana", {"n": 1, "type": "call"})
    room.play("Ben", {"n": 1, "type": "call"})
    assert room.deadline() == clock() + 5
    assert room.expire() is False
    clock.advance(5.5)
    assert room.expire() is True
    assert room.game.scores == {"Ana": -1, "Ben": 0}
    assert room.view()["last"]["message"] == "Ana showed no SET in time and loses a point."
    assert room.view()["callers"] == ["Ben"]


def test_a_pause_stops_the_callers_clock_and_it_goes_on_where_it_stood():
    clock = Clock()
    room = room_of("Ana", "Ben", clock=clock, claim_seconds=5)
    room.play("Ana", {"n": 1, "type": "call"})
    clock.advance(2)
    room.teach({"n": 1, "type": "pause"})
    clock.advance(60)
    assert room.expire() is False and room.deadline() is None
    assert room.view()["time_left"] == 3
    saved = json.loads(json.dumps(room.to_data()))
    clock.advance(30)
    room = Room.from_data(saved, clock)  # a restart in the pause changes nothing
    room.teach({"n": 2, "type": "resume"})
    assert room.view()["time_left"] == 3 and room.deadline() == clock() + 3
    clock.advance(2.5)
    assert room.expire() is False
    clock.advance(1)
    assert room.expire() is True and room.game.scores["Ana"] == -1


# -- the teacher ----------------------------------------------------------------------------------------


def test_the_teacher_ends_the_room_and_nothing_more_is_played():
    room = room_of("Ana")
    room.teach({"n": 1, "type": "end"})
    refused(room, unchanged(room, lambda: room.play("Ana", {"n": 1, "type": "call"})), "has ended")
    refused(room, unchanged(room, lambda: room.teach({"n": 2, "type": "new_game"})), "has ended")


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ({"n": 1, "type": "resume"}, "only a paused game can go on; this room is open"),
        ({"n": 1, "type": "remove", "name": "Zed"}, "nobody called 'Zed' plays in room BCDFG"),
        ({"n": 1, "type": "remove"}, "nobody called None plays"),
        ({"n": 1, "type": "scores", "shown": "yes"}, "shown must be True or False"),
        ({"n": 1, "type": "call"}, '"type" must be one of pause, resume, end, new_game, remove, scores'),
        ({"n": 1, "type": "end", "cards": []}, "a \"end\" message has no field 'cards'"),
    ],
)
def test_a_teachers_bad_message_is_refused_and_changes_nothing(message, words):
    room = room_of("Ana")
    refused(room, unchanged(room, lambda: room.teach(message)), words)


def test_a_new_game_deals_again_to_everyone_still_in_the_room():
    room = room_of("Ana", "Ben", "Cleo")
    first = room.view()["table"]
    room.teach({"n": 1, "type": "remove", "name": "Ben"})
    assert room.teach({"n": 2, "type": "new_game"})["message"] == "Game 2 begins."
    view = room.view()
    assert view["game"] == 2 and view["table"] != first
    assert [p.name for p in room.game.players] == ["Ana", "Cleo"]


def test_hidden_scores_tell_only_that_a_set_was_found_and_the_teams_count():
    room = Room("BCDFG", seed=4, clock=Clock(), scores_shown=False)
    room.join("Ana", team="Red")
    room.join("Ben", team="Blue")
    room.play("Ana", {"n": 1, "type": "claim", "cards": a_set(room)})
    view = room.view()
    assert view["last"]["message"] == "Ana found a SET."
    assert all(set(p) == {"name", "team", "present"} for p in view["players"])
    assert view["teams"] == {"Red": 1, "Blue": 0}
    assert room.you("Ana")["score"] == 1  # each player still sees their own score
    assert [p["score"] for p in room.view(teacher=True)["players"]] == [1, 0]  # and the teacher all
    assert room.teach({"n": 1, "type": "scores", "shown": True})["ok"]
    assert room.view()["players"][0]["score"] == 1


def test_a_game_played_to_its_end_is_over_until_the_teacher_starts_another():
    room = room_of("Ana", "Ben", deck="mini")
    n = 0
    while room.view()["status"] == "open":
        n += 1
        sets = room.game.sets_on_table()
        message = {"type": "claim", "cards": [c.code for c in sets[0]]} if sets else {"type": "no_set"}
        assert room.play("Ana", {"n": n, **message})["ok"]
    assert room.view()["status"] == "over" and room.game.over
    refused(room, unchanged(room, lambda: room.play("Ben", {"n": 1, "type": "call"})), "is over")
    room.join("Cleo")  # after the game: seated at the next one
    assert room.view()["players"][2] == {
        "name": "Cleo", "team": "", "present": True, "sets": 0, "penalties": 0, "score": 0
    }  # fmt: skip
    room.teach({"n": 1, "type": "new_game"})
    assert [p.name for p in room.game.players] == ["Ana", "Ben", "Cleo"]


# -- saving -----------------------------------------------------------------------------------------------


def test_a_room_saved_and_loaded_plays_on_exactly_as_before():
    clock = Clock()
    room = room_of("Ana", "Ben", clock=clock)
    room.play("Ana", {"n": 1, "type": "claim", "cards": a_set(room)})
    room.play("Ben", {"n": 1, "type": "call"})
    data = json.loads(json.dumps(room.to_data()))
    again = Room.from_data(data, clock)
    assert again.to_data() == room.to_data()
    assert again.view() == room.view()
    for r in (room, again):
        r.play("Ben", {"n": 2, "type": "claim", "cards": a_set(r)})
    assert again.to_data() == room.to_data()


@pytest.mark.parametrize(
    ("tamper", "words"),
    [
        (
            lambda d: d.update(format="x"),
            f"this is not a saved room: Room.to_data() writes a 'format' of {FORMAT}",
        ),
        (lambda d: d.pop("members"), "the saved room 'BCDFG' is damaged"),
        (lambda d: d.update(status="sleeping"), "is damaged: status must be"),
        (lambda d: d.update(members=[]), "its players are not those of its game"),
        (lambda d: d.update(game="{}"), "is damaged"),
        (lambda d: d.update(variant="solitaire"), "is damaged"),
        (lambda d: d.update(members=d["members"] * 2), "is damaged: 'Ana' is a member twice"),
        (lambda d: d["members"][0].__setitem__(0, 7), "is damaged: a member is [name, team, removed"),
        (lambda d: d.update(status="waiting"), "is damaged: its status waiting does not fit its game"),
        # Issue 36: an open room with no game loaded, then failed with a raw AssertionError.
        (lambda d: d.update(game=None), "is damaged: its status open does not fit no game"),
        (lambda d: d.update(status="paused"), "is damaged: it is paused without the time its pause began"),
        (lambda d: d.update(number=0), "is damaged: it holds a game but counts no game begun"),
        (lambda d: d.update(teacher_n=2**60), "is damaged: teacher_n must be at most 2**53"),
        (lambda d: d.update(folded={"Zed": 3}), "it folds penalties of 'Zed', who does not play its game"),
        (lambda d: d.update(folded={"Ana": -1}), "is damaged"),
        (lambda d: d.update(folded=[1]), "is damaged: folded must be an object of counts by name"),
        # A save of form 1 folds nothing; one that says it folds is of form 2.
        (lambda d: d.update(format="setwidgets-room/0"), "this is not a saved room"),
    ],
)
def test_a_damaged_save_is_refused(tamper, words):
    data = room_of("Ana", "Ben").to_data()
    tamper(data)
    with pytest.raises(RoomError, match=re.escape(words)):
        Room.from_data(data)


# -- fuzzing ------------------------------------------------------------------------------------------------

VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True),
    st.text(max_size=8),
    st.lists(st.text(min_size=4, max_size=4), max_size=4),
    st.sampled_from(["1RSO", "2GTS", "3POD", "call", "claim", "no_set", "pause", "remove", "Ana"]),
)
MESSAGES = st.one_of(
    VALUES,
    st.dictionaries(
        st.sampled_from(["n", "type", "cards", "name", "player", "shown", "extra"]), VALUES, max_size=5
    ),
)


@FUZZ
@given(messages=st.lists(st.tuples(st.sampled_from(["Ana", "Ben", "teacher", "Zed"]), MESSAGES), max_size=12))
def test_fuzz_any_message_is_served_or_refused_and_a_refusal_changes_nothing(messages):
    room = room_of("Ana", "Ben")
    for sender, message in messages:
        before = json.dumps(room.to_data())
        if sender == "teacher":
            outcome = fuzzing.attempt("classroom", room.teach, message)
        else:
            outcome = fuzzing.attempt("classroom", room.play, sender, message)
        answer = outcome.value
        after = json.dumps(room.to_data())
        # A served message carries its number back; a refused one does not, and changes nothing.
        if "n" not in answer:
            assert answer["ok"] is False and after == before
        assert Room.from_data(json.loads(after), room.clock).to_data() == room.to_data()


# -- a history of bounded length ------------------------------------------------------------------------


def timeouts(room: Room, clock: Clock, count: int, first_n: int = 1) -> int:
    """Ana calls and lets her time run out ``count`` times; returns her next message number."""
    n = first_n
    for _ in range(count):
        assert room.play("Ana", {"n": n, "type": "call"})["ok"]
        clock.advance(6)
        assert room.expire()
        n += 1
    return n


def test_a_long_game_folds_its_failed_calls_into_counts_and_keeps_every_score():
    clock = Clock()
    room = room_of("Ana", "Ben", clock=clock)
    assert room.play("Ben", {"n": 1, "type": "claim", "cards": a_set(room)})["ok"]
    assert room.play("Ben", {"n": 2, "type": "claim", "cards": not_a_set(room)})["ok"] is False
    n = timeouts(room, clock, 1000)
    # Ben holds the call and waits in line behind Ana: calls that stay in the history.
    assert room.play("Ben", {"n": 3, "type": "call"})["ok"]
    assert room.play("Ana", {"n": n, "type": "call"})["ok"]
    history = room.game.history
    assert len(history) <= HISTORY_LIMIT * 3 // 2
    assert [e for e in history if e["type"] == "call"][-2:] == [
        {"type": "call", "time": clock(), "player": 1, "line": 1},
        {"type": "call", "time": clock(), "player": 0, "line": 2},
    ]
    players = room.view()["players"]
    assert [(p["sets"], p["penalties"], p["score"]) for p in players] == [(0, 1000, -1000), (1, 1, 0)]
    assert room.game.scores == {"Ana": -1000, "Ben": 0}
    # Saved and loaded, the room is the same room, and it plays on.
    data = json.loads(json.dumps(room.to_data()))
    # What the history still tells and what was folded add up to every penalty.
    told = [
        sum(e.get("player") == seat and (e["type"] == "timeout" or e.get("penalty", False)) for e in history)
        for seat in (0, 1)
    ]
    assert data["folded"]["Ana"] > 900
    assert [told[0] + data["folded"]["Ana"], told[1] + data["folded"].get("Ben", 0)] == [1000, 1]
    again = Room.from_data(data, clock)
    assert again.to_data() == room.to_data() and again.view() == room.view()
    for r in (room, again):
        assert r.play("Ben", {"n": 4, "type": "claim", "cards": a_set(r)})["ok"]
        assert r.view()["callers"] == ["Ana"]
    assert again.to_data() == room.to_data()


def test_a_save_is_as_small_after_100_000_penalties_as_after_10():
    clock = Clock()
    room = room_of("Ana", "Ben", clock=clock)
    n = timeouts(room, clock, 10)
    small = len(json.dumps(room.to_data()))
    sizes = []
    for _ in range(10):
        n = timeouts(room, clock, 1000, n)
        sizes.append(len(json.dumps(room.to_data())))
    assert room.view()["players"][0]["penalties"] == 10_010
    # The history grows by at most half the limit between folds: some 200 events of 100 bytes.
    assert max(sizes) < small + 150 * HISTORY_LIMIT, (small, sizes)


def test_a_game_over_with_folded_penalties_keeps_its_final_scores_through_a_save():
    clock = Clock()
    room = room_of("Ana", "Ben", clock=clock, deck="mini")
    n = timeouts(room, clock, 300)
    while room.view()["status"] == "open":
        sets = room.game.sets_on_table()
        message = {"type": "claim", "cards": [c.code for c in sets[0]]} if sets else {"type": "no_set"}
        assert room.play("Ben", {"n": n, **message})["ok"]
        n += 1
    end = room.game.history[-1]
    assert end["type"] == "over" and end["scores"] == room.game.scores
    assert room.game.scores["Ana"] == -300 and room.to_data()["folded"]["Ana"] > 0
    again = Room.from_data(json.loads(json.dumps(room.to_data())), clock)
    assert again.game.history[-1] == end and again.view() == room.view()
    # A new game starts with nothing folded.
    assert again.teach({"n": 1, "type": "new_game"})["ok"]
    assert again.to_data()["folded"] == {}


def test_a_save_of_the_first_form_is_still_read():
    room = room_of("Ana", "Ben")
    data = room.to_data()
    del data["folded"], data["locked"]  # form 1 had neither
    data["format"] = "setwidgets-room/1"
    assert Room.from_data(data, room.clock).view() == room.view()


def test_a_room_restored_from_its_save_is_the_same_object_as_it_was_saved():
    clock = Clock()
    room = room_of("Ana", "Ben", clock=clock)
    saved = json.loads(json.dumps(room.to_data()))
    assert room.play("Ana", {"n": 1, "type": "claim", "cards": a_set(room)})["ok"]
    same = room
    room.restore(saved)
    assert same is room and room.to_data() == saved and room.you("Ana")["last_n"] == 0
    other = room_of("Ana")
    other.code = "ZZZZZ"
    with pytest.raises(RoomError, match="room BCDFG cannot become the saved room ZZZZZ"):
        room.restore(other.to_data())


STEPS = st.lists(
    st.tuples(
        st.sampled_from(["Ana", "Ben", "Cleo", "teacher"]),
        st.sampled_from(["call", "claim_set", "claim_wrong", "no_set", "wait", "pause", "resume"]),
    ),
    max_size=40,
)


@FUZZ
@given(steps=STEPS)
def test_fuzz_a_room_that_folds_often_saves_and_loads_as_the_same_room(steps):
    # A tiny limit folds after almost every move: calls in line behind others, claims right and
    # wrong, timeouts, pauses and a game's end all pass through a fold and a save.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("setwidgets.classroom.rooms.HISTORY_LIMIT", 4)
        play_and_check(steps)


def play_and_check(steps: list[tuple[str, str]]) -> None:
    clock = Clock()
    room = room_of("Ana", "Ben", "Cleo", clock=clock, deck="mini", claim_seconds=5)
    n = {"Ana": 0, "Ben": 0, "Cleo": 0, "teacher": 0}
    for sender, kind in steps:
        if kind == "wait":
            clock.advance(3)
            room.expire()
            continue
        n[sender] += 1
        if sender == "teacher":
            room.teach({"n": n[sender], "type": kind if kind in ("pause", "resume") else "new_game"})
        elif kind in ("pause", "resume"):
            continue
        elif kind.startswith("claim"):
            if room.game is None or room.game.over:
                continue
            cards = a_set(room) if kind == "claim_set" and room.game.sets_on_table() else not_a_set(room)
            room.play(sender, {"n": n[sender], "type": "claim", "cards": cards})
        else:
            room.play(sender, {"n": n[sender], "type": kind})
        data = json.loads(json.dumps(room.to_data()))
        again = Room.from_data(data, clock)
        assert again.to_data() == room.to_data() and again.view() == room.view()
        # What the history tells and what was folded add up to each player's penalties.
        told = {p.name: 0 for p in room.game.players}
        for event in room.game.history:
            if event["type"] == "timeout" or (event["type"] == "claim" and event["penalty"]):
                told[room.game.players[event["player"]].name] += 1
        assert {name: told[name] + room.folded.get(name, 0) for name in told} == {
            p.name: p.penalties for p in room.game.players
        }
