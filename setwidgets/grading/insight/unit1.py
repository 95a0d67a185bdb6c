"""The misconceptions of exercises 1 and 2 (the magic rule, the third card): mistaken functions as models.

Each rule here is a model of a mistaken function ("is_set that ignores shading", "count_sets that
counts each SET three times") or a rule over one answer; :mod:`setwidgets.grading.insight.exercises`
puts them in the catalogue.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

from setwidgets.cards import FEATURES, Card
from setwidgets.grading.insight.catalogue import Case, Misconception, Raised, sentence
from setwidgets.rules import find_sets


def _kinds(cards: tuple[Card, ...]) -> list[int]:
    """How many different values the three cards have in each feature (1, 2 or 3)."""
    return [len({card.vector[f] for card in cards}) for f in range(len(FEATURES))]


def first_broken(cards: tuple[Card, ...]) -> str | None:
    for feature, kind in zip(FEATURES, _kinds(cards)):
        if kind == 2:
            return feature
    return None


def _three(case: Case) -> tuple[Card, ...] | None:
    cards = tuple(case.args)
    return cards if len(cards) == 3 and all(type(c) is Card for c in cards) else None


def _is_set_model(accept: Callable[[int, int], bool], distinct: bool = True) -> Callable[[Case], bool]:
    """A mistaken is_set: it accepts feature ``f`` with ``k`` different values when
    ``accept(f, k)`` (and checks that the three cards differ, when ``distinct``)."""

    def model(case: Case) -> bool:
        cards = _three(case)
        if cards is None:
            raise ValueError("not three cards")
        differ = len(set(cards)) == 3 or not distinct
        return differ and all(accept(f, k) for f, k in enumerate(_kinds(cards)))

    return model


def _odd_model(
    pick: Callable[[tuple[Card, ...], int], Any], broken: Callable[[int], bool]
) -> Callable[[Case], Any]:
    """A mistaken odd_one_out: at the first feature ``f`` where ``broken(k)`` (``k`` different
    values), it answers ``pick(cards, f)``; None when there is none."""

    def model(case: Case) -> Any:
        cards = _three(case)
        if cards is None:
            raise ValueError("not three cards")
        for f, k in enumerate(_kinds(cards)):
            if broken(k):
                return pick(cards, f)
        return None

    return model


def _odd_card(cards: tuple[Card, ...], f: int) -> Card:
    values = [card.vector[f] for card in cards]
    return next(card for card, v in zip(cards, values) if values.count(v) == 1)


def _ignores(feature: int) -> Callable[[int, int], bool]:
    return lambda f, k: f == feature or k != 2


def _odd_example(case: Case) -> tuple[list[Card], str]:
    cards = _three(case)
    return (list(cards), sentence(cards)) if cards else ([], "")


def magic_rule(ex: str, lesson: str) -> list[Misconception]:
    """The misconceptions of exercise 1: is_set and odd_one_out."""
    rules = [
        Misconception(
            "same_card_thrice",
            ex,
            ("is_set",),
            "the same card three times taken for a SET",
            lesson,
            model=_is_set_model(lambda f, k: k != 2, distinct=False),
            side="yes",
        )
    ]
    for index, feature in enumerate(FEATURES):
        rules.append(
            Misconception(
                f"ignores_{feature}",
                ex,
                ("is_set",),
                f"ignores a feature ({feature}): two alike and one different in {feature} taken for a SET",
                lesson,
                model=_is_set_model(_ignores(index)),
                side="yes",
            )
        )
    rules += [
        Misconception(
            "two_alike_taken",
            ex,
            ("is_set",),
            "two alike and one different taken for a SET",
            lesson,
            model=_is_set_model(lambda f, k: True),
            side="yes",
        ),
        Misconception(
            "all_different_refused",
            ex,
            ("is_set",),
            "all-different not accepted: a feature whose three values all differ refused",
            lesson,
            model=_is_set_model(lambda f, k: k == 1),
            side="no",
        ),
        Misconception(
            "odd_gives_value",
            ex,
            ("odd_one_out",),
            "odd_one_out gives a value (red, 2) instead of the feature's name",
            lesson,
            model=_odd_model(lambda cards, f: getattr(cards[0], FEATURES[f]), lambda k: k == 2),
            example=_odd_example,
        ),
        Misconception(
            "odd_gives_card",
            ex,
            ("odd_one_out",),
            "odd_one_out gives the odd card instead of the feature's name",
            lesson,
            model=_odd_model(_odd_card, lambda k: k == 2),
            example=_odd_example,
        ),
        Misconception(
            "odd_all_different",
            ex,
            ("odd_one_out",),
            "all-different taken as breaking the rule: odd_one_out names a feature whose values all differ",
            lesson,
            model=_odd_model(lambda cards, f: FEATURES[f], lambda k: k != 1),
            example=_odd_example,
        ),
        Misconception(
            "odd_feature_order",
            ex,
            ("odd_one_out",),
            "features checked in another order than number, color, shape, shading",
            lesson,
            lambda case: (
                case.got in FEATURES
                and case.want in FEATURES
                and _kinds(_three(case))[FEATURES.index(case.got)] == 2
            ),
            example=_odd_example,
        ),
        Misconception(
            "odd_misses_broken",
            ex,
            ("odd_one_out",),
            "odd_one_out answers None where two are alike and one is not",
            lesson,
            lambda case: case.got is None and case.want in FEATURES and case.error is None,
            example=_odd_example,
        ),
    ]
    return rules


def table_of(case: Case) -> list[Card]:
    """The table a function of cards was asked about (its first argument), or no cards."""
    return case.args[0] if case.args and isinstance(case.args[0], list) else []


# -- exercise 2 --------------------------------------------------------------------------------


def _permuted(got: Any, want: Any) -> bool:
    if type(got) is not Card or type(want) is not Card or got == want:
        return False
    return any(
        all(got.vector[i] == want.vector[p[i]] for i in range(4))
        for p in itertools.permutations(range(4))
        if p != (0, 1, 2, 3)
    )


def _vector_case(case: Case) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    if len(case.args) != 2 or not all(isinstance(v, (tuple, list)) for v in case.args):
        return None
    return tuple(case.args[0]), tuple(case.args[1])


def _vector_example(case: Case) -> tuple[list[Card], str]:
    vectors = _vector_case(case)
    if vectors and len(vectors[0]) == 4 and type(case.want) is tuple:
        cards = [Card.from_vector(v) for v in (*vectors, case.want)]
        return cards, sentence(cards)
    return [], "the third vector, number by number: -(x + y) % 3, each of 0, 1 and 2"


def count_example(case: Case) -> tuple[list[Card], str]:
    table = case.args[0] if case.args and isinstance(case.args[0], list) else []
    found = find_sets(table) if table else []
    return (list(found[0]), sentence(found[0])) if found else ([], "")


def _times(n: int) -> Callable[[Case], int]:
    """A mistaken count_sets: each SET counted ``n`` times."""
    return lambda case: n * len(find_sets(table_of(case)))


def third_card_rules(ex: str, lesson: str) -> list[Misconception]:
    """The misconceptions of exercise 2: third_card, third_vector, third_card_mod3, count_sets."""
    thirds = ("third_card", "third_card_mod3")
    return [
        Misconception(
            "twice_not_refused",
            ex,
            thirds,
            "the same card twice not refused (a SET is three different cards)",
            lesson,
            lambda case: case.want == Raised("ValueError") and case.error is None,
        ),
        Misconception(
            "feature_order",
            ex,
            thirds,
            "feature order mixed up: the right values, given to the wrong features",
            lesson,
            lambda case: _permuted(case.got, case.want),
        ),
        Misconception(
            "third_is_one_of_two",
            ex,
            thirds,
            "the third card taken as one of the two given",
            lesson,
            lambda case: type(case.got) is Card and case.got in case.args,
        ),
        Misconception(
            "no_mod_3",
            ex,
            ("third_vector",),
            "no mod 3: numbers outside 0, 1, 2 (such as -3 or 4) left as they are",
            lesson,
            lambda case: (
                isinstance(case.got, (tuple, list))
                and type(case.want) is tuple
                and len(case.got) == len(case.want)
                and all(type(x) is int for x in case.got)
                and any(not 0 <= x <= 2 for x in case.got)
                and tuple(x % 3 for x in case.got) == case.want
            ),
            example=_vector_example,
        ),
        Misconception(
            "plus_not_minus",
            ex,
            ("third_vector",),
            "(x + y) % 3 instead of -(x + y) % 3: the third value is the one that makes the sum 0 mod 3",
            lesson,
            model=lambda case: tuple((x + y) % 3 for x, y in zip(*_vector_case(case))),
            example=_vector_example,
        ),
        Misconception(
            "four_numbers_only",
            ex,
            ("third_vector",),
            "third_vector works only on vectors of four numbers (the formula does not depend on cards)",
            lesson,
            lambda case: (
                _vector_case(case) is not None
                and len(_vector_case(case)[0]) != 4
                and (case.error is not None or len(case.got or ()) != len(_vector_case(case)[0]))
            ),
            example=_vector_example,
        ),
        Misconception(
            "each_set_thrice",
            ex,
            ("count_sets",),
            "each SET counted three times (once from each of its pairs)",
            lesson,
            model=_times(3),
            example=count_example,
        ),
        Misconception(
            "each_set_six",
            ex,
            ("count_sets",),
            "each SET counted six times (ordered pairs)",
            lesson,
            model=_times(6),
            example=count_example,
        ),
        Misconception(
            "counts_triples",
            ex,
            ("count_sets",),
            "counts triples of cards, not SETs",
            lesson,
            model=lambda case: math.comb(len(table_of(case)), 3),
            example=count_example,
        ),
    ]
