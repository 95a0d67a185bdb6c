"""The instant checks and the grader agree: one corpus of wrong and unusual answers per exercise.

Every entry of the corpus is an answer a student might hand in (a mistake, a right answer in an
unusual type, an object that claims to equal everything, a function that changes the lists it is
given, an error). Each runs through both judges of its function:

- the instant check (``setwidgets.checks.check_<function>``), as the notebook calls it;
- the graded tests of the exercise (``exercises/source/*/hidden_tests.py``, visible and hidden),
  through the grader's own judge (:func:`setwidgets.grading.judge.judge`), with
  :func:`setwidgets.grading.compute.call` playing the kernel, as ``tests/test_judge.py`` does:
  the same code that grades, without an nbgrader round trip.

A test fails when the two disagree (the check passes what the grader fails, or the other way
round), when a check stops with an error of its own instead of a sentence, or when a check's
message writes a card as ``Card(...)`` instead of its short code. The one documented difference is
the checks' advice on how often ``third_card`` is called (the graded tests count nothing, since a
count taken in the student's kernel can be forged): those entries are marked ``ADVICE`` and must
fail the check with a sentence about ``third_card`` while the grader passes them.
"""

from __future__ import annotations

import contextlib
import io
import re
import textwrap
from functools import cache
from pathlib import Path

import nbformat
import pytest

from setwidgets import checks
from setwidgets.checks import CheckResult
from setwidgets.grading import compute
from setwidgets.grading.judge import judge, load

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "exercises" / "source"
SEED = 35  # the grader's seed for the randomised graded tests: fixed, so a failure can be replayed

# -- the answers ------------------------------------------------------------------------------------

# What each function returns, which decides the generic unusual answers made from the right one.
KINDS = {
    "is_set": "bool",
    "odd_one_out": "str",
    "third_card": "card",
    "third_vector": "tuple",
    "third_card_mod3": "card",
    "count_sets": "int",
    "first_set": "tuple",
    "all_sets": "list",
    "take_set": "pair",
    "no_set": "pair",
    "competition_no_set": "pair",
    "game_over": "bool",
    "play_solitaire": "tuple",
    "plane": "list",
    "magic_square": "list",
    "lines_through": "list",
    "set_probability": "fraction",
    "expected_sets": "fraction",
    "simulate_no_set_rate": "float",
    "confidence_interval": "pair",
    "is_set_free": "bool",
    "greedy_cap": "list",
    "largest_mini_cap": "list",
}
EXERCISE_OF = {
    **dict.fromkeys(["is_set", "odd_one_out"], "01_magic_rule"),
    **dict.fromkeys(["third_card", "third_vector", "third_card_mod3", "count_sets"], "02_third_card"),
    **dict.fromkeys(["first_set", "all_sets"], "03_finding_sets"),
    **dict.fromkeys(
        ["take_set", "no_set", "competition_no_set", "game_over", "play_solitaire"], "04_the_dealer"
    ),
    **dict.fromkeys(["plane", "magic_square", "lines_through"], "05_planes"),
    **dict.fromkeys(
        ["set_probability", "expected_sets", "simulate_no_set_rate", "confidence_interval"], "06_probability"
    ),
    **dict.fromkeys(["is_set_free", "greedy_cap", "largest_mini_cap"], "07_caps"),
}
# The graded cells whose verdict depends on a function (third_vector is graded with third_card_mod3).
GRADED_AS = {"third_vector": "third_card_mod3"}
CHECKED_AS = {"third_card_mod3": "third_card"}

# Unusual answers made from the right one (``right`` in the code below), by kind of answer.
_PRELUDE = '''
import numpy as np

class EqualsAll:
    """An object that says it equals everything."""
    def __eq__(self, other):
        return True
    def __ne__(self, other):
        return False
    def __hash__(self):
        return 0
    def __bool__(self):
        return True

class TupleEqualsAll(tuple):
    def __eq__(self, other):
        return True
    __hash__ = tuple.__hash__

class ListEqualsAll(list):
    def __eq__(self, other):
        return True
'''
GENERIC = {
    "numpy": {
        "bool": "return np.bool_(right(*args))",
        "int": "return np.int64(right(*args))",
        "float": "return np.float64(right(*args))",
        "list": "return np.array(right(*args), dtype=object)",
        "tuple": "r = right(*args)\n    return r if r is None else np.array(r, dtype=object)",
        "pair": "return np.array(right(*args), dtype=object)",
    },
    "equals everything": {kind: "return EqualsAll()" for kind in KINDS.values()},
    "tuple equal to everything": {
        kind: "return TupleEqualsAll(right(*args) or ())" for kind in ("tuple", "pair")
    },
    "list equal to everything": {"list": "return ListEqualsAll(right(*args))"},
    "5,000-digit int": {kind: "return 10**5000" for kind in KINDS.values()},
    # (Text of a list would quote Card(...) reprs, the student's own text: left to the types above.)
    "its text": {
        kind: "return str(right(*args))" for kind in ("bool", "str", "card", "int", "float", "fraction")
    },
    "raises": {kind: "raise RuntimeError('oops')" for kind in KINDS.values()},
    "nothing": {kind: "return None" for kind in KINDS.values() if kind != "str"},
    "a number for a bool": {"bool": "return int(right(*args))"},
    "a float for an int": {"int": "return float(right(*args))"},
    "a float for a fraction": {"fraction": "return float(right(*args))"},
    "a list for a tuple": {
        "tuple": "r = right(*args)\n    return r if r is None else list(r)",
        "pair": "return list(right(*args))",
    },
    "a tuple for a list": {"list": "return tuple(right(*args))"},
    "a generator": {"list": "return iter(right(*args))"},
    "numpy floats": {"pair": "return tuple(np.float64(x) for x in right(*args))"},
    "a nan": {"float": "return float('nan')"},
}


def _generic(name: str) -> list[tuple[str, str]]:
    kind = KINDS[name]
    entries = []
    for label, by_kind in GENERIC.items():
        body = by_kind.get(kind)
        if body is None:
            continue
        body = body.replace("right(*args)", "right(*args, **kwargs)")
        source = f"def {name}(*args, **kwargs):\n    right = _right['{name}']\n    {body}\n"
        entries.append((label, source))
    return entries


# Mistakes written as a student writes them, by function: (what it does wrong, its source). An
# entry whose label starts with ADVICE is one the check must fail for its count of third_card's
# calls, and the grader pass.
MISTAKES: dict[str, list[tuple[str, str]]] = {
    "is_set": [
        (
            "ignores shading",
            """
            def is_set(a, b, c):
                if len({a, b, c}) < 3:
                    return False
                for feature in FEATURES[:3]:
                    if len({getattr(a, feature), getattr(b, feature), getattr(c, feature)}) == 2:
                        return False
                return True
            """,
        ),
        (
            "allows a repeated card",
            """
            def is_set(a, b, c):
                return all(len({getattr(x, f) for x in (a, b, c)}) != 2 for f in FEATURES)
            """,
        ),
        (
            "all the same only",
            """
            def is_set(a, b, c):
                same = [len({getattr(x, f) for x in (a, b, c)}) == 1 for f in FEATURES[1:]]
                return len({a, b, c}) == 3 and all(same)
            """,
        ),
    ],
    "odd_one_out": [
        (
            "returns the value",
            """
            def odd_one_out(a, b, c):
                for feature in FEATURES:
                    values = [getattr(a, feature), getattr(b, feature), getattr(c, feature)]
                    if len(set(values)) == 2:
                        return values[0]
                return None
            """,
        ),
        (
            "the last broken feature",
            """
            def odd_one_out(a, b, c):
                found = None
                for feature in FEATURES:
                    if len({getattr(a, feature), getattr(b, feature), getattr(c, feature)}) == 2:
                        found = feature
                return found
            """,
        ),
        (
            "an empty string for a SET",
            """
            def odd_one_out(a, b, c):
                return _right['odd_one_out'](a, b, c) or ''
            """,
        ),
    ],
    "third_card": [
        (
            "no ValueError for the same card twice",
            """
            def third_card(a, b):
                values = {}
                for feature in FEATURES:
                    x, y = getattr(a, feature), getattr(b, feature)
                    values[feature] = x if x == y else next(v for v in VALUES[feature] if v not in (x, y))
                return Card(**values)
            """,
        ),
        (
            "the code of the card",
            """
            def third_card(a, b):
                return _right['third_card'](a, b).code
            """,
        ),
        (
            "a TypeError for the same card twice",
            """
            def third_card(a, b):
                if a == b:
                    raise TypeError('same card')
                return _right['third_card'](a, b)
            """,
        ),
        (
            "a subclass of ValueError for the same card twice",
            """
            class SameCard(ValueError):
                pass

            def third_card(a, b):
                if a == b:
                    raise SameCard('same card')
                return _right['third_card'](a, b)
            """,
        ),
    ],
    "third_vector": [
        (
            "no mod 3",
            """
            def third_vector(u, v):
                return tuple(-(x + y) for x, y in zip(u, v))
            """,
        ),
        (
            "only four numbers",
            """
            def third_vector(u, v):
                return tuple((-u[i] - v[i]) % 3 for i in range(4))
            """,
        ),
        (
            "numpy numbers in a tuple",
            """
            def third_vector(u, v):
                return tuple(np.int64((-x - y) % 3) for x, y in zip(u, v))
            """,
        ),
    ],
    "third_card_mod3": [
        (
            "no ValueError for the same card twice",
            """
            def third_card_mod3(a, b):
                return Card.from_vector([(-x - y) % 3 for x, y in zip(a.vector, b.vector)])
            """,
        ),
        (
            "the sign forgotten: (x + y) % 3",
            """
            def third_card_mod3(a, b):
                return Card.from_vector([(x + y) % 3 for x, y in zip(a.vector, b.vector)])
            """,
        ),
    ],
    "count_sets": [
        (
            "each SET three times",
            """
            def count_sets(cards):
                present = set(cards)
                return sum(third_card(a, b) in present for a, b in itertools.combinations(cards, 2))
            """,
        ),
        (
            "ADVICE pairs, with a third card of its own",
            """
            def count_sets(cards):
                present = set(cards)
                pairs = itertools.combinations(cards, 2)
                thirds = (Card.from_vector([-(x + y) for x, y in zip(a.vector, b.vector)]) for a, b in pairs)
                return sum(third in present for third in thirds) // 3
            """,
        ),
    ],
    "first_set": [
        (
            "the cards sorted",
            """
            def first_set(cards):
                found = _right['first_set'](cards)
                return found and tuple(sorted(found))
            """,
        ),
        (
            "the last SET",
            """
            def first_set(cards):
                found = _right['all_sets'](cards)
                return found[-1] if found else None
            """,
        ),
        (
            "an empty tuple for no SET",
            """
            def first_set(cards):
                return _right['first_set'](cards) or ()
            """,
        ),
    ],
    "all_sets": [
        (
            "each SET listed twice",
            """
            def all_sets(cards):
                found = _right['all_sets'](cards)
                return [s for s in found for _ in range(2)]
            """,
        ),
        (
            "each SET listed three times",
            """
            def all_sets(cards):
                where = {card: i for i, card in enumerate(cards)}
                found = []
                for i, j in itertools.combinations(range(len(cards)), 2):
                    k = where.get(third_card(cards[i], cards[j]))
                    if k is not None:
                        found.append(tuple(cards[p] for p in sorted((i, j, k))))
                return found
            """,
        ),
        (
            "sets of cards",
            """
            def all_sets(cards):
                return [set(s) for s in _right['all_sets'](cards)]
            """,
        ),
        (
            "ADVICE asks third_card again for each SET",
            """
            def all_sets(cards):
                where = {card: i for i, card in enumerate(cards)}
                found = []
                for i, j in itertools.combinations(range(len(cards)), 2):
                    if where.get(third_card(cards[i], cards[j]), -1) > j:
                        found.append((cards[i], cards[j], third_card(cards[i], cards[j])))
                return found
            """,
        ),
    ],
    "take_set": [
        (
            "changes the lists it is given",
            """
            def take_set(table, deck, cards):
                new_table, new_deck = _right['take_set'](table, deck, cards)
                table[:] = new_table
                deck[:] = new_deck
                return table, deck
            """,
        ),
        (
            "takes the cards from the deck it is given",
            """
            def take_set(table, deck, cards):
                result = _right['take_set'](table, deck, cards)
                del deck[:3]
                return result
            """,
        ),
        (
            "always deals",
            """
            def take_set(table, deck, cards):
                table, deck = list(table), list(deck)
                for card in cards:
                    p = table.index(card)
                    if deck:
                        table[p] = deck.pop(0)
                    else:
                        table.pop(p)
                return table, deck
            """,
        ),
    ],
    "no_set": [
        (
            "changes the lists it is given",
            """
            def no_set(table, deck, online=False):
                new_table, new_deck = _right['no_set'](table, deck, online)
                table[:] = new_table
                deck[:] = new_deck
                return table, deck
            """,
        ),
        (
            "ignores online",
            """
            def no_set(table, deck, online=False):
                return list(table) + list(deck[:3]), list(deck[3:])
            """,
        ),
    ],
    "competition_no_set": [
        (
            "changes the lists it is given",
            """
            def competition_no_set(table, deck, rng):
                new_table, new_deck = _right['competition_no_set'](table, deck, rng)
                table[:] = new_table
                deck[:] = new_deck
                return table, deck
            """,
        ),
        (
            "always three more",
            """
            def competition_no_set(table, deck, rng):
                return list(table) + list(deck[:3]), list(deck[3:])
            """,
        ),
    ],
    "game_over": [
        (
            "looks at the table only",
            """
            def game_over(table, deck):
                return not has_set(table) and not deck
            """,
        ),
        (
            "sorts the table it is given",
            """
            def game_over(table, deck):
                table.sort()
                return _right['game_over'](table, deck)
            """,
        ),
        (
            "ignores the deck",
            """
            def game_over(table, deck):
                return not has_set(table)
            """,
        ),
    ],
    "play_solitaire": [
        (
            "never lost",
            """
            def play_solitaire(seed):
                sets, table, lost = _right['play_solitaire'](seed)
                return sets, table, False
            """,
        ),
        (
            "the SETs as lists",
            """
            def play_solitaire(seed):
                sets, table, lost = _right['play_solitaire'](seed)
                return [list(s) for s in sets], table, lost
            """,
        ),
    ],
    "plane": [
        (
            "accepts cards that span no plane",
            """
            def plane(a, b, c):
                cards = [a, b, third_card(a, b)]
                for x in (c, third_card(a, c)):
                    y = third_card(a, third_card(b, x))
                    cards += [x, y, third_card(x, y)]
                return cards
            """,
        ),
        (
            "a message that names nothing",
            """
            def plane(a, b, c):
                try:
                    return _right['plane'](a, b, c)
                except ValueError:
                    raise ValueError('these cards do not span a plane') from None
            """,
        ),
        (
            "the cards twice",
            """
            def plane(a, b, c):
                return _right['plane'](a, b, c) * 2
            """,
        ),
    ],
    "magic_square": [
        (
            "rows as tuples",
            """
            def magic_square(a, b, c):
                return [tuple(row) for row in _right['magic_square'](a, b, c)]
            """,
        ),
        (
            "transposed",
            """
            def magic_square(a, b, c):
                return [list(col) for col in zip(*_right['magic_square'](a, b, c))]
            """,
        ),
        (
            "a message that names nothing",
            """
            def magic_square(a, b, c):
                try:
                    return _right['magic_square'](a, b, c)
                except ValueError:
                    raise ValueError('no square') from None
            """,
        ),
    ],
    "lines_through": [
        (
            "each line twice",
            """
            def lines_through(card, cards):
                found = []
                for x in cards:
                    if x != card and third_card(card, x) in cards:
                        found.append((card, x, third_card(card, x)))
                return found
            """,
        ),
    ],
    "set_probability": [
        (
            "no ValueError below three cards",
            """
            def set_probability(cards):
                if len(cards) < 3:
                    return Fraction(0)
                return _right['set_probability'](cards)
            """,
        ),
    ],
    "expected_sets": [
        (
            "the probability of a SET",
            """
            def expected_sets(k):
                return Fraction(1, 79)
            """,
        ),
    ],
    "simulate_no_set_rate": [
        (
            "a fixed rate",
            """
            def simulate_no_set_rate(size, tables, seed):
                return 0.0323
            """,
        ),
        (
            "a numpy float",
            """
            def simulate_no_set_rate(size, tables, seed):
                dealt = sim.deal_tables(tables, size, seed=seed)
                return (~sim.has_set_many(dealt)).mean()
            """,
        ),
    ],
    "confidence_interval": [
        (
            "the normal approximation",
            """
            def confidence_interval(hits, trials):
                p = hits / trials
                half = 1.96 * math.sqrt(p * (1 - p) / trials)
                return p - half, p + half
            """,
        ),
        (
            "a list",
            """
            def confidence_interval(hits, trials):
                return list(_right['confidence_interval'](hits, trials))
            """,
        ),
    ],
    "is_set_free": [
        (
            "the opposite",
            """
            def is_set_free(cards):
                return not _right['is_set_free'](cards)
            """,
        ),
    ],
    "greedy_cap": [
        (
            "stops at four cards",
            """
            def greedy_cap(deck, seed):
                return _right['greedy_cap'](deck, seed)[:4]
            """,
        ),
        (
            "ignores the seed",
            """
            def greedy_cap(deck, seed):
                return _right['greedy_cap'](deck, 0)
            """,
        ),
    ],
    "largest_mini_cap": [
        (
            "eight cards",
            """
            def largest_mini_cap():
                return _right['largest_mini_cap']()[:8]
            """,
        ),
        (
            "nine cards with a SET",
            """
            def largest_mini_cap():
                return mini_deck()[:9]
            """,
        ),
    ],
}


def corpus() -> list[tuple[str, str, str]]:
    entries = []
    for name in KINDS:
        entries.append(
            (name, "right", f"def {name}(*args, **kwargs):\n    return _right['{name}'](*args, **kwargs)\n")
        )
        entries += [(name, label, source) for label, source in _generic(name)]
        entries += [(name, label, textwrap.dedent(source)) for label, source in MISTAKES.get(name, [])]
    return entries


CORPUS = corpus()


# -- the two judges --------------------------------------------------------------------------------


@cache
def reference(exercise: str) -> dict:
    """The source notebook's set-up and answers (its solutions), run in one namespace."""
    path = next((SOURCE / exercise).glob("*.ipynb"))
    nb = nbformat.read(path, as_version=4)
    namespace: dict = {}
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        grade_id = meta.get("grade_id", "")
        if cell.cell_type == "code" and (grade_id == "setup" or grade_id.endswith("_answer")):
            # The visible tests' referee is for the notebook's own test cells, not needed here.
            source = "\n".join(line for line in cell.source.splitlines() if "eferee" not in line)
            exec(compile(source, f"{exercise}:{grade_id}", "exec"), namespace)  # noqa: S102 - our notebook
    return namespace


def answer_namespace(name: str, source: str) -> dict:
    """A copy of the exercise's namespace with ``name`` replaced by the corpus entry's function."""
    base = reference(EXERCISE_OF[name])
    namespace = dict(base)
    namespace["_right"] = {key: value for key, value in base.items() if callable(value)}
    exec(compile(_PRELUDE, "<prelude>", "exec"), namespace)  # noqa: S102 - the corpus
    exec(compile(source, f"<corpus {name}>", "exec"), namespace)  # noqa: S102 - the corpus
    return namespace


@cache
def graded(exercise: str):
    return load(SOURCE / exercise)


def grader_verdict(name: str, namespace: dict) -> tuple[bool, str]:
    """Whether the graded tests of ``name`` (visible, then hidden) all pass, and the first message."""
    tests = graded(EXERCISE_OF[name])
    cell = GRADED_AS.get(name, name)
    for grade_id in (f"test_{cell}_visible", f"test_{cell}_hidden"):
        verdict = judge(tests[grade_id], lambda request: compute.call(request, namespace), seed=SEED)
        if not verdict.passed:
            return False, verdict.message
    return True, "passed"


def check_verdict(name: str, namespace: dict) -> CheckResult:
    check = getattr(checks, f"check_{CHECKED_AS.get(name, name)}")
    with contextlib.redirect_stdout(io.StringIO()):
        return check(namespace[name])


# -- the test --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "label", "source"), CORPUS, ids=[f"{n}-{label}" for n, label, _ in CORPUS])
def test_the_instant_check_and_the_grader_agree(name, label, source):
    namespace = answer_namespace(name, source)
    result = check_verdict(name, namespace)
    assert isinstance(result, CheckResult)
    passed, said = grader_verdict(name, namespace)
    if label.startswith("ADVICE"):
        assert passed and not result.passed and "third_card" in result.message, (result.message, said)
        return
    assert result.passed == passed, f"check: {result.message!r}\ngrader: {said!r}"
    # A hint writes cards by their short codes, and quotes a long answer in short.
    assert not re.search(r"Card\(\d", result.message), result.message
    assert len(result.message) < 500, result.message
    if label in ODD:
        # An answer the grader cannot read is refused in a sentence: the function and what it should return.
        assert f"{name}(" in result.message and f"{name} should return" in result.message, result.message


# Answers of a kind the grader does not read, whatever they say they equal.
ODD = {"equals everything", "tuple equal to everything", "list equal to everything", "5,000-digit int"}


# -- the visible test cells, as the student runs them ------------------------------------------------


@cache
def notebook(exercise: str) -> tuple[dict, dict[str, str]]:
    """The source notebook run top to bottom in one namespace, as a student runs it (no kernel: its
    cells in this process), and its visible test cells by grade id.

    The instant check cells are left out (the corpus runs the checks), and so are the hidden test
    cells (the corpus runs the graded tests through the judge).
    """
    path = next((SOURCE / exercise).glob("*.ipynb"))
    nb = nbformat.read(path, as_version=4)
    namespace: dict = {"display": lambda *args, **kwargs: None}
    visible = {}
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(io.StringIO()):
        patch.setenv("NBGRADER_EXECUTION", "autograde")  # the live widgets are skipped, as when graded
        for cell in nb.cells:
            meta = cell.metadata.get("nbgrader", {})
            if cell.cell_type != "code" or cell.source.startswith("check_"):
                continue
            if "### BEGIN HIDDEN TESTS" in cell.source:
                continue
            if meta.get("grade") and not meta.get("solution"):
                visible[meta["grade_id"]] = cell.source
            exec(compile(cell.source, f"{exercise}:{cell.id}", "exec"), namespace)  # noqa: S102 - our notebook
    return namespace, visible


def visible_cell_verdict(name: str, source: str) -> tuple[bool, str]:
    """Whether the notebook's visible test cell of ``name`` passes the entry, as the student sees it."""
    exercise = EXERCISE_OF[name]
    base, visible = notebook(exercise)
    namespace = dict(base)
    namespace["_right"] = {key: value for key, value in reference(exercise).items() if callable(value)}
    exec(compile(_PRELUDE, "<prelude>", "exec"), namespace)  # noqa: S102 - the corpus
    exec(compile(source, f"<corpus {name}>", "exec"), namespace)  # noqa: S102 - the corpus
    cell = visible[f"test_{GRADED_AS.get(name, name)}_visible"]
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(cell, f"<visible {name}>", "exec"), namespace)  # noqa: S102 - our notebook
    except Exception as error:  # what the student sees under the cell
        return False, f"{type(error).__name__}: {error}"
    return True, "passed"


def grader_visible_verdict(name: str, namespace: dict) -> tuple[bool, str]:
    tests = graded(EXERCISE_OF[name])
    test = tests[f"test_{GRADED_AS.get(name, name)}_visible"]
    verdict = judge(test, lambda request: compute.call(request, namespace), seed=SEED)
    return verdict.passed, verdict.message


@pytest.mark.parametrize(("name", "label", "source"), CORPUS, ids=[f"{n}-{label}" for n, label, _ in CORPUS])
def test_the_visible_test_cell_and_the_graders_visible_test_agree(name, label, source):
    """The notebook says the grader runs its visible tests too: they give the same verdict."""
    passed, said = visible_cell_verdict(name, source)
    graded_passed, graded_said = grader_visible_verdict(name, answer_namespace(name, source))
    assert passed == graded_passed, f"visible cell: {said!r}\ngrader: {graded_said!r}"
    assert not re.search(r"Card\(\d", said), said  # cards by their codes, in a numpy array too


def test_exercise_1s_visible_tests_catch_an_is_set_that_ignores_shading():
    source = dict(MISTAKES["is_set"])["ignores shading"]
    passed, said = visible_cell_verdict("is_set", textwrap.dedent(source))
    assert not passed and said.startswith("AssertionError: is_set(1RSO, 2GSO, 3PTO) should be False"), said


def test_the_corpus_tries_every_function_of_every_exercise_with_right_and_wrong_answers():
    asked = set()
    for path in sorted(SOURCE.glob("*/*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.metadata.get("nbgrader", {}).get("grade_id", "").endswith("_answer"):
                asked |= set(re.findall(r"^def (\w+)\(", cell.source, re.M))
    asked.discard("close_gaps")  # take_set's helper, graded through take_set
    assert asked == set(KINDS) and {EXERCISE_OF[name] for name in KINDS} == {p.name for p in SOURCE.iterdir()}
    tried = {name: [label for n, label, _ in CORPUS if n == name] for name in KINDS}
    assert all("right" in labels and len(labels) >= 8 for labels in tried.values()), tried


def test_exercise_7s_hidden_test_judges_caps_that_do_not_hash():
    # A cap of lists for the four seeds the test compares (the grader's own seed plus 2 to 5) once
    # broke the test itself (a set of lists), and nbgrader stopped grading the whole notebook.
    import random

    namespace = dict(notebook("07_caps")[0])  # a copy: notebook() is cached for the other tests
    greedy, seed = namespace["greedy_cap"], 11
    fresh = random.Random(seed).randrange(10**9)  # the test's first draw, as the judge seeds it

    def lists_for_the_compared_seeds(deck, seed):
        return [[1], [2]] if fresh + 2 <= seed < fresh + 6 else greedy(deck, seed)

    namespace["greedy_cap"] = lists_for_the_compared_seeds
    test = load(SOURCE / "07_caps")["test_greedy_cap_hidden"]
    verdict = judge(test, lambda request: compute.call(request, namespace), seed=seed)
    assert (verdict.passed, verdict.flags) == (False, []), verdict
    assert verdict.message.startswith("greedy_cap(full deck, seed) gave the same cap for four seeds")
