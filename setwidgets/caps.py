"""SET-free tables: exact counts, and the largest tables without a SET.

A table with no SET among its cards is called a *cap* in geometry (the cards
are the points of the space AG(4, 3) and the SETs its lines). Three questions:

- Is this table SET-free? :func:`is_set_free`, pair by pair, in O(n^2).
- How many tables of ``size`` cards have no SET? :func:`count_set_free`, exactly.
- How large can a table without a SET be? :func:`largest_set_free`, by search.

>>> from setwidgets import caps, mini_deck
>>> caps.is_set_free(["1RSO", "2RSO", "1GSO"])
True
>>> caps.count_set_free(4, deck="mini")
14742
>>> len(caps.largest_set_free(mini_deck(color="red", shading="solid"), progress=False))
4

The full deck, the mini deck of 27 cards and the 9 cards that share two
features are *affine spaces*: the third card of any two of their cards is in
the deck too, and every such deck looks the same from any three cards that
are not a SET. :func:`count_set_free` uses this symmetry (see there).
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Iterable
from typing import Any

from setwidgets import _card_inputs, _inputs, _words
from setwidgets.cards import Card
from setwidgets.game.inputs import deck_cards
from setwidgets.game.variants import MOST_WITHOUT_SET
from setwidgets.rules import THIRD, first_set

__all__ = ["count_set_free", "is_set_free", "largest_set_free"]

_MOST_BY_DIMENSION = (1, 2, 4, 9, MOST_WITHOUT_SET)
"""The most cards without a SET in an affine space of 0 to 4 dimensions: 1 card, 2 cards (a line),
4 (a plane of 9), 9 (27 cards, the mini deck) and 20 (the full deck; Pellegrino, 1970)."""

_SECONDS_PER_STEP = 1.2e-6  # one step of the count's search, in pure Python on a laptop
_QUIET_SECONDS = 2.0  # a count expected to take less shows no progress bar


def is_set_free(cards: Iterable[Card | str], *more: Card | str) -> bool:
    """True when no three of the cards form a SET (the cards make a *cap*).

    It tries each pair once and asks whether the card completing it is among
    the cards: O(n^2) for n cards, not the O(n^3) of trying every triple.

    >>> is_set_free(["1RSO", "2RSO", "3RSO"])
    False
    >>> is_set_free([])
    True
    """
    # The cards are read under this function's name, so that a mistake names the call that was made.
    return first_set(_card_inputs.distinct_cards("is_set_free", cards, more)) is None


class _Deck:
    """A deck as bit positions 0..n-1, with the bit of the third card of every pair."""

    def __init__(self, deck: Any) -> None:
        self.cards = sorted(deck_cards(deck))  # checked as Game checks its deck
        self.size = len(self.cards)
        local = {card.index: n for n, card in enumerate(self.cards)}
        # third[x][y]: the bit of the card completing x and y, 0 when that card is not in the deck.
        self.third = [
            [
                (1 << local[THIRD[81 * a.index + b.index]]) if THIRD[81 * a.index + b.index] in local else 0
                for b in self.cards
            ]
            for a in self.cards
        ]
        self.all = (1 << self.size) - 1
        self.basis = self._affine_basis()
        # Every deck lies in the full deck, an affine deck of d dimensions (d + 1 basis cards) in itself.
        dimension = 4 if self.basis is None else len(self.basis) - 1
        self.most = min(self.size, _MOST_BY_DIMENSION[dimension])

    def _affine_basis(self) -> list[int] | None:
        """Points spanning the deck, no one in the span of the others, when the deck is an affine space."""
        if any(self.third[x][y] == 0 for x in range(self.size) for y in range(self.size) if x != y):
            return None  # some third card is missing: not closed, so no symmetry to use
        basis, span = [0], 1
        while span != self.all:
            outside = span ^ self.all
            basis.append((outside & -outside).bit_length() - 1)
            span = self._closure(span | (1 << basis[-1]))
        return basis

    def _closure(self, span: int) -> int:
        """The smallest set of cards containing ``span`` and the third card of any two of them."""
        while True:
            members = _bits(span)
            grown = span
            for x, y in itertools.combinations(members, 2):
                grown |= self.third[x][y]
            if grown == span:
                return span
            span = grown

    def start(self, chosen: list[int]) -> int:
        """The cards that may join ``chosen`` (a cap) without making a SET."""
        allowed = self.all
        for x in chosen:
            allowed &= ~(1 << x)
        for x, y in itertools.combinations(chosen, 2):
            allowed &= ~self.third[x][y]
        return allowed


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _count(deck: _Deck, chosen: list[int], allowed: int, need: int) -> int:
    """How many ways to add ``need`` cards from ``allowed`` (each above the one before) with no SET."""
    if need == 1:
        return allowed.bit_count()
    if allowed.bit_count() < need:
        return 0
    third = deck.third
    total = 0
    while allowed:
        low = allowed & -allowed
        x = low.bit_length() - 1
        allowed ^= low  # what is left lies above x, so each table is counted once
        row = third[x]
        forbidden = 0
        for y in chosen:
            forbidden |= row[y]
        chosen.append(x)
        total += _count(deck, chosen, allowed & ~forbidden, need - 1)
        chosen.pop()
    return total


def count_set_free(size: int, deck: str | Iterable[Card | str] = "full", *, progress: bool = True) -> int:
    """The exact number of tables of ``size`` cards from ``deck`` with no SET among them.

    ``deck`` is ``"full"`` (81 cards), ``"mini"`` (the 27 red cards) or a
    list of cards. For the mini deck every size takes a moment; for the full
    deck size 8 takes about a second, and each size more about ten times as
    long: size 12 takes an hour or more. A size larger than the largest
    SET-free table of the deck (20 cards in the full deck, 9 in the mini deck,
    from the largest in each dimension) is answered at once: 0.

    A count expected to take more than a few seconds shows a progress bar,
    whose label says roughly how long the whole count takes (a rough estimate,
    from a few thousand random paths through the search) and whose end time
    is updated as it goes; ``progress=False`` shows none. Ctrl-C (or the
    notebook's stop button) stops a long count: the bar is closed and a
    KeyboardInterrupt says how far the count got.

    **The method.** Count, in two ways, the pairs (table, three of its cards):
    a SET-free table of ``size`` cards holds ``C(size, 3)`` triples, none of
    them a SET. On the other side, every triple that is not a SET looks the
    same: an affine map of the space (a relabelling of the features' values
    that keeps SETs as SETs) takes any such triple to any other, and carries
    SET-free tables to SET-free tables. So every non-SET triple lies in the
    same number ``T`` of SET-free tables, and::

        tables * C(size, 3) = (non-SET triples) * T

    ``T`` is found by listing only the tables that contain one fixed
    non-SET triple, which is ``C(size, 3) / (non-SET triples)`` of the work
    of listing them all. With 81 cards there are ``C(81, 3) - 1080 = 84240``
    non-SET triples, so an 8-card count lists about 1 table in 1500.
    This needs a deck in which the third card of any two cards is in the
    deck too (the full deck, the mini deck, the 9 cards sharing two
    features); for any other list of cards every table is listed.

    >>> count_set_free(3), count_set_free(4)
    (84240, 1579500)
    >>> [count_set_free(n, deck="mini") for n in range(11)]
    [1, 27, 351, 2808, 14742, 50544, 107406, 126360, 63180, 2106, 0]
    """
    layout = _Deck(deck)
    n = _inputs.whole_number(size, "size", example="8")
    if n < 0:
        raise ValueError(f"size must be 0 or more cards; got {_inputs.short(n)}")
    progress = _inputs.true_or_false(progress, "progress")
    if n > layout.most:
        return 0  # no table of this many cards of the deck is SET-free
    if n < 3:
        return math.comb(layout.size, n)
    if layout.basis is None or len(layout.basis) < 3:
        return _count_from(layout, [], layout.all, n, progress)
    triple = layout.basis[:3]
    # The three are not a SET: no basis point lies in the span of the ones before it.
    per_triple = _count_from(layout, list(triple), layout.start(triple), n - 3, progress, n)
    lines = layout.size * (layout.size - 1) // 6
    non_sets = math.comb(layout.size, 3) - lines
    total, rest = divmod(non_sets * per_triple, math.comb(n, 3))
    assert rest == 0, "the symmetry makes the count a whole number"
    return total


def _count_from(
    deck: _Deck, chosen: list[int], allowed: int, need: int, progress: bool, size: int | None = None
) -> int:
    """:func:`_count`, with a progress bar and an estimate of its time when it takes long."""
    if need == 0:
        return 1
    if need == 1 or not progress:
        return _count(deck, chosen, allowed, need)
    size = len(chosen) + need if size is None else size
    rng = random.Random(size)  # the same estimate, and the same choice of a bar, each time
    if _SECONDS_PER_STEP * _steps(deck, chosen, allowed, need, rng, 200) < _QUIET_SECONDS:
        return _count(deck, chosen, allowed, need)
    # The same as _count, one first card at a time; the bar moves by each one's estimated share.
    branches = []
    for x in _bits(allowed):
        forbidden = 0
        for y in chosen:
            forbidden |= deck.third[x][y]
        branch = ([*chosen, x], allowed & ~((2 << x) - 1) & ~forbidden)
        branches.append((branch, _steps(deck, *branch, need - 1, rng, 40)))
    steps = sum(weight for _, weight in branches)
    from tqdm.auto import tqdm

    label = f"tables of {size} cards, roughly {_duration(steps * _SECONDS_PER_STEP)} in all"
    bar = tqdm(total=steps, desc=label, unit=" steps", unit_scale=True)
    total = done = 0
    try:
        for (picked, rest), weight in branches:
            total += _count(deck, picked, rest, need - 1)
            done += weight
            bar.update(weight)
    except KeyboardInterrupt:
        raise KeyboardInterrupt(
            f"count_set_free({size}) was stopped after about {done / steps:.0%} of its count; "
            "it gives no number for part of the tables"
        ) from None
    finally:
        bar.close()
    return total


def _steps(deck: _Deck, chosen: list[int], allowed: int, need: int, rng: random.Random, probes: int) -> float:
    """An estimate of the calls :func:`_count` makes, from random paths down its search (Knuth, 1975).

    Each path picks one card at random at each level; the product of the choices met on the way
    is an unbiased guess at the calls at that depth, and the mean over ``probes`` paths is
    the estimate. Rough: it can be off by a few times.
    """
    total = 0.0
    for _ in range(probes):
        weight, mask, picked, left = 1.0, allowed, list(chosen), need
        while True:
            total += weight
            options = _bits(mask)
            if left == 1 or len(options) < left:
                break
            x = options[rng.randrange(len(options))]
            weight *= len(options)
            for y in picked:
                mask &= ~deck.third[x][y]
            picked.append(x)
            mask &= ~((2 << x) - 1)  # the next card lies above this one, as in _count
            left -= 1
    return total / probes


def _duration(seconds: float) -> str:
    """A time as people say it, rounded: "40 seconds", "3 minutes", "2 hours", "5 days"."""
    for unit, length in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= 1.5 * length:
            return _words.count(round(seconds / length), unit)
    return _words.count(max(round(seconds), 1), "second")


def largest_set_free(
    deck: str | Iterable[Card | str] = "full",
    *,
    seed: int | random.Random | None = 0,
    progress: bool = True,
    seconds: float | None = None,
) -> list[Card]:
    """A largest table of cards from ``deck`` without a SET, found by search.

    Branch and bound: cards are added one at a time, each new card rules out
    the third card of every pair it makes, and a branch is dropped as soon as
    the cards still allowed could not make a larger table than the best found.
    In an affine deck (full, mini, or 9 cards sharing two features) a largest
    SET-free table spans the whole deck, so it holds points in general
    position that an affine map takes to any others: the search may start from
    a fixed such basis (1 + the dimension cards) without missing anything.

    For the 9- and 27-card decks the search is complete: it proves that 4 and
    9 are the most. For the full deck it stops as soon as it finds 20 cards,
    because 21 cards always hold a SET (Pellegrino, 1970: the largest cap in
    AG(4, 3) has 20 points); proving that by this search would take far too
    long. The search of any other list of cards stops at 20 cards too.
    ``seed`` orders the cards tried, so another seed may find another table;
    ``seconds`` stops the search early, returning the best found.

    >>> len(largest_set_free("mini", progress=False))
    9
    """
    layout = _Deck(deck)
    rng, _ = _inputs.rng_and_seed(seed)
    limit = _inputs.seconds(seconds, "seconds")  # None: no limit
    progress = _inputs.true_or_false(progress, "progress")
    # The proven most: 21 cards of the full deck always hold a SET, so do 21 of any of its cards.
    enough = min(layout.size, MOST_WITHOUT_SET)
    start = list(layout.basis) if layout.basis is not None else []
    search = _Search(layout, enough, None if limit is None else time.monotonic() + limit)
    order = _bits(layout.start(start))
    rng.shuffle(order)
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(order), desc="largest SET-free table", unit="branch")
    try:
        search.run(start, order, bar)
    finally:
        if bar is not None:
            bar.close()
    return sorted(layout.cards[x] for x in search.best)


class _Search:
    def __init__(self, deck: _Deck, enough: int, deadline: float | None) -> None:
        self.deck, self.enough, self.deadline = deck, enough, deadline
        self.best: list[int] = []
        self.nodes = 0

    def run(self, chosen: list[int], order: list[int], bar: Any) -> None:
        self.best = list(chosen)
        allowed = self.deck.start(chosen)
        for n, x in enumerate(order):
            if len(self.best) >= self.enough or self._late():
                break
            # Cards tried earlier at this level are left out: tables holding them were searched.
            later = 0
            for y in order[n + 1 :]:
                later |= 1 << y
            self._grow(chosen + [x], allowed & later & self._allowed_after(chosen, x))
            if bar is not None:
                bar.update(1)
                bar.set_postfix(best=len(self.best))

    def _allowed_after(self, chosen: list[int], x: int) -> int:
        forbidden = 0
        for y in chosen:
            forbidden |= self.deck.third[x][y]
        return ~forbidden

    def _late(self) -> bool:
        return self.deadline is not None and time.monotonic() > self.deadline

    def _grow(self, chosen: list[int], allowed: int) -> None:
        if len(chosen) > len(self.best):
            self.best = list(chosen)
        if len(self.best) >= self.enough:
            return
        self.nodes += 1
        if self.nodes % 4096 == 0 and self._late():
            self.enough = len(self.best)  # time is up: stop every branch
            return
        third = self.deck.third
        while allowed and len(chosen) + allowed.bit_count() > len(self.best):
            low = allowed & -allowed
            x = low.bit_length() - 1
            allowed ^= low
            forbidden = 0
            for y in chosen:
                forbidden |= third[x][y]
            chosen.append(x)
            self._grow(chosen, allowed & ~forbidden)
            chosen.pop()
            if len(self.best) >= self.enough:
                return
