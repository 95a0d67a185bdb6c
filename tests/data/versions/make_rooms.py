"""Write one classroom store file with the setwidgets of an earlier commit (kept as test fixtures).

Run from a copy of that commit's package, e.g.::

    git archive d637546 setwidgets | tar -x -C /tmp/d637546
    PYTHONPATH=/tmp/d637546 python tests/data/versions/make_rooms.py rooms-d637546.sqlite

The same rooms in every version: BCDFG waiting for players; HJKLM with Ana's SET kept, Ben's
wrong claim and Ben's call pending, and Ana's seat (token 'token-ana'); NPQRS a competition
game on the mini deck (paused by the teacher where pauses exist); TVWXZ ended by the teacher.
tests/test_versions.py opens each file with today's version and checks these rooms.
"""

import sys

from setwidgets.classroom import rooms
from setwidgets.classroom.rooms import Room
from setwidgets.classroom.store import Store

t = [1000.0]


def clock():
    return t[0]


store = Store("sqlite:///" + sys.argv[1])
store.save(Room("BCDFG", seed=1, clock=clock))
room = Room("HJKLM", seed=4, clock=clock)
room.join("Ana")
room.join("Ben", "Reds")
a, b, c = room.game.sets_on_table()[0]
room.play("Ana", {"n": 1, "type": "call"})
t[0] += 1
room.play("Ana", {"n": 2, "type": "claim", "cards": [a.code, b.code, c.code]})
t[0] += 1
room.play("Ben", {"n": 1, "type": "call"})
t[0] += 1
room.play("Ben", {"n": 2, "type": "claim", "cards": [x.code for x in room.game.table[:3]]})
room.play("Ben", {"n": 3, "type": "call"})
t[0] += 2
store.save(room)
store.add_seat("token-ana", "HJKLM", "Ana")
room = Room("NPQRS", variant="competition", deck="mini", seed=2, clock=clock)
room.join("Cleo")
room.join("Dev")
if "pause" in getattr(rooms, "TEACHER_MOVES", ()):
    room.teach({"n": 1, "type": "pause"})
store.save(room)
room = Room("TVWXZ", seed=3, clock=clock)
room.join("Eli")
room.teach({"n": 1, "type": "end"})
store.save(room)
if hasattr(store, "close"):
    store.close()
