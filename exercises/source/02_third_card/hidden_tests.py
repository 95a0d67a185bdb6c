"""The graded tests of exercise 2, the third card, judged by the grader outside the student's kernel.

Each function below is the test of one graded cell of ``third_card.ipynb``, by its grade id. The
student's kernel only calls ``third_card``, ``third_card_mod3`` and ``count_sets`` on the cards
sent to it; the expected answers are computed here with the package's own rules. Counts of the
calls of ``third_card`` are taken in the kernel, so they flag a cell for the teacher and never
cost points by themselves. See :mod:`setwidgets.grading.judge`.
"""

from __future__ import annotations

import itertools
import random

from setwidgets import Card, full_deck
from setwidgets.grading.judge import Failed, Run, Tests, call_text, compare, expect, returned, show
from setwidgets.rules import find_sets, third_card

# The exercise asks for these: the grading kernel sees the package without them.
tests = Tests(
    hide=["setwidgets.rules.third_card", "setwidgets.rules.count_sets", "setwidgets.rules.find_sets"]
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


@tests("test_third_card_mod3_visible")
def third_card_mod3_visible(run: Run) -> str:
    cases, why = _visible(VISIBLE_MOD3)
    _third_cases("third_card_mod3", run, cases, why)
    return "third_card_mod3 passed the visible tests."


@tests("test_third_card_mod3_hidden")
def third_card_mod3_hidden(run: Run) -> str:
    """Every pair and every card twice; and a note for the teacher when it calls third_card."""
    answers = run.call("third_card_mod3", PAIRS, count=["third_card"])
    compare(run, "third_card_mod3", PAIRS, answers, [third_card(a, b) for a, b in PAIRS])
    _raises_on_twice("third_card_mod3", run, DECK)
    if any(answer.counts.get("third_card") for answer in answers):
        run.flag("third_card_mod3 called third_card: the exercise asks for the arithmetic on the vectors")
    return f"third_card_mod3 passed the hidden tests ({len(PAIRS):,} pairs, and {len(DECK)} cards twice)."


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
    """The full deck, the red cards, and random deals of every size from a fresh seed.

    The calls of third_card (or third_card_mod3) on the full deck are counted in the kernel: more
    than one per pair, taken both ways round, flags the cell for the teacher.
    """
    reds = [card for card in DECK if card.color == "red"]
    whole = run.call("count_sets", [(list(DECK),), (reds,)], count=["third_card", "third_card_mod3"])
    for answer, want, name in zip(whole, (1080, 117), ("full_deck()", "mini_deck()")):
        if answer.error is not None or type(answer.value) is not int or answer.value != want:
            raise Failed(f"count_sets({name}) should be {want}; your function {returned(answer)}.")
    calls = sum(whole[0].counts.values())
    if calls == 0:
        run.flag("count_sets called neither third_card nor third_card_mod3 on the full deck")
    elif calls > 81 * 80:
        run.flag(f"count_sets called third_card {calls} times on the 81 cards: pair by pair needs 3,240")
    sizes = [0, 1, 2, 3, 4, 5, 8, 12, 15, 20, 21, 40, 60]
    _count_cases(run, [run.rng.sample(DECK, size) for size in sizes for _ in range(6)])
    return "count_sets passed the hidden tests."
