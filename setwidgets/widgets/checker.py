"""MagicRuleChecker: pick three cards and see, feature by feature, whether they make a SET.

The magic rule: if two are ... and one is not, it is not a SET. The checker
shows each feature's verdict ("all the same", "all different", or "two are
red and one is purple"), frames the odd card out, and gives the sentence
of :func:`~setwidgets.rules.explain`::

    from setwidgets.widgets import MagicRuleChecker
    checker = MagicRuleChecker(["1RSO", "2GSS", "3PSD"])
    checker                     # three rows of dropdowns, the cards, the reasons
    checker.set_cards("1RSO", "2RSO", "3PSO")
    print(checker.verdict)      # Not a SET: two are red and one is purple.
    print(checker.text)         # the verdict, then one line per feature
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from ipywidgets import HTML, Layout

from setwidgets import _card_inputs, _words
from setwidgets._inputs import short
from setwidgets.cards import Card, as_cards
from setwidgets.draw import shapes
from setwidgets.draw.themes import Theme, get_theme
from setwidgets.rules import FeatureVerdict, Verdict, explain
from setwidgets.widgets._keyguard import announce
from setwidgets.widgets._view import CardsView, check_width
from setwidgets.widgets.pickers import CardPicker, set_picks
from setwidgets.widgets.table import CardTable

__all__ = ["MagicRuleChecker", "feature_line"]

DEFAULT_CARDS = ("1RSO", "2GSS", "3PSD")
"""A SET to start with: all different numbers, colors and shapes, all solid."""


def feature_line(verdict: Verdict, fv: FeatureVerdict) -> str:
    """One feature of a verdict in words.

    For example ``'color: two are red and one is purple (card 3 is the odd one out)'``.
    """
    if fv.kind == "same":
        return f"{fv.feature}: all the same ({fv.values[0]})"
    if fv.kind == "different":
        return f"{fv.feature}: all different ({_words.and_list([str(v) for v in fv.values])})"
    return f"{fv.feature}: {fv} (card {fv.odd_index + 1} is the odd one out)"


class MagicRuleChecker(CardsView):
    """Three card pickers, the three cards, and the magic rule applied to each feature.

    Pick three cards with the dropdowns (or from code) and read, feature by
    feature, "all the same", "all different" or "two are ... and one is ...";
    the odd card out is framed::

        from setwidgets.widgets import MagicRuleChecker

        checker = MagicRuleChecker(["1RSO", "2RSO", "3PSO"])
        checker                       # shows the cards and the sentence
        print(checker.verdict)        # Not a SET: two are red and one is purple.
        checker.set_cards("1RSO 2GTS 3POD")   # three other cards

    To pick the cards from a table instead, give the table's cards: click three
    of them (or press their letters) and the checker shows those three::

        from setwidgets import mini_deck

        checker = MagicRuleChecker(table=mini_deck()[:9])

    ``cards`` is three cards (Card objects or codes; default a SET, or the
    first three of the table); ``theme`` is "classic", "colorblind" or
    "printable". Also public: :attr:`cards`, :attr:`text`, :attr:`card_rects`
    (where each card is drawn), :attr:`pickers` and :attr:`table` (a
    :class:`~setwidgets.widgets.CardTable`, or None).
    """

    def __init__(
        self,
        cards: Iterable[Card | str] | None = None,
        theme: str | Theme = "classic",
        width: int | None = None,
        table: Iterable[Card | str] | None = None,
        columns: int | None = None,
    ) -> None:
        if table is None and columns is not None:
            raise TypeError(
                "columns= lays out the cards of table=; give the table's cards too, as in "
                f"MagicRuleChecker(table=cards, columns=3); got columns={short(columns)} and no table"
            )
        theme = get_theme(theme)
        width = check_width(width)
        if table is not None:
            table = as_cards(table, "cards for the table")
            if len(table) < 3:
                raise ValueError(f"table= needs at least three cards to pick from; got {len(table)}")
        self.table = None if table is None else CardTable(table, columns=columns, theme=theme, width=width)
        if cards is None:
            cards = DEFAULT_CARDS if self.table is None else self.table.cards[:3]
        chosen = as_cards(cards)
        if len(chosen) != 3:
            raise ValueError(
                "MagicRuleChecker needs three cards, as one list or a string of codes like "
                f"MagicRuleChecker('1RSO 2GTS 3POD'); got {_card_inputs.listed(chosen)}"
            )
        self.theme = theme
        self._setup_canvas("setw-checker", width)
        self.pickers = [CardPicker(card, description=f"Card {i + 1}") for i, card in enumerate(chosen)]
        self._verdict_widget = HTML()
        self._verdict_widget.add_class("setw-verdict")
        announce(self._verdict_widget)  # "Not a SET: ..." is said as it changes
        self._features_widget = HTML()
        self._features_widget.add_class("setw-features")
        above = []
        if self.table is not None:
            how = HTML("Click three cards of the table (or press their letters) to check them.")
            how.add_class("setw-how")
            above = [how, self.table]
        super().__init__(
            children=[*above, *self.pickers, self.picture_box, self._verdict_widget, self._features_widget],
            layout=Layout(width="100%"),
        )
        self.add_class("setw-checker")
        for picker in self.pickers:
            picker.on_change(lambda _card: self._update())
        if self.table is not None:
            self.table.on_pick(lambda picked: self.set_cards(picked))
        self._update()

    @property
    def cards(self) -> list[Card]:
        """The three cards being checked."""
        return [picker.card for picker in self.pickers]

    @cards.setter
    def cards(self, cards: Iterable[Card | str]) -> None:
        self.set_cards(cards)

    def set_cards(self, *cards: Card | str | Iterable[Card | str]) -> Verdict:
        """Show three other cards; returns their :class:`~setwidgets.rules.Verdict`.

        Give them as ``set_cards(a, b, c)``, ``set_cards([a, b, c])`` or
        ``set_cards("1RSO 2GTS 3POD")``.
        """
        set_picks(self, cards)
        self._update()
        return self.verdict

    @property
    def verdict(self) -> Verdict:
        """:func:`~setwidgets.rules.explain` of the three cards (``str()`` gives the sentence)."""
        return explain(self.cards)

    @property
    def lines(self) -> list[str]:
        """One line per feature (none when a card is picked twice)."""
        verdict = self.verdict
        if verdict.repeated:
            return []
        return [feature_line(verdict, fv) for fv in verdict.features]

    @property
    def text(self) -> str:
        """The verdict sentence, then one line per feature."""
        return "\n".join([str(self.verdict), *self.lines])

    def _update(self) -> None:
        if getattr(self, "_updating", False):
            return
        if self.table is not None:
            # Cards chosen with the dropdowns are framed on the table too, when they lie there.
            self.table.show_picked(self.cards)
        verdict = self.verdict
        css = "setw-ok" if verdict.is_set else "setw-not"
        self._verdict_widget.value = f'<b class="{css}">{escape(str(verdict))}</b>'
        rows = []
        for line, fv in zip(self.lines, verdict.features):
            mark = "✓" if fv.ok else "✗"
            rows.append(f"<li>{mark} {escape(line)}</li>")
        if verdict.repeated:
            rows.append("<li>Pick three different cards: a SET is made of three different cards.</li>")
        self._features_widget.value = f'<ul style="margin:0.2em 0">{"".join(rows)}</ul>'
        self.redraw()

    def _scene(self) -> shapes.Scene:
        verdict = self.verdict
        if verdict.is_set:
            kinds = dict.fromkeys(range(3), "found")
        elif verdict.repeated:
            kinds = {}
        else:
            kinds = {f.odd_index: "odd" for f in verdict.broken}
        return shapes.scene(self.cards, letters=["1", "2", "3"], highlight=kinds, theme=self.theme, scale=0.7)

    def _static_text(self) -> list[str]:
        return self.text.splitlines()

    def __repr__(self) -> str:
        return f"<MagicRuleChecker: {' '.join(c.code for c in self.cards)}: {self.verdict}>"
