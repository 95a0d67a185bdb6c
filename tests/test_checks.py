"""The instant self-checks: right answers pass, each kind of mistake gets its own hint."""

import itertools

import pytest

from setwidgets import FEATURES, Card, third_card
from setwidgets import is_set as reference_is_set
from setwidgets.checks import (
    CheckResult,
    check_count_sets,
    check_is_set,
    check_odd_one_out,
    check_third_card,
)

# -- answers a student might write ---------------------------------------------------------


def feature_is_set(a, b, c):
    if len({a, b, c}) < 3:
        return False
    return all(len({getattr(a, f), getattr(b, f), getattr(c, f)}) != 2 for f in FEATURES)


def odd_one_out(a, b, c):
    for f in FEATURES:
        if len({getattr(a, f), getattr(b, f), getattr(c, f)}) == 2:
            return f
    return None


def vector_third_card(a, b):
    if a == b:
        raise ValueError("a and b are the same card")
    return Card.from_vector([-(x + y) for x, y in zip(a.vector, b.vector)])


def pairwise_count_sets(cards):
    present = set(cards)
    found = sum(third_card(a, b) in present for a, b in itertools.combinations(cards, 2))
    return found // 3


def not_written(*cards):
    raise NotImplementedError()


def message(capsys) -> str:
    return capsys.readouterr().out.strip()


# -- right answers pass ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "check, func",
    [
        (check_is_set, feature_is_set),
        (check_is_set, reference_is_set),
        (check_odd_one_out, odd_one_out),
        (check_third_card, vector_third_card),
        (check_third_card, third_card),
        (check_count_sets, pairwise_count_sets),
    ],
)
def test_a_right_answer_passes_every_case(check, func, capsys):
    result = check(func)
    assert isinstance(result, CheckResult)
    assert result.passed and bool(result)
    assert result.checked > 10
    assert message(capsys) == f"✓ {func.__name__} passed all {result.checked} checks."


@pytest.mark.parametrize("check", [check_is_set, check_odd_one_out, check_third_card, check_count_sets])
def test_an_unwritten_answer_is_told_where_to_write(check, capsys):
    result = check(not_written)
    assert not result
    assert "is not written yet: replace the line `raise NotImplementedError()`" in message(capsys)


def test_an_unwritten_helper_is_named_as_the_one_to_write(capsys):
    def third_card(a, b):
        raise NotImplementedError()

    def count_sets(cards):
        present = set(cards)
        return sum(third_card(a, b) in present for a, b in itertools.combinations(cards, 2)) // 3

    assert not check_count_sets(count_sets)
    assert message(capsys) == (
        "✗ third_card is not written yet (count_sets calls it): replace the line "
        "`raise NotImplementedError()` with your code, then run that cell again."
    )


@pytest.mark.parametrize("check", [check_is_set, check_odd_one_out, check_third_card, check_count_sets])
def test_something_that_is_not_a_function_is_refused(check):
    with pytest.raises(TypeError, match=r"needs your function itself, as in check_"):
        check("is_set")


# -- each mistake gets a hint that names the cards and the reason -----------------------------


def test_is_set_that_ignores_a_feature_is_shown_a_set_it_missed(capsys):
    def is_set(a, b, c):  # looks at numbers only
        return len({a.number, b.number, c.number}) != 2 and len({a, b, c}) == 3

    assert not check_is_set(is_set)
    out = message(capsys)
    assert out.startswith("✗ is_set(")
    assert "returned True, but" in out and "that is not a SET." in out


def test_is_set_that_forgets_repeated_cards_is_told_so(capsys):
    def is_set(a, b, c):  # forgets that a SET needs three different cards
        return all(len({getattr(a, f), getattr(b, f), getattr(c, f)}) != 2 for f in FEATURES)

    assert not check_is_set(is_set)
    assert message(capsys) == (
        "✗ is_set(3POD, 3POD, 3POD) returned True, but the same card appears more than once: "
        "three cards that are not all different are never a SET."
    )


def test_is_set_that_misses_a_set_hears_why_it_is_one(capsys):
    def is_set(a, b, c):  # wants the same number
        return feature_is_set(a, b, c) and a.number == b.number

    assert not check_is_set(is_set)
    assert message(capsys) == (
        "✗ is_set(1RSO, 2RSO, 3RSO) returned False, but all different numbers, same color, "
        "same shape and same shading: that is a SET."
    )


def test_is_set_must_return_a_bool(capsys):
    assert not check_is_set(lambda a, b, c: int(feature_is_set(a, b, c)))
    out = message(capsys)
    assert out.startswith("✗ is_set(1RSO, 2RSO, 3RSO) returned 1, but"), (
        "a lambda goes by the exercise's name"
    )
    assert "is_set should return True or False (a bool), not int" in out


def test_messages_use_the_name_the_function_was_given(capsys):
    check_third_card(Card)
    assert message(capsys).startswith("✗ Card(1RSO, 2RSO) raised TypeError:")


def test_odd_one_out_that_looks_at_features_in_the_wrong_order(capsys):
    def odd_one_out(a, b, c):  # looks at the features backwards
        for f in reversed(FEATURES):
            if len({getattr(a, f), getattr(b, f), getattr(c, f)}) == 2:
                return f
        return None

    assert not check_odd_one_out(odd_one_out)
    assert message(capsys) == (
        "✗ odd_one_out(1RSO, 2RSO, 2PSO) returned 'color', but 'number' comes before 'color' in "
        "FEATURES and breaks the rule too: two have two symbols and one has one symbol. Return the first "
        "broken feature."
    )


def test_odd_one_out_that_names_a_feature_obeying_the_rule(capsys):
    assert not check_odd_one_out(lambda a, b, c: "number")
    out = message(capsys)
    assert out.startswith("✗ odd_one_out(1RSO, 2RSO, 3RSO) returned 'number', but no feature breaks the rule")
    assert out.endswith("so the answer is None.")


def test_odd_one_out_that_always_says_none(capsys):
    assert not check_odd_one_out(lambda a, b, c: None)
    assert message(capsys) == (
        "✗ odd_one_out(1RSO, 2RSO, 2RSO) returned None, but these cards are not a SET: in number, "
        "two have two symbols and one has one symbol, so the answer is 'number'."
    )


def test_third_card_with_the_wrong_sign_hears_the_rule_for_the_feature(capsys):
    def plus(a, b):
        if a == b:
            raise ValueError("same card")
        return Card.from_vector([x + y for x, y in zip(a.vector, b.vector)])

    assert not check_third_card(plus)
    assert message(capsys) == (
        "✗ plus(1RSO, 2RSO) returned 2RSO (two red solid ovals), but the third card is 3RSO "
        "(three red solid ovals): the numbers 1 and 2 differ, so the third card has the remaining "
        "number, 3."
    )


def test_third_card_that_accepts_the_same_card_twice(capsys):
    def no_guard(a, b):
        return Card.from_vector([-(x + y) for x, y in zip(a.vector, b.vector)])

    assert not check_third_card(no_guard)
    assert message(capsys) == (
        "✗ no_guard(3POD, 3POD) returned 3POD (three purple open diamonds), but it should raise a "
        "ValueError: both cards are the same, and a SET needs three different cards."
    )


def test_third_card_that_keeps_a_differing_feature(capsys):
    def keeps_color(a, b):
        right = vector_third_card(a, b)
        return Card(right.number, a.color, right.shape, right.shading)

    assert not check_third_card(keeps_color)
    out = message(capsys)
    assert "the colors red and green differ, so the third card has the remaining color, purple." in out


def test_count_sets_that_counts_each_set_three_times(capsys):
    def count_sets(cards):  # counts each SET once per pair
        present = set(cards)
        return sum(third_card(a, b) in present for a, b in itertools.combinations(cards, 2))

    assert not check_count_sets(count_sets)
    assert message(capsys) == (
        "✗ count_sets([1RSO, 2RSO, 3RSO]) returned 3, but there is 1 SET: each SET was counted three "
        "times (once from each of its pairs). Divide, or count only pairs whose third card comes later."
    )


def test_count_sets_that_tries_every_triple_with_third_card_is_told_it_is_cubic(capsys):
    def count_sets(cards):  # tries every triple
        return sum(third_card(a, b) == c for a, b, c in itertools.combinations(cards, 3))

    assert not check_count_sets(count_sets)
    assert message(capsys) == (
        "✗ count_sets(full_deck()) called third_card 85320 times, but the 81 cards make only 3240 "
        "pairs. Trying every triple is O(n^3): check each pair once and look its third card up in a "
        "Python set."
    )


def test_count_sets_that_never_uses_third_card_is_reminded_of_the_method(capsys):
    def by_triples(cards):
        return sum(feature_is_set(*triple) for triple in itertools.combinations(cards, 3))

    result = check_count_sets(by_triples)
    assert not result
    assert result.checked == 14, "every count was right; only the method is wrong"
    assert "never calls third_card (or third_card_mod3)" in message(capsys)


def test_counting_calls_puts_the_real_third_card_back():
    before = globals()["third_card"]
    check_count_sets(pairwise_count_sets)
    assert globals()["third_card"] is before


def test_count_sets_may_not_spoil_the_cases_by_changing_its_list(capsys):
    received = []

    def destructive(cards):
        received.append(cards)
        answer = pairwise_count_sets(cards)
        cards.clear()
        return answer

    result = check_count_sets(destructive)
    assert result, message(capsys)
    # Every call got a list of its own, so clearing one spoilt neither a later case nor a second run.
    assert len({id(cards) for cards in received}) == len(received) == result.checked
    assert check_count_sets(destructive).checked == result.checked
    capsys.readouterr()

    def wrong_on_a_deal_of_twelve(cards):
        size = len(cards)
        answer = pairwise_count_sets(cards)
        cards[:] = cards[:1]
        return answer + 1 if size == 12 else answer

    assert not check_count_sets(wrong_on_a_deal_of_twelve)
    out = message(capsys)
    # The message describes the twelve cards the function was given, not what it left of them.
    assert out.startswith("✗ wrong_on_a_deal_of_twelve([") and ", ... 12 cards]) returned " in out
    assert out.endswith(" among these 12 cards."), out


def test_a_loop_that_never_ends_is_stopped_and_named(capsys):
    def count_sets(cards):
        while True:
            pass

    result = check_count_sets(count_sets, seconds=0.5)
    assert not result
    assert message(capsys) == (
        "✗ count_sets([]) did not finish within 0.5 seconds. Look for a loop that never ends "
        "(a while loop whose condition never changes?), then run the cell that defines it again."
    )


def test_a_student_except_clause_cannot_swallow_the_time_limit(capsys):
    def stubborn(a, b, c):
        while True:
            try:
                while True:
                    pass
            except Exception:
                continue

    assert not check_is_set(stubborn, seconds=0.3)
    assert "did not finish within 0.3 seconds" in message(capsys)


def test_an_unexpected_error_is_reported_with_the_call(capsys):
    def is_set(a, b, c):
        return a.colour == b.colour

    assert not check_is_set(is_set)
    out = message(capsys)
    assert out.startswith("✗ is_set(1RSO, 2RSO, 3RSO) raised AttributeError:")
    assert "colour" in out


def test_the_result_shows_nothing_more_in_a_notebook():
    result = CheckResult("is_set", True, 3, "✓ is_set passed all 3 checks.")
    assert result._ipython_display_() is None
    assert str(result) == "✓ is_set passed all 3 checks."
