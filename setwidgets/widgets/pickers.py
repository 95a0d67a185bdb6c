"""CardPicker: choose a card with four dropdowns, one per feature.

::

    from setwidgets.widgets import CardPicker
    picker = CardPicker("2RTO", description="Card 1")
    picker.on_change(lambda card: print(card.name))
    picker            # four dropdowns: number, color, shape, shading
    picker.card       # Card(2, 'red', 'oval', 'striped')
"""

from __future__ import annotations

from collections.abc import Callable

from ipywidgets import Dropdown, HBox, Label, Layout

from setwidgets._card_inputs import exactly
from setwidgets._events import Callbacks
from setwidgets._inputs import what
from setwidgets.cards import FEATURES, VALUES, Card, as_card
from setwidgets.widgets._keyguard import keep_keys

__all__ = ["CardPicker"]


class CardPicker(HBox):
    """Four dropdowns (number, color, shape, shading) that together pick one card.

    ``picker.card`` reads or sets the card; ``picker.on_change(callback)``
    calls ``callback(card)`` whenever the user (or the code) picks another card
    (``remove=True`` stops it; see :mod:`setwidgets._events` for how every ``on_*`` behaves).
    ``picker.dropdowns`` maps each feature to its Dropdown.
    """

    def __init__(self, card: Card | str = "1RSO", description: str = "") -> None:
        card = as_card(card)
        if not isinstance(description, str):
            raise TypeError(
                f"description is the text beside the dropdowns, like 'Card 1'; got {what(description)}"
            )
        self.dropdowns: dict[str, Dropdown] = {
            feature: Dropdown(
                options=[(str(value), value) for value in VALUES[feature]],
                value=getattr(card, feature),
                # The description is the menu's <label> (ipywidgets ties it to the <select>), so a
                # screen reader says "Card 1 number"; a title alone is not read by many of them.
                # Its width is 0: the card's name beside the menus and the values say it to the eye.
                description=f"{description} {feature}".strip(),
                style={"description_width": "0px"},
                layout=Layout(width="auto", min_width="6.5em"),
            )
            for feature in FEATURES
        }
        for feature, dropdown in self.dropdowns.items():
            # The tooltip says it on hover.
            dropdown.tooltip = f"{description} {feature}".strip()
            dropdown.observe(self._changed, names="value")
        children = [Label(description, layout=Layout(min_width="4.5em"))] if description else []
        super().__init__(children=[*children, *self.dropdowns.values()])
        self.add_class("setw-picker")
        keep_keys(self)  # a menu's keys (arrows, letters) stay in the menu
        self.description = description
        self._changes = Callbacks("on_change", "the new card", example="def show(card): ...")
        self._quiet = False

    @property
    def card(self) -> Card:
        """The card the four dropdowns show."""
        return Card(**{feature: self.dropdowns[feature].value for feature in FEATURES})

    @card.setter
    def card(self, value: Card | str) -> None:
        card = as_card(value)
        if card == self.card:
            return
        # Four dropdowns change one by one; tell the listeners once, about the final card.
        self._quiet = True
        try:
            for feature in FEATURES:
                self.dropdowns[feature].value = getattr(card, feature)
        finally:
            self._quiet = False
        self._notify()

    def on_change(self, callback: Callable[[Card], None], remove: bool = False) -> None:
        """Call ``callback(card)`` after every change of the picked card (``remove=True`` stops it)."""
        self._changes.add(callback, remove)

    def _changed(self, _change) -> None:
        if not self._quiet:
            self._notify()

    def _notify(self) -> None:
        self._changes.fire(self.card, done="the new card is picked")


def set_picks(view, cards) -> list[Card]:
    """Set ``view.pickers`` to ``cards`` (as many as there are pickers; checked) and return them.

    ``view._updating`` is on meanwhile, so the view redraws once afterwards, not once per picker.
    """
    new = exactly("set_cards", cards, len(view.pickers))
    view._updating = True
    try:
        for picker, card in zip(view.pickers, new):
            picker.card = card
    finally:
        view._updating = False
    return new
