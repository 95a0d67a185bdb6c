"""Many tables and many whole games at once: the simulation engine, numpy arrays and compiled loops.

How often does a table of 12 have no SET? In a random deal, and in real play?
How many SETs lie among 12 cards? Questions like these are answered by
playing or dealing a great many times, and this module does it fast: cards
are the integers 0 to 80 (their index in :func:`~setwidgets.cards.full_deck`),
the third card of every pair is looked up in a table
(:data:`setwidgets.rules.THIRD`), a batch of tables or decks is one numpy
array, and the loops over it are compiled to machine code by numba, as fast
as a plain C program within a small factor. The first call in a session
compiles them (some seconds, once per machine: the compiled code is kept on
disk); after that a call takes milliseconds.

Random tables::

    >>> from setwidgets import sim
    >>> tables = sim.deal_tables(5, 12, seed=1)
    >>> tables.shape
    (5, 12)
    >>> sim.count_sets_many(tables).tolist()
    [1, 3, 2, 4, 3]
    >>> sim.has_set_many(tables).tolist()
    [True, True, True, True, True]

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

import math
import random
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from setwidgets import _extras, _inputs, _words, variants
from setwidgets.cards import Card
from setwidgets.game import _deck_cards
from setwidgets.rules import THIRD

np = _extras.require("numpy", "sim", "setwidgets.sim")
numba = _extras.optional("numba")

COMPILED = numba is not None
"""Whether the engine's loops run compiled by numba (else as plain Python: the same results, slower)."""

__all__ = ["POLICIES", "Tally", "count_sets_many", "deal_tables", "has_set_many", "play", "wilson"]

POLICIES: tuple[str, ...] = ("first", "random")
"""Which SET a simulated player takes: the first in find_sets' order, or one at random."""

EMPTY = 81
"""The number that stands for "no card" in a table array (cards are 0 to 80)."""

_THIRD = np.frombuffer(THIRD, dtype=np.uint8).reshape(81, 81).copy()
"""rules.THIRD as a numpy array: ``_THIRD[i, j]`` is the third card of the pair (i, j)."""

_BATCH = 4096  # games in one batch: the progress bar moves and Ctrl-C is heard between batches
_DEAL_BATCH = 1 << 16  # tables dealt from one draw of random numbers: 6 MB of them for 12 cards
_MOST_WITHOUT_SET = variants.MOST_WITHOUT_SET


# -- the compiled kernels --------------------------------------------------------------------------
#
# A table is checked, and a game played, one card at a time in loops compiled by numba: the
# work per pair of cards is a lookup in _THIRD and one in the table's own "where" array (the
# position of each card on the table, or -1), as a C program would do it. numpy draws the
# random numbers (from the run's own Generator), deals random tables and gathers the results;
# the loops below are the only home of the game's rules here.


def _compiled(func: Any) -> Any:
    """``func`` compiled by numba on its first call, the machine code kept on disk for the next session.

    Compiling takes seconds; a cached kernel loads in a fraction of one. numba keeps it beside
    this file (``__pycache__``), or in the user's cache folder when the package folder is
    read-only; when neither can be written, the kernel is compiled again in each session.
    Without numba (``setwidgets[sim]`` leaves it out where it has no build, such as Pyodide),
    ``func`` runs as it is: the same loops in plain Python, with the same results.
    """
    if numba is None:
        return func
    try:
        return numba.njit(cache=True, nogil=True)(func)
    except RuntimeError:  # numba found no folder it may write to
        return numba.njit(nogil=True)(func)


_PLAYING, _OVER, _SEND_BACK = 0, 1, 2  # a game's status between two calls of _play_games
_STANDARD, _SOLITAIRE, _COMPETITION = 0, 1, 2  # the rule for a table without a SET (online: standard)


@_compiled
def _scan_tables(tables: np.ndarray, count: bool, out: np.ndarray) -> int:  # pragma: no cover - compiled
    """``out[r]``: the SETs on table r (``count``), or 1 when it holds one. Returns the first row
    that is no table (a number that is no card, or a card twice), -1 when all are tables."""
    where = np.full(81, -1, dtype=np.intp)
    rows, width = tables.shape
    for r in range(rows):
        table = tables[r]
        wrong = False
        for p in range(width):
            if table[p] < 0 or table[p] > 80:
                wrong = True
                break
            wrong |= where[table[p]] >= 0
            where[table[p]] = p
        found = 0
        if not wrong:
            for i in range(width - 2):
                third = _THIRD[table[i]]
                for j in range(i + 1, width - 1):
                    # Each SET once: from its first two cards, its third lying after them.
                    if where[third[table[j]]] > j:
                        found += 1
                        if not count:
                            break
                if found and not count:
                    break
        for p in range(width):
            if 0 <= table[p] <= 80:
                where[table[p]] = -1
        if wrong:
            return r
        out[r] = found
    return -1


def _scan_tables_vectorised(tables: np.ndarray, count: bool, out: np.ndarray) -> int:
    """:func:`_scan_tables` without numba: the same pairs, one pair of places of every table at a time.

    Plain Python would take a second per few thousand tables; numpy keeps the lessons' sizes
    within their time when numba is absent, with the same answers.
    """
    rows, width = tables.shape
    wrong = ((tables < 0) | (tables > 80)).any(axis=1)
    if width > 1:
        ordered = np.sort(tables, axis=1)
        wrong |= (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
    stop = int(np.argmax(wrong)) if wrong.any() else rows
    for start in range(0, stop, _DEAL_BATCH):
        chunk = tables[start : min(stop, start + _DEAL_BATCH)]
        lines = np.arange(len(chunk))
        where = np.full((len(chunk), 81), -1, dtype=np.intp)
        for p in range(width):
            where[lines, chunk[:, p]] = p
        found = np.zeros(len(chunk), dtype=np.intp)
        for i in range(width - 2):
            for j in range(i + 1, width - 1):
                found += where[lines, _THIRD[chunk[:, i], chunk[:, j]]] > j
        out[start : start + len(chunk)] = found if count else found > 0
    return stop if stop < rows else -1


@_compiled
def _first_set(table, n, where, found):  # pragma: no cover - compiled
    """Positions i < j < k of the first SET among the first ``n`` cards, in find_sets' order, into
    ``found``: the first pair (i, j) in that order whose third card lies after it. False: no SET."""
    for i in range(n - 2):
        third = _THIRD[table[i]]
        for j in range(i + 1, n - 1):
            k = where[third[table[j]]]
            if k > j:
                found[0], found[1], found[2] = i, j, k
                return True
    return False


@_compiled
def _random_set(table, n, where, pick, found):  # pragma: no cover - compiled
    """Like :func:`_first_set`, but the SET numbered ``int(pick * count)`` in that order, of the
    ``count`` on the table: a uniformly random one when ``pick`` is uniform in [0, 1)."""
    count = 0
    for i in range(n - 2):
        third = _THIRD[table[i]]
        for j in range(i + 1, n - 1):
            count += where[third[table[j]]] > j
    wanted = int(pick * count)
    for i in range(n - 2):
        third = _THIRD[table[i]]
        for j in range(i + 1, n - 1):
            k = where[third[table[j]]]
            if k > j:
                if wanted == 0:
                    found[0], found[1], found[2] = i, j, k
                    return True
                wanted -= 1
    return False


@_compiled
def _take_out(cards, n, gaps, fill, deck, top, where):  # pragma: no cover - compiled
    """Game._remove: take the cards at ``gaps`` (sorted) off the table of ``n`` cards; returns its new size.

    The first ``fill`` gaps get the cards ``deck[top:top + fill]``; the last cards on the table
    move into the other gaps that lie inside the shorter table, in order. ``where`` follows.
    """
    for s in range(fill):
        cards[gaps[s]] = deck[top + s]
        where[deck[top + s]] = gaps[s]
    short = n - (len(gaps) - fill)
    tail = short
    for s in range(fill, len(gaps)):
        if gaps[s] < short:
            # the next card beyond the new end that is not itself leaving
            leaving = True
            while leaving:
                leaving = False
                for t in range(fill, len(gaps)):
                    leaving |= gaps[t] == tail
                tail += leaving
            cards[gaps[s]] = cards[tail]
            where[cards[tail]] = gaps[s]
            tail += 1
    for p in range(short, n):
        cards[p] = EMPTY
    return short


@_compiled
def _any_set(cards: np.ndarray, n: int, where: np.ndarray) -> bool:  # pragma: no cover - compiled
    """Whether the first ``n`` of these different cards hold a SET (``where`` is all -1, and is left so)."""
    for p in range(n):
        where[cards[p]] = p
    found = False
    for i in range(n - 2):
        third = _THIRD[cards[i]]
        for j in range(i + 1, n - 1):
            if where[third[cards[j]]] >= 0:
                found = True
                break
        if found:
            break
    for p in range(n):
        where[cards[p]] = -1
    return found


@_compiled
def _shuffle_rows(rows, uniform):  # pragma: no cover - compiled
    """Shuffle each row in place (Fisher-Yates), the random numbers drawn beforehand: ``uniform[r, m]``,
    in [0, 1), picks the card that goes to place ``n - 1 - m`` of row r from the places up to it."""
    count, n = rows.shape
    for r in range(count):
        row = rows[r]
        for m in range(n - 1):
            i = n - 1 - m
            j = int(uniform[r, m] * (i + 1))
            row[i], row[j] = row[j], row[i]


@_compiled
def _play_games(
    orders, table, length, nxt, status, size, rule, sure, picks, seen, none, left, lost, taken, ntaken
):  # pragma: no cover - compiled
    """Play every game whose status is _PLAYING until it ends (_OVER) or, in competition, needs
    cards sent back into its deck with Game's own generator (_SEND_BACK, done in Python; then
    this is called again and the game goes on). Returns how many games wait for that.

    Game g: ``orders[g]`` is its deck in dealing order, ``table[g, :length[g]]`` its table in
    Game's layout, ``nxt[g]`` the next card of ``orders[g]`` to deal. ``picks[g, s]`` chooses the
    s-th SET taken at random (no columns: the first SET). ``seen[n]`` and ``none[n]`` count the
    tables of n cards looked at while cards were left in the deck, and those without a SET;
    ``left[g]``, ``lost[g]``: cards not taken at the end, a lost solitaire game; ``taken[g, s]``
    (when it has rows) the s-th SET taken, as card indices; ``ntaken[g]``: how many.
    """
    games, decksize = orders.shape
    where = np.full(81, -1, dtype=np.intp)
    union = np.empty(decksize + table.shape[1], dtype=np.uint8)
    found = np.zeros(3, dtype=np.intp)
    keep, random_pick = taken.shape[0] > 0, picks.shape[1] > 0
    waiting = 0
    for g in range(games):
        if status[g] != _PLAYING:
            continue
        cards, deck = table[g], orders[g]
        n, top, count = length[g], nxt[g], ntaken[g]
        for p in range(n):
            where[cards[p]] = p
        while True:
            if random_pick:
                has = _random_set(cards, n, where, picks[g, count], found)
            else:
                has = _first_set(cards, n, where, found)
            if top < decksize:
                seen[n] += 1
                none[n] += not has
            if has:
                if keep:
                    for s in range(3):
                        taken[g, count, s] = cards[found[s]]
                count += 1
                for s in range(3):
                    where[cards[found[s]]] = -1
                # Game.claim: taken cards are replaced from the deck while the table has at most its
                # usual size.
                fill = min(max(size - (n - 3), 0), 3, decksize - top)
                n = _take_out(cards, n, found, fill, deck, top, where)
                top += fill
                continue
            # No SET on the table: the game ends when no SET can be made from the cards on the
            # table and in the deck together (Game._settle), or in solitaire at once.
            remaining = decksize - top
            goes_on = rule != _SOLITAIRE
            if goes_on and n + remaining < sure:
                for p in range(n):
                    union[p] = cards[p]
                for p in range(remaining):
                    union[n + p] = deck[top + p]
                for p in range(n):
                    where[cards[p]] = -1
                goes_on = _any_set(union, n + remaining, where)
                for p in range(n):
                    where[cards[p]] = p
            if not goes_on:
                left[g] = n + remaining
                lost[g] = n >= size
                status[g] = _OVER
                break
            if rule == _COMPETITION and n >= size + 3:
                status[g] = _SEND_BACK
                waiting += 1
                break
            # Three more at the end of the table (Game._deal).
            for _ in range(min(3, remaining)):
                cards[n] = deck[top]
                where[deck[top]] = n
                n += 1
                top += 1
        for p in range(n):
            where[cards[p]] = -1
        length[g], nxt[g], ntaken[g] = n, top, count
    return waiting


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
    [50, 72, 63]
    >>> from setwidgets import full_deck
    >>> [full_deck()[i].code for i in table]
    ['2POS', '3PSO', '3GSO']
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
    deal = _deal if COMPILED else _deal_vectorised
    for start in range(0, count, _DEAL_BATCH):
        rows = min(_DEAL_BATCH, count - start)
        deal(cards, rng.random((rows, width)), out[start : start + rows])
    return out


@_compiled
def _deal(cards, uniform, out):  # pragma: no cover - compiled
    """Deal each row of ``out`` from ``cards`` by a partial Fisher-Yates shuffle.

    ``uniform[r, i]``, in [0, 1), picks which of the cards not dealt yet goes to place i of row
    r: only the places dealt are shuffled, so a 12-card table costs 12 swaps, not 81.
    """
    n = cards.shape[0]
    count, width = out.shape
    deck = np.empty(n, dtype=np.intp)
    for r in range(count):
        for c in range(n):
            deck[c] = cards[c]
        for i in range(width):
            j = min(i + int(uniform[r, i] * (n - i)), n - 1)
            picked = deck[j]
            deck[j] = deck[i]
            deck[i] = picked
            out[r, i] = picked


def _deal_vectorised(cards: np.ndarray, uniform: np.ndarray, out: np.ndarray) -> None:
    """:func:`_deal` without numba: the same swaps, one place of every row at a time, in numpy."""
    count, width = out.shape
    n = len(cards)
    deck = np.tile(cards, (count, 1))
    rows = np.arange(count)
    for i in range(width):
        j = np.minimum(i + (uniform[:, i] * (n - i)).astype(np.intp), n - 1)
        picked = deck[rows, j]
        deck[rows, j] = deck[rows, i]
        deck[rows, i] = picked
    out[:] = deck[:, :width]


_scan = _scan_tables if COMPILED else _scan_tables_vectorised


def _as_tables(tables: Any) -> np.ndarray:
    """A 2-d array of card indices (its values are checked by :func:`_scan_tables`, see :func:`_refuse`)."""
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
    # One layout and type for the compiled loop (another would be compiled anew, taking seconds).
    return np.ascontiguousarray(array, dtype=np.intp)


def count_sets_many(tables: Any) -> np.ndarray:
    """How many SETs lie on each table: one number per row of ``tables``.

    ``tables`` is an ``(n, size)`` array of card indices, such as
    :func:`deal_tables` gives. Each table is checked pair by pair, like
    :func:`~setwidgets.rules.find_sets`, in compiled code.

    >>> count_sets_many([[0, 1, 2, 3], [0, 1, 3, 4]]).tolist()
    [1, 0]
    """
    array = _as_tables(tables)
    out = np.zeros(len(array), dtype=np.intp)
    _refuse(array, _scan(array, True, out))
    return out


def has_set_many(tables: Any) -> np.ndarray:
    """For each table (a row of ``tables``), whether it holds at least one SET.

    >>> has_set_many(deal_tables(4, 21, seed=0)).tolist()   # 21 cards always hold a SET
    [True, True, True, True]
    """
    array = _as_tables(tables)
    out = np.zeros(len(array), dtype=np.intp)
    _refuse(array, _scan(array, False, out))
    return out.astype(np.bool_)


def _refuse(tables: np.ndarray, row: int) -> None:
    """The table of ``row`` (-1: none) holds a number that is not a card, or a card twice: say which."""
    if row < 0:
        return
    wrong = [c for c in tables[row].tolist() if not 0 <= c <= 80]
    if wrong:
        raise ValueError(f"card indices are 0 to 80; got {wrong[0]} in table {row}")
    raise ValueError(f"table {row} holds a card twice: {tables[row].tolist()}")


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
        plt = _extras.require("matplotlib.pyplot", "sim", "Tally.plot")  # only a plot needs matplotlib

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


@dataclass
class _Batch:
    """A batch of games as arrays: their decks, tables and what was seen (see :func:`_play_games`)."""

    orders: np.ndarray
    table: np.ndarray
    length: np.ndarray
    nxt: np.ndarray
    seen: np.ndarray
    none: np.ndarray
    left: np.ndarray
    lost: np.ndarray
    taken: np.ndarray
    ntaken: np.ndarray


def _play_batch(
    orders: np.ndarray,
    table_size: int,
    rule: str,
    picks: np.ndarray,
    shufflers: dict[int, random.Random],
    seeds: np.ndarray,
    keep: bool,
    sure: int,
) -> _Batch:
    """Play the games dealt in ``orders`` (one deck a row, in dealing order) to the end."""
    count, decksize = orders.shape
    # A table never holds more than 21 cards (20 is the most without a SET), nor more than the deck.
    width = min(decksize, max(table_size + 3, _MOST_WITHOUT_SET + 1))
    first = min(table_size, decksize)
    table = np.full((count, width), EMPTY, dtype=np.uint8)
    table[:, :first] = orders[:, :first]
    batch = _Batch(
        orders,
        table,
        np.full(count, first, dtype=np.intp),
        np.full(count, first, dtype=np.intp),
        np.zeros(width + 1, dtype=np.int64),
        np.zeros(width + 1, dtype=np.int64),
        np.zeros(count, dtype=np.intp),
        np.zeros(count, dtype=np.bool_),
        np.full((count if keep else 0, decksize // 3 + 1, 3), EMPTY, dtype=np.uint8),
        np.zeros(count, dtype=np.intp),
    )
    code = {"solitaire": _SOLITAIRE, "competition": _COMPETITION}.get(rule, _STANDARD)
    status = np.full(count, _PLAYING, dtype=np.int8)
    b = batch
    args = (b.orders, b.table, b.length, b.nxt, status, table_size, code, sure, picks)
    while _play_games(*args, b.seen, b.none, b.left, b.lost, b.taken, b.ntaken):
        for g in np.flatnonzero(status == _SEND_BACK).tolist():
            shuffler = shufflers.get(g)
            if shuffler is None:
                # Outside like_game, a game's own generator is made when it first needs one.
                shuffler = shufflers[g] = random.Random(int(seeds[g]))
            _send_back(batch, g, shuffler)
            status[g] = _PLAYING
    return batch


def _send_back(batch: _Batch, g: int, shuffler: random.Random) -> None:
    """Competition, 15 cards without a SET: Game._send_back(6, deal=3), with the game's own generator.

    Six cards chosen at random go back into the deck, which is shuffled; three of it fill the
    first gaps, the rest are closed as :func:`_take_out` does for a SET taken.
    """
    length, nxt, decksize = int(batch.length[g]), int(batch.nxt[g]), batch.orders.shape[1]
    cards, order = batch.table[g], batch.orders[g]
    positions = sorted(shuffler.sample(range(length), 6))
    deck = order[nxt:].tolist() + cards[positions].tolist()
    shuffler.shuffle(deck)
    top = decksize - len(deck)
    order[top:] = deck
    gaps = np.array(positions, dtype=np.intp)
    batch.length[g] = _take_out(cards, length, gaps, 3, order, top, np.full(81, -1, dtype=np.intp))
    batch.nxt[g] = top + 3


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
                orders = np.array(rows, dtype=np.uint8).reshape(size, len(cards))
            else:
                orders = np.tile(cards.astype(np.uint8), (size, 1))
                _shuffle_rows(orders, rng.random((size, len(cards) - 1)))
            seeds = rng.integers(2**32, size=size)
            # One number in [0, 1) for each SET a game may take, choosing it among the table's SETs.
            picks = rng.random((size, len(cards) // 3 + 1)) if how == "random" else np.empty((size, 0))
            _add(tally, _play_batch(orders, table_size, rule, picks, shufflers, seeds, keep_sets, sure))
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
    tally.sets.update(batch.ntaken.tolist())
    tally.lost += int(batch.lost.sum()) if tally.variant == "solitaire" else 0
    if tally.taken is not None:
        tally.taken.extend(
            [tuple(s) for s in sets[:n]] for sets, n in zip(batch.taken.tolist(), batch.ntaken.tolist())
        )


def _progress_bar(total: int, progress: bool) -> Any:
    if not progress:
        return None
    from tqdm.auto import tqdm  # a notebook gets a widget bar, a terminal a text one

    return tqdm(total=total, unit="game", desc="playing")
