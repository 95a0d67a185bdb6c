"""The ways to play SET: each variant's own rules, in one class per variant.

The rules every game shares live in :class:`~setwidgets.game.Game`: calls,
claims, penalties, the claim time, hints, and the end of the game once no SET
can be made any more from the cards on the table and in the deck. What
differs from one way of playing to another is answered here, by one
:class:`Variant` subclass each:

- how many players it is for (:attr:`Variant.players`);
- what happens when nobody finds a SET because there is none on the table
  (:meth:`Variant.no_set`);
- what happens after cards were dealt (:meth:`Variant.after_deal`);
- whether the game, when it ends, is lost (:meth:`Variant.lost`).

So "where is the competition rule?" has one answer: :class:`Competition`.

>>> VARIANTS
('standard', 'solitaire', 'online', 'competition')
>>> rules_of("competition")
Competition()
>>> rules_of("solitaire").players
1

A variant acts on the table only through a few moves of the game:
``game._deal(count)``, ``game._send_back(count, deal)`` and ``game._record(...)``;
it reads the table, the deck and the table size through ``game.table``,
``game.deck`` and ``game.table_size``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from setwidgets import _words
from setwidgets.rules import has_set

if TYPE_CHECKING:
    from setwidgets.cards import Card
    from setwidgets.game import Game

__all__ = [
    "VARIANTS",
    "Competition",
    "Online",
    "Outcome",
    "Solitaire",
    "Standard",
    "Variant",
    "names",
    "rules_of",
]

_REGISTRY: dict[str, type[Variant]] = {}

MOST_WITHOUT_SET = 20
"""The most cards that can lie without a SET among them (a cap in AG(4,3) has at most 20 points)."""


@dataclass
class Outcome:
    """What a variant did about a table without a SET (see :meth:`Variant.no_set`).

    ``dealt``: cards laid out; ``returned``: cards sent back into the deck;
    ``message``: one sentence for the players; ``ends``: True when this ends
    the game.
    """

    message: str
    dealt: list[Card] = field(default_factory=list)
    returned: list[Card] = field(default_factory=list)
    ends: bool = False


class Variant:
    """The rules of one way to play. Subclass it, with a ``name`` and a docstring, to add a variant.

    A subclass is registered under its ``name`` as soon as it is defined, so
    ``Game(variant=name)`` plays it. The base class gives the standard rules;
    a variant overrides only what it changes.
    """

    name: ClassVar[str] = ""
    """The name given to ``Game(variant=...)``."""

    players: ClassVar[int | None] = None
    """How many players the variant is for; None: any number."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("name")
        if not isinstance(name, str) or not name or name != name.strip().lower():
            raise TypeError(
                f"a Variant subclass needs a lower-case name of its own; {cls.__name__} has {name!r}"
            )
        if name in _REGISTRY:
            raise TypeError(f"there is already a variant called {name!r} ({_REGISTRY[name].__name__})")
        if not (cls.__doc__ or "").strip():
            raise TypeError(f"the variant {name!r} must explain its rules in a docstring")
        _REGISTRY[name] = cls

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def no_set(self, game: Game) -> Outcome:
        """The table has no SET and the game goes on: lay out three more cards."""
        return _three_more(game)

    def after_deal(self, game: Game) -> None:
        """Called after the table changed (the first deal, a SET taken, cards added); nothing by default."""

    def lost(self, table: list[Card], table_size: int) -> bool:
        """Whether a game that ends with this ``table`` is lost. Only solitaire can be lost."""
        return False

    def most_on_table(self, table_size: int) -> int:
        """The most cards the table can hold while cards are left in the deck.

        Three more are dealt only to a table without a SET, and 20 cards is the most
        that can lie without a SET (the largest cap in the deck), so 21 at the most.
        """
        return max(table_size, MOST_WITHOUT_SET + 1)


def _three_more(game: Game) -> Outcome:
    before = len(game.table)
    dealt = game._deal(3)
    more = f"{len(dealt)} more {_words.agree(len(dealt), 'was', 'were')} dealt"
    return Outcome(f"No SET among {_words.count(before, 'card')}: {more}.", dealt)


class Standard(Variant):
    """No turns; when nobody sees a SET, three more cards are laid out.

    Cards above the usual table size are not replaced when a SET is taken,
    so the table shrinks back.
    """

    name = "standard"


class Solitaire(Variant):
    """One player. A full table without a SET loses the game.

    It makes no difference whether the player says "no SET" while cards are
    left in the deck, or the deck has run out on a full table, or the cards
    left could never make a SET at all: a full table (``table_size`` cards or
    more) without a SET is a loss. When the deck runs out and the last cards,
    fewer than a full table, hold no SET, the player has won.
    """

    name = "solitaire"
    players = 1

    def no_set(self, game: Game) -> Outcome:
        """The game ends here, lost when the table is full (see :meth:`lost`)."""
        table, deck = game.table, game.deck
        verdict = "the game is lost" if self.lost(table, game.table_size) else "the game is over"
        message = (
            f"No SET among these {len(table)} cards: {verdict}, "
            f"with {_words.count(len(deck), 'card')} left in the deck."
        )
        return Outcome(message, ends=True)

    def lost(self, table: list[Card], table_size: int) -> bool:
        """The one rule of losing: a full table without a SET."""
        return len(table) >= table_size and not has_set(table)

    def most_on_table(self, table_size: int) -> int:
        """No cards are ever added: a table without a SET ends the game."""
        return table_size


class Online(Variant):
    """Whenever the table has no SET after a deal, three more cards are dealt.

    Again and again, until a SET lies on the table or the deck is empty.
    """

    name = "online"

    def after_deal(self, game: Game) -> None:
        """Deal three at a time until the table holds a SET."""
        while game.deck and not has_set(game.table):
            dealt = game._deal(3)
            game._record("deal", cards=[c.code for c in dealt], reason="no SET on the table")


class Competition(Variant):
    """A judged table: no SET among 12 gives three more cards.

    No SET among 15 (three above the table size) sends six of them, chosen at
    random, back into the deck, which is reshuffled; then three are dealt, so
    the table is back to 12.
    """

    name = "competition"

    def no_set(self, game: Game) -> Outcome:
        """Three more cards, or six back and three new when three extra already lie out."""
        size = len(game.table)
        if size < game.table_size + 3:
            return _three_more(game)
        returned, dealt = game._send_back(6, deal=3)
        message = (
            f"No SET among {_words.count(size, 'card')}: {len(returned)} went back into the deck "
            f"and {len(dealt)} {_words.agree(len(dealt), 'was', 'were')} dealt."
        )
        return Outcome(message, dealt, returned)

    def most_on_table(self, table_size: int) -> int:
        """Three above the table size: then six go back and three come."""
        return table_size + 3


VARIANTS: tuple[str, ...] = tuple(_REGISTRY)
"""The ways to play that come with the package (see :func:`names` for any added since)."""


def names() -> tuple[str, ...]:
    """The names of every registered variant, the four built-in ones first."""
    return tuple(_REGISTRY)


def rules_of(name: str) -> Variant:
    """The rules of the variant called ``name`` (one of :func:`names`)."""
    return _REGISTRY[name]()
