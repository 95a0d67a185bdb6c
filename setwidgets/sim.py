"""Many tables and many whole games at once: the simulation engine, on numpy arrays.

How often does a table of 12 have no SET? In a random deal, and in real play?
How many SETs lie among 12 cards? Questions like these are answered by
playing or dealing a great many times, and this module does it fast: cards
are the integers 0 to 80 (their index in :func:`~setwidgets.cards.full_deck`),
the third card of every pair is looked up in a table
(:data:`setwidgets.rules.THIRD`), and a whole batch of tables or games moves
in lockstep as numpy arrays, not one Python object at a time.

Random tables::

    >>> from setwidgets import sim
    >>> tables = sim.deal_tables(5, 12, seed=1)
    >>> tables.shape
    (5, 12)
    >>> sim.count_sets_many(tables).tolist()
    [0, 1, 2, 3, 4]
    >>> sim.has_set_many(tables).tolist()
    [False, True, True, True, True]

Whole games, played to the end with the rules of :class:`~setwidgets.game.Game`::

    >>> tally = sim.play(2000, seed=1, progress=False)
    >>> tally.games, tally.tables[12] > 40000
    (2000, True)
    >>> rate, low, high = tally.rate(12)
    >>> 0.05 < low < rate < high < 0.07
    True

``print(tally)`` shows a summary a student can read; ``tally.plot()`` draws the
no-SET rate of each table size with its 95% interval.

How a game is played: the same way as :class:`~setwidgets.game.Game` with a
player who always takes the SET the *policy* picks, and says "no SET" when
there is none. The table keeps Game's layout exactly: 12 cards (9 for the mini
deck), taken cards replaced in place from the deck while the table has at most
12, no replacement above 12 (the last cards on the table move into the gaps),
three more when there is no SET, and each variant's own rule for a table
without a SET. With ``policy="first"`` the SET taken is
:func:`~setwidgets.rules.first_set` of the table in Game's order, so
``play(n, seed=s, like_game=True, keep_sets=True)`` takes the very SETs, in the
same order, that Game(seed=s + i) does when driven by first_set.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from setwidgets import _inputs, _words, variants
from setwidgets.cards import Card
from setwidgets.game import _deck_cards
from setwidgets.rules import THIRD

__all__ = ["POLICIES", "Tally", "count_sets_many", "deal_tables", "has_set_many", "play", "wilson"]

POLICIES: tuple[str, ...] = ("first", "random")
"""Which SET a simulated player takes: the first in find_sets' order, or one at random."""

EMPTY = 81
"""The number that stands for "no card" in a table array (cards are 0 to 80)."""

_W = 82  # rows of the lookup tables: the 81 cards and EMPTY
# The numpy form of rules.THIRD, one row more for EMPTY: the third card of EMPTY and anything is EMPTY,
# which is never on a table, so a gap in a table array never makes a SET.
_THIRD = np.full((_W, _W), EMPTY, dtype=np.intp)
_THIRD[:81, :81] = np.frombuffer(THIRD, dtype=np.uint8).reshape(81, 81)
_THIRD_FLAT = _THIRD.ravel()

_BATCH = 4096  # games or tables in one lockstep batch: big enough for numpy, small enough for the cache
_MOST_WITHOUT_SET = variants.MOST_WITHOUT_SET


def _pairs(width: int) -> tuple[np.ndarray, np.ndarray]:
    """The positions (i, j), i < j < width, in find_sets' order: (0, 1), (0, 2), ..., (1, 2), ..."""
    i, j = zip(*itertools.combinations(range(width), 2)) if width > 1 else ((), ())
    return np.array(i, dtype=np.intp), np.array(j, dtype=np.intp)


_PAIRS = {w: _pairs(w) for w in range(82)}


def _deck_indices(deck: Any) -> tuple[np.ndarray, str]:
    """The deck as full-deck indices in Game's order, and its name (checked as Game checks it)."""
    cards = _deck_cards(deck)
    name = deck.strip().lower() if isinstance(deck, str) else f"{len(cards)}-card"
    return np.array([c.index for c in cards], dtype=np.intp), name


def _generator(seed: Any) -> tuple[np.random.Generator, int | None]:
    """A numpy generator and the seed it came from (a fresh one, kept, when seed is None)."""
    if isinstance(seed, np.random.Generator):
        return seed, None
    if seed is None:
        seed = random.SystemRandom().getrandbits(32)
    elif not _inputs.is_whole(seed):
        raise TypeError(f"seed must be a whole number, a numpy Generator or None; got {_inputs.what(seed)}")
    elif int(seed) < 0:
        raise ValueError(f"seed must be a whole number 0 or more; got {seed}")
    return np.random.default_rng(int(seed)), int(seed)


# -- random tables -------------------------------------------------------------------------------


def deal_tables(
    n: int, size: int, *, deck: str | Iterable[Card | str] = "full", seed: Any = None
) -> np.ndarray:
    """``n`` random tables of ``size`` different cards: an ``(n, size)`` array of card indices.

    Each row is a uniformly random choice of ``size`` cards from the deck
    (``"full"``, ``"mini"`` or a list of cards), in random order. A card's
    number is its index in :func:`~setwidgets.cards.full_deck`.

    >>> table = deal_tables(1, 3, seed=7)[0]
    >>> table.tolist()
    [1, 50, 53]
    >>> from setwidgets import full_deck
    >>> [full_deck()[i].code for i in table]
    ['1RTO', '2POS', '2POD']
    """
    count = _inputs.whole_number(n, "n", example="1000")
    cards, _ = _deck_indices(deck)
    width = _inputs.whole_number(size, "size", example="12")
    if count < 0:
        raise ValueError(f"n must be 0 or more tables; got {count}")
    if not 0 <= width <= len(cards):
        raise ValueError(f"size must be from 0 to {len(cards)}, the cards in the deck; got {width}")
    rng, _ = _generator(seed)
    out = np.empty((count, width), dtype=np.intp)
    for start in range(0, count, _BATCH):
        rows = min(_BATCH, count - start)
        out[start : start + rows] = rng.permuted(np.tile(cards, (rows, 1)), axis=1)[:, :width]
    return out


def _as_tables(tables: Any) -> np.ndarray:
    """A 2-d array of card indices, checked: 0 to 80, no card twice in a row."""
    if isinstance(tables, (str, bytes, bytearray)):
        raise TypeError(
            f"tables must be an array of card indices, one table a row; got {_inputs.what(tables)}"
        )
    array = np.asarray(tables)
    if array.ndim == 1:
        array = array[None, :]
    if array.ndim != 2 or not (array.dtype.kind in "iu" or array.size == 0):
        raise TypeError(
            "tables must be a 2-d array of card indices 0 to 80, one table a row, like "
            f"deal_tables(1000, 12); got {_inputs.short(array)} of shape {array.shape}"
        )
    array = array.astype(np.intp, copy=False)
    if array.size and (array.min() < 0 or array.max() > 80):
        raise ValueError(f"card indices are 0 to 80; got {array.min() if array.min() < 0 else array.max()}")
    return array


def _checked_presence(tables: np.ndarray, first_row: int = 0) -> np.ndarray:
    """:func:`_presence` of tables given by a user: a table holding a card twice is refused."""
    present = _presence(tables)
    # A card given twice marks one place for two: fewer marks than cards.
    if np.count_nonzero(present) != tables.size:
        marks = present.reshape(len(tables), _W).sum(axis=1)
        row = int(np.flatnonzero(marks != tables.shape[1])[0])
        raise ValueError(f"table {first_row + row} holds a card twice: {tables[row].tolist()}")
    return present


def _present_pairs(
    tables: np.ndarray, present: np.ndarray, base: np.ndarray, first: np.ndarray, second: np.ndarray
) -> np.ndarray:
    """For each table and each pair of positions (``first``, ``second``), whether its third card is there.

    ``present`` is a flat array: ``present[base[r] + card]`` is True when ``card`` lies on the
    table of row ``r``. Each SET shows up once for each of its three pairs.
    """
    third = _THIRD_FLAT.take(tables.take(first, axis=1) * _W + tables.take(second, axis=1))
    third += base[:, None]
    return present.take(third)


def _first_pairs(
    tables: np.ndarray, present: np.ndarray, base: np.ndarray, rng: np.random.Generator | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Whether each table holds a SET, and the positions (i, j) of one pair of it.

    Without ``rng``: the first pair in find_sets' order whose third card is present. That pair
    belongs to the first SET in that order (an earlier pair of the same SET would have been
    met first), so the SET's third card lies after j. The pairs of the first two cards come
    first in that order, and settle most tables, so only the others look at the rest.
    With ``rng``: a pair chosen at random among those whose third card is present; each SET
    has three pairs, so this is a uniformly random SET.
    """
    first, second = _PAIRS[tables.shape[1]]
    if not len(first):
        nothing = np.zeros(len(tables), dtype=np.intp)
        return nothing.astype(np.bool_), nothing, nothing
    if rng is not None:
        hits = _present_pairs(tables, present, base, first, second)
        column = (hits * rng.random(hits.shape)).argmax(axis=1)
        return hits.any(axis=1), first[column], second[column]
    head = min(len(first), 2 * tables.shape[1] - 3)
    hits = _present_pairs(tables, present, base, first[:head], second[:head])
    column = hits.argmax(axis=1)
    found = hits.ravel().take(np.arange(len(hits)) * hits.shape[1] + column)
    rest = np.flatnonzero(~found)
    if len(rest) and head < len(first):
        hits = _present_pairs(tables[rest], present, base[rest], first[head:], second[head:])
        found[rest], column[rest] = hits.any(axis=1), head + hits.argmax(axis=1)
    return found, first[column], second[column]


def _presence(tables: np.ndarray) -> np.ndarray:
    """A flat array: entry 82 * r + card is True when the card lies on table r."""
    present = np.zeros(len(tables) * _W, dtype=np.bool_)
    present[(np.arange(len(tables)) * _W)[:, None] + tables] = True
    present[EMPTY::_W] = False
    return present


def count_sets_many(tables: Any) -> np.ndarray:
    """How many SETs lie on each table: one number per row of ``tables``.

    ``tables`` is an ``(n, size)`` array of card indices, such as
    :func:`deal_tables` gives. It works pair by pair, like
    :func:`~setwidgets.rules.find_sets`, on all the tables at once.

    >>> count_sets_many([[0, 1, 2, 3], [0, 1, 3, 4]]).tolist()
    [1, 0]
    """
    array = _as_tables(tables)
    out = np.zeros(len(array), dtype=np.intp)
    for start in range(0, len(array), _BATCH):
        chunk = array[start : start + _BATCH]
        # Each SET is met from each of its three pairs.
        first, second = _PAIRS[chunk.shape[1]]
        present = _checked_presence(chunk, start)
        hits = _present_pairs(chunk, present, np.arange(len(chunk)) * _W, first, second)
        out[start : start + len(chunk)] = hits.sum(axis=1) // 3
    return out


def has_set_many(tables: Any) -> np.ndarray:
    """For each table (a row of ``tables``), whether it holds at least one SET.

    >>> has_set_many(deal_tables(4, 21, seed=0)).tolist()   # 21 cards always hold a SET
    [True, True, True, True]
    """
    array = _as_tables(tables)
    out = np.zeros(len(array), dtype=np.bool_)
    for start in range(0, len(array), _BATCH):
        chunk = array[start : start + _BATCH]
        present = _checked_presence(chunk, start)
        out[start : start + len(chunk)] = _first_pairs(chunk, present, np.arange(len(chunk)) * _W)[0]
    return out


# -- the tally -----------------------------------------------------------------------------------


def wilson(hits: int, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval for a rate of ``hits`` out of ``trials`` (95% by default).

    >>> low, high = wilson(60, 1000)
    >>> round(low, 4), round(high, 4)
    (0.0469, 0.0765)
    """
    if trials <= 0:
        return 0.0, 1.0
    if hits == 0:
        return 0.0, z * z / (trials + z * z)  # the closed form, without rounding below zero
    if hits == trials:
        return trials / (trials + z * z), 1.0
    p = hits / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


@dataclass
class Tally:
    """What :func:`play` saw: games, tables by size, tables without a SET, cards left, SETs kept.

    - ``games``: games played to the end;
    - ``tables[size]``: tables of that size looked at during play, after every
      deal and every SET taken, while cards were left in the deck (the last
      tables of a game, dealt from no deck, are left out, as in the published
      figures);
    - ``no_set[size]``: how many of them had no SET;
    - ``left[n]``: games that ended with ``n`` cards not taken (on the table
      and, when no SET could be made any more, in the deck);
    - ``sets[n]``: games in which ``n`` SETs were taken;
    - ``lost``: solitaire games lost (a full table without a SET);
    - ``interrupted``: True when the run was stopped before the end (Ctrl-C):
      the tally holds the games finished by then;
    - ``taken``: with ``keep_sets=True``, the SETs of each game in the order
      taken, as triples of card indices; otherwise None.

    :meth:`rate` gives the no-SET rate of a table size with its 95%
    confidence interval; :meth:`plot` draws them all.
    """

    variant: str
    deck: str
    policy: str
    seed: int | None
    games: int = 0
    tables: Counter = field(default_factory=Counter)
    no_set: Counter = field(default_factory=Counter)
    left: Counter = field(default_factory=Counter)
    sets: Counter = field(default_factory=Counter)
    lost: int = 0
    interrupted: bool = False
    seconds: float = 0.0
    taken: list[list[tuple[int, int, int]]] | None = None

    def rate(self, size: int) -> tuple[float, float, float]:
        """The share of tables of ``size`` cards without a SET, and its 95% Wilson interval.

        Returns ``(rate, low, high)``; a size never seen gives ``(nan, 0.0, 1.0)``.
        """
        seen, none = self.tables.get(size, 0), self.no_set.get(size, 0)
        low, high = wilson(none, seen)
        return (none / seen if seen else math.nan), low, high

    def rates(self) -> dict[int, tuple[float, float, float]]:
        """:meth:`rate` for every table size seen, smallest first."""
        return {size: self.rate(size) for size in sorted(self.tables)}

    @property
    def mean_sets(self) -> float:
        """SETs taken per game, on average."""
        return sum(n * g for n, g in self.sets.items()) / self.games if self.games else math.nan

    def __repr__(self) -> str:
        head = (
            f"Tally: {_words.count(self.games, 'game')} of {self.variant} SET "
            f"({self.deck} deck, {self.policy} SET taken, seed {self.seed})"
        )
        if self.interrupted:
            head += ", interrupted: only the games finished before the stop are counted"
        lines = [head]
        if self.games:
            lines.append(f"  SETs per game: {self.mean_sets:.2f} on average")
            shares = ", ".join(
                f"{n} ({g / self.games:.0%})" if g >= self.games / 100 else f"{n} ({_words.count(g, 'game')})"
                for n, g in sorted(self.left.items())
                if g
            )
            lines.append(f"  cards left at the end: {shares}")
            if self.variant == "solitaire":
                lines.append(f"  lost: {self.lost} ({self.lost / self.games:.1%})")
        lines.append("  tables looked at while cards were left in the deck:")
        lines.append("  cards  tables seen  without a SET  rate    95% interval")
        for size, (rate, low, high) in self.rates().items():
            lines.append(
                f"  {size:>5}  {self.tables[size]:>11}  {self.no_set[size]:>13}  "
                f"{rate:>6.2%}  {low:.2%} to {high:.2%}"
            )
        return "\n".join(lines)

    def plot(self, ax: Any = None) -> Any:
        """A bar chart of the no-SET rate for each table size, with 95% intervals; returns the axes.

        ``ax`` is a matplotlib axes to draw on (a new figure when None).
        """
        import matplotlib.pyplot as plt  # only a plot needs matplotlib

        if ax is None:
            _, ax = plt.subplots(figsize=(6, 3.5))
        rates = self.rates()
        sizes = list(rates)
        values = [100 * rates[s][0] for s in sizes]
        below = [100 * (rates[s][0] - rates[s][1]) for s in sizes]
        above = [100 * (rates[s][2] - rates[s][0]) for s in sizes]
        ax.bar([str(s) for s in sizes], values, yerr=[below, above], capsize=4, color="#6a8caf")
        ax.set_xlabel("cards on the table")
        ax.set_ylabel("tables without a SET (%)")
        ax.set_title(f"{self.variant} SET, {_words.count(self.games, 'game')}, {self.policy} SET taken")
        return ax


# -- whole games ---------------------------------------------------------------------------------


class _Batch:
    """A batch of games in lockstep: tables, decks and what has been seen, as arrays."""

    def __init__(
        self,
        orders: np.ndarray,
        table_size: int,
        rule: str,
        policy: str,
        rng: np.random.Generator,
        shufflers: dict[int, random.Random],
        seeds: np.ndarray,
        keep: bool,
        sure: int,
    ) -> None:
        count, decksize = orders.shape
        self.orders, self.size, self.rule, self.policy, self.rng = orders, table_size, rule, policy, rng
        self.shufflers, self.seeds = shufflers, seeds
        # A table never holds more than 21 cards (20 is the most without a SET), nor more than the deck.
        self.width = min(decksize, max(table_size + 3, _MOST_WITHOUT_SET + 1))
        self.table = np.full((count, self.width), EMPTY, dtype=np.intp)
        first = min(table_size, decksize)
        self.table[:, :first] = orders[:, :first]
        self.length = np.full(count, first, dtype=np.intp)
        self.next = np.full(count, first, dtype=np.intp)  # the next card to deal, in orders
        self.present = np.zeros((count, _W), dtype=np.bool_)
        np.put_along_axis(self.present, self.table, True, axis=1)
        self.present[:, EMPTY] = False
        self.flat = self.present.ravel()  # a view: writes through either reach the same memory
        # Each card's position on its table (stale for cards no longer there: they are never looked up).
        self.where = np.zeros(count * _W, dtype=np.intp)
        self._locate(np.arange(count))
        self.active = np.ones(count, dtype=np.bool_)
        self.left = np.zeros(count, dtype=np.intp)
        self.lost = np.zeros(count, dtype=np.bool_)
        self.seen = np.zeros(self.width + 1, dtype=np.int64)
        self.none = np.zeros(self.width + 1, dtype=np.int64)
        self.taken: list[list[tuple[int, int, int]]] | None = [[] for _ in range(count)] if keep else None
        # Any this many cards hold a SET (a cap of the deck has fewer), so the game goes on.
        self.sure = sure

    # one round: every game still playing looks at its table and acts
    def step(self) -> None:
        rows = np.flatnonzero(self.active)
        tables, length = self.table[rows], self.length[rows]
        found, i, j = self._first(tables, length, rows)
        # Tables in play: cards still in the deck (the last tables of a game are not random draws).
        dealing = self.next[rows] < self.orders.shape[1]
        self.seen += np.bincount(length[dealing], minlength=self.width + 1)
        self.none += np.bincount(length[dealing & ~found], minlength=self.width + 1)
        if found.all():
            self._take(rows, tables, i, j)
            return
        self._take(rows[found], tables[found], i[found], j[found])
        self._no_set(rows[~found])

    def _first(
        self, tables: np.ndarray, length: np.ndarray, rows: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Whether each table has a SET, and the positions (i, j) of the pair taken."""
        rng = self.rng if self.policy == "random" else None
        small = min(self.size, self.width)
        base = rows * _W
        found, i, j = _first_pairs(tables[:, :small], self.flat, base, rng)
        big = np.flatnonzero(length > small)
        if len(big):
            # Tables above the usual size, a few: the same on all their columns.
            found[big], i[big], j[big] = _first_pairs(tables[big], self.flat, base[big], rng)
        return found, i, j

    def _take(self, rows: np.ndarray, tables: np.ndarray, i: np.ndarray, j: np.ndarray) -> None:
        """Each game of ``rows`` takes the SET through (i, j), exactly as Game.claim lays out the rest."""
        if not len(rows):
            return
        width = self.width
        line = np.arange(len(rows)) * width
        flat_tables = tables.ravel()
        c = _THIRD_FLAT.take(flat_tables.take(line + i) * _W + flat_tables.take(line + j))
        base = rows * _W
        k = self.where.take(base + c)
        positions = np.stack([i, j, k], axis=1)
        if self.policy == "random":
            positions.sort(axis=1)  # the first SET's pair comes before its third card already
        cards = flat_tables.take(line[:, None] + positions)
        if self.taken is not None:
            for g, triple in zip(rows.tolist(), cards.tolist()):
                self.taken[g].append(tuple(triple))
        self.flat[base[:, None] + cards] = False
        length, nxt = self.length[rows], self.next[rows]
        remaining = self.orders.shape[1] - nxt
        # Game.claim: replaced from the deck only up to the usual table size.
        fill = np.minimum(np.clip(self.size - (length - 3), 0, 3), remaining)
        full = fill == 3
        if full.all():
            self._replace(rows, positions, nxt)
        else:
            self._replace(rows[full], positions[full], nxt[full])
            self._shrink(rows[~full], positions[~full], fill[~full])

    def _replace(self, rows: np.ndarray, positions: np.ndarray, nxt: np.ndarray) -> None:
        """Three new cards from the deck into the three gaps."""
        decksize = self.orders.shape[1]
        new = self.orders.ravel().take((rows * decksize + nxt)[:, None] + np.arange(3))
        self.table.ravel()[(rows * self.width)[:, None] + positions] = new
        spot = (rows * _W)[:, None] + new
        self.flat[spot] = True
        self.where.ravel()[spot] = positions
        self.next[rows] += 3

    def _shrink(self, rows: np.ndarray, positions: np.ndarray, fill: np.ndarray) -> None:
        """Game._remove: ``fill`` new cards into the first gaps; the last cards move into the other gaps.

        The k-th gap left (in table order) inside the shorter table gets the k-th card that
        lies beyond its end, as in Game; everything works on three columns per game.
        """
        three = np.arange(3)
        decksize, width = self.orders.shape[1], self.width
        spots = (rows * width)[:, None] + positions
        table = self.table.ravel()
        new = three < fill[:, None]
        if new.any():
            g, n = np.nonzero(new)
            cards = self.orders.ravel().take(rows[g] * decksize + self.next[rows[g]] + n)
            table[spots[g, n]] = cards
            self.flat[rows[g] * _W + cards] = True
            self.where[rows[g] * _W + cards] = positions[g, n]
        gone = 3 - fill
        size = self.length[rows] - gone
        rest = ~new
        hole = rest & (positions < size[:, None])
        beyond = size[:, None] + three
        taken = ((beyond[:, :, None] == positions[:, None, :]) & rest[:, None, :]).any(axis=2)
        tail = (three < gone[:, None]) & ~taken
        hole_rank, tail_rank = hole.cumsum(axis=1), tail.cumsum(axis=1)
        for n in range(3):
            move = np.flatnonzero(hole[:, n])
            if len(move):
                m = (tail[move] & (tail_rank[move] == hole_rank[move, n : n + 1])).argmax(axis=1)
                cards = table.take((rows[move] * width) + beyond[move, m])
                table[spots[move, n]] = cards
                self.where[rows[move] * _W + cards] = positions[move, n]
        # The table ends at its new size.
        g, n = np.nonzero(three < gone[:, None])
        table[rows[g] * width + beyond[g, n]] = EMPTY
        self.length[rows] = size
        self.next[rows] += fill

    def _locate(self, rows: np.ndarray) -> None:
        """Write down where each card of these tables lies."""
        self.where[(rows * _W)[:, None] + self.table[rows]] = np.arange(self.width)

    def _no_set(self, rows: np.ndarray) -> None:
        """No SET on these tables: the game ends, or the variant deals (Game._settle and Game.no_set)."""
        length, nxt = self.length[rows], self.next[rows]
        remaining = self.orders.shape[1] - nxt
        goes_on = length + remaining >= self.sure
        unsure = np.flatnonzero(~goes_on)
        if len(unsure):
            goes_on[unsure] = self._union_has_set(rows[unsure])
        if self.rule == "solitaire":
            goes_on[:] = False
        ending = rows[~goes_on]
        if len(ending):
            self.active[ending] = False
            self.left[ending] = self.length[ending] + self.orders.shape[1] - self.next[ending]
            self.lost[ending] = self.length[ending] >= self.size
        deal = rows[goes_on]
        if self.rule == "competition" and len(deal):
            back = self.length[deal] >= self.size + 3
            for g in deal[back].tolist():
                self._send_back(g)
            deal = deal[~back]
        if len(deal):
            self._deal_three(deal)

    def _union_has_set(self, rows: np.ndarray) -> np.ndarray:
        """Whether the cards on the table and in the deck together still hold a SET (fewer than 21)."""
        orders = self.orders[rows]
        left = np.arange(orders.shape[1]) >= self.next[rows][:, None]
        cards = np.concatenate([self.table[rows], np.where(left, orders, EMPTY)], axis=1)
        # The cards first, the gaps after (a stable sort keeps their order), then as many columns
        # as a table without a SET can have.
        cards = np.take_along_axis(cards, np.argsort(cards == EMPTY, axis=1, kind="stable"), axis=1)
        union = cards[:, : self.sure - 1]
        return _first_pairs(union, _presence(union), np.arange(len(union)) * _W)[0]

    def _deal_three(self, rows: np.ndarray) -> None:
        deck = self.orders.shape[1]
        length, nxt = self.length[rows], self.next[rows]
        count = np.minimum(3, deck - nxt)
        for n in range(3):
            put = n < count
            g = rows[put]
            card = self.orders[g, nxt[put] + n]
            self.table[g, length[put] + n] = card
            self.flat[g * _W + card] = True
            self.where[g * _W + card] = length[put] + n
        self.length[rows] += count
        self.next[rows] += count

    def _send_back(self, g: int) -> None:
        """Competition, 15 cards without a SET: Game._send_back(6, deal=3), with the game's own generator."""
        shuffler = self.shufflers.get(g)
        if shuffler is None:
            # Outside like_game, a game's own generator is made when it first needs one.
            shuffler = self.shufflers[g] = random.Random(int(self.seeds[g]))
        length, nxt, decksize = int(self.length[g]), int(self.next[g]), self.orders.shape[1]
        table = self.table[g, :length].tolist()
        positions = sorted(shuffler.sample(range(length), 6))
        deck = self.orders[g, nxt:].tolist() + [table[p] for p in positions]
        shuffler.shuffle(deck)
        for p, card in zip(positions, deck[:3]):
            table[p] = card
        deck = deck[3:]
        rest = positions[3:]
        size = length - len(rest)
        holes = [p for p in rest if p < size]
        tail = [q for q in range(size, length) if q not in rest]
        for hole, q in zip(holes, tail):
            table[hole] = table[q]
        del table[size:]
        self.orders[g, decksize - len(deck) :] = deck
        self.next[g] = decksize - len(deck)
        self.table[g] = EMPTY
        self.table[g, :size] = table
        self.present[g] = False
        self.present[g, table] = True
        self.length[g] = size
        self._locate(np.array([g]))


def play(
    games: int,
    *,
    variant: str = "standard",
    deck: str | Iterable[Card | str] = "full",
    policy: str = "first",
    seed: Any = None,
    progress: bool = True,
    like_game: bool = False,
    keep_sets: bool = False,
) -> Tally:
    """Play ``games`` whole games of SET to the end and return a :class:`Tally` of what was seen.

    The games follow the rules of :class:`~setwidgets.game.Game`:

    - ``variant``: ``"standard"``, ``"solitaire"``, ``"online"`` or ``"competition"``;
    - ``deck``: ``"full"`` (12 cards on the table), ``"mini"`` (the 27 red
      cards, 9 on the table) or a list of cards;
    - ``policy``: which SET the player takes: ``"first"``, the first in
      :func:`~setwidgets.rules.find_sets`' order (that is
      :func:`~setwidgets.rules.first_set` of the table, in Game's layout), or
      ``"random"``, a uniformly random SET of the table;
    - ``seed``: a whole number for a repeatable run (None: a fresh one,
      kept in the tally so the run can be repeated);
    - ``progress``: show a progress bar (in a notebook and in a terminal);
    - ``like_game``: deal game ``i`` exactly as ``Game(seed=seed + i)`` does
      (slower; for checking the engine against Game);
    - ``keep_sets``: keep the SETs of every game in ``tally.taken``.

    Ctrl-C (or the notebook's stop button) stops the run cleanly: the tally
    then holds the games finished so far and says it was interrupted.

    >>> tally = play(200, variant="solitaire", seed=3, progress=False)
    >>> tally.games, 0 < tally.lost < 200
    (200, True)
    """
    count = _inputs.whole_number(games, "games", example="10000")
    if count < 0:
        raise ValueError(f"games must be 0 or more; got {count}")
    if not isinstance(variant, str) or variant.strip().lower() not in variants.VARIANTS:
        known = ", ".join(map(repr, variants.VARIANTS))
        raise (TypeError if not isinstance(variant, str) else ValueError)(
            f"variant must be one of {known}; got {_inputs.short(variant)}"
        )
    if not isinstance(policy, str) or policy.strip().lower() not in POLICIES:
        raise (TypeError if not isinstance(policy, str) else ValueError)(
            f"policy must be 'first' or 'random'; got {_inputs.short(policy)}"
        )
    rule, how = variant.strip().lower(), policy.strip().lower()
    cards, deck_name = _deck_indices(deck)
    table_size = 12 if len(cards) > 27 else 9
    if like_game and seed is None:
        seed = random.SystemRandom().getrandbits(32)
    if like_game and not _inputs.is_whole(seed):
        raise TypeError(f"like_game=True needs a whole-number seed, as Game takes; got {_inputs.what(seed)}")
    rng, seed_used = _generator(seed)
    # Any this many cards hold a SET: 21 in the full deck, 10 in a mini deck (its largest cap is 9).
    sure = 10 if deck_name == "mini" else min(_MOST_WITHOUT_SET + 1, len(cards) + 1)
    tally = Tally(rule, deck_name, how, seed_used, taken=[] if keep_sets else None)
    bar = _progress_bar(count, progress)
    start = time.perf_counter()
    try:
        done = 0
        while done < count:
            size = min(_BATCH, count - done)
            shufflers: dict[int, random.Random] = {}
            if like_game:
                rows = []
                for i in range(size):
                    # Game(seed=...) shuffles its list of cards with random.Random(seed), then keeps
                    # using that generator (competition sends cards back with it).
                    shufflers[i] = random.Random(seed_used + done + i)
                    order = cards.tolist()
                    shufflers[i].shuffle(order)
                    rows.append(order)
                orders = np.array(rows, dtype=np.intp).reshape(size, len(cards))
            else:
                orders = rng.permuted(np.tile(cards, (size, 1)), axis=1)
            seeds = rng.integers(2**32, size=size)
            batch = _Batch(orders, table_size, rule, how, rng, shufflers, seeds, keep_sets, sure)
            while batch.active.any():
                batch.step()
            _add(tally, batch)
            done += size
            if bar is not None:
                bar.update(size)
    except KeyboardInterrupt:
        tally.interrupted = True
    finally:
        if bar is not None:
            bar.close()
        tally.seconds = time.perf_counter() - start
    return tally


def _add(tally: Tally, batch: _Batch) -> None:
    tally.games += len(batch.left)
    for size in np.flatnonzero(batch.seen).tolist():
        tally.tables[size] += int(batch.seen[size])
        tally.no_set[size] += int(batch.none[size])
    tally.left.update(batch.left.tolist())
    # Cards leave a game only in SETs, so the SETs taken are the cards not left, in threes.
    tally.sets.update(((batch.orders.shape[1] - batch.left) // 3).tolist())
    tally.lost += int(batch.lost.sum()) if tally.variant == "solitaire" else 0
    if tally.taken is not None and batch.taken is not None:
        tally.taken.extend(batch.taken)


def _progress_bar(total: int, progress: bool) -> Any:
    if not progress:
        return None
    from tqdm.auto import tqdm  # a notebook gets a widget bar, a terminal a text one

    return tqdm(total=total, unit="game", desc="playing")
