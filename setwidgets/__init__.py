"""setwidgets: the card game SET and the mathematics inside it, for Jupyter.

The core needs nothing but Python::

    from setwidgets import Card, full_deck, mini_deck, is_set, explain, third_card, find_sets, Game

Many games and exact counts, on numpy: ``from setwidgets import sim, caps``.

The live widgets are imported on demand: ``from setwidgets import Board`` works
as well as ``from setwidgets.widgets import Board``, yet ``import setwidgets``
alone loads no Jupyter module, so the core runs in an autograder or a plain
script without JupyterLab.
"""

import importlib

from setwidgets.bot import Bot
from setwidgets.cards import (
    CODE_LETTERS,
    FEATURES,
    VALUES,
    Card,
    as_card,
    as_cards,
    code_key,
    full_deck,
    mini_deck,
)
from setwidgets.draw.svg import card_html as _card_html
from setwidgets.draw.svg import card_svg as _card_svg
from setwidgets.game import Claim, Game, GameError, NoSet, Player
from setwidgets.rules import (
    FeatureVerdict,
    Verdict,
    count_sets,
    explain,
    find_sets,
    first_set,
    has_set,
    is_set,
    third_card,
)

__version__ = "0.2.0.dev0"

# A card in a notebook shows as a picture. The drawing sits a layer above the cards, which know
# nothing of it, so the package joins the two here, where both are imported anyway.
Card.painter = _card_svg
Card.html_painter = _card_html

# The widgets need ipywidgets and ipycanvas; they load on first use, not with the core
# (and stay out of __all__, so "from setwidgets import *" in an autograder loads no Jupyter module).
# Their names are listed once, in setwidgets.widgets.WIDGETS, which reading loads no Jupyter module.

# The engines need numpy; they too load on first use (setwidgets.sim, setwidgets.caps).
_ENGINES = ("caps", "sim")


def _widget_names() -> dict[str, str]:
    return importlib.import_module("setwidgets.widgets").WIDGETS


def __getattr__(name: str):
    if name in _ENGINES:
        return importlib.import_module(f"setwidgets.{name}")
    if not name.startswith("__") and name in _widget_names():
        return getattr(importlib.import_module("setwidgets.widgets"), name)
    raise AttributeError(f"module 'setwidgets' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_widget_names(), *_ENGINES])


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
    "code_key",
    "count_sets",
    "explain",
    "find_sets",
    "first_set",
    "full_deck",
    "has_set",
    "is_set",
    "mini_deck",
    "third_card",
]
