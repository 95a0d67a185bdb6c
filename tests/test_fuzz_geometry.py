"""Fuzzing geometry's public API: every odd input is answered in our words, at once.

Lines, planes, directions and magic squares, the steps between cards, and the affine maps
(made from a matrix, as a translation, a relabeling, a map taking cards to cards, or at
random; applied to cards, composed and inverted) are called with drawn arguments of every
kind, endless generators included, through ``fuzzing.attempt``, which fails on a raw error or
a hang. A map is never changed by a call that is refused.
"""

from __future__ import annotations

import itertools
import math

import fuzzing
import numpy as np
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setwidgets import geometry
from setwidgets.cards import full_deck
from setwidgets.geometry import AffineMap

MODULE = "geometry"
DECK = full_deck()

odd_text = st.sampled_from(
    ["", " ", "\x00", "1RSO\x00", "\u202e1RSO", "\u200b1RSO", "1RSO 2GTS", "1RSO 2GTS 3POD", "x" * 500]
) | st.text(max_size=12)
odd_number = (
    st.integers(min_value=-5, max_value=5)
    | st.sampled_from([-1, -(10**30), 2**63, 10**9, 10**30])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from([2.0, math.nan, math.inf, np.int64(3), np.float64(2.0)])
    | st.booleans()
    | st.none()
    | st.text(max_size=5)
    | st.binary(max_size=5)
)
a_card = st.sampled_from(DECK) | st.sampled_from(DECK).map(lambda c: c.code)
odd_card = a_card | odd_number | odd_text | st.sampled_from(["endless", "endless cards"])
a_few_cards = st.lists(a_card, max_size=6)
odd_cards = (
    a_few_cards
    | a_few_cards.map(lambda cards: " ".join(str(c) for c in cards))
    | st.lists(odd_card, max_size=4)
    | odd_card
)
odd_vector = (
    st.lists(odd_number, min_size=0, max_size=6)
    | st.lists(st.integers(-4, 4), min_size=4, max_size=4)
    | st.sampled_from(DECK)
    | odd_number
    | odd_text
    | st.just("endless")
)
odd_matrix = (
    st.lists(odd_vector, max_size=5)
    | st.lists(st.lists(st.integers(-2, 2), min_size=4, max_size=4), min_size=4, max_size=4)
    | odd_number
    | odd_text
    | st.sampled_from(["endless", "endless rows", "identity rows"])
)
FUZZ = settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def made(value):
    """The drawn marker made into its object (generators are made fresh for each call)."""
    if isinstance(value, list):
        return [made(v) for v in value]
    if value == "endless":
        return itertools.count(1)
    if value == "endless cards":
        return itertools.cycle(DECK[:3])
    if value == "endless rows":
        return itertools.repeat((1, 0, 0, 0))
    if value == "identity rows":
        return itertools.chain(
            ((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1)), itertools.repeat((1, 0, 0, 0))
        )
    return value


@FUZZ
@given(a=odd_cards, b=odd_card | st.none(), t=odd_number)
def test_lines_answer_every_call_at_once(a, b, t):
    fuzzing.attempt(MODULE, geometry.line, made(a), made(b))
    fuzzing.attempt(MODULE, geometry.direction, made(a), made(b))
    fuzzing.attempt(MODULE, geometry.along, made(a), made(b), t)
    fuzzing.attempt(MODULE, geometry.difference, made(a), made(b))
    fuzzing.attempt(MODULE, geometry.lines_through, made(b), made(a))
    fuzzing.attempt(MODULE, geometry.lines_through, made(a))


@FUZZ
@given(card=odd_card, step=odd_vector)
def test_translate_answers_every_call_at_once(card, step):
    fuzzing.attempt(MODULE, geometry.translate, made(card), made(step))


@FUZZ
@given(a=odd_cards, b=odd_card | st.none(), c=odd_card | st.none(), more=st.lists(odd_card, max_size=3))
def test_planes_answer_every_call_at_once(a, b, c, more):
    fuzzing.attempt(MODULE, geometry.plane, made(a), made(b), made(c))
    fuzzing.attempt(MODULE, geometry.magic_square, made(a), made(b), made(c))
    fuzzing.attempt(MODULE, geometry.is_plane, made(a))
    fuzzing.attempt(MODULE, geometry.parallel_classes, made(a))
    fuzzing.attempt(MODULE, geometry.planes_through, *made([a, *more]))


odd_square = (
    st.lists(st.lists(odd_card, max_size=4), max_size=4)
    | st.lists(st.lists(a_card, min_size=3, max_size=3), min_size=3, max_size=4)
    | st.lists(odd_card, max_size=4)
    | odd_card
    | st.sampled_from(["endless square", "endless rows of a square", "square of endless rows"])
)


def made_square(value):
    square = geometry.magic_square("1RSO", "2GTS", "1RSS")
    if value == "endless square":
        return itertools.chain(square, itertools.repeat(square[0]))
    if value == "endless rows of a square":
        return itertools.repeat(square[0])
    if value == "square of endless rows":
        return [itertools.cycle(row) for row in square]
    return made(value)


@FUZZ
@given(square=odd_square)
def test_is_magic_square_answers_every_call_at_once(square):
    fuzzing.attempt(MODULE, geometry.is_magic_square, made_square(square))


@FUZZ
@given(matrix=odd_matrix, shift=odd_vector, step=odd_vector, seed=odd_number)
def test_affine_maps_are_made_or_refused_at_once(matrix, shift, step, seed):
    fuzzing.attempt(MODULE, AffineMap, made(matrix), made(shift))
    fuzzing.attempt(MODULE, AffineMap, made(matrix))
    fuzzing.attempt(MODULE, AffineMap.translation, made(step))
    fuzzing.attempt(MODULE, AffineMap.random, seed)


odd_features = (
    st.none()
    | st.permutations(["number", "color", "shape", "shading"])
    | st.lists(odd_text | odd_number | st.sampled_from(["number", "color", "shape", "shading"]), max_size=5)
    | odd_number
    | odd_text
    | st.sampled_from(["endless", "endless features"])
)
odd_values = (
    st.none()
    | st.dictionaries(
        odd_text | st.sampled_from(["color", "number", "shape", "shading"]) | st.integers(-2, 5),
        st.lists(odd_text | odd_number | st.sampled_from(["red", "green", "purple", 1, 2, 3]), max_size=4)
        | odd_number
        | odd_text
        | st.sampled_from([("green", "red", "purple"), "endless"]),
        max_size=2,
    )
    | odd_number
    | odd_text
    | st.lists(odd_text, max_size=2)
)


def made_values(value):
    if value == "endless features":
        return itertools.cycle(["number", "color", "shape", "shading"])
    if isinstance(value, dict):
        return {k: (itertools.cycle(["red", "green"]) if v == "endless" else v) for k, v in value.items()}
    return made(value)


@FUZZ
@given(features=odd_features, values=odd_values)
def test_relabeling_answers_every_call_at_once(features, values):
    fuzzing.attempt(MODULE, AffineMap.relabeling, made_values(features), made_values(values))
    fuzzing.attempt(MODULE, AffineMap.relabeling, values=made_values(values))


@FUZZ
@given(sources=odd_cards, targets=odd_cards, card=odd_card, cards=odd_cards, other=odd_card | st.just("map"))
def test_a_map_answers_every_call_at_once_and_is_never_changed(sources, targets, card, cards, other):
    fuzzing.attempt(MODULE, AffineMap.taking, made(sources), made(targets))
    fuzzing.attempt(MODULE, AffineMap.taking, made(sources), made(sources))
    m = AffineMap.random(5)
    before = (m.matrix, m.shift)
    fuzzing.attempt(MODULE, m, made(card))
    fuzzing.attempt(MODULE, m.image, made(cards))
    fuzzing.attempt(MODULE, m.then, AffineMap.random(6) if other == "map" else made(other))
    fuzzing.attempt(MODULE, m.inverse)
    fuzzing.attempt(MODULE, m.__eq__, made(other))
    assert (m.matrix, m.shift) == before
