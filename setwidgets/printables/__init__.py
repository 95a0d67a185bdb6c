"""Printables for a SET competition and a classroom: PDF files to print and cut.

- :func:`entry_cards`: nine entry cards to a page, as in the competition guide;
- :func:`score_sheets`: one sheet per table per round, for the judge;
- :func:`schedule_pages`: the coordinator's schedule and one slip per player;
- :func:`handout`: the rules on one page with real card pictures, and the judge's script;
- :func:`deck`: all 81 cards at real size with cut marks, classic or the alternative look;
- :func:`feature_chart`: the four features and their three values each, on real cards;
- :func:`open_house`: the open-house rules (players judge themselves) and a tally grid.

The PDFs are written with reportlab: a well-kept library (in continuous use and
release since 2000), installed from pure-Python wheels with no system libraries,
that writes vector PDF, so cards and lines stay sharp at any printer's resolution.
The cards are painted from the same geometry as the screen pictures
(:mod:`setwidgets.draw.shapes`) by :mod:`setwidgets.printables.painter`.

Example::

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> handout(folder / "handout.pdf").stat().st_size > 1000
    True
"""

from setwidgets import _extras

# Before the modules that import reportlab, so that its absence is one sentence, not a traceback.
_extras.require("reportlab", "print", "setwidgets.printables")

from setwidgets.printables.guide import feature_chart, handout, open_house  # noqa: E402
from setwidgets.printables.kit import deck, entry_cards, schedule_pages, score_sheets  # noqa: E402
from setwidgets.printables.painter import paint_card  # noqa: E402

__all__ = [
    "deck",
    "entry_cards",
    "feature_chart",
    "handout",
    "open_house",
    "paint_card",
    "schedule_pages",
    "score_sheets",
]
