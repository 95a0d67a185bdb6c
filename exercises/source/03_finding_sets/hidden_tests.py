"""The graded tests of exercise 3, finding SETs, judged by the grader outside the student's kernel.

Each function below is the test of one graded cell of ``finding_sets.ipynb``, by its grade id.
The student's kernel only calls ``first_set`` and ``all_sets`` on the tables sent to it; the
expected answers come from the package's own set finding, here. The answers are judged, in the
order the pairs method finds them. Nothing here counts calls of ``third_card``: a count taken
in the student's kernel is the notebook's to forge, so it can neither earn nor cost points nor
raise or hide a flag (the instant checks count calls, as advice to the student). See
:mod:`setwidgets.grading.judge`.
"""

from __future__ import annotations

from setwidgets import Card, full_deck
from setwidgets.grading.judge import Answer, Failed, Run, Tests, returned, show
from setwidgets.rules import find_sets, first_set

# The exercise asks for these (third_card stays: the pairs method uses it).
# What the notebook's own cells use of the package; while it is graded, the kernel has nothing else.
HAND_OUT = [
    *("setwidgets.Card", "setwidgets.full_deck", "setwidgets.mini_deck", "setwidgets.third_card"),
    *("setwidgets.checks.check_all_sets", "setwidgets.checks.check_first_set", "setwidgets.draw.show"),
]
tests = Tests(
    hand_out=HAND_OUT,
    hide=[
        "setwidgets.rules.first_set",
        "setwidgets.rules.find_sets",
        "setwidgets.rules.has_set",
        "setwidgets.rules.count_sets",
    ],
)

DECK = full_deck()


def _cards(codes: str) -> list[Card]:
    return [Card.parse(code) for code in codes.split()]


def _label(function: str, table: list[Card], run: Run | None = None) -> str:
    cards = ", ".join(card.code for card in table[:6]) + (", ..." if len(table) > 6 else "")
    seed = f", grader's seed {run.seed}" if run is not None and run.random else ""
    return f"{function}([{cards}]) ({len(table)} cards{seed})"


def _is_triple(value: object) -> bool:
    return type(value) is tuple and len(value) == 3 and all(type(card) is Card for card in value)


def _check_first(run: Run, table: list[Card], answer: Answer, why: str | None = None) -> None:
    want = first_set(table)
    label = _label("first_set", table, run)
    reason = f": {why}" if why else ""
    if answer.error is not None:
        raise Failed(f"{label} should be {show(want)}{reason}. Your function {returned(answer)}.")
    if want is None and answer.value is not None:
        raise Failed(f"{label} should be None: there is no SET. Your function {returned(answer)}.")
    if want is not None and not (_is_triple(answer.value) and answer.value == want):
        raise Failed(f"{label} should be the tuple {show(want)}{reason}. Your function {returned(answer)}.")


VISIBLE_FIRST = [
    ("1RSO 2RSO 3RSO", "the three cards form a SET"),
    ("1RSO 2RSO 3PSO", "two are red and one is purple, so there is no SET"),
    ("", "there are no cards at all"),
    (
        "1GTS 1RSO 2RSO 3RSO 3POD",
        "the pair (1GTS, 1RSO) needs 1POD, not here; (1GTS, 2RSO) needs 3POD, which is",
    ),
    ("1RSO 1GTS 2RSO 3POD 3RSO", "1RSO with 1GTS needs 1POD, not here; 1RSO with 2RSO needs 3RSO, which is"),
    ("1RSO 2RSO 1GTS 3RSO", "the cards of the SET come in the order of the list"),
]


@tests("test_first_set_visible")
def first_set_visible(run: Run) -> str:
    tables = [_cards(codes) for codes, _ in VISIBLE_FIRST]
    for table, answer, (_, why) in zip(tables, run.call("first_set", [(t,) for t in tables]), VISIBLE_FIRST):
        _check_first(run, table, answer, why)
    return "first_set passed the visible tests."


@tests("test_first_set_hidden")
def first_set_hidden(run: Run) -> str:
    tables = [list(DECK), DECK[::-1], DECK[1:], [card for card in DECK if card.color == "red"]]
    for _ in range(2):
        tables += [
            run.rng.sample(DECK, n) for n in (0, 1, 2, 3, 4, 5, 6, 9, 12, 12, 12, 12, 15, 18, 21, 27, 40)
        ]
    answers = run.call("first_set", [(table,) for table in tables])
    for table, answer in zip(tables, answers):
        _check_first(run, table, answer)
    return f"first_set passed the hidden tests ({len(tables)} tables)."


def _check_all(run: Run, table: list[Card], answer: Answer, why: str | None = None) -> None:
    want = find_sets(table)
    label = _label("all_sets", table, run)
    ok = type(answer.value) is list and all(_is_triple(found) for found in answer.value)
    if answer.error is None and ok and answer.value == want:
        return
    reason = f": {why}" if why else ""
    if (
        answer.error is None
        and ok
        and len(answer.value) > len(want)
        and set(map(frozenset, answer.value)) == set(map(frozenset, want))
    ):
        raise Failed(
            f"{label} should be {len(want)} SET{'' if len(want) == 1 else 's'}{reason}, each listed once. "
            "Your function listed "
            f"{len(answer.value)}: the same SETs, some of them more than once, starting {show(answer.value[:2])}."
        )
    if answer.error is None and ok:
        raise Failed(
            f"{label} should be {len(want)} SETs in the order of their pairs{reason}, starting {show(want[:2])}. "
            f"Your function returned {len(answer.value)}, starting {show(answer.value[:2])}."
        )
    raise Failed(
        f"{label} should be a list of {len(want)} tuples of three Cards{reason}. Your function {returned(answer)}."
    )


VISIBLE_ALL = [
    ("", "there are no cards"),
    ("1RSO 2RSO 3PSO", "two are red and one is purple"),
    ("1RSO 2RSO 3RSO", "one SET, met from each of its three pairs, kept once"),
    ("1GTS 1RSO 2RSO 3RSO 3POD", "two SETs, in the order of their pairs"),
]


@tests("test_all_sets_visible")
def all_sets_visible(run: Run) -> str:
    tables = [_cards(codes) for codes, _ in VISIBLE_ALL] + [list(DECK)]
    reasons = [why for _, why in VISIBLE_ALL] + ["the full deck holds 1080 SETs"]
    for table, answer, why in zip(tables, run.call("all_sets", [(t,) for t in tables]), reasons):
        _check_all(run, table, answer, why)
    return "all_sets passed the visible tests."


@tests("test_all_sets_hidden")
def all_sets_hidden(run: Run) -> str:
    tables = [list(DECK), DECK[::-1], [card for card in DECK if card.shading == "open"]]
    for _ in range(2):
        tables += [run.rng.sample(DECK, n) for n in (0, 1, 2, 3, 4, 6, 9, 12, 12, 12, 15, 18, 21, 30, 50)]
    answers = run.call("all_sets", [(table,) for table in tables])
    for table, answer in zip(tables, answers):
        _check_all(run, table, answer)
    return f"all_sets passed the hidden tests ({len(tables)} tables)."
