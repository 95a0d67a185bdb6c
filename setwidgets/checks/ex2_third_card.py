"""Instant checks for exercise 2, the third card: :func:`check_third_card` and :func:`check_count_sets`.

In the exercise notebook, after writing ``third_card`` (or ``third_card_mod3``) and ``count_sets``::

    from setwidgets.checks import check_count_sets, check_third_card
    check_third_card(third_card)
    check_count_sets(count_sets)

``check_count_sets`` also counts, on the full deck, how often your ``count_sets`` calls
``third_card``: the pair-by-pair method needs at most one call per pair.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from setwidgets import _inputs, _words
from setwidgets.cards import FEATURES, Card, full_deck, mini_deck
from setwidgets.checks.runner import (
    DEFAULT_SECONDS,
    Case,
    CheckResult,
    count_calls,
    require_function,
    run,
    set_aside_while_graded,
    show,
    table_label,
)
from setwidgets.rules import find_sets, third_card

__all__ = ["check_count_sets", "check_third_card"]


# -- third_card ----------------------------------------------------------------------


def _why_third(a: Card, b: Card, got: Any, expected: Card) -> str:
    """Name the first feature the returned card gets wrong and the rule that fixes it."""
    head = f"the third card is {show(expected)}"
    if not isinstance(got, Card):
        return (
            f"{head}; return a Card (for example Card.from_vector(...) "
            "or Card(number, color, shape, shading))."
        )
    for feature in FEATURES:
        x, y, want = getattr(a, feature), getattr(b, feature), getattr(expected, feature)
        if getattr(got, feature) != want:
            return f"{head}: {_words.third_value(feature, x, y, want)}."
    return head + "."


@set_aside_while_graded
def check_third_card(
    func: Callable[[Card, Card], Card], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``third_card(a, b)`` (or ``third_card_mod3``) on about seventy pairs.

    It should return the one card that makes a SET with ``a`` and ``b``, and
    raise a ValueError when ``a`` and ``b`` are the same card.
    """
    name = require_function("third_card", func)
    picked = [("1RSO", "2RSO"), ("1RSO", "3RSO"), ("2RSO", "3RSO"), ("1RSO", "1GSO"), ("2GTS", "2GTD")]
    picked += [("1RSO", "2GTS"), ("3POD", "3POD")]
    pairs = [(Card.parse(x), Card.parse(y)) for x, y in picked]
    rng = random.Random(81)
    pairs += [tuple(rng.sample(full_deck(), 2)) for _ in range(60)]
    pairs += [(card, card) for card in rng.sample(full_deck(), 3)]
    cases = []
    for a, b in pairs:
        label = f"{name}({a.code}, {b.code})"
        if a == b:
            hint = "both cards are the same, and a SET needs three different cards."
            cases.append(Case((a, b), label, lambda got: None, raises=ValueError, raises_hint=hint))
            continue
        expected = third_card(a, b)

        def judge(got: Any, a: Card = a, b: Card = b, expected: Card = expected) -> str | None:
            return None if got == expected else _why_third(a, b, got, expected)

        cases.append(Case((a, b), label, judge))
    return run(name, func, cases, seconds)


# -- count_sets ----------------------------------------------------------------------


@set_aside_while_graded
def check_count_sets(
    func: Callable[[list[Card]], int], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``count_sets(cards)`` on small tables, deals of 12 cards and whole decks.

    It should return how many SETs (each counted once) lie among the cards.
    Last, on the full deck (81 cards, 1080 SETs), it counts how often your
    function calls ``third_card`` (or ``third_card_mod3``), when one is defined
    beside it: the pair-by-pair method needs at most one call per pair.
    """
    name = require_function("count_sets", func)
    tables: list[tuple[list[Card], str]] = [
        ([], "[]"),
        ([Card.parse(c) for c in ("1RSO", "2RSO")], ""),
        ([Card.parse(c) for c in ("1RSO", "2RSO", "3RSO")], ""),
        ([Card.parse(c) for c in ("1RSO", "2RSO", "3PSO")], ""),
        ([Card.parse(c) for c in ("1RSO", "2RSO", "3RSO", "1GSO", "1PSO")], ""),
    ]
    rng = random.Random(12)
    for size in (6, 9, 12, 12, 12, 15, 18):
        tables.append((rng.sample(full_deck(), size), ""))
    tables.append((mini_deck(), "mini_deck() (27 red cards)"))
    tables.append((full_deck(), "full_deck() (all 81 cards)"))
    cases = []
    for cards, what in tables:
        expected = len(find_sets(cards))

        def judge(got: Any, expected: int = expected, cards: list = cards) -> str | None:
            if not _inputs.is_whole(got):
                return f"{name} should return a whole number; {_words.there_are(expected, 'SET')}."
            if got == expected:
                return None
            if got == 3 * expected and expected:
                return (
                    f"{_words.there_are(expected, 'SET')}: each SET was counted three times "
                    "(once from each of its pairs). Divide, or count only pairs whose third card comes later."
                )
            if got == 6 * expected and expected:
                there = _words.there_are(expected, "SET")
                return f"{there}: each SET was counted six times (once per ordered pair)."
            return f"{_words.there_are(expected, 'SET')} among these {len(cards)} cards."

        # A copy per call, so a function that changes its list cannot spoil later cases.
        cases.append(Case((list(cards),), table_label(name, cards, what), judge))
    cases.append(_pairs_case(name, func))
    return run(name, func, cases, seconds)


def _pairs_case(name: str, func: Callable) -> Case:
    """The last case: on the full deck, ``third_card`` is called at most once per ordered pair."""
    deck = full_deck()
    pairs = len(deck) * (len(deck) - 1) // 2

    def run_counted(cards: list[Card]) -> int | None:
        return count_calls(func, (cards,))

    def judge(calls: int | None) -> str | None:
        if calls is None:  # no third_card beside it: nothing to count
            return None
        if calls == 0:
            return (
                f"{name} gives the right numbers but never calls third_card (or third_card_mod3). "
                "The exercise asks you to count pair by pair: for each pair, ask third_card for the "
                "card that completes it."
            )
        if calls > 2 * pairs:
            return (
                f"{name}(full_deck()) called third_card {calls} times, but the 81 cards make only "
                f"{pairs} pairs. Trying every triple is O(n^3): check each pair once and look its "
                "third card up in a Python set."
            )
        return None

    return Case((deck,), f"{name}(full_deck()), counting its calls of third_card", judge, call=run_counted)
