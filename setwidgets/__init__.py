"""setwidgets: the card game SET and the mathematics inside it, for Jupyter.

The core needs nothing but Python::

    from setwidgets import Card, full_deck, mini_deck, is_set, explain, third_card, find_sets, Game

The live widgets (``setwidgets.widgets``) are imported on demand, so the core
can run in an autograder or a plain script.
"""

from setwidgets.bot import Bot
from setwidgets.cards import CODE_LETTERS, FEATURES, VALUES, Card, as_card, as_cards, full_deck, mini_deck
from setwidgets.game import Claim, Game, GameError, NoSet, Player
from setwidgets.rules import (
    FeatureVerdict,
    Verdict,
    count_sets,
    explain,
    find_sets,
    has_set,
    is_set,
    third_card,
)

__version__ = "0.1.0"

__all__ = [
    "CODE_LETTERS",
    "FEATURES",
    "VALUES",
    "Bot",
    "Card",
    "Claim",
    "FeatureVerdict",
    "Game",
    "GameError",
    "NoSet",
    "Player",
    "Verdict",
    "as_card",
    "as_cards",
    "count_sets",
    "explain",
    "find_sets",
    "full_deck",
    "has_set",
    "is_set",
    "mini_deck",
    "third_card",
]
