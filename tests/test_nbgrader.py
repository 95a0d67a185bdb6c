"""The nbgrader round trip, with the real command line on a temporary copy of the course.

One module-scoped fixture runs the teacher's sequence once: generate_assignment (in this process,
as the Formgrader runs it), then autograde (every student at once, in two runs), a manual grade
for a written answer, generate_feedback and export. The tests read the results from the gradebook, the
autograded notebooks, the feedback HTML and the exported CSV.

The students, per assignment:

- ``solver`` hands in the source notebook, solutions included: full marks on every
  autograded cell;
- ``blank`` hands in the release copy untouched: zero;
- ``partial`` gets some parts right: exactly the points of the cells it deserves;
- ``tamper`` (exercise 1) rewrites a locked test cell so it passes, and gives it 100 points;
- ``looper`` (exercise 2) writes a ``count_sets`` whose loop never ends;
- ``wrapper`` hands in the package's own ``first_set`` (exercise 3) or the game engine
  (exercise 4) behind a function of its own, and (exercise 3) decides SETs from the cards'
  vectors, triple by triple, without ``third_card``;
- ``equal`` (exercise 3) returns an object that is equal to everything, and the package's
  ``find_sets`` behind an ``all_sets`` of its own;
- ``patcher`` (exercise 4) tries to replace the engine at run time, so that hidden tests
  taking their answers from the package would agree with the notebook; the engine is not in
  exercise 4's grading kernel at all.

From exercise 5 on, each assignment has four students: ``solver``, ``blank``, ``partial``
and ``wrapper``, who hands in the package's own answers (``setwidgets.geometry``,
``find_sets``) behind functions of its own.

Last, the teacher's guide ``exercises/README.md`` is run command block by command block on
another copy of the course: exchange and zip_collect, the formgrader, feedback and export.
"""

from __future__ import annotations

import csv
import getpass
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import nbformat
import pytest
from ports import free_port

pytestmark = pytest.mark.nbgrader

ROOT = Path(__file__).resolve().parents[1]
EXERCISES = ROOT / "exercises"
BIN = Path(sys.executable).parent
# Each assignment is a folder of exercises/source with one notebook in it.
NOTEBOOKS = {nb.parent.name: nb.name for nb in sorted((ROOT / "exercises" / "source").glob("*/*.ipynb"))}
# Short enough that three timed-out cells stay cheap, long enough for every honest cell (< 1 s).
TEST_TIMEOUT = 5

# -- answers the students write --------------------------------------------------------------

IS_SET = '''
def is_set(a, b, c):
    """Three different cards, and no feature where two are alike and one is not."""
    if a == b or b == c or a == c:
        return False
    return all(len({getattr(a, f), getattr(b, f), getattr(c, f)}) in (1, 3) for f in FEATURES)
'''

ODD_ONE_OUT = """
def odd_one_out(a, b, c):
    for feature in FEATURES:
        if len({getattr(a, feature), getattr(b, feature), getattr(c, feature)}) == 2:
            return feature
    return None
"""

ODD_ONE_OUT_GIVES_THE_VALUE = """
def odd_one_out(a, b, c):
    for feature in FEATURES:
        values = [getattr(a, feature), getattr(b, feature), getattr(c, feature)]
        if len(set(values)) == 2:
            return values[0]  # the value, where the name of the feature is asked for
    return None
"""

THIRD_CARD = """
def third_card(a, b):
    if a == b:
        raise ValueError("two different cards, please")
    return Card.from_vector([-(x + y) for x, y in zip(a.vector, b.vector)])
"""

THIRD_CARD_MOD3 = """
def third_vector(u, v):
    return tuple((2 * x + 2 * y) % 3 for x, y in zip(u, v))


def third_card_mod3(a, b):
    if a == b:
        raise ValueError("two different cards, please")
    return Card.from_vector(third_vector(a.vector, b.vector))
"""

# The arithmetic in third_vector, and third_card_mod3 borrowing third_card: the answers are right.
MOD3_BORROWS_THIRD_CARD = """
def third_vector(u, v):
    return tuple((-x - y) % 3 for x, y in zip(u, v))


def third_card_mod3(a, b):
    return third_card(a, b)
"""

COUNT_SETS_BY_TRIPLES = """
def count_sets(cards):
    return sum(1 for a, b, c in itertools.combinations(cards, 3) if third_card(a, b) == c)
"""

COUNT_SETS_FOREVER = """
def count_sets(cards):
    while True:
        pass
"""

PROOF = "In each feature the third value is forced, so there is one card and only one."

FIRST_SET = """
def first_set(cards):
    where = {card: position for position, card in enumerate(cards)}
    for i, j in itertools.combinations(range(len(cards)), 2):
        k = where.get(third_card(cards[i], cards[j]))
        if k is not None:
            return cards[i], cards[j], cards[k]
    return None
"""

ALL_SETS_BY_TRIPLES = """
def all_sets(cards):
    return [t for t in itertools.combinations(cards, 3) if third_card(t[0], t[1]) == t[2]]
"""

QUESTIONS = "Each SET contains a pair, and the pair names its third card. Triples: n(n-1)(n-2)/6."

FIRST_SET_WRAPPED = """
import setwidgets


def first_set(cards):
    return setwidgets.first_set(cards)
"""

ALL_SETS_WRAPPED = """
from setwidgets import find_sets


def all_sets(cards):
    return find_sets(cards)
"""

FIRST_SET_EQUAL_TO_ALL = """
class Anything(tuple):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = tuple.__hash__


def first_set(cards):
    return Anything()
"""

ALL_SETS_FROM_VECTORS = """
def all_sets(cards):
    return [
        t
        for t in itertools.combinations(cards, 3)
        if all(sum(values) % 3 == 0 for values in zip(*(card.vector for card in t)))
    ]
"""

# Exercise 4: the source's answers, cell by cell, with one part done wrong or by cheating.
NO_SET_THREE_ONLY = """
def no_set(table, deck, online=False):
    return list(table) + list(deck[:3]), list(deck[3:])
"""

COMPETITION_FIRST_SIX = """
def competition_no_set(table, deck, rng):
    if len(table) < TABLE + 3:
        return no_set(table, deck)
    return table[6:] + deck[:3], deck[3:] + table[:6]
"""

SOLITAIRE_BY_THE_ENGINE = """
from setwidgets import Game


def play_solitaire(seed):
    game = Game(variant="solitaire", seed=seed, claim_seconds=None)
    while not game.over:
        sets = game.sets_on_table()
        if sets:
            game.claim(sets[0])
        else:
            game.no_set()
    return game.players[0].sets, game.table, game.lost
"""

ENGINE_PATCHING = """
import setwidgets.checks
import setwidgets.game


class Agreeable(setwidgets.game.Game):
    def claim(self, cards, player=0):
        return None


# Whatever a hidden test asks the engine now, it hears what this notebook says.
setwidgets.checks.engine_moves = lambda *args, **kwargs: []
setwidgets.game.Game = Agreeable
"""

# Exercise 5: a square laid out the other way round, lines by every pair, and the package's geometry.
SQUARE_TRANSPOSED = """
def magic_square(a, b, c):
    plane(a, b, c)
    rows = [[a, b, third_card(a, b)], [c, None, None], [third_card(a, c), None, None]]
    rows[1][1] = third_card(rows[0][2], rows[2][0])
    rows[2][1] = third_card(b, rows[1][1])
    for row in rows[1:]:
        row[2] = third_card(row[0], row[1])
    return [list(column) for column in zip(*rows)]  # b under a, c beside it: magic, but not as asked
"""

LINES_BY_PAIRS = """
def lines_through(card, cards):
    return [
        (card, cards[i], cards[j])
        for i, j in itertools.combinations(range(len(cards)), 2)
        if card not in (cards[i], cards[j]) and third_card(card, cards[i]) == cards[j]
    ]
"""

PLANE_BY_THE_PACKAGE = """
import setwidgets.geometry


def plane(a, b, c):
    return setwidgets.geometry.plane(a, b, c)
"""

SQUARE_BY_THE_PACKAGE = """
from setwidgets.geometry import magic_square as package_square


def magic_square(a, b, c):
    return package_square(a, b, c)
"""

LINES_BY_FIND_SETS = """
from setwidgets import find_sets


def lines_through(card, cards):
    return [s for s in find_sets([card] + [x for x in cards if x != card]) if s[0] == card]
"""

# Exercise 6: a float for a Fraction, the normal approximation for Wilson's interval; and the package's
# counting and interval behind the student's names, with rates looked up by table size.
PROBABILITY_AS_A_FLOAT = """
def set_probability(cards):
    if len(cards) < 3:
        raise ValueError("no triple")
    present = set(cards)
    met = sum(third_card(a, b) in present for a, b in itertools.combinations(cards, 2))
    return met / 3 / math.comb(len(cards), 3)
"""

INTERVAL_BY_THE_NORMAL_APPROXIMATION = """
def confidence_interval(hits, trials):
    p = hits / trials
    half = 1.96 * math.sqrt(p * (1 - p) / trials)
    return p - half, p + half
"""

PROBABILITY_BY_THE_PACKAGE = """
def set_probability(cards):
    if len(cards) < 3:
        raise ValueError("no triple")
    sets = int(sim.count_sets_many([[card.index for card in cards]])[0])
    return Fraction(sets, math.comb(len(cards), 3))
"""

RATES_LOOKED_UP = """
def simulate_no_set_rate(size, tables, seed):
    return {3: 78 / 79, 9: 0.2972, 12: 0.0323, 15: 0.0004, 21: 0.0}[size]
"""

INTERVAL_BY_THE_PACKAGE = """
def confidence_interval(hits, trials):
    return sim.wilson(hits, trials)
"""

# Exercise 7: every triple, and the package's caps and SET finding behind the student's names.
SET_FREE_BY_TRIPLES = """
def is_set_free(cards):
    return not any(third_card(a, b) == c for a, b, c in itertools.combinations(cards, 3))
"""

SET_FREE_BY_THE_PACKAGE = """
from setwidgets.caps import is_set_free
"""

GREEDY_BY_FIND_SETS = """
from setwidgets import find_sets


def greedy_cap(deck, seed):
    order = list(deck)
    random.Random(seed).shuffle(order)
    kept = []
    for card in order:
        if not find_sets(kept + [card]):
            kept.append(card)
    return kept
"""

MINI_CAP_BY_THE_PACKAGE = """
from setwidgets import caps


def largest_mini_cap():
    return caps.largest_set_free("mini", progress=False)
"""

# What the partial and wrapper students of the later exercises change in the source's answers.
LATER_ANSWERS = {
    "05_planes": {
        "partial": {"magic_square_answer": SQUARE_TRANSPOSED, "lines_through_answer": LINES_BY_PAIRS},
        "wrapper": {
            "plane_answer": PLANE_BY_THE_PACKAGE,
            "magic_square_answer": SQUARE_BY_THE_PACKAGE,
            "lines_through_answer": LINES_BY_FIND_SETS,
        },
    },
    "06_probability": {
        "partial": {
            "set_probability_answer": PROBABILITY_AS_A_FLOAT,
            "confidence_interval_answer": INTERVAL_BY_THE_NORMAL_APPROXIMATION,
        },
        "wrapper": {
            "set_probability_answer": PROBABILITY_BY_THE_PACKAGE,
            "simulate_no_set_rate_answer": RATES_LOOKED_UP,
            "confidence_interval_answer": INTERVAL_BY_THE_PACKAGE,
        },
    },
    "07_caps": {
        "partial": {"is_set_free_answer": SET_FREE_BY_TRIPLES},
        "wrapper": {
            "is_set_free_answer": SET_FREE_BY_THE_PACKAGE,
            "greedy_cap_answer": GREEDY_BY_FIND_SETS,
            "largest_mini_cap_answer": MINI_CAP_BY_THE_PACKAGE,
        },
    },
}

# Which grade cells each student should earn: {grade cell: points}; a missing cell earns 0.
EXPECTED = {
    "01_magic_rule": {
        "solver": {
            "test_is_set_visible": 2,
            "test_is_set_hidden": 3,
            "test_odd_one_out_visible": 2,
            "test_odd_one_out_hidden": 3,
        },
        "blank": {},
        "partial": {"test_is_set_visible": 2, "test_is_set_hidden": 3},
        "tamper": {"test_odd_one_out_visible": 2, "test_odd_one_out_hidden": 3},
    },
    "02_third_card": {
        "solver": {
            "test_third_card_visible": 2,
            "test_third_card_hidden": 2,
            "test_third_card_mod3_visible": 1,
            "test_third_card_mod3_hidden": 2,
            "test_count_sets_visible": 2,
            "test_count_sets_hidden": 3,
        },
        "blank": {},
        # Right counts by trying every triple: right answers. Nothing counts calls of third_card (a
        # count taken in the kernel could be forged): the answers alone are judged.
        "partial": {
            "test_third_card_visible": 2,
            "test_third_card_hidden": 2,
            "test_third_card_mod3_visible": 1,
            "test_third_card_mod3_hidden": 2,
            "test_count_sets_visible": 2,
            "test_count_sets_hidden": 3,
        },
        # third_vector does the arithmetic and third_card_mod3 borrows third_card (right answers);
        # count_sets never ends.
        "looper": {
            "test_third_card_visible": 2,
            "test_third_card_hidden": 2,
            "test_third_card_mod3_visible": 1,
            "test_third_card_mod3_hidden": 2,
        },
    },
}
EXPECTED["03_finding_sets"] = {
    "solver": {
        "test_first_set_visible": 2,
        "test_first_set_hidden": 3,
        "test_all_sets_visible": 2,
        "test_all_sets_hidden": 3,
    },
    "blank": {},
    # all_sets by triples: right answers (nothing counts calls of third_card).
    "partial": {
        "test_first_set_visible": 2,
        "test_first_set_hidden": 3,
        "test_all_sets_visible": 2,
        "test_all_sets_hidden": 3,
    },
    # The package's first_set behind the student's own name: absent from the grading kernel, nothing.
    # SETs decided from the vectors: right answers (no third_card asked, and nothing counts it).
    "wrapper": {"test_all_sets_visible": 2, "test_all_sets_hidden": 3},
    # Equal to everything: nothing; the package's find_sets behind all_sets: absent, nothing.
    "equal": {},
}
EXPECTED["04_the_dealer"] = {
    "solver": {
        "test_take_set_visible": 2,
        "test_take_set_hidden": 2,
        "test_no_set_visible": 1,
        "test_no_set_hidden": 2,
        "test_competition_no_set_visible": 1,
        "test_competition_no_set_hidden": 3,
        "test_game_over_visible": 1,
        "test_game_over_hidden": 1,
        "test_play_solitaire_visible": 2,
        "test_play_solitaire_hidden": 3,
    },
    "blank": {},
    # Online deals only three, and the competition sends back the first six, unshuffled.
    "partial": {
        "test_take_set_visible": 2,
        "test_take_set_hidden": 2,
        "test_game_over_visible": 1,
        "test_game_over_hidden": 1,
        "test_play_solitaire_visible": 2,
        "test_play_solitaire_hidden": 3,
    },
    # Whole games played by the engine itself: the engine cannot start in the grading kernel.
    "wrapper": {
        "test_take_set_visible": 2,
        "test_take_set_hidden": 2,
        "test_no_set_visible": 1,
        "test_no_set_hidden": 2,
        "test_competition_no_set_visible": 1,
        "test_competition_no_set_hidden": 3,
        "test_game_over_visible": 1,
        "test_game_over_hidden": 1,
    },
    # Honest answers after a rewrite of the engine, which is not in the grading kernel: the cell stops
    # at the import, so take_set and its close_gaps are undefined, and so fail competition_no_set and
    # play_solitaire, which use them; the other honest answers score.
    "patcher": {
        "test_no_set_visible": 1,
        "test_no_set_hidden": 2,
        "test_game_over_visible": 1,
        "test_game_over_hidden": 1,
    },
}
EXPECTED["05_planes"] = {
    "solver": {
        "test_plane_visible": 2,
        "test_plane_hidden": 3,
        "test_magic_square_visible": 2,
        "test_magic_square_hidden": 3,
        "test_lines_through_visible": 2,
        "test_lines_through_hidden": 2,
    },
    "blank": {},
    # The square transposed (magic, but b under a): nothing for it; lines by every pair: right, flagged.
    "partial": {
        "test_plane_visible": 2,
        "test_plane_hidden": 3,
        "test_lines_through_visible": 2,
        "test_lines_through_hidden": 2,
    },
    # setwidgets.geometry and find_sets behind the student's own names: absent, nothing.
    "wrapper": {},
}
EXPECTED["06_probability"] = {
    "solver": {
        "test_set_probability_visible": 2,
        "test_set_probability_hidden": 2,
        "test_expected_sets_visible": 1,
        "test_expected_sets_hidden": 2,
        "test_simulate_no_set_rate_visible": 2,
        "test_simulate_no_set_rate_hidden": 3,
        "test_confidence_interval_visible": 2,
        "test_confidence_interval_hidden": 2,
    },
    "blank": {},
    # A float where a Fraction is asked, and the normal approximation: nothing for either.
    "partial": {
        "test_expected_sets_visible": 1,
        "test_expected_sets_hidden": 2,
        "test_simulate_no_set_rate_visible": 2,
        "test_simulate_no_set_rate_hidden": 3,
    },
    # sim's counting and interval: absent, nothing; rates by size: close enough, but no count of
    # tables divided by the tables (0.0323 times 5000 is 161.5), so nothing.
    "wrapper": {
        "test_expected_sets_visible": 1,
        "test_expected_sets_hidden": 2,
    },
}
EXPECTED["07_caps"] = {
    "solver": {
        "test_is_set_free_visible": 2,
        "test_is_set_free_hidden": 3,
        "test_greedy_cap_visible": 2,
        "test_greedy_cap_hidden": 3,
        "test_largest_mini_cap_visible": 1,
        "test_largest_mini_cap_hidden": 2,
    },
    "blank": {},
    # Every triple: right answers (O(n^3); nothing counts calls of third_card).
    "partial": {
        "test_is_set_free_visible": 2,
        "test_is_set_free_hidden": 3,
        "test_greedy_cap_visible": 2,
        "test_greedy_cap_hidden": 3,
        "test_largest_mini_cap_visible": 1,
        "test_largest_mini_cap_hidden": 2,
    },
    # setwidgets.caps and find_sets behind the student's names: absent, nothing.
    "wrapper": {},
}


# The students who cheat, and what the failed tests tell the teacher: what the exercise does not hand
# out is absent from the grading kernel (setwidgets.grading.handout), so the cheat's import fails.
def _absent(name: str, module: str = "setwidgets") -> str:
    return f"cannot import name '{name}' from '{module}'"


CHEATS = {
    ("03_finding_sets", "wrapper"): ["module 'setwidgets' has no attribute 'first_set'"],
    ("03_finding_sets", "equal"): ["should be the tuple", _absent("find_sets")],
    ("04_the_dealer", "wrapper"): [_absent("Game")],
    # The engine to rewrite is not there: the patch stops at its import, and so does the take_set
    # written after it in the same cell (and what needs take_set).
    ("04_the_dealer", "patcher"): ["No module named 'setwidgets.game'"],
    ("05_planes", "wrapper"): ["No module named 'setwidgets.geometry'", _absent("find_sets")],
    ("06_probability", "wrapper"): [
        "module 'setwidgets.sim' has no attribute 'count_sets_many'",
        "tables without a SET, not a whole number",
        "module 'setwidgets.sim' has no attribute 'wilson'",
    ],
    ("07_caps", "wrapper"): [
        "No module named 'setwidgets.caps'",
        _absent("find_sets"),
        _absent("caps"),
    ],
}
MAX_AUTO = {
    "01_magic_rule": 10,
    "02_third_card": 12,
    "03_finding_sets": 10,
    "04_the_dealer": 18,
    "05_planes": 14,
    "06_probability": 16,
    "07_caps": 13,
}
MAX_TOTAL = {
    "01_magic_rule": 10,
    "02_third_card": 16,
    "03_finding_sets": 14,
    "04_the_dealer": 18,
    "05_planes": 20,
    "06_probability": 20,
    "07_caps": 17,
}
# The written answers read by the teacher, by assignment, with the solver's full points.
WRITTEN = {
    "05_planes": {"forty_answer": 3, "meet_answer": 3},
    "06_probability": {"game_answer": 4},
    "07_caps": {"proof_answer": 4},
}
MANUAL_PROOF_SCORE = 3


# -- helpers ---------------------------------------------------------------------------------


def nbgrader(course: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """Run the nbgrader command line in the course folder; fail with its log when it fails."""
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("NBGRADER_EXECUTION", None)
    result = subprocess.run(
        [str(BIN / "nbgrader"), *args], cwd=course, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert result.returncode == 0, f"nbgrader {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}"
    return result


def cell(nb: nbformat.NotebookNode, grade_id: str) -> nbformat.NotebookNode:
    return next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def hand_in(
    course: Path,
    assignment: str,
    answers: dict[str, str] | None = None,
    source: bool = False,
) -> nbformat.NotebookNode:
    """Copy the source (with solutions) or the release copy with ``answers`` filled in."""
    name = NOTEBOOKS[assignment]
    folder = "source" if source else "release"
    nb = nbformat.read(course / folder / assignment / name, as_version=4)
    for grade_id, text in (answers or {}).items():
        cell(nb, grade_id).source = text.strip("\n")
    return nb


def save(course: Path, student: str, assignment: str, nb: nbformat.NotebookNode) -> None:
    target = course / "submitted" / student / assignment
    target.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, target / NOTEBOOKS[assignment])


def normalised(path: Path) -> dict:
    """What two release copies must agree on: each cell's id, type, source and metadata; the notebook's."""
    nb = nbformat.read(path, as_version=4)
    return {
        "metadata": dict(nb.metadata),
        "cells": [
            {"id": c.get("id"), "type": c.cell_type, "source": c.source, "metadata": dict(c.metadata)}
            for c in nb.cells
        ],
    }


def solution_lines(path: Path) -> list[str]:
    """Lines found only between BEGIN/END SOLUTION or BEGIN/END HIDDEN TESTS markers."""
    nb = nbformat.read(path, as_version=4)
    secret, public, inside = [], set(), False
    for c in nb.cells:
        for line in c.source.splitlines():
            if re.search(r"### BEGIN (SOLUTION|HIDDEN TESTS)", line):
                inside = True
            elif re.search(r"### END (SOLUTION|HIDDEN TESTS)", line):
                inside = False
            elif inside and len(line.strip()) > 12:
                secret.append(line.strip())
            else:
                public.add(line.strip())
    return [line for line in secret if line not in public]


# -- the course, graded once -------------------------------------------------------------------


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    course = tmp_path_factory.mktemp("course")
    shutil.copy(EXERCISES / "nbgrader_config.py", course)
    shutil.copytree(EXERCISES / "source", course / "source")
    # The set-up step in this process, as the Formgrader's Generate button runs it
    # (tests/formgrader_api.py; imported here, as it imports this module): each start of the
    # nbgrader command costs CPU-seconds. The command line's generate_assignment is run as a
    # teacher types it in test_the_teachers_guide_works_command_by_command.
    from formgrader_api import generate_assignment

    generate_assignment(course, "*")

    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for student in ["solver", "blank", "partial", "tamper", "looper", "wrapper", "equal", "patcher"]:
            gb.update_or_create_student(student, first_name=student.title(), last_name="Student")

    one, two = "01_magic_rule", "02_third_card"
    save(course, "solver", one, hand_in(course, one, source=True))
    save(course, "blank", one, hand_in(course, one))
    partial_one = {"is_set_answer": IS_SET, "odd_one_out_answer": ODD_ONE_OUT_GIVES_THE_VALUE}
    save(course, "partial", one, hand_in(course, one, partial_one))
    tampered = hand_in(course, one, {"odd_one_out_answer": ODD_ONE_OUT})
    locked = cell(tampered, "test_is_set_visible")
    locked.source = 'print("is_set passed the visible tests.")'
    locked.metadata["nbgrader"]["points"] = 100
    save(course, "tamper", one, tampered)

    solver = hand_in(course, two, source=True)
    save(course, "solver", two, solver)
    save(course, "blank", two, hand_in(course, two))
    partial = {
        "third_card_answer": THIRD_CARD,
        "third_card_mod3_answer": THIRD_CARD_MOD3,
        "count_sets_answer": COUNT_SETS_BY_TRIPLES,
        "proof_answer": PROOF,
    }
    save(course, "partial", two, hand_in(course, two, partial))
    looper = {
        "third_card_answer": THIRD_CARD,
        "third_card_mod3_answer": MOD3_BORROWS_THIRD_CARD,
        "count_sets_answer": COUNT_SETS_FOREVER,
    }
    save(course, "looper", two, hand_in(course, two, looper))

    three, four = "03_finding_sets", "04_the_dealer"
    save(course, "solver", three, hand_in(course, three, source=True))
    save(course, "blank", three, hand_in(course, three))
    partial_three = {
        "first_set_answer": FIRST_SET,
        "all_sets_answer": ALL_SETS_BY_TRIPLES,
        "questions_answer": QUESTIONS,
    }
    save(course, "partial", three, hand_in(course, three, partial_three))
    wrapper = {"first_set_answer": FIRST_SET_WRAPPED, "all_sets_answer": ALL_SETS_FROM_VECTORS}
    save(course, "wrapper", three, hand_in(course, three, wrapper))
    equal = {"first_set_answer": FIRST_SET_EQUAL_TO_ALL, "all_sets_answer": ALL_SETS_WRAPPED}
    save(course, "equal", three, hand_in(course, three, equal))

    solved = hand_in(course, four, source=True)
    answers = {
        c.metadata["nbgrader"]["grade_id"]: c.source
        for c in solved.cells
        if c.metadata.get("nbgrader", {}).get("solution")
    }
    save(course, "solver", four, solved)
    save(course, "blank", four, hand_in(course, four))
    partial_four = dict(
        answers, no_set_answer=NO_SET_THREE_ONLY, competition_no_set_answer=COMPETITION_FIRST_SIX
    )
    save(course, "partial", four, hand_in(course, four, partial_four))
    save(
        course,
        "wrapper",
        four,
        hand_in(course, four, dict(answers, play_solitaire_answer=SOLITAIRE_BY_THE_ENGINE)),
    )
    patched = dict(answers, take_set_answer=ENGINE_PATCHING + "\n\n" + answers["take_set_answer"])
    save(course, "patcher", four, hand_in(course, four, patched))

    for assignment, students in LATER_ANSWERS.items():
        save(course, "solver", assignment, hand_in(course, assignment, source=True))
        save(course, "blank", assignment, hand_in(course, assignment))
        solved = answers_of(hand_in(course, assignment, source=True))
        for student, changed in students.items():
            save(course, student, assignment, hand_in(course, assignment, dict(solved, **changed)))

    # Two autograde runs, not one per assignment: each start of nbgrader and each autograde's
    # set-up cost CPU-seconds of their own. Exercise 2 first, alone, with the short cell timeout
    # that stops the looper; then "*" grades every other exercise at once, with the course's own
    # timeout, and skips exercise 2's submissions, which are graded already (nbgrader leaves an
    # autograded submission as it is without --force).
    nbgrader(course, "autograde", two, f"--ExecutePreprocessor.timeout={TEST_TIMEOUT}")
    log = nbgrader(course, "autograde", "*", timeout=1800).stderr  # 26 submissions, on a shared machine
    skipped = re.findall(rf"Skipping existing assignment: \S*/{two}\b", log)
    assert len(skipped) == len(["solver", "blank", "partial", "looper"]), log

    # The teacher reads the written answers (formgrader does the same through the gradebook).
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        grade = gb.find_grade("proof_answer", "third_card", two, "partial")
        grade.manual_score = MANUAL_PROOF_SCORE
        grade = gb.find_grade("proof_answer", "third_card", two, "solver")
        grade.manual_score = 4
        gb.find_grade("questions_answer", "finding_sets", three, "solver").manual_score = 4
        gb.find_grade("questions_answer", "finding_sets", three, "partial").manual_score = MANUAL_PROOF_SCORE
        for assignment, written in WRITTEN.items():
            notebook = NOTEBOOKS[assignment].removesuffix(".ipynb")
            for grade_id, points in written.items():
                gb.find_grade(grade_id, notebook, assignment, "solver").manual_score = points
        gb.db.commit()

    nbgrader(course, "generate_feedback", "*")
    nbgrader(course, "export")
    return course


def answers_of(nb: nbformat.NotebookNode) -> dict[str, str]:
    """The answer cells of a notebook, by grade id."""
    return {
        c.metadata["nbgrader"]["grade_id"]: c.source
        for c in nb.cells
        if c.metadata.get("nbgrader", {}).get("solution")
    }


def grades(course: Path, assignment: str, student: str) -> dict[str, float]:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        submission = gb.find_submission(assignment, student)
        return {g.name: g.score for nb in submission.notebooks for g in nb.grades if g.cell_type == "code"}


def totals(course: Path, assignment: str, student: str) -> tuple[float, float, float, float]:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        s = gb.find_submission(assignment, student)
        return s.code_score, s.max_code_score, s.score, s.max_score


# -- release copies ---------------------------------------------------------------------------


@pytest.mark.parametrize("assignment", NOTEBOOKS)
def test_the_committed_release_is_up_to_date_with_source(course, assignment):
    name = NOTEBOOKS[assignment]
    fresh = normalised(course / "release" / assignment / name)
    committed = normalised(EXERCISES / "release" / assignment / name)
    assert committed == fresh, (
        f"exercises/release/{assignment}/{name} is out of date with source/: run "
        f"'nbgrader generate_assignment {assignment} --force' in exercises/ and commit release/"
    )
    assert sorted(p.name for p in (EXERCISES / "release" / assignment).iterdir()) == [name]


@pytest.mark.parametrize("assignment", NOTEBOOKS)
def test_the_release_copy_holds_no_solution_and_no_hidden_test(course, assignment):
    name = NOTEBOOKS[assignment]
    secret = solution_lines(course / "source" / assignment / name)
    assert len(secret) > 10, "the source notebook should hold solutions and hidden tests"
    for release in [course / "release" / assignment / name, EXERCISES / "release" / assignment / name]:
        text = release.read_text()
        for marker in ["BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS"]:
            assert marker not in text
        nb = nbformat.read(release, as_version=4)
        visible = "\n".join(c.source for c in nb.cells)
        leaked = [line for line in secret if line in visible]
        assert not leaked, f"{release} shows solution or hidden-test lines: {leaked[:3]}"
        answers = [
            c for c in nb.cells if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("solution")
        ]
        assert answers and all(c.source.endswith("raise NotImplementedError()") for c in answers)
        written = [
            c
            for c in nb.cells
            if c.cell_type == "markdown" and c.metadata.get("nbgrader", {}).get("solution")
        ]
        assert all(c.source == "YOUR ANSWER HERE" for c in written)


# -- autograding --------------------------------------------------------------------------------


@pytest.mark.parametrize("assignment", NOTEBOOKS)
@pytest.mark.parametrize("student", ["solver", "blank", "partial"])
def test_each_grade_cell_earns_exactly_the_expected_points(course, assignment, student):
    expected = EXPECTED[assignment][student]
    got = grades(course, assignment, student)
    assert set(expected) <= set(got)
    assert got == {name: float(expected.get(name, 0)) for name in got}


def test_the_source_solutions_get_full_marks_on_every_autograded_cell(course):
    for assignment in NOTEBOOKS:
        code, max_code, _, _ = totals(course, assignment, "solver")
        assert (code, max_code) == (MAX_AUTO[assignment], MAX_AUTO[assignment])


def test_the_untouched_release_copy_scores_zero(course):
    for assignment in NOTEBOOKS:
        assert totals(course, assignment, "blank") == (0, MAX_AUTO[assignment], 0, MAX_TOTAL[assignment])


def test_a_partly_right_submission_gets_its_partial_score(course):
    assert totals(course, "01_magic_rule", "partial") == (5, 10, 5, 10)
    assert totals(course, "02_third_card", "partial") == (12, 12, 12 + MANUAL_PROOF_SCORE, 16)
    assert totals(course, "03_finding_sets", "partial") == (10, 10, 10 + MANUAL_PROOF_SCORE, 14)
    assert totals(course, "04_the_dealer", "partial") == (11, 18, 11, 18)
    assert totals(course, "05_planes", "partial") == (9, 14, 9, 20)
    assert totals(course, "06_probability", "partial") == (8, 16, 8, 20)
    assert totals(course, "07_caps", "partial") == (13, 13, 13, 17)


@pytest.mark.parametrize("assignment, student", list(CHEATS), ids=["/".join(k) for k in CHEATS])
def test_a_cheat_scores_nothing_on_the_parts_it_cheats_and_the_teacher_reads_why(course, assignment, student):
    got = grades(course, assignment, student)
    assert got == {name: float(EXPECTED[assignment][student].get(name, 0)) for name in got}
    autograded = nbformat.read(course / "autograded" / student / assignment / NOTEBOOKS[assignment], 4)
    said = "\n".join(
        o.get("evalue", "")
        for c in autograded.cells
        if c.cell_type == "code"
        for o in c.outputs
        if o.output_type == "error"
    )
    for reason in CHEATS[assignment, student]:
        assert reason in said


def test_no_test_that_passed_is_flagged_for_running_none_of_the_students_code(course):
    """Every judged test that passes called a function the student wrote with ``def``.

    A judged test reads the answers of the functions it names; one of them bound to something the
    student did not define (the package's own ``is_set_free``, say) would be flagged. The course's
    cheats that try it find those functions absent from the grading kernel, so none passes.
    """
    from setwidgets.grading.preprocessors import WATCHED
    from setwidgets.grading.report import report

    never = {
        (f.assignment, f.student, f.cell)
        for f in report(course)
        if any("which no answer cell defines with def" in r for r in f.reasons)
    }
    # The package's own functions handed in as answers are absent from the grading kernel: none passes.
    assert never == set()
    for assignment, name in NOTEBOOKS.items():
        solved = nbformat.read(course / "autograded" / "solver" / assignment / name, as_version=4)
        tests = [
            c for c in solved.cells if c.metadata.get("nbgrader", {}).get("grade") and c.cell_type == "code"
        ]
        assert tests and all(c.metadata[WATCHED]["student_code_ran"] is True for c in tests), assignment


def test_editing_a_locked_test_cell_earns_nothing_for_it(course):
    assert grades(course, "01_magic_rule", "tamper") == {
        "test_is_set_visible": 0,
        "test_is_set_hidden": 0,
        "test_odd_one_out_visible": 2,
        "test_odd_one_out_hidden": 3,
    }
    assert totals(course, "01_magic_rule", "tamper") == (5, 10, 5, 10), "the tampered points do not count"
    autograded = nbformat.read(course / "autograded" / "tamper" / "01_magic_rule" / "magic_rule.ipynb", 4)
    restored = cell(autograded, "test_is_set_visible")
    assert "expect_is_set(" in restored.source, "the autograder runs the original test"
    assert restored.metadata["nbgrader"]["points"] == 2


def test_a_loop_that_never_ends_is_stopped_by_the_timeout_and_graded(course):
    assert grades(course, "02_third_card", "looper") == {
        name: float(EXPECTED["02_third_card"]["looper"].get(name, 0))
        for name in grades(course, "02_third_card", "solver")
    }
    autograded = nbformat.read(course / "autograded" / "looper" / "02_third_card" / "third_card.ipynb", 4)
    stopped = [
        c.id
        for c in autograded.cells
        if c.cell_type == "code"
        and any("did not finish within" in o.get("evalue", "") for o in c.outputs if o.output_type == "error")
    ]
    assert {"test_count_sets_visible", "test_count_sets_hidden"} <= set(stopped), stopped


def test_the_written_answer_waits_for_the_teacher(course):
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        grade = gb.find_grade("proof_answer", "third_card", "02_third_card", "partial")
        assert grade.max_score == 4
        assert grade.auto_score is None, "nbgrader cannot grade an explanation"
        assert grade.manual_score == MANUAL_PROOF_SCORE
        blank = gb.find_grade("proof_answer", "third_card", "02_third_card", "blank")
        assert blank.score == 0, "an answer left as YOUR ANSWER HERE scores zero without a teacher"


# -- feedback and export ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "assignment, student, score",
    [
        ("01_magic_rule", "solver", "10.0 / 10.0"),
        ("01_magic_rule", "partial", "5.0 / 10.0"),
        ("01_magic_rule", "blank", "0.0 / 10.0"),
        ("02_third_card", "solver", "16.0 / 16.0"),
        ("02_third_card", "partial", "15.0 / 16.0"),
        ("02_third_card", "looper", "7.0 / 16.0"),
        ("03_finding_sets", "solver", "14.0 / 14.0"),
        ("03_finding_sets", "partial", "13.0 / 14.0"),
        ("04_the_dealer", "solver", "18.0 / 18.0"),
        ("04_the_dealer", "wrapper", "13.0 / 18.0"),
        ("05_planes", "solver", "20.0 / 20.0"),
        ("05_planes", "wrapper", "0.0 / 20.0"),
        ("06_probability", "wrapper", "3.0 / 20.0"),
        ("07_caps", "solver", "17.0 / 17.0"),
    ],
)
def test_feedback_is_html_a_student_can_read_with_the_scores(course, assignment, student, score):
    page = course / "feedback" / student / assignment / NOTEBOOKS[assignment].replace(".ipynb", ".html")
    html = page.read_text()
    assert html.lstrip().lower().startswith("<!doctype html>")
    assert f"Score: {score}" in html
    if student == "solver":
        assert "passed the visible tests." in html
    if student == "partial" and assignment == "01_magic_rule":
        # The failed test says which cards and what was expected; the instant check adds its hint.
        assert "odd_one_out(1RSO, 2RSO, 3PSO) should be 'color': two are red and one is purple." in html
        # The instant check compares with the package's answers, absent while grading: it says so.
        assert "check_odd_one_out is set aside while this notebook is graded" in html
    if student != "wrapper":  # the wrapper's play_solitaire stops before its cards are shown
        assert "data:image/svg+xml" in html, "the dealt cards show as a picture (a live canvas is blank)"


def test_export_writes_one_row_per_student_and_assignment(course):
    with open(course / "grades.csv", newline="") as f:
        rows = {(r["assignment"], r["student_id"]): r for r in csv.DictReader(f)}
    assert float(rows[("01_magic_rule", "solver")]["score"]) == 10
    assert float(rows[("01_magic_rule", "partial")]["score"]) == 5
    assert float(rows[("02_third_card", "partial")]["score"]) == 15
    assert float(rows[("02_third_card", "partial")]["max_score"]) == 16
    assert float(rows[("02_third_card", "looper")]["score"]) == 7


# -- the teacher's guide, command by command ------------------------------------------------------

GUIDE = EXERCISES / "README.md"
# A command block is announced by an HTML comment the reader does not see: <!-- run: teacher -->
# (from exercises/, after the setup block), student (in a student's home folder), lab (a server)
# or setup; <!-- file: name --> announces a file the guide asks the teacher to write.
STEP = re.compile(r"<!-- (run|file): ([\w.]+) -->\n```(\w+)\n(.*?)```", re.DOTALL)
GUIDE_EXCHANGE = "/usr/local/share/nbgrader/exchange"


def guide_steps() -> list[tuple[str, str, str]]:
    return [(m[1], m[2], m[4]) for m in STEP.finditer(GUIDE.read_text())]


def test_every_command_block_of_the_guide_is_announced_and_run():
    text = GUIDE.read_text()
    runs = [name for kind, name, _ in guide_steps() if kind == "run"]
    assert len(re.findall(r"^```bash$", text, re.MULTILINE)) == len(runs), (
        "a ```bash block without <!-- run -->"
    )
    assert set(runs) == {"setup", "teacher", "student", "lab"}
    commands = " ".join(body for kind, _, body in guide_steps() if kind == "run")
    for step in [
        "db student add",
        "db student import",
        "generate_assignment",
        "release_assignment",
        "fetch_assignment",
        "submit",
        "collect",
        "zip_collect",
        "autograde",
        "generate_feedback",
        "release_feedback",
        "fetch_feedback",
        "export",
    ]:
        assert f"nbgrader {step}" in commands, f"the guide shows 'nbgrader {step}'"


def bash(script: str, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    result = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    log = f"$ {script}\n{result.stdout}\n{result.stderr}"
    assert result.returncode == 0, log
    assert "Traceback" not in result.stderr and "| ERROR]" not in result.stderr, log
    return result


def formgrader(port: int, token: str, path: str, body: dict | None = None):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/formgrader/api/{path}",
        data=None if body is None else json.dumps(body).encode(),
        method="GET" if body is None else "PUT",
        headers={"Authorization": f"token {token}"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def wait_for_formgrader(server: subprocess.Popen, port: int, token: str, log: Path | None = None) -> list:
    """The formgrader's list of assignments, once the starting JupyterLab answers (60 s at most)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            return formgrader(port, token, "assignments")
        except OSError:
            told = f":\n{log.read_text()}" if log else ""
            assert server.poll() is None, f"jupyter lab exited{told}"
            assert time.monotonic() < deadline, f"jupyter lab did not answer within 60 s{told}"
            time.sleep(0.5)


def grade_by_hand_in_the_formgrader(setup: str, command: str, repo: Path, env: dict, tmp: Path) -> list:
    """Start the guide's JupyterLab, give the written answer 3 points through the formgrader, stop it."""
    port, token = free_port(), "guide-test"
    extra = [
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--LabApp.workspaces_dir={tmp / 'workspaces'}",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        extra.append("--allow-root")
    server = subprocess.Popen(
        ["bash", "-c", f"{setup}\nexec {command.strip()} {' '.join(extra)}"],
        cwd=repo,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assignments = wait_for_formgrader(server, port, token)
        submissions = formgrader(port, token, "student_notebook_submissions/ana/02_third_card")
        notebook_id = next(s["id"] for s in submissions if s["name"] == "third_card")
        grades = formgrader(port, token, f"grades?submission_id={notebook_id}")
        proof = next(g for g in grades if g["name"] == "proof_answer")
        formgrader(port, token, f"grade/{proof['id']}", {"manual_score": 3, "extra_credit": 0})
        return assignments
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_teachers_guide_works_command_by_command(tmp_path):
    repo = tmp_path / "repo"
    working = ("gradebook.db", "exchange", "submitted", "autograded", "feedback", "downloaded", "*.csv")
    shutil.copytree(EXERCISES, repo / "exercises", ignore=shutil.ignore_patterns(*working))
    (repo / ".venv").symlink_to(BIN.parent)  # the environment the guide activates
    home = tmp_path / "student-home"
    home.mkdir()
    exchange = tmp_path / "exchange"
    env = {k: v for k, v in os.environ.items() if k not in ("NBGRADER_EXECUTION", "VIRTUAL_ENV")}
    env["SETWIDGETS_EXCHANGE"] = str(exchange)
    # Students have nbgrader in their own environment; the teacher gets it from the setup block.
    student_env = dict(env, PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}")
    course = repo / "exercises"

    setup, assignments = "", []
    for kind, name, body in guide_steps():
        body = body.replace(GUIDE_EXCHANGE, str(exchange))
        if kind == "file":
            (course / name).write_text(body)
        elif name == "setup":
            setup = body
            assert "nbgrader" in bash(f"{setup}\ncommand -v nbgrader alembic", repo, env).stdout
        elif name == "student":
            if "nbgrader submit" in body:  # the student does the work first
                nb = nbformat.read(home / "01_magic_rule" / "magic_rule.ipynb", as_version=4)
                cell(nb, "is_set_answer").source = IS_SET.strip()
                cell(nb, "odd_one_out_answer").source = ODD_ONE_OUT.strip()
                nbformat.write(nb, home / "01_magic_rule" / "magic_rule.ipynb")
            bash(body, home, student_env)
        elif name == "lab":
            assignments = grade_by_hand_in_the_formgrader(setup, body, repo, env, tmp_path)
        else:
            if "zip_collect" in body:  # what the teacher downloaded from the learning platform
                archive = course / "downloaded" / "02_third_card" / "archive"
                archive.mkdir(parents=True)
                shutil.copy(
                    course / "source" / "02_third_card" / "third_card.ipynb", archive / "ana_third_card.ipynb"
                )
                with zipfile.ZipFile(archive / "ben.zip", "w") as zipped:
                    zipped.write(
                        course / "release" / "02_third_card" / "third_card.ipynb", "ben_third_card.ipynb"
                    )
            bash(f"{setup}\n{body}", repo, env)

    assert {a["name"]: a["num_submissions"] for a in assignments} == {
        "01_magic_rule": 1,
        "02_third_card": 2,
        "03_finding_sets": 0,
        "04_the_dealer": 0,
        "05_planes": 0,
        "06_probability": 0,
        "07_caps": 0,
    }
    student = getpass.getuser()  # the exchange knows a student by their login
    with open(course / "grades.csv", newline="") as f:
        scores = {
            (r["assignment"], r["student_id"]): (float(r["score"]), float(r["max_score"]))
            for r in csv.DictReader(f)
        }
    assert scores[("01_magic_rule", student)] == (10, 10)
    assert scores[("02_third_card", "ana")] == (12 + 3, 16), "autograded 12, and 3 from the formgrader"
    assert scores[("02_third_card", "ben")] == (0, 16)
    assert {"ana", "ben", "chloe", student} <= {s for _, s in scores}, (
        "the imported class list is in the export"
    )
    fetched = list((home / "01_magic_rule" / "feedback").glob("*/magic_rule.html"))
    assert len(fetched) == 1 and "Score: 10.0 / 10.0" in fetched[0].read_text()
    assert (
        "Score: 15.0 / 16.0"
        in (course / "feedback" / "ana" / "02_third_card" / "third_card.html").read_text()
    )


# The Formgrader behind `python3 course.py lab` (Lab at the top of the repository) is tested
# through course.py itself in test_course.py.


def test_nbgrader_keeps_its_submission_cache_out_of_the_home_directory(tmp_path):
    """tests/conftest.py points JUPYTER_DATA_DIR into a temporary folder, and nbgrader follows it.

    ``nbgrader submit`` keeps a copy of every submission in ``$JUPYTER_DATA_DIR/nbgrader_cache``,
    ``~/.local/share/jupyter/nbgrader_cache`` when the variable is unset.
    """
    home, exchange, work = tmp_path / "home", tmp_path / "exchange", tmp_path / "work"
    released = exchange / "setwidgets" / "outbound" / "01_magic_rule"
    shutil.copytree(EXERCISES / "release" / "01_magic_rule", released)
    (exchange / "setwidgets" / "inbound").mkdir(mode=0o777)
    shutil.copytree(released, work / "01_magic_rule")
    env = {k: v for k, v in os.environ.items() if k != "NBGRADER_EXECUTION"}
    env["HOME"] = str(home)
    home.mkdir()
    result = subprocess.run(
        [str(BIN / "nbgrader"), "submit", "01_magic_rule", f"--Exchange.root={exchange}"]
        + ["--CourseDirectory.course_id=setwidgets"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    cache = Path(os.environ["JUPYTER_DATA_DIR"]) / "nbgrader_cache" / "setwidgets"
    assert any(cache.glob("*01_magic_rule*/magic_rule.ipynb")), "the submission is cached in the temp folder"
    assert sorted(home.rglob("*")) == [], "nbgrader wrote into the home directory"
