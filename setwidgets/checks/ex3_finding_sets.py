"""Instant checks for exercise 3, finding SETs: :func:`check_first_set` and :func:`check_all_sets`.

In the exercise notebook, after writing ``first_set`` and ``all_sets``::

    from setwidgets.checks import check_all_sets, check_first_set
    check_first_set(first_set)
    check_all_sets(all_sets)

Both run on small tables (each with one idea), seeded deals of 6 to 21 cards and whole decks.
Last, on the full deck, they count your calls of ``third_card`` (when it is defined beside
your function), however your function reaches it
(:func:`setwidgets.checks.ex2_third_card.third_card_calls`): the pairs method asks once per
pair, and ``first_set`` stops at the first SET. The count is advice for you; the graded tests
count nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from setwidgets.cards import Card, full_deck
from setwidgets.checks.ex2_third_card import third_card_calls
from setwidgets.checks.runner import (
    DEFAULT_SECONDS,
    Case,
    CheckResult,
    codes,
    deal_tables,
    is_triple,
    never_calls_third_card,
    require_function,
    run,
    set_aside_while_graded,
    sets_problem,
    table_label,
)
from setwidgets.rules import find_sets

__all__ = ["check_all_sets", "check_first_set"]


@set_aside_while_graded
def check_first_set(
    func: Callable[[list[Card]], Any], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``first_set(cards)`` on small tables, deals of 6 to 21 cards and whole decks.

    It should return the first SET met when the pairs are tried in order (the
    first card with each later card, then the second with each later card, ...):
    a tuple of three cards in the order of the list, or None when there is no SET.
    Last, on the full deck, it counts your calls of ``third_card`` (when it is
    defined beside your function): the first SET there is the first three cards,
    so one call is enough.
    """
    name = require_function("first_set", func)
    cases = []
    for cards in deal_tables():
        sets = find_sets(cards)
        expected = sets[0] if sets else None

        def judge(got: Any, expected: Any = expected, sets: list = sets) -> str | None:
            if expected is None:
                return None if got is None else "there is no SET among these cards, so the answer is None."
            if not is_triple(got):
                return f"{name} should return a tuple of three cards, ({codes(expected)}), or None."
            if got == expected:
                return None
            if got in sets:
                return (
                    f"that SET is not the first: try the pairs in order, the first card "
                    f"with each later card first, and the first SET met is ({codes(expected)})."
                )
            if set(got) == set(expected):
                return f"those are the right cards; give them in the order of the list: ({codes(expected)})."
            return f"the first SET is ({codes(expected)})."

        cases.append(Case((list(cards),), table_label(name, cards), judge))
    cases.append(_calls_case(name, func, "first_set", lambda n: 1))
    return run(name, func, cases, seconds, "a tuple of three Cards, or None")


@set_aside_while_graded
def check_all_sets(func: Callable[[list[Card]], Any], seconds: float | None = DEFAULT_SECONDS) -> CheckResult:
    """Check your ``all_sets(cards)`` on small tables, deals of 6 to 21 cards and whole decks.

    It should return every SET among the cards, each once, as a list of tuples
    of three cards in the order of the list, in the order the pairs are tried.
    Last, on the full deck, it counts your calls of ``third_card``: one per pair
    (3240) is enough.
    """
    name = require_function("all_sets", func)
    cases = []
    for cards in deal_tables():
        expected = find_sets(cards)

        def judge(got: Any, expected: list = expected) -> str | None:
            return sets_problem(
                got,
                expected,
                wrong_type=f"{name} should return a list of tuples of three cards",
                repeats=3,
                repeated=(
                    "each SET was listed three times, once from each of its pairs. "
                    "Keep a SET only when its third card comes after the pair."
                ),
                order="not in the order the pairs are tried",
                inside="write the cards of each in the order of the list.",
            )

        cases.append(Case((list(cards),), table_label(name, cards), judge))
    cases.append(_calls_case(name, func, "all_sets", lambda n: n * (n - 1) // 2))
    return run(name, func, cases, seconds, "a list of tuples of three Cards")


def _calls_case(name: str, func: Callable, exercise: str, most: Callable[[int], int]) -> Case:
    """The last case: on the full deck, at most ``most(81)`` calls of ``third_card``."""
    deck = full_deck()

    def judge(calls: int | None) -> str | None:
        if calls is None:
            return None
        if calls == 0:
            return never_calls_third_card(name)
        if calls > most(len(deck)):
            if exercise == "first_set" and calls <= len(deck) - 2:
                # Fewer calls than the first card has pairs: it stopped, but asked again for a pair.
                return (
                    f"{name}(full_deck()) called third_card {calls} times, though its first pair already "
                    "makes a SET with the third card: ask third_card once per pair and keep its answer "
                    "in a variable."
                )
            if exercise == "first_set":
                return (
                    f"{name}(full_deck()) called third_card {calls} times, but its first pair already "
                    "makes a SET with the third card: stop (return) as soon as you find one."
                )
            return (
                f"{name}(full_deck()) called third_card {calls} times, but the 81 cards make only "
                f"{most(len(deck))} pairs: ask once per pair (i < j), and look the third card up in a "
                "dict from card to position."
            )
        return None

    return Case(
        (deck,),
        f"{name}(full_deck()), counting its calls of third_card",
        judge,
        call=lambda cards: third_card_calls(func, (cards,)),
    )
