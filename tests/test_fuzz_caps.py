"""Fuzzing caps' public API: every odd input is answered in our words, at once.

``is_set_free``, ``count_set_free`` and ``largest_set_free`` are called with drawn arguments
of every kind (decks that are no decks, sizes that are no sizes, endless generators, seeds
and time limits of the wrong kind) through ``fuzzing.attempt``, which fails on a raw error or
a hang. A valid count of the full deck takes minutes from 10 cards on, so the valid sizes
drawn for it are small, and those past the largest SET-free table, which are answered at once.
"""

from __future__ import annotations

import itertools
import math
import random

import fuzzing
import numpy as np
import pytest
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setwidgets import caps
from setwidgets.cards import full_deck, mini_deck

MODULE = "caps"
DECK = full_deck()

odd_text = st.sampled_from(
    [
        "",
        " ",
        "\x00",
        "full\x00",
        "\u202efull",
        "\u200bmini",
        "mini ",
        "1RSO\x002GTS",
        "1RSO \u200b2GTS",
        "x" * 500,
    ]
) | st.text(max_size=12)
odd_number = (
    st.integers(min_value=-5, max_value=8)
    | st.integers(min_value=21, max_value=10**6)
    | st.sampled_from([-1, -(10**30), 2**63, 10**9, 10**30])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from([2.0, -0.0, math.nan, math.inf, np.int64(3), np.float64(2.0)])
    | st.booleans()
    | st.none()
    | st.text(max_size=5)
    | st.binary(max_size=5)
)
a_few_cards = st.lists(st.sampled_from(DECK), min_size=0, max_size=12)
odd_cards = (
    a_few_cards
    | a_few_cards.map(lambda cards: " ".join(c.code for c in cards))
    | a_few_cards.map(lambda cards: [c.code for c in cards])
    | st.lists(odd_number | odd_text, max_size=4)
    | odd_number
    | odd_text
    | st.sampled_from(["endless", "endless cards", "deck"])
)
odd_deck = st.sampled_from(["full", "mini", "Mini ", "tiny", b"mini", "plane"]) | odd_cards
odd_flag = st.sampled_from([True, False, None, 0, 1, "yes", "", 2.5, [True]])
FUZZ = settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def made(value):
    """The drawn marker made into its object (generators are made fresh for each call)."""
    if value == "endless":
        return itertools.count(1)
    if value == "endless cards":
        return itertools.cycle(DECK)
    if value == "deck":
        return (card for card in DECK)
    if value == "plane":
        return mini_deck(color="red", shading="solid")
    return value


@FUZZ
@given(cards=odd_cards, more=st.lists(odd_number | odd_text | st.sampled_from(DECK), max_size=3))
def test_is_set_free_answers_every_call_at_once(cards, more):
    fuzzing.attempt(MODULE, caps.is_set_free, made(cards))
    fuzzing.attempt(MODULE, caps.is_set_free, made(cards), *more)


@FUZZ
@given(size=odd_number, deck=odd_deck, progress=odd_flag)
def test_count_set_free_answers_every_call_at_once(size, deck, progress):
    if deck in ("full", "deck") and isinstance(size, int) and 8 < size <= 20:
        size = 5  # a valid count of the full deck that takes minutes; the odd ones are tried here
    deck = made(deck)
    fuzzing.attempt(MODULE, caps.count_set_free, size, deck, progress=progress)


@pytest.mark.parametrize("size", [21, 22, 81, 82, 10**9, 2**63])
def test_count_set_free_answers_past_the_largest_set_free_table_at_once(size):
    outcome = fuzzing.attempt(MODULE, caps.count_set_free, size, progress=False)
    assert outcome.kind == "accepted" and outcome.value == 0


@FUZZ
@given(
    deck=odd_deck,
    seed=odd_number | st.sampled_from(["random", "generator"]),
    progress=odd_flag,
    seconds=odd_number,
)
def test_largest_set_free_answers_every_call_at_once(deck, seed, progress, seconds):
    if seconds is None and deck in ("full", "deck"):
        seconds = 1
    deck = made(deck)
    if seed == "random":
        seed = random.Random(3)
    elif seed == "generator":
        seed = np.random.default_rng(3)
    if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and seconds > 1:
        seconds = 1  # a valid search stops at its deadline; the odd ones are tried here
    before = seed.getstate() if isinstance(seed, random.Random) else None
    outcome = fuzzing.attempt(
        MODULE, caps.largest_set_free, deck, seed=seed, progress=progress, seconds=seconds
    )
    if outcome.kind == "refused" and before is not None:
        assert seed.getstate() == before, "a refused search draws no random number"
