"""How an instant check runs: your function on each case, stopped at the first mistake, with a hint.

Every check of :mod:`setwidgets.checks` is made of :class:`Case` objects (one call of your
function and how to judge what it returned) and :func:`run`, which calls your function on each
case within a time limit, prints the first problem in one sentence (or a tick when all cases
pass) and returns a :class:`CheckResult`. The helpers below write cards, tables and lists of
SETs the way every check's messages write them.
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
from setwidgets.cards import Card, full_deck, mini_deck, written

__all__ = [
    "DEFAULT_SECONDS",
    "HELPER_NAMES",
    "SET_ASIDE",
    "Case",
    "CheckResult",
    "ReferenceHidden",
    "codes",
    "count_calls",
    "deal_tables",
    "is_table_and_deck",
    "is_triple",
    "never_calls_third_card",
    "require_function",
    "run",
    "set_aside_while_graded",
    "sets_label",
    "sets_problem",
    "short_case",
    "short_result",
    "show",
    "table_label",
]


class ReferenceHidden(RuntimeError):
    """Raised by a function of the package that the exercise being graded asks the student to write.

    The grader sets such functions aside (:mod:`setwidgets.grading.hide`); a check that
    meets one says so in one sentence instead of failing.
    """


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
class Case:
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


def codes(cards: Sequence[Card]) -> str:
    """The cards by their codes, separated by commas: ``1RSO, 2RSO, 3RSO``."""
    return ", ".join(card.code for card in cards)


def show(value: Any) -> str:
    """How a returned value reads in a message: a card by code and name, cards inside others by code."""
    if isinstance(value, Card):
        return f"{value.code} ({value.name})"
    return written(value)


def require_function(exercise: str, func: Any) -> str:
    """Return the function's name for messages, or refuse what is not a function."""
    if not callable(func):
        raise TypeError(
            f"check_{exercise}() needs your function itself, as in check_{exercise}({exercise}); "
            f"got {_inputs.what(func)}"
        )
    return _name_of(func, exercise)


def run(name: str, func: Callable, cases: Sequence[Case], seconds: float | None) -> CheckResult:
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


def _one_case(name: str, func: Callable, case: Case) -> str:
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
        return f"{case.label} returned {show(got)}, but {should}"
    problem = case.judge(got)
    if not problem:
        return ""
    # A case with its own call (such as counting calls) writes the whole sentence itself.
    return problem if case.call else f"{case.label} returned {show(got)}, but {problem}"


def _raised_in(error: BaseException) -> str | None:
    """The name of the function in which the exception was raised."""
    tb = error.__traceback__
    if tb is None:
        return None
    while tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame.f_code.co_name


# -- calls of third_card --------------------------------------------------------------------------

HELPER_NAMES = ("third_card", "third_card_mod3")
"""The helpers whose calls a check counts, when they are defined beside the student's function."""


def count_calls(func: Callable, args: tuple) -> int | None:
    """Run ``func(*args)`` and count its calls of ``third_card``/``third_card_mod3``.

    The functions are looked up where ``func`` was defined (the notebook) and put
    back afterwards. Returns None when neither is defined there.
    """
    namespace = getattr(func, "__globals__", None)
    if not isinstance(namespace, dict):
        return None
    originals = {name: namespace[name] for name in HELPER_NAMES if callable(namespace.get(name))}
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


def never_calls_third_card(name: str) -> str:
    """The hint for a pairs-method function that never asks third_card (exercises 3 and 7)."""
    return (
        f"{name} never calls third_card. The exercise asks for the pairs method: for each pair, "
        "ask third_card for the card that completes it, and look it up among the cards."
    )


# -- tables and lists of SETs ---------------------------------------------------------------------


def deal_tables() -> list[list[Card]]:
    """Small tables with one idea each, then seeded deals of every size a game sees."""
    lines = [
        "",
        "1RSO 2RSO",
        "1RSO 2RSO 3RSO",
        "1RSO 2RSO 3PSO",
        "1GTS 1RSO 2RSO 3RSO 3POD",  # two SETs; the first begins with the first card
        "1RSO 1GTS 2RSO 3POD 3RSO",  # the first SET is not the first three cards that form one
    ]
    tables = [[Card.parse(c) for c in line.split()] for line in lines]
    rng = random.Random(303)
    tables += [rng.sample(full_deck(), size) for size in (6, 9, 12, 12, 12, 12, 15, 15, 18, 21)]
    tables += [mini_deck(), full_deck()]
    return tables


def table_label(name: str, cards: Sequence[Card], what: str = "") -> str:
    """How a call on a table reads: its cards when few, else the first three and how many."""
    if what:
        return f"{name}({what})"
    if len(cards) <= 6:
        return f"{name}([{codes(cards)}])"
    return f"{name}([{codes(cards[:3])}, ... {len(cards)} cards])"


def sets_label(sets: Any) -> str:
    """A list of SETs by their cards' codes: ``[(1RSO, 2RSO, 3RSO), ...]``."""
    return "[" + ", ".join("(" + codes(s) + ")" for s in sets) + "]"


def is_triple(got: Any) -> bool:
    """Whether ``got`` is a tuple of three Cards."""
    return type(got) is tuple and len(got) == 3 and all(type(c) is Card for c in got)


def sets_problem(
    got: Any,
    expected: list[tuple[Card, Card, Card]],
    *,
    wrong_type: str,
    repeats: int,
    repeated: str,
    order: str,
    inside: str,
    where: str = "",
    first: Card | None = None,
) -> str | None:
    """None when ``got`` is the list of SETs ``expected``; else what is wrong with it, in words.

    In turn: not a list of tuples of three Cards (``wrong_type``, followed by how many SETs
    there are); with ``first``, a SET not written from that card; each SET listed ``repeats``
    times (``repeated`` says why); the right SETs in another ``order``; the right SETs with the
    cards inside them in another order (``inside``); a SET missing; a SET too many. ``where``
    ends the count of SETs (" through 1RSO").
    """
    there = _words.there_are(len(expected), "SET")
    if type(got) is not list or not all(is_triple(s) for s in got):
        return f"{wrong_type}; {there}{where}."
    if got == expected:
        return None
    if first is not None and any(s[0] != first for s in got):
        return f"write each SET with {first} first: ({first}, b, c)."
    if len(got) == repeats * len(expected) and expected:
        return f"{there}: {repeated}"
    if sorted(got) == sorted(expected):
        return f"the right SETs, but {order}: {sets_label(expected[:3])}..."
    if {frozenset(s) for s in got} == {frozenset(s) for s in expected} and len(got) == len(expected):
        return f"the right SETs, but {inside}"
    missing = [s for s in expected if s not in got]
    if missing:
        return f"{there}{where}; {sets_label(missing[:1])} is missing."
    return f"{there}{where}; {sets_label([s for s in got if s not in expected][:1])} should not be there."


# -- results too long to print ---------------------------------------------------------------------


def is_table_and_deck(got: Any) -> bool:
    """Whether ``got`` is a tuple (table, deck) of two lists of Cards."""
    return (
        type(got) is tuple
        and len(got) == 2
        and all(type(part) is list and all(type(c) is Card for c in part) for part in got)
    )


def short_result(got: Any) -> str:
    """A returned value in a few words: tables and decks by their sizes, not card by card."""
    if is_table_and_deck(got):
        return f"a table of {_words.count(len(got[0]), 'card')} and a deck of {len(got[1])}"
    if type(got) is tuple and len(got) == 3 and type(got[0]) is list and type(got[1]) is list:
        return f"{_words.count(len(got[0]), 'SET')}, a table of {len(got[1])} cards and lost={got[2]!r}"
    return _inputs.short(got)


def short_case(func: Callable, args: tuple, label: str, judge: Callable[[Any], str | None]) -> Case:
    """A case whose message names the result in a few words (a whole deck would fill the screen)."""

    def whole(got: Any) -> str | None:
        problem = judge(got)
        return problem and f"{label} returned {short_result(got)}, but {problem}"

    return Case(args, label, whole, call=func)


# -- while a notebook is graded ---------------------------------------------------------------

SET_ASIDE = (
    "{name} needs the package's own {function}, which is set aside while this notebook is graded "
    "(the exercise asks you to write it yourself): the graded tests below say how your answers did."
)


def set_aside_while_graded(check: Callable[..., CheckResult]) -> Callable[..., CheckResult]:
    """``check``, saying in one sentence that it cannot run where the grader hid what it compares with.

    The grading kernel of an exercise lacks the package's answers to it
    (:mod:`setwidgets.grading.hide`), and the instant checks compare with them: each check,
    made with this decorator, says so instead of stopping with an error.
    """

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
