"""Instant checks for exercise 6, probability: exact answers, a simulation and a confidence interval.

In the exercise notebook, after writing ``set_probability``, ``expected_sets``,
``simulate_no_set_rate`` and ``confidence_interval``::

    from setwidgets.checks import check_set_probability
    check_set_probability(set_probability)

Exact answers are ``Fraction``s, compared exactly. A simulated rate cannot be compared with one
number: it passes within :data:`TOLERANCE_SE` standard errors of the true rate
(:data:`NO_SET_RATES`), it is a whole number of tables divided by the tables dealt
(:func:`whole_count_problem`), and over :data:`SPREAD_SEEDS` seeds the rates scatter as much as
counts of random tables do, no more and no less (:func:`spread_problem`). The graded tests of the
exercise judge with the same functions. An interval is compared with Wilson's
(:func:`setwidgets.sim.wilson`, which needs numpy: ``pip install 'setwidgets[sim]'``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from setwidgets import _words
from setwidgets.cards import Card, full_deck, mini_deck
from setwidgets.checks.runner import (
    DEFAULT_SECONDS,
    Case,
    CheckResult,
    require_function,
    run,
    set_aside_while_graded,
    table_label,
)
from setwidgets.rules import find_sets

__all__ = [
    "INTERVAL_TOLERANCE",
    "NO_SET_RATES",
    "SPREAD_BOUNDS",
    "SPREAD_SEEDS",
    "SPREAD_SIZE",
    "SPREAD_TABLES",
    "TOLERANCE_SE",
    "WHOLE_SLACK",
    "Z95",
    "check_confidence_interval",
    "check_expected_sets",
    "check_set_probability",
    "check_simulate_no_set_rate",
    "no_set_tolerance",
    "spread",
    "spread_problem",
    "whole_count_problem",
]

NO_SET_RATES = {3: 78 / 79, 6: 0.76285, 9: 0.29722, 12: 0.03231, 21: 0.0}
"""How often a random table of each size holds no SET. 3 cards: 78/79 exactly; 21 cards: never
(Pellegrino, 1970); 6 to 12 cards: from 2 x 10^7 simulated tables each (setwidgets.sim, seeds 1000 to
1019), within 0.0002 of the true rate with 95% confidence."""

Z95 = 1.959963984540054
"""The z of a 95% interval: NormalDist().inv_cdf(0.975)."""

TOLERANCE_SE = 4.5
"""A simulated rate passes within this many standard errors, sqrt(p(1 - p) / tables), of the true rate."""

INTERVAL_TOLERANCE = 5e-5
"""How far an interval's ends may be from Wilson's (z = 1.96 instead of 1.959964 is within it)."""


def no_set_tolerance(size: int, tables: int) -> float:
    """How far from the true no-SET rate a simulation of ``tables`` tables of ``size`` cards may land."""
    p = NO_SET_RATES[size]
    return TOLERANCE_SE * math.sqrt(p * (1 - p) / tables) + 0.0003


WHOLE_SLACK = 1e-6
"""How far from a whole number a rate times its tables may be, per table: float rounding only.
(A count divided in float64 is off by about 1e-16 per table, in float32 by about 1e-7.)"""

SPREAD_SIZE, SPREAD_TABLES, SPREAD_SEEDS = 9, (300, 30), 40
"""The spread is measured on 40 simulations (seeds) of 300 tables of 9 cards, and on 40 of 30
tables: 9 cards, because their rate (about 0.297) makes counts scatter the most; two numbers of
tables, because a count of random tables scatters as the square root of the tables, and noise
made up for one number of tables does not scale so."""

SPREAD_BOUNDS = (0.18, 2.9)
"""How far :func:`spread` may be from 1. For an honest simulation the chance of landing outside is
at most 9.5e-8 for each number of tables in :data:`SPREAD_TABLES`, whatever the true rate within
0.001 of ``NO_SET_RATES[9]`` (Chernoff's bound on the exact binomial distribution, computed in
``tests/test_checks.py``); the exercise's graded tests measure the spread three times (30 tables
in the visible test, 300 and 30 in the hidden one): at most 2.9e-7 in all, so no honest work
fails by chance. A rate that is a fixed number plus noise of its own scatters too little or too
much, unless the noise is exactly a binomial count's."""


def whole_count_problem(rate: float, tables: int) -> str | None:
    """None when ``rate`` times ``tables`` is a whole number (within float rounding); else why not.

    A simulated rate is a number of tables (those without a SET) divided by the tables dealt.
    """
    count = rate * tables
    if abs(count - round(count)) <= WHOLE_SLACK * max(tables, 1):
        return None
    return (
        f"{rate!r} times {tables} tables is {count:.4f} tables without a SET, not a whole number: a rate "
        f"from a simulation is the number of tables without a SET divided by {tables}."
    )


def spread(rates: list[float], size: int, tables: int) -> float:
    """How much the rates of several seeds scatter, as a multiple of what random tables give.

    Each rate times ``tables`` is a count of tables without a SET: a binomial count, which scatters
    around ``tables * p`` with variance ``tables * p * (1 - p)``. The result is the mean squared
    distance of the counts from ``tables * p``, over that variance: about 1 for honest simulations.
    """
    p = NO_SET_RATES[size]
    variance = tables * p * (1 - p)
    return sum((rate * tables - p * tables) ** 2 for rate in rates) / variance / len(rates)


def spread_problem(rates: list[float], size: int, tables: int, seeds: str) -> str | None:
    """None when the rates of many ``seeds`` scatter as simulations of ``tables`` tables do; else why not.

    The rates' mean must lie within :func:`no_set_tolerance` of the true rate (for all the tables
    together), and :func:`spread` within :data:`SPREAD_BOUNDS`.
    """
    p = NO_SET_RATES[size]
    name = f"simulate_no_set_rate({size}, {tables}, seed) for the seeds {seeds}"
    if len(set(rates)) == 1:
        return (
            f"{name} gave {rates[0]!r} every time: other seeds deal other tables, so the rates should "
            "differ. Use the seed to make the random tables."
        )
    mean = sum(rates) / len(rates)
    together = tables * len(rates)
    if abs(mean - p) > no_set_tolerance(size, together):
        return (
            f"{name} gave rates whose mean is {mean:.4f}: the true rate is about {p:.4f}, and {together} "
            f"tables together land within {no_set_tolerance(size, together):.4f} of it."
        )
    measured = spread(rates, size, tables)
    low, high = SPREAD_BOUNDS
    if low <= measured <= high:
        return None
    expected = math.sqrt(tables * p * (1 - p))
    scattered = math.sqrt(measured) * expected
    how = "much less" if measured < low else "much more"
    return (
        f"{name} gave counts of tables without a SET (rate times {tables}) that scatter {how} than "
        f"random tables make them: by {scattered:.1f} tables around {tables * p:.1f}, where random tables "
        f"scatter by about {expected:.1f} (a binomial count's spread). Deal every table at random and count "
        "those without a SET; the rate is that count divided by the tables."
    )


def _probability_tables() -> list[tuple[list[Card], str]]:
    parse = Card.parse
    tables: list[tuple[list[Card], str]] = [
        ([parse(c) for c in ["1RSO", "2RSO", "3RSO"]], ""),
        ([parse(c) for c in ["1RSO", "2RSO", "3PSO"]], ""),
        ([parse(c) for c in ["1RSO", "2RSO", "3RSO", "1GSO", "1PSO"]], ""),
        (mini_deck(color="red", shading="solid"), "mini_deck(color='red', shading='solid') (9 cards)"),
    ]
    rng = random.Random(611)
    tables += [(rng.sample(full_deck(), size), "") for size in (4, 9, 12, 12, 15, 20)]
    tables += [(mini_deck(), "mini_deck() (27 red cards)"), (full_deck(), "full_deck() (all 81 cards)")]
    return tables


@set_aside_while_graded
def check_set_probability(
    func: Callable[[list[Card]], Any], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``set_probability(cards)`` on small tables, deals, the mini deck and the full deck.

    It should return, as an exact ``Fraction``, the probability that three
    different cards chosen at random among ``cards`` form a SET: the number of
    SETs over the number of triples; and raise a ValueError for fewer than 3 cards.
    """
    name = require_function("set_probability", func)
    cases = []
    for cards, what in _probability_tables():
        sets = len(find_sets(cards))
        triples = math.comb(len(cards), 3)
        expected = Fraction(sets, triples)

        def judge(
            got: Any, expected: Fraction = expected, sets: int = sets, triples: int = triples
        ) -> str | None:
            why = (
                f"{_words.there_are(sets, 'SET')} among {triples} triples, so the answer is "
                f"Fraction({sets}, {triples}) = {expected}"
            )
            if type(got) is not Fraction:
                kind = type(got).__name__
                return (
                    f"{name} should return an exact Fraction (from the module fractions), not {kind}: {why}."
                )
            if got == expected:
                return None
            if got == Fraction(1, 79) and sets:
                return f"1/79 is the answer for the full deck; count for the cards given: {why}."
            if got == 3 * expected or got == 6 * expected:
                return f"each SET was counted {got / expected} times: {why}."
            return f"{why}."

        cases.append(Case((list(cards),), table_label(name, cards, what), judge))
    for line in ("", "1RSO", "1RSO 2RSO"):
        cards = [Card.parse(c) for c in line.split()]
        cases.append(
            Case(
                (cards,),
                table_label(name, cards),
                lambda got: None,
                raises=ValueError,
                raises_hint="fewer than three cards make no triple, so there is no probability to give.",
            )
        )
    return run(name, func, cases, seconds, "an exact Fraction")


@set_aside_while_graded
def check_expected_sets(func: Callable[[int], Any], seconds: float | None = DEFAULT_SECONDS) -> CheckResult:
    """Check your ``expected_sets(k)`` for every table size k from 0 to 81.

    It should return, as an exact ``Fraction``, the expected number of SETs among
    ``k`` cards dealt at random from the full deck: C(k, 3) triples, each a SET
    with probability 1/79.
    """
    name = require_function("expected_sets", func)
    cases = []
    for k in [12, 3, 0, 1, 2, 15, 21, 81, *range(4, 81)]:
        expected = Fraction(math.comb(k, 3), 79)

        def judge(got: Any, k: int = k, expected: Fraction = expected) -> str | None:
            why = (
                f"{k} cards hold C({k}, 3) = {math.comb(k, 3)} triples, each a SET with probability 1/79, "
                f"and expectations add up: {expected}"
            )
            if type(got) is not Fraction:
                return f"{name} should return an exact Fraction, not {type(got).__name__}: {why}."
            return None if got == expected else f"{why}."

        cases.append(Case((k,), f"{name}({k})", judge))
    return run(name, func, cases, seconds, "an exact Fraction")


def _rate_case(name: str, func: Callable, size: int, tables: int, seed: int) -> Case:
    p = NO_SET_RATES[size]
    tolerance = no_set_tolerance(size, tables)

    def judge(got: Any) -> str | None:
        if type(got) is not float:
            # (numpy's floats reach here as Python floats, as the grader reads them.)
            return f"{name} should return a float (a rate such as 0.0323), not {type(got).__name__}."
        if abs(got - p) <= tolerance:
            return whole_count_problem(got, tables)
        if abs(got - (1 - p)) <= tolerance and p not in (0.0, 0.5):
            return f"that is the rate of tables WITH a SET; the rate of tables without one is about {p:.4f}."
        return (
            f"about {p:.4f} of random tables of {size} cards hold no SET, and {tables} tables land within "
            f"{tolerance:.4f} of it (4.5 standard errors). Deal each table from one random.Random(seed) or "
            f"sim.deal_tables(tables, size, seed=seed), and count the tables without a SET."
        )

    return Case((size, tables, seed), f"{name}({size}, {tables}, seed={seed})", judge)


@set_aside_while_graded
def check_simulate_no_set_rate(
    func: Callable[[int, int, int], Any], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``simulate_no_set_rate(size, tables, seed)`` on tables of 3, 9, 12 and 21 cards.

    It should deal ``tables`` random tables of ``size`` cards from the full deck,
    with randomness from ``seed`` alone, and return the fraction of them without
    a SET as a float. The result must land within 4.5 standard errors of the
    true rate, be a whole number of tables divided by ``tables``, give the same answer for the
    same seed, and, over 40 seeds of 300 tables and 40 of 30, scatter as much as counts of random
    tables do (no more, no less).
    """
    name = require_function("simulate_no_set_rate", func)
    cases = [
        _rate_case(name, func, 3, 2000, 1),
        _rate_case(name, func, 21, 200, 2),
        _rate_case(name, func, 9, 2000, 3),
        _rate_case(name, func, 12, 3000, 4),
    ]

    def twice(size: int, tables: int, seed: int) -> tuple[Any, Any]:
        return func(size, tables, seed), func(size, tables, seed)

    def judge_twice(got: tuple[Any, Any]) -> str | None:
        if got[0] == got[1]:
            return None
        return (
            f"{name}(9, 500, seed=5) gave {got[0]!r}, then {got[1]!r}: the same seed should give the same "
            "tables, so make every random choice from random.Random(seed) (or seed=seed in setwidgets.sim)."
        )

    cases.append(Case((9, 500, 5), f"{name}(9, 500, seed=5), twice", judge_twice, call=twice))

    for first, tables in zip((6, 106), SPREAD_TABLES):
        cases.append(_spread_case(name, func, tables, first))
    return run(name, func, cases, seconds, "a float")


def _spread_case(name: str, func: Callable, tables: int, first: int) -> Case:
    """Rates of SPREAD_SEEDS seeds from ``first`` on: floats, whole counts, scattered as a binomial's."""
    named = f"{first} to {first + SPREAD_SEEDS - 1}"

    def seeds(size: int, tables: int, first: int) -> list[Any]:
        return [func(size, tables, seed) for seed in range(first, first + SPREAD_SEEDS)]

    def judge_seeds(got: list[Any]) -> str | None:
        for seed, rate in enumerate(got, first):
            if type(rate) is not float:
                return f"{name}({SPREAD_SIZE}, {tables}, seed={seed}) returned {rate!r}, not a float."
            whole = whole_count_problem(rate, tables)
            if whole:
                return f"{name}({SPREAD_SIZE}, {tables}, seed={seed}) returned {rate!r}, but {whole}"
        return spread_problem(got, SPREAD_SIZE, tables, named)

    label = f"{name}({SPREAD_SIZE}, {tables}, seed) for the seeds {named}"
    return Case((SPREAD_SIZE, tables, first), label, judge_seeds, call=seeds)


def interval_problem(got: Any, hits: int, trials: int) -> str | None:
    """None when ``got`` is Wilson's 95% interval for hits out of trials; else what is wrong.

    The grader's referee (:class:`setwidgets.grading.referee.Referee`) judges with it too.
    """
    # setwidgets.sim needs numpy, which the rest of the checks do without.
    from setwidgets.sim import wilson

    low, high = wilson(hits, trials, Z95)
    want = f"({low:.5f}, {high:.5f})"
    if not (type(got) is tuple and len(got) == 2 and all(type(x) is float for x in got)):
        return f"it should be a tuple (low, high) of two floats, Wilson's interval {want}."
    if abs(got[0] - low) <= INTERVAL_TOLERANCE and abs(got[1] - high) <= INTERVAL_TOLERANCE:
        return None
    p = hits / trials
    half = Z95 * math.sqrt(p * (1 - p) / trials)
    if abs(got[0] - (p - half)) < 1e-4 and abs(got[1] - (p + half)) < 1e-4:
        return (
            f"that is the normal approximation p ± z·sqrt(p(1 - p)/n), which is off for rates near 0 or 1; "
            f"use Wilson's formula: {want}."
        )
    return f"Wilson's 95% interval is {want}."


@set_aside_while_graded
def check_confidence_interval(
    func: Callable[[int, int], Any], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``confidence_interval(hits, trials)``: Wilson's 95% interval, as a tuple of two floats."""
    name = require_function("confidence_interval", func)
    cases = []
    for hits, trials in [
        (5, 10),
        (323, 10000),
        (0, 10),
        (10, 10),
        (1, 2500),
        (50, 1000),
        (7, 40),
        (999, 1000),
    ]:

        def judge(got: Any, hits: int = hits, trials: int = trials) -> str | None:
            return interval_problem(got, hits, trials)

        cases.append(Case((hits, trials), f"{name}({hits}, {trials})", judge))
    return run(name, func, cases, seconds, "a tuple (low, high) of two floats")
