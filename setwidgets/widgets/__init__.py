"""Live widgets for Jupyter: thin views over the core that draw with ipycanvas.

- :class:`Board`: play SET on a live table (mouse, keys, several players, a computer opponent);
- :class:`MagicRuleChecker`: three cards, checked feature by feature;
- :class:`ThirdCardExplorer`: two cards and the one card that completes their SET;
- :class:`CardPicker`: four dropdowns that pick a card;
- :class:`CardTable`: some cards to pick from by clicking (a checker can sit under one).

The widgets hold no rules of their own: they call :mod:`setwidgets.game` and
:mod:`setwidgets.rules` and redraw from what those return. Each one also
shows a static picture where no live widget can run (a saved notebook, an
HTML export, nbgrader feedback).
"""

from setwidgets.widgets.board import Board
from setwidgets.widgets.checker import MagicRuleChecker
from setwidgets.widgets.explorer import ThirdCardExplorer
from setwidgets.widgets.pickers import CardPicker
from setwidgets.widgets.table import CardTable

__all__ = ["Board", "CardPicker", "CardTable", "MagicRuleChecker", "ThirdCardExplorer"]
