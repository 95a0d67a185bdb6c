"""The visible tests' referee while this notebook is graded: only the cards.

The referee keeps the package's own answers out of reach of your function while a visible test
runs it. While an exercise is graded those answers are not in the kernel at all
(:mod:`setwidgets.grading.handout`), so there is nothing to guard: the referee hands out the
cards and the deck, and its guard lets the block run as it is.
"""

import contextlib

from setwidgets.cards import Card, full_deck


class Referee:
    """The referee of the visible tests, with nothing to guard while the notebook is graded."""

    def __init__(self) -> None:
        self.Card = Card
        self.deck = tuple(full_deck())

    @contextlib.contextmanager
    def guard(self, student, modules=(), allowed=(), hide_features=False):
        """Run the block as it is: the package's answers are absent from this kernel."""
        yield
