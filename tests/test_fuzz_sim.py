"""Fuzzing sim's public API: every odd input is answered in our words, at once.

Random tables (``deal_tables``, ``count_sets_many``, ``has_set_many``), whole games (``play``),
a variant's numbers (``variant_numbers``, ``VariantNumbers``), the Wilson interval
(``wilson``) and a run's :class:`Tally` (made by hand, ``rate``, ``rates``, ``mean_sets``, its
text and its plot) are called with drawn arguments of every kind through ``fuzzing.attempt``,
which fails on a raw error (numpy's, numba's or Python's words) or a hang. The valid sizes
drawn are small, to keep each test fast: the odd inputs are what is tried here.
"""

from __future__ import annotations

import itertools
import math

import fuzzing
import numpy as np
import pytest
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setwidgets import sim
from setwidgets.cards import full_deck

MODULE = "sim"
DECK = full_deck()

odd_text = st.sampled_from(
    ["", " ", "\x00", "full\x00", "\u202efull", "\u200bmini", "mini ", " FULL", "standard\x00", "x" * 500]
) | st.text(max_size=12)
huge = st.sampled_from([-1, -(10**30), 2**31, 2**63, 2**64, 10**8, 10**9, 10**12, 10**30])
odd_number = (
    st.integers(min_value=-5, max_value=30)
    | huge
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from([2.0, -0.0, math.nan, math.inf, np.int64(3), np.float64(2.0), np.uint8(7)])
    | st.booleans()
    | st.none()
    | st.text(max_size=5)
    | st.binary(max_size=5)
)
a_few_cards = st.lists(st.sampled_from(DECK), min_size=0, max_size=12)
odd_deck = (
    st.sampled_from(["full", "mini", "Mini ", "tiny", "", "\x00", b"full", None, 81, 27.0])
    | odd_text
    | a_few_cards
    | a_few_cards.map(lambda cards: [c.code for c in cards])
    | st.lists(odd_number, max_size=4)
    | st.sampled_from(["endless", "endless cards"])
)
odd_seed = odd_number | st.sampled_from(["generator", "random"])
odd_flag = st.sampled_from([True, False, None, 0, 1, "yes", "no", "", b"", 2.5, np.bool_(True), [True]])
cell = st.integers(min_value=-3, max_value=84) | st.sampled_from([2**63 - 1, -(2**63), 10**30])
odd_tables = (
    st.lists(st.lists(cell, min_size=3, max_size=6), min_size=0, max_size=5)
    | st.lists(st.lists(st.integers(0, 80), min_size=3, max_size=3), min_size=1, max_size=3)
    | st.lists(cell, max_size=8)
    | st.lists(st.lists(st.floats(allow_nan=True), max_size=4), max_size=3)
    | st.lists(st.lists(odd_number, max_size=3), max_size=3)
    | st.lists(st.lists(st.lists(st.integers(0, 80), max_size=2), max_size=2), max_size=2)
    | odd_number
    | odd_text
    | st.sampled_from(["endless", "array", "bool array", "uint64 array", "empty", "cards"])
)
FUZZ = settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def endless(kind: str = "endless"):
    """An iterable that never ends: a function that reads it all must refuse it, not hang."""
    if kind == "endless cards":
        return itertools.cycle(DECK)
    return itertools.count(1)


def made(value):
    """The drawn marker made into its object (generators and arrays are made fresh for each call)."""
    if value in ("endless", "endless cards"):
        return endless(value)
    if value == "generator":
        return np.random.default_rng(1)
    if value == "random":
        import random

        return random.Random(1)
    if value == "array":
        return np.arange(12).reshape(3, 4)
    if value == "bool array":
        return np.ones((2, 3), dtype=bool)
    if value == "uint64 array":
        return np.array([[2**64 - 1, 0, 1]], dtype=np.uint64)
    if value == "empty":
        return np.empty((0, 0))
    if value == "cards":
        return [DECK[:3], DECK[3:6]]
    return value


def _state_of(seed):
    """The state of a generator given as the seed (None for a number): a refusal must not move it."""
    if isinstance(seed, np.random.Generator):
        return repr(seed.bit_generator.state)
    return seed.getstate() if hasattr(seed, "getstate") else None


@FUZZ
@given(n=odd_number, size=odd_number, deck=odd_deck, seed=odd_seed)
def test_deal_tables_answers_every_call_at_once(n, size, deck, seed):
    if isinstance(n, int) and isinstance(size, int) and n > 30 and n * max(size, 1) * 8 <= 10**9:
        n = 30  # a valid call this large only takes time; the odd ones are tried here
    generator = made(seed)
    before = _state_of(generator)
    outcome = fuzzing.attempt(MODULE, sim.deal_tables, n, size, deck=made(deck), seed=generator)
    if outcome.kind == "refused":
        assert _state_of(generator) == before, "a refused call draws no random number"


@pytest.mark.parametrize("n, size", [(10**8, 12), (10**9, 12), (10**12, 3), (2**63, 12), (10**30, 1)])
def test_deal_tables_refuses_a_call_too_large_for_memory(n, size):
    outcome = fuzzing.attempt(MODULE, sim.deal_tables, n, size)
    assert outcome.kind == "refused"


@FUZZ
@given(tables=odd_tables)
def test_the_table_scans_answer_every_table_at_once(tables):
    for function in (sim.count_sets_many, sim.has_set_many):
        given = made(tables)
        saved = np.array(given, copy=True) if isinstance(given, np.ndarray) else None
        fuzzing.attempt(MODULE, function, given)
        if saved is not None:
            assert (given == saved).all()  # the caller's tables are read, never written


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    games=odd_number,
    variant=odd_text | odd_number | st.sampled_from(["standard", "solitaire", "online", "competition"]),
    deck=odd_deck,
    policy=odd_text | odd_number | st.sampled_from(["first", "random", "RANDOM"]),
    seed=odd_seed,
    like_game=odd_flag,
    keep_sets=odd_flag,
    progress=odd_flag,
)
def test_play_answers_every_call_at_once(games, variant, deck, policy, seed, like_game, keep_sets, progress):
    if isinstance(games, int) and 20 < games <= 10**10:
        games = 20  # a valid run this long only takes time (with its bar); the odd ones are tried here
    generator = made(seed)
    before = _state_of(generator)
    outcome = fuzzing.attempt(
        MODULE,
        sim.play,
        games,
        variant=variant,
        deck=made(deck),
        policy=policy,
        seed=generator,
        progress=progress,
        like_game=like_game,
        keep_sets=keep_sets,
    )
    if outcome.kind == "refused":
        assert _state_of(generator) == before, "a refused call draws no random number"


@FUZZ
@given(variant=odd_text | odd_number | st.sampled_from(["standard", "Solitaire"]), deck_size=odd_number)
def test_variant_numbers_answers_every_call_at_once(variant, deck_size):
    fuzzing.attempt(MODULE, sim.variant_numbers, variant)
    fuzzing.attempt(MODULE, sim.variant_numbers, variant, deck_size)


@FUZZ
@given(numbers=st.lists(odd_number, min_size=7, max_size=7))
def test_variant_numbers_are_checked_when_made_by_hand(numbers):
    fuzzing.attempt(MODULE, sim.VariantNumbers, *numbers)


@FUZZ
@given(hits=odd_number, trials=odd_number, z=odd_number)
def test_wilson_answers_every_call_at_once(hits, trials, z):
    fuzzing.attempt(MODULE, sim.wilson, hits, trials)
    outcome = fuzzing.attempt(MODULE, sim.wilson, hits, trials, z)
    if outcome.kind == "accepted":
        low, high = outcome.value
        assert 0.0 <= low <= high <= 1.0


counts = st.dictionaries(st.integers(-3, 30) | huge | st.text(max_size=3), odd_number, max_size=3)


@FUZZ
@given(
    variant=odd_text | st.just("standard") | odd_number,
    deck=odd_text | st.just("full") | odd_number,
    policy=odd_text | st.just("first") | odd_number,
    seed=odd_number,
    games=odd_number,
    tables=counts | odd_number,
    lost=odd_number,
    size=odd_number,
)
def test_a_tally_made_by_hand_is_checked_and_reads_well(
    variant, deck, policy, seed, games, tables, lost, size
):
    outcome = fuzzing.attempt(
        MODULE, sim.Tally, variant, deck, policy, seed, games=games, tables=tables, no_set=tables, lost=lost
    )
    tally = outcome.value if outcome.kind == "accepted" else sim.Tally("standard", "full", "first", 1)
    fuzzing.attempt(MODULE, tally.rate, size)
    fuzzing.attempt(MODULE, tally.rates)
    fuzzing.attempt(MODULE, lambda: tally.mean_sets)
    fuzzing.attempt(MODULE, repr, tally)


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ax=odd_number | odd_text | st.sampled_from([[], object()]))
def test_a_tallys_plot_refuses_what_is_not_axes(ax):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tally = sim.play(3, seed=1, progress=False)
    fuzzing.attempt(MODULE, tally.plot, ax)
    plt.close("all")
