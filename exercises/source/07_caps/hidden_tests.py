"""The graded tests of exercise 7, caps, judged by the grader outside the student's kernel.

Each function below is the test of one graded cell of ``caps.ipynb``, by its grade id. The
student's caps are *checked* here (different cards of the deck, SET-free, maximal, or 9 cards of
the mini deck) rather than compared with one answer; the student's kernel only calls the
student's functions on the decks sent to it. Nothing here counts calls of ``third_card``: a
count taken in the student's kernel is the notebook's to forge, so it can neither earn nor cost
points nor raise or hide a flag (the instant check counts calls, as advice to the student). See
:mod:`setwidgets.grading.judge`.
"""

from __future__ import annotations

from setwidgets import Card, full_deck, mini_deck, third_card
from setwidgets.caps import is_set_free
from setwidgets.geometry import magic_square
from setwidgets.grading.judge import Answer, Failed, Run, Tests, returned, show
from setwidgets.grading.referee import Referee

# The exercise asks for these: the grading kernel sees the package without them.
# What the notebook's own cells use of the package; while it is graded, the kernel has nothing else.
HAND_OUT = [
    *("setwidgets.Card", "setwidgets.full_deck", "setwidgets.mini_deck", "setwidgets.third_card"),
    *("setwidgets.checks.check_greedy_cap", "setwidgets.checks.check_is_set_free"),
    *("setwidgets.checks.check_largest_mini_cap", "setwidgets.draw.show"),
]
tests = Tests(
    hand_out=HAND_OUT,
    hide=[
        "setwidgets.caps.is_set_free",
        "setwidgets.caps.largest_set_free",
        "setwidgets.caps.count_set_free",
        "setwidgets.rules.find_sets",
        "setwidgets.rules.first_set",
        "setwidgets.rules.has_set",
        "setwidgets.rules.count_sets",
    ],
)

DECK = full_deck()
REFEREE = Referee()


def _cards(codes: str) -> list[Card]:
    return [Card.parse(code) for code in codes.split()]


def _free_cases(run: Run, tables: list[list[Card]], whys: list[str] | None = None) -> list[Answer]:
    answers = run.call("is_set_free", [(t,) for t in tables])
    for number, (table, answer) in enumerate(zip(tables, answers)):
        want = is_set_free(table)
        if answer.error is not None or type(answer.value) is not bool or answer.value != want:
            reason = f": {whys[number]}" if whys else ""
            seed = f" (grader's seed {run.seed})" if run.random and not whys else ""
            raise Failed(
                f"is_set_free(<{len(table)} cards: {show(table, 80)}>){seed} should be {want}{reason}. Your function {returned(answer)}."
            )
    return answers


@tests("test_is_set_free_visible")
def is_set_free_visible(run: Run) -> str:
    cases = [
        ("", "no cards, no SET"),
        ("1RSO 2RSO 3RSO", "the three cards form a SET"),
        ("1RSO 2RSO 3PSO", "two are red and one is purple"),
        ("1RSO 2RSO 1GSO 2GSO", "four cards of a plane, no three on a line"),
        ("1RSO 2RSO 1GSO 2GSO 3PSO", "1RSO, 2GSO and 3PSO form a SET"),
    ]
    tables = [_cards(codes) for codes, _ in cases] + [list(DECK)]
    _free_cases(run, tables, [why for _, why in cases] + ["the full deck holds 1080 SETs"])
    return "is_set_free passed the visible tests."


def _greedy(run: Run) -> list[Card]:
    """A cap: cards added in a random order while they make no SET with two cards already there."""
    cap: list[Card] = []
    for card in run.rng.sample(DECK, 81):
        if is_set_free([*cap, card]):
            cap.append(card)
    return cap


@tests("test_is_set_free_hidden")
def is_set_free_hidden(run: Run) -> str:
    """Deals and caps from fresh seeds, and whole decks."""
    tables = [list(DECK), DECK[:27]]
    for _ in range(2):
        tables += [run.rng.sample(DECK, n) for n in (0, 1, 2, 3, 4, 6, 9, 12, 15)]
        cap = _greedy(run)
        tables += [cap, cap[:-1], [*cap, run.rng.choice([c for c in DECK if c not in cap])]]
    _free_cases(run, tables)
    return f"is_set_free passed the hidden tests ({len(tables)} tables)."


def _caps(run: Run, cases: list[tuple[list[Card], int]], label) -> list[Answer]:
    answers = run.call("greedy_cap", cases)
    for (deck, seed), answer in zip(cases, answers):
        problem = (
            REFEREE.cap_problem(answer.value, deck) if answer.error is None else f"it {returned(answer)}"
        )
        if problem is not None:
            raise Failed(f"{label(deck, seed)} returned {show(answer.value, 150)}, but {problem}")
    return answers


def _same_seed(run: Run, seed: int) -> None:
    again = run.call("greedy_cap", [(list(DECK), seed), (list(DECK), seed)])
    if any(a.error for a in again) or again[0].value != again[1].value:
        raise Failed(f"greedy_cap(full_deck(), {seed}) gave two different caps for the same seed.")


@tests("test_greedy_cap_visible")
def greedy_cap_visible(run: Run) -> str:
    names = {1: "full_deck()", 2: "mini_deck()", 3: "a plane of 9 cards"}
    cases = [(list(DECK), 1), (mini_deck(), 2), (mini_deck(color="red", shading="solid"), 3)]
    _caps(run, cases, lambda deck, seed: f"greedy_cap({names[seed]}, {seed})")
    _same_seed(run, 4)
    return "greedy_cap passed the visible tests."


@tests("test_greedy_cap_hidden")
def greedy_cap_hidden(run: Run) -> str:
    fresh = run.rng.randrange(10**9)
    decks = [list(DECK), DECK[:27], DECK[::-1], [c for c in DECK if c.number == 2]]
    for _ in range(3):
        a, b, c = run.rng.sample(DECK, 3)
        if third_card(a, b) != c:
            decks.append([card for row in magic_square(a, b, c) for card in row])
        decks += [[a, b, third_card(a, b)], run.rng.sample(DECK, 20), run.rng.sample(DECK, 45)]
    cases = [(deck, seed) for deck in decks for seed in (1, fresh)]
    _caps(run, cases, lambda deck, seed: f"greedy_cap(<{len(deck)} cards>, {seed})")
    _same_seed(run, fresh + 1)
    others = run.call("greedy_cap", [(list(DECK), fresh + s) for s in range(2, 6)])
    # repr: a cap of anything (lists too, which hash not) is told from another by what it shows.
    if len({repr(a.value) for a in others}) < 2:
        raise Failed(
            "greedy_cap(full deck, seed) gave the same cap for four seeds: shuffle with random.Random(seed)."
        )
    return f"greedy_cap passed the hidden tests ({len(cases)} decks and seeds, grader's seed {fresh})."


def _mini_cap(run: Run) -> None:
    (answer,) = run.call("largest_mini_cap", [()])
    problem = (
        REFEREE.cap_problem(answer.value, mini_deck(), size=9)
        if answer.error is None
        else f"it {returned(answer)}"
    )
    if problem is not None:
        raise Failed(f"largest_mini_cap() returned {show(answer.value, 200)}, but {problem}")


@tests("test_largest_mini_cap_visible")
def largest_mini_cap_visible(run: Run) -> str:
    _mini_cap(run)
    return "largest_mini_cap passed the visible tests."


@tests("test_largest_mini_cap_hidden")
def largest_mini_cap_hidden(run: Run) -> str:
    _mini_cap(run)
    return "largest_mini_cap passed the hidden tests."
