"""Instant checks for exercise 7, caps: :func:`check_is_set_free`, :func:`check_greedy_cap` and
:func:`check_largest_mini_cap`.

In the exercise notebook, after writing ``is_set_free``, ``greedy_cap`` and ``largest_mini_cap``::

    from setwidgets.checks import check_greedy_cap, check_is_set_free, check_largest_mini_cap
    check_greedy_cap(greedy_cap)

A cap (a table without a SET) has many right answers: ``greedy_cap`` and ``largest_mini_cap``
are checked, not compared with one answer (:func:`cap_problem` says what is wrong with one).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from typing import Any

from setwidgets.cards import Card, full_deck, mini_deck
from setwidgets.checks.ex2_third_card import third_card_calls
from setwidgets.checks.runner import (
    DEFAULT_SECONDS,
    Case,
    CheckResult,
    codes,
    deal_tables,
    never_calls_third_card,
    require_function,
    run,
    set_aside_while_graded,
    short_case,
    table_label,
)
from setwidgets.rules import third_card

__all__ = ["check_greedy_cap", "check_is_set_free", "check_largest_mini_cap"]


def _greedy(cards: Sequence[Card], seed: int) -> list[Card]:
    """A SET-free table grown greedily through the cards in an order shuffled by ``seed``."""
    order = list(cards)
    random.Random(seed).shuffle(order)
    chosen: list[Card] = []
    blocked: set[Card] = set()
    for card in order:
        if card not in blocked:
            blocked.update(third_card(card, other) for other in chosen)
            chosen.append(card)
    return chosen


def set_among(cards: Sequence[Card]) -> tuple[Card, Card, Card] | None:
    """A SET among the cards (the first met, pair by pair), or None when they are SET-free."""
    present = set(cards)
    for x, y in itertools.combinations(cards, 2):
        z = third_card(x, y)
        if z in present:
            return x, y, z
    return None


def cap_problem(got: Any, deck: Sequence[Card], size: int | None = None) -> str | None:
    """None when ``got`` is a SET-free list of different cards of ``deck`` that no card of it can
    join (or, with ``size``, a SET-free list of that many); else what is wrong.

    The grader's referee (:class:`setwidgets.grading.referee.Referee`) judges with it too.
    """
    if type(got) is not list or not all(type(card) is Card for card in got):
        return "it should be a list of Cards."
    if len(set(got)) != len(got):
        twice = next(card for card in got if got.count(card) > 1)
        return f"{twice} is in the list twice."
    stranger = next((card for card in got if card not in set(deck)), None)
    if stranger is not None:
        return f"{stranger} is not one of the cards it was given."
    found = set_among(got)
    if found is not None:
        return f"({codes(sorted(found))}) is a SET among its cards."
    if size is not None:
        return None if len(got) == size else f"it holds {len(got)} cards; {size} is possible."
    blocked = {third_card(x, y) for x, y in itertools.combinations(got, 2)}
    free = next((card for card in deck if card not in blocked and card not in got), None)
    if free is not None:
        return (
            f"{free} could still be added without making a SET: a greedy table keeps adding cards until "
            "every card left would make a SET."
        )
    return None


def _cap_tables() -> list[list[Card]]:
    """Tables with and without SETs, and SET-free tables grown greedily from the full deck."""
    tables = deal_tables()
    tables += [_greedy(full_deck(), seed) for seed in range(5)]
    tables += [_greedy(mini_deck(), seed) for seed in range(3)]
    return tables


@set_aside_while_graded
def check_is_set_free(
    func: Callable[[list[Card]], Any], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``is_set_free(cards)`` on deals, whole decks and large SET-free tables.

    It should return True exactly when no three of the cards form a SET. Last,
    on a SET-free table of the full deck, it counts your calls of
    ``third_card``, however your function reaches it: one per pair is enough
    (the pairs method, O(n²)). The count is advice; the graded tests count nothing.
    """
    name = require_function("is_set_free", func)
    cases = []
    for cards in _cap_tables():
        found = set_among(cards)

        def judge(got: Any, found: Any = found) -> str | None:
            if type(got) is not bool:
                return f"{name} should return True or False (a bool), not {type(got).__name__}."
            if got == (found is None):
                return None
            if found is None:
                return "no three of these cards form a SET."
            return f"({codes(found)}) is a SET among them."

        cases.append(Case((list(cards),), table_label(name, cards), judge))
    cap = max((_greedy(full_deck(), seed) for seed in range(5)), key=len)
    pairs = len(cap) * (len(cap) - 1) // 2

    def judge_calls(calls: int | None) -> str | None:
        if calls is None:
            return None
        if calls == 0:
            return never_calls_third_card(name)
        if calls > pairs:
            return (
                f"{name} called third_card {calls} times on {len(cap)} cards without a SET, but they make "
                f"only {pairs} pairs: ask once per pair, and look the third card up in a Python set (O(n²), "
                "not the O(n³) of every triple)."
            )
        return None

    cases.append(
        Case(
            (cap,),
            f"{name}(<{len(cap)} cards without a SET>), counting its calls of third_card",
            judge_calls,
            call=lambda cards: third_card_calls(func, (cards,)),
        )
    )
    return run(name, func, cases, seconds, "True or False (a bool)")


def _cap_decks() -> list[tuple[list[Card], str]]:
    rng = random.Random(712)
    decks = [
        (full_deck(), "full_deck()"),
        (mini_deck(), "mini_deck()"),
        (mini_deck(color="red", shading="solid"), "mini_deck(color='red', shading='solid')"),
        ([Card.parse(c) for c in ["1RSO", "2RSO", "3RSO"]], "[1RSO, 2RSO, 3RSO]"),
        ([], "[]"),
    ]
    decks += [(rng.sample(full_deck(), size), f"<{size} random cards>") for size in (12, 30)]
    return decks


@set_aside_while_graded
def check_greedy_cap(
    func: Callable[[list[Card], int], Any], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``greedy_cap(deck, seed)`` on the full deck, the mini deck, a plane, a line and deals.

    Its result is checked, not compared with one answer: a list of different
    cards of ``deck`` without a SET, to which no other card of ``deck`` can be
    added; the same for the same seed, and different for different seeds.
    """
    name = require_function("greedy_cap", func)
    cases = []
    for deck, what in _cap_decks():
        for seed in (1, 2):

            def judge(got: Any, deck: list = deck) -> str | None:
                return cap_problem(got, deck)

            cases.append(short_case(func, (list(deck), seed), f"{name}({what}, {seed})", judge))

    def twice(deck: list[Card], seed: int) -> tuple[Any, Any]:
        return func(list(deck), seed), func(list(deck), seed)

    def judge_twice(got: tuple[Any, Any]) -> str | None:
        if got[0] == got[1]:
            return None
        return (
            f"{name}(full_deck(), 7) gave two different tables: the same seed should give the same table, "
            "so shuffle with random.Random(seed)."
        )

    cases.append(Case((full_deck(), 7), f"{name}(full_deck(), 7), twice", judge_twice, call=twice))

    def seeds(deck: list[Card], first: int) -> list[Any]:
        return [func(list(deck), seed) for seed in range(first, first + 4)]

    def judge_seeds(got: list[Any]) -> str | None:
        if len({tuple(x) if type(x) is list else x for x in got}) > 1:
            return None
        return (
            f"{name}(full_deck(), seed) gave the same table for the seeds 8, 9, 10 and 11: go through the "
            "deck in an order shuffled by random.Random(seed)."
        )

    cases.append(Case((full_deck(), 8), f"{name}(full_deck(), seed) for four seeds", judge_seeds, call=seeds))
    return run(name, func, cases, seconds, "a list of Cards")


@set_aside_while_graded
def check_largest_mini_cap(func: Callable[[], Any], seconds: float | None = DEFAULT_SECONDS) -> CheckResult:
    """Check your ``largest_mini_cap()``: 9 different cards of the mini deck, no three of them a SET."""
    name = require_function("largest_mini_cap", func)

    def judge(got: Any) -> str | None:
        problem = cap_problem(got, mini_deck(), size=9)
        if problem and problem.startswith("it holds"):
            problem += " Try greedy_cap(mini_deck(), seed) for many seeds and keep a largest one."
        return problem

    return run(name, func, [short_case(func, (), f"{name}()", judge)], seconds, "a list of 9 Cards")
