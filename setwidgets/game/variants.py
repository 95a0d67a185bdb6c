"""The ways to play SET: each variant's own rules, in one class per variant.

The rules every game shares live in :class:`~setwidgets.game.Game`: calls,
claims, penalties, the claim time, hints, and the end of the game once no SET
can be made any more from the cards on the table and in the deck. What
differs from one way of playing to another is said here, by one
:class:`Variant` subclass each, in a few numbers and flags:

- how many players it is for (:attr:`Variant.players`) and how many cards lie
  on the table (:attr:`Variant.table_size`);
- what happens when nobody finds a SET because there is none on the table:
  more cards (:attr:`Variant.more`), the end of the game (``more = 0``), or,
  once the table holds :attr:`Variant.most_extra` cards above its size, cards
  sent back into the deck (:attr:`Variant.send_back`, :attr:`Variant.deal_back`);
- whether cards are dealt on their own until the table holds a SET
  (:attr:`Variant.deal_until_set`);
- whether a game that ends on a full table without a SET is lost
  (:attr:`Variant.lost_on_full_table`).

So "where is the competition rule?" has one answer: :class:`CompetitionRules`.
The methods of :class:`Variant` turn these numbers into moves on the table, for
:class:`~setwidgets.game.Game`; :mod:`setwidgets.sim` reads the same numbers
for its compiled games (:func:`setwidgets.sim.variant_numbers`).

>>> VARIANTS
('standard', 'solitaire', 'online', 'competition')
>>> rules_of("competition")
CompetitionRules()
>>> rules_of("competition").send_back, rules_of("competition").deal_back
(6, 3)
>>> rules_of("solitaire").players
1

A variant acts on the table only through the :class:`~setwidgets.game.state.Dealer`
its game hands it: ``dealer.deal(count)``, ``dealer.send_back(count, deal)`` and
``dealer.record(...)``; it reads the table, the deck and the table size through
``dealer.table``, ``dealer.deck`` and ``dealer.table_size``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from setwidgets import _words
from setwidgets.cards import Card
from setwidgets.game.state import Dealer
from setwidgets.rules import has_set

__all__ = [
    "MOST_WITHOUT_SET",
    "RULES",
    "SMALL_DECK",
    "VARIANTS",
    "CompetitionRules",
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

SMALL_DECK = 27
"""A deck of this many cards or fewer (the mini deck) is played on a smaller table
(:attr:`Variant.small_table_size`)."""

RULES: tuple[str, ...] = ("usual_table_size", "refill", "no_set", "after_deal", "lost", "most_on_table")
"""The methods that play a variant's numbers. A variant that overrides none of them is all in its
numbers, which :mod:`setwidgets.sim` can then play too (see :meth:`Variant.rules_in_code`)."""


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
    a variant changes the numbers below that it plays differently (and,
    rarely, a method: then only :class:`~setwidgets.game.Game` plays it, not
    :mod:`setwidgets.sim`).
    """

    name: ClassVar[str] = ""
    """The name given to ``Game(variant=...)``."""

    players: ClassVar[int | None] = None
    """How many players the variant is for; None: any number."""

    table_size: ClassVar[int] = 12
    """How many cards lie on the table normally."""

    small_table_size: ClassVar[int] = 9
    """How many cards lie on the table normally when the deck has 27 cards or fewer (the mini deck)."""

    more: ClassVar[int] = 3
    """Cards laid out when the table has no SET; 0: none, the game ends there."""

    most_extra: ClassVar[int | None] = None
    """Cards above the table size at which a table without a SET gets no more cards: instead
    ``send_back`` of them go back into the deck, which is reshuffled, and ``deal_back`` are dealt.
    None: no such limit."""

    send_back: ClassVar[int] = 0
    """Cards sent back into the deck at the limit ``most_extra`` (chosen at random)."""

    deal_back: ClassVar[int] = 0
    """Cards dealt into the gaps after ``send_back`` cards went back."""

    deal_until_set: ClassVar[bool] = False
    """True: after every deal, ``more`` cards are dealt again and again until the table holds a SET."""

    lost_on_full_table: ClassVar[bool] = False
    """True: a game that ends on a full table (``table_size`` cards or more) without a SET is lost."""

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

    def rules_in_code(self) -> list[str]:
        """The methods of :data:`RULES` this variant overrides: none when its rules are all in its numbers."""
        return [method for method in RULES if getattr(type(self), method) is not getattr(Variant, method)]

    def usual_table_size(self, deck_size: int) -> int:
        """How many cards lie on the table normally, for a deck of ``deck_size`` cards."""
        return self.table_size if deck_size > SMALL_DECK else self.small_table_size

    def refill(self, on_table: int, table_size: int) -> int:
        """How many of three cards just taken are replaced from the deck, with ``on_table`` cards left.

        The table is filled back up to its usual size, never above: extra cards laid
        out after a "no SET" are not replaced, so the table shrinks back.
        """
        return max(0, min(3, table_size - on_table))

    def no_set(self, dealer: Dealer) -> Outcome:
        """The table has no SET and the game goes on: what the numbers say.

        ``more`` cards are laid out; with ``more = 0`` the game ends here (lost on a
        full table, see :meth:`lost`); at ``most_extra`` cards above the table size,
        ``send_back`` cards go back into the deck and ``deal_back`` are dealt.
        """
        table = dealer.table
        if not self.more:
            verdict = "the game is lost" if self.lost(table, dealer.table_size) else "the game is over"
            message = (
                f"No SET among these {len(table)} cards: {verdict}, "
                f"with {_words.count(len(dealer.deck), 'card')} left in the deck."
            )
            return Outcome(message, ends=True)
        if self.most_extra is not None and len(table) >= dealer.table_size + self.most_extra:
            returned, dealt = dealer.send_back(self.send_back, deal=self.deal_back)
            message = (
                f"No SET among {_words.count(len(table), 'card')}: {len(returned)} went back into the deck "
                f"and {len(dealt)} {_words.agree(len(dealt), 'was', 'were')} dealt."
            )
            return Outcome(message, dealt, returned)
        dealt = dealer.deal(self.more)
        more = f"{len(dealt)} more {_words.agree(len(dealt), 'was', 'were')} dealt"
        return Outcome(f"No SET among {_words.count(len(table), 'card')}: {more}.", dealt)

    def after_deal(self, dealer: Dealer) -> None:
        """Called after the table changed (the first deal, a SET taken, cards added).

        With ``deal_until_set``, ``more`` cards at a time until the table holds a SET
        (or the deck is empty); otherwise nothing.
        """
        while self.deal_until_set and self.more and dealer.deck and not has_set(dealer.table):
            dealt = dealer.deal(self.more)
            dealer.record("deal", cards=[c.code for c in dealt], reason="no SET on the table")

    def lost(self, table: list[Card], table_size: int) -> bool:
        """Whether a game that ends with this ``table`` is lost.

        With ``lost_on_full_table`` (solitaire), a full table without a SET is; otherwise none is.
        """
        return self.lost_on_full_table and len(table) >= table_size and not has_set(table)

    def most_on_table(self, table_size: int) -> int:
        """The most cards the table can hold while cards are left in the deck.

        With ``more = 0``, the table size; with a limit ``most_extra``, that many above it.
        Otherwise ``more`` cards are dealt only to a table without a SET, and 20 cards
        is the most that can lie without a SET (the largest cap in the deck): the
        tables come in steps of three, so 18 at most before a deal, 21 after.
        """
        if not self.more:
            return table_size
        if self.most_extra is not None and not self.deal_until_set:
            return table_size + self.most_extra
        return max(table_size, MOST_WITHOUT_SET - MOST_WITHOUT_SET % 3 + self.more)


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
    more = 0  # no cards are ever added: a table without a SET ends the game
    lost_on_full_table = True


class Online(Variant):
    """Whenever the table has no SET after a deal, three more cards are dealt.

    Again and again, until a SET lies on the table or the deck is empty.
    """

    name = "online"
    deal_until_set = True


class CompetitionRules(Variant):
    """A judged table: no SET among 12 gives three more cards.

    No SET among 15 (three above the table size) sends six of them, chosen at
    random, back into the deck, which is reshuffled; then three are dealt, so
    the table is back to 12.
    """

    name = "competition"
    most_extra = 3
    send_back = 6
    deal_back = 3


VARIANTS: tuple[str, ...] = tuple(_REGISTRY)
"""The ways to play that come with the package (see :func:`names` for any added since)."""


def names() -> tuple[str, ...]:
    """The names of every registered variant, the four built-in ones first."""
    return tuple(_REGISTRY)


def rules_of(name: str) -> Variant:
    """The rules of the variant called ``name`` (one of :func:`names`)."""
    return _REGISTRY[name]()
