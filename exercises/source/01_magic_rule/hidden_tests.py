"""The graded tests of exercise 1, the magic rule, judged by the grader outside the student's kernel.

Each function below is the test of one graded cell of ``magic_rule.ipynb``, by its grade id.
The student's kernel only calls ``is_set`` and ``odd_one_out`` on the cards sent to it and
sends back what they returned; the expected answers are computed here, with the package's own
rules, and never reach the kernel. See :mod:`setwidgets.grading.judge`.
"""

from __future__ import annotations

import itertools

from setwidgets import FEATURES, Card, full_deck
from setwidgets.grading.judge import Run, Tests, compare
from setwidgets.rules import is_set

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
    *("setwidgets.checks.check_is_set", "setwidgets.checks.check_odd_one_out"),
    *("setwidgets.draw.show", "setwidgets.grading.referee.Referee"),
]
tests = Tests(hide=["setwidgets.rules.is_set", "setwidgets.rules.explain"], hand_out=HAND_OUT)

DECK = full_deck()
REDS = [card for card in DECK if card.color == "red"]


def _cards(codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes.split())


def _reason(reasons: dict[str, str]):
    """The reason a visible case gives, looked up by the case's cards."""
    return lambda cards: reasons[" ".join(card.code for card in cards)]


def _first_broken(cards: tuple[Card, ...]) -> str | None:
    """The first feature in which two cards are alike and one is not, or None."""
    for feature in FEATURES:
        if len({getattr(card, feature) for card in cards}) == 2:
            return feature
    return None


def _why_set(cards: tuple[Card, ...]) -> str:
    if len(set(cards)) < 3:
        return "the same card appears more than once"
    feature = _first_broken(cards)
    if feature is not None:
        return f"in {feature}, two are alike and one is not"
    return "in every feature, the three are all the same or all different"


def _values(cards: tuple[Card, ...]) -> str:
    return "; ".join(
        f"{feature}: {', '.join(str(getattr(c, feature)) for c in cards)}" for feature in FEATURES
    )


def _red_triples(run: Run) -> list[tuple[Card, ...]]:
    """Each of the 2,925 triples of red cards twice: in the deck's order, and in an order drawn at random."""
    cases = []
    for cards in itertools.combinations(REDS, 3):
        cases += [cards, tuple(run.rng.sample(cards, 3))]
    return cases


def _random_triples(run: Run, seed_cases: int) -> list[tuple[Card, ...]]:
    """Random triples from the full deck, with repeated cards in every position."""
    cases: list[tuple[Card, ...]] = []
    for _ in range(seed_cases):
        a, b = run.rng.sample(DECK, 2)
        cases += [(a, a, a), (a, a, b), (a, b, a), (b, a, a), tuple(run.rng.sample(DECK, 3))]
    return cases


# The visible tests' cases, with the reasons their cells give (the cells run them for the student).
VISIBLE_IS_SET = {
    "1RSO 2RSO 3RSO": "only the number changes, and it takes all three values",
    "1RSO 2GTS 3POD": "every feature takes all three values",
    "2GTS 2GTD 2GTO": "only the shape changes",
    "1RSO 2RSO 3PSO": "two are red and one is purple",
    "1RSO 1GTS 2POD": "two have one symbol and one has two symbols",
    "1RSO 2GSO 3PTO": "two are solid and one is striped",
    "3POD 3POD 3POD": "it is the same card three times, not three different cards",
}


@tests("test_is_set_visible")
def is_set_visible(run: Run) -> str:
    cases = [_cards(codes) for codes in VISIBLE_IS_SET]
    answers = run.call("is_set", cases)
    compare(run, "is_set", cases, answers, [is_set(*case) for case in cases], _reason(VISIBLE_IS_SET))
    return "is_set passed the visible tests."


@tests("test_is_set_hidden")
def is_set_hidden(run: Run) -> str:
    # Every triple of the 27 red cards in two orders, then random triples (a fresh seed each run).
    cases = _red_triples(run)
    cases += _random_triples(run, 300)
    wants = [is_set(*case) for case in cases]
    assert sum(wants[: 2925 * 2]) == 117 * 2, "the grader's own answers are off"
    compare(run, "is_set", cases, run.call("is_set", cases), wants, _why_set)
    return f"is_set passed the hidden tests ({len(cases):,} triples)."


VISIBLE_ODD = {
    "1RSO 2RSO 3PSO": "two are red and one is purple",
    "1RSO 1GSO 1RSS": "two are red and one is green",
    "1RSO 2RSO 2PSO": "numbers and colors break the rule, and number comes first",
    "2GTS 2GTD 2GOO": "two are striped and one is open",
    "1RSO 2RSO 3RSO": "the three cards form a SET",
    "1RSO 2GTS 3POD": "the three cards form a SET",
}


def _odd_equal(got: object, want: object) -> bool:
    return got is None if want is None else type(got) is str and got == want


@tests("test_odd_one_out_visible")
def odd_one_out_visible(run: Run) -> str:
    cases = [_cards(codes) for codes in VISIBLE_ODD]
    wants = [_first_broken(case) for case in cases]
    answers = run.call("odd_one_out", cases)
    compare(run, "odd_one_out", cases, answers, wants, _reason(VISIBLE_ODD), _odd_equal)
    return "odd_one_out passed the visible tests."


@tests("test_odd_one_out_hidden")
def odd_one_out_hidden(run: Run) -> str:
    cases = _red_triples(run)
    cases += _random_triples(run, 200)
    wants = [_first_broken(case) for case in cases]
    tally = {w: wants[: 2925 * 2].count(w) // 2 for w in ("number", "color", "shape", "shading", None)}
    assert tally == {"number": 1944, "color": 0, "shape": 648, "shading": 216, None: 117}, "the grader is off"
    compare(run, "odd_one_out", cases, run.call("odd_one_out", cases), wants, _values, _odd_equal)
    return f"odd_one_out passed the hidden tests ({len(cases):,} triples)."
