"""The graded tests of exercise 6, probability, judged by the grader outside the student's kernel.

Each function below is the test of one graded cell of ``probability.ipynb``, by its grade id. The
exact answers (Fractions compared by numerator and denominator) and Wilson's intervals are
computed here. A simulated rate is held to what tables can give: within 4.5 standard errors of
the true rate, a whole number of tables divided by the tables dealt, and, over 40 seeds, counts
that scatter as a binomial count does (:func:`setwidgets.checks.ex6_probability.spread_problem`,
which the instant check uses too). The student's kernel only calls the student's functions on
the inputs sent to it. See :mod:`setwidgets.grading.judge`.
"""

from __future__ import annotations

from fractions import Fraction

from setwidgets import Card, full_deck, mini_deck
from setwidgets.checks.ex6_probability import (
    NO_SET_RATES,
    SPREAD_SEEDS,
    SPREAD_SIZE,
    SPREAD_TABLES,
    no_set_tolerance,
    spread_problem,
    whole_count_problem,
)
from setwidgets.grading.judge import Answer, Failed, Run, Tests, returned
from setwidgets.grading.referee import Referee
from setwidgets.rules import find_sets

# The exercise asks for these: the grading kernel sees the package without them (sim's dealing
# and has_set_many stay: simulate_no_set_rate is asked to use them).
# What the notebook's own cells use of the package; while it is graded, the kernel has nothing else.
HAND_OUT = [
    *("setwidgets.Card", "setwidgets.full_deck", "setwidgets.mini_deck", "setwidgets.third_card"),
    *("setwidgets.sim.deal_tables", "setwidgets.sim.has_set_many", "setwidgets.draw.show"),
    *(
        f"setwidgets.checks.check_{name}"
        for name in ("confidence_interval", "expected_sets", "set_probability", "simulate_no_set_rate")
    ),
]
tests = Tests(
    hand_out=HAND_OUT,
    hide=[
        "setwidgets.rules.find_sets",
        "setwidgets.rules.count_sets",
        "setwidgets.sim.tally.wilson",
        "setwidgets.sim.count_sets_many",
    ],
)

DECK = full_deck()
REFEREE = Referee()


def _exact(answer: Answer, want: Fraction) -> bool:
    value = answer.value
    return (
        answer.error is None
        and type(value) is Fraction
        and (value.numerator, value.denominator)
        == (
            want.numerator,
            want.denominator,
        )
    )


def _triples(n: int) -> int:
    return n * (n - 1) * (n - 2) // 6


def _probability_cases(run: Run, tables: list[list[Card]], whys: list[str] | None = None) -> None:
    for number, (table, answer) in enumerate(
        zip(tables, run.call("set_probability", [(t,) for t in tables]))
    ):
        sets, triples = len(find_sets(table)), _triples(len(table))
        want = Fraction(sets, triples)
        if not _exact(answer, want):
            reason = whys[number] if whys else f"{sets} SETs among {triples} triples"
            seed = f" (grader's seed {run.seed})" if run.random and not whys else ""
            raise Failed(
                f"set_probability(<{len(table)} cards>){seed} should be the Fraction {want}: {reason}. "
                f"Your function {returned(answer)}."
            )


def _no_triple(run: Run, sizes: list[int]) -> None:
    for n, answer in zip(sizes, run.call("set_probability", [(DECK[:n],) for n in sizes])):
        if answer.error is None or not answer.error.startswith("ValueError"):
            raise Failed(
                f"set_probability of {n} cards should raise a ValueError: there is no triple. Your function {returned(answer)}."
            )


@tests("test_set_probability_visible")
def set_probability_visible(run: Run) -> str:
    tables = [list(DECK), mini_deck(), [Card.parse(code) for code in ("1RSO", "2RSO", "3RSO", "1GSO")]]
    whys = [
        "1080 SETs among 85320 triples",
        "117 SETs among 2925 triples",
        "1RSO 2RSO 3RSO 1GSO hold one SET among 4 triples",
    ]
    _probability_cases(run, tables, whys)
    _no_triple(run, [2])
    return "set_probability passed the visible tests."


@tests("test_set_probability_hidden")
def set_probability_hidden(run: Run) -> str:
    tables = [list(DECK), DECK[:27], DECK[::3]]
    for _ in range(2):
        tables += [run.rng.sample(DECK, n) for n in (3, 3, 4, 5, 8, 12, 12, 15, 20, 30)]
    _probability_cases(run, tables)
    _no_triple(run, [0, 1, 2])
    return f"set_probability passed the hidden tests ({len(tables)} tables)."


def _expected_cases(run: Run, sizes: list[int], whys: dict[int, str]) -> None:
    for k, answer in zip(sizes, run.call("expected_sets", [(k,) for k in sizes])):
        want = Fraction(_triples(k), 79)
        if not _exact(answer, want):
            reason = whys.get(k, f"C({k}, 3) = {_triples(k)} triples, each a SET with probability 1/79")
            raise Failed(
                f"expected_sets({k}) should be the Fraction {want}: {reason}. Your function {returned(answer)}."
            )


@tests("test_expected_sets_visible")
def expected_sets_visible(run: Run) -> str:
    whys = {81: "the full deck holds its 1080 SETs", 2: "two cards hold no SET"}
    _expected_cases(run, [12, 81, 2], whys)
    return "expected_sets passed the visible tests."


@tests("test_expected_sets_hidden")
def expected_sets_hidden(run: Run) -> str:
    sizes = list(range(82))
    run.rng.shuffle(sizes)
    _expected_cases(run, sizes, {})
    return "expected_sets passed the hidden tests (every size from 0 to 81)."


# The true rates (NO_SET_RATES): 3 cards exactly 78/79; 21 cards always hold a SET; 9 and 12
# cards from 2 x 10^7 simulated tables each (within 0.0002 of the true rate).
RATES = {size: NO_SET_RATES[size] for size in (3, 9, 12, 21)}


def _rate_problem(size: int, tables: int, answer: Answer) -> str | None:
    """What is wrong with one simulated rate, or None: a float, near the true rate, a whole count."""
    if answer.error is not None or type(answer.value) is not float:
        return f"should return a float. Your function {returned(answer)}"
    p, band = RATES[size], no_set_tolerance(size, tables)
    if abs(answer.value - p) > band:
        return f"= {answer.value}: the true rate is about {p:.4f}, and {tables} tables land within {band:.4f} of it"
    whole = whole_count_problem(answer.value, tables)
    return None if whole is None else f"= {answer.value}, but {whole}"


def _rates(run: Run, runs: list[tuple[int, int, int]]) -> None:
    for (size, tables, seed), answer in zip(runs, run.call("simulate_no_set_rate", runs)):
        problem = _rate_problem(size, tables, answer)
        if problem is not None:
            raise Failed(f"simulate_no_set_rate({size}, {tables}, {seed}) {problem}.")


def _spread(run: Run, first: int, tables: int) -> None:
    """SPREAD_SEEDS seeds of ``tables`` tables of 9 cards, the first seed twice: the same seed gives
    the same rate, each rate is a whole count of tables, and the counts scatter as a binomial's.

    An honest simulation fails this by chance at most 9.5e-8 of the time (SPREAD_BOUNDS).
    """
    seeds = list(range(first, first + SPREAD_SEEDS))
    runs = [(SPREAD_SIZE, tables, seed) for seed in [*seeds, first]]
    answers = run.call("simulate_no_set_rate", runs)
    for (size, _, seed), answer in zip(runs, answers):
        label = f"simulate_no_set_rate({size}, {tables}, {seed})"
        if answer.error is not None or type(answer.value) is not float:
            raise Failed(f"{label} should return a float. Your function {returned(answer)}.")
        whole = whole_count_problem(answer.value, tables)
        if whole is not None:
            raise Failed(f"{label} = {answer.value}, but {whole}")
    if answers[0].value != answers[-1].value:
        raise Failed(
            f"simulate_no_set_rate({SPREAD_SIZE}, {tables}, {first}) gave {answers[0].value} and then "
            f"{answers[-1].value}: the same seed should give the same rate."
        )
    problem = spread_problem(
        [a.value for a in answers[:-1]], SPREAD_SIZE, tables, f"{seeds[0]} to {seeds[-1]}"
    )
    if problem is not None:
        raise Failed(problem)


# The visible test's spread, as the notebook's visible cell measures it: seeds 100 to 139, 30 tables.
VISIBLE_SEEDS, VISIBLE_TABLES = 100, 30


@tests("test_simulate_no_set_rate_visible")
def simulate_no_set_rate_visible(run: Run) -> str:
    _rates(run, [(12, 5000, 1), (3, 2000, 2)])
    again = run.call("simulate_no_set_rate", [(9, 500, 3), (9, 500, 3)])
    if any(a.error for a in again) or again[0].value != again[1].value:
        raise Failed(
            f"the same seed should give the same rate: simulate_no_set_rate(9, 500, 3) {returned(again[0])}, then {returned(again[1])}."
        )
    _spread(run, VISIBLE_SEEDS, VISIBLE_TABLES)
    return "simulate_no_set_rate passed the visible tests."


@tests("test_simulate_no_set_rate_hidden")
def simulate_no_set_rate_hidden(run: Run) -> str:
    fresh = run.rng.randrange(10**9)
    _rates(
        run,
        [
            (12, 10000, 12),
            (12, 10000, fresh),
            (9, 3000, fresh + 1),
            (3, 3000, fresh + 2),
            (21, 300, fresh + 3),
        ],
    )
    # 13,200 tables of 9 cards in all: a few milliseconds with numpy, about 2 s in plain Python.
    first = fresh + 4
    for tables in SPREAD_TABLES:
        _spread(run, first, tables)
        first += SPREAD_SEEDS
    return f"simulate_no_set_rate passed the hidden tests (seeds 12 and {fresh} to {first - 1})."


def _intervals(run: Run, counts: list[tuple[int, int]]) -> None:
    for (hits, trials), answer in zip(counts, run.call("confidence_interval", counts)):
        got = answer.value if answer.error is None else None
        problem = (
            REFEREE.interval_problem(got, hits, trials) if answer.error is None else f"it {returned(answer)}"
        )
        if problem is not None:
            raise Failed(f"confidence_interval({hits}, {trials}) returned {got!r:.100}, but {problem}")


@tests("test_confidence_interval_visible")
def confidence_interval_visible(run: Run) -> str:
    _intervals(run, [(323, 10000), (0, 100)])
    return "confidence_interval passed the visible tests."


@tests("test_confidence_interval_hidden")
def confidence_interval_hidden(run: Run) -> str:
    counts = [(5, 10), (0, 10), (10, 10), (1, 2500), (7, 40), (999, 1000), (646106, 20000000)]
    for _ in range(20):
        trials = run.rng.randrange(10, 10**6)
        counts.append((run.rng.randrange(trials + 1), trials))
    _intervals(run, counts)
    return f"confidence_interval passed the hidden tests ({len(counts)} counts, grader's seed {run.seed})."
