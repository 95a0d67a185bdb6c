"""Write one competition file with the setwidgets of an earlier commit (kept as test fixtures).

Run from a copy of that commit's package, e.g.::

    git archive 17f51fc setwidgets | tar -x -C /tmp/v0
    PYTHONPATH=/tmp/v0 python tests/data/competition_versions/make_files.py v0.sqlite

The same play in every version: six players in two divisions, three rounds planned, the
first round entered, one score corrected (and, from version 2, one player absent in round 2).
tests/test_competition_file.py opens each file with today's version and checks this play.
"""

import sys

from setwidgets.competition import Competition

event = Competition(sys.argv[1])
for number, (name, division) in enumerate(
    [("Ada", "A"), ("Ben", "A"), ("Cleo", "A"), ("Dev", "B"), ("Eli", "B"), ("Fay", "B")], 1
):
    event.register(number, name, division)
event.plan(rounds=3, seed=1)
event.record(1, 1, {1: 5, 2: 3, 3: (4, 1)})
event.record(1, 2, {4: 6, 5: 2, 6: 1})
event.correct(1, 6, 2, 0)
if hasattr(event, "absent"):
    event.absent(2, 5)
event.close() if hasattr(event, "close") else event._db.close()
