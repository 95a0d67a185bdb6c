"""sim's numpy loops (setwidgets.sim.vectorised) give what the loops of kernels give, bit for bit.

Without numba, sim runs the numpy versions; the loops of kernels, run as plain Python, stay the
reference. Each test feeds both the same random numbers and compares every output: tables,
decks, SET counts, and whole games (each SET taken, in order, and every count of the tally).
"""

import itertools

import numpy as np
import pytest

from setwidgets import sim
from setwidgets.cards import full_deck
from setwidgets.game import variants as v
from setwidgets.sim import kernels, vectorised


def plain(loop):
    """A loop of kernels as plain Python (numba keeps the Python function as ``py_func``)."""
    return getattr(loop, "py_func", loop)


SEEDS = [1, 2, 3]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n", [0, 1, 2, 3, 12, 27, 81])
def test_decks_are_shuffled_with_the_same_swaps(n, seed):
    uniform = np.random.default_rng(seed).random((300, max(n - 1, 0)))
    reference = np.tile(np.arange(n, dtype=np.uint8), (300, 1))
    numpy_rows = reference.copy()
    plain(kernels.shuffle_rows)(reference, uniform)
    vectorised.shuffle_rows(numpy_rows, uniform)
    assert numpy_rows.tolist() == reference.tolist()
    if n > 3:
        assert len({tuple(row) for row in numpy_rows.tolist()}) > 250  # the rows were shuffled


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("deck", ["full", "mini", "22 cards"])
@pytest.mark.parametrize("width", [0, 1, 3, 12, 21])
def test_tables_are_dealt_with_the_same_swaps(width, deck, seed):
    cards = {"full": np.arange(81), "mini": np.arange(0, 81, 3), "22 cards": np.arange(22) * 3 + 2}[deck]
    if width > len(cards):
        width = len(cards)
    uniform = np.random.default_rng(seed).random((400, width))
    reference, numpy_tables = (np.full((400, width), -1, dtype=np.intp) for _ in range(2))
    plain(kernels.deal)(cards, uniform, reference)
    vectorised.deal(cards, uniform, numpy_tables)
    assert numpy_tables.dtype == reference.dtype and numpy_tables.tolist() == reference.tolist()


def test_a_whole_deck_is_dealt_alike():
    uniform = np.random.default_rng(9).random((50, 81))
    reference, numpy_tables = (np.zeros((50, 81), dtype=np.intp) for _ in range(2))
    plain(kernels.deal)(np.arange(81), uniform, reference)
    vectorised.deal(np.arange(81), uniform, numpy_tables)
    assert numpy_tables.tolist() == reference.tolist()


def scan_both(tables, count):
    """The row each scan stops at and its answers (-1 where it wrote none)."""
    reference, numpy_out = (np.full(len(tables), -1, dtype=np.intp) for _ in range(2))
    stop = plain(kernels.scan_tables)(tables, count, reference)
    assert vectorised.scan_tables(tables, count, numpy_out) == stop
    assert numpy_out.tolist() == reference.tolist()
    return stop, numpy_out


@pytest.mark.parametrize("count", [True, False])
@pytest.mark.parametrize("width", [0, 1, 2, 3, 4, 9, 12, 15, 21, 81])
def test_tables_are_scanned_alike(width, count):
    many = 20 if width == 81 else 200  # a whole deck: 3160 pairs a table in plain Python
    tables = np.vstack([sim.deal_tables(many, width, seed=seed) for seed in SEEDS])
    stop, out = scan_both(tables, count)
    assert stop == -1
    if width == 12:
        assert 0 < (out == 0).sum() < 60  # tables with no SET were among them
    if width == 21:
        assert (out > 0).all()


@pytest.mark.parametrize("count", [True, False])
@pytest.mark.parametrize("wrong", ["a card twice", "card -1", "card 81"])
def test_a_scan_stops_at_the_same_wrong_table_having_answered_the_rows_before(wrong, count):
    tables = sim.deal_tables(200, 12, seed=4)
    tables[150, 7] = {"a card twice": tables[150, 2], "card -1": -1, "card 81": 81}[wrong]
    tables[170, 0] = tables[170, 1]
    stop, out = scan_both(tables, count)
    assert stop == 150 and (out[:150] >= 0).all() and (out[150:] == -1).all()


# -- whole games -------------------------------------------------------------------------------------


def play_both(monkeypatch, **how):
    """The same run played by kernels' loops as plain Python, then by their numpy versions."""
    tallies = []
    for shuffle, loop in (
        (plain(kernels.shuffle_rows), plain(kernels.play_games)),
        (vectorised.shuffle_rows, vectorised.play_games),
    ):
        monkeypatch.setattr(sim, "_shuffle_rows", shuffle)
        monkeypatch.setattr(sim, "_play_games", loop)
        tallies.append(sim.play(progress=False, keep_sets=True, **how))
    return tallies


def the_same(reference, numpy_tally):
    fields = ("games", "taken", "tables", "no_set", "left", "sets", "lost", "seed")
    assert [getattr(numpy_tally, f) for f in fields] == [getattr(reference, f) for f in fields]


@pytest.mark.parametrize("n", [3, 4, 5, 9, 12, 13, 15, 18, 21])
def test_every_set_taken_leaves_the_table_alike_whatever_its_places_and_the_cards_left(n):
    """Every three places of a table of n, with 0 to 3 cards of the deck to fill them: State.remove."""
    gaps = np.array(list(itertools.combinations(range(n), 3)), dtype=np.intp).repeat(4, axis=0)
    fill = np.tile(np.arange(4), len(gaps) // 4)
    games, width = len(gaps), 21
    orders = np.tile(np.arange(80, -1, -1, dtype=np.uint8), (games, 1))
    table = np.full((games, width), kernels.EMPTY, dtype=np.uint8)
    table[:, :n] = np.arange(n)
    top = np.full(games, 30, dtype=np.intp)
    reference, take_out = table.copy(), plain(kernels.take_out)
    where = np.full(81, -1, dtype=np.intp)  # the loop keeps it up to date; the numpy version needs none
    sizes = [take_out(reference[x], n, gaps[x], fill[x], orders[x], 30, where) for x in range(games)]
    games_at = np.arange(games)
    assert vectorised._take_out(table, games_at, np.full(games, n), gaps, fill, orders, top).tolist() == sizes
    assert table.tolist() == reference.tolist()


A_SHORT_DECK = [card.code for card in full_deck()[5:27]]  # 22 cards: the last deal fills one gap of three


KINDS = [
    (variant, deck, policy)
    for variant in ("standard", "solitaire", "competition", "online")
    for deck in ("full", "mini", "short")
    for policy in ("first", "random")
]


@pytest.mark.parametrize(("variant", "deck", "policy"), KINDS)
def test_games_are_played_alike(monkeypatch, variant, deck, policy):
    how = {"variant": variant, "deck": A_SHORT_DECK if deck == "short" else deck, "policy": policy}
    seed = 100 + KINDS.index((variant, deck, policy))  # a seed of its own for each kind of game
    reference, numpy_tally = play_both(monkeypatch, games=250, seed=seed, **how)
    the_same(reference, numpy_tally)
    assert sum(reference.sets.values()) == 250


@pytest.mark.parametrize("variant", ["standard", "competition"])
def test_games_dealt_like_game_are_played_alike(monkeypatch, variant):
    # like_game deals with Python's random and sends cards back with each Game's own generator.
    reference, numpy_tally = play_both(monkeypatch, games=60, seed=1008, variant=variant, like_game=True)
    the_same(reference, numpy_tally)


OTHER_NUMBERS = {
    "generous": {"more": 6},
    "strict": {"most_extra": 3, "send_back": 9, "deal_back": 6},
    "roomy": {"table_size": 15, "small_table_size": 6},
}


@pytest.mark.parametrize("deck", ["full", "mini"])
@pytest.mark.parametrize("name", OTHER_NUMBERS)
def test_variants_with_other_numbers_are_played_alike(monkeypatch, registry, name, deck):
    type(name.title(), (v.Variant,), {"__doc__": f"{name}.", "name": name, **OTHER_NUMBERS[name]})
    for policy in ("first", "random"):
        reference, numpy_tally = play_both(
            monkeypatch, games=100, seed=7, variant=name, deck=deck, policy=policy
        )
        the_same(reference, numpy_tally)


def test_a_deck_without_a_set_ends_at_once_alike(monkeypatch):
    cap = [card.code for card in full_deck() if max(card.vector) < 2][:14]  # values 0 and 1: no SET
    reference, numpy_tally = play_both(monkeypatch, games=20, seed=1, deck=cap)
    the_same(reference, numpy_tally)
    assert numpy_tally.left == {14: 20}


def test_sim_runs_the_numpy_loops_when_numba_is_missing():
    chosen = (sim._deal, sim._scan, sim._shuffle_rows, sim._play_games)
    if sim.COMPILED:
        assert chosen == (kernels.deal, kernels.scan_tables, kernels.shuffle_rows, kernels.play_games)
    else:
        numpy_loops = (
            vectorised.deal,
            vectorised.scan_tables,
            vectorised.shuffle_rows,
            vectorised.play_games,
        )
        assert chosen == numpy_loops
