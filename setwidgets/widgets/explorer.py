"""ThirdCardExplorer: pick two cards and see the one card that completes their SET.

Feature by feature: when the two cards agree, the third agrees too; when
they differ, the third has the remaining value. The explorer says so in
words and then does the same sum with vectors mod 3::

    from setwidgets.widgets import ThirdCardExplorer
    explorer = ThirdCardExplorer("2RTO", "3GTO")
    explorer                    # two pickers, the three cards, the reasoning
    explorer.third              # Card(1, 'purple', 'oval', 'striped')
    print(explorer.text)
    # The numbers 2 and 3 differ, so the third card has the remaining number, 1.
    # The colors red and green differ, so the third card has the remaining color, purple.
    # Both cards have shape oval, so the third card has shape oval too.
    # Both cards have shading striped, so the third card has shading striped too.
    # The third card is one purple striped oval.
    # (1,0,0,1) + (2,1,0,1) + (0,2,0,1) = (3,3,0,3) ≡ (0,0,0,0) mod 3
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from ipywidgets import HTML, Layout

from setwidgets import _card_inputs, _inputs, _words
from setwidgets.cards import FEATURES, Card, as_card
from setwidgets.draw import shapes
from setwidgets.draw.themes import Theme, get_theme
from setwidgets.rules import third_card
from setwidgets.widgets._keyguard import announce
from setwidgets.widgets._view import CardsView, check_width
from setwidgets.widgets.pickers import CardPicker, set_picks

__all__ = ["ThirdCardExplorer", "reasoning", "vector_sum"]

DEFAULT_PAIR = ("1RSO", "2GTS")


def _vector(v) -> str:
    return "(" + ",".join(str(x) for x in v) + ")"


def reasoning(a: Card | str, b: Card | str) -> list[str]:
    """One sentence per feature: why the third card has the value it has.

    >>> reasoning("2RTO", "3GTO")[1]
    'The colors red and green differ, so the third card has the remaining color, purple.'
    """
    a, b = as_card(a), as_card(b)
    c = third_card(a, b)
    lines = []
    for feature in FEATURES:
        why = _words.third_value(feature, getattr(a, feature), getattr(b, feature), getattr(c, feature))
        lines.append(why[0].upper() + why[1:] + ".")
    return lines


def _one_card(obj: object) -> bool:
    """True for a Card or a single code; False for a list of cards or a string of several codes."""
    return isinstance(obj, Card) or (isinstance(obj, str) and len(_inputs.split_codes(obj)) == 1)


def vector_sum(a: Card | str, b: Card | str, c: Card | str) -> str:
    """The three vectors added, and the sum mod 3, e.g. ``'(1,0,0,1) + ... ≡ (0,0,0,0) mod 3'``."""
    cards = [as_card(a), as_card(b), as_card(c)]
    total = [sum(values) for values in zip(*(card.vector for card in cards))]
    left = " + ".join(_vector(card.vector) for card in cards)
    return f"{left} = {_vector(total)} ≡ {_vector(t % 3 for t in total)} mod 3"


class ThirdCardExplorer(CardsView):
    """Two card pickers and the unique third card that makes a SET with them.

    Pick two cards and see the card that completes them, with the reason for
    each feature in words and as arithmetic mod 3::

        from setwidgets.widgets import ThirdCardExplorer

        explorer = ThirdCardExplorer("1RSO", "2GTS")   # or ThirdCardExplorer("1RSO 2GTS")
        explorer                      # shows the two cards, the third and why
        explorer.third                # Card(3, 'purple', 'diamond', 'open')
        explorer.set_cards("2RTO", "2GTO")

    Also public: :attr:`cards`, :attr:`third` (None when both pickers show
    the same card), :attr:`text`, :attr:`card_rects` (where each card is
    drawn) and :attr:`pickers`.
    """

    def __init__(
        self,
        a: Card | str | Iterable[Card | str] | None = None,
        b: Card | str | None = None,
        theme: str | Theme = "classic",
        width: int | None = None,
    ) -> None:
        theme = get_theme(theme)
        width = check_width(width)
        if b is None and a is not None and not _one_card(a):
            # Both cards in one argument: a list, or a string of two codes.
            first, second = _card_inputs.exactly("ThirdCardExplorer", (a,), 2)
        else:
            first = as_card(DEFAULT_PAIR[0] if a is None else a)
            second = as_card(DEFAULT_PAIR[1] if b is None else b)
        self.theme = theme
        self._setup_canvas("setw-explorer", width)
        self.pickers = [CardPicker(first, "Card 1"), CardPicker(second, "Card 2")]
        self._answer_widget = HTML()
        self._answer_widget.add_class("setw-third")
        announce(self._answer_widget)
        self._reasons_widget = HTML()
        self._reasons_widget.add_class("setw-reasons")
        super().__init__(
            children=[*self.pickers, self.picture_box, self._answer_widget, self._reasons_widget],
            layout=Layout(width="100%"),
        )
        self.add_class("setw-explorer")
        self._updating = False
        for picker in self.pickers:
            picker.on_change(lambda _card: self._update())
        self._update()

    @property
    def cards(self) -> list[Card]:
        """The two picked cards."""
        return [picker.card for picker in self.pickers]

    def set_cards(self, *cards: Card | str | Iterable[Card | str]) -> Card | None:
        """Pick two other cards; returns the third card (None if they are the same card).

        Give them as ``set_cards(a, b)``, ``set_cards([a, b])`` or ``set_cards("1RSO 2GTS")``.
        """
        set_picks(self, cards)
        self._update()
        return self.third

    @property
    def third(self) -> Card | None:
        """The card that completes the SET, or None when both picks are the same card."""
        a, b = self.cards
        return None if a == b else third_card(a, b)

    @property
    def text(self) -> str:
        """The reasoning in words, the answer, and the sum of the vectors mod 3."""
        a, b = self.cards
        if a == b:
            return (
                f"Pick two different cards: both are {a.name}. "
                "Any two different cards have exactly one third card that makes a SET."
            )
        c = third_card(a, b)
        return "\n".join([*reasoning(a, b), f"The third card is {c.name}.", vector_sum(a, b, c)])

    def _update(self) -> None:
        if self._updating:
            return
        third = self.third
        lines = self.text.splitlines()
        if third is None:
            self._answer_widget.value = f"<b>{escape(lines[0])}</b>"
            self._reasons_widget.value = ""
        else:
            self._answer_widget.value = f"<b>The third card is {escape(third.name)}.</b>"
            items = "".join(f"<li>{escape(line)}</li>" for line in lines[:4])
            self._reasons_widget.value = (
                f'<ul style="margin:0.2em 0">{items}</ul><code>{escape(lines[-1])}</code>'
            )
        self.redraw()

    def _scene(self) -> shapes.Scene:
        a, b = self.cards
        third = self.third
        cards = [a, b] if third is None else [a, b, third]
        highlight = {} if third is None else {2: "found"}
        return shapes.scene(
            cards, columns=3, letters=["1", "2", "3"], highlight=highlight, theme=self.theme, scale=0.7
        )

    def _static_text(self) -> list[str]:
        return self.text.splitlines()

    def __repr__(self) -> str:
        a, b = self.cards
        third = self.third
        return f"<ThirdCardExplorer: {a} + {b} → {third if third else 'pick two different cards'}>"
