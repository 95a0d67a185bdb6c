"""The compiled loops of :mod:`setwidgets.sim`: tables checked, decks shuffled, whole games played.

A table is checked, and a game played, one card at a time in loops compiled by numba: the
work per pair of cards is a lookup in :data:`THIRD` and one in the table's own "where" array
(the position of each card on the table, or -1), as a C program would do it. numpy draws the
random numbers (from the run's own Generator), deals random tables and gathers the results;
:func:`play_games` is the only home of the game's moves here, and it plays each variant by
the numbers :mod:`setwidgets.sim` reads from the variant's class
(:func:`setwidgets.sim.variant_numbers`): no variant is named in this module.

Cards are the integers 0 to 80 (their index in :data:`setwidgets.cards.DECK`); :data:`EMPTY`
stands for no card. Without numba each loop here would run as plain Python, with the same
results but hundreds of times slower: :mod:`setwidgets.sim` then runs their numpy versions in
:mod:`setwidgets.sim.vectorised` instead (the same results again, from the same random numbers;
these loops stay the reference they are tested against).

>>> import numpy as np
>>> out = np.zeros(2, dtype=np.intp)
>>> scan_tables(np.array([[0, 1, 2], [0, 1, 3]]), True, out), out.tolist()
(-1, [1, 0])
"""

from __future__ import annotations

from typing import Any

from setwidgets import _extras
from setwidgets.rules import THIRD as THIRD_BYTES

np = _extras.require("numpy", "sim", "setwidgets.sim")
numba = _extras.optional("numba")

__all__ = [
    "COMPILED",
    "DEAL_BATCH",
    "EMPTY",
    "NEVER",
    "OVER",
    "PLAYING",
    "SEND_BACK",
    "THIRD",
    "any_set",
    "compiled",
    "deal",
    "first_set_at",
    "play_games",
    "random_set_at",
    "scan_tables",
    "shuffle_rows",
    "take_out",
]

COMPILED = numba is not None
"""Whether the loops run compiled by numba (else sim runs their numpy versions: the same results)."""

EMPTY = 81
"""The number that stands for "no card" in a table array (cards are 0 to 80)."""

THIRD = np.frombuffer(THIRD_BYTES, dtype=np.uint8).reshape(81, 81).copy()
"""rules.THIRD as a numpy array: ``THIRD[i, j]`` is the third card of the pair (i, j)."""

DEAL_BATCH = 1 << 16
"""Tables dealt from one draw of random numbers (6 MB of them for 12 cards), or scanned at once by numpy."""

PLAYING, OVER, SEND_BACK = 0, 1, 2
"""A game's status between two calls of :func:`play_games`."""

NEVER = 255
"""The ``limit`` of :func:`play_games` for a variant that never sends cards back (no table is this long)."""


def compiled(func: Any) -> Any:
    """``func`` compiled by numba on its first call, the machine code kept on disk for the next session.

    Compiling takes seconds; a cached kernel loads in a fraction of one. numba keeps it beside
    this file (``__pycache__``), or in the user's cache folder when the package folder is
    read-only; when neither can be written, the kernel is compiled again in each session.
    Without numba (``setwidgets[sim]`` leaves it out where it has no build, such as Pyodide),
    ``func`` is returned as it is: the same loop in plain Python, with the same results (the
    reference for the numpy versions in :mod:`setwidgets.sim.vectorised`, which sim runs then).
    """
    if numba is None:
        return func
    try:
        return numba.njit(cache=True, nogil=True)(func)
    except RuntimeError:  # numba found no folder it may write to
        return numba.njit(nogil=True)(func)


@compiled
def scan_tables(tables: np.ndarray, count: bool, out: np.ndarray) -> int:  # pragma: no cover - compiled
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
                third = THIRD[table[i]]
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


@compiled
def first_set_at(table, n, where, found):  # pragma: no cover - compiled
    """Positions i < j < k of the first SET among the first ``n`` cards, in find_sets' order, into
    ``found``: the first pair (i, j) in that order whose third card lies after it. False: no SET."""
    for i in range(n - 2):
        third = THIRD[table[i]]
        for j in range(i + 1, n - 1):
            k = where[third[table[j]]]
            if k > j:
                found[0], found[1], found[2] = i, j, k
                return True
    return False


@compiled
def random_set_at(table, n, where, pick, found):  # pragma: no cover - compiled
    """Like :func:`first_set_at`, but the SET numbered ``int(pick * count)`` in that order, of the
    ``count`` on the table: a uniformly random one when ``pick`` is uniform in [0, 1)."""
    count = 0
    for i in range(n - 2):
        third = THIRD[table[i]]
        for j in range(i + 1, n - 1):
            count += where[third[table[j]]] > j
    wanted = int(pick * count)
    for i in range(n - 2):
        third = THIRD[table[i]]
        for j in range(i + 1, n - 1):
            k = where[third[table[j]]]
            if k > j:
                if wanted == 0:
                    found[0], found[1], found[2] = i, j, k
                    return True
                wanted -= 1
    return False


@compiled
def take_out(cards, n, gaps, fill, deck, top, where):  # pragma: no cover - compiled
    """The game's State.remove: the cards at ``gaps`` (sorted) off a table of ``n``; returns its new size.

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


@compiled
def any_set(cards: np.ndarray, n: int, where: np.ndarray) -> bool:  # pragma: no cover - compiled
    """Whether the first ``n`` of these different cards hold a SET (``where`` is all -1, and is left so)."""
    for p in range(n):
        where[cards[p]] = p
    found = False
    for i in range(n - 2):
        third = THIRD[cards[i]]
        for j in range(i + 1, n - 1):
            if where[third[cards[j]]] >= 0:
                found = True
                break
        if found:
            break
    for p in range(n):
        where[cards[p]] = -1
    return found


@compiled
def shuffle_rows(rows, uniform):  # pragma: no cover - compiled
    """Shuffle each row in place (Fisher-Yates), the random numbers drawn beforehand: ``uniform[r, m]``,
    in [0, 1), picks the card that goes to place ``n - 1 - m`` of row r from the places up to it."""
    count, n = rows.shape
    for r in range(count):
        row = rows[r]
        for m in range(n - 1):
            i = n - 1 - m
            j = int(uniform[r, m] * (i + 1))
            row[i], row[j] = row[j], row[i]


@compiled
def play_games(
    orders, table, length, nxt, status, size, more, limit, sure, picks, seen, none, left, lost, taken, ntaken
):  # pragma: no cover - compiled
    """Play every game whose status is PLAYING until it ends (OVER) or needs cards sent back into
    its deck with Game's own generator (SEND_BACK, done in Python; then this is called again and
    the game goes on). Returns how many games wait for that.

    The variant's numbers: taken cards are replaced from the deck while the table holds at most
    ``size`` cards (the table size); a table without a SET gets ``more`` cards (0: the game ends
    there), or, once it holds ``limit`` cards (:data:`NEVER`: no such rule), waits for cards to
    be sent back. ``sure``: any this many cards of the deck hold a SET.

    Game g: ``orders[g]`` is its deck in dealing order, ``table[g, :length[g]]`` its table in
    Game's layout, ``nxt[g]`` the next card of ``orders[g]`` to deal. ``picks[g, s]`` chooses the
    s-th SET taken at random (no columns: the first SET). ``seen[n]`` and ``none[n]`` count the
    tables of n cards looked at while cards were left in the deck, and those without a SET;
    ``left[g]``, ``lost[g]``: cards not taken at the end, whether it ended on a full table;
    ``taken[g, s]``
    (when it has rows) the s-th SET taken, as card indices; ``ntaken[g]``: how many.
    """
    games, decksize = orders.shape
    where = np.full(81, -1, dtype=np.intp)
    union = np.empty(decksize + table.shape[1], dtype=np.uint8)
    found = np.zeros(3, dtype=np.intp)
    keep, random_pick = taken.shape[0] > 0, picks.shape[1] > 0
    waiting = 0
    for g in range(games):
        if status[g] != PLAYING:
            continue
        cards, deck = table[g], orders[g]
        n, top, count = length[g], nxt[g], ntaken[g]
        for p in range(n):
            where[cards[p]] = p
        while True:
            if random_pick:
                has = random_set_at(cards, n, where, picks[g, count], found)
            else:
                has = first_set_at(cards, n, where, found)
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
                # usual size (Variant.refill).
                fill = min(max(size - (n - 3), 0), 3, decksize - top)
                n = take_out(cards, n, found, fill, deck, top, where)
                top += fill
                continue
            # No SET on the table: the game ends when no SET can be made from the cards on the
            # table and in the deck together (Game._settle), or at once when no cards are added.
            remaining = decksize - top
            goes_on = more > 0
            if goes_on and n + remaining < sure:
                for p in range(n):
                    union[p] = cards[p]
                for p in range(remaining):
                    union[n + p] = deck[top + p]
                for p in range(n):
                    where[cards[p]] = -1
                goes_on = any_set(union, n + remaining, where)
                for p in range(n):
                    where[cards[p]] = p
            if not goes_on:
                left[g] = n + remaining
                lost[g] = n >= size
                status[g] = OVER
                break
            if n >= limit:
                status[g] = SEND_BACK
                waiting += 1
                break
            # More cards at the end of the table (State.deal).
            for _ in range(min(more, remaining)):
                cards[n] = deck[top]
                where[deck[top]] = n
                n += 1
                top += 1
        for p in range(n):
            where[cards[p]] = -1
        length[g], nxt[g], ntaken[g] = n, top, count
    return waiting


@compiled
def deal(cards, uniform, out):  # pragma: no cover - compiled
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
