"""Class insight on exercises 2 to 7, graded by the exercises' own judged tests: each rule names its mistake.

The rules of these exercises read the grader's own sentence about a failure, or model a mistaken
function: a sentence reworded in a ``hidden_tests.py`` would silently turn a named mistake into
"other". So each mistaken function here is judged in this process by the real hidden tests (as
tests/test_insight.py does for exercise 1, without nbgrader), its cases kept in a course folder
without a gradebook, and the insight must name its one mistake, with no student in "other".
Only the tests of the mistaken function run (a few seconds in all).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_checks import take_set as _take_set  # the notebook's solution, written once for the tests

from setwidgets import Card, first_set, full_deck
from setwidgets.caps import is_set_free
from setwidgets.geometry import lines_through, magic_square, plane
from setwidgets.grading import compute, judge
from setwidgets.grading import insight_cases as cases
from setwidgets.grading.insight.page import gather
from setwidgets.rules import find_sets, third_card

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "exercises" / "source"


def take_set_changes_lists(table, deck, cards):
    new_table, new_deck = _take_set(table, deck, cards)
    table[:], deck[:] = new_table, new_deck  # the lists given, changed in place
    return new_table, new_deck


def take_set_list(table, deck, cards):
    return list(_take_set(table, deck, cards))  # [table, deck], not (table, deck)


def take_set_deals_from_the_bottom(table, deck, cards):
    return _take_set(table, deck[::-1], cards)


def plane_takes_a_line(a, b, c):
    try:
        return plane(a, b, c)
    except ValueError:
        return [a, b, c] * 3


def magic_square_transposed(a, b, c):
    return [list(column) for column in zip(*magic_square(a, b, c))]


def lines_through_reversed(card, cards):
    return lines_through(card, cards)[::-1]


def _probability(cards):
    if len(cards) < 3:
        raise ValueError("no triple")
    from fractions import Fraction
    from math import comb

    return Fraction(len(find_sets(cards)), comb(len(cards), 3))


def probability_float(cards):
    return float(_probability(cards))


def probability_one_in_79(cards):
    if len(cards) < 3:
        raise ValueError("no triple")
    from fractions import Fraction

    return Fraction(1, 79)


def probability_thrice(cards):
    return 3 * _probability(cards)


def free_inverted(cards):
    return not is_set_free(cards)


def free_few_cards(cards):
    return len(cards) >= 3 and is_set_free(cards)


def _greedy(deck, seed):
    cap = []
    for card in random.Random(seed).sample(list(deck), len(deck)):
        if all(third_card(x, y) != card for i, x in enumerate(cap) for y in cap[i + 1 :]):
            cap.append(card)
    return cap


def greedy_cap_stops_early(deck, seed):
    return _greedy(deck, seed)[:4]


def greedy_cap_ignores_seed(deck, seed):
    return _greedy(deck, 0)


def third_vector_no_mod_3(u, v):
    return tuple(-(x + y) for x, y in zip(u, v))


def count_sets_thrice(cards):
    return 3 * len(find_sets(cards))


def all_sets_thrice(cards):
    """Each SET met from each of its pairs and kept every time (its cards in the table's order)."""
    where = {card: i for i, card in enumerate(cards)}
    found = []
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            k = where.get(third_card(a, b))
            if k is not None and cards[k] not in (a, b):
                found.append(tuple(sorted((a, b, cards[k]), key=where.get)))
    return found


def all_sets_stops_short(cards):
    return [s for s in find_sets(cards) if cards and cards[-1] not in s]


def first_set_empty(cards):
    found = find_sets(cards)
    return found[0] if found else []


# (assignment, function, the mistaken function, the misconception it shows)
MISTAKES = [
    ("02_third_card", "third_vector", third_vector_no_mod_3, "no_mod_3"),
    ("02_third_card", "count_sets", count_sets_thrice, "each_set_thrice"),
    ("03_finding_sets", "all_sets", all_sets_thrice, "each_set_three_times"),
    ("03_finding_sets", "all_sets", all_sets_stops_short, "misses_last_card"),
    ("03_finding_sets", "first_set", first_set_empty, "no_set_not_none"),
    ("04_the_dealer", "take_set", take_set_changes_lists, "changes_lists"),
    ("04_the_dealer", "take_set", take_set_list, "not_table_and_deck"),
    ("04_the_dealer", "take_set", take_set_deals_from_the_bottom, "deals_wrong"),
    ("05_planes", "plane", plane_takes_a_line, "line_not_refused"),
    ("05_planes", "magic_square", magic_square_transposed, "square_layout"),
    ("05_planes", "lines_through", lines_through_reversed, "lines_wrong"),
    ("06_probability", "set_probability", probability_float, "float_not_fraction"),
    ("06_probability", "set_probability", probability_one_in_79, "one_in_79"),
    ("06_probability", "set_probability", probability_thrice, "probability_each_set_thrice"),
    ("07_caps", "is_set_free", free_inverted, "free_inverted"),
    ("07_caps", "is_set_free", free_few_cards, "free_few_cards"),
    ("07_caps", "greedy_cap", greedy_cap_stops_early, "cap_not_maximal"),
    ("07_caps", "greedy_cap", greedy_cap_ignores_seed, "cap_ignores_seed"),
]


TESTED_WITH = {"third_vector": "third_card_mod3"}
"""A function graded in the tests of another (third_card_mod3's tests ask third_vector too)."""

HONEST = {"third_card_mod3": third_card, "third_card": third_card}
"""The functions a test asks beside the mistaken one, answered right."""


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    """One student per mistake, judged by the real hidden tests of the mistaken function only."""
    root = tmp_path_factory.mktemp("later")
    loaded = {}
    for number, (assignment, function, mistaken, _) in enumerate(MISTAKES, 1):
        tests = loaded.setdefault(assignment, judge.load(SOURCE / assignment))
        graded = TESTED_WITH.get(function, function)
        mine = {gid: test for gid, test in tests.items() if gid.startswith(f"test_{graded}_")}
        assert len(mine) == 2, (assignment, function, sorted(tests))
        namespace = {
            "Card": Card,
            "full_deck": full_deck,
            "first_set": first_set,
            **HONEST,
            function: mistaken,
        }
        verdicts = {
            grade_id: judge.judge(test, lambda request, ns=namespace: compute.call(request, ns), seed=39)
            for grade_id, test in mine.items()
        }
        assert not all(v.passed for v in verdicts.values()), mistaken.__name__
        cases.write(root, f"s{number:02d}", assignment, "notebook", verdicts)
    return root


@pytest.mark.parametrize(
    "assignment",
    ["02_third_card", "03_finding_sets", "04_the_dealer", "05_planes", "06_probability", "07_caps"],
)
def test_each_mistake_of_the_later_exercises_is_named_and_nothing_is_other(course, assignment):
    insight = gather(course, assignment, progress=False)
    found = {row.key: row.students for row in insight.rows}
    want = {key: [f"s{number:02d}"] for number, (a, _, _, key) in enumerate(MISTAKES, 1) if a == assignment}
    assert found == want
    assert insight.other.students == []
