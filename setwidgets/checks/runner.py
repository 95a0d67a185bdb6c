"""How an instant check runs: your function on each case, stopped at the first mistake, with a hint.

Every check of :mod:`setwidgets.checks` is made of :class:`Case` objects (one call of your
function and how to judge what it returned) and :func:`run`, which calls your function on each
case within a time limit, prints the first problem in one sentence (or a tick when all cases
pass) and returns a :class:`CheckResult`. Each answer is judged as the graded tests read it
(:func:`graded`): numpy's numbers and arrays as the plain values they hold, and an object of a
class of the notebook (one that says it equals everything, say) refused in a sentence that says
what the function should return; a function that changes the lists it is given is told so. The
helpers below write cards, tables and lists of SETs the way every check's messages write them.
"""

from __future__ import annotations

import functools
import math
import random
import signal
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from setwidgets import _inputs, _words
from setwidgets.cards import Card, full_deck, mini_deck, written

__all__ = [
    "DEFAULT_SECONDS",
    "HELPER_NAMES",
    "SET_ASIDE",
    "Case",
    "Unread",
    "brief",
    "graded",
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
    # When the call raised what it should: what is wrong with the error's message, or None.
    raises_message: Callable[[str], str | None] | None = None
    # The names of the list arguments the call must leave as they are ("table", "deck").
    unchanged: tuple[str, ...] = ()


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
    """How a returned value reads in a message: a card by code and name, cards inside others by code.

    A long value is quoted in short (its start and how many items it has), and a value the grader
    does not read (:class:`Unread`) by what it is.
    """
    if type(value) is Card:
        return f"{value.code} ({value.name})"
    return brief(value)


_WIDTH = 160  # characters of a returned value a message quotes


def brief(value: Any, width: int = _WIDTH) -> str:
    """A value as the course writes it (cards by their codes), cut to ``width`` characters.

    >>> brief([Card.parse("1RSO")] * 100)[-27:]
    '1RSO, 1RSO, ... (100 items)'
    """
    try:
        text = written(value, _inputs.short)
    except Exception:  # a container of the student's whose items cannot be read one by one
        text = _inputs.short(value)
    if len(text) <= width:
        return text
    size = f" ({len(value)} items)" if type(value) in (list, tuple, set, frozenset, dict) else ""
    cut = text[: width - len(size) - 5]
    return cut[: cut.rfind(", ") + 2 if ", " in cut else len(cut)] + "..." + size


class Unread:
    """A returned value that the grader does not read as an answer: it equals nothing.

    The graded tests receive a student's answers as plain data (None, True and False, whole
    numbers, finite floats, strings, Cards, Fractions, and tuples, lists, sets and dicts of them;
    numpy's numbers and arrays as the plain values they hold). Anything else, such as an object
    of a class of the notebook that says it equals everything, or an integer too long to send,
    reaches the grader as an opaque value that is never right. :func:`graded` turns such a value
    into an ``Unread``, so that the checks judge what the grader judges.
    """

    def __init__(self, text: str) -> None:
        self.text = text

    def __eq__(self, other: object) -> bool:
        return False

    def __ne__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"<{self.text}>"


_MAX_INT_BITS = 13_000  # the largest integer the grader receives as a number (about 3,900 digits)
_MAX_DEPTH = 12  # how deeply an answer may nest for the grader


def graded(value: Any, depth: int = 0) -> Any:
    """``value`` as the graded tests see it: plain values kept, numpy's made plain, others :class:`Unread`.

    The same rule as the grader's reading of an answer (``setwidgets.grading.compute``): exact
    types only, so a subclass of tuple or int is not a tuple or an int here either.
    """
    kind = type(value)
    if depth > _MAX_DEPTH:
        return Unread(f"a value nested more than {_MAX_DEPTH} levels deep")
    if kind is int and value.bit_length() > _MAX_INT_BITS:
        return Unread(_inputs.short(value))
    if value is None or kind in (bool, int, str, Card, Fraction):
        return value
    if kind is float:
        return value if math.isfinite(value) else Unread(f"the float {value!r}")
    if kind in (tuple, list):
        return kind(graded(item, depth + 1) for item in value)
    if kind in (set, frozenset):
        return kind(graded(item, depth + 1) for item in value)
    if kind is dict:
        return {graded(k, depth + 1): graded(v, depth + 1) for k, v in value.items()}
    if kind.__module__ == "numpy" and hasattr(value, "tolist"):
        # numpy's numbers and arrays are what a right answer often returns: the grader reads their values.
        return graded(value.tolist(), depth)
    return Unread(_unread_text(value))


def _unread_text(value: Any) -> str:
    kind = type(value)
    plain = next(
        (base for base in (bool, int, float, str, tuple, list, set, dict) if isinstance(value, base)), None
    )
    if plain is not None:
        return (
            f"an object of the class {kind.__name__} (a subclass of {plain.__name__}, not a {plain.__name__})"
        )
    return f"an object of the class {kind.__name__}"


def first_unread(value: Any) -> Unread | None:
    """The first :class:`Unread` inside a value :func:`graded` returned, or None."""
    if type(value) is Unread:
        return value
    if type(value) in (tuple, list, set, frozenset):
        return next((found for item in value if (found := first_unread(item)) is not None), None)
    if type(value) is dict:
        return next(
            (found for pair in value.items() if (found := first_unread(list(pair))) is not None), None
        )
    return None


def require_function(exercise: str, func: Any) -> str:
    """Return the function's name for messages, or refuse what is not a function."""
    if not callable(func):
        raise TypeError(
            f"check_{exercise}() needs your function itself, as in check_{exercise}({exercise}); "
            f"got {_inputs.what(func)}"
        )
    return _name_of(func, exercise)


PLAIN = "plain values (True or False, numbers, text, Cards, and lists and tuples of them)"


def run(
    name: str, func: Callable, cases: Sequence[Case], seconds: float | None, expects: str = PLAIN
) -> CheckResult:
    """Call ``func`` on each case until one goes wrong; print and return the result.

    ``expects`` says what ``func`` should return ("True or False (a bool)"): the sentence for an
    answer of a kind the grader does not read, or one the case's judge cannot look into.
    """
    seconds = _inputs.seconds(seconds, "seconds=")
    checked = 0
    message = ""
    case = cases[0]
    try:
        with _time_limit(seconds):
            for case in cases:
                message = _one_case(name, func, case, expects)
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


def _one_case(name: str, func: Callable, case: Case, expects: str = PLAIN) -> str:
    """Return '' when the case passes, else the sentence that explains what went wrong."""
    before = [list(arg) if type(arg) is list else arg for arg in case.args]
    try:
        raw = (case.call or func)(*case.args)
        got = graded(raw)
    except NotImplementedError as error:
        unwritten = _raised_in(error) or name
        uses = "" if unwritten in (name, "<lambda>") else f" ({name} calls it)"
        return (
            f"{unwritten} is not written yet{uses}: replace the line `raise NotImplementedError()` "
            "with your code, then run that cell again."
        )
    except Exception as error:
        return _raised(case, error)
    if case.raises is not None:
        should = f"it should raise a {case.raises.__name__}: {case.raises_hint}"
        return f"{case.label} returned {show(got)}, but {should}"
    odd = first_unread(got)
    if odd is not None:
        what = odd.text if odd is got else f"{show(got)}, with {odd.text} inside"
        return (
            f"{case.label} returned {what}, which the grader cannot read as an answer: "
            f"{name} should return {expects}."
        )
    try:
        problem = case.judge(got)
    except Exception:  # an answer of a shape the judge cannot look into
        return f"{case.label} returned {_returned(raw, got)}, but {name} should return {expects}."
    if not problem:
        return _changed(name, case, before)
    # A case with its own call (such as counting calls) writes the whole sentence itself.
    return problem if case.call else f"{case.label} returned {_returned(raw, got)}, but {problem}"


def _returned(raw: Any, got: Any) -> str:
    """What the function returned, in a message; a numpy array is named, with what the grader reads."""
    if type(raw).__module__ == "numpy" and type(got) is list:
        return f"a numpy array, which the grader reads as the list {show(got)}"
    return show(got)


def _raised(case: Case, error: Exception) -> str:
    """'' when the case wanted this error, else what is wrong with it."""
    text = _inputs.clipped(str(error).rstrip("."))
    raised = f"{case.label} raised {type(error).__name__}: {text}."
    if case.raises is None:
        return f"{raised} {case.raises_hint}".rstrip()
    wanted = case.raises.__name__
    if type(error) is not case.raises:
        # The grader reads the error's name: a class of the notebook's own is not the one asked for.
        kind = f", a kind of {wanted}," if isinstance(error, case.raises) else ""
        return f"{raised[:-1]}{kind} but it should raise {wanted} itself: {case.raises_hint}"
    problem = case.raises_message(str(error)) if case.raises_message else None
    return f"{raised[:-1]}, but {problem}" if problem else ""


def _changed(name: str, case: Case, before: list[Any]) -> str:
    """'' when the call left its list arguments as they were, else the sentence that says which it changed."""
    for what, arg, was in zip(case.unchanged, case.args, before):
        if type(arg) is list and arg != was:
            return (
                f"{case.label} gave the right answer but changed the {what} it was given "
                f"({_words.count(len(was), 'card')} before, {len(arg)} after): {name} must leave its "
                f"arguments as they are and return new lists (start with {what} = list({what}))."
            )
    return ""


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
    listed = Counter(frozenset(s) for s in got)
    if len(got) > len(expected) and set(listed) == {frozenset(s) for s in expected}:
        # The right SETs, one or more of them more than once.
        times = set(listed.values())
        if len(times) == 1:
            return f"each SET is listed {_times(times.pop())}: {there}{where}; list each SET once."
        again = next(s for s in got if listed[frozenset(s)] > 1)
        return f"({codes(again)}) is listed {_times(listed[frozenset(again)])}: list each SET once."
    if sorted(got) == sorted(expected):
        return f"the right SETs, but {order}: {sets_label(expected[:3])}..."
    if {frozenset(s) for s in got} == {frozenset(s) for s in expected} and len(got) == len(expected):
        return f"the right SETs, but {inside}"
    missing = [s for s in expected if s not in got]
    if missing:
        return f"{there}{where}; {sets_label(missing[:1])} is missing."
    extra = [s for s in got if s not in expected]
    if extra:
        return f"{there}{where}; {sets_label(extra[:1])} should not be there."
    again = next(s for s in got if got.count(s) > 1)
    twice = _times(got.count(again))
    return f"{there}{where}; ({codes(again)}) is listed {twice}: list each SET once."


def _times(n: int) -> str:
    return "twice" if n == 2 else f"{_words.number_word(n) if n < 10 else n} times"


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
    return brief(got)


def short_case(
    func: Callable,
    args: tuple,
    label: str,
    judge: Callable[[Any], str | None],
    unchanged: tuple[str, ...] = (),
) -> Case:
    """A case whose message names the result in a few words (a whole deck would fill the screen).

    ``unchanged`` names the list arguments the call must leave as they are.
    """

    def whole(got: Any) -> str | None:
        problem = judge(got)
        return problem and f"{label} returned {short_result(got)}, but {problem}"

    return Case(args, label, whole, call=func, unchanged=unchanged)


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
