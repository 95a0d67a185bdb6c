"""A seeded synthetic class for the class insight's tests: 40 students of exercise 1 (the magic rule),
each given known misconceptions in known proportions, plus honest and blank ones.

:func:`seeded_class` says, for each student, the answer cells to fill in (by grade id) and the
misconception keys the insight must name; :func:`expected_counts` counts them. The same class is
graded in-process (tests/test_insight.py, the judge's own tests without nbgrader) and by the real
nbgrader (tests/test_insight_nbgrader.py).
"""

from __future__ import annotations

import random
from collections import Counter

ASSIGNMENT = "01_magic_rule"

HONEST_IS_SET = '''
def is_set(a, b, c):
    """Three different cards, and no feature where two are alike and one is not."""
    if a == b or b == c or a == c:
        return False
    return all(len({getattr(a, f), getattr(b, f), getattr(c, f)}) in (1, 3) for f in FEATURES)
'''

# Each mistaken is_set, by the misconception it shows.
IS_SET = {
    "ignores_shading": """
def is_set(a, b, c):
    if a == b or b == c or a == c:
        return False
    kept = ("number", "color", "shape")
    return all(len({getattr(a, f), getattr(b, f), getattr(c, f)}) in (1, 3) for f in kept)
""",
    "two_alike_taken": """
def is_set(a, b, c):
    # "any three different cards": two alike and one different is fine too
    return a != b and b != c and a != c
""",
    "all_different_refused": """
def is_set(a, b, c):
    if a == b or b == c or a == c:
        return False
    return all(len({getattr(a, f), getattr(b, f), getattr(c, f)}) == 1 for f in FEATURES)
""",
    "same_card_thrice": """
def is_set(a, b, c):
    return all(len({getattr(a, f), getattr(b, f), getattr(c, f)}) in (1, 3) for f in FEATURES)
""",
    # Not in the catalogue: a SET only when the first card is red (nothing names this).
    "other": """
def is_set(a, b, c):
    if a == b or b == c or a == c:
        return False
    ok = all(len({getattr(a, f), getattr(b, f), getattr(c, f)}) in (1, 3) for f in FEATURES)
    return ok if a.number != 2 else not ok
""",
}

HONEST_ODD = """
def odd_one_out(a, b, c):
    for feature in FEATURES:
        if len({getattr(a, feature), getattr(b, feature), getattr(c, feature)}) == 2:
            return feature
    return None
"""

ODD = {
    "odd_gives_value": """
def odd_one_out(a, b, c):
    for feature in FEATURES:
        values = [getattr(a, feature), getattr(b, feature), getattr(c, feature)]
        if len(set(values)) == 2:
            return values[0]
    return None
""",
    "odd_feature_order": """
def odd_one_out(a, b, c):
    for feature in reversed(FEATURES):
        if len({getattr(a, feature), getattr(b, feature), getattr(c, feature)}) == 2:
            return feature
    return None
""",
    "odd_all_different": """
def odd_one_out(a, b, c):
    for feature in FEATURES:
        if len({getattr(a, feature), getattr(b, feature), getattr(c, feature)}) != 1:
            return feature
    return None
""",
}

# How many students show each mistake: 6 honest, 4 blank, the rest mistaken (some twice over).
PLAN = [
    *[("honest", "honest")] * 6,
    *[("blank", "blank")] * 4,
    *[("ignores_shading", "honest")] * 5,
    *[("ignores_shading", "odd_gives_value")] * 2,
    *[("two_alike_taken", "honest")] * 4,
    *[("two_alike_taken", "odd_feature_order")] * 1,
    *[("all_different_refused", "honest")] * 3,
    *[("same_card_thrice", "honest")] * 2,
    *[("same_card_thrice", "odd_all_different")] * 1,
    *[("honest", "odd_gives_value")] * 4,
    *[("honest", "odd_feature_order")] * 3,
    *[("honest", "odd_all_different")] * 2,
    *[("other", "honest")] * 3,
]
assert len(PLAN) == 40


def seeded_class(
    seed: int = 39, plan: list[tuple[str, str]] = PLAN
) -> dict[str, tuple[dict[str, str], set[str]]]:
    """Student id -> (answers by grade id, the misconception keys the insight must name)."""
    plan = list(plan)
    random.Random(seed).shuffle(plan)
    students = {}
    for number, (is_set, odd) in enumerate(plan, 1):
        student = f"s{number:02d}"
        if is_set == "blank":
            students[student] = ({}, {"not_written"})
            continue
        answers = {
            "is_set_answer": HONEST_IS_SET if is_set == "honest" else IS_SET[is_set],
            "odd_one_out_answer": HONEST_ODD if odd == "honest" else ODD[odd],
        }
        shown = {key for key in (is_set, odd) if key != "honest"}
        students[student] = (answers, shown)
    return students


SMALL = [
    ("honest", "honest"),
    ("blank", "blank"),
    ("ignores_shading", "odd_gives_value"),
    ("two_alike_taken", "odd_feature_order"),
    ("same_card_thrice", "odd_all_different"),
    ("all_different_refused", "honest"),
    ("other", "honest"),
]
"""One student of each kind, every misconception of the plan among them: a class graded in seconds."""


def expected_counts(students: dict[str, tuple[dict[str, str], set[str]]]) -> Counter:
    """How many students show each key ("other" included)."""
    return Counter(key for _, shown in students.values() for key in shown)
