"""Tests that test what the exercises say: cheats of the exercises' own rules, through the real nbgrader.

``tests/test_red_team.py`` grades cheats of the grader itself; this file grades, the same way (a
temporary copy of the course, ``generate_assignment``, one ``autograde`` run per exercise, the
teacher's report), students who meet an exercise's words but not its point, and honest students
who solve it in ways the tests must not punish:

- exercise 2: ``third_vector`` without ``% 3`` (``Card.from_vector`` reduces mod 3 by itself, so a
  card cannot show it), and ``third_vector`` borrowing ``third_card`` through a default argument;
  honest: ``count_sets`` with ``third_card`` bound as a default argument, which used to be flagged
  as "not the pairs method" because calls were counted by name in the kernel;
- exercise 3 and 7: the pairs method with ``third_card`` bound as a default argument (honest);
- exercise 6: a fixed rate plus jitter from the seed, as it is and rounded to a whole count of
  tables; honest: the source's numpy simulation, ``random.sample`` with ``itertools``, numpy's
  ``Generator.choice`` table by table, and a pure-Python shuffle.

Nothing the kernel counts decides a grade or a flag any more: every expectation below is met
by the answers alone.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest
from formgrader_api import generate_assignment
from test_nbgrader import EXERCISES, NOTEBOOKS, grades
from test_red_team import Student, _hand_in, points, run_nbgrader

from setwidgets.grading.report import report
from setwidgets.grading.sandbox import bubblewrap_problem

pytestmark = [
    pytest.mark.nbgrader,
    pytest.mark.skipif(bubblewrap_problem() is not None, reason=f"no sandbox here: {bubblewrap_problem()}"),
]

TWO, THREE, SIX, SEVEN = "02_third_card", "03_finding_sets", "06_probability", "07_caps"


def _answers(assignment: str, **changed: str) -> dict[str, str]:
    """The source's answers of an exercise (every answer cell, solutions in), with some changed."""
    nb = nbformat.read(EXERCISES / "source" / assignment / NOTEBOOKS[assignment], as_version=4)
    answers = {
        c.metadata["nbgrader"]["grade_id"]: c.source
        for c in nb.cells
        if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("solution")
    }
    assert set(changed) <= set(answers), set(changed) - set(answers)
    return {**answers, **changed}


def _without(assignment: str, function: str) -> dict[str, float]:
    """All the points of an exercise's graded code cells but those of ``function``."""
    lost = points(assignment, function)
    return {name: score for name, score in points(assignment).items() if name not in lost}


# -- exercise 2 ---------------------------------------------------------------------------------

MOD3_WITHOUT_MOD = """
def third_vector(u, v):
    return tuple(-x - y for x, y in zip(u, v))


def third_card_mod3(a, b):
    if a == b:
        raise ValueError("two different cards, please")
    return Card.from_vector([-x - y for x, y in zip(a.vector, b.vector)])
"""
MOD3_BORROWED = """
def third_vector(u, v, _same=third_card):
    return _same(Card.from_vector(u), Card.from_vector(v)).vector


def third_card_mod3(a, b, _same=third_card):
    return _same(a, b)
"""
COUNT_SETS_BOUND = """
def count_sets(cards, third=third_card):
    present = set(cards)
    return sum(third(a, b) in present for a, b in itertools.combinations(cards, 2)) // 3
"""

# -- exercises 3 and 7 --------------------------------------------------------------------------

FIRST_SET_BOUND = """
def first_set(cards, third=third_card):
    where = {card: i for i, card in enumerate(cards)}
    for i, j in itertools.combinations(range(len(cards)), 2):
        k = where.get(third(cards[i], cards[j]))
        if k is not None:
            return cards[i], cards[j], cards[k]
    return None
"""
ALL_SETS_BOUND = """
def all_sets(cards, *, third=third_card):
    where = {card: i for i, card in enumerate(cards)}
    found = []
    for i, j in itertools.combinations(range(len(cards)), 2):
        k = where.get(third(cards[i], cards[j]))
        if k is not None and k > j:
            found.append((cards[i], cards[j], cards[k]))
    return found
"""
SET_FREE_BOUND = """
def is_set_free(cards, third=third_card):
    present = set(cards)
    return all(third(a, b) not in present for a, b in itertools.combinations(cards, 2))
"""

# -- exercise 6 ---------------------------------------------------------------------------------

JITTER = """
RATES = {3: 78 / 79, 9: 0.2972, 12: 0.0323, 15: 0.0004, 21: 0.0}


def simulate_no_set_rate(size, tables, seed):
    return RATES[size] + random.Random(seed).uniform(-0.002, 0.002) if size != 21 else 0.0
"""
# The noise is bounded, within every rate's tolerance, so that the spread is what catches this
# cheat: the hidden test's seeds are new at each grading, and Gaussian noise (0.004) sometimes
# landed 2.3 or more deviations away and failed a rate first (CI, on (12, 10000, seed)), with a
# sentence of its own.
ROUNDED_JITTER = """
RATES = {3: 78 / 79, 9: 0.2972, 12: 0.0323, 15: 0.0004, 21: 0.0}


def simulate_no_set_rate(size, tables, seed):
    noisy = RATES[size] + random.Random(seed).uniform(-0.006, 0.006)
    return min(1.0, max(0.0, round(noisy * tables) / tables)) if size != 21 else 0.0
"""
BY_SAMPLE = """
def simulate_no_set_rate(size, tables, seed):
    rng = random.Random(seed)
    deck = full_deck()
    without = 0
    for _ in range(tables):
        table = rng.sample(deck, size)
        present = set(table)
        if not any(third_card(a, b) in present for a, b in itertools.combinations(table, 2)):
            without += 1
    return without / tables
"""
BY_NUMPY = """
import numpy as np


def simulate_no_set_rate(size, tables, seed):
    rng = np.random.default_rng(seed)
    deck = full_deck()
    holds = np.zeros(tables, dtype=bool)
    for t in range(tables):
        table = [deck[i] for i in rng.choice(81, size, replace=False)]
        present = set(table)
        holds[t] = any(third_card(a, b) in present for a, b in itertools.combinations(table, 2))
    return float(np.mean(~holds))
"""
BY_SHUFFLE = """
def simulate_no_set_rate(size, tables, seed):
    rng = random.Random(seed)
    deck = list(full_deck())
    without = 0
    for _ in range(tables):
        rng.shuffle(deck)
        table = set(deck[:size])
        without += all(third_card(a, b) not in table for a, b in itertools.combinations(deck[:size], 2))
    return float(without) / float(tables)
"""

STUDENTS: dict[str, dict[str, Student]] = {
    TWO: {
        "solver": Student(points=points(TWO), honest=True),
        "mod3_without_mod": Student(
            _answers(TWO, third_card_mod3_answer=MOD3_WITHOUT_MOD), _without(TWO, "third_card_mod3")
        ),
        "mod3_borrowed": Student(
            _answers(TWO, third_card_mod3_answer=MOD3_BORROWED), _without(TWO, "third_card_mod3")
        ),
        "count_bound": Student(_answers(TWO, count_sets_answer=COUNT_SETS_BOUND), points(TWO), honest=True),
    },
    THREE: {
        "solver": Student(points=points(THREE), honest=True),
        "pairs_bound": Student(
            _answers(THREE, first_set_answer=FIRST_SET_BOUND, all_sets_answer=ALL_SETS_BOUND),
            points(THREE),
            honest=True,
        ),
    },
    SIX: {
        "solver": Student(points=points(SIX), honest=True),
        "jitter": Student(
            _answers(SIX, simulate_no_set_rate_answer=JITTER), _without(SIX, "simulate_no_set_rate")
        ),
        "rounded_jitter": Student(
            _answers(SIX, simulate_no_set_rate_answer=ROUNDED_JITTER), _without(SIX, "simulate_no_set_rate")
        ),
        "by_sample": Student(_answers(SIX, simulate_no_set_rate_answer=BY_SAMPLE), points(SIX), honest=True),
        "by_numpy": Student(_answers(SIX, simulate_no_set_rate_answer=BY_NUMPY), points(SIX), honest=True),
        "by_shuffle": Student(
            _answers(SIX, simulate_no_set_rate_answer=BY_SHUFFLE), points(SIX), honest=True
        ),
    },
    SEVEN: {
        "solver": Student(points=points(SEVEN), honest=True),
        "free_bound": Student(_answers(SEVEN, is_set_free_answer=SET_FREE_BOUND), points(SEVEN), honest=True),
    },
}
CASES = [(a, s) for a, students in STUDENTS.items() for s in students]
# What the failed cells tell the student: the words of the first failure of each cheat.
SAID = {
    (TWO, "mod3_without_mod"): "Your function returned (-1, 0, 0, 0)",
    (TWO, "mod3_borrowed"): "the formula does not depend on cards",
    (SIX, "jitter"): "tables without a SET, not a whole number",
    (SIX, "rounded_jitter"): "scatter much less than random tables make them",
}


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    course = tmp_path_factory.mktemp("red-team-exercises")
    shutil.copy(EXERCISES / "nbgrader_config.py", course)
    for assignment in STUDENTS:
        shutil.copytree(EXERCISES / "source" / assignment, course / "source" / assignment)
    # The four exercises at once ("*" is every exercise in source/), generated in this process as the
    # Formgrader does (tests/formgrader_api.py): each start of the nbgrader command costs CPU-seconds.
    generate_assignment(course, "*")
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for student in {name for students in STUDENTS.values() for name in students}:
            gb.update_or_create_student(student, first_name=student.title(), last_name="Student")
    for assignment, students in STUDENTS.items():
        for student, spec in students.items():
            _hand_in(course, assignment, student, spec)
    # The course's own cell timeout (30 s): pure-Python simulations take a few seconds a cell.
    result = run_nbgrader(course, "autograde", "*")
    (course / "autograde.log").write_text(f"{result.returncode}\n{result.stderr}")
    return course


@pytest.mark.parametrize(("assignment", "student"), CASES)
def test_each_student_earns_exactly_its_points(course, assignment, student):
    spec = STUDENTS[assignment][student]
    got = {name: score for name, score in grades(course, assignment, student).items() if score}
    assert got == spec.points


@pytest.mark.parametrize(("assignment", "student"), CASES)
def test_no_student_here_is_flagged(course, assignment, student):
    """The honest students keep their marks with no flag; the cheats lose the points of what they fake
    (nothing here is for the teacher to read: the answers alone tell)."""
    found = [f for f in report(course, [assignment]) if f.student == student]
    assert not found, f"{student} is flagged: {found}"


@pytest.mark.parametrize(("assignment", "student"), list(SAID))
def test_the_cheat_is_told_what_its_answers_lack(course, assignment, student):
    nb = nbformat.read(course / "autograded" / student / assignment / NOTEBOOKS[assignment], as_version=4)
    said = "\n".join(
        output.get("evalue", "")
        for c in nb.cells
        if c.cell_type == "code"
        for output in c.outputs
        if output.output_type == "error"
    )
    assert SAID[assignment, student] in said, said[:2000]


def test_the_honest_students_are_many_and_the_cheats_fail():
    honest = [case for case in CASES if STUDENTS[case[0]][case[1]].honest]
    assert len(honest) - len(STUDENTS) >= 6  # the solvers aside
    cheats = [case for case in CASES if not STUDENTS[case[0]][case[1]].honest]
    assert cheats and all(STUDENTS[a][s].points != points(a) for a, s in cheats)
