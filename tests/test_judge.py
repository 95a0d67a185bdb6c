"""The judged tests' protocol without a kernel: what the kernel sends back, and how the grader decides.

The kernel's side (:mod:`setwidgets.grading.compute`) and the grader's (:mod:`setwidgets.grading.judge`)
meet here in one process: ``compute.call`` plays the kernel. The real kernel, through the real
``nbgrader autograde``, is in ``tests/test_nbgrader.py`` and ``tests/test_cheats.py``.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from setwidgets import Card, full_deck
from setwidgets.grading import compute
from setwidgets.grading.judge import (
    Failed,
    NoAnswer,
    Opaque,
    Run,
    Seed,
    Tests,
    compare,
    decode,
    encode_request,
    judge,
    load,
    parse_reply,
    same,
    show,
)
from setwidgets.rules import is_set

DECK = full_deck()
A, B, C = Card.parse("1RSO"), Card.parse("2RSO"), Card.parse("3RSO")


def asker(namespace: dict):
    return lambda request: compute.call(request, namespace)


VALUES = [
    None,
    True,
    False,
    0,
    -7,
    2.5,
    "color",
    A,
    (A, B, C),
    [A, [B, (C,)]],
    {A, B},
    Fraction(1, 79),
    {"x": [A]},
]


@pytest.mark.parametrize("value", VALUES, ids=[repr(v)[:20] for v in VALUES])
def test_what_the_kernel_answers_reaches_the_grader_as_the_same_value(value):
    got = decode(json.loads(json.dumps(compute.encode(value))))
    assert got == value and type(got) is type(value)  # a set a set: it once came back a frozenset


@pytest.mark.parametrize("value", VALUES, ids=[repr(v)[:20] for v in VALUES])
def test_what_the_grader_sends_reaches_the_kernel_as_the_same_value(value):
    assert compute.decode_request(json.loads(json.dumps(encode_request(value)))) == value


def test_a_generator_reaches_the_kernel_in_the_same_state():
    generator = random.Random(5)
    generator.random()
    sent = compute.decode_request(json.loads(json.dumps(encode_request(generator))))
    assert sent is not generator and sent.random() == generator.random()


def test_a_seed_becomes_a_fresh_generator_in_the_kernel():
    sent = compute.decode_request(json.loads(json.dumps(encode_request(Seed(7)))))
    assert isinstance(sent, random.Random) and sent.random() == random.Random(7).random()


class Liar(tuple):
    """A tuple that says it equals everything."""

    def __eq__(self, other):
        return True

    __hash__ = tuple.__hash__


class Truthy:
    def __eq__(self, other):
        return True

    def __bool__(self):
        return True


def test_objects_that_claim_to_equal_anything_arrive_opaque_and_equal_nothing():
    # Only the exact types of the encoding are read as values: a subclass, whatever it says, is not.
    for liar in (Liar((A,)), Truthy()):
        opaque = decode(json.loads(json.dumps(compute.encode(liar))))
        assert isinstance(opaque, Opaque) and opaque != True and opaque != (A,)  # noqa: E712 - the point is ==
    assert not same(Opaque("x", "y"), True) and not same(1, True) and not same(True, 1)


def test_same_is_strict_about_kinds_but_not_about_exact_numbers():
    assert same(3, Fraction(3)) and same(Fraction(1, 3), Fraction(1, 3))
    assert not same(3.0, 3) and not same([A], (A,)) and not same(None, False)
    assert same([A, (B, C)], [A, (B, C)]) and not same([A, (B, C)], [A, (C, B)])


def test_an_answer_too_big_is_an_error_of_that_case_not_of_the_grader():
    reply = json.loads(
        compute.call(json.dumps({"function": "f", "cases": [[[], {}]]}), {"f": lambda: [0] * 10**6})
    )
    assert reply["answers"][0]["error"].startswith("TooBig")


def test_unreadable_or_forged_replies_are_no_answer():
    with pytest.raises(NoAnswer):
        parse_reply("{not json", 1, "f")
    with pytest.raises(NoAnswer):
        parse_reply(json.dumps({"answers": []}), 1, "f")
    with pytest.raises(NoAnswer):
        parse_reply("[" * 100_000 + "]" * 100_000, 1, "f")
    (answer,) = parse_reply(json.dumps({"answers": [{"value": {"card": "9ZZZ"}}]}), 1, "f")
    assert isinstance(answer.value, Opaque)


def test_a_missing_function_fails_with_a_sentence():
    tests = Tests()

    @tests("t")
    def _(run):
        run.call("is_set", [(A, B, C)])
        return "passed"

    verdict = judge(tests["t"], asker({}))
    assert not verdict.passed and "there is no function is_set in the notebook" in verdict.message


def test_a_missing_function_keeps_no_case_of_the_function_called_before_it():
    # The teacher's insight reads the kept cases as the failed test's: the first function's
    # cases, answered and right, are not the second function's, which was never called.
    tests = Tests()

    @tests("t")
    def _(run):
        run.call("is_set", [(A, B, C)])
        run.call("third_card", [(A, B)])
        return "passed"

    verdict = judge(tests["t"], asker({"is_set": is_set}))
    assert not verdict.passed and "there is no function third_card in the notebook" in verdict.message
    assert verdict.cases == []


def _is_set_test(run: Run) -> str:
    cases = [tuple(run.rng.sample(DECK, 3)) for _ in range(200)] + [(A, B, C)]
    compare(run, "is_set", cases, run.call("is_set", cases), [is_set(*case) for case in cases])
    return "passed"


def test_a_right_function_passes_and_a_wrong_one_fails_with_the_call_the_answer_and_the_seed():
    right = judge(_is_set_test, asker({"is_set": is_set}))
    assert right.passed and right.message == "passed"
    wrong = judge(_is_set_test, asker({"is_set": lambda a, b, c: True}), seed=11)
    assert not wrong.passed
    assert wrong.message.startswith("is_set(") and "should be False" in wrong.message
    assert "Your function returned True" in wrong.message and "seed 11" in wrong.message


def test_an_error_of_the_students_function_fails_the_test_and_names_the_error():
    def broken(a, b, c):
        raise ZeroDivisionError("oops")

    verdict = judge(_is_set_test, asker({"is_set": broken}))
    assert not verdict.passed and "raised ZeroDivisionError: oops" in verdict.message


def test_one_in_the_right_kind_only_passes():
    assert not judge(_is_set_test, asker({"is_set": lambda *cards: int(is_set(*cards))})).passed
    assert not judge(_is_set_test, asker({"is_set": lambda *cards: Truthy()})).passed


def test_the_arguments_after_the_call_show_a_list_changed_in_place():
    def pops(cards):
        cards.pop()
        return len(cards)

    answer = Run(asker({"f": pops}), seed=1).call("f", [([A, B, C],)], after=True)[0]
    assert answer.value == 2 and answer.args == [[A, B]]


def test_calls_of_a_notebook_function_are_counted_per_case():
    namespace = {"helper": lambda x: x}
    namespace["f"] = lambda n: [namespace["helper"](i) for i in range(n)]
    answers = Run(asker(namespace), seed=1).call("f", [(2,), (5,)], count=["helper"])
    assert [a.counts["helper"] for a in answers] == [2, 5]
    assert namespace["helper"](3) == 3  # and it is given back


def test_the_course_runs_its_judged_tests_on_its_own_solutions_in_the_teachers_notebook():
    tests = load("exercises/source/01_magic_rule")
    assert {"test_is_set_hidden", "test_odd_one_out_visible"} <= set(tests)


def test_failed_is_the_one_way_a_test_says_no():
    tests = Tests()

    @tests("t")
    def _(run):
        raise Failed("no")

    verdict = judge(tests["t"], asker({}))
    assert (verdict.passed, verdict.message) == (False, "no")
    with pytest.raises(ValueError, match="two judged tests"):
        tests("t")(lambda run: "again")


def test_show_writes_cards_as_codes_and_cuts_long_values():
    assert show([A, (B, C)]) == "[1RSO, (2RSO, 3RSO)]"
    assert len(show(list(DECK), 50)) == 50
