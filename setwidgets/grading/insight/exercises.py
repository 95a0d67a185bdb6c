"""The catalogue: the misconceptions of the seven exercises, each a rule over one failed case.

Most rules are models of a mistaken function: "the answer is what ``is_set`` gives when it
ignores shading" (and that is not the right answer). Where a test judges a property rather
than one answer (a cap, a simulated rate, a dealt table), the rule reads the grader's own
sentence about the failure. Exercises 1 and 2 are in :mod:`setwidgets.grading.insight.unit1`;
exercise 3's, the later ones' and those of every exercise are here. :data:`CATALOGUE` lists them
by assignment, narrow rules before
broad ones (:func:`setwidgets.grading.insight.catalogue.diagnose` breaks ties by this order);
:data:`ORACLES` give the answer wanted where a test kept none.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from setwidgets.caps import is_set_free
from setwidgets.cards import FEATURES, Card
from setwidgets.grading.insight.catalogue import (
    Case,
    Misconception,
    Raised,
    catalogue_not_written,
    default_example,
    sentence,
)
from setwidgets.grading.insight.unit1 import (
    count_example,
    first_broken,
    magic_rule,
    table_of,
    third_card_rules,
)
from setwidgets.rules import find_sets, first_set, is_set, third_card

LESSONS = {
    "01_magic_rule": "lessons/02_the_magic_rule.ipynb",
    "02_third_card": "lessons/03_two_cards_decide_the_third.ipynb",
    "03_finding_sets": "lessons/06_finding_sets_fast.ipynb",
    "04_the_dealer": "lessons/07_the_real_game.ipynb",
    "05_planes": "lessons/09_planes_and_magic_squares.ipynb",
    "06_probability": "lessons/11_how_many_sets.ipynb",
    "07_caps": "lessons/14_caps.ipynb",
}
"""The lesson each exercise practises: where a student goes back to."""

SIMULATION_LESSON = "lessons/12_a_table_with_no_set.ipynb"
"""Exercise 6's simulation and confidence interval are taught here, not in its counting lesson."""


# -- exercise 3 --------------------------------------------------------------------------------


def _normal(table: list[Card], triples: Any) -> list[tuple[Card, ...]] | None:
    """The triples with their cards in the table's order; None when the answer is no list of triples."""
    if not isinstance(triples, list):
        return None
    where = {card: i for i, card in enumerate(table)}
    normal = []
    for triple in triples:
        if not isinstance(triple, (tuple, list)) or len(triple) != 3 or not all(c in where for c in triple):
            return None
        normal.append(tuple(sorted(triple, key=where.__getitem__)))
    return normal


def _each_set(times: int) -> Callable[[Case], bool]:
    def rule(case: Case) -> bool:
        want, got = find_sets(table_of(case)), _normal(table_of(case), case.got)
        return bool(want) and got is not None and sorted(got, key=str) == sorted(want * times, key=str)

    return rule


def _progression(cards: tuple[Card, ...]) -> bool:
    """Each feature the same, or its values in order 1, 2, 3 or 3, 2, 1: no wrap (2, 3, 1)."""
    for f in range(len(FEATURES)):
        x, y, z = (card.vector[f] for card in cards)
        if not (x == y == z or x < y < z or x > y > z):
            return False
    return True


def _misses(keep: Callable[[list[Card], tuple[Card, ...]], bool]) -> Callable[[Case], bool]:
    def rule(case: Case) -> bool:
        table = table_of(case)
        want, got = find_sets(table), _normal(table, case.got)
        return got is not None and got == [s for s in want if keep(table, s)] and got != want

    return rule


def _missed_example(keep: Callable[[list[Card], tuple[Card, ...]], bool]) -> Callable[[Case], tuple]:
    def example(case: Case) -> tuple[list[Card], str]:
        table = table_of(case)
        missed = [s for s in find_sets(table) if not keep(table, s)]
        return (list(missed[0]), sentence(missed[0])) if missed else default_example(case)

    return example


def _not_a_set(case: Case) -> bool:
    triples = [case.got] if case.function == "first_set" else case.got
    if not isinstance(triples, list):
        return False
    return any(
        isinstance(t, (tuple, list)) and len(t) == 3 and all(type(c) is Card for c in t) and not is_set(*t)
        for t in triples
    )


def _not_a_set_example(case: Case) -> tuple[list[Card], str]:
    triples = [case.got] if case.function == "first_set" else case.got
    for t in triples:
        if (
            isinstance(t, (tuple, list))
            and len(t) == 3
            and all(type(c) is Card for c in t)
            and not is_set(*t)
        ):
            return list(t), sentence(t)
    return [], ""


def _wraps(table: list[Card], s: tuple[Card, ...]) -> bool:
    return _progression(s)


def _no_last(table: list[Card], s: tuple[Card, ...]) -> bool:
    return table[-1] not in s


def _finding_sets(ex: str) -> list[Misconception]:
    lesson = LESSONS[ex]
    return [
        Misconception(
            "each_set_twice",
            ex,
            ("all_sets",),
            "each SET twice",
            lesson,
            _each_set(2),
            example=count_example,
        ),
        Misconception(
            "each_set_three_times",
            ex,
            ("all_sets",),
            "each SET three times (met from each of its pairs, kept every time)",
            lesson,
            _each_set(3),
            example=count_example,
        ),
        Misconception(
            "misses_wrap",
            ex,
            ("all_sets",),
            "misses SETs that wrap: values 2, 3, 1 are all different too, not only 1, 2, 3",
            lesson,
            _misses(_wraps),
            example=_missed_example(_wraps),
        ),
        Misconception(
            "misses_last_card",
            ex,
            ("all_sets",),
            "misses the SETs with the last card (a loop stops one card short)",
            lesson,
            _misses(_no_last),
            example=_missed_example(_no_last),
        ),
        Misconception(
            "sets_out_of_order",
            ex,
            ("all_sets",),
            "the right SETs, in another order than the pairs' (or cards not in the table's order)",
            lesson,
            lambda case: (
                (got := _normal(table_of(case), case.got)) is not None
                and sorted(got, key=str) == sorted(find_sets(table_of(case)), key=str)
            ),
        ),
        Misconception(
            "first_set_out_of_order",
            ex,
            ("first_set",),
            "first_set's three cards not in the table's order",
            lesson,
            lambda case: (
                isinstance(case.got, tuple)
                and isinstance(case.want, tuple)
                and case.got != case.want
                and sorted(map(str, case.got)) == sorted(map(str, case.want))
            ),
        ),
        Misconception(
            "another_set_first",
            ex,
            ("first_set",),
            "a SET, but not the first the pairs meet (pairs tried in another order)",
            lesson,
            lambda case: (
                isinstance(case.got, tuple)
                and isinstance(case.want, tuple)
                and len(case.got) == 3
                and all(c in table_of(case) for c in case.got)
                and is_set(*case.got)
                and set(case.got) != set(case.want)
            ),
        ),
        Misconception(
            "no_set_not_none",
            ex,
            ("first_set",),
            "no SET answered with something else than None ([] or False)",
            lesson,
            lambda case: case.known and case.want is None and case.error is None and not case.got,
        ),
        Misconception(
            "not_a_set",
            ex,
            ("first_set", "all_sets"),
            "three cards that are no SET given as one",
            lesson,
            _not_a_set,
            example=_not_a_set_example,
        ),
    ]


# -- exercises 4 to 7: the grader's sentence names the mistake ---------------------------------------


def _says(*words: str) -> Callable[[Case], bool]:
    return lambda case: any(word in case.message for word in words)


def _message_rules(
    ex: str, rules: list[tuple[str, tuple[str, ...], str, tuple[str, ...]]]
) -> list[Misconception]:
    return [
        Misconception(key, ex, functions, title, LESSONS[ex], _says(*words), example=default_example)
        for key, functions, title, words in rules
    ]


DEALER = ("take_set", "no_set", "competition_no_set", "game_over", "play_solitaire")
PLANES = ("plane", "magic_square")


def _probability(case: Case) -> bool:
    return type(case.got) is float and type(case.want) is Fraction and math.isclose(case.got, case.want)


def _later(ex: str) -> list[Misconception]:
    if ex == "04_the_dealer":
        return _message_rules(
            ex,
            [
                ("changes_lists", DEALER, "changes the table or deck it was given", ("changed the lists",)),
                (
                    "not_table_and_deck",
                    DEALER,
                    "returns something else than (table, deck)",
                    ("a tuple of two lists",),
                ),
                ("deals_wrong", DEALER, "deals the cards into the wrong places", ("should give the table",)),
            ],
        )
    if ex == "05_planes":
        return _message_rules(
            ex,
            [
                (
                    "line_not_refused",
                    PLANES,
                    "three cards on one line (a SET), or a card twice, not refused",
                    ("should raise a ValueError",),
                ),
                ("plane_wrong_cards", ("plane",), "the plane's nine cards wrong", ("should be the 9 cards",)),
                (
                    "square_layout",
                    ("magic_square",),
                    "the magic square's rows in the wrong places",
                    ("should be [[",),
                ),
                (
                    "lines_wrong",
                    ("lines_through",),
                    "the lines through a card wrong or out of order",
                    ("SETs expected",),
                ),
            ],
        )
    if ex == "06_probability":
        return [
            Misconception(
                "float_not_fraction",
                ex,
                ("set_probability", "expected_sets"),
                "the right number as a float, not an exact Fraction",
                LESSONS[ex],
                _probability,
            ),
            Misconception(
                "one_in_79",
                ex,
                ("set_probability",),
                "1/79 for any cards: the whole deck's chance for a triple, not a count among the cards given",
                LESSONS[ex],
                model=lambda case: Fraction(1, 79),
                example=count_example,
            ),
            Misconception(
                "probability_each_set_thrice",
                ex,
                ("set_probability",),
                "each SET counted three times (once from each of its pairs) over the triples",
                LESSONS[ex],
                model=lambda case: Fraction(
                    3 * len(find_sets(table_of(case))), math.comb(len(table_of(case)), 3)
                ),
                example=count_example,
            ),
            # The simulation and its interval are lesson 12's, not lesson 11's counting.
            *(
                dataclasses.replace(rule, lesson=SIMULATION_LESSON)
                for rule in _message_rules(
                    ex,
                    [
                        (
                            "ignores_seed",
                            ("simulate_no_set_rate",),
                            "the simulation ignores its seed",
                            ("the same seed should give",),
                        ),
                        (
                            "rate_not_count",
                            ("simulate_no_set_rate",),
                            "a rate that is no count of tables divided by their number",
                            ("not a whole number", "whole number"),
                        ),
                        (
                            "wald_interval",
                            ("confidence_interval",),
                            "the normal approximation, not Wilson's interval",
                            ("normal approximation",),
                        ),
                    ],
                )
            ),
        ]
    if ex == "07_caps":
        return [
            Misconception(
                "free_inverted",
                ex,
                ("is_set_free",),
                "is_set_free answers the opposite question: True when the cards hold a SET",
                LESSONS[ex],
                model=lambda case: not is_set_free(table_of(case)),
                example=count_example,
            ),
            Misconception(
                "free_few_cards",
                ex,
                ("is_set_free",),
                "fewer than three cards not called SET-free (no card, one or two hold no SET)",
                LESSONS[ex],
                model=lambda case: len(table_of(case)) >= 3 and is_set_free(table_of(case)),
                example=lambda case: ([], ""),
            ),
            *_caps_rules(ex),
        ]
    return []


def _caps_rules(ex: str) -> list[Misconception]:
    """Exercise 7's caps, named by the grader's sentence on them."""
    return _message_rules(
        ex,
        [
            (
                "cap_not_maximal",
                ("greedy_cap",),
                "the greedy cap stops before no card can be added",
                ("could still be added",),
            ),
            (
                "cap_has_set",
                ("greedy_cap", "largest_mini_cap"),
                "a cap that holds a SET",
                ("is a SET among its cards",),
            ),
            (
                "cap_twice",
                ("greedy_cap", "largest_mini_cap"),
                "a card twice in the cap",
                ("in the list twice",),
            ),
            (
                "cap_ignores_seed",
                ("greedy_cap",),
                "the greedy cap ignores its seed",
                ("same cap for four seeds", "two different caps for the same seed"),
            ),
        ],
    )


def _generic(ex: str) -> list[Misconception]:
    """Rules of every exercise, after its own: a value of the wrong kind, an error."""
    lesson = LESSONS[ex]
    return [
        Misconception(
            "wrong_kind",
            ex,
            ("*",),
            "the right answer, of the wrong kind (1 for True, a list for a tuple, a text for a number)",
            lesson,
            lambda case: case.error is None and case.known and _loosely(case.got, case.want),
        ),
        Misconception(
            "raises",
            ex,
            ("*",),
            "stops with an error on some cases",
            lesson,
            lambda case: (
                case.error is not None
                and not case.raised("NotImplementedError")
                and not isinstance(case.want, Raised)
            ),
        ),
    ]


def _loosely(got: Any, want: Any) -> bool:
    """Equal once kinds are set aside (True and 1, a list and a tuple), without being the same."""
    if isinstance(want, (list, tuple)) and isinstance(got, (list, tuple)):
        return len(got) == len(want) and all(_loosely(g, w) or g == w for g, w in zip(got, want))
    if isinstance(want, Fraction) and isinstance(got, (int, float)) and not isinstance(got, bool):
        return False  # a float near a fraction is float_not_fraction's
    return got == want or (isinstance(want, bool) and str(got) == str(want))


CATALOGUE: dict[str, list[Misconception]] = {}
for _ex, _make in (
    ("01_magic_rule", lambda ex: magic_rule(ex, LESSONS[ex])),
    ("02_third_card", lambda ex: third_card_rules(ex, LESSONS[ex])),
    ("03_finding_sets", _finding_sets),
    ("04_the_dealer", _later),
    ("05_planes", _later),
    ("06_probability", _later),
    ("07_caps", _later),
):
    CATALOGUE[_ex] = [catalogue_not_written(_ex, LESSONS[_ex]), *_make(_ex), *_generic(_ex)]


def _odd(a: Card, b: Card, c: Card) -> str | None:
    return first_broken((a, b, c))


def _third_vector(u: Any, v: Any) -> tuple[int, ...]:
    return tuple((-x - y) % 3 for x, y in zip(u, v))


def _set_probability(cards: list[Card]) -> Fraction:
    if len(cards) < 3:
        raise ValueError("no triple")
    return Fraction(len(find_sets(cards)), math.comb(len(cards), 3))


ORACLES: dict[str, Callable[..., Any]] = {
    "is_set": lambda a, b, c: is_set(a, b, c),
    "odd_one_out": _odd,
    "third_card": third_card,
    "third_card_mod3": third_card,
    "third_vector": _third_vector,
    "count_sets": lambda cards: len(find_sets(cards)),
    "first_set": first_set,
    "all_sets": find_sets,
    "set_probability": _set_probability,
    "is_set_free": lambda cards: is_set_free(cards),
    "expected_sets": lambda k: Fraction(math.comb(k, 3), 79),
}
"""The answer wanted, by function, where the test kept none (the package's own answers)."""
