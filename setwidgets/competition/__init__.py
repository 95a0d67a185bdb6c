"""Running a SET competition: schedules, the coordinator's scoreboard, standings.

- :mod:`setwidgets.competition.schedules`: who sits at which table in each round;
- :mod:`setwidgets.competition.store`: :class:`Competition`, the scoreboard kept in SQLite
  (its file: :mod:`~setwidgets.competition.database`; the final and tie-breakers:
  :mod:`~setwidgets.competition.final`; absent, withdrawn and late players:
  :mod:`~setwidgets.competition.attendance`);
- :mod:`setwidgets.competition.timer`: :class:`~setwidgets.competition.timer.RoundTimer`, a
  round's clock (the projector's widget is :class:`setwidgets.widgets.Timer`);
- :mod:`setwidgets.competition.guide`: the schedules printed in the official competition guide.

The printables are in :mod:`setwidgets.printables`, the standings widget in
:mod:`setwidgets.widgets.standings`.

Pure Python: nothing here imports Jupyter.
"""

from setwidgets.competition.schedules import Schedule, fewest_repeats, meetings, misprints, repeats, schedule
from setwidgets.competition.store import DIVISIONS, Competition, CompetitionError, Standing

__all__ = [
    "DIVISIONS",
    "Competition",
    "CompetitionError",
    "Schedule",
    "Standing",
    "fewest_repeats",
    "meetings",
    "misprints",
    "repeats",
    "schedule",
]
