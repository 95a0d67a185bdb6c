"""The catalogue's rules, one mistaken answer at a time: each names its misconception, and only it.

Cheap: no kernel, no grading; each case is what the judge would keep (decoded), and the answer
wanted comes from the package where the test kept none, as in a real class's insight.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from setwidgets import Card, full_deck
from setwidgets.grading.insight.catalogue import Case, case_of, diagnose
from setwidgets.grading.insight.exercises import CATALOGUE, ORACLES
from setwidgets.grading.insight_cases import TestRecord
from setwidgets.grading.judge import kept_value
from setwidgets.rules import find_sets, third_card

DECK = full_deck()
ROOT = Path(__file__).resolve().parents[1]


def cards(codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes.split())


def kept(function: str, args: tuple, got=None, error: str | None = None, **more) -> Case:
    """A case as the judge keeps it, read back as the insight reads it (want from the oracle)."""
    data = {"function": function, "args": [kept_value(arg) for arg in args], **more}
    if error is None:
        data["got"] = kept_value(got)
    else:
        data["error"] = error
    case = case_of("test", TestRecord(False, "", ()), data, ORACLES.get(function))
    assert case is not None and not case.passed, "the case was answered right"
    return case


def named(assignment: str, *cases: Case) -> set[str]:
    found = diagnose(cases, CATALOGUE[assignment])
    assert not found.other, [c.got for c in found.other]
    return set(found.named)


A, B = cards("1RSO 2GSS")  # the third, 3PSD, differs from itself with shape and shading swapped
THIRD = third_card(A, B)


def permuted(card: Card, order: tuple[int, ...]) -> Card:
    return Card.from_vector([card.vector[i] for i in order])


@pytest.mark.parametrize(
    ("case", "key"),
    [
        (kept("third_card", (A, B), permuted(THIRD, (0, 1, 3, 2))), "feature_order"),
        (kept("third_card_mod3", (A, A), A), "twice_not_refused"),
        (kept("third_card", (A, B), B), "third_is_one_of_two"),
        (kept("third_vector", ((0, 1, 2, 0), (1, 1, 0, 0)), (-1, -2, -2, 0)), "no_mod_3"),
        (kept("third_vector", ((0, 1, 2, 0), (1, 1, 0, 0)), (1, 2, 2, 0)), "plus_not_minus"),
        (
            kept("third_vector", ((0,), (1,)), error="IndexError: tuple index out of range"),
            "four_numbers_only",
        ),
        (kept("count_sets", (list(DECK[:9]),), 3 * len(find_sets(DECK[:9]))), "each_set_thrice"),
        (kept("count_sets", (list(DECK[:9]),), 6 * len(find_sets(DECK[:9]))), "each_set_six"),
        (kept("count_sets", (list(DECK[:9]),), 84), "counts_triples"),
        (kept("third_card", (A, B), error="NotImplementedError"), "not_written"),
        (kept("third_card", (A, B), error="TypeError: unsupported operand"), "raises"),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_exercise_2s_mistakes_are_named(case, key):
    assert named("02_third_card", case) == {key}


def _table() -> list[Card]:
    """The first of the seeded deals of 15 cards whose SETs include some that wrap and some with its
    last card, and not all (so that each rule has something to miss)."""
    for seed in range(1000):
        table = random.Random(seed).sample(DECK, 15)
        sets = find_sets(table)
        wrapping = len(progressions(sets))
        last = sum(1 for s in sets if table[-1] in s)
        if len(sets) >= 4 and 0 < wrapping < len(sets) and 0 < last < len(sets):
            return table
    raise AssertionError("no such deal among the first 1000 seeds")


def twice(sets):
    return [t for a, b, c in sets for t in ((a, b, c), (a, c, b))]


def progressions(sets):
    def straight(s):
        return all(
            s[0].vector[f] == s[1].vector[f] == s[2].vector[f]
            or s[0].vector[f] < s[1].vector[f] < s[2].vector[f]
            or s[0].vector[f] > s[1].vector[f] > s[2].vector[f]
            for f in range(4)
        )

    return [s for s in sets if straight(s)]


TABLE = _table()
SETS = find_sets(TABLE)


def test_the_tables_of_exercise_3s_cases_hold_sets_of_every_kind():
    assert len(SETS) > 4 and progressions(SETS) != SETS and any(TABLE[-1] in s for s in SETS)


@pytest.mark.parametrize(
    ("got", "key"),
    [
        (twice(SETS), "each_set_twice"),
        (SETS * 3, "each_set_three_times"),
        (progressions(SETS), "misses_wrap"),
        ([s for s in SETS if TABLE[-1] not in s], "misses_last_card"),
        (SETS[::-1], "sets_out_of_order"),
        ([*SETS, (TABLE[0], TABLE[1], TABLE[3])], "not_a_set"),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_exercise_3s_all_sets_mistakes_are_named(got, key):
    assert named("03_finding_sets", kept("all_sets", (TABLE,), got)) == {key}


def test_exercise_3s_first_set_mistakes_are_named():
    first = SETS[0]
    assert named("03_finding_sets", kept("first_set", (TABLE,), first[::-1])) == {"first_set_out_of_order"}
    assert named("03_finding_sets", kept("first_set", (TABLE,), SETS[-1])) == {"another_set_first"}
    no_set = [card for card in DECK if card.number == 1][:4]
    no_set = [c for c in no_set if not find_sets(no_set)] or list(cards("1RSO 1RTO 1RSS 1RTS"))
    assert not find_sets(no_set)
    assert named("03_finding_sets", kept("first_set", (no_set,), [])) == {"no_set_not_none"}


def test_exercise_1s_wrong_kind_and_errors_are_named_apart_from_the_rules_mistakes():
    a, b, c = cards("1RSO 2RSO 3RSO")
    assert named("01_magic_rule", kept("is_set", (a, b, c), 1)) == {"wrong_kind"}
    assert named("01_magic_rule", kept("is_set", (a, b, c), error="TypeError: no")) == {"raises"}


def test_a_probability_as_a_float_is_named_and_a_wrong_fraction_is_other():
    table = list(DECK[:12])
    right = Fraction(len(find_sets(table)), 220)
    assert named("06_probability", kept("set_probability", (table,), float(right))) == {"float_not_fraction"}
    found = diagnose([kept("set_probability", (table,), right + 1)], CATALOGUE["06_probability"])
    assert not found.named and len(found.other) == 1


def test_a_rule_that_reads_the_graders_sentence_names_a_greedy_cap_that_stops_early():
    record = TestRecord(False, "greedy_cap(<81 cards>, 1) returned [...], but 1RSO could still be added", ())
    data = {"function": "greedy_cap", "args": [[{"card": "1RSO"}], 1], "got": [{"card": "2RSO"}]}
    case = case_of("test_greedy_cap_hidden", record, data, ORACLES.get("greedy_cap"))
    assert set(diagnose([case], CATALOGUE["07_caps"]).named) == {"cap_not_maximal"}


def test_every_assignment_has_a_catalogue_with_lessons_and_unique_keys():
    for assignment, catalogue in CATALOGUE.items():
        keys = [rule.key for rule in catalogue]
        assert len(keys) == len(set(keys)), assignment
        assert all(rule.lesson.startswith("lessons/") and rule.title for rule in catalogue)
        # The lesson to revisit is a lesson of the course.
        assert not [rule.lesson for rule in catalogue if not (ROOT / rule.lesson).is_file()], assignment
        assert keys[0] == "not_written" and keys[-2:] == ["wrong_kind", "raises"]
    simulation = {rule.key: rule.lesson for rule in CATALOGUE["06_probability"]}
    assert simulation["wald_interval"] == simulation["ignores_seed"] == "lessons/12_a_table_with_no_set.ipynb"
