"""What the Board and the PuzzleBoard share: a SET table with lines of text, buttons and a clock.

Both lay their cards out as a SET table grows (three rows; three more cards make one more
column), name each card by a key of the keyboard's rows (:data:`~setwidgets.widgets._keys.LETTERS`),
keep the lines of text around the table as wide as the table, give the keyboard back to the
cards after a button is clicked, and run a clock (a
:class:`~setwidgets.widgets._scheduler.Scheduler`, ``self._scheduler``) that stops when the
widget closes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from ipywidgets import HTML, Button, HBox, Layout

from setwidgets.cards import Card
from setwidgets.draw import shapes
from setwidgets.draw.themes import Theme
from setwidgets.widgets._keys import KEY_ROWS, LETTERS
from setwidgets.widgets._scheduler import Scheduler
from setwidgets.widgets._view import CardsView

__all__ = ["ROWS", "TableView"]

ROWS = len(KEY_ROWS)
"""A table has three rows; three more cards make one more column."""


class TableView(CardsView):
    """A card view of a SET table; subclasses set ``theme`` and ``_scheduler`` before drawing.

    Each view says what it shows in :meth:`_shown` (the cards, their marks, the selection) and how
    many cards it keeps room for in :meth:`_slots`; :meth:`_scene` draws it.
    """

    theme: Theme
    _scheduler: Scheduler
    _waiting: bool
    _table_scale = 0.9
    # The boards letter their cards by the keyboard's rows (setwidgets.widgets._keys.KEY_ROWS).
    _letters_hint = (
        "A card's letter, drawn on it, picks it: the letters follow the keyboard's rows, "
        "q, a, z down the first column, then w, s, x."
    )

    @property
    def waiting(self) -> bool:
        """True until the student's first click or key: till then the clock (and a computer player) waits."""
        return self._waiting

    def _begin(self) -> None:
        """The student is here: what waited starts (:meth:`_on_begin`), once."""
        if self._waiting:
            self._waiting = False
            self._on_begin()

    def _on_begin(self) -> None:
        """What starts with the student's first click or key; each board says."""

    @staticmethod
    def _line(css_class: str) -> HTML:
        """A line of text around the table, with its CSS class."""
        line = HTML()
        line.add_class(css_class)
        return line

    @staticmethod
    def _info(*lines: HTML) -> HBox:
        """The lines above the table, spread across its width (wrapping when narrow)."""
        return HBox(
            list(lines), layout=Layout(justify_content="space-between", width="100%", flex_flow="row wrap")
        )

    def click(self, x: float, y: float) -> int | None:
        """A click at canvas pixel (x, y): selects or deselects the card there.

        Returns the card's position, or None when the click is between cards.
        """
        self._begin()
        position = self.position_at(x, y)
        if position is not None:
            self.select(position)
        return position

    def _press_card(self, name: str, cards: int) -> bool:
        """The key ``name`` selects the card whose letter it is among ``cards``; False for any other key."""
        position = LETTERS.position(name, cards)
        if position is None:
            return False
        self.select(position)
        return True

    def select(self, position: int) -> object:
        """Select or deselect the card at ``position``; each board says what a third card does."""
        raise NotImplementedError

    def _wire(
        self, buttons: dict[str, Button], moves: Mapping[str, Callable[[], object]]
    ) -> dict[str, Button]:
        """Give each button its CSS class and its move; a click gives the keyboard back to the cards."""
        for name, button in buttons.items():
            button.add_class(f"setw-button-{name.replace('_', '-')}")
            button.on_click(self._keys_back(lambda _button, move=moves[name]: move()))
        return buttons

    def _table_scene(
        self, cards: Sequence[Card], highlight: Mapping[int, str], *, scale: float, slots: int
    ) -> shapes.Scene:
        """The cards as a SET table, with the letters of their keys; room for ``slots`` cards at least."""
        return shapes.scene(
            cards,
            rows=ROWS,
            order="columns",
            letters=LETTERS.letters(len(cards)),
            highlight=highlight,
            theme=self.theme,
            scale=scale,
            background=self.theme.table,
            slots=math.ceil(slots / ROWS) * ROWS,
        )

    def _shown(self) -> tuple[Sequence[Card], Mapping[Card, str], Sequence[Card]]:
        """The table shown, the marks on some of its cards (found, hint, odd) and the selected cards."""
        raise NotImplementedError

    def _slots(self) -> int:
        """How many cards the table keeps room for, so that it does not jump as cards come and go."""
        raise NotImplementedError

    def _scene(
        self,
        table: Sequence[Card] | None = None,
        marks: Mapping[Card, str] | None = None,
        selected: Sequence[Card] | None = None,
    ) -> shapes.Scene:
        """The table as :meth:`_shown` says, or with the ``table``, ``marks`` or ``selected`` given."""
        shown, shown_marks, shown_selected = self._shown()
        table = shown if table is None else table
        marks = shown_marks if marks is None else marks
        selected = shown_selected if selected is None else selected
        kinds = {p: marks[c] for p, c in enumerate(table) if c in marks}
        kinds.update({p: "selected" for p, c in enumerate(table) if c in selected})
        return self._table_scene(table, kinds, scale=self._table_scale, slots=max(len(table), self._slots()))

    def _natural_width(self) -> float:
        _, width, _ = shapes.grid(self._slots(), rows=ROWS, order="columns", scale=self._table_scale)
        return width

    def redraw(self, before: shapes.Scene | None = None, pause: float = 0.0) -> None:
        """Paint the table (see :meth:`CardsView.redraw`); the lines around it keep to its width."""
        super().redraw(before, pause)
        self.layout.max_width = self.canvas.layout.max_width

    def close(self) -> None:
        """Stop the clock, and close the widget."""
        scheduler = getattr(self, "_scheduler", None)
        if scheduler is not None:
            scheduler.stop()
        super().close()
