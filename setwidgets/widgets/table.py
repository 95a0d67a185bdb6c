"""CardTable: a fixed set of cards to pick from by clicking, without a game around them.

A lesson or an exercise lays out some cards (nine from the mini deck, a
student's own hand) and lets the reader pick three: each click (or the card's
letter on the keyboard) frames a card, and the third one hands the three to
whoever listens, such as a :class:`~setwidgets.widgets.MagicRuleChecker`::

    from setwidgets import mini_deck
    from setwidgets.widgets import CardTable

    table = CardTable(mini_deck()[:9], columns=3)
    table.on_pick(lambda cards: print(" ".join(map(str, cards))))
    table                        # click three cards, or press a, b, c ...
    table.pick(0); table.pick(4); table.pick(8)   # the same as three clicks

The table holds no rules: it only says which cards were picked.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from string import ascii_lowercase

from ipywidgets import Layout

from setwidgets._card_inputs import distinct_cards, listed
from setwidgets._events import Callbacks
from setwidgets._inputs import short, what, whole_number
from setwidgets.cards import Card, as_cards
from setwidgets.draw import shapes
from setwidgets.draw.themes import Theme, get_theme
from setwidgets.widgets._view import CardsView, Lettering, check_position, check_width

__all__ = ["CardTable"]

LETTERS = Lettering((ascii_lowercase,))
"""A table's letters follow its cards in reading order: a, b, c, ..."""


def _up_to(count: int, value: object, name: str) -> int:
    """``columns`` or ``picks``: a whole number from 1 to the number of cards shown."""
    number = whole_number(value, name, minimum=1, example="3")
    if number > count:
        raise ValueError(f"{name} must be from 1 to {count}, the number of cards shown; got {short(number)}")
    return number


class CardTable(CardsView):
    """Cards laid out in a grid; click three (or press their letters) to pick them.

    Parameters
    ----------
    cards:
        The cards to show (Card objects or codes), at most 26.
    columns:
        Cards per row (default: as square as possible, like 3 for nine cards).
    picks:
        How many cards make one pick (default 3, as many as a SET).
    theme:
        "classic", "colorblind" or "printable".
    width:
        The largest width in pixels; it shrinks to fit narrower output areas.

    Each card has a letter (a, b, c, ... in reading order). Public: :attr:`cards`,
    :attr:`picked` (the framed positions), :meth:`pick`, :meth:`click`,
    :meth:`press`, :meth:`clear`, :meth:`on_pick`, :attr:`card_rects`.
    """

    def __init__(
        self,
        cards: Iterable[Card | str],
        columns: int | None = None,
        picks: int = 3,
        theme: str | Theme = "classic",
        width: int | None = None,
    ) -> None:
        shown = distinct_cards("CardTable", cards)
        if not 1 <= len(shown) <= len(ascii_lowercase):
            raise ValueError(f"a CardTable shows 1 to {len(ascii_lowercase)} cards; got {listed(shown)}")
        if columns is not None:
            columns = _up_to(len(shown), columns, "columns")
        picks = _up_to(len(shown), picks, "picks")
        theme = get_theme(theme)
        width = check_width(width)
        self.cards: Sequence[Card] = tuple(shown)
        self.columns = columns
        self.picks = picks
        self.theme = theme
        self._picked: list[int] = []
        self._picks = Callbacks("on_pick", "the list of picked cards", example="def check(cards): ...")
        self._setup_canvas("setw-table", width)
        super().__init__(children=[self.picture_box], layout=Layout(width="100%"))
        self.add_class("setw-table")
        self._listen(lambda x, y: self.click(x, y), lambda key, *_: self.press(key))
        self.redraw()

    @property
    def letters(self) -> list[str | None]:
        """The keyboard letter of each card, by position: 'a' for the first card, 'b' for the second, ..."""
        return LETTERS.letters(len(self.cards))

    @property
    def picked(self) -> list[int]:
        """The positions framed so far, in the order they were picked."""
        return list(self._picked)

    @property
    def picked_cards(self) -> list[Card]:
        """The cards framed so far, in the order they were picked."""
        return [self.cards[p] for p in self._picked]

    def on_pick(self, callback: Callable[[list[Card]], None], remove: bool = False) -> None:
        """Call ``callback(cards)`` each time a pick is complete (three cards, unless ``picks`` says).

        ``remove=True`` stops calling it.
        """
        self._picks.add(callback, remove)

    def pick(self, position: int) -> list[Card] | None:
        """Frame the card at ``position`` (0 is the first), or unframe it if it is framed.

        A pick that is already complete starts again with this card. Returns the
        picked cards when this card completes a pick, else None.
        """
        position = check_position(position, self.cards, "the first card")
        if len(self._picked) == self.picks:
            self._picked = []
        if position in self._picked:
            self._picked.remove(position)
        else:
            self._picked.append(position)
        self.redraw()
        if len(self._picked) < self.picks:
            return None
        cards = self.picked_cards
        self._picks.fire(cards, done="the cards are picked")
        return cards

    def show_picked(self, cards: Iterable[Card | str]) -> None:
        """Frame these cards as the current pick, without telling the listeners.

        When they are not a whole pick of different cards all on the table, no
        card is framed: a pick is shown whole or not at all.
        """
        wanted = as_cards(cards)
        whole = len(wanted) == self.picks and len(set(wanted)) == len(wanted)
        on_table = whole and all(c in self.cards for c in wanted)
        picked = [self.cards.index(c) for c in wanted] if on_table else []
        if picked != self._picked:
            self._picked = picked
            self.redraw()

    def clear(self) -> None:
        """Unframe every card."""
        self._picked = []
        self.redraw()

    def click(self, x: float, y: float) -> int | None:
        """A click at canvas pixel (x, y): picks the card there; returns its position or None."""
        position = self.position_at(x, y)
        if position is not None:
            self.pick(position)
        return position

    def press(self, key: str) -> bool:
        """A key press: a card's letter picks that card, Escape clears. True when it did something."""
        if not isinstance(key, str):
            raise TypeError(f"press() takes a key such as 'a'; got {what(key)}")
        if key.lower() == "escape":
            self.clear()
            return True
        position = LETTERS.position(key, len(self.cards))
        if position is None:
            return False
        self.pick(position)
        return True

    def _scene(self) -> shapes.Scene:
        columns = self.columns or math.ceil(math.sqrt(len(self.cards)))
        return shapes.scene(
            list(self.cards),
            columns=columns,
            letters=self.letters,
            highlight=dict.fromkeys(self._picked, "selected"),
            theme=self.theme,
            scale=0.7,
            background=self.theme.table,
        )

    def _static_text(self) -> list[str]:
        return [f"{letter}: {card.name}" for letter, card in zip(self.letters, self.cards)]

    def __repr__(self) -> str:
        picked = " ".join(c.code for c in self.picked_cards) or "none"
        return f"<CardTable: {len(self.cards)} cards; picked {picked}>"
