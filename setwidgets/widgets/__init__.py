"""Live widgets for Jupyter: thin views over the core that draw with ipycanvas.

- :class:`Board`: play SET on a live table (mouse, keys, several players, a computer opponent);
- :class:`MagicRuleChecker`: three cards, checked feature by feature;
- :class:`ThirdCardExplorer`: two cards and the one card that completes their SET;
- :class:`CardPicker`: four dropdowns that pick a card;
- :class:`CardTable`: some cards to pick from by clicking (a checker can sit under one);
- :class:`LinesExplorer`: cards laid out as a 3 x 3 board, a cube or the whole deck, with the
  lines (SETs) through a chosen card or pair drawn over them;
- :class:`PlaneBuilder`: the plane of three cards as a magic square, or why they span none;
- :class:`Standings`: a competition's standings, live as scores come in, with a score form
  (:func:`standings_html` gives the same table as static HTML);
- :class:`PuzzleBoard`: find every SET of a table of twelve against the clock; each board
  goes into a :class:`PracticeRecord` (boards solved, median time, misses), the session's
  (:func:`session_record`) unless given one. The puzzle itself is a :class:`Puzzle`.

The widgets hold no rules of their own: they call :mod:`setwidgets.game` and
:mod:`setwidgets.rules` and redraw from what those return. Each one also
shows a static picture where no live widget can run (a saved notebook, an
HTML export, nbgrader feedback).

The widgets load on first use, so the parts that need no Jupyter module (the
Board's wording in ``_status``, its seats and keys in ``_keys``, the puzzle
and the practice record in ``_puzzle``) can be
imported and tested without ipywidgets.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from setwidgets import _extras

if TYPE_CHECKING:
    from setwidgets.widgets.board import Board
    from setwidgets.widgets.checker import MagicRuleChecker
    from setwidgets.widgets.explorer import ThirdCardExplorer
    from setwidgets.widgets.geometry import LinesExplorer, PlaneBuilder
    from setwidgets.widgets.pickers import CardPicker
    from setwidgets.widgets.puzzle import PracticeRecord, Puzzle, PuzzleBoard, session_record
    from setwidgets.widgets.standings import Standings, standings_html
    from setwidgets.widgets.table import CardTable

__all__ = [
    "Board",
    "CardPicker",
    "CardTable",
    "LinesExplorer",
    "MagicRuleChecker",
    "PlaneBuilder",
    "PracticeRecord",
    "Puzzle",
    "PuzzleBoard",
    "Standings",
    "ThirdCardExplorer",
    "session_record",
    "standings_html",
]

_HOMES = {
    "Board": "board",
    "CardPicker": "pickers",
    "CardTable": "table",
    "LinesExplorer": "geometry",
    "MagicRuleChecker": "checker",
    "PlaneBuilder": "geometry",
    "PracticeRecord": "_puzzle",
    "Puzzle": "_puzzle",
    "PuzzleBoard": "puzzle",
    "session_record": "_puzzle",
    "Standings": "standings",
    "standings_html": "standings",
    "ThirdCardExplorer": "explorer",
}


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        try:
            module = import_module(f"{__name__}.{_HOMES[name]}")
        except ModuleNotFoundError as error:
            if error.name not in _extras.EXTRAS["widgets"]:
                raise
            raise _extras.MissingExtra(error.name, "widgets", f"setwidgets.widgets.{name}") from None
        value = getattr(module, name)
        globals()[name] = value  # found once, then a plain attribute
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
