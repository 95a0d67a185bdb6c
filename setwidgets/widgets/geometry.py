"""Widgets that show the deck's geometry: the lines through a card, and the plane of three cards.

- :class:`LinesExplorer` lays out a space of cards (9 cards as a 3 x 3 board, 27 as a
  cube of three layers, or all 81) and draws the lines through the card you click;
  click a second card to see the one line through both, and tick "parallel" to see
  every line with the same direction;
- :class:`PlaneBuilder` takes three cards from pickers and builds their plane as a
  magic square; when the three are one SET it says why there is no plane. Click a
  card of the square to see its four lines in the plane.

::

    from setwidgets import mini_deck
    from setwidgets.widgets import LinesExplorer, PlaneBuilder

    LinesExplorer(mini_deck(color="red", shading="solid"), through="1RSO")
    PlaneBuilder("1RSO", "2GTS", "1RSS")

All the mathematics is in :mod:`setwidgets.geometry`; the pictures come from
:mod:`setwidgets.draw.lines`, so a saved notebook shows the same lines.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from ipycanvas import hold_canvas
from ipywidgets import HTML, Checkbox, Layout

from setwidgets import _card_inputs, _inputs, _words
from setwidgets.cards import Card, as_card, as_cards, mini_deck
from setwidgets.draw import shapes
from setwidgets.draw.lines import (
    SCALES,
    SpaceLayout,
    Stroke,
    line_strokes,
    lines_svg,
    lines_text,
    paint_strokes,
    space_layout,
    square_layout,
)
from setwidgets.draw.themes import Theme, get_theme
from setwidgets.geometry import direction, line, lines_through, magic_square, parallel_classes, plane
from setwidgets.rules import find_sets, third_card
from setwidgets.widgets._keyguard import announce
from setwidgets.widgets._view import CardsView, check_width
from setwidgets.widgets.pickers import CardPicker, set_picks
from setwidgets.widgets.table import LETTERS

__all__ = ["LinesExplorer", "PlaneBuilder"]

_LETTERED = 9
"""Layouts of up to this many cards (the 3 x 3 board and the magic square) name their cards by letters."""


class _LinesView(CardsView):
    """Cards in a geometry layout with lines drawn over them (the canvas and the static picture alike)."""

    theme: Theme

    def _cells(self) -> tuple[list[Card | None], int, float]:  # pragma: no cover - each view defines it
        raise NotImplementedError

    def _highlight(self) -> dict[int, str]:
        return {}

    @property
    def lines(self) -> list[tuple[Card, ...]]:
        """The lines drawn now, each a SET of three cards."""
        return []

    @property
    def letters(self) -> list[str | None] | None:
        """The keyboard letter of each card on a 3 x 3 layout ('a' top left, 'i' bottom right), else None."""
        cells = self._cells()[0]
        return LETTERS.letters(len(cells)) if len(cells) <= _LETTERED else None

    def press(self, key: str) -> bool:
        """A key press: on a 3 x 3 layout a card's letter chooses it as a click does; Escape
        chooses none. True when the key did something."""
        if not isinstance(key, str):
            raise TypeError(f"press() takes a key such as 'a'; got {_inputs.what(key)}")
        if key.lower() == "escape":
            self._choose_none()
            return True
        cells = self._cells()[0]
        position = LETTERS.position(key, len(cells)) if self.letters else None
        card = None if position is None else cells[position]
        return card is not None and self._choose_pressed(card)

    def _choose_none(self) -> None:  # pragma: no cover - each view defines it
        raise NotImplementedError

    def _choose_pressed(self, card: Card) -> bool:  # pragma: no cover - each view defines it
        raise NotImplementedError

    def _scene(self) -> shapes.Scene:
        cells, columns, scale = self._cells()
        return shapes.scene(
            cells,
            columns=columns,
            letters=self.letters,
            highlight=self._highlight(),
            theme=self.theme,
            scale=scale,
            background=self.theme.table,
        )

    @property
    def strokes(self) -> list[Stroke]:
        """The lines as drawn: points in canvas pixels and colors."""
        cells, _, _ = self._cells()
        return line_strokes(self._current_scene(), cells, self.lines)

    def redraw(self, before: shapes.Scene | None = None, pause: float = 0.0) -> None:
        super().redraw(before, pause)
        with hold_canvas():
            paint_strokes(self.canvas, self.strokes)
        if not self._live:
            self._picture.value = self.svg().replace("<svg ", '<svg style="max-width:100%;height:auto" ', 1)

    def svg(self) -> str:
        """The current picture, cards and lines, as a standalone SVG."""
        scene = self._scene()
        cells, _, _ = self._cells()
        return lines_svg(scene, line_strokes(scene, cells, self.lines), label=self._label())

    def _title(self) -> str:  # pragma: no cover - each view defines it
        raise NotImplementedError

    @property
    def text(self) -> str:
        """What the picture shows, in words: a heading, then one line per SET drawn."""
        return "\n".join([self._title(), *lines_text(self.lines)])

    def _label(self) -> str:
        return self._title()

    def _static_text(self) -> list[str]:
        return self.text.splitlines()


def _lines_html(title: str, lines: list[tuple[Card, ...]]) -> str:
    items = "".join(f"<li>{escape(text)}</li>" for text in lines_text(lines))
    return f"<b>{escape(title)}</b>" + (f'<ol style="margin:0.2em 0">{items}</ol>' if items else "")


class LinesExplorer(_LinesView):
    """A space of cards laid out by its geometry; click a card to see the lines (SETs) through it.

    Parameters
    ----------
    cards:
        9 cards that share two features (default ``mini_deck(color="red", shading="solid")``),
        27 that share one (``mini_deck()``) or the full deck.
    through:
        One card or two to start with (codes or Cards).
    theme, width:
        As for the other card widgets.

    Click one card: the lines through it are drawn, one color per direction (4 on
    the 3 x 3 board, 13 in the cube, 40 in the deck). Click a second card: the one
    line through both; tick *parallel lines* to draw every line of that direction.
    A third click starts again. On the 3 x 3 board the letters a to i choose cards from the
    keyboard too, and Escape chooses none. Public: :meth:`choose`, :meth:`click`, :meth:`press`,
    :meth:`clear`, :attr:`chosen`, :attr:`lines`, :attr:`parallel`, :attr:`text`, :attr:`space`
    (the layout).
    """

    def __init__(
        self,
        cards: Iterable[Card | str] | str | None = None,
        through: Card | str | Iterable[Card | str] | None = None,
        theme: str | Theme = "classic",
        width: int | None = None,
    ) -> None:
        # Read here first, so that a message names LinesExplorer, the call the student made.
        shown = mini_deck(color="red", shading="solid") if cards is None else cards
        self.space: SpaceLayout = space_layout(_card_inputs.distinct_cards("LinesExplorer", shown))
        self.theme = get_theme(theme)
        width = check_width(width)
        start = [] if through is None else _card_inputs.distinct_cards("LinesExplorer", through)
        if len(start) > 2:
            raise ValueError(f"through= takes one card or two; got {_card_inputs.listed(start)}")
        for card in start:
            self._check_in_space(card)
        self._chosen: list[Card] = start
        self._setup_canvas("setw-lines", width)
        self._parallel = Checkbox(
            value=False,
            description="parallel lines: every line in the direction of the chosen two cards",
            indent=False,
            layout=Layout(width="auto"),
        )
        self._parallel.add_class("setw-parallel")
        self._parallel.observe(self._keys_back(lambda _change: self._update()), names="value")
        self._text_widget = HTML()
        self._text_widget.add_class("setw-lines-text")
        super().__init__(
            children=[self.picture_box, self._parallel, self._text_widget], layout=Layout(width="100%")
        )
        self.add_class("setw-lines")
        self._listen(lambda x, y: self.click(x, y), lambda key, *_: self.press(key))
        self._update()

    def _check_in_space(self, card: Card) -> None:
        if card not in self.space.cards:
            raise ValueError(
                f"{card.name} ({card}) is not among the {len(self.space.cards)} cards shown; "
                f"pick one of {_card_inputs.listed(self.space.cards)}"
            )

    # -- state ----------------------------------------------------------------------------------

    @property
    def chosen(self) -> list[Card]:
        """The chosen cards (none, one or two), in the order they were chosen."""
        return list(self._chosen)

    @property
    def parallel(self) -> bool:
        """Whether every line parallel to the chosen pair's line is drawn (only when two cards are chosen)."""
        return self._parallel.value

    @parallel.setter
    def parallel(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"parallel is True or False; got {_inputs.what(value)}")
        self._parallel.value = value

    @property
    def lines(self) -> list[tuple[Card, ...]]:
        """The lines drawn now: through the chosen card, or the chosen pair's line (and its parallels)."""
        if len(self._chosen) == 1:
            return lines_through(self._chosen[0], self.space.cards)
        if len(self._chosen) == 2:
            if self.parallel:
                return parallel_classes(self.space.cards)[direction(*self._chosen)]
            return [line(*self._chosen)]
        return []

    def choose(self, card: Card | str) -> list[Card]:
        """Choose a card (again: unchoose it); a third card starts a new choice. Returns :attr:`chosen`."""
        card = as_card(card)
        self._check_in_space(card)
        if card in self._chosen:
            self._chosen.remove(card)
        elif len(self._chosen) == 2:
            self._chosen = [card]
        else:
            self._chosen.append(card)
        self._update()
        return self.chosen

    def clear(self) -> None:
        """Choose no card: no line is drawn."""
        self._chosen = []
        self._update()

    def _choose_none(self) -> None:
        self.clear()

    def _choose_pressed(self, card: Card) -> bool:
        self.choose(card)
        return True

    def click(self, x: float, y: float) -> Card | None:
        """A click at canvas pixel (x, y): chooses the card there; returns it, or None between cards."""
        position = self.position_at(x, y)
        card = None if position is None else self.space.cells[position]
        if card is not None:
            self.choose(card)
        return card

    # -- words ----------------------------------------------------------------------------------

    def _title(self) -> str:
        if not self._chosen:
            return f"{self.space.description()} Click a card to see the lines through it."
        if len(self._chosen) == 1:
            card = self._chosen[0]
            count = len(self.lines)
            return (
                f"{_words.count(count, 'line')} {_words.agree(count, 'passes', 'pass')} through "
                f"{card.name} ({card}) among these {len(self.space.cards)} cards; each is a SET. "
                "Click a second card for the line through both."
            )
        a, b = self._chosen
        c = third_card(a, b)
        title = f"The line through {a} and {b} has the third card {c.name} ({c}): the SET {a} {b} {c}."
        if self.parallel:
            parallels = _words.count(len(self.lines), "parallel line")
            title += (
                f" Its direction {direction(a, b)} has {parallels} here; together they hold every card once."
            )
        return title

    def _update(self) -> None:
        self._parallel.disabled = len(self._chosen) != 2
        self._text_widget.value = _lines_html(self._title(), self.lines)
        self.redraw()

    # -- drawing --------------------------------------------------------------------------------

    def _cells(self) -> tuple[list[Card | None], int, float]:
        return list(self.space.cells), self.space.columns, SCALES[self.space.kind]

    def _highlight(self) -> dict[int, str]:
        cells = list(self.space.cells)
        return {cells.index(card): "selected" for card in self._chosen}

    def __repr__(self) -> str:
        chosen = " ".join(card.code for card in self._chosen) or "no card"
        return f"<LinesExplorer: {self.space.kind} of {len(self.space.cards)} cards; chosen {chosen}>"


class PlaneBuilder(_LinesView):
    """Three card pickers and the plane they span, laid out as a magic square.

    Pick three cards that are not one SET: the builder completes them to the 9
    cards of their plane with :func:`~setwidgets.rules.third_card` alone, arranged
    so that every row, column and diagonal is a SET (the three picks are framed,
    top left, next to it and under it). Click a card of the square to draw its four
    lines in the plane (or press its letter, a to i; Escape draws none). When the three
    cards are one SET, or a card is picked twice,
    it draws them and says why they span no plane.

    Public: :meth:`set_cards`, :attr:`cards`, :attr:`plane` (None when there is
    none), :attr:`square`, :attr:`problem`, :meth:`choose`, :meth:`click`, :meth:`press`,
    :attr:`lines`, :attr:`text`, :attr:`pickers`.
    """

    def __init__(
        self,
        a: Card | str | Iterable[Card | str] | None = None,
        b: Card | str | None = None,
        c: Card | str | None = None,
        theme: str | Theme = "classic",
        width: int | None = None,
    ) -> None:
        if a is None:
            cards = as_cards("1RSO 2GTS 1RSS")
        elif b is None and c is None:
            cards = list(_card_inputs.exactly("PlaneBuilder", (a,), 3))
        else:
            cards = list(
                _card_inputs.exactly("PlaneBuilder", tuple(x for x in (a, b, c) if x is not None), 3)
            )
        self.theme = get_theme(theme)
        width = check_width(width)
        self._setup_canvas("setw-plane", width)
        self.pickers = [CardPicker(card, f"Card {n}") for n, card in enumerate(cards, start=1)]
        self._text_widget = HTML()
        self._text_widget.add_class("setw-plane-text")
        announce(self._text_widget)  # whether the cards span a plane
        super().__init__(
            children=[*self.pickers, self.picture_box, self._text_widget], layout=Layout(width="100%")
        )
        self.add_class("setw-plane")
        self._chosen: Card | None = None
        self._updating = False
        for picker in self.pickers:
            picker.on_change(self._keys_back(lambda _card: self._picked()))
        self._listen(lambda x, y: self.click(x, y), lambda key, *_: self.press(key))
        self._update()

    # -- state ----------------------------------------------------------------------------------

    @property
    def cards(self) -> list[Card]:
        """The three picked cards."""
        return [picker.card for picker in self.pickers]

    def set_cards(self, *cards: Card | str | Iterable[Card | str]) -> list[Card] | None:
        """Pick three other cards: ``set_cards(a, b, c)``, ``set_cards([a, b, c])`` or a string of
        three codes. Returns their plane (None when they span none)."""
        set_picks(self, cards)
        self._picked()
        return self.plane

    @property
    def problem(self) -> str | None:
        """Why the three picks span no plane (the message of :func:`~setwidgets.geometry.plane`), or None."""
        try:
            plane(self.cards)
        except ValueError as error:
            return str(error)
        return None

    @property
    def square(self) -> list[list[Card]] | None:
        """The plane as a magic square (3 rows of 3 cards), or None when the picks span no plane."""
        return None if self.problem else magic_square(self.cards)

    @property
    def plane(self) -> list[Card] | None:
        """The 9 cards of the plane, in the square's reading order, or None when there is none."""
        return None if self.problem else plane(self.cards)

    @property
    def chosen(self) -> Card | None:
        """The card of the square whose lines are drawn, or None."""
        return self._chosen

    @property
    def lines(self) -> list[tuple[Card, ...]]:
        """The lines drawn: the four through the chosen card within the plane, or the line of three
        picks that form a SET."""
        cards = self.plane
        if cards is None:
            picks = self.cards
            return [tuple(picks)] if len(set(picks)) == 3 else []
        return [] if self._chosen is None else lines_through(self._chosen, cards)

    def choose(self, card: Card | str | None) -> list[tuple[Card, ...]]:
        """Draw the lines through a card of the plane (None, or the same card again: no lines)."""
        cards = self.plane or []
        if card is not None:
            card = as_card(card)
            if card not in cards:
                raise ValueError(f"{card.name} ({card}) is not in the plane shown; pick one of its 9 cards")
        self._chosen = None if card == self._chosen else card
        self._update()
        return self.lines

    def _choose_none(self) -> None:
        if self.plane is not None:
            self.choose(None)

    def _choose_pressed(self, card: Card) -> bool:
        if self.plane is None:
            return False
        self.choose(card)
        return True

    def click(self, x: float, y: float) -> Card | None:
        """A click at canvas pixel (x, y): draws the lines through the card there; returns it or None."""
        position = self.position_at(x, y)
        if position is None or self.plane is None:
            return None
        card = self.plane[position]
        self.choose(card)
        return card

    # -- words ----------------------------------------------------------------------------------

    def _title(self) -> str:
        problem = self.problem
        if problem is not None:
            # The message names the function; in the builder it is the plane itself that needs them.
            return "No plane: " + problem.replace("plane() needs", "a plane needs", 1)
        a, b, c = self.cards
        cards = self.plane or []
        sets = len(find_sets(cards))
        title = (
            f"The plane of {a}, {b} and {c} holds {_words.count(len(cards), 'card')}, "
            f"and {_words.there_are(sets, 'SET')} among them: every row, column and diagonal of the "
            "square, and the four diagonals that wrap around."
        )
        if self._chosen is None:
            return title + " Click a card to draw its lines in the plane."
        count = len(self.lines)
        return title + (
            f" {_words.count(count, 'line')} of the plane {_words.agree(count, 'passes', 'pass')} "
            f"through {self._chosen.name} ({self._chosen}):"
        )

    def _picked(self) -> None:
        if self._updating:
            return
        self._chosen = None
        self._update()

    def _update(self) -> None:
        self._text_widget.value = _lines_html(self._title(), self.lines)
        self.redraw()

    # -- drawing --------------------------------------------------------------------------------

    def _cells(self) -> tuple[list[Card | None], int, float]:
        square = self.square
        if square is None:
            return list(self.cards), 3, SCALES["square"]
        return list(square_layout(square).cells), 3, SCALES["square"]

    def _highlight(self) -> dict[int, str]:
        cells, _, _ = self._cells()
        if self.problem is not None:
            picks = self.cards
            return dict.fromkeys(range(3), "odd") if len(set(picks)) == 3 else {}
        kinds = {cells.index(card): "selected" for card in self.cards}
        if self._chosen is not None and self._chosen not in self.cards:
            kinds[cells.index(self._chosen)] = "hint"
        return kinds

    def __repr__(self) -> str:
        picks = " ".join(card.code for card in self.cards)
        shown = "no plane" if self.plane is None else " ".join(card.code for card in self.plane)
        return f"<PlaneBuilder: {picks} -> {shown}>"
