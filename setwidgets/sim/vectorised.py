"""The loops of :mod:`setwidgets.sim.kernels` in numpy, for where numba has no build.

Compiled by numba, a loop over tables or games runs as fast as C. Without numba (Pyodide and
JupyterLite, a CPython too new for it) the same loops would run as plain Python, one card at a
time: minutes for a lesson's runs. Each function here does the work of one loop of
:mod:`~setwidgets.sim.kernels` for *every* table or game of a batch at once, one step at a time,
as numpy operations on whole columns:

- :func:`scan_tables` for ``kernels.scan_tables``: the SETs on each table;
- :func:`deal` for ``kernels.deal``: random tables by a partial Fisher-Yates shuffle;
- :func:`shuffle_rows` for ``kernels.shuffle_rows``: each deck shuffled in place;
- :func:`play_games` for ``kernels.play_games``: whole games, one move of every game at a time.

Each takes the same arguments and gives the same results, bit for bit, from the same random
numbers: the loops of kernels stay the reference, and the tests compare the two on many seeds.

>>> import numpy as np
>>> out = np.zeros(2, dtype=np.intp)
>>> scan_tables(np.array([[0, 1, 2], [0, 1, 3]]), True, out), out.tolist()
(-1, [1, 0])
"""

from __future__ import annotations

from functools import cache

from setwidgets.sim.kernels import DEAL_BATCH, EMPTY, OVER, PLAYING, SEND_BACK, THIRD, np

__all__ = ["THIRD_OR_EMPTY", "deal", "pairs", "play_games", "scan_tables", "shuffle_rows"]

THIRD_OR_EMPTY = np.full((EMPTY + 1, EMPTY + 1), EMPTY, dtype=np.uint8)
""":data:`~setwidgets.sim.kernels.THIRD` with one more row and column for :data:`EMPTY`: a pair
with no card in it has no third card (EMPTY), so a table padded with EMPTY is looked up whole."""
THIRD_OR_EMPTY[:EMPTY, :EMPTY] = THIRD
_THIRD_FLAT = THIRD_OR_EMPTY.ravel()  # pair (a, b) at a * 82 + b: one flat look-up is quicker than two


@cache
def pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The places (i, j), i < j, of ``n`` cards in the loops' order: (0, 1), (0, 2), ..., (n - 2, n - 1).

    >>> [(int(i), int(j)) for i, j in zip(*pairs(4))]
    [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    """
    first, second = np.triu_indices(n, k=1)  # row by row: the order of the loops over i, then j
    return first.astype(np.intp), second.astype(np.intp)


def _places(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every row's "where" array in one flat array: the place of card c on row r is at
    ``offsets[r] + c`` (-1: not on it; EMPTY, the padding of a short table, is no card)."""
    rows, width = cards.shape
    offsets = np.arange(rows, dtype=np.intp)[:, None] * (EMPTY + 1)
    where = np.full(rows * (EMPTY + 1), -1, dtype=np.int8)  # places are below 82: a byte is enough
    where[offsets + cards] = np.arange(width, dtype=np.int8)
    where[offsets[:, 0] + EMPTY] = -1
    return where, offsets


def _thirds(cards: np.ndarray, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """The third card of each pair of places (``first[x]``, ``second[x]``) of each row of ``cards``."""
    wide = cards.astype(np.intp)  # a card times 82 does not fit in a byte
    return _THIRD_FLAT[wide[:, first] * (EMPTY + 1) + wide[:, second]]


# -- tables ----------------------------------------------------------------------------------------


def scan_tables(tables: np.ndarray, count: bool, out: np.ndarray) -> int:
    """``kernels.scan_tables`` in numpy: ``out[r]`` the SETs on table r (``count``), or 1 when it holds one.

    Returns the first row that is no table (a number that is no card, or a card twice), -1 when
    all are tables; the rows before it are answered, as the loop answers them before it stops.
    Every table is looked at together, one first card ``i`` at a time against all the cards
    after it. When only asked whether a table holds a SET, a table is put aside as soon as one
    is found: nearly every table of 15 or 21 cards is settled by its first card or two.
    """
    rows, width = tables.shape
    wrong = ((tables < 0) | (tables > 80)).any(axis=1)
    if width > 1:
        ordered = np.sort(tables, axis=1)
        wrong |= (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
    stop = int(np.argmax(wrong)) if wrong.any() else rows
    for start in range(0, stop, DEAL_BATCH):
        chunk = tables[start : min(stop, start + DEAL_BATCH)]
        found = _sets_on(chunk, count)
        out[start : start + len(chunk)] = found if count else found > 0
    return stop if stop < rows else -1


def _sets_on(chunk: np.ndarray, count: bool) -> np.ndarray:
    """The SETs on each row of ``chunk`` (tables, checked); without ``count``, 0 or at least 1."""
    rows, width = chunk.shape
    where, offsets = _places(chunk)
    found = np.zeros(rows, dtype=np.intp)
    todo = np.arange(rows)  # the rows still looked at: all of them when counting
    for i in range(width - 2):
        # Each SET once: from its first two cards (i, j), its third lying after them.
        later = np.arange(i + 1, width - 1)
        third_at = where[offsets[todo] + _thirds(chunk[todo], np.full(len(later), i), later)]
        found[todo] += (third_at > later).sum(axis=1)
        if not count:
            todo = todo[found[todo] == 0]
            if not len(todo):
                break
    return found


def deal(cards: np.ndarray, uniform: np.ndarray, out: np.ndarray) -> None:
    """``kernels.deal`` in numpy: the same swaps, one place of every row at a time.

    ``uniform[r, i]``, in [0, 1), picks which of the cards not dealt yet goes to place i of row r.
    """
    count, width = out.shape
    n = len(cards)
    # Every row's deck in one flat array of bytes (cards are 0 to 80): row r's place p is at
    # r * n + p. Eight times smaller than the tables' own ints, and one look-up per card.
    deck = np.tile(np.asarray(cards).astype(np.uint8), count)
    starts = np.arange(count, dtype=np.intp) * n
    for i in range(width):
        j = starts + np.minimum(i + (uniform[:, i] * (n - i)).astype(np.intp), n - 1)
        picked = deck[j]  # a copy, taken before either place is written
        deck[j] = deck[starts + i]
        deck[starts + i] = picked
    out[:] = deck.reshape(count, n)[:, :width]


def shuffle_rows(rows: np.ndarray, uniform: np.ndarray) -> None:
    """``kernels.shuffle_rows`` in numpy: each row shuffled in place (Fisher-Yates), one place of every
    row at a time: ``uniform[r, m]`` picks the card that goes to place ``n - 1 - m`` of row r."""
    count, n = rows.shape
    lines = np.arange(count)
    for m in range(n - 1):
        i = n - 1 - m
        # int() of a non-negative float, as the loop takes it: truncation, as astype does.
        j = (uniform[:, m] * (i + 1)).astype(np.intp)
        picked = rows[lines, j]  # a copy, taken before either place is written
        rows[lines, j] = rows[:, i]
        rows[:, i] = picked


# -- whole games -------------------------------------------------------------------------------------


def play_games(
    orders, table, length, nxt, status, size, more, limit, sure, picks, seen, none, left, lost, taken, ntaken
):
    """``kernels.play_games`` in numpy: the same games, one move of every game still playing at a time.

    The arguments and what is written into them are those of ``kernels.play_games`` (see there):
    every game whose status is PLAYING is played until it ends (OVER) or waits for cards to be
    sent back (SEND_BACK); returns how many wait. A move is what one turn of that loop does: a
    SET taken and the gaps filled, or, on a table without a SET, the end of the game, the wait,
    or more cards dealt. Games never meet, so playing them side by side, a move of each at a
    time, leaves each game as the loop leaves it.
    """
    decksize = orders.shape[1]
    keep, random_pick = taken.shape[0] > 0, picks.shape[1] > 0
    waiting = 0
    live = np.flatnonzero(status == PLAYING)
    while len(live):
        n, top, count = length[live], nxt[live], ntaken[live]
        found, has = _find_sets(table[live], n, picks[live, count] if random_pick else None)
        # Tables are counted while cards are left in the deck.
        counted = top < decksize
        seen += np.bincount(n[counted], minlength=len(seen))[: len(seen)]
        none += np.bincount(n[counted & ~has], minlength=len(none))[: len(none)]
        # A SET taken (Game.claim): replaced from the deck while the table has at most ``size``.
        g = live[has]
        if keep:
            taken[g, count[has]] = table[g[:, None], found[has]]
        fill = np.minimum(np.minimum(np.maximum(size - (n[has] - 3), 0), 3), decksize - top[has])
        n[has] = _take_out(table, g, n[has], found[has], fill, orders, top[has])
        top[has] += fill
        count[has] += 1
        # No SET on the table.
        waiting += _no_set(~has, live, n, top, orders, table, status, size, more, limit, sure, left, lost)
        length[live], nxt[live], ntaken[live] = n, top, count
        live = live[status[live] == PLAYING]
    return waiting


def _find_sets(cards: np.ndarray, n: np.ndarray, picks: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """The places (i, j, k) of the SET each game takes, and whether its table holds one.

    Without ``picks``: the first pair (i, j), in the loops' order, whose third card lies after
    it (``kernels.first_set_at``). With them: the pair numbered ``int(pick * count)`` among the
    ``count`` such pairs (``kernels.random_set_at``). Tables of the same size are looked at
    together, each over its own cards only (the places beyond are EMPTY).
    """
    found = np.zeros((len(cards), 3), dtype=np.intp)
    has = np.zeros(len(cards), dtype=np.bool_)
    for size in np.unique(n).tolist():
        if size < 3:
            continue  # no SET on fewer than three cards
        rows = np.flatnonzero(n == size)
        part = cards[rows, :size]
        if picks is None:
            has[rows], found[rows] = _first_sets(part)
        else:
            has[rows], found[rows] = _random_sets(part, picks[rows])
    return found, has


def _first_sets(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``kernels.first_set_at`` on each row: whether it holds a SET, and the places of its first.

    One first place ``i`` at a time, for the rows whose SET is not found yet: most tables have
    theirs from their first card or two, and are put aside.
    """
    rows, size = cards.shape
    where, offsets = _places(cards)
    found = np.zeros((rows, 3), dtype=np.intp)
    has = np.zeros(rows, dtype=np.bool_)
    todo = np.arange(rows)
    for i in range(size - 2):
        later = np.arange(i + 1, size - 1)
        third_at = where[offsets[todo] + _thirds(cards[todo], np.full(len(later), i), later)]
        hit = third_at > later
        got = np.flatnonzero(hit.any(axis=1))
        at = np.argmax(hit[got], axis=1)  # the first j of each row that has one
        done = todo[got]
        has[done] = True
        found[done] = np.stack([np.full(len(got), i), later[at], third_at[got, at]], axis=1)
        todo = np.delete(todo, got)
        if not len(todo):
            break
    return has, found


def _random_sets(cards: np.ndarray, picks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``kernels.random_set_at`` on each row: whether it took a SET, and the places of the one taken."""
    rows, size = cards.shape
    where, offsets = _places(cards)
    first, second = pairs(size)
    third_at = where[offsets + _thirds(cards, first, second)]
    hit = third_at > second
    # As the loop counts down: the hit after ``wanted`` others, when there are that many.
    wanted = (picks * hit.sum(axis=1)).astype(np.intp)
    ahead = np.cumsum(hit, axis=1) > wanted[:, None]
    at = np.argmax(ahead, axis=1)
    lines = np.arange(rows)
    return ahead[lines, at], np.stack([first[at], second[at], third_at[lines, at]], axis=1)


def _take_out(table, g, n, gaps, fill, orders, top):
    """``kernels.take_out`` for the games ``g``, each with its three ``gaps`` (sorted): the new sizes.

    The first ``fill[x]`` gaps of game x get its next cards of the deck; the cards beyond the
    shorter table that are not leaving move, in order, into its other gaps that lie inside it.
    """
    lines = np.arange(len(g))
    for s in range(3):
        new = fill > s
        table[g[new], gaps[new, s]] = orders[g[new], top[new] + s]
    short = n - (3 - fill)
    # The places from the new end on (at most three: as many as leave) that hold a card staying.
    tail = short[:, None] + np.arange(3)
    leaving = np.zeros(tail.shape, dtype=np.bool_)
    for s in range(3):
        leaving |= (tail == gaps[:, s : s + 1]) & (fill[:, None] <= s)
    staying = (tail < n[:, None]) & ~leaving
    # Those places first, in order (a stable sort keeps it): the m-th moves into the m-th gap.
    sources = np.take_along_axis(tail, np.argsort(~staying, axis=1, kind="stable"), axis=1)
    for s in range(3):
        moves = (fill <= s) & (gaps[:, s] < short)
        source = sources[lines[moves], s - fill[moves]]
        table[g[moves], gaps[moves, s]] = table[g[moves], source]
    for t in range(3):
        gone = short + t < n
        table[g[gone], short[gone] + t] = EMPTY
    return short


def _no_set(stuck, live, n, top, orders, table, status, size, more, limit, sure, left, lost) -> int:
    """The games ``live[stuck]``, whose table has no SET: ended, sent to wait, or dealt ``more`` cards.

    A game ends when no cards are added (``more`` is 0) or when no SET can be made from its
    table and deck together (Game._settle). Returns how many now wait for cards sent back.
    """
    at = np.flatnonzero(stuck)
    g, cards, remaining = live[at], n[at], orders.shape[1] - top[at]
    goes_on = np.full(len(at), more > 0)
    if more > 0:
        few = cards + remaining < sure
        goes_on[few] = _any_set_left(table, orders, g[few], top[at][few], sure)
    over = ~goes_on
    left[g[over]] = cards[over] + remaining[over]
    lost[g[over]] = cards[over] >= size
    status[g[over]] = OVER
    wait = goes_on & (cards >= limit)
    status[g[wait]] = SEND_BACK
    # More cards at the end of the table (State.deal).
    extra = np.where(goes_on & ~wait, np.minimum(more, remaining), 0)
    for t in range(int(extra.max(initial=0))):
        dealt = extra > t
        table[g[dealt], cards[dealt] + t] = orders[g[dealt], top[at][dealt] + t]
    n[at] += extra
    top[at] += extra
    return int(wait.sum())


def _any_set_left(table, orders, g, top, sure: int) -> np.ndarray:
    """Whether a SET can still be made from each game's table and the rest of its deck together
    (fewer than ``sure`` cards in all, else one surely can)."""
    decksize = orders.shape[1]
    # The deck's cards after ``top``, EMPTY beyond its end, beside the table (EMPTY beyond its cards).
    beyond = top[:, None] + np.arange(decksize)
    rest = np.where(beyond < decksize, orders[g[:, None], np.minimum(beyond, decksize - 1)], EMPTY)
    cards = np.concatenate([table[g], rest.astype(np.uint8)], axis=1)
    # Sorted, the cards come first and EMPTY last: fewer than ``sure`` cards, so few columns to pair.
    cards = np.sort(cards, axis=1)[:, :sure]
    where, offsets = _places(cards)
    return (where[offsets + _thirds(cards, *pairs(cards.shape[1]))] >= 0).any(axis=1)
