"""The rules of SET: what a SET is, why three cards are not one, and the third card.

Three different cards form a SET when, for each of the four features
separately, the three values are either all the same or all different.

The *magic rule* says the same thing the other way round: if two are ...
and one is not, it is not a SET. :func:`explain` gives that reason in words,
for example "Not a SET: two are red and one is purple."

Any two different cards are completed to a SET by exactly one third card,
:func:`third_card`. In the vector view (see :mod:`setwidgets.cards`) the
third card is ``-(a + b) mod 3``, which makes :func:`find_sets` quadratic:
for each pair, look up the one card that would finish it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from setwidgets import _card_inputs, _words
from setwidgets.cards import FEATURES, VALUES, Card, full_deck

__all__ = [
    "FeatureVerdict",
    "Verdict",
    "count_sets",
    "explain",
    "find_sets",
    "first_set",
    "has_set",
    "is_set",
    "third_card",
]

_ONE_ARGUMENT: Any = object()  # third_card([a, b]): the second card was not given separately
_DECK = tuple(full_deck())  # cards are immutable, so third_card hands out these, found by index


def _third_by_digits(i: int, j: int) -> int:
    """The full-deck index of the card completing cards number i and j, digit by digit."""
    total = 0
    for _ in range(4):
        # One base-3 digit per feature: the third digit is -(x + y) mod 3.
        total = total * 3 + (-(i // 27 + j // 27)) % 3
        i, j = (i % 27) * 3, (j % 27) * 3
    return total


THIRD: bytes = bytes(_third_by_digits(i, j) for i in range(81) for j in range(81))
"""The third card of every pair, computed once: ``THIRD[81 * i + j]`` is the full-deck index of
the card that makes a SET with cards number ``i`` and ``j`` (for ``i == j`` it is ``i`` itself,
as ``-(a + a) = a`` mod 3). :mod:`setwidgets.sim` builds its numpy table from this one.

>>> THIRD[81 * 0 + 40]   # one red solid oval and two green striped squiggles: three purple open diamonds
80
"""


def is_set(*cards: Card | str | Iterable[Card | str]) -> bool:
    """Return True when the three cards form a SET.

    Call it as ``is_set(a, b, c)`` or ``is_set([a, b, c])``; cards may be
    Card objects or codes such as ``"2RTO"``. Three cards that are not all
    different are never a SET.

    >>> is_set("1RSO", "2GTS", "3POD")
    True
    >>> is_set("1RSO", "2RSO", "3PSO")
    False
    """
    a, b, c = _card_inputs.exactly("is_set", cards, 3)
    # Two different cards decide the third, which differs from both; so c is never a or b here.
    return a != b and _third_index(a.index, b.index) == c.index


def _value_phrase(feature: str, value: Any, one: bool = False) -> str:
    """How one value reads after 'two are'/'one is', e.g. 'red', 'ovals', 'a diamond'."""
    if feature == "shape":
        return _words.a_or_an(value) if one else _words.plural(value)
    return str(value)


@dataclass(frozen=True)
class FeatureVerdict:
    """What the three cards do in one feature.

    ``kind`` is ``"same"``, ``"different"`` or ``"two and one"``. For
    ``"two and one"``, ``pair_value`` is the value two cards share,
    ``odd_value`` the other one and ``odd_index`` (0, 1 or 2) says which of
    the three cards is the odd one out.
    """

    feature: str
    values: tuple[Any, Any, Any]
    kind: str
    odd_index: int | None = None

    @property
    def ok(self) -> bool:
        """True when this feature obeys the rule (all the same or all different)."""
        return self.kind != "two and one"

    @property
    def pair_value(self) -> Any:
        """The value two of the cards share (None unless ``kind == "two and one"``)."""
        if self.odd_index is None:
            return None
        return self.values[(self.odd_index + 1) % 3]

    @property
    def odd_value(self) -> Any:
        """The odd card's value (None unless ``kind == "two and one"``)."""
        return None if self.odd_index is None else self.values[self.odd_index]

    def __str__(self) -> str:
        return self._sentence

    # A feature verdict never changes, and explain() hands out the same 27 per feature again and
    # again (every claim in a game reads them): each phrase is made once, when first asked for.
    @cached_property
    def _sentence(self) -> str:
        f = self.feature
        if self.kind == "same":
            if f == "number":
                return f"all have {_words.count_in_words(self.values[0], 'symbol')}"
            return f"all are {_value_phrase(f, self.values[0])}"
        if self.kind == "different":
            return f"all different {_words.plural(f)}"
        pair, odd = self.pair_value, self.odd_value
        if f == "number":
            return (
                f"two have {_words.count_in_words(pair, 'symbol')} "
                f"and one has {_words.count_in_words(odd, 'symbol')}"
            )
        return f"two are {_value_phrase(f, pair)} and one is {_value_phrase(f, odd, one=True)}"

    @cached_property
    def summary(self) -> str:
        """A short phrase for a SET sentence: 'same color' or 'all different colors'."""
        return (
            f"same {self.feature}" if self.kind == "same" else f"all different {_words.plural(self.feature)}"
        )


@dataclass(frozen=True)
class Verdict:
    """The answer of :func:`explain`: is it a SET, and why (not)?

    ``str(verdict)`` is one plain sentence; ``verdict.features`` has one
    :class:`FeatureVerdict` per feature; ``verdict.broken`` lists only the
    features that break the rule; ``verdict.details()`` explains card by card.
    """

    cards: tuple[Card, Card, Card]
    features: tuple[FeatureVerdict, ...]

    @property
    def repeated(self) -> bool:
        """True when the same card appears more than once."""
        return len(set(self.cards)) < 3

    @property
    def is_set(self) -> bool:
        """True when the three cards form a SET."""
        return all(f.kind != "two and one" for f in self.features) and not self.repeated

    @property
    def broken(self) -> tuple[FeatureVerdict, ...]:
        """The features where two are alike and one is not."""
        return tuple(f for f in self.features if not f.ok)

    def __bool__(self) -> bool:
        return self.is_set

    def __str__(self) -> str:
        if self.repeated:
            twice = next(c for c in self.cards if self.cards.count(c) > 1)
            return f"Not a SET: the same card ({twice.name}) is used more than once."
        broken = [str(f) for f in self.features if f.kind == "two and one"]
        if broken:
            return "Not a SET: " + "; ".join(broken) + "."
        return "A SET: " + _words.and_list([f.summary for f in self.features]) + "."

    def details(self) -> str:
        """Several lines: the verdict, then each feature and the odd card out."""
        lines = [str(self)]
        for f in self.features:
            line = f"- {f.feature}: {f}"
            if not f.ok:
                odd = self.cards[f.odd_index]
                line += f" (card {f.odd_index + 1}, {odd.name}, is the odd one out)"
            lines.append(line)
        return "\n".join(lines)


def explain(*cards: Card | str | Iterable[Card | str]) -> Verdict:
    """Explain, feature by feature, whether three cards form a SET.

    Returns a :class:`Verdict`; print it for one sentence in the magic-rule
    form, and use ``verdict.details()`` for one line per feature.

    >>> print(explain("1RSO", "2RSO", "3PSO"))
    Not a SET: two are red and one is purple.
    >>> explain("1RSO", "2RSO", "3PSO").is_set
    False
    >>> print(explain("1RSO", "2RSO", "3PSO").details())
    Not a SET: two are red and one is purple.
    - number: all different numbers
    - color: two are red and one is purple (card 3, three purple solid ovals, is the odd one out)
    - shape: all are ovals
    - shading: all are solid
    """
    a, b, c = _card_inputs.exactly("explain", cards, 3)
    va, vb, vc = a.vector, b.vector, c.vector
    return Verdict(
        (a, b, c), tuple(_FEATURE_VERDICTS[f][9 * va[f] + 3 * vb[f] + vc[f]] for f in range(len(FEATURES)))
    )


def _feature_verdict(feature: str, values: tuple[Any, Any, Any]) -> FeatureVerdict:
    """What three values of one feature do: all the same, all different, or two and one."""
    distinct = len(set(values))
    if distinct == 1:
        return FeatureVerdict(feature, values, "same")
    if distinct == 3:
        return FeatureVerdict(feature, values, "different")
    odd = next(i for i in range(3) if values.count(values[i]) == 1)
    return FeatureVerdict(feature, values, "two and one", odd)


# A feature's verdict depends only on its three values: 27 per feature, made once (they are immutable).
_FEATURE_VERDICTS = tuple(
    tuple(
        _feature_verdict(f, (VALUES[f][x], VALUES[f][y], VALUES[f][z]))
        for x, y, z in itertools.product(range(3), repeat=3)
    )
    for f in FEATURES
)


def third_card(a: Card | str | Iterable[Card | str], b: Card | str = _ONE_ARGUMENT) -> Card:
    """The one card that makes a SET with the two given, different cards.

    Feature by feature: if the two agree, the third agrees too; if they
    differ, the third has the remaining value. In vectors: ``-(a + b) mod 3``.
    Call it as ``third_card(a, b)`` or ``third_card([a, b])``.

    >>> third_card("1RSO", "2GTS").code
    '3POD'
    """
    a, b = _card_inputs.exactly("third_card", (a,) if b is _ONE_ARGUMENT else (a, b), 2)
    if a == b:
        raise ValueError(
            f"third_card() needs two different cards; both are {a.name} ({a}). "
            "A SET is made of three different cards."
        )
    return _DECK[_third_index(a.index, b.index)]


def _third_index(i: int, j: int) -> int:
    """The full-deck index of the card completing cards number i and j (i != j)."""
    return THIRD[81 * i + j]


def find_sets(cards: Iterable[Card | str], *more: Card | str) -> list[tuple[Card, Card, Card]]:
    """Every SET among the cards, each once, as triples in the order given.

    Works in O(n^2): for each pair it asks whether the one card completing
    the pair is present, instead of trying all n^3 triples. The cards may be
    a list, several cards, or one string of codes.

    The order: each SET is written with its cards in the order of the list,
    and the SETs are sorted by the positions of their first two cards, then
    the third; so ``find_sets(cards)[0]`` is :func:`first_set` ``(cards)``.

    >>> find_sets(["1RSO", "2RSO", "3RSO", "1GTS"])
    [(Card(1, 'red', 'oval', 'solid'), Card(2, 'red', 'oval', 'solid'), Card(3, 'red', 'oval', 'solid'))]
    """
    return _find_sets("find_sets", cards, more)


def _find_sets(func: str, cards: Any, more: tuple[Any, ...]) -> list[tuple[Card, Card, Card]]:
    table = _distinct(func, cards, more)
    return [(table[i], table[j], table[k]) for i, j, k in _set_positions(table)]


def _distinct(func: str, cards: Any, more: tuple[Any, ...]) -> list[Card]:
    """_card_inputs.distinct_cards, with a quick way through for a list of different Cards (a table)."""
    if not more and type(cards) is list and len(_quick_indices(cards)) == len(cards):
        return cards
    return _card_inputs.distinct_cards(func, cards, more)


def _quick_indices(cards: list[Any]) -> list[int]:
    """The full-deck indices of a list of different Cards (a game's table); a shorter list otherwise.

    Anything but a Card is left out, and so is everything when a card comes twice, so the length
    tells whether the list may skip the checks of :func:`_card_inputs.distinct_cards`.
    """
    indices = [card._index for card in cards if type(card) is Card]
    return indices if len(set(indices)) == len(indices) else []


def _indices(func: str, cards: Any, more: tuple[Any, ...]) -> tuple[list[Card], list[int]]:
    """The cards, checked as :func:`_distinct` does, and their full-deck indices."""
    if not more and type(cards) is list:
        indices = _quick_indices(cards)
        if len(indices) == len(cards):
            return cards, indices
    table = _card_inputs.distinct_cards(func, cards, more)
    return table, [card.index for card in table]


def _set_positions(table: list[Card]) -> list[tuple[int, int, int]]:
    """The positions (i < j < k) of every SET on the table, smallest first."""
    indices = [card.index for card in table]
    position = {index: p for p, index in enumerate(indices)}
    third = THIRD
    found = []
    for i, a in enumerate(indices):
        row = 81 * a
        for j in range(i + 1, len(indices)):
            k = position.get(third[row + indices[j]], -1)
            # Each SET is met from each of its three pairs; keep it only from its first two.
            if k > j:
                found.append((i, j, k))
    # Met pair by pair, the SETs come ordered by (i, j); two SETs never share that pair.
    return found


def first_set(cards: Iterable[Card | str], *more: Card | str) -> tuple[Card, Card, Card] | None:
    """One SET among the cards, or None when there is none; it stops at the first it meets.

    The SET returned is the first in :func:`find_sets`' order: of all the SETs,
    the one whose positions ``i < j < k`` in the list are smallest, compared
    first by ``i``, then ``j``, then ``k``. It is what you get by trying the pairs
    in order (first card with each later card, then the second card with each
    later card, ...) and asking whether the card completing the pair comes
    later in the list.

    >>> [card.code for card in first_set(["1GTS", "1RSO", "2RSO", "3RSO", "3POD"])]
    ['1GTS', '2RSO', '3POD']
    >>> first_set(["1RSO", "2RSO", "1GTS"]) is None
    True
    """
    table, indices = _indices("first_set", cards, more)
    found = _first_positions(indices)
    return None if found is None else (table[found[0]], table[found[1]], table[found[2]])


def _first_positions(indices: list[int]) -> tuple[int, int, int] | None:
    """The positions (i < j < k) of the first SET among these full-deck indices, or None."""
    # A game asks about the same table twice in a row (after a move, and when a player looks):
    # the last answer is kept, as one (table, answer) pair.
    key = tuple(indices)
    table, found = _LAST_FIRST[0]
    if table != key:
        found = _search_first(indices)
        _LAST_FIRST[0] = (key, found)
    return found


_LAST_FIRST: list[tuple[tuple[int, ...] | None, tuple[int, int, int] | None]] = [(None, None)]


def _search_first(indices: list[int]) -> tuple[int, int, int] | None:
    position = {index: p for p, index in enumerate(indices)}
    third = THIRD
    n = len(indices)
    for i in range(n - 2):
        row = 81 * indices[i]
        for j in range(i + 1, n - 1):
            k = position.get(third[row + indices[j]], -1)
            if k > j:
                return i, j, k
    return None


def has_set(cards: Iterable[Card | str], *more: Card | str) -> bool:
    """True when at least one SET lies among the cards.

    It stops at the first SET it meets, so it is quicker than ``find_sets``.

    >>> has_set(["1RSO", "2RSO", "3RSO"]), has_set(["1RSO", "2RSO", "1GTS"])
    (True, False)
    """
    _, indices = _indices("has_set", cards, more)
    return _first_positions(indices) is not None


def count_sets(cards: Iterable[Card | str], *more: Card | str) -> int:
    """How many SETs lie among the cards.

    >>> from setwidgets import mini_deck
    >>> count_sets(mini_deck())
    117
    """
    return len(_find_sets("count_sets", cards, more))
