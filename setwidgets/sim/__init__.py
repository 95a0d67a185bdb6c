"""Many tables and many whole games at once: the simulation engine, numpy arrays and compiled loops.

How often does a table of 12 have no SET? In a random deal, and in real play?
How many SETs lie among 12 cards? Questions like these are answered by
playing or dealing a great many times, and this module does it fast: cards
are the integers 0 to 80 (their index in :data:`~setwidgets.cards.DECK`),
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
without a SET, read from the variant's class (:func:`variant_numbers`). With
``policy="first"`` the SET taken is
:func:`~setwidgets.rules.first_set` of the table in Game's order, so
``play(n, seed=s, like_game=True, keep_sets=True)`` takes the very SETs, in the
same order, that Game(seed=s + i) does when driven by first_set.

The parts: this module checks what it is given and gathers the results;
:mod:`setwidgets.sim.kernels` holds the compiled loops,
:mod:`setwidgets.sim.vectorised` their numpy versions, run where numba is
missing (:data:`COMPILED` is then False; the results are the same), and
:mod:`setwidgets.sim.tally` the :class:`Tally` of a run and :func:`wilson`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from setwidgets import _inputs
from setwidgets.cards import Card
from setwidgets.game.inputs import deck_cards
from setwidgets.game.variants import MOST_WITHOUT_SET, rules_of
from setwidgets.game.variants import names as variant_names
from setwidgets.sim import kernels, vectorised
from setwidgets.sim.kernels import COMPILED, EMPTY, np
from setwidgets.sim.tally import Tally, wilson

__all__ = [
    "COMPILED",
    "EMPTY",
    "POLICIES",
    "Tally",
    "VariantNumbers",
    "count_sets_many",
    "deal_tables",
    "has_set_many",
    "play",
    "variant_numbers",
    "wilson",
]

POLICIES: tuple[str, ...] = ("first", "random")
"""Which SET a simulated player takes: the first in find_sets' order, or one at random."""

_BATCH = 4096  # games in one batch: the progress bar moves and Ctrl-C is heard between batches
_MOST_GAMES = 10**10
"""The most games one call may play: more than a day of play already (some 100,000 games a second)."""
_SET_BYTES = 100  # a SET kept by play(keep_sets=True): a tuple of three ints in a list
_MOST_BYTES = 10**9
"""The most memory one call may ask for (1 GB): more is refused before anything is made."""
_CARD_BYTES = np.dtype(np.intp).itemsize  # one card of a table, as deal_tables keeps it


def _refuse_too_large(call: str, needed: int) -> None:
    """A call that would need more than :data:`_MOST_BYTES` of memory is refused, with both numbers."""
    if needed > _MOST_BYTES:
        raise ValueError(
            f"{call} would need {_size_in_words(needed)} of memory, and a call may use at most "
            f"{_size_in_words(_MOST_BYTES)}: ask for fewer at a time and add up the results"
        )


def _size_in_words(size: int) -> str:
    """A number of bytes as people say it: "9.6 GB", "240 MB"."""
    for unit, scale in (("TB", 10**12), ("GB", 10**9), ("MB", 10**6)):
        if size >= scale:
            amount = size / scale
            return f"{amount:.2g} {unit}" if amount < 10 else f"{amount:,.0f} {unit}"
    return f"{size:,} bytes"


# The loops: compiled by numba, or, without it, their numpy versions (the same results from the
# same random numbers; plain Python loops would take minutes where these take seconds).
_deal = kernels.deal if COMPILED else vectorised.deal
_scan = kernels.scan_tables if COMPILED else vectorised.scan_tables
_shuffle_rows = kernels.shuffle_rows if COMPILED else vectorised.shuffle_rows
_play_games = kernels.play_games if COMPILED else vectorised.play_games


# -- the variants, as numbers ------------------------------------------------------------------


@dataclass(frozen=True)
class VariantNumbers:
    """A variant's rules as the whole numbers the compiled games play by (see :func:`variant_numbers`).

    - ``table_size``: cards on the table normally; taken cards are replaced up to it;
    - ``more``: cards laid out on a table without a SET (0: that table ends the game);
    - ``limit``: a table of this many cards without a SET sends ``send_back`` cards back into
      the deck, reshuffled, and ``deal_back`` are dealt (:data:`~setwidgets.sim.kernels.NEVER`:
      no such rule);
    - ``width``: the most cards on the table;
    - ``lost_on_full_table``: whether a game that ends on a full table without a SET is lost.
    """

    table_size: int
    more: int
    limit: int
    send_back: int
    deal_back: int
    width: int
    lost_on_full_table: bool

    def __post_init__(self) -> None:
        # The compiled games keep these in bytes: each must be a whole number from 0 to 255.
        for name in ("table_size", "more", "limit", "send_back", "deal_back", "width"):
            number = _inputs.whole_number(getattr(self, name), name, minimum=0, example="12")
            if number > kernels.NEVER:
                raise ValueError(f"{name} must be at most {kernels.NEVER}; got {_inputs.short(number)}")
            object.__setattr__(self, name, number)
        flag = _inputs.true_or_false(self.lost_on_full_table, "lost_on_full_table")
        object.__setattr__(self, "lost_on_full_table", flag)


def variant_numbers(variant: str, deck_size: int = 81) -> VariantNumbers:
    """The numbers of a variant's class in :mod:`setwidgets.game.variants`, for a deck of ``deck_size`` cards.

    They are read from the variant, never written here: a variant added by
    subclassing :class:`~setwidgets.game.variants.Variant` and changing its numbers
    is played by :func:`play` as :class:`~setwidgets.game.Game` plays it. A variant
    that changes one of its rules in code (a method) is refused with ValueError.

    >>> variant_numbers("competition")  # doctest: +NORMALIZE_WHITESPACE
    VariantNumbers(table_size=12, more=3, limit=15, send_back=6, deal_back=3, width=15,
                   lost_on_full_table=False)
    >>> variant_numbers("solitaire", deck_size=27).table_size
    9
    """
    name = _variant_name(variant)
    size_of_deck = _inputs.whole_number(deck_size, "deck_size", example="81")
    if not 3 <= size_of_deck <= 81:
        raise ValueError(f"deck_size must be from 3 to 81 cards; got {_inputs.short(size_of_deck)}")
    rules = rules_of(name)
    in_code = rules.rules_in_code()
    if in_code:
        raise ValueError(
            f"the variant {name!r} plays its own {', '.join(in_code)} in code, which only Game plays; "
            "sim plays the variants whose rules are all in their numbers"
        )
    size = rules.usual_table_size(size_of_deck)
    # With deal_until_set, cards are dealt before any "no SET" is said: the limit is never met.
    limited = rules.most_extra is not None and not rules.deal_until_set
    return VariantNumbers(
        table_size=size,
        more=rules.more,
        limit=size + rules.most_extra if limited else kernels.NEVER,  # type: ignore[operator]
        send_back=rules.send_back,
        deal_back=rules.deal_back,
        width=min(size_of_deck, rules.most_on_table(size)),
        lost_on_full_table=rules.lost_on_full_table,
    )


def _variant_name(variant: Any) -> str:
    """The name of a registered variant, as given (any case, spaces around it), or a clear refusal."""
    if isinstance(variant, str) and variant.strip().lower() in variant_names():
        return variant.strip().lower()
    return _inputs.one_of(variant, variant_names(), "variant")  # refuses it, the names listed


# -- decks and generators ------------------------------------------------------------------------


def _deck_indices(deck: Any) -> tuple[np.ndarray, str]:
    """The deck as full-deck indices in Game's order, and its name (checked as Game checks it)."""
    cards = deck_cards(deck)
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
        raise ValueError(f"seed must be a whole number 0 or more; got {_inputs.short(int(seed))}")
    return np.random.default_rng(int(seed)), int(seed)


# -- random tables -------------------------------------------------------------------------------


def deal_tables(
    n: int, size: int, *, deck: str | Iterable[Card | str] = "full", seed: Any = None
) -> np.ndarray:
    """``n`` random tables of ``size`` different cards: an ``(n, size)`` array of card indices.

    Each row is a uniformly random choice of ``size`` cards from the deck
    (``"full"``, ``"mini"`` or a list of cards), in random order. A card's
    number is its index in :data:`~setwidgets.cards.DECK`. A call that would
    need more than 1 GB of memory (``deal_tables(10**8, 12)`` needs 9.6 GB) is
    refused before anything is made: deal fewer tables at a time.

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
        raise ValueError(f"n must be 0 or more tables; got {_inputs.short(count)}")
    if not 0 <= width <= len(cards):
        raise ValueError(
            f"size must be from 0 to {len(cards)}, the cards in the deck; got {_inputs.short(width)}"
        )
    # Checked before numpy is asked for the array: it would fail with its own words, or fill the memory.
    _refuse_too_large(f"deal_tables({count}, {width})", count * max(width, 1) * _CARD_BYTES)
    rng, _ = _generator(seed)
    out = np.empty((count, width), dtype=np.intp)
    for start in range(0, count, kernels.DEAL_BATCH):
        rows = min(kernels.DEAL_BATCH, count - start)
        _deal(cards, rng.random((rows, width)), out[start : start + rows])
    return out


def _as_tables(tables: Any) -> np.ndarray:
    """A 2-d array of card indices (its values are checked by the scan, see :func:`_refuse`)."""
    if isinstance(tables, (str, bytes, bytearray)):
        raise TypeError(
            f"tables must be an array of card indices, one table a row; got {_inputs.what(tables)}"
        )
    expected = (
        "tables must be a 2-d array of card indices 0 to 80, one table a row, like deal_tables(1000, 12)"
    )
    try:
        array = np.asarray(tables)
    except (ValueError, TypeError, OverflowError):  # rows of different lengths, or no array at all
        raise TypeError(f"{expected}; got {_inputs.what(tables)}, whose rows are not all alike") from None
    if array.ndim == 1:
        array = array[None, :]
    if array.ndim != 2 or not (array.dtype.kind in "iu" or array.size == 0):
        raise TypeError(f"{expected}; got {_inputs.what(tables)} of shape {array.shape}")
    outside = np.flatnonzero(((array < 0) | (array > 80)).any(axis=1)) if array.size else []
    if len(outside):
        # Found here, before the cast below, which would turn a number too large into another.
        row = int(outside[0])
        wrong = next(c for c in array[row].tolist() if not 0 <= c <= 80)
        raise ValueError(f"card indices are 0 to 80; got {_inputs.short(wrong)} in table {row}")
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
    cards = tables[row].tolist()
    twice = next(c for n, c in enumerate(cards) if c in cards[:n])
    raise ValueError(f"table {row} holds the card {twice} twice: {_inputs.short(cards)}")


# -- whole games ---------------------------------------------------------------------------------


@dataclass
class _Batch:
    """A batch of games as arrays: their decks, tables and what was seen (see ``kernels.play_games``)."""

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
    numbers: VariantNumbers,
    picks: np.ndarray,
    shufflers: dict[int, random.Random],
    seeds: np.ndarray,
    keep: bool,
    sure: int,
) -> _Batch:
    """Play the games dealt in ``orders`` (one deck a row, in dealing order) to the end."""
    count, decksize = orders.shape
    width, table_size = numbers.width, numbers.table_size
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
    status = np.full(count, kernels.PLAYING, dtype=np.int8)
    b = batch
    rules = (table_size, numbers.more, numbers.limit, sure)
    args = (b.orders, b.table, b.length, b.nxt, status, *rules, picks)
    while _play_games(*args, b.seen, b.none, b.left, b.lost, b.taken, b.ntaken):
        for g in np.flatnonzero(status == kernels.SEND_BACK).tolist():
            shuffler = shufflers.get(g)
            if shuffler is None:
                # Outside like_game, a game's own generator is made when it first needs one.
                shuffler = shufflers[g] = random.Random(int(seeds[g]))
            _send_back(batch, g, shuffler, numbers.send_back, numbers.deal_back)
            status[g] = kernels.PLAYING
    return batch


def _send_back(batch: _Batch, g: int, shuffler: random.Random, count: int, deal: int) -> None:
    """A table at its variant's limit without a SET: ``State.send_back(count, deal)``, by its generator.

    ``count`` cards chosen at random go back into the deck, which is shuffled; ``deal`` of it fill
    the first gaps, the rest are closed as :func:`~setwidgets.sim.kernels.take_out` does for a SET taken.
    """
    length, nxt, decksize = int(batch.length[g]), int(batch.nxt[g]), batch.orders.shape[1]
    cards, order = batch.table[g], batch.orders[g]
    positions = sorted(shuffler.sample(range(length), count))
    deck = order[nxt:].tolist() + cards[positions].tolist()
    shuffler.shuffle(deck)
    top = decksize - len(deck)
    order[top:] = deck
    gaps = np.array(positions, dtype=np.intp)
    fill = min(deal, len(deck), count)
    batch.length[g] = kernels.take_out(cards, length, gaps, fill, order, top, np.full(81, -1, dtype=np.intp))
    batch.nxt[g] = top + fill


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

    - ``variant``: ``"standard"``, ``"solitaire"``, ``"online"`` or ``"competition"``
      (or a variant added with its rules in its numbers: see :func:`variant_numbers`);
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
    - ``keep_sets``: keep the SETs of every game in ``tally.taken`` (about 2.7 KB a
      game: more than 1 GB in all is refused up front).

    ``games`` is at most 10,000,000,000, more than a day of play.

    Ctrl-C (or the notebook's stop button) stops the run cleanly: the tally
    then holds the games finished so far and says it was interrupted.

    >>> tally = play(200, variant="solitaire", seed=3, progress=False)
    >>> tally.games, 0 < tally.lost < 200
    (200, True)
    """
    count = _inputs.whole_number(games, "games", example="10000")
    if count < 0:
        raise ValueError(f"games must be 0 or more; got {_inputs.short(count)}")
    if count > _MOST_GAMES:
        raise ValueError(
            f"games must be at most {_MOST_GAMES:,}, more than a day of play; got {_inputs.short(count)}"
        )
    rule = _variant_name(variant)
    if isinstance(policy, str) and policy.strip().lower() in POLICIES:
        how = policy.strip().lower()
    else:
        how = _inputs.one_of(policy, POLICIES, "policy")  # refuses it, the policies listed
    progress = _inputs.true_or_false(progress, "progress")
    like_game = _inputs.true_or_false(like_game, "like_game")
    keep_sets = _inputs.true_or_false(keep_sets, "keep_sets")
    cards, deck_name = _deck_indices(deck)
    numbers = variant_numbers(rule, len(cards))
    if keep_sets:
        # Each game keeps its SETs as tuples in lists, about 100 bytes a SET.
        _refuse_too_large(f"play({count}, keep_sets=True)", count * (len(cards) // 3) * _SET_BYTES)
    if like_game and seed is None:
        seed = random.SystemRandom().getrandbits(32)
    if like_game and not _inputs.is_whole(seed):
        raise TypeError(f"like_game=True needs a whole-number seed, as Game takes; got {_inputs.what(seed)}")
    rng, seed_used = _generator(seed)
    # Any this many cards hold a SET: 21 in the full deck, 10 in a mini deck (its largest cap is 9).
    sure = 10 if deck_name == "mini" else min(MOST_WITHOUT_SET + 1, len(cards) + 1)
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
            batch = _play_batch(orders, numbers, picks, shufflers, seeds, keep_sets, sure)
            _add(tally, batch, numbers.lost_on_full_table)
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


def _add(tally: Tally, batch: _Batch, can_be_lost: bool) -> None:
    tally.games += len(batch.left)
    for size in np.flatnonzero(batch.seen).tolist():
        tally.tables[size] += int(batch.seen[size])
        tally.no_set[size] += int(batch.none[size])
    tally.left.update(batch.left.tolist())
    tally.sets.update(batch.ntaken.tolist())
    tally.lost += int(batch.lost.sum()) if can_be_lost else 0
    if tally.taken is not None:
        tally.taken.extend(
            [tuple(s) for s in sets[:n]] for sets, n in zip(batch.taken.tolist(), batch.ntaken.tolist())
        )


def _progress_bar(total: int, progress: bool) -> Any:
    if not progress:
        return None
    from tqdm.auto import tqdm  # a notebook gets a widget bar, a terminal a text one

    return tqdm(total=total, unit="game", desc="playing")
