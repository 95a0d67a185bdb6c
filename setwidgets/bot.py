"""A computer opponent for SET: pure logic, no clock and no screen.

A :class:`Bot` sees every SET at once (it uses :func:`~setwidgets.rules.find_sets`),
so what makes it a fair opponent is *when* it answers. :meth:`Bot.delay` says
how many seconds a person of the bot's level would need to find a SET on a
table; a widget waits that long, then plays :meth:`Bot.choose`'s SET (or, with
:meth:`Bot.play`, makes the move on a :class:`~setwidgets.game.Game`).

The delay is ``base * (cards / 12) * sqrt(typical / sets) * spread``:

- ``base`` is the level's seconds on an ordinary table of 12 cards (see
  :data:`LEVELS`): a beginner needs about 20 to 40 seconds, an expert 3 to 6;
- more cards take longer to scan, in proportion;
- fewer SETs are harder to find: a 12-card table holds about 2.8 SETs on
  average (:data:`TYPICAL_SETS`), and one with a single SET takes about 1.7
  times as long;
- ``spread`` is drawn from the bot's ``random.Random`` between 2/3 and 4/3,
  so the bot is sometimes quick and sometimes slow, like a person;
- with no SET on the table, the delay is how long the bot looks before it
  says so: twice as long as for a single SET.

::

    >>> import random
    >>> from setwidgets import Bot, Game
    >>> bot = Bot("expert", rng=random.Random(1))
    >>> g = Game(seed=3)
    >>> 2 <= bot.delay(g.table) <= 10
    True
    >>> from setwidgets import is_set
    >>> is_set(bot.choose(g.table))
    True
"""

from __future__ import annotations

import math
import numbers
import random
from collections.abc import Iterable
from typing import TYPE_CHECKING

from setwidgets import _inputs
from setwidgets.cards import Card, as_cards
from setwidgets.rules import find_sets

if TYPE_CHECKING:
    from setwidgets.game import Claim, Game, NoSet

__all__ = ["LEVELS", "TYPICAL_SETS", "Bot"]

LEVELS: dict[str, float] = {"beginner": 30.0, "intermediate": 12.0, "expert": 4.5}
"""Typical seconds to find a SET among 12 cards, by level (before the random spread)."""

TYPICAL_SETS: float = 220 / 79
"""The average number of SETs among 12 random cards: C(12, 3) triples, each a SET with chance 1/79."""

SPREAD: tuple[float, float] = (2 / 3, 4 / 3)
"""The random factor on each delay is drawn uniformly from this range."""


class Bot:
    """A computer player that finds SETs with a human-like delay.

    ``level`` is ``"beginner"``, ``"intermediate"``, ``"expert"`` or a
    number: the typical seconds on a 12-card table. ``rng`` is a
    ``random.Random`` (or a whole number to seed one) for the spread of
    delays and the choice among several SETs; None makes a fresh one.
    """

    def __init__(self, level: str | float = "intermediate", rng: random.Random | int | None = None) -> None:
        if isinstance(level, str):
            if level not in LEVELS:
                raise ValueError(
                    f"unknown level {_inputs.short(level)}; choose one of {', '.join(map(repr, LEVELS))} "
                    "or give the typical seconds on 12 cards"
                )
            self.level: str | float = level
            self.base = LEVELS[level]
        elif isinstance(level, numbers.Real) and not isinstance(level, bool):
            seconds = float(_inputs.seconds(level, "a bot's level", allow_none=False))
            self.level = seconds
            self.base = seconds
        else:
            raise TypeError(
                f"level must be one of {', '.join(map(repr, LEVELS))} or a number of seconds; "
                f"got {_inputs.what(level)}"
            )
        self.rng, _ = _inputs.rng_and_seed(rng, "rng")

    def __repr__(self) -> str:
        return f"Bot(level={self.level!r})"

    def typical_delay(self, table: Iterable[Card | str]) -> float:
        """The delay before the random spread: the middle of what :meth:`delay` returns."""
        cards = as_cards(table, "cards on the table")
        sets = len(find_sets(cards))
        size = len(cards) / 12
        if sets == 0:
            return 2 * self.base * size * math.sqrt(TYPICAL_SETS)
        return self.base * size * math.sqrt(TYPICAL_SETS / sets)

    def delay(self, table: Iterable[Card | str]) -> float:
        """Seconds this bot needs to find a SET on ``table`` (or to decide there is none).

        More cards and fewer SETs make it longer; each call draws a new
        random spread from the bot's rng.
        """
        return self.typical_delay(table) * self.rng.uniform(*SPREAD)

    def choose(self, table: Iterable[Card | str]) -> tuple[Card, Card, Card] | None:
        """One SET on the table, picked at random among all of them, or None if there is none."""
        sets = find_sets(table)
        if not sets:
            return None
        return sets[self.rng.randrange(len(sets))]

    def play(self, game: Game, player: int | str) -> Claim | NoSet:
        """Make the bot's move in a :class:`~setwidgets.game.Game` as ``player``.

        Claims a SET when there is one (the claim includes the call) and
        otherwise says there is no SET. Returns the :class:`~setwidgets.game.Claim`
        or :class:`~setwidgets.game.NoSet`. Waiting :meth:`delay` seconds first
        is up to the caller. Raises GameError as the game does, for example
        when another player holds the call.
        """
        chosen = self.choose(game.table)
        if chosen is None:
            return game.no_set(player)
        return game.claim(chosen, player)
