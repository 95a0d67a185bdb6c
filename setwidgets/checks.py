"""Instant checks for the exercises: run your function on examples and get a hint.

In an exercise notebook, after writing ``is_set``::

    from setwidgets.checks import check_is_set
    check_is_set(is_set)

Each check calls your function on a list of cases, stops at the first case it
gets wrong and says why in plain words, for example::

    ✗ is_set(1RSO, 2RSO, 3RSO) returned False, but all different numbers,
      same color, same shape and same shading: that is a SET.

or, when every case passes::

    ✓ is_set passed all 61 checks.

The checks are for practice and are not graded. The graded tests in the
exercise notebooks use other cases, so passing a check is a good sign, not a
promise. Every check returns a :class:`CheckResult`, which is true when all
cases passed.

Available checks: :func:`check_is_set`, :func:`check_odd_one_out`,
:func:`check_third_card` (for ``third_card`` and ``third_card_mod3``),
:func:`check_count_sets`, :func:`check_first_set`, :func:`check_all_sets`,
:func:`check_take_set`, :func:`check_no_set`, :func:`check_competition_no_set`,
:func:`check_game_over`, :func:`check_play_solitaire`; for planes :func:`check_plane`,
:func:`check_magic_square` and :func:`check_lines_through`; for probability
:func:`check_set_probability`, :func:`check_expected_sets`,
:func:`check_simulate_no_set_rate` and :func:`check_confidence_interval`; for caps
:func:`check_is_set_free`, :func:`check_greedy_cap` and :func:`check_largest_mini_cap`.

:class:`Referee` is for the visible tests of the exercises, not for students: made before any
student code runs, it keeps the package's own answers out of reach while those tests run a
student's function in the student's notebook. Grading does not rely on it: the graded tests are
judged outside the student's kernel (:mod:`setwidgets.grading.judge`).
"""

from __future__ import annotations

import functools
import inspect
import itertools
import math
import os
import random
import signal
import threading
import types
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from setwidgets import _inputs, _words
from setwidgets.cards import FEATURES, Card, full_deck, mini_deck, written
from setwidgets.grading.hide import ReferenceHidden
from setwidgets.rules import FeatureVerdict, explain, find_sets, third_card

__all__ = [
    "CheckResult",
    "Referee",
    "check_all_sets",
    "check_competition_no_set",
    "check_confidence_interval",
    "check_count_sets",
    "check_expected_sets",
    "check_first_set",
    "check_game_over",
    "check_greedy_cap",
    "check_is_set",
    "check_is_set_free",
    "check_largest_mini_cap",
    "check_lines_through",
    "check_magic_square",
    "check_no_set",
    "check_odd_one_out",
    "check_plane",
    "check_play_solitaire",
    "check_set_probability",
    "check_simulate_no_set_rate",
    "check_take_set",
    "check_third_card",
    "engine_moves",
    "no_set_tolerance",
]

DEFAULT_SECONDS = 10.0
"""How long one check may run before it reports a loop that never ends."""

_LONGEST = 10**7  # seconds (about four months)
_MISSING: Any = object()


@dataclass(frozen=True)
class CheckResult:
    """What a check found: ``passed`` (also the truth value) and the ``message`` it printed."""

    name: str
    passed: bool
    checked: int
    message: str

    def __bool__(self) -> bool:
        return self.passed

    def __str__(self) -> str:
        return self.message

    def _ipython_display_(self) -> None:
        # The check has already printed its message; a notebook shows nothing more.
        pass


@dataclass(frozen=True)
class _Case:
    """One call of the student's function and how to judge what came back."""

    args: tuple
    label: str  # how the call reads in a message, e.g. "is_set(1RSO, 2RSO, 3RSO)"
    judge: Callable[[Any], str | None]  # returns None when right, else the rest of the sentence
    raises: type[BaseException] | None = None  # the exception the call should raise instead
    raises_hint: str = ""  # why it should raise, or a hint shown when it raises unexpectedly
    call: Callable | None = None  # calls this instead of the student's function, when given


class _OutOfTime(BaseException):
    """Raised by the alarm; a BaseException, so a student's ``except Exception`` cannot swallow it."""


@contextmanager
def _time_limit(seconds: float | None) -> Iterator[None]:
    """Interrupt the block after ``seconds`` where the platform allows it (Unix, main thread)."""
    usable = (
        seconds is not None
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise _OutOfTime

    previous = signal.signal(signal.SIGALRM, on_alarm)
    # The timer cannot count beyond a few years; a longer limit is no limit for a check.
    signal.setitimer(signal.ITIMER_REAL, min(seconds, _LONGEST))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _name_of(func: Any, exercise: str) -> str:
    """The name your function goes by in messages (the exercise's name for a lambda)."""
    name = getattr(func, "__name__", "")
    return name if name.isidentifier() else exercise


def _codes(cards: Sequence[Card]) -> str:
    return ", ".join(card.code for card in cards)


def _show(value: Any) -> str:
    """How a returned value reads in a message: a card by code and name, cards inside others by code."""
    if isinstance(value, Card):
        return f"{value.code} ({value.name})"
    return written(value)


def _require_function(exercise: str, func: Any) -> str:
    """Return the function's name for messages, or refuse what is not a function."""
    if not callable(func):
        raise TypeError(
            f"check_{exercise}() needs your function itself, as in check_{exercise}({exercise}); "
            f"got {_inputs.what(func)}"
        )
    return _name_of(func, exercise)


def _run(name: str, func: Callable, cases: Sequence[_Case], seconds: float | None) -> CheckResult:
    """Call ``func`` on each case until one goes wrong; print and return the result."""
    seconds = _inputs.seconds(seconds, "seconds=")
    checked = 0
    message = ""
    case = cases[0]
    try:
        with _time_limit(seconds):
            for case in cases:
                message = _one_case(name, func, case)
                if message:
                    break
                checked += 1
    except _OutOfTime:
        message = (
            f"{case.label} did not finish within {_words.seconds(seconds)}. "
            "Look for a loop that never ends (a while loop whose condition never changes?), "
            "then run the cell that defines it again."
        )
    if message:
        result = CheckResult(name, False, checked, f"✗ {message}")
    else:
        result = CheckResult(name, True, checked, f"✓ {name} passed all {checked} checks.")
    print(result.message)
    return result


def _one_case(name: str, func: Callable, case: _Case) -> str:
    """Return '' when the case passes, else the sentence that explains what went wrong."""
    try:
        got = (case.call or func)(*case.args)
    except NotImplementedError as error:
        unwritten = _raised_in(error) or name
        uses = "" if unwritten in (name, "<lambda>") else f" ({name} calls it)"
        return (
            f"{unwritten} is not written yet{uses}: replace the line `raise NotImplementedError()` "
            "with your code, then run that cell again."
        )
    except Exception as error:
        if case.raises is not None and isinstance(error, case.raises):
            return ""
        raised = f"{case.label} raised {type(error).__name__}: {str(error).rstrip('.')}."
        if case.raises is not None:
            return f"{raised} It should raise a {case.raises.__name__}: {case.raises_hint}"
        return f"{raised} {case.raises_hint}".rstrip()
    if case.raises is not None:
        should = f"it should raise a {case.raises.__name__}: {case.raises_hint}"
        return f"{case.label} returned {_show(got)}, but {should}"
    problem = case.judge(got)
    if not problem:
        return ""
    # A case with its own call (such as counting calls) writes the whole sentence itself.
    return problem if case.call else f"{case.label} returned {_show(got)}, but {problem}"


def _raised_in(error: BaseException) -> str | None:
    """The name of the function in which the exception was raised."""
    tb = error.__traceback__
    if tb is None:
        return None
    while tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame.f_code.co_name


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
    codes = [
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
    triples = [tuple(Card.parse(code) for code in triple) for triple in codes]
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


def check_is_set(
    func: Callable[[Card, Card, Card], bool], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``is_set(a, b, c)`` on about sixty triples of cards.

    It should return True exactly when the three cards are different and, in
    each feature, the three values are all the same or all different. Prints
    the first case it gets wrong, with the reason, and returns a CheckResult.
    ``seconds`` limits how long the whole check may run.
    """
    name = _require_function("is_set", func)
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

        cases.append(_Case(cards, f"{name}({_codes(cards)})", judge))
    return _run(name, func, cases, seconds)


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


def check_odd_one_out(
    func: Callable[[Card, Card, Card], str | None], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``odd_one_out(a, b, c)`` on about sixty triples of cards.

    It should return the name of the first feature, in the order of
    ``FEATURES`` (number, color, shape, shading), in which two cards are alike
    and one is not; and None when there is no such feature (for three
    different cards: when they form a SET).
    """
    name = _require_function("odd_one_out", func)
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

        cases.append(_Case(cards, f"{name}({_codes(cards)})", judge))
    return _run(name, func, cases, seconds)


# -- third_card ----------------------------------------------------------------------


def _why_third(a: Card, b: Card, got: Any, expected: Card) -> str:
    """Name the first feature the returned card gets wrong and the rule that fixes it."""
    head = f"the third card is {_show(expected)}"
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


def check_third_card(
    func: Callable[[Card, Card], Card], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``third_card(a, b)`` (or ``third_card_mod3``) on about seventy pairs.

    It should return the one card that makes a SET with ``a`` and ``b``, and
    raise a ValueError when ``a`` and ``b`` are the same card.
    """
    name = _require_function("third_card", func)
    codes = [("1RSO", "2RSO"), ("1RSO", "3RSO"), ("2RSO", "3RSO"), ("1RSO", "1GSO"), ("2GTS", "2GTD")]
    codes += [("1RSO", "2GTS"), ("3POD", "3POD")]
    pairs = [(Card.parse(x), Card.parse(y)) for x, y in codes]
    rng = random.Random(81)
    pairs += [tuple(rng.sample(full_deck(), 2)) for _ in range(60)]
    pairs += [(card, card) for card in rng.sample(full_deck(), 3)]
    cases = []
    for a, b in pairs:
        label = f"{name}({a.code}, {b.code})"
        if a == b:
            hint = "both cards are the same, and a SET needs three different cards."
            cases.append(_Case((a, b), label, lambda got: None, raises=ValueError, raises_hint=hint))
            continue
        expected = third_card(a, b)

        def judge(got: Any, a: Card = a, b: Card = b, expected: Card = expected) -> str | None:
            return None if got == expected else _why_third(a, b, got, expected)

        cases.append(_Case((a, b), label, judge))
    return _run(name, func, cases, seconds)


# -- count_sets ----------------------------------------------------------------------

_HELPER_NAMES = ("third_card", "third_card_mod3")


def _count_helper_calls(func: Callable, cards: list[Card]) -> int | None:
    """Run ``func(cards)`` and count its calls of ``third_card`` or ``third_card_mod3``."""
    return _count_calls(func, (cards,))


def _count_calls(func: Callable, args: tuple) -> int | None:
    """Run ``func(*args)`` and count its calls of ``third_card``/``third_card_mod3``.

    The functions are looked up where ``func`` was defined (the notebook) and put
    back afterwards. Returns None when neither is defined there.
    """
    namespace = getattr(func, "__globals__", None)
    if not isinstance(namespace, dict):
        return None
    originals = {name: namespace[name] for name in _HELPER_NAMES if callable(namespace.get(name))}
    if not originals:
        return None
    calls = 0

    def counting(helper: Callable) -> Callable:
        @functools.wraps(helper)
        def counted(*args: Any, **kwargs: Any) -> Any:
            nonlocal calls
            calls += 1
            return helper(*args, **kwargs)

        return counted

    try:
        namespace.update({name: counting(helper) for name, helper in originals.items()})
        func(*args)
    finally:
        namespace.update(originals)
    return calls


def _table_label(name: str, cards: Sequence[Card], what: str = "") -> str:
    if what:
        return f"{name}({what})"
    if len(cards) <= 6:
        return f"{name}([{_codes(cards)}])"
    return f"{name}([{_codes(cards[:3])}, ... {len(cards)} cards])"


def check_count_sets(
    func: Callable[[list[Card]], int], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``count_sets(cards)`` on small tables, deals of 12 cards and whole decks.

    It should return how many SETs (each counted once) lie among the cards.
    Last, on the full deck (81 cards, 1080 SETs), it counts how often your
    function calls ``third_card`` (or ``third_card_mod3``), when one is defined
    beside it: the pair-by-pair method needs at most one call per pair.
    """
    name = _require_function("count_sets", func)
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
        cases.append(_Case((list(cards),), _table_label(name, cards, what), judge))
    cases.append(_pairs_case(name, func))
    return _run(name, func, cases, seconds)


def _pairs_case(name: str, func: Callable) -> _Case:
    """The last case: on the full deck, ``third_card`` is called at most once per ordered pair."""
    deck = full_deck()
    pairs = len(deck) * (len(deck) - 1) // 2

    def run_counted(cards: list[Card]) -> int | None:
        return _count_helper_calls(func, cards)

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

    return _Case((deck,), f"{name}(full_deck()), counting its calls of third_card", judge, call=run_counted)


# -- first_set and all_sets (exercise 3) -----------------------------------------------------


def _deal_tables() -> list[list[Card]]:
    """Small tables with one idea each, then seeded deals of every size a game sees."""
    codes = [
        "",
        "1RSO 2RSO",
        "1RSO 2RSO 3RSO",
        "1RSO 2RSO 3PSO",
        "1GTS 1RSO 2RSO 3RSO 3POD",  # two SETs; the first begins with the first card
        "1RSO 1GTS 2RSO 3POD 3RSO",  # the first SET is not the first three cards that form one
    ]
    tables = [[Card.parse(c) for c in line.split()] for line in codes]
    rng = random.Random(303)
    tables += [rng.sample(full_deck(), size) for size in (6, 9, 12, 12, 12, 12, 15, 15, 18, 21)]
    tables += [mini_deck(), full_deck()]
    return tables


def _sets_label(sets: Any) -> str:
    return "[" + ", ".join("(" + _codes(s) + ")" for s in sets) + "]"


def _is_triple(got: Any) -> bool:
    return type(got) is tuple and len(got) == 3 and all(type(c) is Card for c in got)


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
    name = _require_function("first_set", func)
    cases = []
    for cards in _deal_tables():
        sets = find_sets(cards)
        expected = sets[0] if sets else None

        def judge(got: Any, expected: Any = expected, sets: list = sets) -> str | None:
            if expected is None:
                return None if got is None else "there is no SET among these cards, so the answer is None."
            if not _is_triple(got):
                return f"{name} should return a tuple of three cards, ({_codes(expected)}), or None."
            if got == expected:
                return None
            if got in sets:
                return (
                    f"({_codes(got)}) is a SET, but not the first: try the pairs in order, the first card "
                    f"with each later card first, and the first SET met is ({_codes(expected)})."
                )
            if set(got) == set(expected):
                return f"the right cards, but give them in the order of the list: ({_codes(expected)})."
            return f"the first SET is ({_codes(expected)})."

        cases.append(_Case((list(cards),), _table_label(name, cards), judge))
    cases.append(_calls_case(name, func, "first_set", lambda n: 1))
    return _run(name, func, cases, seconds)


def check_all_sets(func: Callable[[list[Card]], Any], seconds: float | None = DEFAULT_SECONDS) -> CheckResult:
    """Check your ``all_sets(cards)`` on small tables, deals of 6 to 21 cards and whole decks.

    It should return every SET among the cards, each once, as a list of tuples
    of three cards in the order of the list, in the order the pairs are tried.
    Last, on the full deck, it counts your calls of ``third_card``: one per pair
    (3240) is enough.
    """
    name = _require_function("all_sets", func)
    cases = []
    for cards in _deal_tables():
        expected = find_sets(cards)

        def judge(got: Any, expected: list = expected) -> str | None:
            there = _words.there_are(len(expected), "SET")
            if type(got) is not list or not all(_is_triple(s) for s in got):
                return f"{name} should return a list of tuples of three cards; {there}."
            if got == expected:
                return None
            if len(got) == 3 * len(expected) and expected:
                return (
                    f"{there}: each SET was listed three times, once from each of its pairs. "
                    "Keep a SET only when its third card comes after the pair."
                )
            if sorted(got) == sorted(expected):
                first = _sets_label(expected[:3])
                return f"the right SETs, but not in the order the pairs are tried: {first}..."
            if {frozenset(s) for s in got} == {frozenset(s) for s in expected} and len(got) == len(expected):
                return "the right SETs, but write the cards of each in the order of the list."
            missing = [s for s in expected if s not in got]
            if missing:
                return f"{there}; {_sets_label(missing[:1])} is missing."
            return f"{there}; {_sets_label([s for s in got if s not in expected][:1])} should not be there."

        cases.append(_Case((list(cards),), _table_label(name, cards), judge))
    cases.append(_calls_case(name, func, "all_sets", lambda n: n * (n - 1) // 2))
    return _run(name, func, cases, seconds)


def _never_calls_third_card(name: str) -> str:
    """The hint for a pairs-method function that never asks third_card (exercises 3 and 7)."""
    return (
        f"{name} never calls third_card. The exercise asks for the pairs method: for each pair, "
        "ask third_card for the card that completes it, and look it up among the cards."
    )


def _calls_case(name: str, func: Callable, exercise: str, most: Callable[[int], int]) -> _Case:
    """The last case: on the full deck, at most ``most(81)`` calls of ``third_card``."""
    deck = full_deck()

    def judge(calls: int | None) -> str | None:
        if calls is None:
            return None
        if calls == 0:
            return _never_calls_third_card(name)
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

    return _Case(
        (deck,),
        f"{name}(full_deck()), counting its calls of third_card",
        judge,
        call=lambda cards: _count_helper_calls(func, cards),
    )


# -- the dealer (exercise 4) ---------------------------------------------------------------


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


def _is_table_and_deck(got: Any) -> bool:
    return (
        type(got) is tuple
        and len(got) == 2
        and all(type(part) is list and all(type(c) is Card for c in part) for part in got)
    )


def _dealer_label(name: str, table: list[Card], deck: list[Card], *more: str) -> str:
    return (
        f"{name}(<{_words.count(len(table), 'card')} on the table>, <{len(deck)} in the deck>{''.join(more)})"
    )


def _table_and_deck_judge(
    name: str, expected: tuple[list[Card], list[Card]], why: str
) -> Callable[[Any], str | None]:
    def judge(got: Any) -> str | None:
        if not _is_table_and_deck(got):
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
            f"starting {_codes(want_deck[:3])}: {why}."
        )

    return judge


def _short_result(got: Any) -> str:
    """A returned value in a few words: tables and decks by their sizes, not card by card."""
    if _is_table_and_deck(got):
        return f"a table of {_words.count(len(got[0]), 'card')} and a deck of {len(got[1])}"
    if type(got) is tuple and len(got) == 3 and type(got[0]) is list and type(got[1]) is list:
        return f"{_words.count(len(got[0]), 'SET')}, a table of {len(got[1])} cards and lost={got[2]!r}"
    return _inputs.short(got)


def _dealer_case(func: Callable, args: tuple, label: str, judge: Callable[[Any], str | None]) -> _Case:
    """A case whose message names the result in a few words (a whole deck would fill the screen)."""

    def whole(got: Any) -> str | None:
        problem = judge(got)
        return problem and f"{label} returned {_short_result(got)}, but {problem}"

    return _Case(args, label, whole, call=func)


def _moves(variant: str, seeds: Sequence[int]) -> Iterator[dict]:
    for seed in seeds:
        yield from engine_moves(variant, seed)


def check_take_set(func: Callable[..., Any], seconds: float | None = DEFAULT_SECONDS) -> CheckResult:
    """Check your ``take_set(table, deck, cards)`` on the SETs taken in a few seeded games.

    It should return the new ``(table, deck)``: at 12 cards or fewer, the top
    cards of the deck go where the SET was (while the deck lasts); above 12,
    nothing is dealt and the last cards move into the gaps.
    """
    name = _require_function("take_set", func)
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
            _dealer_case(
                func,
                (list(table), list(deck), move["cards"]),
                _dealer_label(name, table, deck, f", ({_codes(move['cards'])})"),
                _table_and_deck_judge(name, move["after"], why),
            )
        )
    return _run(name, func, cases, seconds)


def check_no_set(func: Callable[..., Any], seconds: float | None = DEFAULT_SECONDS) -> CheckResult:
    """Check your ``no_set(table, deck, online=False)`` on tables without a SET from seeded games.

    Standard rules: three more cards at the end of the table. With
    ``online=True``: three at a time until the table holds a SET or the deck is
    empty.
    """
    name = _require_function("no_set", func)
    cases = []
    for move in [m for m in _moves("standard", range(1, 8)) if m["kind"] == "no_set"]:
        table, deck = move["table"], move["deck"]
        why = "the standard rule lays out the top three cards of the deck at the end of the table"
        cases.append(
            _dealer_case(
                func,
                (list(table), list(deck)),
                _dealer_label(name, table, deck),
                _table_and_deck_judge(name, move["after"], why),
            )
        )
    for move in [m for m in _moves("online", range(1, 8)) if m["dealt"] and m["kind"] != "start"]:
        after_table, after_deck = move["after"]
        table, deck = after_table[: -len(move["dealt"])], move["dealt"] + after_deck
        why = (
            f"online, three at a time are dealt until the table holds a SET: here {len(move['dealt'])} cards"
        )
        cases.append(
            _dealer_case(
                func,
                (list(table), list(deck), True),
                _dealer_label(name, table, deck, ", online=True"),
                _table_and_deck_judge(name, move["after"], why),
            )
        )
    return _run(name, func, cases, seconds)


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
    g._rules.no_set(g)
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


def check_competition_no_set(
    func: Callable[..., Any], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``competition_no_set(table, deck, rng)`` on the tables without a SET of seeded games.

    Below 15 cards: three more. At 15: six chosen with ``rng.sample`` go back to
    the end of the deck, ``rng.shuffle`` shuffles it, three new cards fill the
    first three gaps and the last cards move into the other three.
    """
    name = _require_function("competition_no_set", func)
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
            _dealer_case(
                func,
                (list(table), list(deck), rng),
                _dealer_label(name, table, deck, ", rng"),
                _table_and_deck_judge(name, after, why),
            )
        )
    return _run(name, func, cases, seconds)


def check_game_over(func: Callable[..., Any], seconds: float | None = DEFAULT_SECONDS) -> CheckResult:
    """Check your ``game_over(table, deck)``: True exactly when no SET can be made from the cards left."""
    name = _require_function("game_over", func)
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

        cases.append(_dealer_case(func, (list(table), list(deck)), _dealer_label(name, table, deck), judge))
    return _run(name, func, cases, seconds)


def check_play_solitaire(func: Callable[[int], Any], seconds: float | None = DEFAULT_SECONDS) -> CheckResult:
    """Check your ``play_solitaire(seed)`` against the engine's solitaire games for a few seeds.

    It should return ``(sets, table, lost)``: the SETs taken in order, the cards
    left on the table and whether the game was lost.
    """
    name = _require_function("play_solitaire", func)
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
            if type(got_sets) is not list or not all(_is_triple(s) for s in got_sets):
                return "sets should be a list of tuples of three cards, the SETs taken in order."
            if got_sets != sets:
                turn = next(
                    (k for k, (x, y) in enumerate(zip(got_sets, sets)) if x != y),
                    min(len(got_sets), len(sets)),
                )
                want = f"({_codes(sets[turn])})" if turn < len(sets) else "nothing: the game is over"
                return f"SET number {turn + 1} taken should be {want}; the engine took {len(sets)} in all."
            if type(got_table) is not list or got_table != table:
                return f"the table at the end should be {_codes(table)}."
            if type(got_lost) is not bool or got_lost != lost:
                left = _words.count(len(table), "card")
                return f"lost should be {lost}: the game ends with {left} and no SET."
            return None

        cases.append(_dealer_case(func, (seed,), f"{name}({seed})", judge))
    return _run(name, func, cases, seconds)


# -- planes (exercise 5) -------------------------------------------------------------------------


def _square(a: Card, b: Card, c: Card) -> list[list[Card]]:
    """The plane of a, b, c as a magic square: a at the top left, b beside it, c under it.

    The card in row i and column j is a + j(b - a) + i(c - a), mod 3, feature by feature.
    """
    va, vb, vc = a.vector, b.vector, c.vector
    return [
        [
            Card.from_vector([(x + j * (y - x) + i * (z - x)) % 3 for x, y, z in zip(va, vb, vc)])
            for j in range(3)
        ]
        for i in range(3)
    ]


def _square_lines(square: list[list[Card]]) -> list[tuple[str, tuple[Card, Card, Card]]]:
    """The 8 rows, columns and diagonals of a 3 x 3 square, each with the words that name it."""
    lines = [(f"row {i + 1}", tuple(square[i])) for i in range(3)]
    lines += [(f"column {j + 1}", tuple(square[i][j] for i in range(3))) for j in range(3)]
    lines.append(("the diagonal from the top left", tuple(square[k][k] for k in range(3))))
    lines.append(("the diagonal from the top right", tuple(square[k][2 - k] for k in range(3))))
    return lines


def _lines_through(card: Card, cards: Sequence[Card]) -> list[tuple[Card, Card, Card]]:
    """The SETs (card, b, c) with b before c among the cards, in the order of b."""
    where = {other: p for p, other in enumerate(cards)}
    found = []
    for p, b in enumerate(cards):
        if b != card:
            c = third_card(card, b)
            if where.get(c, -1) > p:
                found.append((card, b, c))
    return found


def _triples(rng: random.Random, count: int) -> list[tuple[Card, Card, Card]]:
    """Random triples of different cards not in one SET."""
    deck = full_deck()
    triples: list[tuple[Card, Card, Card]] = []
    while len(triples) < count:
        a, b, c = rng.sample(deck, 3)
        if third_card(a, b) != c:
            triples.append((a, b, c))
    return triples


def _no_plane_cases(name: str) -> list[_Case]:
    """Three cards in one SET, and a card given twice: no plane, a ValueError."""
    parse = Card.parse
    collinear = "three cards in one SET lie on a line, not in a plane (check whether c is third_card(a, b))"
    twice = "a plane needs three different cards"
    cases = []
    for codes, hint in [
        (("1RSO", "2RSO", "3RSO"), collinear),
        (("1RSO", "2GTS", "3POD"), collinear),
        (("3POD", "1RSO", "2GTS"), collinear),
        (("1RSO", "1RSO", "2GTS"), twice),
        (("1RSO", "2GTS", "2GTS"), twice),
        (("2GTS", "1RSO", "2GTS"), twice),
    ]:
        cards = tuple(parse(code) for code in codes)
        cases.append(
            _Case(
                cards, f"{name}({_codes(cards)})", lambda got: None, raises=ValueError, raises_hint=hint + "."
            )
        )
    return cases


def _plane_triples() -> list[tuple[Card, Card, Card]]:
    parse = Card.parse
    fixed = [("1RSO", "2RSO", "1GSO"), ("1RSO", "2GTS", "1RSS"), ("3POD", "1RSO", "2RSO")]
    return [tuple(parse(c) for c in t) for t in fixed] + _triples(random.Random(509), 25)  # type: ignore[misc]


def check_plane(
    func: Callable[[Card, Card, Card], Any], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``plane(a, b, c)`` on about thirty triples of cards.

    It should return a list of the 9 different cards of the plane spanned by
    ``a``, ``b`` and ``c`` (in any order), and raise a ValueError when the three
    cards form a SET or a card is given twice.
    """
    name = _require_function("plane", func)
    cases = []
    for a, b, c in _plane_triples():
        expected = {card for row in _square(a, b, c) for card in row}

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

        cases.append(_Case((a, b, c), f"{name}({_codes((a, b, c))})", judge))
    cases += _no_plane_cases(name)
    return _run(name, func, cases, seconds)


def _is_square(got: Any) -> bool:
    return (
        type(got) is list
        and len(got) == 3
        and all(
            type(row) is list and len(row) == 3 and all(type(card) is Card for card in row) for row in got
        )
    )


def _square_text(square: list[list[Card]]) -> str:
    return " / ".join(_codes(row) for row in square)


def check_magic_square(
    func: Callable[[Card, Card, Card], Any], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``magic_square(a, b, c)`` on about thirty triples of cards.

    It should return a list of three rows, each a list of three Cards: ``a`` at
    the top left, ``b`` beside it and ``c`` under it, so that each of the 3 rows,
    3 columns and 2 diagonals is a SET; and raise a ValueError as ``plane`` does.
    """
    name = _require_function("magic_square", func)
    cases = []
    for a, b, c in _plane_triples():
        expected = _square(a, b, c)

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
                    return f"{words} ({_codes(line)}) is not a SET; the square should be {should}."
            return f"the square should be {_square_text(expected)}."

        cases.append(_Case((a, b, c), f"{name}({_codes((a, b, c))})", judge))
    cases += _no_plane_cases(name)
    return _run(name, func, cases, seconds)


def check_lines_through(
    func: Callable[[Card, list[Card]], Any], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``lines_through(card, cards)`` on small tables, deals and the full deck.

    It should return every SET ``(card, b, c)`` with ``b`` and ``c`` among the
    cards, ``b`` before ``c`` in the list, in the order of ``b``: a list of
    tuples of three Cards. Last, on the full deck (40 lines through any card),
    it counts your calls of ``third_card``: one for each card of the list is enough.
    """
    name = _require_function("lines_through", func)
    parse = Card.parse
    problems = [
        ("1RSO", ""),
        ("1RSO", "2RSO 3RSO"),
        ("1RSO", "3RSO 2RSO"),
        ("1RSO", "2RSO 3PSO"),
        ("1RSO", "1RSO 2RSO 3RSO"),  # the card itself among the cards
        ("1RSO", "2RSO 2GTS 3RSO 3POD"),
    ]
    cases_in = [(parse(card), [parse(c) for c in codes.split()]) for card, codes in problems]
    rng = random.Random(510)
    deck = full_deck()
    for size in (6, 9, 12, 12, 15, 21, 40):
        table = rng.sample(deck, size)
        cases_in.append((rng.choice(deck if size < 40 else table), table))
    cases_in += [(parse("2GTS"), mini_deck()), (parse("3POD"), deck)]
    cases = []
    for card, cards in cases_in:
        expected = _lines_through(card, cards)

        def judge(got: Any, expected: list = expected, card: Card = card) -> str | None:
            there = _words.there_are(len(expected), "SET")
            if type(got) is not list or not all(_is_triple(s) for s in got):
                return f"{name} should return a list of tuples of three Cards; {there} through {card}."
            if got == expected:
                return None
            if any(s[0] != card for s in got):
                return f"write each SET with {card} first: ({card}, b, c)."
            if len(got) == 2 * len(expected) and expected:
                return f"{there}: each was listed twice, from b and from c. Keep it when c comes after b."
            if sorted(got) == sorted(expected):
                return f"the right SETs, but in the order of b in the list: {_sets_label(expected[:3])}..."
            if {frozenset(s) for s in got} == {frozenset(s) for s in expected} and len(got) == len(expected):
                return "the right SETs, but write b before c in the order of the list."
            missing = [s for s in expected if s not in got]
            if missing:
                return f"{there} through {card}; {_sets_label(missing[:1])} is missing."
            extra = _sets_label([s for s in got if s not in expected][:1])
            return f"{there} through {card}; {extra} should not be there."

        label = f"{name}({card}, {_table_label('', cards)[1:-1] or '[]'})"
        cases.append(_Case((card, list(cards)), label, judge))

    def judge_calls(calls: int | None) -> str | None:
        if calls is None or calls <= len(deck):
            return None
        return (
            f"{name}(3POD, full_deck()) called third_card {calls} times, but each of the 81 cards b makes "
            "one SET with 3POD at most: ask third_card(card, b) once for each b, and look the answer up in "
            "a dict from card to position."
        )

    cases.append(
        _Case(
            (parse("3POD"), deck),
            f"{name}(3POD, full_deck()), counting its calls of third_card",
            judge_calls,
            call=lambda card, cards: _count_calls(func, (card, cards)),
        )
    )
    return _run(name, func, cases, seconds)


# -- probability (exercise 6) --------------------------------------------------------------------

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


def check_set_probability(
    func: Callable[[list[Card]], Any], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``set_probability(cards)`` on small tables, deals, the mini deck and the full deck.

    It should return, as an exact ``Fraction``, the probability that three
    different cards chosen at random among ``cards`` form a SET: the number of
    SETs over the number of triples; and raise a ValueError for fewer than 3 cards.
    """
    name = _require_function("set_probability", func)
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

        cases.append(_Case((list(cards),), _table_label(name, cards, what), judge))
    for codes in ("", "1RSO", "1RSO 2RSO"):
        cards = [Card.parse(c) for c in codes.split()]
        cases.append(
            _Case(
                (cards,),
                _table_label(name, cards),
                lambda got: None,
                raises=ValueError,
                raises_hint="fewer than three cards make no triple, so there is no probability to give.",
            )
        )
    return _run(name, func, cases, seconds)


def check_expected_sets(func: Callable[[int], Any], seconds: float | None = DEFAULT_SECONDS) -> CheckResult:
    """Check your ``expected_sets(k)`` for every table size k from 0 to 81.

    It should return, as an exact ``Fraction``, the expected number of SETs among
    ``k`` cards dealt at random from the full deck: C(k, 3) triples, each a SET
    with probability 1/79.
    """
    name = _require_function("expected_sets", func)
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

        cases.append(_Case((k,), f"{name}({k})", judge))
    return _run(name, func, cases, seconds)


def _rate_case(name: str, func: Callable, size: int, tables: int, seed: int) -> _Case:
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

    return _Case((size, tables, seed), f"{name}({size}, {tables}, seed={seed})", judge)


def check_simulate_no_set_rate(
    func: Callable[[int, int, int], Any], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``simulate_no_set_rate(size, tables, seed)`` on tables of 3, 9, 12 and 21 cards.

    It should deal ``tables`` random tables of ``size`` cards from the full deck,
    with randomness from ``seed`` alone, and return the fraction of them without
    a SET as a float. The result must land within 4.5 standard errors of the
    true rate, give the same answer for the same seed, and change with the seed.
    """
    name = _require_function("simulate_no_set_rate", func)
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

    cases.append(_Case((9, 500, 5), f"{name}(9, 500, seed=5), twice", judge_twice, call=twice))

    def seeds(size: int, tables: int, first: int) -> list[Any]:
        return [func(size, tables, seed) for seed in range(first, first + 4)]

    def judge_seeds(got: list[Any]) -> str | None:
        if len(set(got)) > 1:
            return None
        return (
            f"{name}(9, 500, seed) gave {got[0]!r} for the seeds 6, 7, 8 and 9: other seeds deal other "
            "tables, so the rates should differ. Use the seed to make the random tables."
        )

    cases.append(_Case((9, 500, 6), f"{name}(9, 500, seed) for four seeds", judge_seeds, call=seeds))
    return _run(name, func, cases, seconds)


def _wilson(hits: int, trials: int, z: float = Z95) -> tuple[float, float]:
    p = hits / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def _interval_problem(got: Any, hits: int, trials: int) -> str | None:
    """None when ``got`` is Wilson's 95% interval for hits out of trials; else what is wrong."""
    low, high = _wilson(hits, trials)
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


def check_confidence_interval(
    func: Callable[[int, int], Any], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``confidence_interval(hits, trials)``: Wilson's 95% interval, as a tuple of two floats."""
    name = _require_function("confidence_interval", func)
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
            return _interval_problem(got, hits, trials)

        cases.append(_Case((hits, trials), f"{name}({hits}, {trials})", judge))
    return _run(name, func, cases, seconds)


# -- caps (exercise 7) ---------------------------------------------------------------------------


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


def _set_among(cards: Sequence[Card]) -> tuple[Card, Card, Card] | None:
    present = set(cards)
    for x, y in itertools.combinations(cards, 2):
        z = third_card(x, y)
        if z in present:
            return x, y, z
    return None


def _cap_problem(got: Any, deck: Sequence[Card], size: int | None = None) -> str | None:
    """None when ``got`` is a SET-free list of different cards of ``deck`` that no card of it can
    join (or, with ``size``, a SET-free list of that many); else what is wrong."""
    if type(got) is not list or not all(type(card) is Card for card in got):
        return "it should be a list of Cards."
    if len(set(got)) != len(got):
        twice = next(card for card in got if got.count(card) > 1)
        return f"{twice} is in the list twice."
    stranger = next((card for card in got if card not in set(deck)), None)
    if stranger is not None:
        return f"{stranger} is not one of the cards it was given."
    found = _set_among(got)
    if found is not None:
        return f"({_codes(sorted(found))}) is a SET among its cards."
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
    tables = _deal_tables()
    tables += [_greedy(full_deck(), seed) for seed in range(5)]
    tables += [_greedy(mini_deck(), seed) for seed in range(3)]
    return tables


def check_is_set_free(
    func: Callable[[list[Card]], Any], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``is_set_free(cards)`` on deals, whole decks and large SET-free tables.

    It should return True exactly when no three of the cards form a SET. Last,
    on a SET-free table of the full deck, it counts your calls of
    ``third_card``: one per pair is enough (the pairs method, O(n²)).
    """
    name = _require_function("is_set_free", func)
    cases = []
    for cards in _cap_tables():
        found = _set_among(cards)

        def judge(got: Any, found: Any = found) -> str | None:
            if type(got) is not bool:
                return f"{name} should return True or False (a bool), not {type(got).__name__}."
            if got == (found is None):
                return None
            if found is None:
                return "no three of these cards form a SET."
            return f"({_codes(found)}) is a SET among them."

        cases.append(_Case((list(cards),), _table_label(name, cards), judge))
    cap = max((_greedy(full_deck(), seed) for seed in range(5)), key=len)
    pairs = len(cap) * (len(cap) - 1) // 2

    def judge_calls(calls: int | None) -> str | None:
        if calls is None:
            return None
        if calls == 0:
            return _never_calls_third_card(name)
        if calls > pairs:
            return (
                f"{name} called third_card {calls} times on {len(cap)} cards without a SET, but they make "
                f"only {pairs} pairs: ask once per pair, and look the third card up in a Python set (O(n²), "
                "not the O(n³) of every triple)."
            )
        return None

    cases.append(
        _Case(
            (cap,),
            f"{name}(<{len(cap)} cards without a SET>), counting its calls of third_card",
            judge_calls,
            call=lambda cards: _count_calls(func, (cards,)),
        )
    )
    return _run(name, func, cases, seconds)


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


def check_greedy_cap(
    func: Callable[[list[Card], int], Any], seconds: float | None = DEFAULT_SECONDS
) -> CheckResult:
    """Check your ``greedy_cap(deck, seed)`` on the full deck, the mini deck, a plane, a line and deals.

    Its result is checked, not compared with one answer: a list of different
    cards of ``deck`` without a SET, to which no other card of ``deck`` can be
    added; the same for the same seed, and different for different seeds.
    """
    name = _require_function("greedy_cap", func)
    cases = []
    for deck, what in _cap_decks():
        for seed in (1, 2):

            def judge(got: Any, deck: list = deck) -> str | None:
                return _cap_problem(got, deck)

            cases.append(_dealer_case(func, (list(deck), seed), f"{name}({what}, {seed})", judge))

    def twice(deck: list[Card], seed: int) -> tuple[Any, Any]:
        return func(list(deck), seed), func(list(deck), seed)

    def judge_twice(got: tuple[Any, Any]) -> str | None:
        if got[0] == got[1]:
            return None
        return (
            f"{name}(full_deck(), 7) gave two different tables: the same seed should give the same table, "
            "so shuffle with random.Random(seed)."
        )

    cases.append(_Case((full_deck(), 7), f"{name}(full_deck(), 7), twice", judge_twice, call=twice))

    def seeds(deck: list[Card], first: int) -> list[Any]:
        return [func(list(deck), seed) for seed in range(first, first + 4)]

    def judge_seeds(got: list[Any]) -> str | None:
        if len({tuple(x) if type(x) is list else x for x in got}) > 1:
            return None
        return (
            f"{name}(full_deck(), seed) gave the same table for the seeds 8, 9, 10 and 11: go through the "
            "deck in an order shuffled by random.Random(seed)."
        )

    cases.append(
        _Case((full_deck(), 8), f"{name}(full_deck(), seed) for four seeds", judge_seeds, call=seeds)
    )
    return _run(name, func, cases, seconds)


def check_largest_mini_cap(func: Callable[[], Any], seconds: float | None = DEFAULT_SECONDS) -> CheckResult:
    """Check your ``largest_mini_cap()``: 9 different cards of the mini deck, no three of them a SET."""
    name = _require_function("largest_mini_cap", func)

    def judge(got: Any) -> str | None:
        problem = _cap_problem(got, mini_deck(), size=9)
        if problem and problem.startswith("it holds"):
            problem += " Try greedy_cap(mini_deck(), seed) for many seeds and keep a largest one."
        return problem

    return _run(name, func, [_dealer_case(func, (), f"{name}()", judge)], seconds)


# -- for the hidden tests of the exercises ------------------------------------------------------

_CORE = (
    "setwidgets",
    "setwidgets.cards",
    "setwidgets.rules",
    "setwidgets.game",
    "setwidgets.variants",
    "setwidgets.bot",
    "setwidgets.save",
    "setwidgets.sim",
    "setwidgets.geometry",
    "setwidgets.caps",
    "setwidgets._inputs",
    "setwidgets._words",
    "setwidgets.checks",
)
_FEATURE_ATTRIBUTES = ("number", "color", "shape", "shading", "_index", "index", "vector", "code", "name")


class _Forbidden(BaseException):
    """Raised by a blocked function; a BaseException, so a student's ``except Exception`` cannot hide it."""


def _copy_function(func: Callable) -> Callable:
    """A new function object with the same code and globals: blocking the original leaves it working."""
    copy = types.FunctionType(
        func.__code__, func.__globals__, func.__name__, func.__defaults__, func.__closure__
    )
    copy.__kwdefaults__ = func.__kwdefaults__
    copy.__qualname__ = func.__qualname__
    return copy


@functools.cache
def _blocker(name: str) -> types.CodeType:
    """The code a blocked function runs instead of its own: it reports ``name`` to the referee."""
    source = f"def blocked(*args, **kwargs):\n    return __referee_forbidden__({name!r})\n"
    namespace: dict[str, Any] = {}
    exec(compile(source, "<referee>", "exec"), {}, namespace)  # noqa: S102 - fixed source, no input
    return namespace["blocked"].__code__


class Referee:
    """What the hidden tests of an exercise trust, kept before any student code runs.

    The exercise's locked setup cell, which runs before the first answer cell,
    makes one: ``_referee = Referee()``. Then:

    - ``Card``, ``deck`` (the 81 cards), ``Game``, and untouched copies of
      ``first_set``, ``find_sets``, ``has_set``, ``is_set`` and ``third_card``
      are the references the hidden tests compute expected answers with;
    - :meth:`untouched` fails when a function, class or name of the package was
      replaced or changed since (so a notebook that rewrites ``setwidgets``
      scores nothing on the tests that check it);
    - :meth:`guard` runs the student's function with the package's own answers
      out of reach: the functions of the modules named there raise (and are
      reported even when the student's code catches the error), and with
      ``hide_features`` the cards' features cannot be read from the student's
      code; :meth:`count` counts the calls of the one helper allowed.

    >>> referee = Referee()
    >>> referee.untouched()
    >>> with referee.guard("first_set", modules=["setwidgets.rules"]):  # doctest: +ELLIPSIS
    ...     from setwidgets import find_sets
    ...     find_sets(referee.deck[:3])
    Traceback (most recent call last):
    AssertionError: first_set used setwidgets.find_sets while the tests ran: ...
    """

    def __init__(self) -> None:
        import importlib
        import sys

        import setwidgets.rules as rules
        from setwidgets.game import Game

        for name in _CORE:
            try:
                importlib.import_module(name)
            except ImportError:  # a module this version of the package does not have
                pass
        self._modules = {name: sys.modules[name] for name in _CORE if name in sys.modules}
        self._names = {name: dict(vars(module)) for name, module in self._modules.items()}
        self._classes = {
            cls: dict(vars(cls))
            for module in self._modules.values()
            for cls in vars(module).values()
            if isinstance(cls, type) and cls.__module__ in self._modules
        }
        self._codes = {id(f): (f, f.__code__) for f in self._functions()}
        self.Card = Card
        self.Game = Game
        self.deck = tuple(full_deck())
        self.first_set = _copy_function(rules.first_set)
        self.find_sets = _copy_function(rules.find_sets)
        self.has_set = _copy_function(rules.has_set)
        self.is_set = _copy_function(rules.is_set)
        self.third_card = _copy_function(rules.third_card)
        self.Fraction = Fraction
        self._package = os.path.dirname(os.path.abspath(rules.__file__)) + os.sep
        self._calls: list[str] = []

    def moves(self, variant: str, seed: int) -> list[dict]:
        """The moves of a seeded game of the untouched engine (see :func:`engine_moves`)."""
        return engine_moves(variant, seed, self.Game, self.first_set)

    def competition(self, table: list[Card], deck: list[Card], state: tuple) -> tuple[list[Card], list[Card]]:
        """What the engine's competition rule does to any table and deck, its generator in ``state``."""
        return competition_by_engine(table, deck, state, self.Game)

    # The references below are this module's own code, which untouched() watches too.

    def square(self, a: Card, b: Card, c: Card) -> list[list[Card]]:
        """The plane of three cards not in one SET as a magic square: a, b in the top row, c under a."""
        return _square(a, b, c)

    def lines_through(self, card: Card, cards: Sequence[Card]) -> list[tuple[Card, Card, Card]]:
        """The SETs (card, b, c) with b before c among the cards, in the order of b."""
        return _lines_through(card, cards)

    def set_among(self, cards: Sequence[Card]) -> tuple[Card, Card, Card] | None:
        """A SET among the cards, or None when they are SET-free."""
        return _set_among(cards)

    def cap_problem(self, got: Any, deck: Sequence[Card], size: int | None = None) -> str | None:
        """None when ``got`` is a SET-free list of different cards of ``deck``, maximal in it (or of
        ``size`` cards, when given); else what is wrong."""
        return _cap_problem(got, deck, size)

    def interval_problem(self, got: Any, hits: int, trials: int) -> str | None:
        """None when ``got`` is Wilson's 95% interval for ``hits`` out of ``trials``; else what is wrong."""
        return _interval_problem(got, hits, trials)

    def _functions(self, modules: Iterable[str] | None = None) -> Iterator[Callable]:
        """The plain functions of the modules, and of the classes defined there, methods included."""
        chosen = (
            self._modules if modules is None else {m: self._modules[m] for m in modules if m in self._modules}
        )
        for name, module in chosen.items():
            for obj in list(vars(module).values()):
                if inspect.isfunction(obj) and obj.__module__ == name:
                    yield obj
                elif isinstance(obj, type) and obj.__module__ == name:
                    for item in list(vars(obj).values()):
                        item = getattr(item, "__func__", item)  # class and static methods
                        if inspect.isfunction(item):
                            yield item

    def untouched(self) -> None:
        """Fail (AssertionError) when the package was changed since the referee was made."""
        import sys

        changed = []
        for name, module in self._modules.items():
            if sys.modules.get(name) is not module:
                changed.append(f"the module {name}")
                continue
            now = vars(module)
            changed += [f"{name}.{k}" for k, v in self._names[name].items() if now.get(k, _MISSING) is not v]
        for cls, saved in self._classes.items():
            now = vars(cls)
            changed += [f"{cls.__qualname__}.{k}" for k, v in saved.items() if now.get(k, _MISSING) is not v]
        changed += [
            f"the code of {f.__qualname__}" for f, code in self._codes.values() if f.__code__ is not code
        ]
        if changed:
            what = _inputs.short(", ".join(changed))
            raise AssertionError(
                f"this notebook changed the package setwidgets while it ran ({what}); "
                "the grader needs the package as it is installed, so these tests score nothing. "
                "Restart the kernel and run all cells after removing that change."
            )

    @contextmanager
    def guard(
        self,
        student: str,
        modules: Iterable[str] = (),
        allowed: Iterable[str] = (),
        hide_features: bool = False,
    ) -> Iterator[None]:
        """Run the student's ``student`` function with the package's answers out of reach.

        Every function of ``modules`` (and of their classes) except those named
        in ``allowed`` raises while the block runs; with ``hide_features``, the
        student's code cannot read a card's features, code, name, vector or
        index. Any such attempt fails the block with a message that says what was
        called, even when the student's code caught the error.
        """
        self._calls = []
        blocked = [
            f
            for f in self._functions(modules)
            if f.__name__ not in set(allowed) and not f.__code__.co_freevars
        ]
        saved_codes = [(f, f.__code__) for f in blocked]
        spaces = {id(f.__globals__): f.__globals__ for f in blocked}
        saved_attributes = {name: vars(Card)[name] for name in _FEATURE_ATTRIBUTES} if hide_features else {}
        try:
            for space in spaces.values():
                space["__referee_forbidden__"] = self._forbidden
            for f, _ in saved_codes:
                where = f.__module__ if f.__qualname__ == f.__name__ else f"{f.__module__}"
                name = (
                    f"setwidgets.{f.__qualname__}"
                    if where in ("setwidgets.rules", "setwidgets.cards")
                    else f"{where}.{f.__qualname__}"
                )
                f.__code__ = _blocker(name)
            for name, original in saved_attributes.items():
                setattr(Card, name, property(self._hidden_feature(name, original)))
            try:
                yield
            except _Forbidden:
                pass
        finally:
            for f, code in saved_codes:
                f.__code__ = code
            for space in spaces.values():
                space.pop("__referee_forbidden__", None)
            for name, original in saved_attributes.items():
                setattr(Card, name, original)
        if self._calls:
            used = _words.and_list(sorted(set(self._calls)))
            counted = "setwidgets.third_card" in used
            helper = " (third_card is counted: call it by its name, third_card(a, b))" if counted else ""
            raise AssertionError(
                f"{student} used {used} while the tests ran: the exercise asks you to write this "
                f"yourself{helper}, so these tests score nothing."
            )

    def _forbidden(self, name: str) -> None:
        self._calls.append(name)
        raise _Forbidden(name)

    def _hidden_feature(self, name: str, original: Any) -> Callable[[Any], Any]:
        import sys

        package = self._package

        def read(card: Any) -> Any:
            caller = sys._getframe(1).f_code.co_filename
            if not os.path.abspath(caller).startswith(package):
                self._calls.append(f"the cards' {name.lstrip('_')} (decide SETs with third_card)")
                raise _Forbidden(name)
            return original.__get__(card, Card)

        return read

    @contextmanager
    def count(self, namespace: dict[str, Any], name: str = "third_card") -> Iterator[list[int]]:
        """Put a counting ``name`` (the package's own, untouched) into the notebook's namespace.

        The block gets a list whose one item is the number of calls so far.
        """
        reference = getattr(self, name)
        calls = [0]

        def counted(*args: Any, **kwargs: Any) -> Any:
            calls[0] += 1
            return reference(*args, **kwargs)

        counted.__name__ = counted.__qualname__ = name
        saved = namespace.get(name, _MISSING)
        namespace[name] = counted
        try:
            yield calls
        finally:
            if saved is _MISSING:
                namespace.pop(name, None)
            else:
                namespace[name] = saved


# -- while a notebook is graded ---------------------------------------------------------------

SET_ASIDE = (
    "{name} needs the package's own {function}, which is set aside while this notebook is graded "
    "(the exercise asks you to write it yourself): the graded tests below say how your answers did."
)


def _set_aside_while_graded(check: Callable[..., CheckResult]) -> Callable[..., CheckResult]:
    """``check``, saying in one sentence that it cannot run where the grader hid what it compares with."""

    @functools.wraps(check)
    def checked(*args: Any, **kwargs: Any) -> CheckResult:
        try:
            return check(*args, **kwargs)
        except ReferenceHidden as error:
            function = str(error).split(" is not available", 1)[0]
            message = SET_ASIDE.format(name=check.__name__, function=function)
            print(message)
            return CheckResult(check.__name__, False, 0, message)

    return checked


# The grading kernel of an exercise lacks the package's answers to it (setwidgets.grading.hide),
# and the instant checks compare with them: each check says so instead of stopping with an error.
for _name in [name for name in __all__ if name.startswith("check_")]:
    globals()[_name] = _set_aside_while_graded(globals()[_name])
