"""Instant checks for exercise 5, planes: :func:`check_plane`, :func:`check_magic_square` and
:func:`check_lines_through`.

In the exercise notebook, after writing ``plane``, ``magic_square`` and ``lines_through``::

    from setwidgets.checks import check_lines_through, check_magic_square, check_plane
    check_plane(plane)

The expected planes, squares and lines come from :mod:`setwidgets.geometry`
(:func:`~setwidgets.geometry.magic_square` and :func:`~setwidgets.geometry.lines_through`).
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable
from typing import Any

from setwidgets.cards import Card, full_deck, mini_deck
from setwidgets.checks.runner import (
    DEFAULT_SECONDS,
    Case,
    CheckResult,
    codes,
    count_calls,
    require_function,
    run,
    set_aside_while_graded,
    sets_problem,
    table_label,
)
from setwidgets.geometry import lines_through, magic_square
from setwidgets.rules import third_card

__all__ = ["check_lines_through", "check_magic_square", "check_plane"]


def _square_lines(square: list[list[Card]]) -> list[tuple[str, tuple[Card, Card, Card]]]:
    """The 8 rows, columns and diagonals of a 3 x 3 square, each with the words that name it."""
    lines = [(f"row {i + 1}", tuple(square[i])) for i in range(3)]
    lines += [(f"column {j + 1}", tuple(square[i][j] for i in range(3))) for j in range(3)]
    lines.append(("the diagonal from the top left", tuple(square[k][k] for k in range(3))))
    lines.append(("the diagonal from the top right", tuple(square[k][2 - k] for k in range(3))))
    return lines


def _triples(rng: random.Random, count: int) -> list[tuple[Card, Card, Card]]:
    """Random triples of different cards not in one SET."""
    deck = full_deck()
    triples: list[tuple[Card, Card, Card]] = []
    while len(triples) < count:
        a, b, c = rng.sample(deck, 3)
        if third_card(a, b) != c:
            triples.append((a, b, c))
    return triples


def _no_plane_cases(name: str) -> list[Case]:
    """Three cards in one SET, and a card given twice: no plane, a ValueError."""
    parse = Card.parse
    collinear = "three cards in one SET lie on a line, not in a plane (check whether c is third_card(a, b))"
    twice = "a plane needs three different cards"
    cases = []
    for given, hint in [
        (("1RSO", "2RSO", "3RSO"), collinear),
        (("1RSO", "2GTS", "3POD"), collinear),
        (("3POD", "1RSO", "2GTS"), collinear),
        (("1RSO", "1RSO", "2GTS"), twice),
        (("1RSO", "2GTS", "2GTS"), twice),
        (("2GTS", "1RSO", "2GTS"), twice),
    ]:
        cards = tuple(parse(code) for code in given)
        cases.append(
            Case(
                cards,
                f"{name}({codes(cards)})",
                lambda got: None,
                raises=ValueError,
                raises_hint=hint + ".",
                raises_message=functools.partial(_no_plane_message, cards),
            )
        )
    return cases


def _no_plane_message(cards: tuple[Card, ...], message: str) -> str | None:
    """What the ValueError's message should say and does not (the graded tests read it), or None.

    A card given twice is named by its code; three cards of one SET are said to form a SET or to
    lie on one line.
    """
    repeated = next((card for card in cards if cards.count(card) > 1), None)
    if repeated is not None:
        if repeated.code in message:
            return None
        return (
            f'its message should name the card given twice, {repeated.code} (as in f"{{a}} is given twice").'
        )
    if "SET" in message or "line" in message:
        return None
    return "its message should say that the three cards form a SET (or lie on one line)."


def _plane_triples() -> list[tuple[Card, Card, Card]]:
    parse = Card.parse
    fixed = [("1RSO", "2RSO", "1GSO"), ("1RSO", "2GTS", "1RSS"), ("3POD", "1RSO", "2RSO")]
    return [tuple(parse(c) for c in t) for t in fixed] + _triples(random.Random(509), 25)  # type: ignore[misc]


@set_aside_while_graded
def check_plane(
    func: Callable[[Card, Card, Card], Any], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``plane(a, b, c)`` on about thirty triples of cards.

    It should return a list of the 9 different cards of the plane spanned by
    ``a``, ``b`` and ``c`` (in any order), and raise a ValueError when the three
    cards form a SET or a card is given twice.
    """
    name = require_function("plane", func)
    cases = []
    for a, b, c in _plane_triples():
        expected = {card for row in magic_square(a, b, c) for card in row}

        def judge(got: Any, given: tuple = (a, b, c), expected: set = expected) -> str | None:
            if type(got) is not list or not all(type(card) is Card for card in got):
                return f"{name} should return a list of Cards (the 9 cards of the plane)."
            if len(set(got)) != len(got):
                twice = next(card for card in got if got.count(card) > 1)
                return f"{twice} is in the list twice: each card of the plane once, 9 in all."
            missing = [card for card in given if card not in got]
            if missing:
                return (
                    f"the plane of three cards holds the three cards themselves, and {missing[0]} is missing."
                )
            if set(got) == expected:
                return None
            for x, y in itertools.combinations(got, 2):
                z = third_card(x, y)
                if z not in got:
                    return (
                        f"{x} and {y} are in your plane but their third card {z} is not: a plane holds "
                        "the third card of any two of its cards."
                    )
            return f"a plane holds 9 cards; the list has {len(got)}."

        cases.append(Case((a, b, c), f"{name}({codes((a, b, c))})", judge))
    cases += _no_plane_cases(name)
    return run(name, func, cases, seconds, "a list of the 9 Cards of the plane")


def _is_square(got: Any) -> bool:
    return (
        type(got) is list
        and len(got) == 3
        and all(
            type(row) is list and len(row) == 3 and all(type(card) is Card for card in row) for row in got
        )
    )


def _square_text(square: list[list[Card]]) -> str:
    return " / ".join(codes(row) for row in square)


@set_aside_while_graded
def check_magic_square(
    func: Callable[[Card, Card, Card], Any], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``magic_square(a, b, c)`` on about thirty triples of cards.

    It should return a list of three rows, each a list of three Cards: ``a`` at
    the top left, ``b`` beside it and ``c`` under it, so that each of the 3 rows,
    3 columns and 2 diagonals is a SET; and raise a ValueError as ``plane`` does.
    """
    name = require_function("magic_square", func)
    cases = []
    for a, b, c in _plane_triples():
        expected = magic_square(a, b, c)

        def judge(got: Any, given: tuple = (a, b, c), expected: list = expected) -> str | None:
            if not _is_square(got):
                return f"{name} should return a list of three rows, each a list of three Cards."
            if got == expected:
                return None
            a, b, c = given
            for (i, j), card, where in [
                ((0, 0), a, "a at the top left"),
                ((0, 1), b, "b beside it"),
                ((1, 0), c, "c under a"),
            ]:
                if got[i][j] != card:
                    return f"the square starts with {where}: row {i + 1}, column {j + 1} should be {card}."
            for words, line in _square_lines(got):
                if len(set(line)) < 3 or third_card(line[0], line[1]) != line[2]:
                    should = _square_text(expected)
                    return f"{words} ({codes(line)}) is not a SET; the square should be {should}."
            return f"the square should be {_square_text(expected)}."

        cases.append(Case((a, b, c), f"{name}({codes((a, b, c))})", judge))
    cases += _no_plane_cases(name)
    return run(name, func, cases, seconds, "a list of three rows, each a list of three Cards")


@set_aside_while_graded
def check_lines_through(
    func: Callable[[Card, list[Card]], Any], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``lines_through(card, cards)`` on small tables, deals and the full deck.

    It should return every SET ``(card, b, c)`` with ``b`` and ``c`` among the
    cards, ``b`` before ``c`` in the list, in the order of ``b``: a list of
    tuples of three Cards. Last, on the full deck (40 lines through any card),
    it counts your calls of ``third_card``: one for each card of the list is enough.
    """
    name = require_function("lines_through", func)
    parse = Card.parse
    problems = [
        ("1RSO", ""),
        ("1RSO", "2RSO 3RSO"),
        ("1RSO", "3RSO 2RSO"),
        ("1RSO", "2RSO 3PSO"),
        ("1RSO", "1RSO 2RSO 3RSO"),  # the card itself among the cards
        ("1RSO", "2RSO 2GTS 3RSO 3POD"),
    ]
    cases_in = [(parse(card), [parse(c) for c in others.split()]) for card, others in problems]
    rng = random.Random(510)
    deck = full_deck()
    for size in (6, 9, 12, 12, 15, 21, 40):
        table = rng.sample(deck, size)
        cases_in.append((rng.choice(deck if size < 40 else table), table))
    cases_in += [(parse("2GTS"), mini_deck()), (parse("3POD"), deck)]
    cases = []
    for card, cards in cases_in:
        expected = lines_through(card, cards)

        def judge(got: Any, expected: list = expected, card: Card = card) -> str | None:
            return sets_problem(
                got,
                expected,
                wrong_type=f"{name} should return a list of tuples of three Cards",
                where=f" through {card}",
                first=card,
                repeats=2,
                repeated="each was listed twice, from b and from c. Keep it when c comes after b.",
                order="in the order of b in the list",
                inside="write b before c in the order of the list.",
            )

        label = f"{name}({card}, {table_label('', cards)[1:-1] or '[]'})"
        cases.append(Case((card, list(cards)), label, judge))

    def judge_calls(calls: int | None) -> str | None:
        if calls is None or calls <= len(deck):
            return None
        return (
            f"{name}(3POD, full_deck()) called third_card {calls} times, but each of the 81 cards b makes "
            "one SET with 3POD at most: ask third_card(card, b) once for each b, and look the answer up in "
            "a dict from card to position."
        )

    cases.append(
        Case(
            (parse("3POD"), deck),
            f"{name}(3POD, full_deck()), counting its calls of third_card",
            judge_calls,
            call=lambda card, cards: count_calls(func, (card, cards)),
        )
    )
    return run(name, func, cases, seconds, "a list of tuples of three Cards")
