"""Instant checks for exercise 1, the magic rule: :func:`check_is_set` and :func:`check_odd_one_out`.

In the exercise notebook, after writing ``is_set``::

    from setwidgets.checks import check_is_set
    check_is_set(is_set)

Each check calls your function on about sixty triples of cards (a dozen hand-picked ones, each
with one idea, then seeded random ones), stops at the first it gets wrong and says why.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from setwidgets import _words
from setwidgets.cards import FEATURES, Card, full_deck
from setwidgets.checks.runner import (
    DEFAULT_SECONDS,
    Case,
    CheckResult,
    codes,
    require_function,
    run,
    set_aside_while_graded,
)
from setwidgets.rules import FeatureVerdict, explain, third_card

__all__ = ["check_is_set", "check_odd_one_out"]


# -- is_set -------------------------------------------------------------------------


def _set_triples(rng: random.Random, count: int) -> list[tuple[Card, Card, Card]]:
    """Random SETs: a random pair and the card that completes it."""
    deck = full_deck()
    triples = []
    for _ in range(count):
        a, b = rng.sample(deck, 2)
        triple = [a, b, third_card(a, b)]
        rng.shuffle(triple)
        triples.append(tuple(triple))
    return triples


def _example_triples() -> list[tuple[Card, Card, Card]]:
    """Hand-picked triples first (one idea each), then seeded random ones."""
    picked = [
        ("1RSO", "2RSO", "3RSO"),  # only the number changes: a SET
        ("1RSO", "2GTS", "3POD"),  # everything different: a SET
        ("2GTS", "2GTD", "2GTO"),  # only the shape changes: a SET
        ("1RSO", "2RSO", "2RSO"),  # the same card twice
        ("3POD", "3POD", "3POD"),  # the same card three times
        ("1RSO", "1RSO", "1RTO"),  # the same card twice, and a card that differs in one feature
        ("1RSO", "2RSO", "2PSO"),  # two and one in number and in color
        ("1RSO", "2RSO", "3PSO"),  # two are red and one is purple
        ("1RSO", "2GSO", "3PSS"),  # two are ovals and one is a squiggle
        ("1RSO", "2GSO", "3PTO"),  # two are solid and one is striped
        ("1RSO", "1GTS", "2POD"),  # two have one symbol and one has two symbols
        ("1RSO", "1RSS", "1RSS"),  # repeated, and shapes two and one
    ]
    triples = [tuple(Card.parse(code) for code in triple) for triple in picked]
    rng = random.Random(2024)
    deck = full_deck()
    triples += _set_triples(rng, 20)
    triples += [tuple(rng.sample(deck, 3)) for _ in range(29)]
    return triples


def _why_set(cards: tuple[Card, Card, Card]) -> str:
    verdict = explain(*cards)
    if verdict.is_set:
        return str(verdict)[len("A SET: ") :].rstrip(".") + ": that is a SET."
    return str(verdict)[len("Not a SET: ") :].rstrip(".") + ": that is not a SET."


@set_aside_while_graded
def check_is_set(
    func: Callable[[Card, Card, Card], bool], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``is_set(a, b, c)`` on about sixty triples of cards.

    It should return True exactly when the three cards are different and, in
    each feature, the three values are all the same or all different. Prints
    the first case it gets wrong, with the reason, and returns a CheckResult.
    ``seconds`` limits how long the whole check may run.
    """
    name = require_function("is_set", func)
    cases = []
    for cards in _example_triples():
        expected = explain(*cards).is_set

        def judge(got: Any, expected: bool = expected, cards: tuple = cards) -> str | None:
            if not isinstance(got, bool):
                return f"{name} should return True or False (a bool), not {type(got).__name__}."
            if got == expected:
                return None
            if len(set(cards)) < 3:
                return (
                    "the same card appears more than once: three cards that are not all different "
                    "are never a SET."
                )
            return _why_set(cards)

        cases.append(Case(cards, f"{name}({codes(cards)})", judge))
    return run(name, func, cases, seconds, "True or False (a bool)")


# -- odd_one_out ----------------------------------------------------------------------


def _first_broken(cards: tuple[Card, Card, Card]) -> FeatureVerdict | None:
    return next((f for f in explain(*cards).features if not f.ok), None)


def _describe(feature: FeatureVerdict) -> str:
    values = ", ".join(str(v) for v in feature.values)
    if feature.kind == "same":
        return f"the {_words.plural(feature.feature)} are all the same ({values})"
    if feature.kind == "different":
        return f"the {_words.plural(feature.feature)} are all different ({values})"
    return f"{feature} ({values})"


@set_aside_while_graded
def check_odd_one_out(
    func: Callable[[Card, Card, Card], str | None], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``odd_one_out(a, b, c)`` on about sixty triples of cards.

    It should return the name of the first feature, in the order of
    ``FEATURES`` (number, color, shape, shading), in which two cards are alike
    and one is not; and None when there is no such feature (for three
    different cards: when they form a SET).
    """
    name = require_function("odd_one_out", func)
    cases = []
    for cards in _example_triples():
        broken = _first_broken(cards)
        expected = None if broken is None else broken.feature

        def judge(got: Any, expected: str | None = expected, cards: tuple = cards) -> str | None:
            if got == expected:
                return None
            if expected is None:
                return f"no feature breaks the rule ({_why_set(cards)[:-1]}), so the answer is None."
            first = _first_broken(cards)
            reason = f"in {expected}, {first}, so the answer is {expected!r}."
            if got in FEATURES:
                said = next(f for f in explain(*cards).features if f.feature == got)
                if said.ok:
                    return f"{_describe(said)}, which obeys the rule; {reason}"
                return (
                    f"{expected!r} comes before {got!r} in FEATURES and breaks the rule too: "
                    f"{first}. Return the first broken feature."
                )
            if got is None:
                return f"these cards are not a SET: {reason}"
            return f"{name} should return a feature name (one of {FEATURES}) or None; {reason}"

        cases.append(Case(cards, f"{name}({codes(cards)})", judge))
    return run(name, func, cases, seconds, f"a feature name (one of {FEATURES}) or None")
