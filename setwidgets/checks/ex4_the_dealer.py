"""Instant checks for exercise 4, the dealer: the rules of the table, checked against the game engine.

In the exercise notebook, after writing ``take_set``, ``no_set``, ``competition_no_set``,
``game_over`` and ``play_solitaire``::

    from setwidgets.checks import check_take_set
    check_take_set(take_set)

The expected answers are the moves of the package's own engine in seeded games
(:func:`engine_moves`, and :func:`competition_by_engine` for the competition rule on any
table). Tables and decks are long: a message names them by their sizes, not card by card.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from setwidgets import _words
from setwidgets.cards import Card, full_deck
from setwidgets.checks.runner import (
    DEFAULT_SECONDS,
    CheckResult,
    codes,
    is_table_and_deck,
    is_triple,
    require_function,
    run,
    set_aside_while_graded,
    short_case,
)
from setwidgets.rules import find_sets

__all__ = [
    "check_competition_no_set",
    "check_game_over",
    "check_no_set",
    "check_play_solitaire",
    "check_take_set",
    "competition_by_engine",
    "engine_moves",
]

TABLE_AND_DECK = "a tuple (table, deck) of two lists of Cards"
# The lists a dealer's function is given: the graded tests fail a function that changes them.
GIVEN = ("table", "deck")


def engine_moves(
    variant: str, seed: int, game_class: type | None = None, finder: Callable | None = None
) -> list[dict]:
    """Every move of one seeded game played by the engine, always taking the first SET.

    Each move is a dict: ``kind`` ("take" or "no_set"), the ``table`` and
    ``deck`` before, the ``cards`` taken, the ``rng`` state before a "no SET"
    (which the competition rule needs), the ``after`` table and deck, and
    ``over`` and ``lost``. ``dealt`` lists the cards the online rule dealt on its
    own after the move (a first move of kind "start" holds those of the first
    deal). The hidden tests pass the engine and the SET finder they captured
    before any student code ran.
    """
    from setwidgets.game import Game
    from setwidgets.rules import first_set

    game_class = game_class or Game
    finder = finder or first_set
    g = game_class(variant=variant, seed=seed, claim_seconds=None, clock=lambda: 0.0)
    seen = 0

    def dealt_since() -> list[Card]:
        nonlocal seen
        history = g.history
        cards = [Card.parse(c) for e in history[seen:] if e["type"] == "deal" for c in e["cards"]]
        seen = len(history)
        return cards

    moves: list[dict] = [{"kind": "start", "after": (g.table, g.deck), "dealt": dealt_since()}]
    while not g.over:
        table, deck = g.table, g.deck
        cards = finder(table)
        move: dict[str, Any] = {"table": table, "deck": deck}
        if cards is None:
            move.update(kind="no_set", rng=g._state.rng.getstate())
            g.no_set()
        else:
            move.update(kind="take", cards=tuple(cards))
            g.claim(cards)
        move.update(after=(g.table, g.deck), over=g.over, lost=g.lost, dealt=dealt_since())
        moves.append(move)
    return moves


def _dealer_label(name: str, table: list[Card], deck: list[Card], *more: str) -> str:
    return (
        f"{name}(<{_words.count(len(table), 'card')} on the table>, <{len(deck)} in the deck>{''.join(more)})"
    )


def _table_and_deck_judge(
    name: str, expected: tuple[list[Card], list[Card]], why: str
) -> Callable[[Any], str | None]:
    def judge(got: Any) -> str | None:
        if not is_table_and_deck(got):
            return f"{name} should return a tuple (table, deck) of two lists of cards."
        table, deck = got
        if (table, deck) == expected:
            return None
        want_table, want_deck = expected
        if len(table) != len(want_table):
            return f"the table should hold {_words.count(len(want_table), 'card')}, not {len(table)}: {why}."
        if table != want_table:
            at = next(p for p, (x, y) in enumerate(zip(table, want_table)) if x != y)
            if set(table) == set(want_table):
                return (
                    f"the right cards on the table, but in another order: "
                    f"at position {at} should be {want_table[at]}: {why}."
                )
            return f"position {at} of the table should hold {want_table[at]}, not {table[at]}: {why}."
        return (
            f"the table is right, but the deck should hold {_words.count(len(want_deck), 'card')}, "
            f"starting {codes(want_deck[:3])}: {why}."
        )

    return judge


def _moves(variant: str, seeds: Sequence[int]) -> Iterator[dict]:
    for seed in seeds:
        yield from engine_moves(variant, seed)


@set_aside_while_graded
def check_take_set(func: Callable[..., Any], seconds: float | None = DEFAULT_SECONDS) -> CheckResult:
    """Check your ``take_set(table, deck, cards)`` on the SETs taken in a few seeded games.

    It should return the new ``(table, deck)``: at 12 cards or fewer, the top
    cards of the deck go where the SET was (while the deck lasts); above 12,
    nothing is dealt and the last cards move into the gaps.
    """
    name = require_function("take_set", func)
    cases = []
    for move in [m for m in _moves("standard", (1, 2, 3)) if m["kind"] == "take"]:
        table, deck = move["table"], move["deck"]
        if len(table) > 12:
            why = (
                "above 12 cards no card is dealt; the last cards on the table move into the gaps "
                "before the new end"
            )
        elif not deck:
            why = "the deck is empty, so nothing is dealt; the last cards on the table move into the gaps"
        else:
            why = "at 12 cards the top three cards of the deck go where the SET was, in the order of the gaps"
        cases.append(
            short_case(
                func,
                (list(table), list(deck), move["cards"]),
                _dealer_label(name, table, deck, f", ({codes(move['cards'])})"),
                _table_and_deck_judge(name, move["after"], why),
                GIVEN,
            )
        )
    return run(name, func, cases, seconds, TABLE_AND_DECK)


@set_aside_while_graded
def check_no_set(func: Callable[..., Any], seconds: float | None = DEFAULT_SECONDS) -> CheckResult:
    """Check your ``no_set(table, deck, online=False)`` on tables without a SET from seeded games.

    Standard rules: three more cards at the end of the table. With
    ``online=True``: three at a time until the table holds a SET or the deck is
    empty.
    """
    name = require_function("no_set", func)
    cases = []
    for move in [m for m in _moves("standard", range(1, 8)) if m["kind"] == "no_set"]:
        table, deck = move["table"], move["deck"]
        why = "the standard rule lays out the top three cards of the deck at the end of the table"
        cases.append(
            short_case(
                func,
                (list(table), list(deck)),
                _dealer_label(name, table, deck),
                _table_and_deck_judge(name, move["after"], why),
                GIVEN,
            )
        )
    for move in [m for m in _moves("online", range(1, 8)) if m["dealt"] and m["kind"] != "start"]:
        after_table, after_deck = move["after"]
        table, deck = after_table[: -len(move["dealt"])], move["dealt"] + after_deck
        why = (
            f"online, three at a time are dealt until the table holds a SET: here {len(move['dealt'])} cards"
        )
        cases.append(
            short_case(
                func,
                (list(table), list(deck), True),
                _dealer_label(name, table, deck, ", online=True"),
                _table_and_deck_judge(name, move["after"], why),
                GIVEN,
            )
        )
    return run(name, func, cases, seconds, TABLE_AND_DECK)


def competition_by_engine(
    table: list[Card], deck: list[Card], state: tuple, game_class: type | None = None
) -> tuple[list[Card], list[Card]]:
    """The engine's competition rule on any ``table`` and ``deck``, its generator in ``state``.

    The rule does not look for a SET itself (the game does, before it applies
    the rule), so 15 cards from any deal show what it does with them.
    """
    from setwidgets.game import Game

    g = (game_class or Game)(variant="competition", seed=0, claim_seconds=None, clock=lambda: 0.0)
    g._state.table, g._state.deck = list(table), list(deck)
    g._state.rng.setstate(state)
    g._rules.no_set(g._dealer)
    return g.table, g.deck


def _competition_cases(seeds: Iterable[int], game_class: type | None = None) -> list[tuple]:
    """(table, deck, generator state, expected) for 12 and 15 cards, from seeded deals."""
    cases = []
    for seed in seeds:
        rng = random.Random(seed)
        cards = rng.sample(full_deck(), 81)
        for size in (12, 15):
            table, deck = cards[:size], cards[size:]
            state = random.Random(seed * 1000 + size).getstate()
            cases.append((table, deck, state, competition_by_engine(table, deck, state, game_class)))
    return cases


@set_aside_while_graded
def check_competition_no_set(
    func: Callable[..., Any], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``competition_no_set(table, deck, rng)`` on the tables without a SET of seeded games.

    Below 15 cards: three more. At 15: six chosen with ``rng.sample`` go back to
    the end of the deck, ``rng.shuffle`` shuffles it, three new cards fill the
    first three gaps and the last cards move into the other three.
    """
    name = require_function("competition_no_set", func)
    cases = []
    found = [m for m in _moves("competition", range(1, 6)) if m["kind"] == "no_set"]
    for table, deck, state, after in [
        (m["table"], m["deck"], m["rng"], m["after"]) for m in found
    ] + _competition_cases(range(8)):
        rng = random.Random()
        rng.setstate(state)
        if len(table) < 15:
            why = "below 15 cards, three more are dealt at the end of the table, as in the standard rules"
        else:
            why = (
                "at 15 cards: positions = sorted(rng.sample(range(15), 6)); those cards go to the end of "
                "the deck; rng.shuffle(deck); the top three fill the first three gaps, and the last cards "
                "move into the other three"
            )
        cases.append(
            short_case(
                func,
                (list(table), list(deck), rng),
                _dealer_label(name, table, deck, ", rng"),
                _table_and_deck_judge(name, after, why),
                GIVEN,
            )
        )
    return run(name, func, cases, seconds, TABLE_AND_DECK)


@set_aside_while_graded
def check_game_over(func: Callable[..., Any], seconds: float | None = DEFAULT_SECONDS) -> CheckResult:
    """Check your ``game_over(table, deck)``: True exactly when no SET can be made from the cards left."""
    name = require_function("game_over", func)
    parse = Card.parse
    states = [
        ([], []),
        ([parse(c) for c in ["1RSO", "2RSO", "3RSO"]], []),
        ([parse(c) for c in ["1RSO", "2RSO", "3PSO"]], []),
        ([parse(c) for c in ["1RSO", "2RSO"]], [parse("3RSO")]),
        ([parse(c) for c in ["1RSO", "2RSO"]], [parse("3PSO")]),
    ]
    for move in list(_moves("standard", (1, 2)))[-12:]:
        states.append(move["after"])
    cases = []
    for table, deck in states:
        expected = not find_sets(table + deck)

        def judge(got: Any, expected: bool = expected, table: list = table, deck: list = deck) -> str | None:
            if type(got) is not bool:
                return f"{name} should return True or False (a bool), not {type(got).__name__}."
            if got == expected:
                return None
            if expected:
                return "no SET can be made from the cards on the table and in the deck: the game is over."
            where = (
                "on the table"
                if find_sets(table)
                else "among the cards on the table and in the deck together"
            )
            return f"a SET can still be made {where}, so the game goes on."

        cases.append(
            short_case(func, (list(table), list(deck)), _dealer_label(name, table, deck), judge, GIVEN)
        )
    return run(name, func, cases, seconds, "True or False (a bool)")


@set_aside_while_graded
def check_play_solitaire(func: Callable[[int], Any], seconds: float | None = DEFAULT_SECONDS) -> CheckResult:
    """Check your ``play_solitaire(seed)`` against the engine's solitaire games for a few seeds.

    It should return ``(sets, table, lost)``: the SETs taken in order, the cards
    left on the table and whether the game was lost.
    """
    name = require_function("play_solitaire", func)
    cases = []
    for seed in range(1, 9):
        moves = engine_moves("solitaire", seed)
        expected = (
            [m["cards"] for m in moves if m["kind"] == "take"],
            moves[-1]["after"][0],
            moves[-1]["lost"],
        )

        def judge(got: Any, expected: tuple = expected) -> str | None:
            sets, table, lost = expected
            if not (type(got) is tuple and len(got) == 3):
                return f"{name} should return a tuple (sets, table, lost)."
            got_sets, got_table, got_lost = got
            if type(got_sets) is not list or not all(is_triple(s) for s in got_sets):
                return "sets should be a list of tuples of three cards, the SETs taken in order."
            if got_sets != sets:
                turn = next(
                    (k for k, (x, y) in enumerate(zip(got_sets, sets)) if x != y),
                    min(len(got_sets), len(sets)),
                )
                want = f"({codes(sets[turn])})" if turn < len(sets) else "nothing: the game is over"
                return f"SET number {turn + 1} taken should be {want}; the engine took {len(sets)} in all."
            if type(got_table) is not list or got_table != table:
                return f"the table at the end should be {codes(table)}."
            if type(got_lost) is not bool or got_lost != lost:
                left = _words.count(len(table), "card")
                return f"lost should be {lost}: the game ends with {left} and no SET."
            return None

        cases.append(short_case(func, (seed,), f"{name}({seed})", judge))
    return run(name, func, cases, seconds, "a tuple (sets, table, lost)")
