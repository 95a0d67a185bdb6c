"""Instant checks for exercise 6, probability: exact answers, a simulation and a confidence interval.

In the exercise notebook, after writing ``set_probability``, ``expected_sets``,
``simulate_no_set_rate`` and ``confidence_interval``::

    from setwidgets.checks import check_set_probability
    check_set_probability(set_probability)

Exact answers are ``Fraction``s, compared exactly. A simulated rate cannot be compared with one
number: it passes within :data:`TOLERANCE_SE` standard errors of the true rate
(:data:`NO_SET_RATES`), and must change with the seed alone. An interval is compared with
Wilson's (:func:`setwidgets.sim.wilson`, which needs numpy: ``pip install 'setwidgets[sim]'``).
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
    "TOLERANCE_SE",
    "Z95",
    "check_confidence_interval",
    "check_expected_sets",
    "check_set_probability",
    "check_simulate_no_set_rate",
    "no_set_tolerance",
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
    return run(name, func, cases, seconds)


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
    return run(name, func, cases, seconds)


def _rate_case(name: str, func: Callable, size: int, tables: int, seed: int) -> Case:
    p = NO_SET_RATES[size]
    tolerance = no_set_tolerance(size, tables)

    def judge(got: Any) -> str | None:
        if type(got) is not float:
            kind = type(got).__name__
            return (
                f"{name} should return a Python float, not {kind} (float(...) turns a numpy number into one)."
            )
        if abs(got - p) <= tolerance:
            return None
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
    true rate, give the same answer for the same seed, and change with the seed.
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

    def seeds(size: int, tables: int, first: int) -> list[Any]:
        return [func(size, tables, seed) for seed in range(first, first + 4)]

    def judge_seeds(got: list[Any]) -> str | None:
        if len(set(got)) > 1:
            return None
        return (
            f"{name}(9, 500, seed) gave {got[0]!r} for the seeds 6, 7, 8 and 9: other seeds deal other "
            "tables, so the rates should differ. Use the seed to make the random tables."
        )

    cases.append(Case((9, 500, 6), f"{name}(9, 500, seed) for four seeds", judge_seeds, call=seeds))
    return run(name, func, cases, seconds)


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
    return run(name, func, cases, seconds)
