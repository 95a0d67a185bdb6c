"""Live widgets for Jupyter: thin views over the core that draw with ipycanvas.

- :class:`Board`: play SET on a live table (mouse, keys, several players, a computer opponent);
- :class:`MagicRuleChecker`: three cards, checked feature by feature;
- :class:`ThirdCardExplorer`: two cards and the one card that completes their SET;
- :class:`CardPicker`: four dropdowns that pick a card;
- :class:`CardTable`: some cards to pick from by clicking (a checker can sit under one);
- :class:`LinesExplorer`: cards laid out as a 3 x 3 board, a cube or the whole deck, with the
  lines (SETs) through a chosen card or pair drawn over them;
- :class:`PlaneBuilder`: the plane of three cards as a magic square, or why they span none;
- :class:`Standings`: a competition's standings, live as scores come in, with the
  coordinator's forms: a table's scores, a play-in's, absent, withdrawn and late players
  (:func:`standings_html` gives the same table as static HTML);
- :class:`PuzzleBoard`: find every SET of a table of twelve against the clock; each board
  goes into a :class:`PracticeRecord` (boards solved, median time, misses), the session's
  (:func:`session_record`) unless given one. The puzzle itself is a :class:`Puzzle`;
- :class:`Timer`: a round's clock for the projector (start, pause, reset; a flash and a beep
  at the end), over :class:`~setwidgets.competition.timer.RoundTimer`;
- :class:`ClassBoard` and :class:`ClassRoom`: a live class game, one table shared by every
  student's notebook (a ClassBoard each) and the teacher's projector (the ClassRoom), through
  the classroom service (:mod:`setwidgets.classroom`).

The widgets hold no rules of their own: they call :mod:`setwidgets.game` and
:mod:`setwidgets.rules` and redraw from what those return. Each one also
shows a static picture where no live widget can run (a saved notebook, an
HTML export, nbgrader feedback).

The widgets load on first use. What they show but need no Jupyter for lives
beside the core: the Board's wording in :mod:`setwidgets.wording`, the puzzle
and the practice record in :mod:`setwidgets.puzzles`; both can be imported and
tested without ipywidgets.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from setwidgets import _extras

if TYPE_CHECKING:  # for type checkers and editors; at run time __getattr__ finds them
    from setwidgets.puzzles import PracticeRecord as PracticeRecord
    from setwidgets.puzzles import Puzzle as Puzzle
    from setwidgets.puzzles import session_record as session_record
    from setwidgets.widgets.board import Board as Board
    from setwidgets.widgets.checker import MagicRuleChecker as MagicRuleChecker
    from setwidgets.widgets.classroom import ClassBoard as ClassBoard
    from setwidgets.widgets.classroom import ClassRoom as ClassRoom
    from setwidgets.widgets.explorer import ThirdCardExplorer as ThirdCardExplorer
    from setwidgets.widgets.geometry import LinesExplorer as LinesExplorer
    from setwidgets.widgets.geometry import PlaneBuilder as PlaneBuilder
    from setwidgets.widgets.pickers import CardPicker as CardPicker
    from setwidgets.widgets.puzzle import PuzzleBoard as PuzzleBoard
    from setwidgets.widgets.standings import Standings as Standings
    from setwidgets.widgets.standings import standings_html as standings_html
    from setwidgets.widgets.table import CardTable as CardTable
    from setwidgets.widgets.timer import Timer as Timer

WIDGETS: dict[str, str] = {
    "Board": "setwidgets.widgets.board",
    "CardPicker": "setwidgets.widgets.pickers",
    "CardTable": "setwidgets.widgets.table",
    "ClassBoard": "setwidgets.widgets.classroom",
    "ClassRoom": "setwidgets.widgets.classroom",
    "LinesExplorer": "setwidgets.widgets.geometry",
    "MagicRuleChecker": "setwidgets.widgets.checker",
    "PlaneBuilder": "setwidgets.widgets.geometry",
    "PuzzleBoard": "setwidgets.widgets.puzzle",
    "Standings": "setwidgets.widgets.standings",
    "ThirdCardExplorer": "setwidgets.widgets.explorer",
    "Timer": "setwidgets.widgets.timer",
}
"""The widgets, each with the module that holds it: the one list of them.

``from setwidgets import Board`` finds its widgets here, and so do the tests; reading the
list loads no Jupyter module (this package imports its widgets only when one is asked for).
"""

ALSO: dict[str, str] = {
    "PracticeRecord": "setwidgets.puzzles",
    "Puzzle": "setwidgets.puzzles",
    "session_record": "setwidgets.puzzles",
    "standings_html": "setwidgets.widgets.standings",
}
"""What comes with the widgets without being one, each with its module (the puzzle needs no Jupyter)."""

__all__ = [*WIDGETS, *ALSO]


def __getattr__(name: str) -> Any:
    home = WIDGETS.get(name) or ALSO.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        module = import_module(home)
    except ModuleNotFoundError as error:
        # The class game's widgets also need the classroom service's client (the classroom extra).
        extra = next((e for e in ("widgets", "classroom") if error.name in _extras.EXTRAS[e]), None)
        if extra is None:
            raise
        raise _extras.MissingExtra(error.name, extra, f"setwidgets.widgets.{name}") from None
    value = getattr(module, name)
    globals()[name] = value  # found once, then a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
