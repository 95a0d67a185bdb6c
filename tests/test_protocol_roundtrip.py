"""The grading protocol carries every value an exercise could return or a test ask for (issue 36).

Property tests: a value made of the kinds the protocol carries, sent from the kernel to the grader
(:func:`compute.encode`, :func:`judge.decode`) or from the grader to the kernel
(:func:`judge.encode_request`, :func:`compute.decode_request`), through JSON text as the route
carries it, arrives equal and of the same kind all the way down: a set stays a set and a
frozenset a frozenset (a frozenset of frozensets too), a Counter a Counter, a named tuple a named
tuple of the same name and fields. Subclasses of int, float and str (an IntEnum) are decided:
never taken for their plain value, in an answer an object that equals nothing, named as a
subclass; in a request refused with a sentence.
"""

from __future__ import annotations

import enum
import json
from collections import Counter, namedtuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from setwidgets.cards import DECK
from setwidgets.grading import compute, judge
from setwidgets.grading.judge import Opaque, decode, encode_request, same

Point = namedtuple("Point", "x y")
Pair = namedtuple("Pair", ["left", "right"])

LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**200), max_value=2**200),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(DECK),
    st.fractions(max_denominator=10**6),
)


def _hashable(inner):
    return st.one_of(
        st.tuples(inner, inner),
        st.frozensets(inner, max_size=4),
        st.builds(Point, inner, inner),
    )


HASHABLE = st.recursive(LEAVES, _hashable, max_leaves=8)


def _any(inner):
    return st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=3).map(tuple),
        st.sets(HASHABLE, max_size=4),
        st.frozensets(HASHABLE, max_size=4),
        st.frozensets(st.frozensets(HASHABLE, max_size=3), max_size=3),
        st.dictionaries(HASHABLE, inner, max_size=3),
        st.dictionaries(HASHABLE, st.integers(-5, 5), max_size=3).map(Counter),
        st.builds(Pair, inner, inner),
    )


VALUES = st.recursive(HASHABLE, _any, max_leaves=12)


def alike(got, want) -> bool:
    """Equal, and of the same kind all the way down (a named tuple: the same name and fields)."""
    if compute.is_namedtuple(type(want)):
        kind = type(got)
        return (
            compute.is_namedtuple(kind)
            and (kind.__name__, kind._fields) == (type(want).__name__, type(want)._fields)
            and alike(tuple(got), tuple(want))
        )
    if type(got) is not type(want) or got != want:
        return False
    if isinstance(want, (list, tuple)):
        return all(alike(g, w) for g, w in zip(got, want))
    if isinstance(want, (set, frozenset)):
        mine = {item: item for item in got}  # the element of ``got`` equal to each of ``want``'s
        return all(alike(mine[item], item) for item in want)
    if isinstance(want, dict):
        keys = {key: key for key in got}
        return all(alike(keys[key], key) and alike(got[key], value) for key, value in want.items())
    return True


def _depth(value) -> int:
    if isinstance(value, dict):
        return 1 + max((max(_depth(k), _depth(v)) for k, v in value.items()), default=0)
    if isinstance(value, (list, tuple, set, frozenset)):
        return 1 + max((_depth(item) for item in value), default=0)
    return 0


def _through_json(data):
    return json.loads(json.dumps(data, allow_nan=False))


@settings(max_examples=50, deadline=None)
@given(VALUES)
def test_an_answer_reaches_the_grader_as_it_was_returned(value):
    if _depth(value) > compute.MAX_DEPTH:
        return
    got = decode(_through_json(compute.encode(value)))
    assert alike(got, value)
    assert same(got, value)


@settings(max_examples=50, deadline=None)
@given(VALUES)
def test_a_request_reaches_the_kernel_as_it_was_asked_and_comes_back_alike(value):
    if _depth(value) > compute.MAX_DEPTH - 1:
        return
    assert alike(compute.decode_request(_through_json(encode_request(value))), value)
    # The whole way: asked, returned by the student's function, judged.
    request = json.dumps({"function": "f", "cases": [[[encode_request(value)], {}]]})
    (answer,) = judge.parse_reply(compute.call(request, {"f": lambda x: x}), 1, "f")
    assert answer.error is None and alike(answer.value, value)


def test_a_set_and_a_frozenset_are_kept_apart_and_the_judge_wants_the_kind_asked_for():
    for value in ({1, 2}, frozenset({1, 2}), frozenset({frozenset({1}), frozenset({2, 3})})):
        got = decode(_through_json(compute.encode(value)))
        assert type(got) is type(value) and same(got, value)
    assert not same(decode(_through_json(compute.encode({1, 2}))), frozenset({1, 2}))


def test_a_named_tuple_is_judged_by_its_name_fields_and_values():
    got = decode(_through_json(compute.encode(Point(1, 2))))
    assert same(got, Point(1, 2)) and got.x == 1 and repr(got) == "Point(x=1, y=2)"
    assert not same(got, Point(1, 3)) and not same(got, (1, 2)) and not same(got, Pair(1, 2))
    assert not same((1, 2), Point(1, 2))


class Colour(enum.IntEnum):
    RED = 1


class Code(str):
    pass


@pytest.mark.parametrize("value", [Colour.RED, Code("1RSO"), type("Big", (int,), {})(5)], ids=repr)
def test_a_subclass_of_a_plain_kind_is_never_taken_for_its_plain_value(value):
    base = next(kind for kind in (int, str) if isinstance(value, kind))
    got = decode(_through_json(compute.encode(value)))
    assert isinstance(got, Opaque) and got.type == type(value).__name__
    assert got.text.endswith(f", a subclass of {base.__name__}")
    assert not same(got, base(value))
    with pytest.raises(
        TypeError, match=r"^encode_request\(\) cannot send .* to the kernel as it is; give a plain"
    ):
        encode_request([value])


def test_a_forged_named_tuple_or_counter_is_an_object_that_equals_nothing():
    for forged in (
        {"namedtuple": ["not a name", ["x"], [1]]},
        {"namedtuple": ["P", ["_x"], [1]]},
        {"namedtuple": ["P", ["x"], [1, 2]]},
        {"counter": [[[1], 2]]},
        {"set": [{"set": [1]}]},
    ):
        got = decode(forged)
        assert isinstance(got, Opaque) and not same(got, got)
