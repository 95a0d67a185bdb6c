"""SET-free tables: the exact counts (symmetry against brute force) and the largest ones."""

import itertools
import math
import random
import re
import time
from collections import Counter

import pytest

from setwidgets import caps
from setwidgets.caps import _count, _Deck
from setwidgets.cards import full_deck, mini_deck
from setwidgets.rules import is_set

NINE = mini_deck(color="red", shading="solid")
MINI = mini_deck()


def brute_force_count(deck, size):
    """Every table of ``size`` cards, tried triple by triple."""
    return sum(
        not any(is_set(*t) for t in itertools.combinations(table, 3))
        for table in itertools.combinations(deck, size)
    )


@pytest.mark.parametrize("size", range(0, 10))
def test_count_set_free_matches_brute_force_on_the_nine_card_deck(size):
    assert caps.count_set_free(size, NINE) == brute_force_count(NINE, size)


@pytest.mark.parametrize("size", range(0, 6))
def test_count_set_free_matches_brute_force_on_the_mini_deck(size):
    assert caps.count_set_free(size, "mini") == brute_force_count(MINI, size)


def test_the_symmetry_gives_what_listing_every_table_gives_for_every_size_of_the_mini_deck():
    deck = _Deck("mini")
    listed = [1] + [_count(deck, [], deck.all, n) for n in range(1, 28)]
    assert [caps.count_set_free(n, "mini") for n in range(28)] == listed
    assert listed[9] > 0 and listed[10] == 0  # 9 cards without a SET, never 10


def test_full_deck_counts_by_symmetry_agree_with_listing_every_table_and_with_the_sets():
    # Three cards are SET-free unless they are one of the 1080 SETs.
    assert caps.count_set_free(3) == math.comb(81, 3) - 1080
    deck = _Deck("full")
    for size in (4, 5):
        assert caps.count_set_free(size) == _count(deck, [], deck.all, size)
    eight = caps.count_set_free(8)
    # The share of SET-free tables falls with the size, and a random deal of 8 cards is SET-free
    # about as often as sim finds.
    from setwidgets import sim

    rate = 1 - sim.has_set_many(sim.deal_tables(40000, 8, seed=1)).mean()
    assert abs(rate - eight / math.comb(81, 8)) < 0.01


def test_a_list_of_cards_that_is_not_closed_is_counted_table_by_table():
    rng = random.Random(4)
    deck = rng.sample(full_deck(), 14)
    assert _Deck(deck).basis is None
    assert [caps.count_set_free(n, deck) for n in range(6)] == [brute_force_count(deck, n) for n in range(6)]


def test_count_set_free_refuses_bad_input():
    with pytest.raises(ValueError, match="0 or more"):
        caps.count_set_free(-1)
    with pytest.raises(TypeError, match="size"):
        caps.count_set_free("8")
    with pytest.raises(ValueError, match="unknown deck"):
        caps.count_set_free(3, "tiny")
    assert caps.count_set_free(28, "mini") == 0


@pytest.mark.parametrize(("deck", "most"), [(NINE, 4), ("mini", 9), ("full", 20)])
def test_largest_set_free_finds_the_known_maxima(deck, most):
    found = caps.largest_set_free(deck, progress=False)
    assert len(found) == most
    assert caps.is_set_free(found)
    assert len(set(found)) == most
    # Each card of the deck outside it makes a SET with two of its cards: nothing can be added.
    cards = NINE if deck is NINE else mini_deck() if deck == "mini" else full_deck()
    assert all(not caps.is_set_free([*found, c]) for c in cards if c not in found)


def test_one_card_more_than_the_maximum_always_holds_a_set_in_the_small_decks():
    assert caps.count_set_free(5, NINE) == 0
    assert caps.count_set_free(10, "mini") == 0


def test_other_seeds_find_other_largest_tables():
    tables = {tuple(caps.largest_set_free(seed=s, progress=False)) for s in range(4)}
    assert all(len(t) == 20 for t in tables)
    assert len(tables) > 1


def test_is_set_free_looks_at_pairs_only():
    assert caps.is_set_free(["1RSO", "2RSO", "1GSO"])
    assert not caps.is_set_free("1RSO 2RSO 3RSO 1GTS")
    assert caps.is_set_free([])
    with pytest.raises(ValueError, match="twice"):
        caps.is_set_free(["1RSO", "1RSO"])


def test_a_search_out_of_time_returns_the_best_found():
    found = caps.largest_set_free("mini", progress=False, seconds=1e-9)
    assert caps.is_set_free(found) and 4 <= len(found) <= 9


def test_progress_bars_show_and_change_nothing(capsys, monkeypatch):
    assert caps.count_set_free(6, progress=True) == caps.count_set_free(6, progress=False)
    assert capsys.readouterr().err == "", "a count of a moment shows no bar"
    monkeypatch.setattr(caps, "_QUIET_SECONDS", 0.0)
    assert caps.count_set_free(6) == 247615056
    bar = capsys.readouterr().err.split("\r")[-1]
    assert bar.startswith("tables of 6 cards, roughly 1 second in all: 100%")
    assert len(caps.largest_set_free("mini", progress=True)) == 9
    assert "largest SET-free table" in capsys.readouterr().err


def test_is_set_free_takes_the_cards_one_by_one_too():
    assert not caps.is_set_free("1RSO", "2RSO", "3RSO")
    assert caps.is_set_free("1RSO", "2RSO", "1GSO")


def test_the_search_repeats_with_its_seed_and_starts_from_seed_0():
    assert caps.largest_set_free(progress=False) == caps.largest_set_free(seed=0, progress=False)
    assert caps.largest_set_free(seed=1, progress=False) != caps.largest_set_free(seed=0, progress=False)
    assert caps.largest_set_free(seed=5, progress=False) == caps.largest_set_free(seed=5, progress=False)


def test_a_search_out_of_time_before_it_starts_returns_the_cards_it_starts_from():
    # An affine deck's search starts from a basis: 1 + 3 cards of the mini deck, in general position.
    assert len(caps.largest_set_free("mini", progress=False, seconds=1e-9)) == 4
    assert len(caps.largest_set_free("mini", progress=False, seconds=60)) == 9
    with pytest.raises(ValueError, match=r"^seconds must be a finite number of seconds above 0"):
        caps.largest_set_free("mini", progress=False, seconds=-1)
    with pytest.raises(TypeError, match=r"^seconds must be a number of seconds or None"):
        caps.largest_set_free("mini", progress=False, seconds="x")


def test_the_search_shows_its_bar_by_default_branch_by_branch(capsys):
    assert len(caps.largest_set_free("mini")) == 9
    bar = capsys.readouterr().err.split("\r")[-1]
    assert bar.startswith("largest SET-free table: 100%")
    assert re.search(r" (\d+)/\1 ", bar), "every branch counted once"
    assert "branch/s, best=9]" in bar


def test_the_largest_set_free_table_of_any_list_of_cards_is_found_by_a_full_search():
    deck = random.Random(4).sample(full_deck(), 14)
    found = caps.largest_set_free(deck, progress=False)
    assert caps.is_set_free(found) and set(found) <= set(deck)
    assert len(found) == max(n for n in range(15) if caps.count_set_free(n, deck) > 0)


# -- odd input, answered at once (issue 25) ------------------------------------------------------


@pytest.mark.parametrize(
    "size, deck",
    [(21, "full"), (22, "full"), (81, "full"), (10**30, "full"), (10, "mini"), (5, NINE), (3, NINE[:3])],
)
def test_a_size_past_the_largest_set_free_table_is_answered_at_once(size, deck):
    # 21 cards of the full deck always hold a SET (Pellegrino), 10 of the mini deck, 5 of a plane,
    # 3 of a line: no search is needed to answer 0.
    start = time.perf_counter()
    assert caps.count_set_free(size, deck) == 0
    assert time.perf_counter() - start < 0.5


def test_a_size_past_20_cards_is_answered_at_once_for_any_list_of_cards():
    deck = random.Random(1).sample(full_deck(), 40)
    assert _Deck(deck).basis is None and _Deck(deck).most == 20
    start = time.perf_counter()
    assert caps.count_set_free(21, deck) == 0
    assert time.perf_counter() - start < 0.5


def test_a_long_count_states_its_time_up_front(capsys, monkeypatch):
    # The count itself is left out: only its estimate and its bar are looked at.
    monkeypatch.setattr(caps, "_count", lambda deck, chosen, allowed, need: 0)
    assert caps.count_set_free(12) == 0
    bar = capsys.readouterr().err.lstrip("\r")
    assert re.match(r"tables of 12 cards, roughly \d+ (minutes|hours|days) in all:   0%", bar), bar[:120]


def test_the_estimate_of_a_count_is_near_its_true_size():
    deck = _Deck("full")
    triple = deck.basis[:3]
    calls = 0

    def counted(*args):
        nonlocal calls
        calls += 1
        return real(*args)

    real = caps._count
    caps._count = counted
    try:
        # _count calls itself through the module's name, so every call of the search is counted.
        caps._count(deck, list(triple), deck.start(triple), 4)
    finally:
        caps._count = real
    estimate = caps._steps(deck, list(triple), deck.start(triple), 4, random.Random(7), 400)
    assert calls / 3 < estimate < calls * 3


def test_ctrl_c_stops_a_long_count_cleanly(capsys, monkeypatch):
    monkeypatch.setattr(caps, "_QUIET_SECONDS", 0.0)
    real, depths = caps._count, Counter()

    def interrupted(deck, chosen, allowed, need):
        # The count's own calls go one card deeper each: the branches are the calls at the first depth.
        depths[len(chosen)] += 1
        if depths[min(depths)] == 30:
            raise KeyboardInterrupt
        return real(deck, chosen, allowed, need)

    monkeypatch.setattr(caps, "_count", interrupted)
    stopped = r"^count_set_free\(7\) was stopped after about (\d+)% of its count"
    with pytest.raises(KeyboardInterrupt, match=stopped) as info:
        caps.count_set_free(7)
    assert 0 < int(re.match(stopped, str(info.value)).group(1)) < 100  # part of the branches done
    bar = capsys.readouterr().err.lstrip("\r")
    assert bar.startswith("tables of 7 cards") and bar.endswith("\n"), "the bar is closed"
    assert " steps/s]" in bar  # it counts steps of the search, not tables


@pytest.mark.parametrize("progress", ["no", 1, None, [True]])
def test_progress_is_true_or_false(progress):
    with pytest.raises(TypeError, match=r"^progress must be True or False; got "):
        caps.count_set_free(3, progress=progress)
    with pytest.raises(TypeError, match=r"^progress must be True or False; got "):
        caps.largest_set_free("mini", progress=progress)


def test_the_search_of_a_large_list_of_cards_stops_at_20():
    deck = list(full_deck())[1:]  # 80 cards: not an affine space, so the search starts from no card
    assert _Deck(deck).basis is None
    found = caps.largest_set_free(deck, progress=False, seconds=60)
    assert len(found) == 20 and caps.is_set_free(found)
