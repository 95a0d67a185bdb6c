"""Print one saved game (Game.to_json) made with the setwidgets of an earlier commit (a test fixture).

Run from a copy of that commit's package, e.g.::

    git archive 4be366f setwidgets | tar -x -C /tmp/4be366f
    PYTHONPATH=/tmp/4be366f python tests/data/versions/make_game.py > game-4be366f.json

The same play in every version, on a clock at 100 s: Ana calls and keeps the first SET on the
table (101 s), Ben calls and claims three cards that are not a SET (104 s, a penalty), Ana
calls at 105 s and the game is saved at 107 s with her call pending (3 s of 5 left).
"""

try:
    from setwidgets.game import Game
except ImportError:  # before setwidgets.game was a package (2026-11-25)
    from setwidgets import Game
from setwidgets.rules import is_set

t = [100.0]
game = Game(players=["Ana", "Ben"], seed=7, clock=lambda: t[0])
first = game.sets_on_table()[0]
game.call("Ana")
t[0] += 1
game.claim(list(first), "Ana")
t[0] += 2
game.call("Ben")
t[0] += 1
table = game.table
wrong = table[:3] if not is_set(table[:3]) else [table[0], table[1], table[3]]
game.claim(wrong, "Ben")
t[0] += 1
game.call("Ana")
t[0] += 2
print(game.to_json())
