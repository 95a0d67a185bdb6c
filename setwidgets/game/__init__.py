"""The game of SET as a state machine: deck, table, calls, claims, penalties and variants.

A :class:`Game` holds everything a real table holds: the shuffled deck, the
cards face up, each player's SETs and penalty points, and who has called
"SET!" and must now show three cards. Nothing here draws or listens to the
mouse; widgets call these methods and redraw from the state (see
:meth:`Game.on_change`), and a test or an autograder can play the same game
without a screen.

A short game::

    >>> from setwidgets import Game
    >>> g = Game(players=["Ana", "Ben"], seed=39, clock=lambda: 0.0)
    >>> len(g.table), len(g.deck)
    (12, 69)
    >>> a, b, c = g.sets_on_table()[0]
    >>> g.call(player="Ben")                  # Ben shouts "SET!" first...
    >>> claim = g.claim([a, b, c], player="Ben")
    >>> claim.ok, claim.replaced[0][0]       # ...keeps the SET; new cards fill the gaps
    (True, 0)
    >>> print(claim.verdict)
    A SET: all different numbers, all different colors, all different shapes and same shading.
    >>> wrong = g.claim(g.table[:3], player="Ana")   # a claim without a call includes the call
    >>> print(wrong.message)
    Not a SET: two are red and one is purple. Ana loses a point.
    >>> [(p.name, p.score) for p in g.players]
    [('Ana', -1), ('Ben', 1)]
    >>> Game.from_json(g.to_json(), clock=lambda: 0.0).to_json() == g.to_json()
    True

Cards may be given as :class:`~setwidgets.cards.Card` objects or as codes
such as ``"2RTO"``; ``g.claim("1RSO 2GTS 3POD")`` works too.

Variants (``variant=``): ``"standard"``, ``"solitaire"``, ``"online"`` and
``"competition"``. Each one's rules live in one class of
:mod:`setwidgets.game.variants` (``help(variants.Online)`` tells one), and
the course's page ``docs/rules.md`` describes them all, beside the rules of SET.

Every game ends: as soon as no SET can be made any more from the cards on
the table and in the deck together (when the deck is empty, that is the
table alone), the game is over, in every variant. A solitaire game can also
end earlier, lost (see :class:`~setwidgets.game.variants.Solitaire`). Scores are
SETs kept minus penalties.

The parts, each in its own module: :mod:`~setwidgets.game.state` (the records
of a game and what a move returns), :mod:`~setwidgets.game.inputs` (what a game
is given, checked), :mod:`~setwidgets.game.variants` (the rules of each way to
play), :mod:`~setwidgets.game.view` (what anyone may look at),
:mod:`~setwidgets.game.engine` (:class:`Game` and its moves) and
:mod:`~setwidgets.game.save` (the saved text).
"""

from setwidgets.game.engine import Game
from setwidgets.game.inputs import DECKS, MAX_NAME, MAX_PLAYERS
from setwidgets.game.state import Claim, GameError, NoSet, Player
from setwidgets.game.variants import VARIANTS

__all__ = ["DECKS", "MAX_NAME", "MAX_PLAYERS", "VARIANTS", "Claim", "Game", "GameError", "NoSet", "Player"]
