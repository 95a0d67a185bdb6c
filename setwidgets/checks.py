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
:func:`check_third_card` (for ``third_card`` and ``third_card_mod3``) and
:func:`check_count_sets`.
"""

from __future__ import annotations

import functools
import random
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from setwidgets import _inputs, _words
from setwidgets.cards import FEATURES, Card, full_deck, mini_deck
from setwidgets.rules import FeatureVerdict, explain, find_sets, third_card

__all__ = [
    "CheckResult",
    "check_count_sets",
    "check_is_set",
    "check_odd_one_out",
    "check_third_card",
]

DEFAULT_SECONDS = 10.0
"""How long one check may run before it reports a loop that never ends."""

_LONGEST = 10**7  # seconds (about four months)


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
    """How a returned value reads in a message: cards by code and name, the rest by repr."""
    if isinstance(value, Card):
        return f"{value.code} ({value.name})"
    return repr(value)


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
    """Run ``func(cards)`` and count its calls of ``third_card``/``third_card_mod3``.

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
        func(cards)
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
