"""Instant checks for exercise 2, the third card: :func:`check_third_card`, :func:`check_third_vector`
and :func:`check_count_sets`.

In the exercise notebook, after writing ``third_card`` (or ``third_card_mod3``), ``third_vector``
and ``count_sets``::

    from setwidgets.checks import check_count_sets, check_third_card, check_third_vector
    check_third_card(third_card)
    check_third_vector(third_vector)
    check_count_sets(count_sets)

``check_third_vector`` judges each answer as the graded tests do (vectors of the same kinds, the
same rule: a tuple of the numbers 0, 1 and 2, read as plain data). ``check_count_sets`` also counts, on
the full deck, how often your ``count_sets`` calls ``third_card`` (:func:`third_card_calls`, which
counts the calls however your function reaches ``third_card``): the pair-by-pair method needs at
most one call per pair. That count is advice for you; the graded tests count nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from types import FunctionType
from typing import Any

from setwidgets import _inputs, _words
from setwidgets.cards import FEATURES, Card, full_deck, mini_deck
from setwidgets.checks.runner import (
    DEFAULT_SECONDS,
    HELPER_NAMES,
    Case,
    CheckResult,
    require_function,
    run,
    set_aside_while_graded,
    show,
    table_label,
)
from setwidgets.rules import find_sets, third_card

__all__ = ["check_count_sets", "check_third_card", "check_third_vector", "third_card_calls", "third_of"]


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
    return run(name, func, cases, seconds, "a Card")


# -- third_vector --------------------------------------------------------------------


def third_of(u: tuple[int, ...], v: tuple[int, ...]) -> tuple[int, ...]:
    """The third vector of ``u`` and ``v``: ``-(u + v) mod 3``, number by number."""
    return tuple((-x - y) % 3 for x, y in zip(u, v))


def _vector_pairs() -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The cards' vectors of the notebook's examples, random cards, then vectors of 1 to 6 numbers."""
    codes = [("1RSO", "2RSO"), ("3POD", "3POS"), ("3PTD", "3RTD"), ("1RSO", "2GTS")]
    pairs = [(Card.parse(x).vector, Card.parse(y).vector) for x, y in codes]
    pairs += [((0,), (1,)), ((2, 2), (2, 0)), ((0, 1, 2, 0, 1, 2), (1, 1, 1, 2, 2, 2))]
    rng = random.Random(43)
    pairs += [tuple(card.vector for card in rng.sample(full_deck(), 2)) for _ in range(40)]
    while len(pairs) < 80:
        length = rng.randint(1, 6)
        u, v = (tuple(rng.randrange(3) for _ in range(length)) for _ in range(2))
        if u != v:
            pairs.append((u, v))
    return pairs


def _same_vector(got: Any, expected: tuple[int, ...]) -> bool:
    """The graded tests' equality (``setwidgets.grading.judge.same``) for a tuple of whole numbers."""
    return (
        type(got) is tuple
        and len(got) == len(expected)
        and all(type(x) in (int, Fraction) and x == w for x, w in zip(got, expected))
    )


def _why_vector(u: tuple[int, ...], v: tuple[int, ...], got: Any, expected: tuple[int, ...]) -> str:
    """What is wrong with ``got``, seen as the grader sees it (plain data), in one sentence."""
    head = f"the third vector is {expected}: number by number, -(x + y) % 3"
    if type(got) is list:
        return f"{head}; return a tuple, as a.vector is (tuple(...) turns a list into one)."
    if type(got) is not tuple or len(got) != len(u):
        return f"{head}, a tuple of {len(u)} numbers, one for each number of the two vectors."
    if all(type(x) is int for x in got) and all((x - w) % 3 == 0 for x, w in zip(got, expected)):
        return (
            f"{head}. Your numbers are right mod 3 but not all 0, 1 or 2: take each one % 3 "
            "(Card.from_vector would forgive that, third_vector does not)."
        )
    if len(u) != 4:
        return f"{head}, for vectors of any length ({len(u)} numbers here), not only a card's 4."
    return f"{head}."


@set_aside_while_graded
def check_third_vector(
    func: Callable[[tuple[int, ...], tuple[int, ...]], tuple[int, ...]],
    seconds: float | None = DEFAULT_SECONDS,
) -> CheckResult:
    """Check your ``third_vector(u, v)`` on eighty pairs of different vectors.

    ``u`` and ``v`` are tuples of the numbers 0, 1 and 2, of the same length: a card's vector
    (4 numbers) or any other length, 1 to 6 here. It should return the tuple whose numbers
    are ``-(x + y) % 3``, each 0, 1 or 2. Each answer is judged as the graded tests judge it.
    """
    name = require_function("third_vector", func)
    cases = []
    for u, v in _vector_pairs():
        expected = third_of(u, v)

        def judge(got: Any, u: tuple = u, v: tuple = v, expected: tuple = expected) -> str | None:
            # ``got`` is already as the grader reads it (runner.graded): numpy's numbers made plain.
            return None if _same_vector(got, expected) else _why_vector(u, v, got, expected)

        cases.append(Case((u, v), f"{name}({u}, {v})", judge))
    return run(name, func, cases, seconds, "a tuple of the numbers 0, 1 and 2")


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
    return run(name, func, cases, seconds, "a whole number (an int)")


def _helpers(func: Callable) -> list[FunctionType]:
    """The functions named ``third_card`` and ``third_card_mod3`` where ``func`` was defined."""
    namespace = getattr(func, "__globals__", None)
    if not isinstance(namespace, dict):
        return []
    found: list[FunctionType] = []
    for name in HELPER_NAMES:
        helper = namespace.get(name)
        if type(helper) is FunctionType and helper not in found:
            found.append(helper)
    return found


def _counted(*args: Any, _calls: list[int], _original: Callable, **kwargs: Any) -> Any:
    """The body a helper runs while its calls are counted: count the outermost call, then the helper.

    ``_calls`` is [calls, depth]: a helper that calls the other (``third_card_mod3`` calling
    ``third_card``) counts once.
    """
    if _calls[1] == 0:
        _calls[0] += 1
    _calls[1] += 1
    try:
        return _original(*args, **kwargs)
    finally:
        _calls[1] -= 1


def third_card_calls(func: Callable, args: tuple) -> int | None:
    """Run ``func(*args)`` and count its calls of ``third_card`` (or ``third_card_mod3``).

    The helpers are the functions named so where ``func`` was defined (the notebook). While
    ``func`` runs, each helper *function object* runs a counting body (its ``__code__`` is
    swapped, then put back), so every call is counted however ``func`` reaches it: by name,
    under another name, as a default argument (``def f(cards, third=third_card)``), through a
    closure or a list. A helper that calls the other counts once. None when neither helper is
    defined there as a plain Python function.

    This counts in the notebook's own process: it is advice for the student. The graded tests
    never count calls (a notebook could forge any count made in its kernel).
    """
    helpers = _helpers(func)
    if not helpers:
        return None
    calls = [0, 0]
    saved = []
    try:
        for helper in helpers:
            if helper.__closure__:  # its code cannot be swapped for one without free variables
                continue
            original = FunctionType(
                helper.__code__, helper.__globals__, helper.__name__, helper.__defaults__, None
            )
            original.__kwdefaults__ = helper.__kwdefaults__
            saved.append((helper, helper.__code__, helper.__defaults__, helper.__kwdefaults__))
            helper.__code__ = _counted.__code__
            helper.__defaults__ = None
            helper.__kwdefaults__ = {"_calls": calls, "_original": original}
        if not saved:
            return None
        func(*args)
    finally:
        for helper, code, defaults, kwdefaults in saved:
            helper.__code__, helper.__defaults__, helper.__kwdefaults__ = code, defaults, kwdefaults
    return calls[0]


def _pairs_case(name: str, func: Callable) -> Case:
    """The last case: on the full deck, ``third_card`` is called at most once per ordered pair."""
    deck = full_deck()
    pairs = len(deck) * (len(deck) - 1) // 2

    def run_counted(cards: list[Card]) -> int | None:
        return third_card_calls(func, (cards,))

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
