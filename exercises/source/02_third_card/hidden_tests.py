"""The graded tests of exercise 2, the third card, judged by the grader outside the student's kernel.

Each function below is the test of one graded cell of ``third_card.ipynb``, by its grade id. The
student's kernel only calls ``third_card``, ``third_vector``, ``third_card_mod3`` and
``count_sets`` on the cards and vectors sent to it; the expected answers are computed here with
the package's own rules.

Everything is judged by the answers alone. ``third_vector`` is tried on vectors of every length
from 1 to 6, not only the cards' 4, and must give numbers 0, 1 and 2: only the arithmetic mod 3
does that (``Card.from_vector`` reduces mod 3 by itself, so a card cannot show whether the
student did). Nothing here counts calls of ``third_card``: a count taken in the student's
kernel is the notebook's to forge, so it can neither earn nor cost points nor raise or hide a
flag. See :mod:`setwidgets.grading.judge`.
"""

from __future__ import annotations

import itertools
import random

from setwidgets import Card, full_deck
from setwidgets.grading.judge import Failed, Run, Tests, call_text, compare, expect, returned, show
from setwidgets.rules import find_sets, third_card

# The exercise asks for these: the grading kernel sees the package without them.
# What the notebook's own cells use of the package; while it is graded, the kernel has nothing else.
HAND_OUT = [
    *(
        "setwidgets.FEATURES",
        "setwidgets.VALUES",
        "setwidgets.Card",
        "setwidgets.full_deck",
        "setwidgets.mini_deck",
    ),
    *(
        "setwidgets.checks.check_count_sets",
        "setwidgets.checks.check_third_card",
        "setwidgets.checks.check_third_vector",
    ),
    *("setwidgets.draw.show", "setwidgets.grading.referee.Referee"),
]
tests = Tests(
    hand_out=HAND_OUT,
    hide=["setwidgets.rules.third_card", "setwidgets.rules.count_sets", "setwidgets.rules.find_sets"],
)

DECK = full_deck()
PAIRS = list(itertools.permutations(DECK, 2))


def _cards(codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes.split())


def _named(card: Card) -> str:
    return f"{card.code} ({card.name})"


def _third_cases(function: str, run: Run, cases: list[tuple[Card, Card]], why=None) -> None:
    """Every case's answer is the third card of the pair, a Card."""
    compare(run, function, cases, run.call(function, cases), [third_card(a, b) for a, b in cases], why)


def _raises_on_twice(function: str, run: Run, cards: list[Card]) -> None:
    """The same card twice is refused with a ValueError."""
    cases = [(card, card) for card in cards]
    for case, answer in zip(cases, run.call(function, cases)):
        expect(
            answer.error is not None and answer.error.startswith("ValueError"),
            f"{call_text(function, case)} should raise a ValueError: the two cards are the same. "
            f"Your function {returned(answer)}.",
        )


VISIBLE_THIRD = {
    "1RSO 2RSO 3RSO": "only the numbers differ, so the third card has the remaining number, 3",
    "1RSO 1RSS 1RSD": "only the shapes differ: oval, squiggle, so the third is a diamond",
    "1RSO 2GTS 3POD": "every feature differs, so every feature takes its remaining value",
    "3PTD 3GTD 3RTD": "only the colors differ: purple, green, so the third is red",
}


def _visible(reasons: dict[str, str]) -> tuple[list[tuple[Card, Card]], object]:
    cases = [_cards(codes)[:2] for codes in reasons]
    by_pair = {case: reason for case, reason in zip(cases, reasons.values())}
    return cases, lambda case: f"{_named(third_card(*case))}, {by_pair[tuple(case)]}"


@tests("test_third_card_visible")
def third_card_visible(run: Run) -> str:
    cases, why = _visible(VISIBLE_THIRD)
    _third_cases("third_card", run, cases, why)
    _raises_on_twice("third_card", run, [Card.parse("2GOS")])
    return "third_card passed the visible tests."


@tests("test_third_card_hidden")
def third_card_hidden(run: Run) -> str:
    # Every ordered pair of the full deck, and every card twice.
    _third_cases("third_card", run, PAIRS, lambda case: _named(third_card(*case)))
    _raises_on_twice("third_card", run, DECK)
    return f"third_card passed the hidden tests ({len(PAIRS):,} pairs, and {len(DECK)} cards twice)."


VISIBLE_MOD3 = {
    "1RSO 2RSO 3RSO": "the numbers are at positions 0 and 1, and -(0 + 1) % 3 == 2",
    "3POD 3POS 3POO": "the shapes are at positions 2 and 1, and -(2 + 1) % 3 == 0",
    "3PTD 3RTD 3GTD": "the colors are at positions 2 and 0, and -(2 + 0) % 3 == 1",
    "1RSO 2GTS 3POD": "in every feature, -(0 + 1) % 3 == 2",
}

# Vectors of other lengths than a card's: the same formula, number by number (the notebook shows them).
VISIBLE_VECTORS = [((0,), (1,)), ((2, 2), (2, 0)), ((0, 1, 2, 0, 1, 2), (1, 1, 1, 2, 2, 2))]


def third_of(u: tuple[int, ...], v: tuple[int, ...]) -> tuple[int, ...]:
    """The third vector of u and v: -(u + v) mod 3, number by number."""
    return tuple((-x - y) % 3 for x, y in zip(u, v))


def _why_vector(case: tuple) -> str:
    u, v = case
    numbers = "1 number" if len(u) == 1 else f"{len(u)} numbers"
    return "number by number, -(x + y) % 3, each of 0, 1 and 2" + (
        "" if len(u) == 4 else f" (a vector of {numbers}: the formula does not depend on cards)"
    )


def _vector_cases(run: Run, cases: list[tuple]) -> None:
    answers = run.call("third_vector", cases)
    compare(run, "third_vector", cases, answers, [third_of(u, v) for u, v in cases], _why_vector)


@tests("test_third_card_mod3_visible")
def third_card_mod3_visible(run: Run) -> str:
    cases, why = _visible(VISIBLE_MOD3)
    _vector_cases(run, [(a.vector, b.vector) for a, b in cases] + VISIBLE_VECTORS)
    _third_cases("third_card_mod3", run, cases, why)
    return "third_card_mod3 passed the visible tests."


def _other_lengths(run: Run, count: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Pairs of different vectors of 1 to 6 numbers 0, 1, 2, from the run's fresh seed."""
    pairs = []
    while len(pairs) < count:
        length = run.rng.randint(1, 6)
        u, v = (tuple(run.rng.randrange(3) for _ in range(length)) for _ in range(2))
        if u != v:
            pairs.append((u, v))
    return pairs


@tests("test_third_card_mod3_hidden")
def third_card_mod3_hidden(run: Run) -> str:
    """third_vector on every pair of card vectors (one way round: the formula is symmetric) and on
    vectors of other lengths; third_card_mod3 on every pair both ways round, and the same card twice."""
    vectors = [(a.vector, b.vector) for a, b in itertools.combinations(DECK, 2)] + _other_lengths(run, 300)
    _vector_cases(run, vectors)
    _third_cases("third_card_mod3", run, PAIRS, lambda case: _named(third_card(*case)))
    _raises_on_twice("third_card_mod3", run, DECK)
    return (
        f"third_card_mod3 passed the hidden tests ({len(PAIRS):,} pairs, and {len(DECK)} cards twice), "
        f"and third_vector ({len(vectors):,} pairs of vectors, grader's seed {run.seed})."
    )


def _count_cases(run: Run, deals: list[list[Card]], what: dict[int, str] | None = None) -> None:
    """Each deal's answer is its number of SETs, an int; ``what`` names the visible deals."""
    answers = run.call("count_sets", [(deal,) for deal in deals])
    for number, (deal, answer) in enumerate(zip(deals, answers)):
        want = len(find_sets(deal))
        if answer.error is None and type(answer.value) is int and answer.value == want:
            continue
        shown = what[number] if what else f"{show(deal)}, cards drawn with the grader's seed {run.seed}"
        raise Failed(f"count_sets({shown}) should be {want}; your function {returned(answer)}.")


@tests("test_count_sets_visible")
def count_sets_visible(run: Run) -> str:
    table = random.Random(7).sample(full_deck(), 12)  # the notebook's deal
    reds = [card for card in DECK if card.color == "red"][:9]
    deals = [[], list(_cards("1RSO 2RSO 3RSO")), list(_cards("1RSO 2RSO 3PSO")), table, reds]
    what = {
        0: "[] (no cards)",
        1: "[1RSO, 2RSO, 3RSO], a SET",
        2: "[1RSO, 2RSO, 3PSO], not a SET",
        3: "the twelve cards dealt above",
        4: "the first nine cards of the mini deck",
    }
    _count_cases(run, deals, what)
    return "count_sets passed the visible tests."


@tests("test_count_sets_hidden")
def count_sets_hidden(run: Run) -> str:
    """The full deck, the red cards, and random deals of every size from a fresh seed."""
    reds = [card for card in DECK if card.color == "red"]
    whole = run.call("count_sets", [(list(DECK),), (reds,)])
    for answer, want, name in zip(whole, (1080, 117), ("full_deck()", "mini_deck()")):
        if answer.error is not None or type(answer.value) is not int or answer.value != want:
            raise Failed(f"count_sets({name}) should be {want}; your function {returned(answer)}.")
    # Up to 30 cards: the whole decks above are the large cases. Deals of 40 and 60 added 280,000
    # triples for a count by triples (right answers too), 15 s of a loaded machine in one call.
    sizes = [0, 1, 2, 3, 4, 5, 8, 12, 15, 20, 21, 27, 30]
    _count_cases(run, [run.rng.sample(DECK, size) for size in sizes for _ in range(6)])
    return "count_sets passed the hidden tests."
