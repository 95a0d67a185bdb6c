"""The misconceptions of the seven exercises, each a rule over one failed case.

Most rules are models of a mistaken function: "the answer is what ``is_set`` gives when it
ignores shading" (and that is not the right answer). Where a test judges a property rather
than one answer (a cap, a simulated rate, a dealt table), the rule reads the grader's own
sentence about the failure. :data:`CATALOGUE` lists them by assignment, narrow rules before
broad ones (:func:`setwidgets.grading.insight.catalogue.diagnose` breaks ties by this order);
:data:`ORACLES` give the answer wanted where a test kept none.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from setwidgets.cards import FEATURES, Card
from setwidgets.grading.insight.catalogue import (
    Case,
    Misconception,
    Raised,
    catalogue_not_written,
    default_example,
    sentence,
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


def _kinds(cards: tuple[Card, ...]) -> list[int]:
    """How many different values the three cards have in each feature (1, 2 or 3)."""
    return [len({card.vector[f] for card in cards}) for f in range(len(FEATURES))]


def _first_broken(cards: tuple[Card, ...]) -> str | None:
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


def _magic_rule(ex: str) -> list[Misconception]:
    lesson = LESSONS[ex]
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


def _count_example(case: Case) -> tuple[list[Card], str]:
    table = case.args[0] if case.args and isinstance(case.args[0], list) else []
    found = find_sets(table) if table else []
    return (list(found[0]), sentence(found[0])) if found else ([], "")


def _times(n: int) -> Callable[[Case], int]:
    """A mistaken count_sets: each SET counted ``n`` times."""
    return lambda case: n * len(find_sets(_table(case)))


def _third_card(ex: str) -> list[Misconception]:
    lesson = LESSONS[ex]
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
            example=_count_example,
        ),
        Misconception(
            "each_set_six",
            ex,
            ("count_sets",),
            "each SET counted six times (ordered pairs)",
            lesson,
            model=_times(6),
            example=_count_example,
        ),
        Misconception(
            "counts_triples",
            ex,
            ("count_sets",),
            "counts triples of cards, not SETs",
            lesson,
            model=lambda case: math.comb(len(_table(case)), 3),
            example=_count_example,
        ),
    ]


# -- exercise 3 --------------------------------------------------------------------------------


def _table(case: Case) -> list[Card]:
    return case.args[0] if case.args and isinstance(case.args[0], list) else []


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
        want, got = find_sets(_table(case)), _normal(_table(case), case.got)
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
        table = _table(case)
        want, got = find_sets(table), _normal(table, case.got)
        return got is not None and got == [s for s in want if keep(table, s)] and got != want

    return rule


def _missed_example(keep: Callable[[list[Card], tuple[Card, ...]], bool]) -> Callable[[Case], tuple]:
    def example(case: Case) -> tuple[list[Card], str]:
        table = _table(case)
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
            example=_count_example,
        ),
        Misconception(
            "each_set_three_times",
            ex,
            ("all_sets",),
            "each SET three times (met from each of its pairs, kept every time)",
            lesson,
            _each_set(3),
            example=_count_example,
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
                (got := _normal(_table(case), case.got)) is not None
                and sorted(got, key=str) == sorted(find_sets(_table(case)), key=str)
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
                and all(c in _table(case) for c in case.got)
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
            *_message_rules(
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
            ),
        ]
    if ex == "07_caps":
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
    return []


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
    ("01_magic_rule", _magic_rule),
    ("02_third_card", _third_card),
    ("03_finding_sets", _finding_sets),
    ("04_the_dealer", _later),
    ("05_planes", _later),
    ("06_probability", _later),
    ("07_caps", _later),
):
    CATALOGUE[_ex] = [catalogue_not_written(_ex, LESSONS[_ex]), *_make(_ex), *_generic(_ex)]


def _odd(a: Card, b: Card, c: Card) -> str | None:
    return _first_broken((a, b, c))


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
    "expected_sets": lambda k: Fraction(math.comb(k, 3), 79),
}
"""The answer wanted, by function, where the test kept none (the package's own answers)."""
