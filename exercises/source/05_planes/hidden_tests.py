"""The graded tests of exercise 5, planes, judged by the grader outside the student's kernel.

Each function below is the test of one graded cell of ``planes.ipynb``, by its grade id. The
expected planes, squares and lines come from the package's own geometry, here; the student's
kernel only calls ``plane``, ``magic_square`` and ``lines_through`` on the cards sent to it.
For cards that span no plane the answer is a ValueError whose message says which is wrong, by
the rule the notebook states: a repeated card is named (its code), and three cards of one SET
are said to form a SET (or to lie on one line). See :mod:`setwidgets.grading.judge`.
"""

from __future__ import annotations

from setwidgets import Card, full_deck, third_card
from setwidgets.geometry import lines_through, magic_square
from setwidgets.grading.judge import Answer, Failed, Run, Tests, returned, show

# The exercise asks for these: the grading kernel sees the package without them.
# What the notebook's own cells use of the package; while it is graded, the kernel has nothing else.
HAND_OUT = [
    *("setwidgets.Card", "setwidgets.full_deck", "setwidgets.mini_deck", "setwidgets.third_card"),
    *(
        "setwidgets.checks.check_lines_through",
        "setwidgets.checks.check_magic_square",
        "setwidgets.checks.check_plane",
    ),
    "setwidgets.draw.show",
]
tests = Tests(
    hand_out=HAND_OUT,
    hide=[
        "setwidgets.geometry.plane",
        "setwidgets.geometry.magic_square",
        "setwidgets.geometry.lines_through",
        "setwidgets.geometry.planes_through",
        "setwidgets.rules.find_sets",
    ],
)

DECK = full_deck()


def _cards(codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes.split())


def _label(function: str, case: tuple, run: Run) -> str:
    seed = f" (cards drawn with the grader's seed {run.seed})" if run.random else ""
    return f"{function}({', '.join(card.code for card in case)}){seed}"


def _no_plane_problem(case: tuple[Card, ...], answer: Answer) -> str | None:
    """None when the answer is the ValueError the notebook asks for; else what is wrong with it."""
    repeated = [card for card in case if case.count(card) > 1]
    why = (
        f"{repeated[0].code} is given twice"
        if repeated
        else "the three cards form a SET, so they lie on one line"
    )
    if answer.error is None or not answer.error.startswith("ValueError"):
        return f"should raise a ValueError: {why}. Your function {returned(answer)}."
    message = answer.error.removeprefix("ValueError").lstrip(": ")
    if repeated and repeated[0].code not in message:
        return f"raised a ValueError whose message does not name the card given twice, {repeated[0].code}: {message!r}"
    if not repeated and "SET" not in message and "line" not in message:
        return f"raised a ValueError whose message does not say that the three cards form a SET (or lie on one line): {message!r}"
    return None


def _spans_no_plane(case: tuple[Card, ...]) -> bool:
    return len(set(case)) < 3 or third_card(case[0], case[1]) == case[2]


def _triples(run: Run, rounds: int = 2) -> list[tuple[Card, ...]]:
    """Random triples, and in each round a line and a repeated card in a random order."""
    cases: list[tuple[Card, ...]] = []
    for _ in range(rounds):
        cases += [tuple(run.rng.sample(DECK, 3)) for _ in range(20)]
        for _ in range(3):
            x, y = run.rng.sample(DECK, 2)
            on_line, twice = [x, y, third_card(x, y)], [x, x, y]
            run.rng.shuffle(on_line)
            run.rng.shuffle(twice)
            cases += [tuple(on_line), tuple(twice)]
    return cases


def _check_plane(run: Run, cases: list[tuple[Card, ...]], whys: list[str] | None = None) -> None:
    for number, (case, answer) in enumerate(zip(cases, run.call("plane", cases))):
        label = _label("plane", case, run)
        if _spans_no_plane(case):
            problem = _no_plane_problem(case, answer)
            if problem:
                raise Failed(f"{label} {problem}")
            continue
        want = {card for row in magic_square(*case) for card in row}
        value = answer.value
        if (
            answer.error is not None
            or type(value) is not list
            or len(value) != 9
            or not all(type(c) is Card for c in value)
        ):
            raise Failed(
                f"{label} should return a list of the 9 Cards of the plane. Your function {returned(answer)}."
            )
        if set(value) != want:
            reason = f": {whys[number]}" if whys else ""
            raise Failed(
                f"{label} should be the 9 cards {show(sorted(want))}{reason}. Your function returned {show(value)}."
            )


@tests("test_plane_visible")
def plane_visible(run: Run) -> str:
    cases = [
        _cards("1RSO 2RSO 1GSO"),
        _cards("1RSO 2GTS 1RSS"),
        _cards("1RSO 2RSO 3RSO"),
        _cards("1RSO 1RSO 2GTS"),
    ]
    whys = ["solid ovals in every number and color", "the plane of lesson 09", "", ""]
    _check_plane(run, cases, whys)
    return "plane passed the visible tests."


@tests("test_plane_hidden")
def plane_hidden(run: Run) -> str:
    cases = _triples(run)
    _check_plane(run, cases)
    return f"plane passed the hidden tests ({len(cases)} triples)."


def _check_square(run: Run, cases: list[tuple[Card, ...]]) -> None:
    for case, answer in zip(cases, run.call("magic_square", cases)):
        label = _label("magic_square", case, run)
        if _spans_no_plane(case):
            problem = _no_plane_problem(case, answer)
            if problem:
                raise Failed(f"{label} {problem}")
            continue
        want = magic_square(*case)
        value = answer.value
        rows = type(value) is list and len(value) == 3
        if (
            answer.error is not None
            or not rows
            or not all(
                type(row) is list and len(row) == 3 and all(type(c) is Card for c in row) for row in value
            )
        ):
            raise Failed(
                f"{label} should return a list of three lists of three Cards. Your function {returned(answer)}."
            )
        if value != want:
            raise Failed(f"{label} should be {show(want)}. Your function returned {show(value)}.")


@tests("test_magic_square_visible")
def magic_square_visible(run: Run) -> str:
    _check_square(run, [_cards("1RSO 2GTS 1RSS"), _cards("1RSO 2GTS 3POD")])
    return "magic_square passed the visible tests."


@tests("test_magic_square_hidden")
def magic_square_hidden(run: Run) -> str:
    cases = _triples(run)
    _check_square(run, cases)
    return f"magic_square passed the hidden tests ({len(cases)} triples)."


def _check_lines(run: Run, cases: list[tuple[Card, list[Card]]]) -> None:
    answers = run.call("lines_through", cases)
    for (card, table), answer in zip(cases, answers):
        label = f"lines_through({card.code}, <{len(table)} cards>)" + (
            f" (grader's seed {run.seed})" if run.random else ""
        )
        want = lines_through(card, table)
        value = answer.value
        ok = type(value) is list and all(
            type(s) is tuple and len(s) == 3 and all(type(c) is Card for c in s) for s in value
        )
        if answer.error is not None or not ok:
            raise Failed(
                f"{label} should return a list of tuples of three Cards. Your function {returned(answer)}."
            )
        if value != want:
            raise Failed(
                f"{label}: {len(want)} SETs expected, in the order of x, starting {show(want[:2])}; "
                f"your function returned {len(value)}, starting {show(value[:2])}."
            )


@tests("test_lines_through_visible")
def lines_through_visible(run: Run) -> str:
    one, two, three, green, purple = _cards("1RSO 2RSO 3RSO 2GTS 3POD")
    _check_lines(run, [(one, [two, green, three, purple]), (one, [three, one, two]), (one, list(DECK))])
    return "lines_through passed the visible tests."


@tests("test_lines_through_hidden")
def lines_through_hidden(run: Run) -> str:
    cases = [(DECK[0], list(DECK)), (DECK[40], DECK[::-1])]
    for _ in range(2):
        for n in (0, 1, 3, 9, 12, 20, 40, 60):
            table = run.rng.sample(DECK, n)
            cases.append((run.rng.choice(table if n and n % 2 else DECK), table))
    _check_lines(run, cases)
    return f"lines_through passed the hidden tests ({len(cases)} tables)."
